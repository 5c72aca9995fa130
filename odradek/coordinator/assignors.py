"""Server-side partition assignors of KIP-848 consumer groups: "uniform" (default) and "range".

An assignor is a pure function::

    assign(members, topics, previous) -> {member_id: {topic_id: set(partitions)}}

members:  {member_id: set of subscribed topic ids} (only topics that exist)
topics:   {topic_id: (topic name, partition count)}
previous: {member_id: {topic_id: set(partitions)}} — the current target assignment (for stickiness)

Kafka's UniformAssignor balances the number of partitions per member and keeps as many partitions
where they are as it can; Kafka's RangeAssignor gives each member a contiguous range of every topic
it subscribes to (co-partitioning). The exact placement can differ from Kafka's; the balance does not.
"""

from __future__ import annotations


def _sorted_topics(topics: dict) -> list:
    return sorted(topics, key=lambda tid: (topics[tid][0], tid))


def uniform(members: dict, topics: dict, previous: dict) -> dict:
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
            _release_one(owner, counts, m)
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


def _release_one(owner: dict, counts: dict, member: str) -> None:
    mine = sorted(tp for tp, m in owner.items() if m == member)
    if mine:
        del owner[mine[-1]]
        counts[member] -= 1


def range_(members: dict, topics: dict, previous: dict) -> dict:
    out: dict = {m: {} for m in members}
    for tid in _sorted_topics(topics):
        subs = sorted(m for m, s in members.items() if tid in s)
        if not subs:
            continue
        n = topics[tid][1]
        per, extra = divmod(n, len(subs))
        start = 0
        for i, m in enumerate(subs):
            size = per + (1 if i < extra else 0)
            if size:
                out[m][tid] = set(range(start, start + size))
            start += size
    return out


ASSIGNORS = {"uniform": uniform, "range": range_}
DEFAULT_ASSIGNORS = ("uniform", "range")
