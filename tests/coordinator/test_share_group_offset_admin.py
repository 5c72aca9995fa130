"""ShareGroupCoordinator.alter_offsets / delete_offsets (AlterShareGroupOffsets 91,
DeleteShareGroupOffsets 92) and the share coordinator's keys (FindCoordinator v6 key type 2).
Expectations recorded against Kafka 4.3 (kafka-share-groups --reset-offsets / --delete-offsets)."""

import pytest

from odradek.coordinator import share_state
from odradek.coordinator.errors import CoordinatorError
from odradek.coordinator.share_group_coordinator import ShareGroupCoordinator
from odradek.coordinator.share_partition import ACCEPT, ShareSettings
from odradek.wire.errors import ErrorCode as E

T1, T2 = b"\1" * 16, b"\2" * 16
TOPICS = {"t1": (T1, 2), "t2": (T2, 1)}
UNKNOWN = (E.UNKNOWN_TOPIC_OR_PARTITION, "This server does not host this topic-partition.")
NO_OFFSETS = (E.UNKNOWN_TOPIC_OR_PARTITION, "There is no offset information to delete.")


def coord(reset="latest"):
    s = {"share.auto.offset.reset": reset, "share.session.timeout.ms": 45000, "share.heartbeat.interval.ms": 5000}
    return ShareGroupCoordinator(settings=lambda g: s, offsets=lambda t, p: (0, 7))


def join(c, group="g", member="m1", topics=("t1",)):
    return c.heartbeat(group, member, 0, list(topics), None, "client", "/127.0.0.1", 0, TOPICS)


def leave(c, group="g", member="m1"):
    return c.heartbeat(group, member, -1, None, None, "client", "/127.0.0.1", 0, TOPICS)


def spso(c, group, tid, p):
    sp = c.partitions.get((group, tid, p))
    return None if sp is None else sp.start_offset


def test_alter_creates_an_empty_group_with_epoch_1_and_sets_the_start_offsets():
    c = coord()
    out = c.alter_offsets("g", [("t1", [(0, 3), (1, 5)])], TOPICS)
    assert out == [("t1", T1, [(0, E.NONE, None), (1, E.NONE, None)])]
    g = c.groups["g"]
    assert (g.state, g.group_epoch, g.assignment_epoch) == ("Empty", 1, 1)
    assert (spso(c, "g", T1, 0), spso(c, "g", T1, 1)) == (3, 5)
    # a member joining keeps them (share-partitions already initialized), the group epoch moves on
    r = join(c)
    assert r.member_epoch == 2 and (spso(c, "g", T1, 0), spso(c, "g", T1, 1)) == (3, 5)


def test_alter_orders_unknown_topics_first_and_merges_a_topic_named_twice():
    c = coord()
    out = c.alter_offsets("g", [("t1", [(0, 3), (7, 1)]), ("nosuch", [(0, 5)]), ("t1", [(1, 2)])], TOPICS)
    assert out == [("nosuch", None, [(0, *UNKNOWN)]),
                   ("t1", T1, [(0, E.NONE, None), (7, *UNKNOWN), (1, E.NONE, None)])]


def test_alter_naming_no_existing_topic_creates_no_group():
    c = coord()
    assert c.alter_offsets("g", [("nosuch", [(0, 5)])], TOPICS) == [("nosuch", None, [(0, *UNKNOWN)])]
    assert c.alter_offsets("g", [], TOPICS) == []
    assert "g" not in c.groups
    # a known topic whose partitions are all out of range still creates it (as Kafka)
    c.alter_offsets("g", [("t2", [(3, 0)])], TOPICS)
    assert c.groups["g"].state == "Empty" and not c.partitions


def fetch(c, topics, group="g"):
    """The first ShareFetch of the group's partitions: their share-partitions start."""
    for name in topics:
        tid, n = TOPICS[name]
        for p in range(n):
            c.share_partition(group, tid, name, p)


def test_alter_replaces_in_flight_state():
    c = coord()
    join(c)
    fetch(c, ["t1"])
    sp = c.partitions[("g", T1, 0)]
    assert sp.acquire("m1", [(7, 9)], 10, 0, ShareSettings())
    assert sp.acknowledge("m1", 7, 7, [ACCEPT], 0, ShareSettings()) == E.NONE
    leave(c)
    c.alter_offsets("g", [("t1", [(0, 2)])], TOPICS)
    assert (sp.start_offset, sp.end_offset, sp.records) == (2, 2, {})


@pytest.mark.parametrize("op", ["alter", "delete"])
def test_group_errors(op):
    c = coord()

    def call(group, other=False):
        if op == "alter":
            return c.alter_offsets(group, [("t1", [(0, 0)])], TOPICS, is_other_group=other)
        return c.delete_offsets(group, ["t1"], TOPICS, is_other_group=other)

    with pytest.raises(CoordinatorError) as e:
        call("classic", other=True)
    assert (e.value.code, e.value.message) == (E.GROUP_ID_NOT_FOUND, "Group classic is not a share group.")
    join(c)
    with pytest.raises(CoordinatorError) as e:
        call("g")
    assert (e.value.code, e.value.message) == (E.NON_EMPTY_GROUP, "The group is not empty.")
    if op == "delete":
        with pytest.raises(CoordinatorError) as e:
            c.delete_offsets("nogroup", ["t1"], TOPICS)
        assert (e.value.code, e.value.message) == (E.GROUP_ID_NOT_FOUND, "Group nogroup not found.")
        with pytest.raises(CoordinatorError):
            c.delete_offsets("nogroup", [], TOPICS)


def test_delete_forgets_whole_topics_successes_first():
    c = coord("earliest")
    join(c, topics=("t1", "t2"))
    fetch(c, ["t1", "t2"])
    leave(c)
    assert {k[1] for k in c.partitions} == {T1, T2}
    out = c.delete_offsets("g", ["nosuch", "t1", "t1"], TOPICS)
    assert out == [("t1", T1, E.NONE, None), ("nosuch", None, *UNKNOWN)]
    assert {k[1] for k in c.partitions} == {T2}
    assert c.delete_offsets("g", ["t1"], TOPICS) == [("t1", None, *NO_OFFSETS)]
    assert c.delete_offsets("g", [], TOPICS) == []
    # the next member starts the topic from share.auto.offset.reset again (at its first fetch)
    join(c, member="m2")
    fetch(c, ["t1"])
    assert spso(c, "g", T1, 0) == 0


def test_a_negative_start_offset_is_uninitialized_until_used():
    c = coord("latest")
    c.alter_offsets("g", [("t1", [(0, -1)])], TOPICS)
    assert spso(c, "g", T1, 0) == -1
    assert c.share_partition("g", T1, "t1", 0).start_offset == 7  # share.auto.offset.reset=latest


@pytest.mark.parametrize("key,ok", [
    ("g1:AAAAAAAAAAAAAAAAAAAAAA:0", True),
    ("g1:AQEBAQEBAQEBAQEBAQEBAQ:-1", True),
    ("a:b:AQEBAQEBAQEBAQEBAQEBAQ:3", True),  # Kafka 4.3: the group id is what precedes the last two
    ("g1:AQEBAQEBAQEBAQEBAQEBAQ==:+2", True),
    ("g1", False), ("", False), (":AQEBAQEBAQEBAQEBAQEBAQ:0", False), ("  :AQEBAQEBAQEBAQEBAQEBAQ:0", False),
    ("g1:notauuid:0", False), ("g1:AQEBAQEBAQEBAQEBAQEBAQ:x", False), ("g1:AQEBAQEBAQEBAQEBAQEBAQ:0:1", False),
    ("g1:AQEBAQEBAQEBAQEBAQEBAQ:2147483648", False), ("g1:AQEBAQEBAQEBAQEBAQEBAQ: 1", False),
])
def test_share_coordinator_keys(key, ok):
    if ok:
        group, tid, p = share_state.parse_share_key(key)
        assert group and len(tid) == 16 and isinstance(p, int)
    else:
        with pytest.raises(ValueError):
            share_state.parse_share_key(key)


def test_share_coordinator_partition_is_kafkas_hash_of_the_canonical_key():
    assert share_state.coordinator_key("g", T1, 3) == "g:AQEBAQEBAQEBAQEBAQEBAQ:3"
    # Utils.abs("g:AQEBAQEBAQEBAQEBAQEBAQ:3".hashCode()) % 50, computed with Java's String.hashCode
    h = 0
    for ch in "g:AQEBAQEBAQEBAQEBAQEBAQ:3":
        h = (31 * h + ord(ch)) & 0xFFFFFFFF
    h = h - (1 << 32) if h >= 1 << 31 else h
    assert share_state.partition_for("g", T1, 3) == abs(h) % 50
    assert all(0 <= share_state.partition_for(f"g{i}", T2, i, 7) < 7 for i in range(50))
