"""Leader epochs written after the records they start lose nothing at a kill -9 (issue 27), on real
processes: 1 controller + 3 brokers, a topic of PARTITIONS partitions with replication.factor=3 and
min.insync.replicas=2, an idempotent acks=all producer (confluent-kafka) sending all along.

A broker keeps a new leader epoch in memory (a leader's at makeLeader, a follower's at the first
batch of that epoch) and writes its leader-epoch-checkpoint from a background pass, or before its
recovery point passes the epoch's first offset; the first record of the epoch does not wait for it.
A crash before that write must leave a log whose epochs a load rebuilds from the batches, or the
next OffsetsForLeaderEpoch answers would hide a divergence.

Each cycle kills the leader L1 of partition 0 with SIGKILL, waits for the new leader L2 to take
partition 0 and acknowledge records in its new epoch (after k of them, k varied between cycles, so
that the next kill comes at different moments of the background writes), then kills L2 with SIGKILL
too (its newest epochs likely still in memory only), restarts L2 and L1 and waits for the whole ISR.
Then: every acknowledged record is in its partition exactly once, at its acknowledged offset; every
replica's segment files hold the same record batches byte for byte (a follower that kept a diverging
tail because of a wrong epoch would differ); and once every broker stopped cleanly, every replica's
leader-epoch-checkpoint names each epoch from the first batch stamped with it, below the log end
(an epoch lost at a crash and not rebuilt from the batches would be missing there).

Cycles: --failover-cycles N (or ODRADEK_FAILOVER_CYCLES). Run against Apache Kafka 4.3 with
--cluster-kafka.
"""
from __future__ import annotations

import pytest

from cluster import failover_cycles, replica_batches, running_cluster, wait_for
from replication_load import ConfluentLoad, check_log

TOPIC, PARTITIONS = "deferred-epochs", 6
DEFAULT_CYCLES = 2
ACKS_BEFORE_SECOND_KILL = (1, 30, 8)  # by cycle: acknowledgements of L2's epoch before its own kill -9

pytestmark = pytest.mark.timeout(1800)


@pytest.fixture(scope="module")
def cluster(request, tmp_path_factory):
    with running_cluster(tmp_path_factory.mktemp("deferred-epochs"), request.config, 1, 3,
                         {"auto.leader.rebalance.enable": "false"}) as c:
        yield c


def test_kill9_of_new_leaders_loses_no_acknowledged_record_and_replicas_agree(cluster, request):
    cycles = failover_cycles(request.config, DEFAULT_CYCLES)
    cluster.create_topic(TOPIC, PARTITIONS, 3, {"min.insync.replicas": "2"})
    producer = ConfluentLoad(cluster.bootstrap, TOPIC, PARTITIONS).start()
    try:
        wait_for(lambda: producer.acks_on(0) >= 20, 120, "acknowledgements before the first kill",
                 last=lambda: (producer.acks_on(0), producer.errors[:3]))
        for cycle in range(cycles):
            cluster.wait_full_isr(TOPIC)
            first = cluster.wait_partitions(TOPIC, lambda s: s[0].leader >= 0, "a leader of partition 0")[0].leader
            before = producer.acks_on(0)
            cluster.kill9(first)
            second = cluster.wait_partitions(TOPIC, lambda s: s[0].leader not in (first, -1),
                                             f"cycle {cycle}: a new leader of partition 0 after {first}'s kill -9")[0].leader
            k = ACKS_BEFORE_SECOND_KILL[cycle % len(ACKS_BEFORE_SECOND_KILL)]
            wait_for(lambda: producer.acks_on(0) >= before + k, 120,
                     f"cycle {cycle}: {k} acknowledgements on partition 0 from its new leader {second}",
                     last=lambda: (producer.acks_on(0), producer.errors[:3]))
            cluster.kill9(second)
            print(f"cycle {cycle}: killed {first}, then its successor {second} after {k} acknowledgements; "
                  f"acknowledged so far {len(producer.acked)}", flush=True)
            cluster.start(second)
            cluster.start(first)
        cluster.wait_full_isr(TOPIC)
        after = len(producer.acked)
        wait_for(lambda: len(producer.acked) >= after + 20, 120, "acknowledgements after the last restart",
                 last=lambda: (len(producer.acked), producer.errors[:3]))
    finally:
        producer.stop()
    checked = check_log(cluster, TOPIC, PARTITIONS, [producer])
    assert checked >= 20 * (cycles + 1)
    cluster.wait_full_isr(TOPIC)
    assert cluster.wait_identical_replicas(TOPIC, PARTITIONS) > 0
    for b in cluster.brokers:
        cluster.stop(b.id)
    for b in cluster.brokers:
        for p in range(PARTITIONS):
            batches = replica_batches(b.log_dir, TOPIC, p)
            end = _log_end(batches)
            on_disk = [e for e in _checkpoint(b.log_dir / f"{TOPIC}-{p}" / "leader-epoch-checkpoint") if e[1] < end]
            assert on_disk == _epochs_of(batches), (b.id, p)


def _epochs_of(batches: list[tuple[int, bytes]]) -> list[tuple[int, int]]:
    """(epoch, start offset) of each leader epoch: the first batch stamped with it (partitionLeaderEpoch)."""
    out: list[tuple[int, int]] = []
    for base, data in batches:
        epoch = int.from_bytes(data[12:16], "big", signed=True)
        if epoch >= 0 and (not out or epoch > out[-1][0]):
            out.append((epoch, base))
    return out


def _log_end(batches: list[tuple[int, bytes]]) -> int:
    """The offset after the last batch (its base offset plus lastOffsetDelta, plus 1)."""
    if not batches:
        return 0
    base, data = batches[-1]
    return base + int.from_bytes(data[23:27], "big") + 1


def _checkpoint(path) -> list[tuple[int, int]]:
    """A leader-epoch-checkpoint's entries (Kafka's text format: version, count, "epoch offset" lines)."""
    lines = path.read_text().split("\n")
    n = int(lines[1])
    return [(int(line.split()[0]), int(line.split()[1])) for line in lines[2:2 + n]]
