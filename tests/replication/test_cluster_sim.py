"""The seeded cluster simulation (cluster_sim.py): a controller and 3 to 6 brokers with real
PartitionLogs on faulty filesystems, replicating through the pure cores over a faulty network.
A failure names its seed; replay it with `pytest tests/replication/test_cluster_sim.py
--sim-seed=N` or `python tests/replication/cluster_sim.py N`."""

import logging

import pytest

from cluster_sim import ClusterSim, run_seed
from sim_seeds import SeedRuns

RUNS = SeedRuns(run_seed, keep=25)  # the summary test below reads seeds 0..24


@pytest.fixture(autouse=True)
def _quiet_recovery():
    """Every crash makes the reopened logs warn about their torn tails: expected here."""
    logging.disable(logging.WARNING)
    yield
    logging.disable(logging.NOTSET)


def test_cluster_simulation(cluster_seed):
    RUNS(cluster_seed)


def test_replay_is_exact():
    a, b = ClusterSim(5), ClusterSim(5)
    a.run()
    b.run()
    assert (a.t, a.acked, a.read, a.writers, a.counts, a.errors, list(a.trace)) == \
        (b.t, b.acked, b.read, b.writers, b.counts, b.errors, list(b.trace))
    for i in a.ids:
        for p, log in a.brokers[i].logs.items():
            assert ClusterSim._bytes(log) == ClusterSim._bytes(b.brokers[i].logs[p])


def test_the_faults_happen():
    """The runs are only worth something if they reach the hard cases: over 25 seeds, crashes
    with torn tails, cut links, fencing, elections, preferred elections, controlled shutdowns,
    reassignments, ISR
    changes, idempotent retries answered as duplicates or out of order (5 batches in flight),
    DeleteRecords (followers starting over at the leader's log start), truncations (through
    DivergingEpoch and through OffsetForLeaderEpoch), stale leaders answering
    NOT_LEADER_OR_FOLLOWER, refused and acknowledged acks=all produces."""
    total: dict[str, int] = {}
    acked = 0
    for seed in range(25):
        sim = RUNS(seed)
        for k, v in list(sim.counts.items()) + list(sim.errors.items()):
            total[k] = total.get(k, 0) + v
        acked += sum(len(v) for v in sim.acked.values())
    for k in ("crash", "cut", "fenced", "election", "move", "shutdown", "reassign", "isr_change", "truncate",
              "diverging", "epoch_query",
              "NOT_ENOUGH_REPLICAS", "NOT_LEADER_OR_FOLLOWER"):
        assert total.get(k, 0) >= 5, (k, total)
    assert total.get("DUPLICATE_BROKER_REGISTRATION", 0) >= 3, total  # a restart within the old session
    assert total["delete_records"] >= 10 and total["start_over"] >= 5, total  # a follower behind the log start
    # (inside a batch it is rarer, a seed in 30 or so: without replication/follower.py's start-over
    # at the batch (3edb44c) such a follower refetches the same offset forever and the run never
    # converges; test_replica_follower.py tests that case directly)
    # idempotent producers: retries after a failover, some of them answered as duplicates (the new
    # leader has the batch from replication: its producer state came with append_as_follower)
    assert total["retry"] >= 10 and total["duplicate"] >= 5, total
    # ... with up to 5 batches of a partition in flight (max.in.flight.requests.per.connection):
    # retries answered OUT_OF_ORDER_SEQUENCE_NUMBER while a batch before them is unresolved, and
    # the producer's own request timeouts (the broker may append still)
    assert total["out_of_order_retry"] >= 10 and total["client_timeout"] >= 5, total
    assert any(RUNS(seed).max_in_flight == 5 for seed in range(25))
    assert acked > 2000, acked


def test_five_replicas_two_of_them_failing():
    sim = next(s for s in (ClusterSim(seed, steps=600, rf=5) for seed in range(2026, 2100)) if s.min_isr == 3)
    sim.run()
    assert sim.budget == 2 and sum(len(v) for v in sim.acked.values()) > 100
