"""Replication quotas (KIP-73) on 1 controller + 2 brokers of real processes: Kafka 4.3's
kafka-reassign-partitions --throttle sets leader.replication.throttled.rate and
follower.replication.throttled.rate on the brokers and the throttled replicas on the topic, and the
new replica then catches up no faster than the rate allows (a Rate over 11 one-second samples
counts at least 10 seconds, so by t seconds at most rate x (10 + t) bytes, plus one fetch); once the
throttle is lifted it completes, holds every record, and --verify removes the throttle configs.
A broker's configs are altered through that broker: another broker refuses them as Kafka's
ConfigAdminManager. The same module runs against Kafka 4.3 with --cluster-kafka."""

from __future__ import annotations

import json
import time

import pytest
from confluent_kafka import Producer

from cluster import running_cluster, wait_for
from harness import RawClient, kafka_tool
from odradek.wire.messages.create_topics_request import CreatableReplicaAssignment, CreatableTopic, CreateTopicsRequest
from odradek.wire.messages.describe_log_dirs_request import DescribeLogDirsRequest, DescribableLogDirTopic
from odradek.wire.messages.incremental_alter_configs_request import (AlterableConfig, AlterConfigsResource,
                                                                      IncrementalAlterConfigsRequest)

RATE = 10_000  # bytes a second
FETCH_BYTES = 8192  # replica.fetch.max.bytes: one fetch brings at most a batch past this
RECORDS, SIZE = 600, 1000
SAMPLE_S = 4.0  # sampled this long once the throttle is set


@pytest.fixture(scope="module")
def cluster(tmp_path_factory, request):
    with running_cluster(tmp_path_factory.mktemp("throttle"), request.config, 1, 2,
                         props={"replica.fetch.max.bytes": str(FETCH_BYTES)}) as c:
        yield c


def replica_size(port: int, topic: str) -> int:
    """The size of topic-0's replica on the broker at ``port`` (DescribeLogDirs; -1: none there)."""
    raw = RawClient(f"127.0.0.1:{port}")
    try:
        resp = raw.call(DescribeLogDirsRequest(topics=[DescribableLogDirTopic(topic=topic, partitions=[0])]), 4)
    finally:
        raw.close()
    sizes = [p.partition_size for d in resp.results for t in d.topics if t.name == topic for p in t.partitions]
    return sizes[0] if sizes else -1


def test_reassignment_under_a_replication_throttle(cluster, tmp_path):
    a, b = sorted(n.id for n in cluster.brokers)
    port = {n.id: n.port for n in cluster.brokers}
    bootstrap = cluster.bootstrap
    raw = RawClient(f"127.0.0.1:{port[a]}")
    try:
        r = raw.call(CreateTopicsRequest(topics=[CreatableTopic(
            name="thr", num_partitions=-1, replication_factor=-1,
            assignments=[CreatableReplicaAssignment(partition_index=0, broker_ids=[a])])], timeout_ms=10000), 7)
        assert r.topics[0].error_code == 0
    finally:
        raw.close()
    p = Producer({"bootstrap.servers": bootstrap, "acks": "all", "linger.ms": 5, "batch.size": 4096})
    wait_for(lambda: p.list_topics("thr", timeout=5).topics["thr"].partitions[0].leader == a, 30, "leader of thr")
    for i in range(RECORDS):
        p.produce("thr", value=b"%05d" % i + b"x" * (SIZE - 5), partition=0)
    assert p.flush(60) == 0
    total = replica_size(port[a], "thr")
    assert total > RECORDS * SIZE

    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"version": 1, "partitions": [{"topic": "thr", "partition": 0, "replicas": [a, b]}]}))
    started = time.monotonic()
    out = kafka_tool("reassign-partitions", "--bootstrap-server", bootstrap, "--reassignment-json-file", str(plan),
                     "--execute", "--throttle", str(RATE))
    assert out.returncode == 0, out.stdout + out.stderr
    assert f"The inter-broker throttle limit was set to {RATE} B/s" in out.stdout

    # held to the rate: t seconds after it was set, at most RATE x (10 + t) bytes, plus a fetch past it
    seen = []
    sampling = time.monotonic()
    while not seen or time.monotonic() - sampling < SAMPLE_S:
        t = time.monotonic() - started
        size = replica_size(port[b], "thr")
        seen.append(size)
        assert size <= RATE * (10 + t) + 4 * FETCH_BYTES, (t, size, seen)
        time.sleep(0.5)
    assert seen[-1] < total  # not done yet: the throttle holds it back
    configs = kafka_tool("configs", "--bootstrap-server", bootstrap, "--describe", "--entity-type", "topics",
                         "--entity-name", "thr")
    assert "leader.replication.throttled.replicas=0:%d" % a in configs.stdout, configs.stdout
    assert "follower.replication.throttled.replicas=0:%d" % b in configs.stdout, configs.stdout
    broker_cfg = kafka_tool("configs", "--bootstrap-server", bootstrap, "--describe", "--entity-type", "brokers",
                            "--entity-name", str(b))
    assert f"follower.replication.throttled.rate={RATE}" in broker_cfg.stdout, broker_cfg.stdout

    # lift the throttle: the reassignment completes, every byte there, --verify removes the configs
    for node in (a, b):
        done = kafka_tool("configs", "--bootstrap-server", bootstrap, "--alter", "--entity-type", "brokers",
                          "--entity-name", str(node), "--delete-config",
                          "leader.replication.throttled.rate,follower.replication.throttled.rate")
        assert done.returncode == 0, done.stdout + done.stderr
    wait_for(lambda: replica_size(port[b], "thr") == total, 60, "the new replica caught up")
    verify = kafka_tool("reassign-partitions", "--bootstrap-server", bootstrap, "--reassignment-json-file",
                        str(plan), "--verify")
    wait_for(lambda: "Reassignment of partition thr-0 is completed" in kafka_tool(
        "reassign-partitions", "--bootstrap-server", bootstrap, "--reassignment-json-file", str(plan),
        "--verify").stdout, 60, "--verify: completed")
    assert verify.returncode == 0

    # the --verify that saw it completed removed the throttles; the broker kafka-configs asks sees the
    # removal in its metadata a moment after the controller answered that --verify (as in Kafka)
    def topic_configs() -> str:
        return kafka_tool("configs", "--bootstrap-server", bootstrap, "--describe", "--entity-type", "topics",
                          "--entity-name", "thr").stdout

    def throttles_removed() -> str | None:
        out = topic_configs()
        return out if "Dynamic configs for topic thr are:" in out and "throttled.replicas" not in out else None

    configs = wait_for(throttles_removed, 30, "the topic's throttles removed", last=topic_configs)
    assert "throttled.replicas" not in configs, configs


def test_a_broker_alters_its_own_configs_only(cluster):
    a, b = sorted(n.id for n in cluster.brokers)
    port = {n.id: n.port for n in cluster.brokers}
    raw = RawClient(f"127.0.0.1:{port[a]}")
    try:
        def alter(name: str):
            return raw.call(IncrementalAlterConfigsRequest(resources=[AlterConfigsResource(
                resource_type=4, resource_name=name, configs=[AlterableConfig(
                    name="follower.replication.throttled.rate", config_operation=0, value="12345")])],
                validate_only=False), 1).responses
        [r] = alter(str(b))
        assert (r.error_code, r.error_message) == (42, f"Unexpected broker id, expected {a}, but received {b}")
        [r] = alter("x")
        assert (r.error_code, r.error_message) == (42, "Node id must be an integer, but it is: x")
        [r] = alter(str(a))
        assert (r.error_code, r.resource_name) == (0, str(a))
    finally:
        raw.close()
