"""The replication simulations' seeds: 200 by default for repl_sim.py (the pure cores), 100 for
controller_sim.py, 120 for cluster_sim.py (a controller and brokers with real logs); --sim-seeds=N runs
seeds 0..N-1, --sim-seed=S replays one (options in the repository's conftest.py; ODRADEK_SIM_SEEDS /
ODRADEK_SIM_SEED work too).

controller_sim.py had 200: measured with coverage.py over the branch arcs of odradek/ and the simulation,
its last new arc came at seed 41 (seeds 42-199 added none); cluster_sim.py's came at seed 114 of 120."""

from sim_seeds import sim_seeds


SEEDS = {"repl_seed": 200, "cluster_seed": 120}  # fixture -> its default
MODULE_SEEDS = {"test_controller_sim": 100}  # test module -> its default, where it differs


def pytest_generate_tests(metafunc):
    for name, default in SEEDS.items():
        if name in metafunc.fixturenames:
            seeds = sim_seeds(metafunc.config, MODULE_SEEDS.get(metafunc.module.__name__, default))
            metafunc.parametrize(name, seeds, ids=[f"seed={s}" for s in seeds])
