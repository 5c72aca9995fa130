"""ShareGroupCoordinator: ShareGroupHeartbeat membership, SimpleAssignor, sessions, expiry."""

import pytest

from odradek.coordinator.errors import CoordinatorError
from odradek.coordinator.share_group_coordinator import ShareGroupCoordinator, simple_assign
from odradek.wire.errors import ErrorCode as E

T1, T2 = b"\1" * 16, b"\2" * 16
TOPICS = {"t1": (T1, 3), "t2": (T2, 1)}


def coord(**settings):
    s = {"share.session.timeout.ms": 45000, "share.heartbeat.interval.ms": 5000, "share.auto.offset.reset": "latest",
         "share.record.lock.duration.ms": 1000, "share.delivery.count.limit": 5, **settings}
    return ShareGroupCoordinator(settings=lambda g: s, offsets=lambda t, p: (0, 7))


def hb(c, member, epoch, subs=None, now=0, topics=TOPICS, group="g"):
    return c.heartbeat(group, member, epoch, subs, None, "client", "/127.0.0.1", now, topics)


def test_simple_assign_covers_every_partition_and_shares_when_members_outnumber():
    a = simple_assign({"a": {T1}, "b": {T1}}, {T1: 3})
    assert sorted(a["a"][T1] + a["b"][T1]) == [0, 1, 2]
    a = simple_assign({"a": {T2}, "b": {T2}, "c": {T2}}, {T2: 1})
    assert all(a[m] == {T2: [0]} for m in "abc")


def test_join_heartbeat_and_rebalance_without_revocation():
    c = coord()
    r = hb(c, "m1", 0, ["t1"])
    # a new group is at epoch 1 (Kafka 4.3): the first member joins at 2
    assert (r.member_epoch, r.heartbeat_interval_ms, r.assignment) == (2, 5000, {T1: [0, 1, 2]})
    assert hb(c, "m1", 2).assignment is None  # unchanged
    r2 = hb(c, "m2", 0, ["t1"], now=10)
    assert r2.member_epoch == 3 and r2.assignment
    r1 = hb(c, "m1", 2, now=20)  # m1 takes the new epoch and its smaller share at once
    assert r1.member_epoch == 3 and sorted(r1.assignment[T1] + r2.assignment[T1]) == [0, 1, 2]
    # share-partitions start, at their first fetch, from share.auto.offset.reset=latest (their state
    # was initialized at assignment with start offset -1, as Kafka's group coordinator does)
    for p in range(3):
        c.share_partition("g", T1, "t1", p)
    assert {sp.start_offset for sp in c.partitions.values()} == {7}
    d = c.describe("g", {})
    assert d["state"] == "Stable" and d["group_epoch"] == 3 and len(d["members"]) == 2


@pytest.mark.parametrize("args,code", [
    (("", "m", 0, ["t1"]), E.INVALID_REQUEST),
    (("g", "", 0, ["t1"]), E.INVALID_REQUEST),
    (("g", "m", 0, None), E.INVALID_REQUEST),
    (("g", "m", 3, None), E.GROUP_ID_NOT_FOUND),
])
def test_invalid_heartbeats(args, code):
    with pytest.raises(CoordinatorError) as e:
        coord().heartbeat(*args, None, "c", "h", 0, TOPICS)
    assert e.value.code == code


def test_fencing_unknown_member_and_leave_keeps_the_session_and_records():
    # Kafka 4.3: the group coordinator does not tell the share-partition leaders a member left; its
    # session and acquired records stay until its final-epoch ShareAcknowledge (librdkafka's close
    # sends the leave first), its connection's close or the acquisition locks' expiry
    c = coord()
    hb(c, "m1", 0, ["t2"])
    with pytest.raises(CoordinatorError) as e:
        hb(c, "m1", 7)
    assert e.value.code == E.FENCED_MEMBER_EPOCH
    with pytest.raises(CoordinatorError) as e:
        hb(c, "zz", 1)
    assert e.value.code == E.UNKNOWN_MEMBER_ID
    assert c.open_session("g", "m1", 0, "conn-1")[1] == E.NONE
    sp = c.share_partition("g", T2, "t2", 0)
    sp.acquire("m1", [(7, 9)], 10, 0, c.share_settings("g"))
    r = hb(c, "m1", -1)
    assert r.member_epoch == -1 and r.released == set()
    assert c.describe("g", {})["state"] == "Empty" and sp.fetch_offset() == 10  # 7-9 still acquired
    assert c.open_session("g", "m1", -1)[1] == E.NONE  # the final acknowledgement finds the session
    assert c.end_session("g", "m1").wake == {("g", T2, 0)} and sp.fetch_offset() == 7


def test_a_closed_connection_ends_the_share_sessions_it_opened():
    c = coord()
    hb(c, "m1", 0, ["t2"])
    hb(c, "m2", 0, ["t2"])
    sp = c.share_partition("g", T2, "t2", 0)
    c.open_session("g", "m1", 0, "conn-1")
    c.open_session("g", "m2", 0, "conn-2")
    sp.acquire("m1", [(7, 7)], 10, 0, c.share_settings("g"))
    sp.acquire("m2", [(8, 9)], 10, 0, c.share_settings("g"))
    c.open_session("g", "m1", 0, "conn-3")  # m1 opened its session again on another connection
    assert c.connection_closed("conn-1") == set() and ("g", "m1") in c.sessions
    assert c.connection_closed("conn-2") == {("g", T2, 0)}  # Kafka's releaseSession: m2's 8-9 released
    assert ("g", "m2") not in c.sessions and c.open_session("g", "m2", 1)[1] == E.SHARE_SESSION_NOT_FOUND
    assert sp.fetch_offset() == 8 and "m2" in c.groups["g"].members  # membership is the heartbeats'


class Ack:
    def __init__(self, first, last, types):
        self.first_offset, self.last_offset, self.acknowledge_types = first, last, types


def test_acknowledge_and_end_session_name_what_they_released():
    c = coord()
    hb(c, "m1", 0, ["t2"])
    sp = c.share_partition("g", T2, "t2", 0)
    sp.acquire("m1", [(7, 9)], 10, 0, c.share_settings("g"))
    known = {T1, T2}.__contains__
    r = c.acknowledge("g", "m1", {(T2, 0): [Ack(7, 7, [2])], (T1, 0): [Ack(0, 0, [1])], (b"\x09" * 16, 0): []},
                      known, 1)
    # RELEASE of 7: acquirable again; t1-0 was never fetched; an unknown topic id
    assert r.value == {(T2, 0): E.NONE, (T1, 0): E.INVALID_RECORD_STATE, (b"\x09" * 16, 0): E.UNKNOWN_TOPIC_ID}
    sp.written()  # (acquirable again once written)
    assert r.wake == {("g", T2, 0)} and sp.fetch_offset() == 7
    c.open_session("g", "m1", 0)
    assert c.end_session("g", "m1").wake == {("g", T2, 0)}  # 8 and 9 released with the session
    assert ("g", "m1") not in c.sessions and c.end_session("g", "m1").wake == set()


def test_topic_recreated_gets_a_new_assignment():
    c = coord()
    assert hb(c, "m1", 0, ["t1"]).assignment == {T1: [0, 1, 2]}
    new = {"t1": (b"\3" * 16, 2)}
    r = hb(c, "m1", 2, topics=new)
    assert r.member_epoch == 3 and r.assignment == {b"\3" * 16: [0, 1]}


def test_session_timeout_removes_member_and_keeps_its_records():
    c = coord(**{"share.session.timeout.ms": 100})
    hb(c, "m1", 0, ["t2"])
    c.open_session("g", "m1", 0, "conn-1")
    sp = c.share_partition("g", T2, "t2", 0)
    sp.acquire("m1", [(7, 7)], 10, 0, c.share_settings("g"))
    assert c.tick(50) == set()
    assert c.tick(100) == set() and not c.groups["g"].members and sp.fetch_offset() == 8
    assert c.connection_closed("conn-1") == {("g", T2, 0)} and sp.fetch_offset() == 7


def test_share_sessions_epochs():
    c = coord()
    s, err = c.open_session("g", "m1", 0)
    assert err == E.NONE and s.epoch == 1
    assert c.open_session("g", "m1", 2)[1] == E.INVALID_SHARE_SESSION_EPOCH
    assert c.open_session("g", "m1", 1)[1] == E.NONE
    assert c.open_session("g", "m1", 2)[1] == E.NONE
    assert c.open_session("g", "m2", 1)[1] == E.SHARE_SESSION_NOT_FOUND
    c.close_session("g", "m1")
    assert c.open_session("g", "m1", 3)[1] == E.SHARE_SESSION_NOT_FOUND


def test_earliest_and_delete_group():
    c = coord(**{"share.auto.offset.reset": "earliest"})
    hb(c, "m1", 0, ["t2"])
    assert c.share_partition("g", T2, "t2", 0).start_offset == 0
    assert c.delete_group("g") == E.NON_EMPTY_GROUP
    hb(c, "m1", -1)
    assert c.delete_group("g") == E.NONE and not c.partitions


def test_share_partitions_of_a_group_without_sessions_here_leave_the_cache_once_written():
    from odradek.coordinator.share_partition import SharePartition

    c = coord()
    sp = c.partitions[("g", T1, 0)] = SharePartition(5)
    other = c.partitions[("h", T1, 0)] = SharePartition(5)
    c.open_session("g", "m1", 0)
    c.open_session("g", "m2", 0)
    c.open_session("h", "m3", 0)
    c.end_session("g", "m1")
    c.tick(0)
    assert ("g", T1, 0) in c.partitions  # m2's session is still open
    c.end_session("g", "m2")
    c.tick(0)
    assert c.partitions[("g", T1, 0)] is sp  # not written yet: kept
    c.persisted([], [(("g", T1, 0), sp)])
    c.tick(0)
    assert ("g", T1, 0) not in c.partitions and c.partitions[("h", T1, 0)] is other


def test_by_duration_starts_a_share_partition_at_the_first_record_that_recent():
    """share.auto.offset.reset=by_duration:<ISO 8601 duration> (Kafka 4.3's SharePartition: the offset of
    the first record at or after now less the duration, capped at the high watermark; none yet is
    OffsetNotAvailable, which the share fetch answers for that partition and the next fetch retries)."""
    from odradek.coordinator.share_group_coordinator import OffsetNotAvailable, iso_duration_ms

    assert [iso_duration_ms(d) for d in ("PT1H", "P1DT2M", "PT0.5S", "P2D", "PT1H30M15S")] == [
        3_600_000, 86_520_000, 500, 172_800_000, 5_415_000]
    asked = []
    found = {"t1": None}

    def lookup(topic, partition, ts):
        asked.append((topic, partition, ts))
        return found[topic]

    s = {"share.auto.offset.reset": "by_duration:PT1H"}
    c = ShareGroupCoordinator(settings=lambda g: s, offsets=lambda t, p: (0, 7), offset_for_timestamp=lookup,
                              clock_ms=lambda: 10_000_000)
    hb(c, "m1", 0, ["t1"])
    with pytest.raises(OffsetNotAvailable):
        c.share_partition("g", T1, "t1", 0)
    assert asked == [("t1", 0, 10_000_000 - 3_600_000)]
    found["t1"] = 4
    assert c.share_partition("g", T1, "t1", 0).start_offset == 4
    found["t1"] = 9  # past the high watermark (7): the high watermark
    assert c.share_partition("g", T1, "t1", 1).start_offset == 7
