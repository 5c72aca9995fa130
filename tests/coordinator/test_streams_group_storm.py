"""KIP-1071 join storms in the pure coordinator (issue 27): a streams heartbeat costs what its own
member has (who still holds a task comes from the group's StreamsMembers index, as Kafka 4.3's
task-to-process maps), and the one pass over the whole group (the assignor's) runs at most once per
group.streams.assignment.interval.ms. Counted, not timed: members walked and assignor runs. A seeded
run checks the index against a recount."""

from __future__ import annotations

import random

from odradek.coordinator.group_coordinator import GroupConfig, GroupCoordinator
from odradek.coordinator.streams_group_state import StreamsMembers
from odradek.coordinator.streams_heartbeat import StreamsConfig, StreamsHeartbeatRequest
from odradek.wire.errors import ErrorCode as E
from odradek.wire.messages import streams_group_heartbeat_request as hbreq

from member_walks import counting
from test_streams_group_coordinator import MemoryLog

START = 1_000_000
TOPICS = {"lines": (b"L" * 16, 8)}


CountingMembers = counting(StreamsMembers)  # the member map, counting the members every walk over it visits


def _topology():
    return hbreq.Topology(epoch=1, subtopologies=[hbreq.Subtopology(subtopology_id="0", source_topics=["lines"])])


def _coordinator(**scfg) -> GroupCoordinator:
    scfg.setdefault("initial_rebalance_delay_ms", 0)
    return GroupCoordinator(log=MemoryLog(), config=GroupConfig(), now_ms=START, streams_config=StreamsConfig(**scfg))


def _hb(c, mid, epoch, now, owned=None, process=None):
    join = epoch == 0
    if join:
        active = {}
    else:
        active = owned
    r = c.streams_group_heartbeat(StreamsHeartbeatRequest(
        group_id="g", member_id=mid, member_epoch=epoch, rebalance_timeout_ms=30_000 if join else -1,
        topology=_topology() if join else None, active=active, standby={} if active is not None else None,
        warmup={} if active is not None else None, process_id=(process or mid) if join else None), now, TOPICS)
    assert r.error is E.NONE, r
    return r


def _storm(n, step_ms, **scfg):
    """n members join one group, one every step_ms; -> (coordinator, members walked)."""
    c = _coordinator(**scfg)
    now = START
    _hb(c, "m-0", 0, now)
    g = c.streams_groups["g"]
    g.members = CountingMembers(g.members)
    for i in range(1, n):
        now += step_ms
        _hb(c, f"m-{i}", 0, now, process=f"p-{i % 500}")
    return c, g.members.walked


def test_a_join_storm_runs_the_assignor_once_per_interval_and_walks_the_group_only_then():
    c, walked = _storm(2_000, 1)  # 2,000 joins over 2 s: the default interval is 1 s
    g = c.streams_groups["g"]
    assert len(g.members) == 2_000 and g.group_epoch == 2_001  # a new group is at epoch 1 (Kafka 4.3)
    assert c.streams.assignor_runs == 2  # the first join's, then one a second later
    assert g.assignment_epoch == 1_002  # the second run: the join a second after the first one's
    assert walked <= 4 * 2_000, walked  # the assignor's passes; a join itself walks nobody


def test_with_no_interval_the_assignor_runs_at_every_epoch_and_only_it_walks_the_group():
    c, walked = _storm(300, 1, assignment_interval_ms=0)
    assert c.streams.assignor_runs == 300
    assert walked <= 2 * sum(range(1, 301)), walked


def test_ticks_walk_the_members_only_once_a_deadline_is_due():
    c, _ = _storm(1_000, 0)
    g = c.streams_groups["g"]
    g.members.walked = 0
    session = StreamsConfig().session_timeout_ms
    for k in range(1, 300):  # 30 s of ticks
        c.tick(START + k * 100)
    assert g.members.walked <= 2 * 1_000  # the first tick's pass (a new group), then none
    g.members.walked = 0
    c.tick(START + session - 1)
    assert g.members.walked == 0 and len(g.members) == 1_000
    c.tick(START + session)  # every session is over: one walk fences them all
    assert not g.members


def _recount(g) -> dict:
    held: dict = {"active": {}, "standby": {}, "warmup": {}}
    for m in dict.values(g.members):
        for kind in held:
            for tasks in (m.assigned, m.pending_revocation):
                for s, ps in getattr(tasks, kind).items():
                    for p in ps:
                        procs = held[kind].setdefault((s, p), {})
                        procs[m.process_id] = procs.get(m.process_id, 0) + 1
    return held


def test_seeded_heartbeats_keep_the_task_index_equal_to_a_recount_and_settle():
    for seed in range(10):
        rnd = random.Random(seed)
        c = _coordinator(assignment_interval_ms=rnd.choice([0, 0, 1000]), num_standby_replicas=rnd.choice([0, 1]))
        now = START
        known: dict = {}  # member id -> (epoch, owned active tasks)
        for step in range(250):
            now += rnd.choice([1, 10, 300])
            if known and rnd.random() < 0.75:
                mid = rnd.choice(sorted(known))
                epoch, owned = known[mid]
                if rnd.random() < 0.1:
                    r = c.streams_group_heartbeat(StreamsHeartbeatRequest(group_id="g", member_id=mid,
                                                                          member_epoch=-1), now, TOPICS)
                    assert r.error is E.NONE
                    del known[mid]
                    continue
                r = _hb(c, mid, epoch, now, owned=owned)
            else:
                mid = f"m{step}"
                r = _hb(c, mid, 0, now, process=f"p{rnd.randrange(4)}")
            owned = known.get(mid, (0, {}))[1] if r.assignment is None else {
                s: sorted(ps) for s, ps in r.assignment.active.items()}
            known[mid] = (r.member_epoch, owned)
            g = c.streams_groups["g"]
            assert g.members.held == _recount(g), (seed, step)
        # everyone heartbeats until the group is stable: every task active on exactly one member
        for _ in range(20):
            now += 1000
            c.tick(now)
            for mid in sorted(known):
                epoch, owned = known[mid]
                r = _hb(c, mid, epoch, now, owned=owned)
                known[mid] = (r.member_epoch, owned if r.assignment is None else {
                    s: sorted(ps) for s, ps in r.assignment.active.items()})
        g = c.streams_groups["g"]
        assert g.members.held == _recount(g)
        if known:
            assert g.state == "Stable", seed
            assert sorted(p for _e, o in known.values() for ps in o.values() for p in ps) == list(range(8))
