"""The uniform assignor against its plain reference (a scan of every subscriber for each partition,
as it was before it kept the least loaded subscriber per topic): the same assignment for seeded
random groups, homogeneous and not, with and without a previous assignment (issue 27)."""

from __future__ import annotations

import random

from odradek.coordinator import assignors


def _sorted_topics(topics: dict) -> list:
    return sorted(topics, key=lambda tid: (topics[tid][0], tid))


def reference_uniform(members: dict, topics: dict, previous: dict) -> dict:
    """Sticky and balanced: retain valid previous partitions, hand out the rest to the least loaded
    subscriber, then move partitions from the most to the least loaded subscriber until no two
    members that could share a partition differ by more than one."""
    out: dict = {m: {} for m in members}
    if not members:
        return out
    counts = {m: 0 for m in members}
    owner: dict = {}
    all_parts = [(tid, p) for tid in _sorted_topics(topics) for p in range(topics[tid][1])]
    subscribers = {tid: sorted(m for m, subs in members.items() if tid in subs) for tid in topics}
    total_subscribed = sum(topics[t][1] for t in topics if subscribers.get(t))
    # the quota caps stickiness so a member does not keep more than its share when all subscribe alike
    n = len(members)
    homogeneous = len({frozenset(s) for s in members.values()}) == 1
    quota = -(-total_subscribed // n) if homogeneous else None
    # members keeping most first, so the +1 slots go to the stickiest
    for m in sorted(members, key=lambda m: (-sum(len(ps) for ps in previous.get(m, {}).values()), m)):
        for tid, ps in sorted(previous.get(m, {}).items()):
            if tid not in members[m] or tid not in topics:
                continue
            for p in sorted(ps):
                if p >= topics[tid][1] or (tid, p) in owner:
                    continue
                if quota is not None and counts[m] >= quota:
                    break
                owner[(tid, p)] = m
                counts[m] += 1
    if homogeneous:
        # exactly total % n members may hold quota; the rest hold quota - 1
        extra = total_subscribed % n or n
        holders = [m for m in sorted(members, key=lambda m: (-counts[m], m)) if counts[m] >= quota]
        for m in holders[extra:]:
            _reference_release_one(owner, counts, m)
    for tp in all_parts:
        if tp in owner:
            continue
        subs = subscribers.get(tp[0]) or []
        if not subs:
            continue
        m = min(subs, key=lambda x: (counts[x], x))
        owner[tp] = m
        counts[m] += 1
    # balance (heterogeneous subscriptions): move one partition at a time while it helps
    for _ in range(len(all_parts) * 2):
        moved = False
        for tp in all_parts:
            src = owner.get(tp)
            if src is None:
                continue
            subs = subscribers[tp[0]]
            dst = min(subs, key=lambda x: (counts[x], x))
            if counts[src] - counts[dst] > 1:
                owner[tp] = dst
                counts[src] -= 1
                counts[dst] += 1
                moved = True
        if not moved:
            break
    for (tid, p), m in owner.items():
        out[m].setdefault(tid, set()).add(p)
    return out


def _reference_release_one(owner: dict, counts: dict, member: str) -> None:
    mine = sorted(tp for tp, m in owner.items() if m == member)
    if mine:
        del owner[mine[-1]]
        counts[member] -= 1


def _group(rnd: random.Random) -> tuple[dict, dict]:
    ntopics = rnd.randint(1, 5)
    topics = {bytes([65 + i]) * 16: (f"t{i}", rnd.randint(1, 12)) for i in range(ntopics)}
    tids = sorted(topics)
    n = rnd.randint(1, 25)
    if rnd.random() < 0.5:
        subs = frozenset(rnd.sample(tids, rnd.randint(1, ntopics)))
        members = {f"m{i:02d}": subs for i in range(n)}
    else:
        members = {f"m{i:02d}": frozenset(rnd.sample(tids, rnd.randint(0, ntopics))) for i in range(n)}
    return members, topics


def _previous(rnd: random.Random, members: dict, topics: dict) -> dict:
    """A previous target: random, possibly stale (members gone, partitions past the count, topics
    unsubscribed, a partition given to two members)."""
    prev: dict = {}
    ids = list(members) + ["gone-1", "gone-2"]
    for tid, (_name, n) in topics.items():
        for p in range(n + 2):
            if rnd.random() < 0.7:
                for m in rnd.sample(ids, rnd.choice([1, 1, 1, 2])):
                    prev.setdefault(m, {}).setdefault(tid, set()).add(p)
    return prev


def test_uniform_gives_the_reference_assignment_for_seeded_groups():
    for seed in range(1500):
        rnd = random.Random(seed)
        members, topics = _group(rnd)
        prev = _previous(rnd, members, topics) if rnd.random() < 0.6 else {}
        assert assignors.uniform(members, topics, prev) == reference_uniform(members, topics, prev), seed


def test_uniform_stays_the_reference_as_members_come_and_go():
    """Each round's assignment is the next round's previous one, as a group's target is."""
    for seed in range(60):
        rnd = random.Random(seed)
        members, topics = _group(rnd)
        prev: dict = {}
        for _ in range(12):
            got = assignors.uniform(members, topics, prev)
            assert got == reference_uniform(members, topics, prev), seed
            prev = got
            members = dict(members)
            if rnd.random() < 0.5 and len(members) > 1:
                del members[rnd.choice(sorted(members))]
            else:
                members[f"n{rnd.randrange(1000):03d}"] = rnd.choice(list(members.values()))
