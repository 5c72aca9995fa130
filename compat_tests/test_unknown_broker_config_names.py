"""A broker config name Kafka 4.3 does not know, set per broker and as the cluster default (the same
module passes with `run_against_kafka.py`): Kafka's broker takes it (DynamicBrokerConfig refuses only its
own non-dynamic names), its controller stores it, and DescribeConfigs lists it read-only, sensitive (no
value), of type UNKNOWN, from the layer it was set in; kafka-configs --describe shows it as
`name=null sensitive=true`, with and without --all. A legacy AlterConfigs replaces it as any other
dynamic config. It does nothing (there is nothing it could do)."""

from __future__ import annotations

import time
import uuid

from harness import RawClient, kafka_tool
from odradek.wire.messages import alter_configs_request as legacy
from odradek.wire.messages.describe_configs_request import DescribeConfigsRequest, DescribeConfigsResource
from odradek.wire.messages.incremental_alter_configs_request import (AlterableConfig, AlterConfigsResource,
                                                                      IncrementalAlterConfigsRequest)
from odradek.wire.messages.metadata_request import MetadataRequest

BROKER, SET, DELETE = 4, 0, 1
DYNAMIC_BROKER_CONFIG, DYNAMIC_DEFAULT_BROKER_CONFIG = 2, 3


def _alter(c: RawClient, name: str, ops: list[tuple[str, int, str | None]]) -> tuple:
    resp = c.call(IncrementalAlterConfigsRequest(resources=[AlterConfigsResource(
        resource_type=BROKER, resource_name=name,
        configs=[AlterableConfig(name=k, config_operation=op, value=v) for k, op, v in ops])], validate_only=False), 1)
    return tuple((r.error_code, r.error_message) for r in resp.responses)


def _described(c: RawClient, name: str, keys: list[str] | None, synonyms: bool) -> dict[str, tuple]:
    resp = c.call(DescribeConfigsRequest(resources=[DescribeConfigsResource(
        resource_type=BROKER, resource_name=name, configuration_keys=keys)], include_synonyms=synonyms), 4)
    (r,) = resp.results
    assert r.error_code == 0, r.error_message
    return {e.name: (e.value, e.read_only, e.config_source, e.is_sensitive, e.config_type,
                     [(s.name, s.value, s.source) for s in e.synonyms]) for e in r.configs}


def _applied(c: RawClient, name: str, layers: dict[str, list[int]]) -> None:
    """Wait until the broker describes each key with synonyms from these layers (Kafka's broker applies a
    committed change a moment after the controller answered)."""
    deadline = time.monotonic() + 30
    while True:
        got = _described(c, name, list(layers), True)
        if {k: [s[2] for s in v[5]] for k, v in got.items()} == layers:
            return
        assert time.monotonic() < deadline, f"the broker did not describe the change: {got}"
        time.sleep(0.05)


def test_an_unknown_name_is_stored_and_described_as_kafka(bootstrap):
    own_key, default_key = f"odradek.test.{uuid.uuid4().hex[:8]}", f"odradek.test.{uuid.uuid4().hex[:8]}"
    c = RawClient(bootstrap)
    try:
        node = str(c.call(MetadataRequest(topics=[]), 1).brokers[0].node_id)
        assert _alter(c, node, [(own_key, SET, "abc")]) == ((0, None),)
        assert _alter(c, "", [(default_key, SET, "xyz"), (own_key, SET, "d")]) == ((0, None),)
        own, default = DYNAMIC_BROKER_CONFIG, DYNAMIC_DEFAULT_BROKER_CONFIG
        _applied(c, node, {own_key: [own, default], default_key: [default]})
        for keys in (None, [own_key, default_key, "no.such.key.at.all"]):
            got = _described(c, node, keys, True)
            assert got[own_key] == (None, True, own, True, 0, [(own_key, None, own), (own_key, None, default)])
            assert got[default_key] == (None, True, default, True, 0, [(default_key, None, default)])
            assert "no.such.key.at.all" not in got
            got = _described(c, node, keys, False)
            assert got[own_key] == (None, True, own, True, 0, [])
        got = _described(c, "", None, True)
        assert got[default_key] == (None, True, default, True, 0, [(default_key, None, default)])
        assert got[own_key] == (None, True, default, True, 0, [(own_key, None, default)])

        r = kafka_tool("configs", "--bootstrap-server", bootstrap, "--entity-type", "brokers",
                       "--entity-name", node, "--describe")
        assert f"  {own_key}=null sensitive=true synonyms={{DYNAMIC_BROKER_CONFIG:{own_key}=null, " \
               f"DYNAMIC_DEFAULT_BROKER_CONFIG:{own_key}=null}}" in r.stdout.splitlines()
        assert default_key not in r.stdout
        r = kafka_tool("configs", "--bootstrap-server", bootstrap, "--entity-type", "brokers",
                       "--entity-name", node, "--describe", "--all")
        assert f"  {default_key}=null sensitive=true synonyms={{DYNAMIC_DEFAULT_BROKER_CONFIG:{default_key}=null}}" \
            in r.stdout.splitlines()

        # a legacy AlterConfigs replaces the broker's dynamic configs: the unknown one with the rest
        resp = c.call(legacy.AlterConfigsRequest(resources=[legacy.AlterConfigsResource(
            resource_type=BROKER, resource_name=node, configs=[legacy.AlterableConfig(name=default_key, value="v")])],
            validate_only=False), 1)
        assert [(r.error_code, r.error_message) for r in resp.responses] == [(0, None)]
        _applied(c, node, {own_key: [default], default_key: [own, default]})
        got = _described(c, node, [own_key, default_key], True)
        assert got[own_key] == (None, True, default, True, 0, [(own_key, None, default)])
        assert got[default_key] == (None, True, own, True, 0, [(default_key, None, own), (default_key, None, default)])
    finally:
        _alter(c, node, [(default_key, DELETE, None)])
        _alter(c, "", [(own_key, DELETE, None), (default_key, DELETE, None)])
        c.close()
