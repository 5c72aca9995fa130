"""KIP-848 consumer groups as a state machine: fake clock, in-memory log, topics as plain dicts."""

from __future__ import annotations

from odradek.coordinator import consumer_group_records as crec
from odradek.coordinator.consumer_group_state import STABLE, UNRELEASED_PARTITIONS, UNREVOKED_PARTITIONS
from odradek.coordinator.consumer_heartbeat import ConsumerGroupConfig, HeartbeatRequest
from odradek.coordinator.group_coordinator import GroupConfig, GroupCoordinator
from odradek.wire.errors import ErrorCode as E
from tests.coordinator.committed_log import CommittedAtOnce




class MemoryLog(CommittedAtOnce):
    def __init__(self):
        self.parts: dict[int, list] = {}

    def append(self, partition, records, now_ms):
        log = self.parts.setdefault(partition, [])
        for k, v in records:
            log.append((len(log), k, v))
        return len(log) - 1

    def read(self, partition):
        return list(self.parts.get(partition, []))


A = b"A" * 16
B = b"B" * 16
SESSION = 45_000


class H:
    def __init__(self, log=None, topics=None, **ccfg):
        self.now = 1_000_000
        self.log = log or MemoryLog()
        self.topics = topics if topics is not None else {"a": (A, 4)}
        # a target assignment at every group epoch, as these tests step through (the interval's own test sets it)
        ccfg.setdefault("group_consumer_assignment_interval_ms", 0)
        self.c = GroupCoordinator(log=self.log, config=GroupConfig(), now_ms=self.now,
                                         consumer_config=ConsumerGroupConfig(**ccfg))

    def hb(self, member, epoch, gid="g", topics=("a",), owned=None, regex=None, instance=None, assignor=None,
           rebalance=30_000, full=None, describable=None):
        join = epoch == 0
        req = HeartbeatRequest(
            group_id=gid, member_id=member, member_epoch=epoch, instance_id=instance,
            rebalance_timeout_ms=rebalance if join or full else -1,
            subscribed_topic_names=(list(topics) if topics is not None else None) if join or full else None,
            subscribed_topic_regex=regex if join or full else None,
            server_assignor=assignor,
            owned=[] if join else owned, describable=describable)
        return self.c.consumer_group_heartbeat(req, self.now, dict(self.topics))

    def advance(self, ms):
        self.now += ms
        self.c.tick(self.now)

    def group(self, gid="g"):
        return self.c.consumer_groups[gid]


def owned_of(r):
    return [(t, ps) for t, ps in (r.assignment or {}).items()]


def count(r):
    return sum(len(ps) for ps in (r.assignment or {}).values())


def test_first_member_gets_everything():
    h = H()
    r = h.hb("m1", 0)
    assert r.error is E.NONE and r.member_epoch == 2 and r.heartbeat_interval_ms == 5000
    assert r.assignment == {A: [0, 1, 2, 3]}
    g = h.group()
    assert g.group_epoch == 2 and g.assignment_epoch == 2 and g.state == "Stable"
    # a steady heartbeat changes nothing and carries no assignment
    r = h.hb("m1", 2, owned=[(A, [0, 1, 2, 3])])
    assert r.member_epoch == 2 and r.assignment is None


def test_new_member_triggers_revocation_then_assignment():
    h = H()
    h.hb("m1", 0)
    r2 = h.hb("m2", 0)
    # m2 joins at epoch 2 but its partitions are still owned by m1: nothing yet
    assert r2.member_epoch == 3 and r2.assignment == {}
    assert h.group().members["m2"].state == UNRELEASED_PARTITIONS
    assert h.group().state == "Reconciling"
    # m1 is asked to revoke two partitions, keeping its epoch
    r1 = h.hb("m1", 2, owned=[(A, [0, 1, 2, 3])])
    assert r1.member_epoch == 2 and count(r1) == 2
    assert h.group().members["m1"].state == UNREVOKED_PARTITIONS
    kept = r1.assignment[A]
    # still owning the revoked partitions: no progress
    r1b = h.hb("m1", 2, owned=[(A, [0, 1, 2, 3])])
    assert r1b.member_epoch == 2
    # revoked: m1 moves to epoch 2
    r1 = h.hb("m1", 2, owned=[(A, kept)])
    assert r1.member_epoch == 3 and h.group().members["m1"].state == STABLE
    # and m2 now gets the released partitions
    r2 = h.hb("m2", 3, owned=[])
    assert r2.member_epoch == 3 and sorted(r2.assignment[A]) == sorted(set(range(4)) - set(kept))
    assert h.group().state == "Stable"


def test_epoch_fencing():
    h = H()
    h.hb("m1", 0)
    assert h.hb("m1", 5, owned=[]).error is E.FENCED_MEMBER_EPOCH
    assert h.hb("nobody", 1, owned=[]).error is E.UNKNOWN_MEMBER_ID
    assert h.hb("m1", 1, gid="other").error is E.GROUP_ID_NOT_FOUND


def test_invalid_requests():
    h = H()
    r = h.c.consumer_group_heartbeat(HeartbeatRequest("g", "m", 0, rebalance_timeout_ms=-1,
                                                      subscribed_topic_names=["a"], owned=[]), h.now, h.topics)
    assert r.error is E.INVALID_REQUEST
    assert h.hb("m", 0, assignor="sticky").error is E.UNSUPPORTED_ASSIGNOR
    assert h.hb("m", 0, topics=None, regex="(?=x)").error is E.INVALID_REGULAR_EXPRESSION
    assert h.hb("", 0).error is E.INVALID_REQUEST


def test_leave_rebalances_the_rest():
    h = H()
    h.hb("m1", 0)
    h.hb("m2", 0)
    r1 = h.hb("m1", 2, owned=[(A, [0, 1, 2, 3])])
    h.hb("m1", 2, owned=owned_of(r1))
    h.hb("m2", 3, owned=[])
    r = h.hb("m1", -1)
    assert r.member_epoch == -1 and "m1" not in h.group().members
    assert h.group().state == "Assigning"
    r2 = h.hb("m2", 3, owned=[(A, h.group().members["m2"].assigned_sets()[A])])
    assert r2.member_epoch == 4 and r2.assignment == {A: [0, 1, 2, 3]}


def test_session_expiry_fences_member():
    h = H()
    h.hb("m1", 0)
    h.hb("m2", 0)
    for _ in range(10):
        h.advance(5000)
        h.hb("m2", h.group().members["m2"].member_epoch, owned=owned_of(h.hb("m2", h.group().members["m2"].member_epoch, owned=[])) or [])
    assert "m1" not in h.group().members
    r = h.hb("m2", h.group().members["m2"].member_epoch, owned=[])
    assert r.assignment is None or sorted(h.group().members["m2"].assigned_sets()[A]) == [0, 1, 2, 3]
    assert h.group().members["m2"].assigned_sets() == {A: {0, 1, 2, 3}}


def test_rebalance_timeout_fences_member_that_does_not_revoke():
    h = H()
    h.hb("m1", 0, rebalance=10_000)
    h.hb("m2", 0)
    h.hb("m1", 2, owned=[(A, [0, 1, 2, 3])])
    assert h.group().members["m1"].state == UNREVOKED_PARTITIONS
    h.advance(5000)
    h.hb("m1", 2, owned=[(A, [0, 1, 2, 3])])  # heartbeats do not extend the rebalance timeout
    h.advance(5001)
    assert "m1" not in h.group().members


def test_static_member_restart_keeps_assignment():
    h = H()
    h.hb("s1", 0, instance="i1")
    h.hb("s2", 0, instance="i2")
    r = h.hb("s1", 2, instance="i1", owned=[(A, [0, 1, 2, 3])])
    h.hb("s1", 2, instance="i1", owned=owned_of(r))
    h.hb("s2", 3, instance="i2", owned=[])
    before = h.group().members["s1"].assigned_sets()
    epoch = h.group().group_epoch
    # a new incarnation while the old one is not released
    assert h.hb("s1b", 0, instance="i1").error is E.UNRELEASED_INSTANCE_ID
    r = h.hb("s1", -2, instance="i1")
    assert r.member_epoch == -2 and h.group().members["s1"].member_epoch == -2
    r = h.hb("s1b", 0, instance="i1")
    assert r.error is E.NONE and r.member_epoch == epoch
    assert {A: set(r.assignment[A])} == before
    assert "s1" not in h.group().members and h.group().group_epoch == epoch
    assert h.hb("s1", 3, instance="i1", owned=[]).error is E.FENCED_INSTANCE_ID


def test_static_member_gone_for_longer_than_session_is_removed():
    h = H()
    h.hb("s1", 0, instance="i1")
    h.hb("s1", -2, instance="i1")
    h.advance(SESSION + 1)
    assert "s1" not in h.group().members


def test_regex_subscription_and_new_topic():
    h = H(topics={"orders-1": (A, 2), "other": (B, 2)})
    r = h.hb("m1", 0, topics=None, regex="orders-.*")
    assert r.assignment == {A: [0, 1]}
    assert h.group().resolved_regexes["orders-.*"][0] == frozenset({"orders-1"})
    # a new matching topic shows up in the metadata: the group rebalances on the next heartbeat
    C = b"C" * 16
    h.topics["orders-2"] = (C, 1)
    r = h.hb("m1", 2, owned=[(A, [0, 1])])
    assert r.member_epoch == 3 and r.assignment == {A: [0, 1], C: [0]}


def test_regex_matches_only_topics_the_principal_may_describe():
    """Kafka 4.3 (TopicRegexResolver): a regular expression resolves to the matching topics the heartbeating
    member may DESCRIBE; a topic it may not is neither subscribed nor assigned."""
    h = H(topics={"orders-1": (A, 2), "orders-secret": (B, 2)})
    asked = []

    def describable(names):
        asked.append(sorted(names))
        return {n for n in names if n != "orders-secret"}

    r = h.hb("m1", 0, topics=None, regex="orders-.*", describable=describable)
    assert asked == [["orders-1", "orders-secret"]]
    assert r.assignment == {A: [0, 1]}
    assert h.group().resolved_regexes["orders-.*"][0] == frozenset({"orders-1"})


def test_new_partitions_trigger_reassignment():
    h = H()
    h.hb("m1", 0)
    h.topics["a"] = (A, 6)
    r = h.hb("m1", 2, owned=[(A, [0, 1, 2, 3])])
    assert r.member_epoch == 3 and r.assignment == {A: [0, 1, 2, 3, 4, 5]}


def test_range_assignor_and_max_size():
    h = H(group_consumer_max_size=2)
    h.hb("m1", 0, assignor="range")
    h.hb("m2", 0, assignor="range")
    assert h.hb("m3", 0).error is E.GROUP_MAX_SIZE_REACHED
    assert h.group().preferred_assignor("uniform") == "range"
    assert h.group().target == {"m1": {A: {0, 1}}, "m2": {A: {2, 3}}}


def test_offset_commit_member_epochs():
    h = H()
    h.hb("m1", 0)
    c = h.c
    assert c.commit_offsets("g", 2, "m1", None, {("a", 0): (5, -1, "")}, h.now, api_version=9) == {("a", 0): E.NONE}
    assert c.commit_offsets("g", 3, "m1", None, {("a", 0): (5, -1, "")}, h.now, api_version=9) == \
        {("a", 0): E.STALE_MEMBER_EPOCH}
    assert c.commit_offsets("g", 2, "mx", None, {("a", 0): (5, -1, "")}, h.now, api_version=9) == \
        {("a", 0): E.UNKNOWN_MEMBER_ID}
    assert c.commit_offsets("g", 2, "m1", None, {("a", 0): (5, -1, "")}, h.now, api_version=8) == \
        {("a", 0): E.UNSUPPORTED_VERSION}
    # m2 joins (epoch 3); m1 is still at epoch 2 and may commit what it holds since epoch 2 (KIP-1251)
    h.hb("m2", 0)
    h.hb("m1", 2, owned=[(A, [0, 1, 2, 3])])
    assert c.commit_offsets("g", 2, "m1", None, {("a", 1): (7, -1, "")}, h.now, api_version=9) == {("a", 1): E.NONE}
    assert c.fetch_offsets("g", [("a", 0), ("a", 1)])[1][("a", 1)].offset == 7
    assert c.validate_offset_fetch("g", "m1", 2) is E.NONE
    assert c.validate_offset_fetch("g", "m1", 4) is E.STALE_MEMBER_EPOCH
    assert c.validate_offset_fetch("g", None, -1) is E.NONE


def test_offset_commit_of_a_partition_given_up():
    """After a member gave a partition up (revocation acknowledged, new member epoch), as Kafka 4.3's
    ConsumerGroup.validateOffsetCommit, checked side by side with raw ConsumerGroupHeartbeat v1 and
    OffsetCommit v9 against a Kafka 4.3 broker (same four answers): its older epoch may commit only
    what it still holds since that epoch (KIP-1251), and its current epoch commits any partition
    (Kafka checks no assignment then: an application must not commit what it no longer owns)."""
    h = H()
    h.hb("m1", 0)
    c = h.c
    h.hb("m1", 2, owned=[(A, [0, 1, 2, 3])])
    h.hb("m2", 0)
    r = h.hb("m1", 2, owned=[(A, [0, 1, 2, 3])])
    kept = sorted(r.assignment[A])
    gone = sorted(set(range(4)) - set(kept))
    assert gone and r.member_epoch == 2
    r = h.hb("m1", 2, owned=[(A, kept)])
    assert r.member_epoch == 3

    def commit(epoch, p):
        return c.commit_offsets("g", epoch, "m1", None, {("a", p): (5, -1, "")}, h.now, api_version=9)[("a", p)]

    assert commit(2, gone[0]) is E.STALE_MEMBER_EPOCH
    assert commit(3, gone[0]) is E.NONE
    assert commit(2, kept[0]) is E.NONE
    assert commit(4, kept[0]) is E.STALE_MEMBER_EPOCH


def test_group_types_do_not_mix():
    h = H()
    h.hb("m1", 0)
    # a classic member joins the consumer group (KIP-848's migration: test_group_migration.py) only with
    # the "consumer" protocol type
    slot = h.c.join_group("g", "", None, "c", "/h", 10_000, 10_000, "connect", [("range", b"")], h.now)
    assert slot.result.error is E.INCONSISTENT_GROUP_PROTOCOL
    slot = h.c.join_group("g", "", None, "c", "/h", 10_000, 10_000, "consumer", [("range", b"")], h.now)
    assert slot.result.error is E.MEMBER_ID_REQUIRED
    assert (h.c.describe_group("g")["error"], h.c.describe_group("g")["state"]) == (E.NONE, "Dead")
    assert [g for g in h.c.list_groups()] == [("g", "consumer", "Stable", "consumer")]
    assert h.c.list_groups(types=["classic"]) == []
    assert h.c.list_groups(states=["stable"], types=["consumer"]) == [("g", "consumer", "Stable", "consumer")]
    assert h.c.delete_groups(["g"], h.now) == {"g": E.NON_EMPTY_GROUP}
    # a classic group with members whose metadata is not the consumer protocol's cannot be upgraded
    h.c.join_group("cg", "", None, "c", "/h", 10_000, 10_000, "consumer", [("range", b"")], h.now, api_version=3)
    assert h.hb("x", 0, gid="cg").error is E.GROUP_ID_NOT_FOUND
    assert h.c.consumer_group_describe("cg")["error"] is E.GROUP_ID_NOT_FOUND


def test_empty_classic_group_converts_with_offsets():
    h = H()
    h.c.commit_offsets("g", -1, "", None, {("a", 0): (42, -1, "")}, h.now, api_version=9)
    assert "g" in h.c.groups
    r = h.hb("m1", 0)
    assert r.error is E.NONE and "g" not in h.c.classic_groups
    assert h.c.fetch_offsets("g", [("a", 0)])[1][("a", 0)].offset == 42
    h.hb("m1", -1)
    assert h.c.delete_groups(["g"], h.now) == {"g": E.NONE}
    assert "g" not in h.c.consumer_groups


def test_persistence_and_reload():
    h = H()
    h.hb("m1", 0, regex=None)
    h.hb("m2", 0, instance="i2")
    r1 = h.hb("m1", 2, owned=[(A, [0, 1, 2, 3])])
    h.c.commit_offsets("g", 2, "m1", None, {("a", 0): (9, -1, "x")}, h.now, api_version=9)
    h.hb("r", 0, gid="rg", topics=None, regex="a|b")
    g = h.group()
    snapshot = {mid: (m.member_epoch, m.previous_member_epoch, m.state, m.assigned, m.pending_revocation,
                      m.instance_id, m.subscribed_topic_names) for mid, m in g.members.items()}
    # every record decodes with the generated Kafka formats
    for part in h.log.parts.values():
        for _o, k, v in part:
            if crec.record_type(k) in crec.TYPES:
                crec.decode(k, v)
    h2 = H(log=h.log)
    h2.c.load_all(h.now)
    g2 = h2.group()
    assert (g2.group_epoch, g2.assignment_epoch, g2.target) == (g.group_epoch, g.assignment_epoch, g.target)
    assert {mid: (m.member_epoch, m.previous_member_epoch, m.state, m.assigned, m.pending_revocation,
                  m.instance_id, m.subscribed_topic_names) for mid, m in g2.members.items()} == snapshot
    assert g2.static_members == {"i2": "m2"}
    assert g2.offsets[("a", 0)].offset == 9
    assert h2.group("rg").resolved_regexes["a|b"][0] == frozenset({"a"})
    # reconciliation continues after the reload
    r = h2.hb("m1", 2, owned=owned_of(r1))
    assert r.member_epoch == 3
    # deletion leaves nothing behind
    h2.hb("r", -1, gid="rg")
    assert h2.c.delete_groups(["rg"], h2.now) == {"rg": E.NONE}
    h3 = H(log=h.log)
    h3.c.load_all(h.now)
    assert "rg" not in h3.c.consumer_groups and "g" in h3.c.consumer_groups


def test_a_groups_consumer_configs_override_the_broker():
    """Kafka 4.3's GroupConfig consumer.*: a group's own session timeout, heartbeat interval and
    assignment interval (as the broker passes them: within its bounds) replace the broker's for
    that group only, from the next heartbeat on."""
    h = H(group_consumer_assignment_interval_ms=1000)
    overrides = {"g": {}}
    h.c.group_overrides = lambda gid: overrides.get(gid, {})
    assert h.hb("m1", 0).heartbeat_interval_ms == 5000
    assert h.hb("x1", 0, gid="other").heartbeat_interval_ms == 5000
    overrides["g"] = {"consumer.heartbeat.interval.ms": "7000", "consumer.session.timeout.ms": "50000",
                      "consumer.assignment.interval.ms": "0"}
    r = h.hb("m1", 2, owned=[(A, [0, 1, 2, 3])])
    assert r.heartbeat_interval_ms == 7000
    assert h.hb("x1", 2, gid="other", owned=[(A, [0, 1, 2, 3])]).heartbeat_interval_ms == 5000
    # no interval for g: the second member's join is assigned at once (other's waits for 1 s)
    h.hb("m2", 0)
    h.hb("x2", 0, gid="other")
    assert (h.group().group_epoch, h.group().assignment_epoch) == (3, 3)
    assert (h.group("other").group_epoch, h.group("other").assignment_epoch) == (3, 2)
    # sessions: 50 s in g, 45 s in other
    h.advance(SESSION)
    assert set(h.group().members) == {"m1", "m2"} and not h.group("other").members
    h.advance(5_000)
    assert not h.group().members
