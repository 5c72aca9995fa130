"""A broker's loggers and their levels (the BROKER_LOGGER config resource, KIP-412), as
`kafka-configs --entity-type broker-loggers` reads and changes them: DescribeConfigs lists every
logger with its level (odradek's are Python's: root and the odradek.* loggers), IncrementalAlterConfigs
sets one and the broker logs at that level from then on, with Kafka 4.3's refusals (a level it does not
know, a logger that does not exist, the root's deletion, APPEND, another node's id). The same module
passes against Kafka 4.3 (`run_against_kafka.py`)."""

from __future__ import annotations

import pytest

from harness import RawClient
from odradek.wire.messages.describe_configs_request import DescribeConfigsRequest, DescribeConfigsResource
from odradek.wire.messages.incremental_alter_configs_request import (AlterableConfig, AlterConfigsResource,
                                                                      IncrementalAlterConfigsRequest)
from odradek.wire.messages.metadata_request import MetadataRequest

TOPIC, BROKER, BROKER_LOGGER = 2, 4, 8
SET, DELETE, APPEND = 0, 1, 2
INVALID_REQUEST, INVALID_CONFIG, UNKNOWN_TOPIC_OR_PARTITION = 42, 40, 3
DYNAMIC_BROKER_LOGGER_CONFIG = 6


def _node(bootstrap: str) -> str:
    c = RawClient(bootstrap)
    try:
        return str(c.call(MetadataRequest(topics=[]), 1).brokers[0].node_id)
    finally:
        c.close()


def _alter(bootstrap: str, node: str, logger: str, level: str | None, op: int = SET) -> tuple:
    c = RawClient(bootstrap)
    try:
        resp = c.call(IncrementalAlterConfigsRequest(resources=[AlterConfigsResource(
            resource_type=BROKER_LOGGER, resource_name=node,
            configs=[AlterableConfig(name=logger, config_operation=op, value=level)])]), 1)
    finally:
        c.close()
    (r,) = resp.responses
    return r.error_code, r.error_message


def _describe(bootstrap: str, node: str):
    c = RawClient(bootstrap)
    try:
        resp = c.call(DescribeConfigsRequest(resources=[DescribeConfigsResource(
            resource_type=BROKER_LOGGER, resource_name=node, configuration_keys=None)]), 4)
    finally:
        c.close()
    (r,) = resp.results
    return r


def test_the_root_loggers_level_is_described_and_set(bootstrap):
    node = _node(bootstrap)
    r = _describe(bootstrap, node)
    assert r.error_code == 0
    (root,) = [e for e in r.configs if e.name == "root"]
    assert (root.config_source, root.read_only, root.is_sensitive) == (DYNAMIC_BROKER_LOGGER_CONFIG, False, False)
    before = root.value
    assert before in ("TRACE", "DEBUG", "INFO", "WARN", "ERROR", "FATAL")
    other = "WARN" if before != "WARN" else "INFO"
    try:
        assert _alter(bootstrap, node, "root", other) == (0, None)
        assert [e.value for e in _describe(bootstrap, node).configs if e.name == "root"] == [other]
    finally:
        assert _alter(bootstrap, node, "root", before) == (0, None)


@pytest.mark.parametrize("logger,level,op,code,message", [
    ("root", "LOUD", SET, INVALID_CONFIG, "Cannot set the log level of root to LOUD as it is not a supported log level. "
                                          "Valid log levels are DEBUG, ERROR, FATAL, INFO, TRACE, WARN"),
    ("no.such.logger.here", "INFO", SET, INVALID_CONFIG, "Logger no.such.logger.here does not exist!"),
    ("no.such.logger.here", None, DELETE, INVALID_CONFIG, "Logger no.such.logger.here does not exist!"),
    ("root", None, DELETE, INVALID_REQUEST, "Removing the log level of the root logger is not allowed"),
    ("root", "INFO", APPEND, INVALID_REQUEST, "APPEND operation is not allowed for the BROKER_LOGGER resource"),
])
def test_refused_as_kafka(bootstrap, logger, level, op, code, message):
    assert _alter(bootstrap, _node(bootstrap), logger, level, op) == (code, message)


def test_another_nodes_loggers_are_refused(bootstrap):
    node = int(_node(bootstrap))
    assert _alter(bootstrap, str(node + 6), "root", "INFO") == (
        INVALID_REQUEST, f"Unexpected node id. Expected {node}, but received {node + 6}")
    assert _alter(bootstrap, "x", "root", "INFO") == (INVALID_REQUEST, "Node id must be an integer, but it is: x")
    r = _describe(bootstrap, "")
    assert (r.error_code, r.error_message, list(r.configs)) == (INVALID_REQUEST, "Broker id must not be empty", [])
    r = _describe(bootstrap, str(node + 6))
    assert (r.error_code, r.error_message) == (INVALID_REQUEST, f"Unexpected broker id, expected {node} but received "
                                                                f"{node + 6}")


def _alter_many(bootstrap: str, resources: list) -> list:
    """IncrementalAlterConfigs of [(type, name, [(key, op, value)])] -> [(type, name, code, message)] as answered."""
    c = RawClient(bootstrap)
    try:
        resp = c.call(IncrementalAlterConfigsRequest(resources=[AlterConfigsResource(
            resource_type=t, resource_name=n, configs=[AlterableConfig(name=k, config_operation=op, value=v)
                                                       for k, op, v in entries]) for t, n, entries in resources]), 1)
    finally:
        c.close()
    return [(r.resource_type, r.resource_name, r.error_code, r.error_message) for r in resp.responses]


def _root_level(bootstrap: str, node: str) -> str:
    return [e.value for e in _describe(bootstrap, node).configs if e.name == "root"][0]


def test_the_requests_checks_come_first(bootstrap):
    """Kafka's ConfigAdminManager.preprocess, before any logger is changed: a resource named twice
    (each answered, none applied), a key named twice in one resource, a value missing (null) for SET."""
    node = _node(bootstrap)
    before = _root_level(bootstrap, node)
    other = "WARN" if before != "WARN" else "INFO"
    twice = "Each resource must appear at most once."
    assert _alter_many(bootstrap, [(BROKER_LOGGER, node, [("root", SET, other)]),
                                   (BROKER_LOGGER, node, [("root", SET, other)])]) == [
        (BROKER_LOGGER, node, INVALID_REQUEST, twice), (BROKER_LOGGER, node, INVALID_REQUEST, twice)]
    assert _alter_many(bootstrap, [(BROKER_LOGGER, node, [("root", SET, other), ("root", DELETE, None)])]) == [
        (BROKER_LOGGER, node, INVALID_REQUEST, "Error due to duplicate config keys")]
    assert _alter_many(bootstrap, [(BROKER_LOGGER, node, [("root", SET, None), ("no.such.logger", APPEND, None),
                                                          ("root.too", DELETE, None)])]) == [
        (BROKER_LOGGER, node, INVALID_REQUEST, "Null value not supported for : root, no.such.logger")]
    assert _root_level(bootstrap, node) == before


def test_node_ids_are_read_as_java_reads_them(bootstrap):
    """Integer.parseInt: a sign and leading zeros are taken; spaces, underscores and numbers beyond
    32 bits are not numbers."""
    node = _node(bootstrap)
    before = _root_level(bootstrap, node)
    for name in (f"+{node}", f"0{node}"):
        assert _alter(bootstrap, name, "root", before) == (0, None)
    for name in (f" {node}", f"{node} ", f"0_{node}", "99999999999"):
        assert _alter(bootstrap, name, "root", before) == (INVALID_REQUEST, f"Node id must be an integer, but it is: "
                                                                            f"{name}")
    assert _describe(bootstrap, f"+{node}").error_code == 0
    r = _describe(bootstrap, f"0_{node}")
    assert (r.error_code, r.error_message) == (INVALID_REQUEST, f"Broker id must be an integer, but it is: 0_{node}")


def test_answered_in_the_requests_order(bootstrap):
    node = _node(bootstrap)
    before = _root_level(bootstrap, node)
    answers = _alter_many(bootstrap, [(TOPIC, "test-no-such-topic", [("retention.ms", SET, "1000")]),
                                      (BROKER_LOGGER, "x", [("root", SET, before)]),
                                      (BROKER_LOGGER, node, [("root", SET, before)]),
                                      (TOPIC, "test-no-such-topic-2", [("retention.ms", SET, None)]),
                                      (BROKER_LOGGER, "-1", [("root", SET, before)])])
    assert answers == [(TOPIC, "test-no-such-topic", UNKNOWN_TOPIC_OR_PARTITION, "The topic 'test-no-such-topic' "
                                                                                  "does not exist."),
                       (BROKER_LOGGER, "x", INVALID_REQUEST, "Node id must be an integer, but it is: x"),
                       (BROKER_LOGGER, node, 0, None),
                       (TOPIC, "test-no-such-topic-2", INVALID_REQUEST, "Null value not supported for : retention.ms"),
                       (BROKER_LOGGER, "-1", INVALID_REQUEST, f"Unexpected node id. Expected {node}, but received -1")]


def test_described_in_the_requests_order(bootstrap):
    node = _node(bootstrap)
    c = RawClient(bootstrap)
    try:
        resp = c.call(DescribeConfigsRequest(resources=[
            DescribeConfigsResource(resource_type=BROKER, resource_name=node, configuration_keys=["log.retention.ms"]),
            DescribeConfigsResource(resource_type=BROKER_LOGGER, resource_name=node, configuration_keys=["root"]),
            DescribeConfigsResource(resource_type=BROKER, resource_name="", configuration_keys=None)]), 4)
    finally:
        c.close()
    assert [(r.resource_type, r.resource_name, r.error_code) for r in resp.results] == [
        (BROKER, node, 0), (BROKER_LOGGER, node, 0), (BROKER, "", 0)]
