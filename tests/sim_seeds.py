"""The seeds a seeded simulation runs (tests/raft, tests/replication); the options are registered in
the repository's conftest.py."""

import os


def sim_seeds(config, default: int) -> list[int]:
    """Seeds 0..N-1 (--sim-seeds / ODRADEK_SIM_SEEDS, else ``default``), or the one --sim-seed / ODRADEK_SIM_SEED."""
    one = config.getoption("sim_seed")
    if one is None and os.environ.get("ODRADEK_SIM_SEED"):
        one = int(os.environ["ODRADEK_SIM_SEED"])
    if one is not None:
        return [one]
    n = config.getoption("sim_seeds") or int(os.environ.get("ODRADEK_SIM_SEEDS", default))
    return list(range(n))
