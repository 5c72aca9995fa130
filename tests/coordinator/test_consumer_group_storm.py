"""KIP-848 join storms in the pure coordinator (issue 27): a heartbeat costs what its own member has,
and the one pass over the whole group (the assignor's) runs at most once per
group.consumer.assignment.interval.ms, as Kafka 4.3's canComputeNextTargetAssignment. Counted, not
timed: members walked and assignor runs. A seeded run checks the group's indexes against a recount."""

from __future__ import annotations

import random

from odradek.coordinator.consumer_group_state import ConsumerMembers
from odradek.coordinator.consumer_heartbeat import ConsumerGroupConfig, HeartbeatRequest
from odradek.coordinator.group_coordinator import GroupConfig, GroupCoordinator
from odradek.wire.errors import ErrorCode as E

from member_walks import counting
from test_consumer_group_coordinator import MemoryLog

T = b"T" * 16
U = b"U" * 16
START = 1_000_000


CountingMembers = counting(ConsumerMembers)  # the member map, counting the members every walk over it visits


def _coordinator(**ccfg) -> GroupCoordinator:
    return GroupCoordinator(log=MemoryLog(), config=GroupConfig(), now_ms=START,
                            consumer_config=ConsumerGroupConfig(**ccfg))


def _join(c, mid, now, topics, instance=None, names=("t",)):
    r = c.consumer_group_heartbeat(HeartbeatRequest(
        group_id="g", member_id=mid, member_epoch=0, instance_id=instance, rebalance_timeout_ms=30_000,
        subscribed_topic_names=list(names), owned=[]), now, topics)
    assert r.error is E.NONE, r
    return r


def _storm(n, step_ms, **ccfg):
    """n members join one group, one every step_ms; -> (coordinator, members walked)."""
    c = _coordinator(**ccfg)
    topics = {"t": (T, 8)}
    now = START
    _join(c, "m-0", now, topics)
    g = c.consumer_groups["g"]
    g.members = CountingMembers(g.members)
    for i in range(1, n):
        now += step_ms
        _join(c, f"m-{i}", now, topics, instance=f"i-{i}" if i % 2 else None)
    return c, g.members.walked


def test_a_join_storm_runs_the_assignor_once_per_interval_and_walks_the_group_only_then():
    c, walked = _storm(2_000, 1)  # 2,000 joins over 2 s: the default interval is 1 s
    g = c.consumer_groups["g"]
    assert len(g.members) == 2_000 and g.group_epoch == 2_001  # a new group is at epoch 1 (Kafka 4.3)
    assert c.consumer.assignor_runs == 2  # the first join's, then one a second later
    assert walked <= 2 * 2_000, walked  # the assignor's pass; a join itself walks nobody
    small, small_walked = _storm(200, 10)
    assert small.consumer.assignor_runs == 2 and small_walked <= 2 * 200


def test_with_no_interval_the_assignor_runs_at_every_epoch_and_only_it_walks_the_group():
    c, walked = _storm(300, 1, group_consumer_assignment_interval_ms=0)
    assert c.consumer.assignor_runs == 300
    # each run walks the group once (plus the member map copy it starts from), nothing else does
    assert walked <= 2 * sum(range(1, 301)), walked


def test_ticks_walk_the_members_only_once_a_deadline_is_due():
    """The coordinator ticks every 100 ms: a 2,000-member group is walked when its earliest session
    or rebalance deadline comes, not at every tick; the member past it is fenced then."""
    c, _ = _storm(2_000, 0)
    g = c.consumer_groups["g"]
    g.members.walked = 0
    session = ConsumerGroupConfig().group_consumer_session_timeout_ms
    topics = {"t": (T, 8)}
    for k in range(1, 400):  # 40 s of ticks; everyone but m-0 heartbeats at 20 s
        now = START + k * 100
        if k == 200:
            assert g.members.walked <= 2 * 2_000  # the first tick's pass (a new group; it reads each member twice), then none
            for i in range(1, 2_000):
                m = g.members[f"m-{i}"]
                r = c.consumer_group_heartbeat(HeartbeatRequest(
                    group_id="g", member_id=m.member_id, member_epoch=m.member_epoch, instance_id=m.instance_id,
                    owned=[(tid, sorted(ps)) for tid, ps in m.assigned.items()]), now, topics)
                assert r.error is E.NONE, r
            g.members.walked = 0
        c.tick(now)
    assert g.members.walked == 0
    c.tick(START + session - 1)
    assert "m-0" in g.members and g.members.walked == 0
    c.tick(START + session)  # m-0's session is over: one walk fences it
    assert "m-0" not in g.members and len(g.members) == 1_999
    assert 0 < g.members.walked <= 2 * 2_000
    g.members.walked = 0
    c.tick(START + session + 100)
    assert g.members.walked == 0


def test_joins_within_the_interval_wait_for_the_next_target_assignment():
    """As Kafka 4.3 (group.consumer.assignment.interval.ms, 1000 by default): the group epoch moves
    at every join, the target waits for the interval; meanwhile a new member is at the assignment
    epoch with nothing, the group is Assigning."""
    c = _coordinator()
    topics = {"t": (T, 4)}
    r1 = _join(c, "m1", START, topics)
    assert r1.member_epoch == 2 and r1.assignment == {T: [0, 1, 2, 3]}  # a new group is at epoch 1
    r2 = _join(c, "m2", START + 400, topics)
    g = c.consumer_groups["g"]
    assert (g.group_epoch, g.assignment_epoch, g.state) == (3, 2, "Assigning")
    assert r2.member_epoch == 2 and r2.assignment == {}

    def hb(mid, epoch, owned, now):
        return c.consumer_group_heartbeat(HeartbeatRequest(group_id="g", member_id=mid, member_epoch=epoch,
                                                           owned=owned), now, topics)

    r1 = hb("m1", 2, [(T, [0, 1, 2, 3])], START + 999)
    assert r1.member_epoch == 2 and r1.assignment is None and g.assignment_epoch == 2
    # the interval is over: the next heartbeat computes epoch 3's target; m1 revokes half
    r1 = hb("m1", 2, [(T, [0, 1, 2, 3])], START + 1000)
    assert g.assignment_epoch == 3 and c.consumer.assignor_runs == 2
    kept = r1.assignment[T]
    assert r1.member_epoch == 2 and len(kept) == 2
    r1 = hb("m1", 2, [(T, kept)], START + 1001)
    assert r1.member_epoch == 3
    r2 = hb("m2", 2, [], START + 1002)
    assert r2.member_epoch == 3 and sorted(r2.assignment[T] + kept) == [0, 1, 2, 3]
    assert g.state == "Stable" and c.consumer.assignor_runs == 2


def test_the_interval_counts_from_the_last_assignment_after_a_reload():
    log = MemoryLog()
    topics = {"t": (T, 4)}
    c = GroupCoordinator(log=log, config=GroupConfig(), now_ms=START, consumer_config=ConsumerGroupConfig())
    _join(c, "m1", START, topics)
    again = GroupCoordinator(log=log, config=GroupConfig(), now_ms=START + 100,
                             consumer_config=ConsumerGroupConfig())
    again.load_all(START + 100)
    assert again.consumer_groups["g"].assignment_timestamp_ms == START
    r = _join(again, "m2", START + 500, topics)
    assert r.member_epoch == 2 and again.consumer.assignor_runs == 0
    r = _join(again, "m3", START + 1000, topics)
    assert r.member_epoch == 4 and again.consumer.assignor_runs == 1


def _recount(g) -> dict:
    """The indexes ConsumerMembers keeps, counted again from its members."""
    names, regexes, assignors_, owners = {}, {}, {}, {}
    for mid, m in dict.items(g.members):
        for n in m.subscribed_topic_names:
            names[n] = names.get(n, 0) + 1
        if m.subscribed_topic_regex:
            regexes[m.subscribed_topic_regex] = regexes.get(m.subscribed_topic_regex, 0) + 1
        if m.server_assignor:
            assignors_[m.server_assignor] = assignors_.get(m.server_assignor, 0) + 1
        for d in (m.assigned, m.pending_revocation):
            for tid, ps in d.items():
                for p in ps:
                    owners.setdefault(tid, {}).setdefault(p, []).append(mid)
    return {"names": names, "regexes": regexes, "assignors": assignors_, "owners": owners}


def _indexed(g) -> dict:
    ms = g.members
    owners = {tid: {p: list(held) if isinstance(held, tuple) else [held] for p, held in parts.items()}
              for tid, parts in ms.owners.items()}
    return {"names": ms.topic_name_counts, "regexes": ms.regex_counts, "assignors": ms.assignor_counts,
            "owners": owners}


def test_seeded_heartbeats_keep_the_group_indexes_equal_to_a_recount_and_settle_balanced():
    for seed in range(12):
        rnd = random.Random(seed)
        c = _coordinator(group_consumer_assignment_interval_ms=rnd.choice([0, 0, 1000]))
        topics = {"t": (T, 6), "u": (U, 3)}
        now = START
        known: dict = {}  # member id -> (epoch, owned, instance)
        for step in range(300):
            mid = rnd.choice(sorted(known)) if known and rnd.random() < 0.7 else f"m{step}"
            if mid not in known:
                inst = f"i{rnd.randrange(5)}" if rnd.random() < 0.3 else None
                req = HeartbeatRequest(group_id="g", member_id=mid, member_epoch=0, instance_id=inst,
                                       rebalance_timeout_ms=30_000, owned=[],
                                       subscribed_topic_names=rnd.choice([["t"], ["u"], ["t", "u"]]),
                                       server_assignor=rnd.choice([None, "uniform", "range"]))
            else:
                epoch, owned, inst = known[mid]
                leave = rnd.random() < 0.08
                req = HeartbeatRequest(group_id="g", member_id=mid, instance_id=inst,
                                       member_epoch=(-2 if inst else -1) if leave else epoch,
                                       owned=None if leave else sorted(owned.items()))
            r = c.consumer_group_heartbeat(req, now, topics)
            if r.error is not E.NONE or req.member_epoch < 0:
                known.pop(mid, None)
            else:
                owned = known.get(mid, (0, {}, None))[1] if r.assignment is None else dict(r.assignment)
                known[mid] = (r.member_epoch, owned, req.instance_id)
            now += rnd.choice([1, 50, 700, 3000])
            c.tick(now)
            g = c.consumer_groups.get("g")
            known = {mid: v for mid, v in known.items() if g is not None and dict.__contains__(g.members, mid)}
            if g is not None:
                assert _indexed(g) == _recount(g), (seed, step)
                assert all(len(ids) == 1 for parts in _recount(g)["owners"].values() for ids in parts.values())
        # well-behaved heartbeats from everyone, past the interval and the session of a static member
        # that left (epoch -2): the group settles on its target
        g = c.consumer_groups["g"]
        for _ in range(12):
            now += 5_000
            c.tick(now)  # fences the members past a rebalance timeout of the random phase too
            for mid in sorted(known):
                if not dict.__contains__(g.members, mid):
                    del known[mid]
                    continue
                epoch, owned, inst = known[mid]
                r = c.consumer_group_heartbeat(HeartbeatRequest(group_id="g", member_id=mid, member_epoch=epoch,
                                                                instance_id=inst, owned=sorted(owned.items())),
                                               now, topics)
                assert r.error is E.NONE, (seed, r)
                known[mid] = (r.member_epoch, owned if r.assignment is None else dict(r.assignment), inst)
        if dict.__len__(g.members):
            assert g.state == "Stable", seed
            for mid, m in dict.items(g.members):
                assert m.assigned_sets() == g.target.get(mid, {}), (seed, mid)
            assert _indexed(g) == _recount(g)


def _seeded_run(seed: int, same_table: bool) -> tuple[list, list]:
    """A seeded run of joins, heartbeats, leaves and new topics; -> (answers, records written). The
    broker's handlers pass the same topics table while the image's topics are unchanged; a test
    harness passes a fresh one each time: the answers must not tell them apart."""
    rnd = random.Random(seed)
    log = MemoryLog()
    c = GroupCoordinator(log=log, config=GroupConfig(), now_ms=START,
                         consumer_config=ConsumerGroupConfig(group_consumer_assignment_interval_ms=0))
    topics = {"t": (T, 6), "u": (U, 3)}
    table = dict(topics)
    now, known, answers = START, {}, []
    for step in range(250):
        if rnd.random() < 0.04:
            topics[f"t{step}"] = (bytes([step % 256]) * 16, rnd.randint(1, 3))
            table = dict(topics)
        mid = rnd.choice(sorted(known)) if known and rnd.random() < 0.7 else f"m{step}"
        if mid not in known:
            req = HeartbeatRequest(group_id="g", member_id=mid, member_epoch=0, rebalance_timeout_ms=30_000, owned=[],
                                   subscribed_topic_names=rnd.choice([["t"], ["t", "u"], None]),
                                   subscribed_topic_regex=rnd.choice([None, "t.*"]) or (None if rnd.random() < 0.5 else "u"))
            if req.subscribed_topic_names is None and req.subscribed_topic_regex is None:
                req.subscribed_topic_names = ["u"]
        else:
            epoch, owned = known[mid]
            req = HeartbeatRequest(group_id="g", member_id=mid, member_epoch=-1 if rnd.random() < 0.08 else epoch,
                                   owned=sorted(owned.items()))
        r = c.consumer_group_heartbeat(req, now, table if same_table else dict(topics))
        answers.append((r.error, r.member_epoch, r.assignment))
        if r.error is not E.NONE or req.member_epoch < 0:
            known.pop(mid, None)
        else:
            known[mid] = (r.member_epoch, known.get(mid, (0, {}))[1] if r.assignment is None else dict(r.assignment))
        now += rnd.choice([1, 100, 3000])
        c.tick(now)
    return answers, [rec for part in log.parts.values() for rec in part]


def test_a_topics_table_passed_again_gives_the_same_answers_as_a_fresh_one():
    """The metadata hash and the subscribed topic ids are kept while the topics table and the
    group's subscriptions are the same: seeded runs answer and write exactly as when both are
    computed again at every heartbeat (a fresh table each time)."""
    for seed in range(15):
        assert _seeded_run(seed, True) == _seeded_run(seed, False), seed
