"""Kafka 4.3's own kafka-leader-election and kafka-reassign-partitions against a cluster of
1 controller + 3 brokers of real processes (issue 20): a reassignment moving a partition
with data from two brokers to two others completes (the new replicas catch up, the leader
reports them in sync, the controller drops the old ones) and --verify says so; the records
are all there on the new leader; --generate shows the current assignment and proposes one
over the brokers given; a preferred election is answered as Kafka answers it."""

from __future__ import annotations

import json

import pytest
from confluent_kafka import Consumer, Producer, TopicPartition

from harness import RawClient, kafka_tool
from odradek.wire.messages.create_topics_request import CreatableTopic, CreatableReplicaAssignment, CreateTopicsRequest
from test_cluster_elections import partitions
from cluster import running_odradek, wait_for


@pytest.fixture
def cluster(tmp_path):
    with running_odradek(tmp_path, 1, 3) as c:
        yield c


def test_reassign_partitions_and_leader_election_tools(cluster, tmp_path):
    brokers = sorted(cluster.brokers, key=lambda n: n.id)
    a, b, c = (n.id for n in brokers)
    bootstrap = ",".join(f"127.0.0.1:{n.port}" for n in brokers)
    raw = RawClient(f"127.0.0.1:{brokers[0].port}")
    try:
        r = raw.call(CreateTopicsRequest(topics=[CreatableTopic(
            name="moved", num_partitions=-1, replication_factor=-1,
            assignments=[CreatableReplicaAssignment(partition_index=0, broker_ids=[a, b])])], timeout_ms=10000), 7)
        assert r.topics[0].error_code == 0
    finally:
        raw.close()
    wait_for(lambda: partitions(brokers[0].port, "moved").get(0, (0, 0, [], []))[3] == [a, b], 30, "ISR [a, b]")
    p = Producer({"bootstrap.servers": bootstrap, "acks": "all"})
    for i in range(200):
        p.produce("moved", value=b"v%d" % i, partition=0)
    assert p.flush(30) == 0

    # --generate: the current assignment as the cluster reports it, and a proposal over the brokers given
    topics = tmp_path / "topics.json"
    topics.write_text(json.dumps({"version": 1, "topics": [{"topic": "moved"}]}))
    out = kafka_tool("reassign-partitions", "--bootstrap-server", bootstrap, "--topics-to-move-json-file",
                     str(topics), "--broker-list", f"{b},{c}", "--generate")
    assert out.returncode == 0, out.stdout + out.stderr
    lines = out.stdout.splitlines()
    current = json.loads(lines[lines.index("Current partition replica assignment") + 1])
    proposed = json.loads(lines[lines.index("Proposed partition reassignment configuration") + 1])
    [now] = current["partitions"]  # (log_dirs: each replica's directory, which the tool asks the brokers for)
    assert (now["topic"], now["partition"], now["replicas"], len(now["log_dirs"])) == ("moved", 0, [a, b], 2)
    [move] = proposed["partitions"]
    assert (move["topic"], move["partition"], sorted(move["replicas"])) == ("moved", 0, sorted([b, c]))

    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"version": 1, "partitions": [
        {"topic": "moved", "partition": 0, "replicas": [b, c], "log_dirs": ["any", "any"]}]}))
    out = kafka_tool("reassign-partitions", "--bootstrap-server", bootstrap, "--reassignment-json-file", str(plan),
                     "--execute")
    assert out.returncode == 0, out.stdout + out.stderr
    assert "Successfully started partition reassignment for moved-0" in out.stdout

    def verified():
        v = kafka_tool("reassign-partitions", "--bootstrap-server", bootstrap, "--reassignment-json-file",
                       str(plan), "--verify")
        return "Reassignment of partition moved-0 is completed." in v.stdout and v
    wait_for(verified, 60, "the reassignment to complete")
    leader, _, replicas, isr = partitions(brokers[1].port, "moved")[0]
    assert replicas == [b, c] and sorted(isr) == sorted([b, c]) and leader in (b, c)

    consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": "g-moved", "enable.auto.commit": False})
    try:
        consumer.assign([TopicPartition("moved", 0, 0)])
        got = []
        while len(got) < 200:
            msgs = consumer.consume(200, timeout=10)
            assert msgs, f"only {len(got)} records read back"
            got += [m.value() for m in msgs if m.error() is None]
        assert got == [b"v%d" % i for i in range(200)]
    finally:
        consumer.close()

    out = kafka_tool("leader-election", "--bootstrap-server", bootstrap, "--election-type", "PREFERRED",
                     "--topic", "moved", "--partition", "0")
    text = out.stdout + out.stderr
    if leader == b:
        assert "Valid replica already elected for partitions moved-0" in text, text
    else:
        assert "Successfully completed leader election (PREFERRED) for partitions moved-0" in text, text
