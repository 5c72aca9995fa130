"""A group of thousands of members that empties gives its memory back (issue 27): the coordinator
keeps no table a join storm grew (dicts and sets never shrink on deletes) and no per-member
leftover, for classic groups (JoinGroup) and KIP-848 consumer groups (ConsumerGroupHeartbeat).
Measured with tracemalloc: a memory bound, not a time."""
from __future__ import annotations

import gc
import itertools
import sys
import tracemalloc

from odradek.coordinator.consumer_group_state import ConsumerMember
from odradek.coordinator.consumer_heartbeat import ConsumerGroupConfig, HeartbeatRequest
from odradek.coordinator.group_coordinator import GroupConfig, GroupCoordinator
from odradek.wire.errors import ErrorCode as E
from tests.coordinator.committed_log import CommittedAtOnce

MEMBERS = 2000
CONSUMER_MEMBERS = 300  # tables of 300 have grown (a join costs a pass over every member)
RETAINED_BOUND = 24 * 1024  # bytes the coordinator may keep after the group empties (the group itself, ids)


class DiscardingLog(CommittedAtOnce):
    """CoordinatorLog that keeps nothing (the records are the log's memory, not the coordinator's)."""

    def __init__(self):
        self.end = -1

    def append(self, partition, records, now_ms):
        self.end += 1
        return self.end

    def read(self, partition):
        return []


def _storm(c, gid, n, now, version):
    """n members join (v3: at once; v4+: MEMBER_ID_REQUIRED first), the group stabilises, all leave."""
    slots = [c.join_group(gid, "", None, f"client-{i}", "/127.0.0.1", 30_000, 60_000, "consumer",
                          [("range", b"\0" * 16)], now, api_version=version) for i in range(n)]
    if version >= 4:
        ids = [s.result.member_id for s in slots]
        assert all(s.result.error == E.MEMBER_ID_REQUIRED for s in slots)
        slots = [c.join_group(gid, m, None, "c", "/127.0.0.1", 30_000, 60_000, "consumer",
                              [("range", b"\0" * 16)], now, api_version=version) for m in ids]
    for _ in range(10):
        if all(s.done for s in slots):
            break
        now += 1_000
        c.tick(now)
    assert all(s.done and s.result.error == E.NONE for s in slots)
    members = [(s.result.member_id, None) for s in slots]
    del slots
    error, errors = c.leave_group(gid, members, now)
    assert error == E.NONE and set(errors) == {E.NONE}
    c.tick(now + 1_000)
    return now + 1_000


def _retained_after_storm(version):
    ids = itertools.count()
    c = GroupCoordinator(log=DiscardingLog(), config=GroupConfig(group_initial_rebalance_delay_ms=100),
                         now_ms=0, new_member_id=lambda prefix: f"{prefix}-{next(ids)}")
    now = _storm(c, "warm", 3, 0, version)  # whatever a first group creates once
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        now = _storm(c, "big", MEMBERS, now, version)
        peak = tracemalloc.get_traced_memory()[1]
        gc.collect()
        after = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    g = c.groups["big"]
    assert g.state.value == "Empty" and not g.members and not g.pending_members and not g.pending_sync
    return after - before, peak - before


def test_members_sending_the_same_protocols_share_one_copy():
    """A group's members mostly send the same protocols and metadata: one list (and one set of
    their names) for all of them, not one each."""
    ids = itertools.count()
    c = GroupCoordinator(log=DiscardingLog(), config=GroupConfig(group_initial_rebalance_delay_ms=100), now_ms=0,
                         new_member_id=lambda prefix: f"{prefix}-{next(ids)}")
    for i in range(50):
        c.join_group("g", "", None, f"client-{i}", "/127.0.0.1", 30_000, 60_000, "consumer",
                     [("range", b"\0" * 16), ("roundrobin", b"\1" * 16)], 0, api_version=3)
    c.join_group("g", "", None, "odd", "/127.0.0.1", 30_000, 60_000, "consumer", [("range", b"\2" * 16)], 0,
                 api_version=3)
    members = list(c.groups["g"].members.values())
    assert len({id(m.protocols) for m in members[:50]}) == 1
    assert members[50].protocols == [("range", b"\2" * 16)]  # a member's own stay its own
    assert len({id(names) for names in c.groups["g"].members._counted.values()}) == 2
    assert c.groups["g"].members.protocol_counts == {"range": 51, "roundrobin": 50}


def test_an_emptied_group_of_thousands_keeps_no_grown_tables():
    retained, peak = _retained_after_storm(version=3)
    assert peak > 1_000_000  # the storm did take memory: 2,000 members
    assert retained < RETAINED_BOUND, retained


def test_an_emptied_group_joined_with_member_id_required_keeps_no_grown_tables():
    retained, peak = _retained_after_storm(version=5)
    assert peak > 1_000_000
    assert retained < RETAINED_BOUND, retained


def _consumer_storm(c, gid, n, now):
    """n KIP-848 members join (epoch 0), half of them static, then every one leaves (epoch -1)."""
    topics = {"t": (b"T" * 16, 4)}
    ids = [f"member-{gid}-{i:05d}" for i in range(n)]
    for i, mid in enumerate(ids):
        r = c.consumer_group_heartbeat(HeartbeatRequest(
            group_id=gid, member_id=mid, member_epoch=0, instance_id=f"instance-{i}" if i % 2 else None,
            rebalance_timeout_ms=30_000, subscribed_topic_names=["t"], owned=[]), now, topics)
        assert r.error == E.NONE, r
    for mid in ids:
        r = c.consumer_group_heartbeat(HeartbeatRequest(group_id=gid, member_id=mid, member_epoch=-1), now, topics)
        assert r.error == E.NONE and r.member_epoch == -1, r
    c.tick(now + 1_000)
    return now + 1_000


def test_an_emptied_consumer_group_keeps_no_grown_tables():
    """Table sizes and a census rather than tracemalloc: a member-epoch group's join costs a pass
    over every member (its target assignment), and tracemalloc makes a storm of 1,000 take a minute."""
    c = GroupCoordinator(log=DiscardingLog(), config=GroupConfig(), now_ms=0, consumer_config=ConsumerGroupConfig())
    _consumer_storm(c, "big", CONSUMER_MEMBERS, 0)
    g = c.consumer_groups["big"]
    assert g.state == "Empty" and not g.members and not g.target and not g.static_members
    empty = sys.getsizeof({})
    # the member map is a dict that keeps the members' counts beside it: its empty size is its own
    assert [sys.getsizeof(t) for t in (g.members, g.target, g.static_members)] == [
        sys.getsizeof(type(g.members)()), empty, empty]
    index = (g.members.topic_name_counts, g.members.regex_counts, g.members.assignor_counts, g.members.owners)
    assert [sys.getsizeof(t) for t in index] == [empty] * 4
    gc.collect()
    assert not [o for o in gc.get_objects() if isinstance(o, ConsumerMember)]
