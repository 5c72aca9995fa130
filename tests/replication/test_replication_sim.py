"""The seeded replication simulation (repl_sim.py). A failure names its seed; replay it with
`pytest tests/replication --sim-seed=N` or `python tests/replication/repl_sim.py N`."""

from repl_sim import Sim, run_seed
from sim_seeds import SeedRuns

RUNS = SeedRuns(run_seed, keep=40)  # the summary test below reads seeds 0..39


def test_simulation(repl_seed):
    RUNS(repl_seed)


def test_replay_is_exact():
    a, b = Sim(11), Sim(11)
    a.run()
    b.run()
    assert (a.t, a.acked, a.read, a.writers, a.counts) == (b.t, b.acked, b.read, b.writers, b.counts)
    assert [n.log.batches for n in a.nodes.values()] == [n.log.batches for n in b.nodes.values()]


def test_the_faults_happen():
    """The runs above are only worth something if they reach the hard cases: over 40 seeds,
    crashes with torn tails, leadership moves, ISR changes, DivergingEpoch truncations, and
    both acknowledged and refused acks=all produces."""
    total: dict[str, int] = {}
    acked = refused = 0
    for seed in range(40):
        sim = RUNS(seed)
        for k, v in sim.counts.items():
            total[k] = total.get(k, 0) + v
        acked += len(sim.acked)
        refused += sim.acks_errors.get("NOT_ENOUGH_REPLICAS", 0)
    assert all(v >= 10 for v in total.values()), total
    assert acked > 1000 and refused > 100


def test_a_long_run_with_five_replicas():
    sim = run_seed(2026, steps=1500, replicas=5)
    assert len(sim.acked) > 100
