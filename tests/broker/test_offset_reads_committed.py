"""OffsetFetch reads only committed offsets, as Kafka's group coordinator (a read operation at the
partition's last committed offset; with require_stable a write operation without records: the
newest offsets, answered once everything written is committed). An offset commit written to the
leader but not replicated is not seen: were the leader to fail, its successor would not have it
and the committed offset a reader saw would go back. The group coordinator over a CoordinatorLog
whose partitions port is test_coordinator_acks' fake, the high watermark moved by the test."""
from __future__ import annotations

from odradek.broker.coordinator_acks import hold
from odradek.broker.coordinator_log import Write
from odradek.coordinator import group_records as rec
from odradek.coordinator.group_records import OffsetAndMetadata
from odradek.wire.errors import ErrorCode as E
from odradek.wire.primitives import ZERO_UUID
from tests.broker.test_coordinator_acks import OFFSETS, _commit, _setup

TP = ("t", 0)


def _read(groups, stable: bool = False, all_offsets: bool = False):
    """The group's offset of TP as a fetch reads it (None: none)."""
    err, got = groups.fetch_offsets("g", None if all_offsets else [TP], stable=stable)
    assert err == E.NONE
    om = got.get(TP)
    return None if om is None else om.offset


def test_a_commit_is_read_once_the_hw_passes_it():
    parts, pending, groups = _setup()
    p = groups.partition_for("g")
    _commit(groups, pending, 42)
    assert _read(groups) is None and _read(groups, all_offsets=True) is None
    assert groups.committed("g") == {}
    parts.hw[(OFFSETS, p)] = 1
    assert _read(groups) == 42 and groups.committed("g")[TP].offset == 42
    _commit(groups, pending, 50)  # written at offset 1, the HW at 1
    assert _read(groups) == 42 and _read(groups, all_offsets=True) == 42
    parts.hw[(OFFSETS, p)] = 2
    assert _read(groups) == 50
    assert groups.timeline.pending(p) == 0  # what is committed is forgotten


def test_a_stable_read_is_the_newest_held_until_committed():
    parts, pending, groups = _setup()
    p = groups.partition_for("g")
    _commit(groups, pending, 42)
    writes = pending.begin()
    try:
        assert _read(groups, stable=True) == 42
    finally:
        pending.end(writes)
    assert writes == [Write(OFFSETS, p, 1)]  # the response waits for the HW to reach the log end
    resp = hold(parts, writes, "answer", lambda code: code, now_ms=0, timeout_ms=5000)
    assert resp.try_complete(0) is None
    parts.hw[(OFFSETS, p)] = 1
    assert resp.try_complete(0) == "answer"


def test_several_uncommitted_commits_read_as_the_last_committed():
    parts, pending, groups = _setup()
    p = groups.partition_for("g")
    for offset in (10, 20, 30, 40):
        _commit(groups, pending, offset)  # at log offsets 0..3
    parts.hw[(OFFSETS, p)] = 2
    assert _read(groups) == 20
    parts.hw[(OFFSETS, p)] = 3
    assert _read(groups) == 30 and groups.timeline.pending(p) == 1


def test_offsets_deleted_or_a_group_deleted_stay_read_until_committed():
    parts, pending, groups = _setup()
    p = groups.partition_for("g")
    _commit(groups, pending, 42)
    parts.hw[(OFFSETS, p)] = 1
    err, result = groups.delete_offsets("g", [TP], 0)  # OffsetDelete: the tombstone at offset 1
    assert err == E.NONE and result == {TP: E.NONE}
    assert _read(groups) == 42 and _read(groups, stable=True) is None
    parts.hw[(OFFSETS, p)] = 2
    assert _read(groups) is None
    _commit(groups, pending, 43)  # offset 2
    parts.hw[(OFFSETS, p)] = 3
    assert groups.delete_groups(["g"], 0) == {"g": E.NONE}  # the group and its offsets' tombstones
    assert "g" not in groups.groups
    assert _read(groups) == 43 and _read(groups, all_offsets=True) == 43
    parts.hw[(OFFSETS, p)] = parts.leo[(OFFSETS, p)]
    assert _read(groups) is None


def test_an_unloaded_partition_forgets_its_uncommitted_changes():
    parts, pending, groups = _setup()
    p = groups.partition_for("g")
    _commit(groups, pending, 42)
    assert groups.timeline.pending(p) == 1
    groups.unload_partition(p)
    assert groups.timeline.pending(p) == 0



def _record(offset: int, value: int | None):
    """(log offset, key, value) of an offset commit of TP for "g" (None: its tombstone)."""
    om = None if value is None else OffsetAndMetadata(value, -1, "", 0, -1, ZERO_UUID)
    return offset, rec.offset_commit_key("g", *TP), None if om is None else rec.offset_commit_value(om)


def test_a_load_keeps_what_is_beyond_the_hw_unread_until_committed():
    """A new leader's log can end with records its HW has not passed yet (Kafka's loader keeps them
    uncommitted): a plain read answers the offset below the HW, a stable one the newest."""
    records = [_record(0, 10), _record(1, 20), _record(2, None), _record(3, 30), _record(4, 40)]
    for hw, seen in ((0, None), (1, 10), (2, 20), (3, None), (4, 30), (5, 40)):
        parts, _, groups = _setup()
        p = groups.partition_for("g")
        parts.hw[(OFFSETS, p)] = hw
        groups.load_records(records, 0, p)
        assert _read(groups) == seen, hw
        assert _read(groups, stable=True) == 40
        parts.hw[(OFFSETS, p)] = 5
        assert _read(groups) == 40 and groups.timeline.pending(p) == 0


def test_small_and_large_writes_on_a_large_group_read_as_committed():
    """A write changing a good part of a group's offsets keeps the whole map as it was, a small one
    each value it changes (offset_timeline.SNAPSHOT_SHARE): both undone alike."""
    parts, pending, groups = _setup()
    p = groups.partition_for("g")
    every = {("t", i): (100 + i, -1, "") for i in range(40)}
    groups.commit_offsets("g", -1, "", None, every, 0)  # log offsets 0..39: all at once (whole map)
    parts.hw[(OFFSETS, p)] = 40
    groups.commit_offsets("g", -1, "", None, {("t", 1): (7, -1, "")}, 0)  # 40: one of 40 (its value)
    groups.commit_offsets("g", -1, "", None, {("t", i): (200 + i, -1, "") for i in range(20)}, 0)  # 41..60
    groups.commit_offsets("g", -1, "", None, {("u", 0): (5, -1, "")}, 0)  # 61: a new one

    def read(hw):
        parts.hw[(OFFSETS, p)] = hw
        return {tp: om.offset for tp, om in groups.fetch_offsets("g", None)[1].items()}

    assert read(40) == {("t", i): 100 + i for i in range(40)}
    assert read(41) == {**{("t", i): 100 + i for i in range(40)}, ("t", 1): 7}
    assert read(61) == {**{("t", i): 100 + i for i in range(40)}, **{("t", i): 200 + i for i in range(20)}}
    assert read(62)[("u", 0)] == 5 and groups.timeline.pending(p) == 0
