"""Producer id blocks across controller failover (see producer_id_sim.py): no block handed out
twice, no producer id handed out twice. A failure names its seed; replay it with
`pytest tests/raft --sim-seed=N -k producer_id` or `python tests/raft/producer_id_sim.py N`."""

from producer_id_sim import ProducerIdSim, run_seed
from sim_seeds import SeedRuns

RUNS = SeedRuns(run_seed, keep=20)  # the summary test below reads seeds 0..19


def test_producer_id_simulation(sim_seed):
    RUNS(sim_seed)


def test_the_simulation_moves_the_controller_while_blocks_are_handed_out():
    sims = [RUNS(seed) for seed in range(20)]
    moved = [s for s in sims if len(s.leaders) > 1 and len(s.blocks) > 2]
    assert len(moved) >= 5
    # blocks were answered NOT_CONTROLLER (a write not applied in its epoch, or no controller) and retried
    assert sum(s.answers["not_controller"] for s in moved) > 0
    assert sum(len(s.handed) for s in sims) > 10_000


def test_replay_is_exact():
    a, b = ProducerIdSim(11), ProducerIdSim(11)
    a.run()
    b.run()
    assert a.blocks == b.blocks and a.handed == b.handed and a.t == b.t
