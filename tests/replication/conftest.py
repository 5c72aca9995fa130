"""The replication simulation's seeds: 200 by default; --sim-seeds=N runs seeds 0..N-1, --sim-seed=S
replays one (options in the repository's conftest.py; ODRADEK_SIM_SEEDS / ODRADEK_SIM_SEED work too)."""

from sim_seeds import sim_seeds


def pytest_generate_tests(metafunc):
    if "repl_seed" in metafunc.fixturenames:
        seeds = sim_seeds(metafunc.config, 200)
        metafunc.parametrize("repl_seed", seeds, ids=[f"seed={s}" for s in seeds])
