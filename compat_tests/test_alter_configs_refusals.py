"""(Incremental)AlterConfigs refusals checked against Kafka 4.3 (the same module passes with
`run_against_kafka.py`):

- a resource named more than once in one IncrementalAlterConfigs: each of its entries answered
  INVALID_REQUEST "Each resource must appear at most once." in its place, nothing of it changed, the
  other resources done (ConfigAdminManager.preprocess). (Kafka 4.3 never answers a legacy AlterConfigs
  with a resource named twice: its response's errorCounts fails on the duplicate key; odradek answers
  it as the same preprocessing decides, tests/controller/test_elr_config_changes.py.)
- a resource's name and values, each refused with Kafka's error and message: a topic's empty name,
  an invalid one (before its config names), APPEND to a config that is not a LIST, a broker's id that
  is not a number, a broker's invalid value (INVALID_REQUEST, as Kafka's broker wraps it; log.retention.ms
  0, log.roll.ms 0 and log.roll.jitter.ms -1 by KafkaConfig's requirements, the hours / minutes forms as
  no dynamic configs), a group's empty name; a broker's negative log.retention.ms (unlimited) and
  log.retention.bytes, and a name Kafka does not know, are taken; a topic's retention.ms -2 is refused;
- with eligible leader replicas (eligible.leader.replicas.version 1, a fresh cluster's level) a
  broker's own min.insync.replicas cannot be set or deleted, and the cluster default's cannot be
  deleted: INVALID_CONFIG with Kafka's messages.
"""

from __future__ import annotations

import time
import uuid

import pytest

from harness import RawClient, create_topic
from odradek.wire.messages.describe_configs_request import DescribeConfigsRequest, DescribeConfigsResource
from odradek.wire.messages.incremental_alter_configs_request import (AlterableConfig, AlterConfigsResource,
                                                                      IncrementalAlterConfigsRequest)
from odradek.wire.messages.metadata_request import MetadataRequest

TOPIC, BROKER, GROUP = 2, 4, 32
SET, DELETE, APPEND = 0, 1, 2
INVALID_REQUEST, INVALID_CONFIG = 42, 40
TWICE = "Each resource must appear at most once."


def _resource(rtype: int, name: str, key: str, value: str | None, op: int = SET) -> AlterConfigsResource:
    return AlterConfigsResource(resource_type=rtype, resource_name=name,
                                configs=[AlterableConfig(name=key, config_operation=op, value=value)])


def _alter(bootstrap: str, resources: list, version: int = 1) -> list[tuple]:
    c = RawClient(bootstrap)
    try:
        resp = c.call(IncrementalAlterConfigsRequest(resources=resources, validate_only=False), version)
    finally:
        c.close()
    return [(r.resource_type, r.resource_name, r.error_code, r.error_message) for r in resp.responses]


def _topic_config(bootstrap: str, topic: str, key: str) -> tuple[str, bool]:
    """(value, whether it is the topic's own)."""
    c = RawClient(bootstrap)
    try:
        resp = c.call(DescribeConfigsRequest(resources=[DescribeConfigsResource(
            resource_type=TOPIC, resource_name=topic, configuration_keys=[key])]), 1)
    finally:
        c.close()
    (entry,) = resp.results[0].configs
    return entry.value, entry.config_source == 1  # TOPIC_CONFIG


def _node_id(bootstrap: str) -> int:
    c = RawClient(bootstrap)
    try:
        return c.call(MetadataRequest(topics=[]), 1).brokers[0].node_id
    finally:
        c.close()


@pytest.mark.parametrize("version", [0, 1])
def test_a_resource_named_twice_is_refused_each_time_and_the_rest_done(bootstrap, version):
    a, b = (f"twice-{x}-{uuid.uuid4().hex[:8]}" for x in "ab")
    for t in (a, b):
        create_topic(bootstrap, t)
    got = _alter(bootstrap, [_resource(TOPIC, a, "retention.ms", "100000"), _resource(TOPIC, b, "retention.ms", "200000"),
                             _resource(TOPIC, a, "retention.ms", "300000"),
                             _resource(BROKER, "", "log.cleaner.backoff.ms", "20000"),
                             _resource(TOPIC, a, "segment.ms", "400000"),
                             _resource(BROKER, "", "log.cleaner.backoff.ms", "30000")], version)
    assert got == [(TOPIC, a, INVALID_REQUEST, TWICE), (TOPIC, b, 0, None), (TOPIC, a, INVALID_REQUEST, TWICE),
                   (BROKER, "", INVALID_REQUEST, TWICE), (TOPIC, a, INVALID_REQUEST, TWICE),
                   (BROKER, "", INVALID_REQUEST, TWICE)]
    assert _topic_config(bootstrap, b, "retention.ms") == ("200000", True)
    assert _topic_config(bootstrap, a, "retention.ms")[1] is False
    assert _topic_config(bootstrap, a, "segment.ms")[1] is False


def test_a_brokers_own_min_insync_replicas_is_refused_with_elr(bootstrap):
    node = str(_node_id(bootstrap))
    refused = (BROKER, node, INVALID_CONFIG, "Broker-level min.insync.replicas cannot be altered while ELR is enabled.")
    assert _alter(bootstrap, [_resource(BROKER, node, "min.insync.replicas", "1")]) == [refused]
    assert _alter(bootstrap, [_resource(BROKER, node, "min.insync.replicas", None, DELETE)]) == [refused]


def test_the_cluster_defaults_min_insync_replicas_cannot_be_deleted_with_elr(bootstrap):
    assert _alter(bootstrap, [_resource(BROKER, "", "min.insync.replicas", None, DELETE)]) == [
        (BROKER, "", INVALID_CONFIG, "Cluster-level min.insync.replicas cannot be removed while ELR is enabled.")]


@pytest.mark.parametrize("rtype,name,key,value,op,code,message", [
    (TOPIC, "", "retention.ms", "1", SET, INVALID_REQUEST, "Default topic resources are not allowed."),
    (TOPIC, "", "no.such.config", "1", SET, INVALID_REQUEST, "Default topic resources are not allowed."),
    (TOPIC, "bad name!", "no.such.config", "1", SET, 17,
     "Topic name is invalid: 'bad name!' contains one or more characters other than ASCII alphanumerics, '.', '_' and '-'"),
    (TOPIC, "", "retention.ms", "1", APPEND, INVALID_CONFIG, "Can't APPEND to key retention.ms because its type is not LIST."),
    (BROKER, "x", "log.retention.ms", "1", SET, INVALID_REQUEST, "Node id must be an integer, but it is: x"),
    (BROKER, "", "log.retention.ms", "abc", SET, INVALID_REQUEST,
     "Invalid value abc for configuration log.retention.ms: Not a number of type LONG"),
    (BROKER, "", "log.segment.bytes", "10", SET, INVALID_REQUEST,
     "Invalid value 10 for configuration log.segment.bytes: Value must be at least 1048576"),
    (BROKER, "", "log.cleanup.policy", "nope", SET, INVALID_REQUEST,
     "Invalid value nope for configuration log.cleanup.policy: String must be one of: compact, delete"),
    (BROKER, "", "log.retention.ms", "1", APPEND, INVALID_CONFIG,
     "Config value append is not allowed for config key: log.retention.ms"),
    (BROKER, "", "log.retention.ms", "0", SET, INVALID_REQUEST,
     "requirement failed: log.retention.ms must be unlimited (-1) or, greater than or equal to 1"),
    (BROKER, "", "log.roll.ms", "0", SET, INVALID_REQUEST, "requirement failed: log.roll.ms must be greater than or equal to 1"),
    (BROKER, "", "log.roll.jitter.ms", "-1", SET, INVALID_REQUEST,
     "requirement failed: log.roll.jitter.ms must be greater than or equal to 0"),
    (BROKER, "", "log.retention.hours", "1", SET, INVALID_REQUEST,
     "Cannot update these configs dynamically: [log.retention.hours]"),
    (BROKER, "", "log.retention.minutes", "-2", SET, INVALID_REQUEST,
     "Cannot update these configs dynamically: [log.retention.minutes]"),
    (BROKER, "", "log.roll.hours", "1", SET, INVALID_REQUEST, "Cannot update these configs dynamically: [log.roll.hours]"),
    (BROKER, "", "log.retention.ms", "-2", SET, 0, None),  # any negative value: unlimited
    (BROKER, "", "log.retention.bytes", "-2", SET, 0, None),
    (BROKER, "", "no.such.config", "1", SET, 0, None),  # stored (test_unknown_broker_config_names.py)
    (GROUP, "", "consumer.session.timeout.ms", "45000", SET, INVALID_REQUEST, "Default group resources are not allowed."),
])
def test_a_resources_name_and_values_are_refused_as_kafka(bootstrap, rtype, name, key, value, op, code, message):
    c = RawClient(bootstrap)
    try:
        resp = c.call(IncrementalAlterConfigsRequest(resources=[_resource(rtype, name, key, value, op)],
                                                     validate_only=True), 1)
    finally:
        c.close()
    assert [(r.error_code, r.error_message) for r in resp.responses] == [(code, message)]


def test_broker_ids_are_read_as_java_reads_them(bootstrap):
    """A BROKER resource's name is a node id as Integer.parseInt reads it: a sign or leading zeros name
    this broker (altered, described as it), spaces and underscores are no number."""
    node = _node_id(bootstrap)
    c = RawClient(bootstrap)
    try:
        def alter(name: str) -> tuple:
            resp = c.call(IncrementalAlterConfigsRequest(resources=[_resource(BROKER, name, "log.cleaner.backoff.ms",
                                                                               "15001")], validate_only=True), 1)
            return tuple((r.error_code, r.error_message) for r in resp.responses)

        def describe(name: str) -> tuple:
            (r,) = c.call(DescribeConfigsRequest(resources=[DescribeConfigsResource(
                resource_type=BROKER, resource_name=name, configuration_keys=["log.cleaner.backoff.ms"])]), 4).results
            return r.error_code, r.error_message, [(e.name, e.value) for e in r.configs]

        assert alter(f"+{node}") == alter(f"0{node}") == ((0, None),)
        assert alter(f" {node}") == ((INVALID_REQUEST, f"Node id must be an integer, but it is:  {node}"),)
        assert alter(f"0_{node}") == ((INVALID_REQUEST, f"Node id must be an integer, but it is: 0_{node}"),)
        assert describe(f"+{node}") == describe(f"0{node}") == describe(str(node))
        assert describe(str(node))[2] == [("log.cleaner.backoff.ms", "15000")]
        assert describe(f"0_{node}") == (INVALID_REQUEST, f"Broker id must be an integer, but it is: 0_{node}", [])
    finally:
        c.close()


def test_a_topics_retention_ms_is_bounded_unlike_the_brokers(bootstrap):
    """A topic's retention.ms has Kafka's LogConfig bound (at least -1: -2 is refused INVALID_CONFIG), while
    the broker's log.retention.ms takes any negative value (above)."""
    topic = f"retention-bound-{uuid.uuid4().hex[:8]}"
    create_topic(bootstrap, topic)
    c = RawClient(bootstrap)
    try:
        def alter(value: str) -> list[tuple]:
            resp = c.call(IncrementalAlterConfigsRequest(resources=[_resource(TOPIC, topic, "retention.ms", value)],
                                                         validate_only=False), 1)
            return [(r.error_code, r.error_message) for r in resp.responses]
        assert alter("-2") == [(INVALID_CONFIG, "Invalid value -2 for configuration retention.ms: Value must be at least -1")]
        assert _topic_config(bootstrap, topic, "retention.ms") == ("604800000", False)
        assert alter("-1") == [(0, None)]
        deadline = time.monotonic() + 30  # (Kafka's broker applies the committed change a moment later)
        while _topic_config(bootstrap, topic, "retention.ms") != ("-1", True):
            assert time.monotonic() < deadline, "retention.ms -1 not described"
            time.sleep(0.05)
    finally:
        c.close()
