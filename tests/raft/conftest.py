"""Options for the Raft simulation: --sim-seeds=N runs seeds 0..N-1 (default 300),
--sim-seed=S replays one seed. (Registered here, so give tests/raft on the command
line, e.g. `pytest tests/raft --sim-seeds=10000`; ODRADEK_SIM_SEEDS works from anywhere.)"""

import os


def pytest_addoption(parser):
    group = parser.getgroup("raft simulation")
    group.addoption("--sim-seeds", type=int, default=None, help="number of simulation seeds to run")
    group.addoption("--sim-seed", type=int, default=None, help="run (replay) this one seed")


def _opt(config, name):
    try:
        return config.getoption(name)
    except ValueError:  # conftest loaded too late to register options (pytest run from elsewhere)
        return None


def pytest_generate_tests(metafunc):
    if "sim_seed" not in metafunc.fixturenames:
        return
    one = _opt(metafunc.config, "sim_seed")
    if one is None and os.environ.get("ODRADEK_SIM_SEED"):
        one = int(os.environ["ODRADEK_SIM_SEED"])
    if one is not None:
        seeds = [one]
    else:
        n = _opt(metafunc.config, "sim_seeds") or int(os.environ.get("ODRADEK_SIM_SEEDS", "300"))
        seeds = range(n)
    metafunc.parametrize("sim_seed", seeds, ids=[f"seed={s}" for s in seeds])
