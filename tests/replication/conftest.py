"""The replication simulations' seeds: 200 by default for repl_sim.py (the pure cores), 120 for
cluster_sim.py (a controller and brokers with real logs); --sim-seeds=N runs seeds 0..N-1,
--sim-seed=S replays one (options in the repository's conftest.py; ODRADEK_SIM_SEEDS /
ODRADEK_SIM_SEED work too)."""

from sim_seeds import sim_seeds


def pytest_generate_tests(metafunc):
    for name, default in (("repl_seed", 200), ("cluster_seed", 120)):
        if name in metafunc.fixturenames:
            seeds = sim_seeds(metafunc.config, default)
            metafunc.parametrize(name, seeds, ids=[f"seed={s}" for s in seeds])
