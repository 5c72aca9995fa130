"""Fetch from followers (KIP-392, issue 20) on real processes: 3 controllers + 3 brokers with
broker.rack r4/r5/r6 and replica.selector.class=RackAwareReplicaSelector, a topic with RF=3.
- The leader answers a consumer's Fetch from rack r5 with PreferredReadReplica 5 and no records;
  without a rack it serves the records itself.
- Broker 5, a follower, serves a consumer's Fetch v11+ up to its high watermark (every record
  once the HW reached it); Fetch v10 there is NOT_LEADER_OR_FOLLOWER.
- A confluent-kafka consumer with client.rack=r5 reads every record, in order, and librdkafka's
  statistics show it fetching the partitions led by 4 and 6 from broker 5.
Checked against Apache Kafka 4.3 with --cluster-kafka (same test, same clients: it passes there).
"""
from __future__ import annotations

import json

import pytest
from confluent_kafka import Consumer, Producer, TopicPartition

from cluster import running_cluster, wait_for
from harness import RawClient
from odradek.wire import records
from odradek.wire.errors import ErrorCode
from odradek.wire.messages.fetch_request import FetchPartition, FetchRequest, FetchTopic

SELECTOR = "org.apache.kafka.common.replica.RackAwareReplicaSelector"
TOPIC = "kip392"
N = 300

pytestmark = pytest.mark.timeout(300)


@pytest.fixture(scope="module")
def cluster(request, tmp_path_factory):
    racks = {b: {"broker.rack": f"r{b}"} for b in (4, 5, 6)}
    with running_cluster(tmp_path_factory.mktemp("kip392"), request.config,
                         props={"replica.selector.class": SELECTOR}, node_props=racks) as c:
        yield c


def _fetch(c: RawClient, part: int, version: int, rack: str = "", offset: int = 0):
    req = FetchRequest(replica_id=-1, max_wait_ms=0, min_bytes=1, max_bytes=1 << 20, isolation_level=0,
                       session_id=0, session_epoch=-1, rack_id=rack, topics=[FetchTopic(
                           topic=TOPIC, partitions=[FetchPartition(partition=part, fetch_offset=offset,
                                                                   current_leader_epoch=-1,
                                                                   partition_max_bytes=1 << 20)])])
    return c.call(req, version).responses[0].partitions[0]


def _values(pd) -> list[bytes]:
    return [r.value for _, recs in records.iter_batches(bytes(pd.records)) for r in recs] if len(pd.records) else []


def test_a_consumer_in_rack_r5_reads_everything_from_broker_5(cluster):
    parts = cluster.create_topic(TOPIC, 3, 3, {"min.insync.replicas": "2"})
    ports = {b: cluster.node(b).port for b in (4, 5, 6)}
    p = Producer({"bootstrap.servers": cluster.live_bootstrap(), "acks": "all", "enable.idempotence": True})
    for i in range(N):
        p.produce(TOPIC, value=b"%d" % i, partition=i % 3)
    assert p.flush(60) == 0
    expected = {q: [b"%d" % i for i in range(N) if i % 3 == q] for q in range(3)}
    elsewhere = [q for q, s in parts.items() if s.leader != 5]
    assert elsewhere, parts

    c5 = RawClient(f"127.0.0.1:{ports[5]}")
    try:
        for q in range(3):  # broker 5 serves every record once its HW got there
            wait_for(lambda: _values(_fetch(c5, q, 12)) == expected[q], 30, f"broker 5 serves partition {q}",
                     lambda: _fetch(c5, q, 12))
        for q in elsewhere:
            pd = _fetch(c5, q, 10)
            assert pd.error_code == ErrorCode.NOT_LEADER_OR_FOLLOWER and len(pd.records) == 0
    finally:
        c5.close()
    for q in elsewhere:
        c = RawClient(f"127.0.0.1:{ports[parts[q].leader]}")
        try:
            pd = _fetch(c, q, 12, rack="r5")
            assert pd.error_code == 0 and pd.preferred_read_replica == 5 and len(pd.records) == 0
            assert pd.high_watermark == len(expected[q])
            pd = _fetch(c, q, 12)
            assert pd.preferred_read_replica == -1 and _values(pd) == expected[q]
        finally:
            c.close()

    fetching_from: dict[int, int] = {}

    def stats(raw: str) -> None:
        for q, tp in json.loads(raw).get("topics", {}).get(TOPIC, {}).get("partitions", {}).items():
            if int(q) >= 0 and tp.get("broker", -1) >= 0:
                fetching_from[int(q)] = tp["broker"]

    consumer = Consumer({"bootstrap.servers": cluster.live_bootstrap(), "group.id": "kip392", "client.rack": "r5",
                         "enable.auto.commit": False, "statistics.interval.ms": 200, "stats_cb": stats})
    try:
        consumer.assign([TopicPartition(TOPIC, q, 0) for q in range(3)])
        got: dict[int, list[bytes]] = {q: [] for q in range(3)}

        def read_all():  # a batch per call: wait_for pauses 0.1 s between calls
            for m in consumer.consume(N, 0.5):
                if m.error() is None:
                    got[m.partition()].append(m.value())
            return sum(map(len, got.values())) >= N and all(fetching_from.get(q) == 5 for q in elsewhere)
        wait_for(read_all, 40, "every record read, fetched from broker 5", lambda: (fetching_from, len(got)))
        assert got == expected
    finally:
        consumer.close()
