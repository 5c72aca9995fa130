"""The Raft simulations' seeds: 200 by default for raft_sim.py, 150 for producer_id_sim.py, 100 for raft_sim.py
with writes on a raft IO thread (test_simulation_io_thread.py: its docstring says why); --sim-seeds=N
runs seeds 0..N-1, --sim-seed=S replays one (options in the repository's conftest.py; ODRADEK_SIM_SEEDS /
ODRADEK_SIM_SEED work too).

The defaults are as many seeds as add branch coverage, with a margin: measured with coverage.py over the
branch arcs of odradek/ and the simulation, 300 seeds each, raft_sim's last new arc came at seed 199 and
producer_id_sim's at seed 112 (seeds 200-299 and 113-299 added none). More seeds explore more
interleavings: ODRADEK_SIM_SEEDS=1000 for a longer search."""

from sim_seeds import sim_seeds

SEEDS = {"test_producer_id_sim": 150, "test_simulation_io_thread": 100}  # test module -> its default
DEFAULT_SEEDS = 200


def pytest_generate_tests(metafunc):
    if "sim_seed" in metafunc.fixturenames:
        seeds = sim_seeds(metafunc.config, SEEDS.get(metafunc.module.__name__, DEFAULT_SEEDS))
        metafunc.parametrize("sim_seed", seeds, ids=[f"seed={s}" for s in seeds])
