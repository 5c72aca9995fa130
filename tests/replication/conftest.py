"""Seeds for the replication simulation: 200 by default; --sim-seeds=N (or ODRADEK_SIM_SEEDS=N)
runs seeds 0..N-1, --sim-seed=S (or ODRADEK_SIM_SEED=S) replays one. The options are shared
with tests/raft's simulation (registered once, whichever conftest pytest loads first)."""

import os


DEFAULT_SEEDS = 200


def pytest_addoption(parser):
    group = parser.getgroup("simulation")
    for name, help_ in (("--sim-seeds", "number of simulation seeds to run"),
                        ("--sim-seed", "run (replay) this one seed")):
        try:
            group.addoption(name, type=int, default=None, help=help_)
        except ValueError:  # tests/raft/conftest.py registered it already
            pass


def _opt(config, name):
    try:
        return config.getoption(name)
    except ValueError:
        return None


def pytest_generate_tests(metafunc):
    if "repl_seed" not in metafunc.fixturenames:
        return
    one = _opt(metafunc.config, "sim_seed")
    if one is None and os.environ.get("ODRADEK_SIM_SEED"):
        one = int(os.environ["ODRADEK_SIM_SEED"])
    if one is not None:
        seeds = [one]
    else:
        n = _opt(metafunc.config, "sim_seeds") or int(os.environ.get("ODRADEK_SIM_SEEDS", DEFAULT_SEEDS))
        seeds = range(n)
    metafunc.parametrize("repl_seed", seeds, ids=[f"seed={s}" for s in seeds])
