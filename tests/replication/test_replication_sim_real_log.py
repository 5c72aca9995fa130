"""The seeded replication simulation (repl_sim.py) on real PartitionLogs (real_sim_log.py):
the log contract replication relies on - leader appends recording their epoch, follower
appends of the leader's batches, truncation, the leader-epoch cache and its checkpoint
across torn crashes - under elections, message loss and restarts. After healing every
replica's log is the same bytes, and each log's epoch cache is the one its batches make.
Replay a seed with `pytest tests/replication/test_replication_sim_real_log.py --sim-seed=N`."""

from __future__ import annotations

import pytest

from real_sim_log import RealSimLog
from repl_sim import Sim

SEEDS = range(24)


def run_real(seed: int) -> Sim:
    sim = Sim(seed, log_factory=lambda node_id: RealSimLog(seed * 100 + node_id))
    sim.run()
    logs = [n.log for n in sim.nodes.values()]
    for log in logs:
        log.check()
    assert len({log.log_bytes() for log in logs}) == 1, "replicas differ byte for byte"
    return sim


@pytest.mark.parametrize("seed", SEEDS, ids=[f"seed={s}" for s in SEEDS])
def test_simulation_on_real_logs(seed):
    run_real(seed)


def test_the_real_logs_crash_and_truncate():
    """Over these seeds the real logs went through torn crashes and truncations."""
    crashes = truncations = 0
    for seed in (3, 5, 8, 13):
        sim = run_real(seed)
        crashes += sum(n.log.crashes for n in sim.nodes.values())
        truncations += sim.counts["truncate"]
    assert crashes >= 2 and truncations >= 2, (crashes, truncations)
