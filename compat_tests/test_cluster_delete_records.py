"""DeleteRecords on a replicated partition (issue 20), on real processes: 3 controllers + 3 brokers,
replication.factor=3. As Kafka's DelayedDeleteRecords, the answer waits until the partition's low
watermark, the smallest log start offset over its live replicas (the leader learns its followers'
from their fetches), reaches the offset asked for; so once it is answered, every replica's log start
offset has moved. Each replica's log start offset is read from that broker itself: a consumer's Fetch
v12 (KIP-392: a follower serves it too) answers the replica's log start offset.
Run against Apache Kafka 4.3 with --cluster-kafka."""
from __future__ import annotations

import pytest
from confluent_kafka import Producer, TopicPartition

from cluster import running_cluster
from harness import RawClient
from odradek.wire.messages.fetch_request import FetchPartition, FetchRequest, FetchTopic

TOPIC = "purged"
N = 100

pytestmark = pytest.mark.timeout(900)


@pytest.fixture(scope="module")
def cluster(request, tmp_path_factory):
    with running_cluster(tmp_path_factory.mktemp("delete-records"), request.config) as c:
        yield c


def replica_log_start(port: int, partition: int, offset: int) -> tuple[int, int]:
    """(error code, log start offset) of the replica on the broker at ``port``, fetched at ``offset``."""
    c = RawClient(f"127.0.0.1:{port}")
    try:
        r = c.call(FetchRequest(replica_id=-1, max_wait_ms=0, min_bytes=0, max_bytes=1 << 20, isolation_level=0,
                                session_id=0, session_epoch=-1, topics=[FetchTopic(topic=TOPIC, partitions=[
                                    FetchPartition(partition=partition, fetch_offset=offset, current_leader_epoch=-1,
                                                   log_start_offset=-1, partition_max_bytes=1 << 20)])],
                                forgotten_topics_data=[], rack_id=""), 12)
    finally:
        c.close()
    p = r.responses[0].partitions[0]
    return p.error_code, p.log_start_offset


def test_delete_records_answers_once_every_replica_moved_its_log_start(cluster):
    state = cluster.create_topic(TOPIC, 2, 3, {"min.insync.replicas": "2"})
    p = Producer({"bootstrap.servers": cluster.bootstrap, "acks": "all", "enable.idempotence": True})
    for part in (0, 1):
        for i in range(N):
            p.produce(TOPIC, value=b"v%d" % i, partition=part)
    assert p.flush(60) == 0
    futures = cluster.admin.delete_records([TopicPartition(TOPIC, 0, 40), TopicPartition(TOPIC, 1, -1)],
                                           request_timeout=60, operation_timeout=30)
    lows = {tp.partition: f.result(60).low_watermark for tp, f in futures.items()}
    assert lows == {0: 40, 1: N}  # -1: up to the high watermark, every record acknowledged
    for part, start in lows.items():
        replicas = state[part].replicas
        assert len(replicas) == 3
        seen = {r: replica_log_start(cluster.node(r).port, part, start) for r in replicas}
        assert seen == {r: (0, start) for r in replicas}, seen
