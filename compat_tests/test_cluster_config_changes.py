"""Config changes and what they do on 1 controller + 2 brokers of real processes (cluster.py;
`--cluster-kafka` runs the same module on Apache Kafka 4.3):

- a changed dynamic broker default of a topic config (the cluster default's log.retention.ms, as
  `kafka-configs --entity-type brokers --entity-default --alter --add-config log.retention.ms=...`)
  reaches the logs of the topics there already without a value of their own: retention deletes
  their old segments (Kafka's DynamicLogConfig.reconfigure);
- with eligible leader replicas (eligible.leader.replicas.version 1, a fresh cluster's level), a
  change of min.insync.replicas empties the ELR of the partitions it concerns: a topic's value that
  topic's, the cluster default's (even set to the value it had) every topic's. The controller's
  metadata log, read with Kafka's own dump-log, holds a ClearElrRecord after each such ConfigRecord
  (a new topic's too) and a ConfigRecord for the cluster default set to the same value;
- a resource named more than once in a request sent to the controller itself (a client's
  bootstrap.controllers) is answered as Kafka's ControllerApis: its second entry INVALID_REQUEST
  "Duplicate resource." ahead of the others, no answer for its other entries, nothing of it changed;
- a broker's loggers (BROKER_LOGGER) are changed by the broker the request reaches, not forwarded:
  another broker's id is refused, and the answer keeps the request's order.
"""

from __future__ import annotations

import json

import pytest
from confluent_kafka import Producer

from cluster import running_cluster, wait_for
from harness import RawClient, kafka_tool
from odradek.wire.messages.describe_configs_request import DescribeConfigsRequest, DescribeConfigsResource
from odradek.wire.messages.describe_topic_partitions_request import DescribeTopicPartitionsRequest, TopicRequest
from odradek.wire.messages import alter_configs_request as legacy
from odradek.wire.messages.incremental_alter_configs_request import (AlterableConfig, AlterConfigsResource,
                                                                      IncrementalAlterConfigsRequest)
from odradek.wire.messages.list_offsets_request import ListOffsetsPartition, ListOffsetsRequest, ListOffsetsTopic

TOPIC, BROKER = 2, 4
MIN_ISR = "min.insync.replicas"


@pytest.fixture(scope="module")
def cluster(tmp_path_factory, pytestconfig):
    with running_cluster(tmp_path_factory.mktemp("config-changes"), pytestconfig, 1, 2,
                         props={"log.retention.check.interval.ms": "500"}) as c:
        yield c


def alter(port: int, rtype: int, name: str, key: str, value: str) -> None:
    c = RawClient(f"127.0.0.1:{port}")
    try:
        resp = c.call(IncrementalAlterConfigsRequest(resources=[AlterConfigsResource(
            resource_type=rtype, resource_name=name, configs=[AlterableConfig(name=key, config_operation=0,
                                                                              value=value)])]), 1)
    finally:
        c.close()
    assert [(r.error_code, r.error_message) for r in resp.responses] == [(0, None)]


def log_start(port: int, topic: str, partition: int = 0) -> int:
    c = RawClient(f"127.0.0.1:{port}")
    try:
        resp = c.call(ListOffsetsRequest(replica_id=-1, topics=[ListOffsetsTopic(
            name=topic, partitions=[ListOffsetsPartition(partition_index=partition, timestamp=-2)])]), 1)
    finally:
        c.close()
    p = resp.topics[0].partitions[0]
    assert p.error_code == 0, p.error_code
    return p.offset


def elr(port: int, topic: str) -> tuple[list[int], list[int], list[int]]:
    """(ISR, ELR, last known ELR) of partition 0, as broker ``port`` answers DescribeTopicPartitions."""
    c = RawClient(f"127.0.0.1:{port}")
    try:
        resp = c.call(DescribeTopicPartitionsRequest(topics=[TopicRequest(name=topic)]), 0)
    finally:
        c.close()
    (t,) = resp.topics
    assert t.error_code == 0, t.error_code
    (p,) = t.partitions
    return sorted(p.isr_nodes), sorted(p.eligible_leader_replicas), sorted(p.last_known_elr)


def test_a_changed_cluster_default_retention_deletes_old_segments_of_existing_topics(cluster):
    topic = "retained"
    leader = cluster.create_topic(topic, 1, 1, {"segment.ms": "100"})[0].leader
    node = cluster.node(leader)
    producer = Producer({"bootstrap.servers": cluster.bootstrap, "linger.ms": 0})

    def rolled() -> bool:  # a record at a time until the partition has rolled a few segments
        producer.produce(topic, b"x" * 100)
        assert producer.flush(10) == 0
        return len(list((node.log_dir / f"{topic}-0").glob("*.log"))) >= 3
    wait_for(rolled, 60, "three segments")
    assert log_start(node.port, topic) == 0  # (kept for 7 days by default)
    alter(node.port, BROKER, "", "log.retention.ms", "1000")
    wait_for(lambda: log_start(node.port, topic) > 0, 60, "old segments deleted",
             last=lambda: log_start(node.port, topic))


def test_a_negative_broker_retention_keeps_the_records_as_unlimited(cluster):
    """log.retention.ms -2 as the cluster default (Kafka takes any negative value: unlimited, as -1) keeps a
    topic's old segments, while retention runs: a witness topic of its own retention.ms 1000 on the same
    broker loses its old segments twice, the second time segments written after the kept topic's."""
    kept, witness = "kept-unlimited", "witness-1s"
    alter(cluster.node(min(n.id for n in cluster.brokers)).port, BROKER, "", "log.retention.ms", "-2")
    leader = cluster.create_topic(kept, 1, 1, {"segment.ms": "100"})[0].leader
    # partitions striped over both brokers: one of them on the kept topic's
    beside = [p for p, st in cluster.create_topic(witness, 4, 1, {"segment.ms": "100", "retention.ms": "1000"}).items()
              if st.leader == leader]
    assert beside, "no partition of the witness on the kept topic's broker"
    part = beside[0]
    node = cluster.node(leader)
    producer = Producer({"bootstrap.servers": cluster.bootstrap, "linger.ms": 0})

    def rolled(topic: str, partition: int, segments: int):
        def more() -> bool:  # a record at a time until the partition has this many segments
            producer.produce(topic, b"x" * 100, partition=partition)
            assert producer.flush(10) == 0
            return len(list((node.log_dir / f"{topic}-{partition}").glob("*.log"))) >= segments
        wait_for(more, 60, f"{segments} segments of {topic}-{partition}")

    try:
        rolled(kept, 0, 3)
        rolled(witness, part, 3)
        first = wait_for(lambda: log_start(node.port, witness, part) or None, 60, "the witness's old segments deleted")
        rolled(witness, part, 3)  # (written after the kept topic's records, more than 1 s later)
        wait_for(lambda: log_start(node.port, witness, part) > first, 60, "the witness's later segments deleted",
                 last=lambda: log_start(node.port, witness, part))
        assert log_start(node.port, kept) == 0
        assert len(list((node.log_dir / f"{kept}-0").glob("*.log"))) >= 3
    finally:
        producer.flush(10)
        c = RawClient(f"127.0.0.1:{node.port}")
        try:
            c.call(IncrementalAlterConfigsRequest(resources=[AlterConfigsResource(
                resource_type=BROKER, resource_name="", configs=[AlterableConfig(
                    name="log.retention.ms", config_operation=1, value=None)])]), 1)
        finally:
            c.close()


def test_an_unknown_broker_config_is_forwarded_and_stored(cluster):
    """A name Kafka does not know, set through a broker on itself and on the cluster default: taken by the
    broker, stored by the controller, described by every broker as Kafka describes it (read-only,
    sensitive, of type UNKNOWN); a per-broker one only by its broker."""
    first, second = sorted(cluster.brokers, key=lambda n: n.id)[:2]
    alter(first.port, BROKER, str(first.id), "odradek.test.own", "abc")
    alter(first.port, BROKER, "", "odradek.test.default", "xyz")

    def described(port: int, name: str) -> dict:
        c = RawClient(f"127.0.0.1:{port}")
        try:
            resp = c.call(DescribeConfigsRequest(resources=[DescribeConfigsResource(
                resource_type=BROKER, resource_name=name,
                configuration_keys=["odradek.test.own", "odradek.test.default"])], include_synonyms=True), 4)
        finally:
            c.close()
        (r,) = resp.results
        return {e.name: (e.value, e.read_only, e.config_source, e.is_sensitive, e.config_type,
                         [(y.name, y.value, y.source) for y in e.synonyms]) for e in r.configs}
    wait_for(lambda: len(described(second.port, str(second.id))) == 1, 30, "the default on the other broker")
    assert described(first.port, str(first.id)) == {
        "odradek.test.own": (None, True, 2, True, 0, [("odradek.test.own", None, 2)]),
        "odradek.test.default": (None, True, 3, True, 0, [("odradek.test.default", None, 3)])}
    assert described(second.port, str(second.id)) == {
        "odradek.test.default": (None, True, 3, True, 0, [("odradek.test.default", None, 3)])}
    assert described(second.port, "") == {
        "odradek.test.default": (None, True, 3, True, 0, [("odradek.test.default", None, 3)])}


def test_a_brokers_loggers_are_changed_on_that_broker(cluster):
    first, second = sorted(cluster.brokers, key=lambda n: n.id)
    if not (first.alive and second.alive):
        pytest.skip("needs both brokers (a broker was killed by an earlier test of the module)")

    def logger(node: str, level: str) -> AlterConfigsResource:
        return AlterConfigsResource(resource_type=8, resource_name=node, configs=[
            AlterableConfig(name="root", config_operation=0, value=level)])
    c = RawClient(f"127.0.0.1:{first.port}")
    try:
        resp = c.call(IncrementalAlterConfigsRequest(resources=[
            logger(str(second.id), "INFO"), AlterConfigsResource(resource_type=TOPIC, resource_name="no-such-topic",
                                                                 configs=[AlterableConfig(name="retention.ms",
                                                                                          config_operation=0,
                                                                                          value="1000")]),
            logger(str(first.id), "INFO")], validate_only=True), 1)
    finally:
        c.close()
    assert [(r.resource_type, r.resource_name, r.error_code, r.error_message) for r in resp.responses] == [
        (8, str(second.id), 42, f"Unexpected node id. Expected {first.id}, but received {second.id}"),
        (TOPIC, "no-such-topic", 3, "The topic 'no-such-topic' does not exist."),
        (8, str(first.id), 0, None)]


def metadata_records(cluster) -> list[dict]:
    """The controller's metadata log, as Kafka's dump-log --cluster-metadata-decoder reads it."""
    (controller,) = [n for n in cluster.nodes.values() if not n.is_broker]
    (segment,) = sorted(controller.log_dir.rglob("__cluster_metadata-0/*.log"))[:1]
    out = kafka_tool("dump-log", "--cluster-metadata-decoder", "--files", str(segment))
    assert out.returncode == 0, out.stderr
    return [json.loads(line.split(" payload: ", 1)[1]) for line in out.stdout.splitlines() if " payload: " in line]


def test_min_insync_replicas_changes_clear_the_elr_they_concern(cluster):
    a, b = "elr-a", "elr-b"
    for t in (a, b):
        cluster.create_topic(t, 1, 2, {MIN_ISR: "2"})
    gone, kept = sorted(n.id for n in cluster.brokers)
    port = cluster.node(kept).port
    cluster.kill9(gone)
    # fenced, out of the ISR (now under min.insync.replicas): into the ELR
    for t in (a, b):
        wait_for(lambda: elr(port, t) == ([kept], [gone], []), 60, f"{gone} in the ELR of {t}",
                 last=lambda: elr(port, t))
    alter(port, TOPIC, a, MIN_ISR, "1")
    wait_for(lambda: elr(port, a) == ([kept], [], []), 30, f"the ELR of {a} cleared", last=lambda: elr(port, a))
    assert elr(port, b) == ([kept], [gone], [])
    alter(port, BROKER, "", MIN_ISR, "1")  # the cluster default, set to the value it has
    wait_for(lambda: elr(port, b) == ([kept], [], []), 30, f"the ELR of {b} cleared", last=lambda: elr(port, b))

    def min_isr_records():
        return [(r["type"], r["data"].get("resourceName"), r["data"].get("value"), r["data"].get("topicName"))
                for r in metadata_records(cluster)
                if r["type"] == "CLEAR_ELR_RECORD" or (r["type"] == "CONFIG_RECORD" and r["data"]["name"] == MIN_ISR)]
    assert wait_for(min_isr_records, 30, "the records") == [
        ("CONFIG_RECORD", "", "1", None),  # (bootstrapped)
        ("CONFIG_RECORD", a, "2", None), ("CLEAR_ELR_RECORD", None, None, a),
        ("CONFIG_RECORD", b, "2", None), ("CLEAR_ELR_RECORD", None, None, b),
        ("CONFIG_RECORD", a, "1", None), ("CLEAR_ELR_RECORD", None, None, a),
        ("CONFIG_RECORD", "", "1", None), ("CLEAR_ELR_RECORD", None, None, "")]


def test_a_resource_named_twice_to_the_controller_is_answered_once(cluster):
    a, b = "twice-a", "twice-b"
    for t in (a, b):
        cluster.create_topic(t, 1, 1, {})
    (controller,) = [n for n in cluster.nodes.values() if not n.is_broker]

    def entry(name: str, value: str) -> AlterConfigsResource:
        return AlterConfigsResource(resource_type=TOPIC, resource_name=name, configs=[
            AlterableConfig(name="retention.ms", config_operation=0, value=value)])
    c = RawClient(f"127.0.0.1:{controller.controller_port}")
    try:
        resp = c.call(IncrementalAlterConfigsRequest(resources=[entry(a, "1000"), entry(b, "2000"), entry(a, "3000"),
                                                                entry(a, "4000")], validate_only=True), 1)
        got = [(r.resource_name, r.error_code, r.error_message) for r in resp.responses]
        assert got == [(a, 42, "Duplicate resource."), (b, 0, None)]
        resp = c.call(legacy.AlterConfigsRequest(resources=[legacy.AlterConfigsResource(
            resource_type=TOPIC, resource_name=n, configs=[legacy.AlterableConfig(name="retention.ms", value="1000")])
            for n in (b, a, b)], validate_only=True), 1)
        assert [(r.resource_name, r.error_code, r.error_message) for r in resp.responses] == [
            (b, 42, "Duplicate resource."), (a, 0, None)]
    finally:
        c.close()

