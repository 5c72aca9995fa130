"""A follower of a compacted topic catches up after its leader's cleaner removed the batches at its
fetch offset, on real processes (1 controller + 3 odradek brokers, small segments, the cleaner every
200 ms).

A compacted log keeps its batches' offsets: where the cleaner removes whole batches, the log has a
gap, and a fetch at an offset inside it is answered with the next batch left, above the fetch
offset. Kafka's follower appends it (UnifiedLog.append refuses only a first offset below its log
end). Found by a compaction-heavy kill -9 loop (session 19): odradek's follower ignored such an
answer and sent the same fetch forever, so a broker back from a kill -9 never came back into the
ISR of a compacted partition whose leader had cleaned past it (__consumer_offsets, after a long
enough outage).

Here: a follower killed with SIGKILL; keyed records written (one record a batch, KEYS keys) until
the leader's segment files show its log end inside a gap; the follower started again. Then the ISR
is whole again and every replica's latest record of each key is the last one written. odradek only
(it reads the leader's segment files to know when the gap is there).
"""
from __future__ import annotations

import pytest
from confluent_kafka import Producer

from cluster import replica_batches, running_odradek, wait_for
from odradek.wire import records

TOPIC, KEYS = "compacted-catch-up", 5

pytestmark = pytest.mark.timeout(600)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    with running_odradek(tmp_path_factory.mktemp("compacted-catch-up"), 1, 3,
                         {"log.segment.bytes": "16384", "log.cleaner.backoff.ms": "200"}) as c:
        yield c


def batch_spans(log_dir) -> list[tuple[int, int]]:
    """(base offset, last offset) of every batch in a replica's segment files of the partition."""
    return [(base, records.read_batch_header(data, 0).last_offset) for base, data in replica_batches(log_dir, TOPIC, 0)]


def latest_by_key(log_dir) -> dict[bytes, bytes]:
    out = {}
    for _, data in replica_batches(log_dir, TOPIC, 0):
        for r in records.decode_records(data, 0)[1]:
            out[r.key] = r.value
    return out


def test_a_follower_back_from_a_kill_catches_up_across_the_leaders_cleaned_gap(cluster):
    state = cluster.create_topic(TOPIC, 1, 3, {"cleanup.policy": "compact", "min.cleanable.dirty.ratio": "0.01",
                                               "min.compaction.lag.ms": "0", "segment.ms": "500"})[0]
    leader = cluster.node(state.leader)
    follower = cluster.node(next(r for r in state.replicas if r != state.leader))
    producer = Producer({"bootstrap.servers": cluster.bootstrap, "acks": "all", "enable.idempotence": True,
                         "linger.ms": 0})
    sent = 0
    last: dict[bytes, bytes] = {}

    def write(n: int) -> None:
        nonlocal sent
        for _ in range(n):
            key, value = f"k{sent % KEYS}".encode(), f"v{sent}".encode()
            producer.produce(TOPIC, value, key=key, partition=0)
            producer.flush(30)  # (one record a batch: the cleaner removes whole batches)
            last[key] = value
            sent += 1

    write(100)
    cluster.wait_full_isr(TOPIC)
    follower.kill9()
    spans = batch_spans(follower.log_dir)
    end = spans[-1][1] + 1  # the follower's log end

    def in_a_gap() -> bool:
        write(100)
        lead = batch_spans(leader.log_dir)
        return not any(b <= end <= last_off for b, last_off in lead) and any(b > end for b, _ in lead)
    wait_for(in_a_gap, 180, f"the leader's cleaner to remove the batches at the follower's log end {end}",
             last=lambda: batch_spans(leader.log_dir)[:8])
    cluster.start(follower.id)
    write(20)
    cluster.wait_full_isr(TOPIC, timeout=90)
    assert producer.flush(30) == 0
    for r in state.replicas:
        wait_for(lambda: latest_by_key(cluster.node(r).log_dir) == last, 60,
                 f"broker {r}'s latest record of each key", last=lambda: latest_by_key(cluster.node(r).log_dir))
