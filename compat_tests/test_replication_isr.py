"""The ISR and acks of a replicated topic (issue 20), on real processes: 3 controllers + 3 brokers,
replication.factor=3, min.insync.replicas=2, stock clients and Kafka's own kafka-topics.

- Metadata and `kafka-topics --describe` report a leader, the three replicas (leaders spread over the
  brokers, each partition led by its first replica) and the full ISR, in Kafka 4.3's layout.
- With 2 of the 3 brokers down (SIGKILL) the ISR shrinks to the leader, the last follower to leave goes
  to the ELR (KIP-966, on in Kafka 4.3), `--under-min-isr-partitions` lists the partition; a Produce with
  acks=all answers NOT_ENOUGH_REPLICAS (19) and writes nothing, acks=1 is written; the brokers restarted
  catch up, the ISR is full again and every replica holds the same batches.
- Controlled shutdown (SIGTERM) of a leader under load: the broker exits 0 after its leaderships moved,
  the producers get no error, and nothing acknowledged is lost.

Checked against Apache Kafka 4.3 with --cluster-kafka (same tests, same clients).
"""
from __future__ import annotations

import re
import time

import pytest
from confluent_kafka import KafkaError, Producer

from cluster import running_cluster, wait_for
from harness import RawClient, kafka_tool
from odradek.wire import records
from odradek.wire.errors import ErrorCode
from odradek.wire.messages.produce_request import PartitionProduceData, ProduceRequest, TopicProduceData
from replication_load import ConfluentLoad, KafkaPythonLoad, check_log, read_partitions

BROKERS = [4, 5, 6]
DESCRIBE_LINE = re.compile(r"\s*Topic: (\S+)\s+Partition: (\d+)\s+Leader: (-?\d+|none)\s+Replicas: ([\d,]*)\s+"
                           r"Isr: ([\d,]*)\s+Elr: ([\d,]*)\s+LastKnownElr: ([\d,]*)\s*$")


# a bound on the whole test (each wait has its own): six nodes' starts and the restarts on a loaded machine
pytestmark = pytest.mark.timeout(3600)


@pytest.fixture(scope="module")
def cluster(request, tmp_path_factory):
    with running_cluster(tmp_path_factory.mktemp("repl-isr"), request.config) as c:
        yield c


def _create(cluster, name: str, partitions: int) -> dict:
    """The topic, every partition led with its full ISR: the state a broker's Metadata answered (another
    broker's may still lag a moment: LEADER_NOT_AVAILABLE)."""
    return cluster.create_topic(name, partitions, 3, {"min.insync.replicas": "2"})


def _ids(field: str) -> list[int]:
    return [int(x) for x in field.split(",") if x]


def _describe(cluster, *args: str) -> dict[int, tuple[int, list[int], list[int], list[int]]]:
    """kafka-topics --describe ARGS: {partition: (leader, replicas, isr, elr)} from its partition lines."""
    r = kafka_tool("topics", "--bootstrap-server", cluster.live_bootstrap(), "--describe", *args)
    assert r.returncode == 0, r.stdout + r.stderr
    out = {}
    for line in r.stdout.splitlines():
        m = DESCRIBE_LINE.match(line)
        if m:
            leader = -1 if m.group(3) == "none" else int(m.group(3))
            out[int(m.group(2))] = (leader, _ids(m.group(4)), _ids(m.group(5)), _ids(m.group(6)))
    return out


def _produce_raw(port: int, topic: str, acks: int, value: bytes):
    c = RawClient(f"127.0.0.1:{port}")
    try:
        req = ProduceRequest(acks=acks, timeout_ms=5000, topic_data=[TopicProduceData(name=topic, partition_data=[
            # the time of sending, not 0: a record of 1970 is past retention.ms, and the broker's first
            # retention check (30 s after start, as Kafka's) deleted the segments it rolled for it
            PartitionProduceData(index=0, records=records.build_batch([(None, value, (), int(time.time() * 1000))]))])])
        return c.call(req, 11).responses[0].partition_responses[0]
    finally:
        c.close()


def test_metadata_and_kafka_topics_describe_show_leader_replicas_isr(cluster):
    state = _create(cluster, "described", 3)
    for p in state.values():
        assert sorted(p.replicas) == BROKERS and sorted(p.isr) == BROKERS
        assert p.leader == p.replicas[0]  # the preferred leader, on a fresh topic
    assert sorted(p.leader for p in state.values()) == BROKERS
    # the same leader, replicas (in order) and ISR (as a set: Kafka 4.3 printed it in the replicas' order in one
    # run and sorted in another), an empty ELR
    described = {p: (leader, replicas, sorted(isr), elr)
                 for p, (leader, replicas, isr, elr) in _describe(cluster, "--topic", "described").items()}
    assert described == {i: (p.leader, p.replicas, BROKERS, []) for i, p in state.items()}
    for flag in ("--under-replicated-partitions", "--under-min-isr-partitions", "--unavailable-partitions"):
        assert _describe(cluster, flag) == {}, flag


def test_two_of_three_brokers_down_acks_all_refused_acks_1_written(cluster):
    leader = _create(cluster, "minisr", 1)[0].leader
    port = cluster.node(leader).port
    # (the Metadata that named the leader may come from a broker ahead of it: until the leader has the
    # partition record it answers UNKNOWN_TOPIC_OR_PARTITION, a retriable error that writes nothing)
    wait_for(lambda: _produce_raw(port, "minisr", -1, b"before").error_code == ErrorCode.NONE, 30,
             "the first record acknowledged by the new partition's leader")
    followers = [b for b in BROKERS if b != leader]
    try:
        for f in followers:
            cluster.kill9(f)
        state = cluster.wait_partitions("minisr", lambda s: s[0].isr == [leader], "the ISR shrunk to the leader")
        assert state[0].leader == leader
        _refused_and_written(cluster, port)
        leader_, replicas, isr, elr = _describe(cluster, "--under-min-isr-partitions")[0]
        assert (leader_, sorted(replicas), isr) == (leader, BROKERS, [leader])
        assert len(elr) == 1 and elr[0] in followers  # the last follower fenced: KIP-966's eligible leader replica
    finally:
        for f in followers:
            cluster.start(f)
    cluster.wait_full_isr("minisr")
    assert _produce_raw(port, "minisr", -1, b"after").error_code == ErrorCode.NONE
    log = read_partitions(cluster.bootstrap, "minisr", 1)[0]
    assert log == [(0, b"before"), (1, b"acks1"), (2, b"acks1-confluent"), (3, b"acks1-kafka-python"),
                   (4, b"after")]
    assert cluster.wait_identical_replicas("minisr", 1) == 5


def _refused_and_written(cluster, port: int) -> None:
    """With the ISR below min.insync.replicas: acks=all refused with NOT_ENOUGH_REPLICAS and nothing
    written (raw Produce, stock clients without retries), acks=1 written at the next offsets."""
    from kafka import KafkaProducer
    from kafka.errors import NotEnoughReplicasError

    refused = _produce_raw(port, "minisr", -1, b"refused")
    assert (refused.error_code, refused.base_offset) == (ErrorCode.NOT_ENOUGH_REPLICAS, -1)
    written = _produce_raw(port, "minisr", 1, b"acks1")
    assert (written.error_code, written.base_offset) == (ErrorCode.NONE, 1)
    reports = []
    p = Producer({"bootstrap.servers": cluster.live_bootstrap(), "acks": "all", "retries": 0,
                  "message.timeout.ms": 10000})
    p.produce("minisr", b"confluent", partition=0, on_delivery=lambda err, msg: reports.append(err and err.code()))
    p.flush(20)
    assert reports == [KafkaError.NOT_ENOUGH_REPLICAS]
    kp = KafkaProducer(bootstrap_servers=cluster.live_bootstrap().split(","), acks="all", retries=0)
    try:
        with pytest.raises(NotEnoughReplicasError):
            kp.send("minisr", b"kafka-python", partition=0).get(timeout=20)
    finally:
        kp.close(5)
    p1 = Producer({"bootstrap.servers": cluster.live_bootstrap(), "acks": 1})
    acked = []
    p1.produce("minisr", b"acks1-confluent", partition=0,
               on_delivery=lambda err, msg: acked.append((err, msg.offset())))
    p1.flush(20)
    assert acked == [(None, 2)]
    kp1 = KafkaProducer(bootstrap_servers=cluster.live_bootstrap().split(","), acks=1)
    try:
        assert kp1.send("minisr", b"acks1-kafka-python", partition=0).get(timeout=20).offset == 3
    finally:
        kp1.close(5)


def test_controlled_shutdown_of_a_leader_under_load_gives_no_producer_error(cluster):
    _create(cluster, "shutdown", 3)
    stopped = []
    producers = [ConfluentLoad(cluster.bootstrap, "shutdown", 3).start(),
                 KafkaPythonLoad(cluster.bootstrap, "shutdown", 3).start()]
    try:
        wait_for(lambda: all(p.acks_on(0) >= 20 for p in producers), 60, "acknowledgements before the shutdown")
        leader = cluster.wait_partitions("shutdown", lambda s: s[0].leader >= 0, "a leader of partition 0")[0].leader
        node = cluster.node(leader)
        stopped.append(leader)
        node.terminate()
        # Kafka's controlled shutdown: the leaderships move while the broker still runs
        moved = cluster.wait_partitions("shutdown", lambda s: all(p.leader not in (leader, -1) for p in s.values()),
                                        f"broker {leader}'s leaderships moved away")
        assert all(leader not in p.isr for p in moved.values())
        assert node.wait_exit() == node.clean_exit_code, "".join(node.lines[-30:])
        before = [p.acks_on(0) for p in producers]
        wait_for(lambda: all(p.acks_on(0) >= b + 20 for p, b in zip(producers, before)), 60,
                 "acknowledgements after the shutdown")
        cluster.start(leader)
        cluster.wait_full_isr("shutdown")
    finally:
        for p in producers:
            p.stop()
        for b in stopped:
            cluster.start(b)
    assert check_log(cluster, "shutdown", 3, producers) > 0
    assert cluster.wait_identical_replicas("shutdown", 3) > 0
