"""The classic group coordinator as a state machine, driven by a fake clock and an in-memory log."""

from __future__ import annotations

import itertools

import pytest

from odradek.coordinator import group_records as rec
from odradek.coordinator.group_coordinator import GroupConfig, GroupCoordinator
from odradek.coordinator.group_state import GroupState
from odradek.wire.errors import ErrorCode as E
from tests.coordinator.committed_log import CommittedAtOnce

SESSION = 10_000
REBALANCE = 20_000


class MemoryLog(CommittedAtOnce):
    """CoordinatorLog in memory; fail=True makes appends raise."""

    def __init__(self):
        self.parts: dict[int, list] = {}
        self.fail = False

    def append(self, partition, records, now_ms):
        if self.fail:
            raise IOError("disk on fire")
        log = self.parts.setdefault(partition, [])
        for k, v in records:
            log.append((len(log), k, v))
        return len(log) - 1

    def read(self, partition):
        return list(self.parts.get(partition, []))


class Harness:
    def __init__(self, delay=100, log=None, **cfg):
        self.now = 1_000_000
        self.log = log or MemoryLog()
        self.pokes = []
        ids = itertools.count(1)
        self.c = GroupCoordinator(
            log=self.log,
            config=GroupConfig(group_initial_rebalance_delay_ms=delay, group_min_session_timeout_ms=1000, **cfg),
            now_ms=self.now,
            poke=self.pokes.append,
            new_member_id=lambda prefix: f"{prefix}-{next(ids)}",
        )

    def advance(self, ms):
        self.now += ms
        self.c.tick(self.now)

    def join(self, gid="g", member_id="", instance=None, protocols=(("range", b"m"),), client="c", version=9,
             session=SESSION):
        return self.c.join_group(gid, member_id, instance, client, "/127.0.0.1", session, REBALANCE, "consumer",
                                 list(protocols), self.now, api_version=version)

    def join_new(self, gid="g", **kw):
        """v4+ two-step join: MEMBER_ID_REQUIRED, then the join that parks."""
        first = self.join(gid, **kw)
        if kw.get("instance") is not None:
            return first
        assert first.result.error == E.MEMBER_ID_REQUIRED
        kw.pop("member_id", None)
        return self.join(gid, member_id=first.result.member_id, **kw)

    def sync(self, gid, member_id, generation, assignments=None, instance=None):
        return self.c.sync_group(gid, generation, member_id, instance, "consumer", None, assignments or {}, self.now)

    def group(self, gid="g"):
        return self.c.groups[gid]


def settle(h, *slots):
    for _ in range(10):
        if all(s.done for s in slots):
            return
        h.advance(h.c.config.group_initial_rebalance_delay_ms)
    assert all(s.done for s in slots)


def stable_group(h, n=2, gid="g"):
    slots = [h.join_new(gid) for _ in range(n)]
    for _ in range(10):
        if all(s.done for s in slots):
            break
        h.advance(h.c.config.group_initial_rebalance_delay_ms)
    assert all(s.done for s in slots)
    res = [s.result for s in slots]
    gen = res[0].generation_id
    leader = res[0].leader
    ids = [r.member_id for r in res]
    assigns = {mid: f"assign-{mid}".encode() for mid in ids}
    syncs = [h.sync(gid, mid, gen, assigns if mid == leader else None) for mid in ids if mid != leader]
    syncs.append(h.sync(gid, leader, gen, assigns))
    assert all(s.done and s.result.error == E.NONE for s in syncs)
    assert h.group(gid).state is GroupState.STABLE
    return ids, gen, leader


def test_java_hash_code_and_partitioning_match_kafka():
    # values printed by java: "s".hashCode(), Utils.abs(h) % 50
    assert rec.java_string_hash("test-group") == 627841412
    assert rec.java_string_hash("my-group") == -1906497762
    assert rec.java_string_hash("") == 0
    assert rec.java_string_hash("ünïcødé-grüppe") == -1229792406
    assert rec.java_string_hash("polygenelubricants") == -(2**31)
    # a code point past the BMP (a surrogate pair), and ids longer than the unmasked sum's 64 units
    assert rec.java_string_hash("g\U0001F600x-\u00fc") == -69221219
    assert rec.java_string_hash("group-\u00e9-" * 40) == -1948595760
    assert rec.java_string_hash("hold-group-" * 30) == -1078404736
    assert rec.partition_for("test-group") == 12
    assert rec.partition_for("my-group") == 12
    assert rec.partition_for("console-consumer-12345") == 6
    assert rec.partition_for("polygenelubricants") == 0  # Integer.MIN_VALUE -> 0


def test_member_id_required_then_join_completes_after_initial_delay():
    h = Harness(delay=3000)
    first = h.join()
    assert first.result.error == E.MEMBER_ID_REQUIRED and first.result.member_id.startswith("c-")
    s = h.join(member_id=first.result.member_id)
    assert not s.done
    assert h.group().state is GroupState.PREPARING_REBALANCE
    h.advance(2999)
    assert not s.done
    h.advance(1)
    assert s.done and s.result.error == E.NONE
    assert s.result.generation_id == 1 and s.result.leader == first.result.member_id
    assert s.result.members == [(first.result.member_id, None, b"m")]
    assert ("group", "g") in h.pokes
    assert h.group().state is GroupState.COMPLETING_REBALANCE


def test_initial_delay_extends_while_members_keep_arriving():
    h = Harness(delay=3000)
    a = h.join_new()
    h.advance(2000)
    b = h.join_new()
    h.advance(1000)  # first window ends, a new member came: wait another window
    assert not a.done and not b.done
    h.advance(3000)
    assert a.done and b.done and a.result.generation_id == 1
    assert len(a.result.members) == 2 and b.result.members == []


def test_v0_join_without_member_id_required():
    h = Harness(delay=0)
    s = h.join(version=3)
    assert s.done and s.result.error == E.NONE and s.result.generation_id == 1


def test_session_timeout_validation_and_bad_group():
    h = Harness()
    assert h.join(session=500).result.error == E.INVALID_SESSION_TIMEOUT
    assert h.join(gid="").result.error == E.INVALID_GROUP_ID
    assert h.join(member_id="nobody").result.error == E.UNKNOWN_MEMBER_ID


def test_sync_distributes_assignment_and_group_metadata_is_persisted():
    h = Harness()
    ids, gen, leader = stable_group(h, 2)
    follower = [m for m in ids if m != leader][0]
    s = h.sync("g", follower, gen)
    assert s.result.assignment == f"assign-{follower}".encode()
    part = h.log.parts[rec.partition_for("g")]
    k = rec.decode_key(part[-1][1])
    assert k.kind == "group" and k.group == "g"
    v = rec.decode_group_value(part[-1][2])
    assert v.generation == gen and v.leader == leader and v.protocol == "range"
    assert {m.member_id for m in v.members} == set(ids)


def test_follower_sync_waits_for_leader():
    h = Harness()
    a, b = h.join_new(), h.join_new()
    settle(h, a, b)
    gen, leader = a.result.generation_id, a.result.leader
    follower = b.result.member_id if leader == a.result.member_id else a.result.member_id
    fs = h.sync("g", follower, gen)
    assert not fs.done
    h.sync("g", leader, gen, {follower: b"F", leader: b"L"})
    assert fs.done and fs.result.assignment == b"F"


def test_generation_and_member_checks():
    h = Harness()
    ids, gen, leader = stable_group(h, 1)
    assert h.c.heartbeat("g", gen, ids[0], None, h.now) == E.NONE
    assert h.c.heartbeat("g", gen + 1, ids[0], None, h.now) == E.ILLEGAL_GENERATION
    assert h.c.heartbeat("g", gen, "ghost", None, h.now) == E.UNKNOWN_MEMBER_ID
    assert h.c.heartbeat("nogroup", gen, ids[0], None, h.now) == E.UNKNOWN_MEMBER_ID
    assert h.sync("g", ids[0], gen + 5).result.error == E.ILLEGAL_GENERATION


def test_new_member_triggers_rebalance_and_heartbeats_say_rejoin():
    h = Harness()
    ids, gen, leader = stable_group(h, 1)
    newcomer = h.join_new()
    assert not newcomer.done
    assert h.group().state is GroupState.PREPARING_REBALANCE
    assert h.c.heartbeat("g", gen, ids[0], None, h.now) == E.REBALANCE_IN_PROGRESS
    assert h.sync("g", ids[0], gen).result.error == E.REBALANCE_IN_PROGRESS
    old = h.join(member_id=ids[0])
    assert old.done and newcomer.done
    assert old.result.generation_id == gen + 1 == newcomer.result.generation_id
    assert old.result.leader == ids[0] and len(old.result.members) == 2


def test_rebalance_timeout_evicts_members_that_do_not_rejoin():
    h = Harness()
    ids, gen, leader = stable_group(h, 2)
    h.advance(1000)
    s = h.join(member_id=ids[0], protocols=(("range", b"changed"),))
    assert not s.done
    for _ in range(REBALANCE // 1000):
        # ids[1] keeps heartbeating (told to rejoin) but never rejoins
        assert h.c.heartbeat("g", gen, ids[1], None, h.now) == E.REBALANCE_IN_PROGRESS
        h.advance(1000)
    assert s.done and s.result.generation_id == gen + 1
    assert list(h.group().members) == [ids[0]]
    assert h.c.heartbeat("g", gen, ids[1], None, h.now) == E.UNKNOWN_MEMBER_ID


def test_session_expiry_removes_member_and_rebalances():
    h = Harness()
    ids, gen, leader = stable_group(h, 2)
    for _ in range(SESSION // 1000 + 1):
        h.advance(1000)
        h.c.heartbeat("g", gen, ids[0], None, h.now)
    assert ids[1] not in h.group().members
    assert h.group().state is GroupState.PREPARING_REBALANCE
    s = h.join(member_id=ids[0])
    assert s.done and s.result.generation_id == gen + 1 and s.result.members[0][0] == ids[0]


def test_all_members_expire_group_becomes_empty():
    h = Harness()
    stable_group(h, 2)
    h.advance(SESSION + 1)
    h.advance(REBALANCE + 1)
    assert h.group().state is GroupState.EMPTY and not h.group().members


def test_the_tick_walks_only_the_groups_with_timers():
    """Groups that only hold offsets cost the tick nothing (issue 27): a classic group is walked from
    its JoinGroup until a tick finds it Empty without members."""
    h = Harness()
    for i in range(50):
        assert h.c.commit_offsets(f"simple-{i}", -1, "", None, {("t", 0): (1, -1, "")}, h.now) == {("t", 0): E.NONE}
    stable_group(h, 2)
    h.advance(1)
    assert h.c.ticked() == ["g"]
    h.advance(SESSION + 1)
    h.advance(REBALANCE + 1)
    h.advance(1)
    assert h.group().state is GroupState.EMPTY and h.c.ticked() == []
    h.join()
    assert h.c.ticked() == ["g"]
    h.advance(SESSION + 1)  # its pending member expires: walked until then
    h.advance(1)
    assert h.c.ticked() == []


def test_pending_member_id_expires():
    h = Harness()
    first = h.join()
    h.advance(SESSION + 1)
    assert h.join(member_id=first.result.member_id).result.error == E.UNKNOWN_MEMBER_ID


def test_leave_group_rebalances_remaining_member():
    h = Harness()
    ids, gen, leader = stable_group(h, 2)
    top, errs = h.c.leave_group("g", [(ids[1], None), ("ghost", None)], h.now)
    assert top == E.NONE and errs == [E.NONE, E.UNKNOWN_MEMBER_ID]
    s = h.join(member_id=ids[0])
    assert s.done and s.result.generation_id == gen + 1 and s.result.leader == ids[0]


def test_last_member_leaving_empties_group():
    h = Harness()
    ids, gen, _ = stable_group(h, 1)
    h.c.leave_group("g", [(ids[0], None)], h.now)
    g = h.group()
    assert g.state is GroupState.EMPTY and g.generation_id == gen + 1


def test_a_join_creating_a_group_writes_its_empty_record_as_kafka():
    """A JoinGroup that creates a classic group writes an empty GroupMetadata record (generation 0,
    protocol type "", no protocol, leader or members, its creation time), as Kafka 4.3's
    newEmptyGroupMetadataRecord (checked with kafka-dump-log --offsets-decoder on a 4.3 node after
    a console consumer's first join): a restarted coordinator lists the group as the live one does.
    The write fails: no group, the join gets the error."""
    h = Harness()
    created = h.now
    assert h.join().result.error is E.MEMBER_ID_REQUIRED
    [(_o, key, value)] = h.log.read(h.c.partition_for("g"))
    meta = rec.decode_group_value(value)
    assert key == rec.group_metadata_key("g")
    assert (meta.protocol_type, meta.generation, meta.protocol, meta.leader, meta.members,
            meta.current_state_timestamp) == ("", 0, None, None, [], created)
    c2 = GroupCoordinator(log=h.log, config=h.c.config, now_ms=h.now)
    c2.load_all()
    assert c2.list_groups() == h.c.list_groups() == [("g", "", "Empty", "classic")]
    ids, gen, _ = stable_group(h, 1)  # the group's next joins write nothing more until the sync
    assert [rec.decode_group_value(v).generation for _o, _k, v in h.log.read(h.c.partition_for("g"))] == [0, gen]
    h.log.fail = True
    r = h.join("g2").result
    assert r.error is E.UNKNOWN_SERVER_ERROR and "g2" not in h.c.groups
    h.log.fail = False
    assert h.join("g2").result.error is E.MEMBER_ID_REQUIRED and "g2" in h.c.groups


def test_a_join_ending_empty_moves_the_group_only_once_its_record_is_written():
    h = Harness()
    ids, gen, _ = stable_group(h, 2)
    h.c.leave_group("g", [(ids[1], None)], h.now)  # ids[0] never rejoins
    h.log.fail = True
    h.advance(REBALANCE + 1)  # ids[0]'s session ends: the group would end empty, but the write fails
    g = h.group()
    assert g.state is GroupState.PREPARING_REBALANCE and g.generation_id == gen
    h.log.fail = False
    h.advance(100)  # the deadline fires again
    assert g.state is GroupState.EMPTY and g.generation_id == gen + 1 and not g.members
    key, value = h.log.read(h.c.partition_for("g"))[-1][1:]
    meta = rec.decode_group_value(value)
    assert (meta.generation, meta.members, meta.leader, meta.protocol) == (gen + 1, [], None, None)
    c2 = GroupCoordinator(log=h.log, config=h.c.config, now_ms=h.now)
    c2.load_all()
    assert c2.groups["g"].state is GroupState.EMPTY and c2.groups["g"].generation_id == gen + 1


def test_static_member_rejoins_without_rebalance():
    h = Harness()
    a = h.join(instance="i-a")
    b = h.join(instance="i-b")
    assert a.result is None  # static members join without MEMBER_ID_REQUIRED
    settle(h, a, b)
    gen = a.result.generation_id
    leader = a.result.leader
    ids = [a.result.member_id, b.result.member_id]
    for mid in ids:
        h.sync("g", mid, gen, {x: x.encode() for x in ids} if mid == leader else None,
               instance="i-a" if mid == ids[0] else "i-b")
    assert h.group().state is GroupState.STABLE
    follower_id = ids[1]
    # i-b restarts: a fresh join with its instance id and no member id
    again = h.join(instance="i-b")
    assert again.done and again.result.error == E.NONE
    assert again.result.generation_id == gen and h.group().state is GroupState.STABLE
    new_id = again.result.member_id
    assert new_id != follower_id
    s = h.sync("g", new_id, gen, instance="i-b")
    assert s.result.assignment == follower_id.encode()  # keeps its old assignment
    # the old incarnation is fenced
    assert h.c.heartbeat("g", gen, follower_id, "i-b", h.now) == E.FENCED_INSTANCE_ID
    assert h.join(member_id=follower_id, instance="i-b").result.error == E.FENCED_INSTANCE_ID
    assert h.c.commit_offsets("g", gen, follower_id, "i-b", {("t", 0): (1, -1, "")}, h.now)[("t", 0)] \
        == E.FENCED_INSTANCE_ID


def test_static_leader_rejoin_gets_skip_assignment():
    h = Harness()
    a = h.join(instance="i-a")
    settle(h, a)
    gen = a.result.generation_id
    h.sync("g", a.result.member_id, gen, {a.result.member_id: b"x"}, instance="i-a")
    again = h.join(instance="i-a")
    r = again.result
    # like Kafka: the old leader id, so older clients act as followers; v9 clients see skip_assignment
    assert r.error == E.NONE and r.skip_assignment and r.leader == a.result.member_id and len(r.members) == 1
    assert h.group().leader_id == r.member_id
    assert h.group().state is GroupState.STABLE


def test_static_member_session_expiry_then_rejoin_rebalances():
    h = Harness()
    a = h.join(instance="i-a")
    settle(h, a)
    gen = a.result.generation_id
    h.sync("g", a.result.member_id, gen, {a.result.member_id: b"x"}, instance="i-a")
    h.advance(SESSION + 1)
    h.advance(REBALANCE + 1)
    assert h.group().state is GroupState.EMPTY
    s = h.join(instance="i-a")
    settle(h, s)
    assert s.result.generation_id > gen


def test_protocol_selection_and_inconsistent_protocol():
    h = Harness(delay=0)
    a = h.join(protocols=(("roundrobin", b"1"), ("range", b"2")), version=3)
    b = h.join(protocols=(("range", b"3"), ("roundrobin", b"4")), version=3)
    c = h.join(protocols=(("range", b"5"),), version=3)
    assert not b.done and not c.done  # a is waiting too
    h.join(member_id=a.result.member_id if a.done else h.group().leader_id,
           protocols=(("roundrobin", b"1"), ("range", b"2")), version=3)
    assert c.done and c.result.protocol_name == "range"
    bad = h.join(protocols=(("sticky", b""),), version=3)
    assert bad.result.error == E.INCONSISTENT_GROUP_PROTOCOL


def test_offsets_commit_fetch_and_reload_from_log():
    h = Harness()
    ids, gen, _ = stable_group(h, 1)
    res = h.c.commit_offsets("g", gen, ids[0], None, {("t", 0): (42, 3, "meta"), ("t", 1): (7, -1, "")}, h.now)
    assert set(res.values()) == {E.NONE}
    # a simple commit into another group
    assert h.c.commit_offsets("simple", -1, "", None, {("t", 0): (5, -1, None)}, h.now)[("t", 0)] == E.NONE
    err, got = h.c.fetch_offsets("g", [("t", 0), ("t", 2)])
    assert got[("t", 0)].offset == 42 and got[("t", 0)].leader_epoch == 3 and got[("t", 0)].metadata == "meta"
    assert got[("t", 2)] is None
    c2 = GroupCoordinator(log=h.log, config=h.c.config, now_ms=h.now)
    c2.load_all()
    _, got2 = c2.fetch_offsets("g", None)
    assert {tp: om.offset for tp, om in got2.items()} == {("t", 0): 42, ("t", 1): 7}
    assert c2.fetch_offsets("simple", None)[1][("t", 0)].offset == 5
    g = c2.groups["g"]
    assert g.state is GroupState.STABLE and g.generation_id == gen and list(g.members) == ids
    # the reloaded member can keep committing with its generation
    assert c2.commit_offsets("g", gen, ids[0], None, {("t", 0): (43, -1, "")}, h.now)[("t", 0)] == E.NONE
    # and expires if it never comes back
    c2.tick(h.now + SESSION + 1)
    assert c2.groups["g"].state is GroupState.EMPTY and c2.groups["g"].generation_id == gen + 1


def test_commit_checks():
    h = Harness()
    ids, gen, _ = stable_group(h, 1)
    tp = ("t", 0)
    assert h.c.commit_offsets("g", gen + 1, ids[0], None, {tp: (1, -1, "")}, h.now)[tp] == E.ILLEGAL_GENERATION
    assert h.c.commit_offsets("g", gen, "ghost", None, {tp: (1, -1, "")}, h.now)[tp] == E.UNKNOWN_MEMBER_ID
    assert h.c.commit_offsets("g", -1, "", None, {tp: (1, -1, "")}, h.now)[tp] == E.UNKNOWN_MEMBER_ID
    assert h.c.commit_offsets("nope", 3, "m", None, {tp: (1, -1, "")}, h.now)[tp] == E.ILLEGAL_GENERATION
    assert h.c.commit_offsets("nope", 3, "m", None, {tp: (1, -1, "")}, h.now, api_version=9)[tp] \
        == E.GROUP_ID_NOT_FOUND
    assert h.c.commit_offsets("g", gen, ids[0], None, {tp: (1, -1, "x" * 5000)}, h.now)[tp] \
        == E.OFFSET_METADATA_TOO_LARGE
    h.join_new()  # now PreparingRebalance: commits still allowed (onPartitionsRevoked)
    assert h.c.commit_offsets("g", gen, ids[0], None, {tp: (2, -1, "")}, h.now)[tp] == E.NONE


def test_commit_failure_leaves_state_unchanged():
    h = Harness()
    tp = ("t", 0)
    h.c.commit_offsets("s", -1, "", None, {tp: (1, -1, "")}, h.now)
    h.log.fail = True
    assert h.c.commit_offsets("s", -1, "", None, {tp: (2, -1, "")}, h.now)[tp] != E.NONE
    assert h.c.fetch_offsets("s", [tp])[1][tp].offset == 1


def test_delete_groups_writes_tombstones():
    h = Harness()
    ids, gen, _ = stable_group(h, 1)
    h.c.commit_offsets("g", gen, ids[0], None, {("t", 0): (1, -1, "")}, h.now)
    assert h.c.delete_groups(["g", "missing"], h.now) == {"g": E.NON_EMPTY_GROUP, "missing": E.GROUP_ID_NOT_FOUND}
    h.c.leave_group("g", [(ids[0], None)], h.now)
    assert h.c.delete_groups(["g"], h.now) == {"g": E.NONE}
    assert "g" not in h.c.groups
    c2 = GroupCoordinator(log=h.log, config=h.c.config, now_ms=h.now)
    c2.load_all()
    assert "g" not in c2.groups


def test_offset_delete():
    h = Harness()
    h.c.commit_offsets("s", -1, "", None, {("t", 0): (1, -1, ""), ("t", 1): (2, -1, "")}, h.now)
    top, res = h.c.delete_offsets("s", [("t", 0)], h.now)
    assert top == E.NONE and res == {("t", 0): E.NONE}
    assert set(h.c.committed("s")) == {("t", 1)}
    assert h.c.delete_offsets("none", [("t", 0)], h.now)[0] == E.GROUP_ID_NOT_FOUND
    c2 = GroupCoordinator(log=h.log, config=h.c.config, now_ms=h.now)
    c2.load_all()
    assert set(c2.committed("s")) == {("t", 1)}


def test_offset_retention_expires_empty_group_offsets():
    h = Harness(offsets_retention_minutes=1, offsets_retention_check_interval_ms=1000)
    h.c.commit_offsets("s", -1, "", None, {("t", 0): (1, -1, "")}, h.now)
    h.advance(30_000)
    assert "s" in h.c.groups
    h.advance(31_000)
    assert "s" not in h.c.groups
    c2 = GroupCoordinator(log=h.log, config=h.c.config, now_ms=h.now)
    c2.load_all()
    assert "s" not in c2.groups


def test_list_and_describe():
    h = Harness()
    ids, gen, leader = stable_group(h, 2)
    h.c.commit_offsets("s", -1, "", None, {("t", 0): (1, -1, "")}, h.now)
    assert sorted(h.c.list_groups()) == [("g", "consumer", "Stable", "classic"), ("s", "", "Empty", "classic")]
    assert [x[0] for x in h.c.list_groups(states=["stable"])] == ["g"]
    assert h.c.list_groups(types=["consumer"]) == []
    d = h.c.describe_group("g")
    assert d["state"] == "Stable" and d["protocol"] == "range" and len(d["members"]) == 2
    assert d["members"][0]["assignment"].startswith(b"assign-")
    assert h.c.describe_group("zzz")["state"] == "Dead"


@pytest.mark.parametrize("version", [0, 1, 3])
def test_record_formats_roundtrip(version):
    om = rec.OffsetAndMetadata(10, 2, "m", 123, 456 if version == 1 else -1, topic_id=b"\x07" * 16)
    v = rec.offset_commit_value(om)
    # Kafka 4.3 writes value v4 (topic id as tagged field 0), v1 when an expire timestamp is set
    assert int.from_bytes(v[:2], "big") == (1 if om.expire_timestamp_ms >= 0 else 4)
    back = rec.decode_offset_value(v)
    assert back.offset == 10 and back.commit_timestamp_ms == 123
    assert back.topic_id == (bytes(16) if version == 1 else b"\x07" * 16)
    k = rec.decode_key(rec.offset_commit_key("g", "t", 4))
    assert (k.kind, k.group, k.topic, k.partition) == ("offset", "g", "t", 4)
    # Kafka's key layout: int16 type 1, then string group, string topic, int32 partition
    assert rec.offset_commit_key("g", "t", 4) == b"\x00\x01\x00\x01g\x00\x01t\x00\x00\x00\x04"
    assert rec.group_metadata_key("g") == b"\x00\x02\x00\x01g"


def test_protocol_support_is_counted_as_members_come_go_and_change():
    """Kafka's supportsProtocols: a join is consistent when one of its protocols is supported by
    every member, counted per protocol as members join, rejoin with other protocols and leave."""
    h = Harness()
    a = h.join_new(protocols=(("range", b"a"), ("rr", b"a")))
    b = h.join_new(protocols=(("rr", b"b"), ("range", b"b")))
    settle(h, a, b)
    g = h.group()
    assert g.members.protocol_counts == {"range": 2, "rr": 2}
    assert h.join(protocols=(("sticky", b""),)).result.error == E.INCONSISTENT_GROUP_PROTOCOL
    # a rejoins supporting only range: rr is no longer everyone's
    a2 = h.join(member_id=a.result.member_id, protocols=(("range", b"a"),))
    assert g.members.protocol_counts == {"range": 2, "rr": 1}
    assert h.join(protocols=(("rr", b"c"),)).result.error == E.INCONSISTENT_GROUP_PROTOCOL
    b2 = h.join(member_id=b.result.member_id, protocols=(("rr", b"b"), ("range", b"b")))
    settle(h, a2, b2)
    err, _ = h.c.leave_group("g", [(a.result.member_id, None)], h.now)
    assert err == E.NONE and g.members.protocol_counts == {"rr": 1, "range": 1}
    assert h.join(protocols=(("rr", b"c"),)).result.error == E.MEMBER_ID_REQUIRED  # supported again
