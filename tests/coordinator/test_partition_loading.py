"""The coordinator-partition load/unload state machine (Kafka's CoordinatorRuntime load and unload
operations): elections start loads, resignations unload, and a load is applied only while current."""
from __future__ import annotations

from odradek.coordinator.partition_loading import CoordinatorPartitions, State
from odradek.wire.errors import ErrorCode as E


def test_a_partition_is_not_coordinated_until_elected_and_loaded():
    ps = CoordinatorPartitions()
    assert ps.error(3) is E.NOT_COORDINATOR and ps.epoch(3) == -1
    load = ps.elect(3, 5, now_ms=1000)
    assert load is not None and (load.partition, load.epoch, load.started_ms) == (3, 5, 1000)
    assert ps.error(3) is E.COORDINATOR_LOAD_IN_PROGRESS and ps.state(3) is State.LOADING
    assert ps.loaded(load)
    assert ps.error(3) is E.NONE and ps.state(3) is State.ACTIVE and ps.epoch(3) == 5
    assert ps.partitions() == [3]


def test_resignation_unloads_and_a_later_election_loads_again():
    ps = CoordinatorPartitions()
    assert ps.loaded(ps.elect(0, 1, 0))
    assert ps.resign(0, 2)  # a follower at leader epoch 2: unloaded
    assert ps.error(0) is E.NOT_COORDINATOR and ps.partitions() == []
    assert not ps.resign(0, 2)  # nothing left to unload
    load = ps.elect(0, 3, 10)
    assert load is not None and ps.error(0) is E.COORDINATOR_LOAD_IN_PROGRESS


def test_leadership_lost_mid_load_drops_the_load():
    ps = CoordinatorPartitions()
    first = ps.elect(0, 1, 0)
    assert ps.resign(0, 2)  # lost while loading: the load's state goes
    assert not ps.is_current(first) and not ps.loaded(first)
    assert ps.error(0) is E.NOT_COORDINATOR
    second = ps.elect(0, 3, 5)  # back as leader: a new load; the first one's completion is stale
    assert not ps.loaded(first) and ps.error(0) is E.COORDINATOR_LOAD_IN_PROGRESS
    assert ps.loaded(second) and ps.error(0) is E.NONE and ps.epoch(0) == 3


def test_stale_epochs_are_ignored():
    ps = CoordinatorPartitions()
    assert ps.loaded(ps.elect(0, 5, 0))
    assert ps.elect(0, 5, 1) is None and ps.elect(0, 4, 1) is None  # not newer: nothing to do
    assert not ps.resign(0, 5) and not ps.resign(0, 3)  # a resignation older than the leadership
    assert ps.error(0) is E.NONE
    assert ps.elect(0, 7, 2) is None  # a newer epoch of the same leadership: stays loaded
    assert ps.epoch(0) == 7 and ps.error(0) is E.NONE
    assert ps.resign(0, 8)
    assert ps.elect(0, 8, 3) is None and ps.elect(0, 6, 3) is None  # older than the resignation
    assert ps.error(0) is E.NOT_COORDINATOR
    assert ps.elect(0, 9, 4) is not None


def test_a_newer_election_during_a_load_keeps_that_load():
    ps = CoordinatorPartitions()
    load = ps.elect(0, 1, 0)
    assert ps.elect(0, 2, 1) is None  # still this node: the running load goes on
    assert ps.loaded(load) and ps.epoch(0) == 2


def test_a_partition_gone_forgets_its_epochs():
    ps = CoordinatorPartitions()
    assert ps.loaded(ps.elect(0, 4, 0))
    assert ps.resign(0, None)  # deleted (or moved away): a re-created topic counts epochs from 0
    assert ps.elect(0, 0, 1) is not None


def test_a_failed_load_is_not_coordinated_until_the_next_election():
    ps = CoordinatorPartitions()
    load = ps.elect(0, 1, 0)
    ps.failed(load)
    assert ps.error(0) is E.NOT_COORDINATOR and not ps.loaded(load)
    assert ps.elect(0, 2, 1) is not None


def test_seeded_transitions_never_apply_a_stale_load():
    """Random elections, resignations (as follower or gone) and load completions, out of order as a
    broker may see them: a load is applied only if no resignation came after its election, and a
    partition answers NONE only after its current load was applied."""
    import random

    for seed in range(300):
        rng = random.Random(seed)
        ps = CoordinatorPartitions()
        loads: list = []
        resigned_after: dict = {}  # load -> a resignation came after it started
        applied: set = set()
        epoch = 0
        for _ in range(60):
            op = rng.random()
            if op < 0.35:
                epoch += rng.choice((0, 1, 1, 2))
                e = epoch - rng.choice((0, 0, 0, 1, 3))  # now and then an older, stale epoch
                load = ps.elect(0, e, 0)
                if load is not None:
                    loads.append(load)
                    resigned_after[load] = False
            elif op < 0.6:
                epoch += rng.choice((0, 1))
                e = None if rng.random() < 0.1 else epoch - rng.choice((0, 0, 2))
                if ps.resign(0, e):
                    for ld in loads:
                        resigned_after[ld] = True
            elif loads:
                load = rng.choice(loads)
                if ps.loaded(load):
                    assert not resigned_after[load], f"seed {seed}: a load overtaken by a resignation applied"
                    assert load not in applied, f"seed {seed}: a load applied twice"
                    applied.add(load)
            if ps.error(0) is E.NONE:
                # serving: the load of this leadership was applied, and no resignation came since
                assert ps.state(0) is State.ACTIVE and any(not resigned_after[ld] for ld in applied), f"seed {seed}"
