"""DeleteRecords on a replicated partition (issue 20), on real processes: 3 controllers + 3 brokers,
replication.factor=3. As Kafka's DelayedDeleteRecords, the answer waits until the partition's low
watermark, the smallest log start offset over its live replicas (the leader learns its followers'
from their fetches), reaches the offset asked for; so once it is answered, every replica's log start
offset has moved. Each replica's log start offset is read from that broker itself: a consumer's Fetch
v12 (KIP-392: a follower serves it too) answers the replica's log start offset.
Run against Apache Kafka 4.3 with --cluster-kafka."""
from __future__ import annotations

import time

import pytest
from confluent_kafka import KafkaError, KafkaException, Producer, TopicPartition

from cluster import running_cluster, wait_for
from harness import RawClient
from odradek.wire.messages.fetch_request import FetchPartition, FetchRequest, FetchTopic

TOPIC = "purged"
N = 100

pytestmark = pytest.mark.timeout(900)


@pytest.fixture(scope="module")
def cluster(request, tmp_path_factory):
    with running_cluster(tmp_path_factory.mktemp("delete-records"), request.config) as c:
        yield c


def replica_log_start(port: int, partition: int, offset: int, topic: str = TOPIC) -> tuple[int, int]:
    """(error code, log start offset) of the replica on the broker at ``port``, fetched at ``offset``."""
    c = RawClient(f"127.0.0.1:{port}")
    try:
        r = c.call(FetchRequest(replica_id=-1, max_wait_ms=0, min_bytes=0, max_bytes=1 << 20, isolation_level=0,
                                session_id=0, session_epoch=-1, topics=[FetchTopic(topic=topic, partitions=[
                                    FetchPartition(partition=partition, fetch_offset=offset, current_leader_epoch=-1,
                                                   log_start_offset=-1, partition_max_bytes=1 << 20)])],
                                forgotten_topics_data=[], rack_id=""), 12)
    finally:
        c.close()
    p = r.responses[0].partitions[0]
    return p.error_code, p.log_start_offset


def delete_records(cluster, tps: list[TopicPartition]) -> dict[int, int]:
    """DeleteRecords through confluent-kafka's admin: partition -> low watermark. A partition answered
    NOT_LEADER_OR_FOLLOWER (its leader moved: a broker fenced for a late heartbeat on a loaded machine)
    is asked again, as Kafka's Java admin does; any other error fails."""
    lows: dict[int, int] = {}
    deadline = time.monotonic() + 120
    while len(lows) < len(tps):
        assert time.monotonic() < deadline, f"DeleteRecords not answered by the leaders: {lows}"
        left = [tp for tp in tps if tp.partition not in lows]
        for tp, f in cluster.admin.delete_records(left, request_timeout=60, operation_timeout=30).items():
            try:
                lows[tp.partition] = f.result(60).low_watermark
            except KafkaException as e:
                if e.args[0].code() != KafkaError.NOT_LEADER_FOR_PARTITION:
                    raise
                time.sleep(0.2)
    return lows


def test_delete_records_answers_once_every_replica_moved_its_log_start(cluster):
    state = cluster.create_topic(TOPIC, 2, 3, {"min.insync.replicas": "2"})
    p = Producer({"bootstrap.servers": cluster.bootstrap, "acks": "all", "enable.idempotence": True})
    for part in (0, 1):
        for i in range(N):
            p.produce(TOPIC, value=b"v%d" % i, partition=part)
    assert p.flush(60) == 0
    lows = delete_records(cluster, [TopicPartition(TOPIC, 0, 40), TopicPartition(TOPIC, 1, -1)])
    assert lows == {0: 40, 1: N}  # -1: up to the high watermark, every record acknowledged
    for part, start in lows.items():
        replicas = state[part].replicas
        assert len(replicas) == 3
        seen = {r: replica_log_start(cluster.node(r).port, part, start) for r in replicas}
        assert seen == {r: (0, start) for r in replicas}, seen


def test_a_replica_on_a_fenced_broker_does_not_hold_delete_records_and_follows_once_back(cluster):
    """Only live replicas count (lowWatermarkIfLeader): with a follower's broker killed and fenced, the
    answer comes at once; restarted, that replica moves its log start to the leader's as it catches up."""
    topic = TOPIC + "-fenced"
    cluster.create_topic(topic, 1, 3, {"min.insync.replicas": "2"})
    p = Producer({"bootstrap.servers": cluster.bootstrap, "acks": "all", "enable.idempotence": True})
    for i in range(N):
        p.produce(topic, value=b"v%d" % i, partition=0)
    assert p.flush(60) == 0
    now = cluster.partitions(topic)[0]
    victim = next(r for r in now.replicas if r != now.leader)
    cluster.kill9(victim)
    try:
        cluster.wait_partitions(topic, lambda s: victim not in s[0].isr, f"broker {victim} out of the ISR")
        assert delete_records(cluster, [TopicPartition(topic, 0, 60)]) == {0: 60}
    finally:
        cluster.start(victim)
    cluster.wait_full_isr(topic)
    wait_for(lambda: replica_log_start(cluster.node(victim).port, 0, 60, topic) == (0, 60), 60,
             f"broker {victim}'s replica to follow the leader's log start",
             last=lambda: replica_log_start(cluster.node(victim).port, 0, 60, topic))
