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

import heapq


def _sorted_topics(topics: dict) -> list:
    return sorted(topics, key=lambda tid: (topics[tid][0], tid))


def uniform(members: dict, topics: dict, previous: dict) -> dict:
    """Sticky and balanced: retain valid previous partitions, hand out the rest to the least loaded
    subscriber, then move partitions from the most to the least loaded subscriber until no two
    members that could share a partition differ by more than one.

    "The least loaded subscriber" of a topic is the first by (partitions held, member id). It is
    kept per topic (a heap while a topic's partitions are handed out, a cached minimum while
    partitions move), so a pass costs about partitions x log(members), not partitions x members."""
    out: dict = {m: {} for m in members}
    if not members:
        return out
    counts = {m: 0 for m in members}
    owner: dict = {}
    held: dict = {}  # member -> the partitions it retained, in the order retained
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
                held.setdefault(m, []).append((tid, p))
    if homogeneous:
        # exactly total % n members may hold quota; the rest hold quota - 1
        extra = total_subscribed % n or n
        holders = [m for m in sorted(members, key=lambda m: (-counts[m], m)) if counts[m] >= quota]
        for m in holders[extra:]:
            _release_one(owner, counts, held, m)
    # hand out the rest, a topic at a time (only the member given one changes its count meanwhile)
    for tid in _sorted_topics(topics):
        subs = subscribers.get(tid)
        free = [p for p in range(topics[tid][1]) if (tid, p) not in owner]
        if not subs or not free:
            continue
        heap = [(counts[x], x) for x in subs]
        heapq.heapify(heap)
        for p in free:
            c, m = heapq.heappop(heap)
            owner[(tid, p)] = m
            counts[m] = c + 1
            heapq.heappush(heap, (c + 1, m))
    # balance (heterogeneous subscriptions): move one partition at a time while it helps
    least = _LeastLoaded(subscribers, counts)
    for _ in range(len(all_parts) * 2):
        moved = False
        for tp in all_parts:
            src = owner.get(tp)
            if src is None:
                continue
            dst = least.of(tp[0])
            if counts[src] - counts[dst] > 1:
                owner[tp] = dst
                least.moved(src, dst)
                moved = True
        if not moved:
            break
    for (tid, p), m in owner.items():
        out[m].setdefault(tid, set()).add(p)
    return out


class _LeastLoaded:
    """Per topic, its subscriber first by (count, member id), kept across moves: a move lowers the
    source's count (it may become a topic's least loaded) and raises the destination's (a topic
    whose least loaded it was looks again)."""

    def __init__(self, subscribers: dict, counts: dict):
        self.subscribers = subscribers
        self.counts = counts
        self.best: dict = {}  # topic -> (count, member)
        self.topics_of: dict | None = None  # member -> the topics it subscribes to (made on the first move)

    def of(self, tid) -> str:
        b = self.best.get(tid)
        if b is None:
            counts = self.counts
            b = self.best[tid] = min((counts[x], x) for x in self.subscribers[tid])
        return b[1]

    def moved(self, src: str, dst: str) -> None:
        counts = self.counts
        counts[src] -= 1
        counts[dst] += 1
        if self.topics_of is None:
            self.topics_of = {}
            for tid, subs in self.subscribers.items():
                for m in subs:
                    self.topics_of.setdefault(m, []).append(tid)
        for tid in self.topics_of.get(dst, ()):
            b = self.best.get(tid)
            if b is not None and b[1] == dst:
                del self.best[tid]
        for tid in self.topics_of.get(src, ()):
            b = self.best.get(tid)
            if b is not None and (counts[src], src) < b:
                self.best[tid] = (counts[src], src)


def _release_one(owner: dict, counts: dict, held: dict, member: str) -> None:
    mine = held.get(member)
    if mine:
        last = max(mine)
        mine.remove(last)
        del owner[last]
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
