"""The seeds a seeded simulation runs (tests/raft, tests/replication); the options are registered in
the repository's conftest.py."""

import os
from typing import Callable, TypeVar

T = TypeVar("T")


def sim_seeds(config, default: int) -> list[int]:
    """Seeds 0..N-1 (--sim-seeds / ODRADEK_SIM_SEEDS, else ``default``), or the one --sim-seed / ODRADEK_SIM_SEED."""
    one = config.getoption("sim_seed")
    if one is None and os.environ.get("ODRADEK_SIM_SEED"):
        one = int(os.environ["ODRADEK_SIM_SEED"])
    if one is not None:
        return [one]
    n = config.getoption("sim_seeds") or int(os.environ.get("ODRADEK_SIM_SEEDS", default))
    return list(range(n))


class SeedRuns:
    """A simulation's runs by seed, the first `keep` seeds' kept in this process: a module's parametrized
    test runs every seed, and its summary test (over the first seeds, do the hard cases happen?) reads
    those runs instead of running them again (a run is exact on replay: each module's
    test_replay_is_exact). A seed not run yet (the summary test alone, a replayed seed) runs here."""

    def __init__(self, run: Callable[[int], T], keep: int):
        self.run, self.keep = run, keep
        self.done: dict[int, T] = {}

    def __call__(self, seed: int) -> T:
        sim = self.done.get(seed)
        if sim is None:
            sim = self.run(seed)
            if seed < self.keep:
                self.done[seed] = sim
        return sim
