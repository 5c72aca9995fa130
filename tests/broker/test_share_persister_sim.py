"""The share persister's seeded simulation (share_persister_sim.py): 200 seeds by default,
--sim-seeds=N for more (ODRADEK_SIM_SEEDS), --sim-seed=S to replay one. Each seed: share
coordinators that move, lose their uncommitted appends, answer NOT_COORDINATOR and
COORDINATOR_LOAD_IN_PROGRESS, requests and answers lost, the data partition's leadership moving;
a failed acknowledgement's write leaves the state as it was (rolled back)."""

from sim_seeds import sim_seeds
from tests.broker.share_persister_sim import run


def pytest_generate_tests(metafunc):
    if "share_seed" in metafunc.fixturenames:
        seeds = sim_seeds(metafunc.config, 200)
        metafunc.parametrize("share_seed", seeds, ids=[f"seed={s}" for s in seeds])


def test_no_acknowledged_state_lost_and_no_record_acknowledged_twice(share_seed):
    o = run(share_seed)
    assert o.twice == [], f"acknowledged twice: {o.twice}"
    assert o.lost == [], f"acknowledged, not in the stored state: {o.lost}"
    assert o.finished and o.stuck == [], f"not done at the end: {o.stuck}"
    assert o.applied_anyway == [], f"a failed acknowledgement changed the state: {o.applied_anyway}"
