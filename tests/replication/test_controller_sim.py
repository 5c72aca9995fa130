"""The replication simulation driven by odradek's controller (controller_sim.py): fencing,
re-election from the ISR, unfencing, AlterPartition, controlled shutdown and preferred
elections all come from controller.decisions over a metadata image. A failure names its
seed; replay it with `pytest tests/replication/test_controller_sim.py --sim-seed=N` or
`python tests/replication/controller_sim.py N`."""

from controller_sim import ControllerSim, run_seed
from sim_seeds import SeedRuns

RUNS = SeedRuns(run_seed, keep=60)  # the summary test below reads seeds 0..59


def test_controller_simulation(repl_seed):
    RUNS(repl_seed)


def test_replay_is_exact():
    a, b = ControllerSim(11), ControllerSim(11)
    a.run()
    b.run()
    assert (a.t, a.acked, a.read, a.writers, a.counts) == (b.t, b.acked, b.read, b.writers, b.counts)
    assert [n.log.batches for n in a.nodes.values()] == [n.log.batches for n in b.nodes.values()]


def test_the_controllers_elections_happen():
    """Over 60 seeds: crashes fenced by the controller, controlled shutdowns and preferred
    elections moving leadership, ISR changes through AlterPartition, truncations, and both
    acknowledged and refused acks=all produces."""
    total: dict[str, int] = {}
    acked = refused = 0
    for seed in range(60):
        sim = RUNS(seed)
        for k, v in sim.counts.items():
            total[k] = total.get(k, 0) + v
        acked += len(sim.acked)
        refused += sim.acks_errors.get("NOT_ENOUGH_REPLICAS", 0)
    assert all(v >= 10 for v in total.values()), total
    assert acked > 1000 and refused > 100


def test_a_long_run_with_five_replicas():
    sim = run_seed(2026, steps=1500, replicas=5)
    assert len(sim.acked) > 100 and sim.counts["move"] > 0
