"""KIP-848's online migration (group.consumer.migration.policy) as a state machine: a classic group
upgraded by a ConsumerGroupHeartbeat with its classic members kept (JoinGroup/SyncGroup/Heartbeat
served inside the consumer group), downgraded when its last consumer-protocol member leaves; the
records written are Kafka 4.3's, and a coordinator loading them gets the same group. The same
story with real clients against odradek serve and Apache Kafka: compat_tests/test_group_migration.py."""

from __future__ import annotations

import struct

import pytest

from odradek.coordinator import consumer_group_records as crec
from odradek.coordinator import group_records as rec
from odradek.coordinator.consumer_heartbeat import ConsumerGroupConfig, HeartbeatRequest
from odradek.coordinator.group_coordinator import GroupConfig, GroupCoordinator
from odradek.coordinator.group_state import Group, GroupState
from odradek.wire.errors import ErrorCode as E
from odradek.wire.messages.consumer_protocol_assignment import ConsumerProtocolAssignment
from odradek.wire.messages.consumer_protocol_assignment import TopicPartition as ATP
from odradek.wire.messages.consumer_protocol_subscription import ConsumerProtocolSubscription
from odradek.wire.messages.consumer_protocol_subscription import TopicPartition as STP
from txn_fakes import MemLog  # (the in-memory __consumer_offsets: the same log as __transaction_state's)

A = b"A" * 16
TOPICS = {"a": (A, 4)}


def subscription(owned=(), version=1) -> bytes:
    sub = ConsumerProtocolSubscription(topics=["a"], user_data=None,
                                       owned_partitions=[STP(topic="a", partitions=list(owned))] if owned else [])
    return struct.pack(">h", version) + bytes(sub.encode(version))


def assignment(parts, version=1) -> bytes:
    a = ConsumerProtocolAssignment(assigned_partitions=[ATP(topic="a", partitions=list(parts))], user_data=None)
    return struct.pack(">h", version) + bytes(a.encode(version))


def assigned(data: bytes) -> list:
    a = ConsumerProtocolAssignment.decode(data, struct.unpack_from(">h", data)[0], 2)
    return sorted(p for tp in a.assigned_partitions for p in tp.partitions)


class H:
    def __init__(self, log=None, policy="bidirectional"):
        self.now = 1_000_000
        self.log = log or MemLog()
        self.c = GroupCoordinator(
            log=self.log, config=GroupConfig(group_initial_rebalance_delay_ms=0), now_ms=self.now,
            consumer_config=ConsumerGroupConfig(group_consumer_assignment_interval_ms=0,
                                                group_consumer_migration_policy=policy))
        self.c.update_topics(dict(TOPICS))
        if log is not None:
            self.c.load_all(self.now)

    def join(self, member_id, owned=(), gid="g"):
        return self.c.join_group(gid, member_id, None, "c", "/h", 10_000, 20_000, "consumer",
                                 [("range", subscription(owned))], self.now, api_version=9, topics=dict(TOPICS))

    def sync(self, member_id, gen, assignments=None, gid="g"):
        return self.c.sync_group(gid, gen, member_id, None, "consumer", "range", assignments or {}, self.now)

    def hb(self, member, epoch, owned=None, gid="g"):
        join = epoch == 0
        req = HeartbeatRequest(group_id=gid, member_id=member, member_epoch=epoch,
                               rebalance_timeout_ms=30_000 if join else -1,
                               subscribed_topic_names=["a"] if join else None, owned=[] if join else owned)
        return self.c.consumer_group_heartbeat(req, self.now, dict(TOPICS))

    def records(self):
        return [(k, v) for _o, k, v in self.log.read(self.c.partition_for("g"))]


def classic_group(h: H) -> tuple[str, str, int]:
    """Two classic members, Stable: (first, second, generation); first has 0,1 and second 2,3."""
    m1 = h.join("").result.member_id
    r1 = h.join(m1).result
    assert r1.error is E.NONE and r1.generation_id == 1
    assert h.sync(m1, 1, {m1: assignment([0, 1, 2, 3])}).result.error is E.NONE
    m2 = h.join("").result.member_id
    parked = h.join(m2)
    assert not parked.done
    assert h.c.heartbeat("g", 1, m1, None, h.now) is E.REBALANCE_IN_PROGRESS
    r1 = h.join(m1, owned=[]).result
    assert r1.generation_id == 2 and parked.result.generation_id == 2
    assert h.sync(m1, 2, {m1: assignment([0, 1]), m2: assignment([2, 3])}).result.error is E.NONE
    assert assigned(h.sync(m2, 2).result.assignment) == [2, 3]
    return m1, m2, 2


def test_upgrade_keeps_classic_members_and_downgrade_when_the_consumer_member_leaves():
    h = H()
    m1, m2, gen = classic_group(h)
    before = len(h.records())
    r = h.hb("m3", 0)
    assert r.error is E.NONE and r.member_epoch == gen + 1
    assert r.assignment == {}  # its target's partitions are still owned by the classic members
    g = h.c.consumer_groups["g"]
    assert [m.classic is not None for m in g.members.values()] == [True, True, False]
    assert g.members[m1].member_epoch == gen and g.state == "Reconciling"
    # the records: the classic group's tombstone, then Kafka's createConsumerGroupRecords, then the heartbeat's
    written = h.records()[before:]
    assert written[0] == (rec.group_metadata_key("g"), None)
    kinds = [crec.decode(k, v).kind for k, v in written[1:8]]
    assert kinds == [crec.MEMBER_METADATA, crec.MEMBER_METADATA, crec.GROUP_METADATA, crec.TARGET_MEMBER,
                     crec.TARGET_MEMBER, crec.TARGET_METADATA, crec.CURRENT_MEMBER, crec.CURRENT_MEMBER][:7]
    meta = crec.decode(*written[1]).value
    assert meta.classic_member_metadata.session_timeout_ms == 10_000
    assert [p.name for p in meta.classic_member_metadata.supported_protocols] == ["range"]
    assert crec.decode(*written[3]).value.epoch == gen
    assert h.c.list_groups() == [("g", "consumer", "Reconciling", "consumer")]
    # the classic members are told to join again, and reconcile through JoinGroup/SyncGroup: the
    # coordinator answers their generation (member epoch) and what they own, with no leader
    assert h.c.heartbeat("g", gen, m1, None, h.now) is E.REBALANCE_IN_PROGRESS
    j = h.join(m1, owned=[0, 1]).result
    assert (j.error, j.protocol_type, j.protocol_name, j.leader, j.members) == (E.NONE, "consumer", "range", "", [])
    assert h.sync(m1, j.generation_id + 1).result.error is E.ILLEGAL_GENERATION
    assert h.sync(m1, j.generation_id, gid="g").result.error is E.NONE
    assert h.c.sync_group("g", j.generation_id, m1, None, "consumer", "roundrobin", {}, h.now).result.error \
        is E.INCONSISTENT_GROUP_PROTOCOL
    reconcile_classic(h, (m1, m2))
    r = h.hb("m3", r.member_epoch, owned=[])
    r = h.hb("m3", r.member_epoch, owned=[(A, r.assignment[A])] if r.assignment else [])
    owners = {}
    for m in (m1, m2):
        mm = g.members[m]
        for p in assigned(h.sync(m, mm.member_epoch).result.assignment):
            owners.setdefault(p, []).append(m)
    for p in g.members["m3"].assigned.get(A, {}):
        owners.setdefault(p, []).append("m3")
    assert sorted(owners) == [0, 1, 2, 3] and all(len(v) == 1 for v in owners.values())
    assert g.state == "Stable" and g.group_epoch == g.assignment_epoch == gen + 1
    kept = assigned(h.sync(m1, g.members[m1].member_epoch).result.assignment)
    # a coordinator loading the partition gets the same mixed group
    h2 = H(log=h.log)
    g2 = h2.c.consumer_groups["g"]
    assert {mid: (m.member_epoch, m.classic is not None) for mid, m in g2.members.items()} == \
        {mid: (m.member_epoch, m.classic is not None) for mid, m in g.members.items()}
    assert g2.members[m1].classic == g.members[m1].classic
    # the last consumer-protocol member leaves: the group is classic again, and rebalances
    before = len(h.records())
    assert h.hb("m3", -1).error is E.NONE
    cg = h.c.groups["g"]
    assert isinstance(cg, Group) and cg.state is GroupState.PREPARING_REBALANCE
    assert cg.generation_id == g.group_epoch and set(cg.members) == {m1, m2}
    assert assigned(cg.members[m1].assignment) == kept
    written = h.records()[before:]
    assert written[-1][0] == rec.group_metadata_key("g") and written[-1][1] is not None
    assert crec.decode(*written[-2]).kind == crec.GROUP_METADATA and written[-2][1] is None
    assert h.c.heartbeat("g", gen + 1, m1, None, h.now) is E.REBALANCE_IN_PROGRESS
    h3 = H(log=h.log)
    loaded = h3.c.groups["g"]
    assert isinstance(loaded, Group) and set(loaded.members) == {m1, m2}
    assert loaded.generation_id == cg.generation_id


def test_disabled_policy_refuses_the_upgrade_with_kafkas_error():
    h = H(policy="disabled")
    classic_group(h)
    r = h.hb("m3", 0)
    assert r.error is E.GROUP_ID_NOT_FOUND
    assert r.error_message == ("Cannot upgrade classic group g to consumer group because online upgrade is "
                               "disabled.")
    assert isinstance(h.c.groups["g"], Group)


def test_upgrade_only_policy_keeps_a_consumer_group_of_classic_members():
    h = H(policy="upgrade")
    m1, m2, gen = classic_group(h)
    assert h.hb("m3", 0).error is E.NONE
    h.hb("m3", -1)
    g = h.c.consumer_groups["g"]
    assert set(g.members) == {m1, m2}


def reconcile_classic(h: H, members) -> None:
    """The classic members join and sync as told until each heartbeat is answered NONE."""
    for _ in range(10):
        g = h.c.consumer_groups["g"]
        todo = [m for m in members if h.c.heartbeat("g", g.members[m].member_epoch, m, None, h.now) is not E.NONE]
        if not todo:
            return
        for m in todo:
            owned = sorted(p for ps in g.members[m].assigned.values() for p in ps)
            j = h.join(m, owned=owned).result
            assert h.sync(m, j.generation_id).result.error in (E.NONE, E.REBALANCE_IN_PROGRESS)
    raise AssertionError("the classic members did not settle")


@pytest.mark.parametrize("policy", ["bidirectional", "downgrade"])
def test_fenced_consumer_member_downgrades(policy):
    h = H(policy="upgrade")  # upgrade first
    m1, m2, gen = classic_group(h)
    assert h.hb("m3", 0).error is E.NONE
    h.c.consumer.config.group_consumer_migration_policy = policy
    reconcile_classic(h, (m1, m2))
    # the classic members heartbeat on; the consumer member goes silent past its session (45 s)
    for _ in range(50):
        h.now += 1_000
        if isinstance(h.c.groups["g"], Group):
            break
        g = h.c.consumer_groups["g"]
        for m in (m1, m2):
            assert h.c.heartbeat("g", g.members[m].member_epoch, m, None, h.now) is E.NONE
        h.c.tick(h.now)
    cg = h.c.groups["g"]
    assert isinstance(cg, Group) and set(cg.members) == {m1, m2}
    assert cg.state is GroupState.PREPARING_REBALANCE


def test_a_classic_static_member_replacing_the_last_consumer_member_downgrades():
    h = H()
    m1, m2, gen = classic_group(h)
    req = HeartbeatRequest(group_id="g", member_id="c1", member_epoch=0, instance_id="i3", rebalance_timeout_ms=30_000,
                           subscribed_topic_names=["a"], owned=[])
    assert h.c.consumer_group_heartbeat(req, h.now, dict(TOPICS)).error is E.NONE
    reconcile_classic(h, (m1, m2))
    g = h.c.consumer_groups["g"]
    c = g.members["c1"]
    r = h.hb("c1", c.member_epoch, owned=[(A, sorted(c.assigned.get(A, {})))])
    target = sorted(g.target["c1"].get(A, set()))
    # the static consumer member leaves for a while (epoch -2: its place kept), a classic instance takes it
    leave = HeartbeatRequest(group_id="g", member_id="c1", member_epoch=-2, instance_id="i3")
    assert h.c.consumer_group_heartbeat(leave, h.now, dict(TOPICS)).error is E.NONE
    j = h.c.join_group("g", "", "i3", "c", "/h", 10_000, 20_000, "consumer", [("range", subscription())], h.now,
                       api_version=9, topics=dict(TOPICS)).result
    assert j.error is E.NONE and j.member_id not in ("", "c1")
    cg = h.c.groups["g"]
    assert isinstance(cg, Group) and cg.state is GroupState.STABLE
    assert set(cg.members) == {m1, m2, j.member_id} and cg.static_members["i3"] == j.member_id
    assert j.generation_id == cg.generation_id == g.group_epoch
    s = h.c.sync_group("g", j.generation_id, j.member_id, "i3", "consumer", "range", {}, h.now).result
    assert s.error is E.NONE and assigned(s.assignment) == target
    assert r.error is E.NONE
    loaded = H(log=h.log).c.groups["g"]
    assert isinstance(loaded, Group) and set(loaded.members) == set(cg.members)


def upgraded(h: H):
    m1, m2, gen = classic_group(h)
    assert h.hb("m3", 0).error is E.NONE
    return m1, m2


def tick_until(h: H, ms: int, keep) -> None:
    """``ms`` of time a second at a time, ``keep()`` (the heartbeats of the members that live) each second."""
    for _ in range(ms // 1000):
        h.now += 1000
        keep()
        h.c.tick(h.now)


def test_classic_member_timers_fence_as_kafkas():
    """The join timer (told to rejoin, it does not within its rebalance timeout), the sync timer (it
    joined and does not sync) and the session (its classic session timeout) each fence a classic
    member of a consumer group."""
    h = H()
    m1, m2 = upgraded(h)
    g = h.c.consumer_groups["g"]

    def consumer_hb():
        c = g.members["m3"]
        h.hb("m3", c.member_epoch, owned=[(A, sorted(c.assigned.get(A, {})))])

    def heartbeat(m):
        return lambda: h.c.heartbeat("g", g.members[m].member_epoch, m, None, h.now) if m in g.members else None

    # m1 is told to join again and only heartbeats: fenced once its rebalance timeout (20 s) is over
    assert h.c.heartbeat("g", g.members[m1].member_epoch, m1, None, h.now) is E.REBALANCE_IN_PROGRESS
    reconcile_classic(h, (m2,))
    tick_until(h, 19_000, lambda: (consumer_hb(), heartbeat(m1)(), heartbeat(m2)()))
    assert m1 in g.members
    tick_until(h, 2_000, lambda: (consumer_hb(), heartbeat(m1)(), heartbeat(m2)()))
    assert m1 not in g.members and m2 in g.members
    # m2 joins again and never syncs: the sync timer
    reconcile_classic(h, (m2,))
    consumer_hb()
    j = h.join(m2, owned=sorted(g.members[m2].assigned.get(A, {}))).result
    assert j.error is E.NONE
    tick_until(h, 21_000, lambda: (consumer_hb(), heartbeat(m2)()))
    assert m2 not in g.members
    # a classic member that goes silent: its classic session timeout (10 s)
    m4 = h.join("").result.member_id
    assert h.join(m4).result.error is E.NONE
    reconcile_classic(h, (m4,))
    tick_until(h, 9_000, consumer_hb)
    assert m4 in g.members
    tick_until(h, 2_000, consumer_hb)
    assert m4 not in g.members and set(g.members) == {"m3"}


def test_classic_members_commit_with_their_generation():
    """OffsetCommit of a consumer group's classic member: its generation is its member epoch, any
    version (a consumer-protocol member needs v9+); a wrong one is ILLEGAL_GENERATION (Kafka 4.3's
    ConsumerGroup.validateOffsetCommit for classic members)."""
    h = H()
    m1, m2 = upgraded(h)
    reconcile_classic(h, (m1, m2))
    g = h.c.consumer_groups["g"]
    m = g.members[m1]
    held = sorted(m.assigned[A])[0]
    free = next(p for p in range(4) if p not in m.assigned[A])

    def commit(member, epoch, p, version):
        return h.c.commit_offsets("g", epoch, member, None, {("a", p): (1, -1, "")}, h.now,
                                  api_version=version, topic_ids={"a": A})[("a", p)]

    assert commit(m1, m.member_epoch, held, 8) is E.NONE
    assert commit(m1, m.member_epoch + 1, held, 8) is E.ILLEGAL_GENERATION
    assert commit(m1, m.member_epoch - 1, free, 8) is E.ILLEGAL_GENERATION
    assert commit("m3", g.members["m3"].member_epoch, free, 8) is E.UNSUPPORTED_VERSION


def test_a_restarted_coordinators_first_request_a_classic_sync():
    """After a restart the coordinator knows no topics until a request brings the metadata image's: a
    classic member's SyncGroup (the handler passes them) is answered its partitions by name."""
    h = H()
    m1, m2 = upgraded(h)
    reconcile_classic(h, (m1, m2))
    owned = sorted(h.c.consumer_groups["g"].members[m1].assigned[A])
    c = GroupCoordinator(log=h.log, config=GroupConfig(group_initial_rebalance_delay_ms=0), now_ms=h.now,
                         consumer_config=ConsumerGroupConfig(group_consumer_assignment_interval_ms=0))
    c.load_all(h.now)
    epoch = c.consumer_groups["g"].members[m1].member_epoch
    s = c.sync_group("g", epoch, m1, None, "consumer", "range", {}, h.now, topics=dict(TOPICS)).result
    assert s.error is E.NONE and assigned(s.assignment) == owned


def test_a_join_to_an_empty_consumer_group_replaces_it_in_one_write():
    """An empty consumer group (its member left) and a classic JoinGroup: the consumer group's
    tombstones and the new classic group's empty GroupMetadata in one write, its offsets kept (Kafka
    4.3's maybeDeleteEmptyConsumerGroup, then the new group's newEmptyGroupMetadataRecord)."""
    h = H()
    r = h.hb("m3", 0)
    assert h.c.commit_offsets("g", r.member_epoch, "m3", None, {("a", 0): (7, -1, "")}, h.now, api_version=9,
                              topic_ids={"a": A})[("a", 0)] is E.NONE
    assert h.hb("m3", -1).error is E.NONE and not h.c.consumer_groups["g"].members
    before = len(h.records())
    tombstones = h.c.consumer_groups["g"].tombstones()
    assert h.join("").result.error is E.MEMBER_ID_REQUIRED
    written = h.records()[before:]
    assert h.log.appends[-1] == len(written) == len(tombstones) + 1
    assert written[:-1] == tombstones
    meta = rec.decode_group_value(written[-1][1])
    assert written[-1][0] == rec.group_metadata_key("g") and (meta.generation, meta.members) == (0, [])
    loaded = H(log=h.log).c.groups["g"]
    assert isinstance(loaded, Group) and loaded.state is GroupState.EMPTY
    assert {tp: o.offset for tp, o in loaded.offsets.items()} == {("a", 0): 7}
