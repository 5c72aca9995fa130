"""Coordinator writes on replicated internal topics are answered only once committed: the
group coordinator's OffsetCommit over a CoordinatorLog whose partitions port is a fake with a
high watermark the test moves (broker/coordinator_log.py, broker/coordinator_acks.py)."""
from __future__ import annotations

from types import SimpleNamespace

from odradek.api_handlers.context import Delayed
from odradek.api_handlers.error_responses import error_response
from odradek.broker.coordinator_acks import hold
from odradek.broker.coordinator_log import CoordinatorLog, PendingWrites, Write
from odradek.config import BrokerConfig
from odradek.coordinator.errors import CoordinatorError
from odradek.coordinator.group_coordinator import GroupCoordinator
from odradek.wire import records as wire_records
from odradek.wire.errors import ErrorCode
from odradek.wire.messages.offset_commit_request import (
    OffsetCommitRequest, OffsetCommitRequestPartition, OffsetCommitRequestTopic,
)

OFFSETS = "__consumer_offsets"
E = ErrorCode


class _Info:
    def __init__(self, last_offset: int):
        self.last_offset = last_offset
        self.duplicate = False


class _Led:
    """A partition led here, as the coordinator reads it: its high watermark and log end."""

    def __init__(self, parts: "FakePartitions", tp: tuple[str, int]):
        self.parts, self.tp = parts, tp

    @property
    def high_watermark(self) -> int:
        return self.parts.hw.get(self.tp, 0)

    @property
    def log_end_offset(self) -> int:
        return self.parts.leo.get(self.tp, 0)

    @property
    def config(self) -> SimpleNamespace:
        return SimpleNamespace(max_message_bytes=1 << 20)  # (the batches' bound)


class FakePartitions:
    """The partitions port of the internal topic: the test sets the HW, the ISR's size
    against min.insync.replicas and whether this node still leads."""

    def __init__(self):
        self.leo: dict[tuple[str, int], int] = {}
        self.hw: dict[tuple[str, int], int] = {}
        self.led = True
        self.isr_enough = True  # ISR >= min.insync.replicas
        self.appends = 0

    def get(self, topic: str, partition: int):
        return _Led(self, (topic, partition)) if self.led else None

    def check_append(self, topic: str, partition: int, acks: int) -> ErrorCode:
        if not self.led:
            return E.NOT_LEADER_OR_FOLLOWER
        return E.NONE if self.isr_enough or acks != -1 else E.NOT_ENOUGH_REPLICAS

    def append(self, topic: str, partition: int, batch, now_ms: int, coordinator: bool = False) -> _Info:
        n = sum(len(recs) for _, recs in wire_records.iter_batches(bytes(batch)))
        tp = (topic, partition)
        self.leo[tp] = self.leo.get(tp, 0) + n
        self.appends += 1
        return _Info(self.leo[tp] - 1)

    def acks_reached(self, topic: str, partition: int, required_offset: int) -> tuple[bool, ErrorCode]:
        if not self.led:
            return False, E.NOT_LEADER_OR_FOLLOWER
        if self.hw.get((topic, partition), 0) < required_offset:
            return False, E.NONE
        return True, E.NONE if self.isr_enough else E.NOT_ENOUGH_REPLICAS_AFTER_APPEND


def _setup():
    parts = FakePartitions()
    pending = PendingWrites()
    groups = GroupCoordinator(log=CoordinatorLog(parts, OFFSETS, pending), config=BrokerConfig(), now_ms=0)
    return parts, pending, groups


def _commit(groups, pending, offset: int = 42):
    writes = pending.begin()
    try:
        errors = groups.commit_offsets("g", -1, "", None, {("t", 0): (offset, -1, "")}, 0)
    finally:
        pending.end(writes)
    return errors, writes


REQUEST = OffsetCommitRequest(group_id="g", topics=[OffsetCommitRequestTopic(
    name="t", partitions=[OffsetCommitRequestPartition(partition_index=0, committed_offset=42)])])


def _failed(code):
    return error_response(8, 8, REQUEST, CoordinatorError(code))


def _codes(resp) -> list[int]:
    return [p.error_code for t in resp.topics for p in t.partitions]


def test_commit_answered_only_once_the_hw_passes_it():
    parts, pending, groups = _setup()
    errors, writes = _commit(groups, pending)
    assert errors == {("t", 0): E.NONE}
    p = groups.partition_for("g")
    assert writes == [Write(OFFSETS, p, 1)]
    resp = hold(parts, writes, "ok", _failed, now_ms=0, timeout_ms=5000)
    assert isinstance(resp, Delayed) and resp.watch == [("partition", OFFSETS, p)]
    assert resp.try_complete(1) is None  # HW 0: not committed
    parts.hw[(OFFSETS, p)] = 1
    assert resp.try_complete(2) == "ok"


def test_single_node_hw_at_the_append_answers_at_once():
    parts, pending, groups = _setup()
    _, writes = _commit(groups, pending)
    parts.hw = dict(parts.leo)  # ISR = this node: the HW is the log end right after the append
    assert hold(parts, writes, "ok", _failed, now_ms=0, timeout_ms=5000) == "ok"


def test_timeout_and_lost_leadership_and_isr_shrink_map_to_kafkas_codes():
    parts, pending, groups = _setup()
    _, writes = _commit(groups, pending)
    resp = hold(parts, writes, "ok", _failed, now_ms=0, timeout_ms=5000)
    assert resp.deadline_ms == 5000
    assert _codes(resp.on_expire(5000)) == [E.COORDINATOR_NOT_AVAILABLE]  # REQUEST_TIMED_OUT, mapped
    parts.led = False
    assert _codes(resp.try_complete(1)) == [E.NOT_COORDINATOR]  # NOT_LEADER_OR_FOLLOWER, mapped
    parts.led, parts.isr_enough = True, False
    parts.hw = dict(parts.leo)
    assert _codes(resp.try_complete(1)) == [E.COORDINATOR_NOT_AVAILABLE]  # NOT_ENOUGH_REPLICAS_AFTER_APPEND


def test_under_min_isr_nothing_is_written_nor_applied():
    parts, pending, groups = _setup()
    parts.isr_enough = False
    errors, writes = _commit(groups, pending)
    assert errors == {("t", 0): E.COORDINATOR_NOT_AVAILABLE}  # NOT_ENOUGH_REPLICAS, mapped
    assert writes == [] and parts.appends == 0
    assert groups.fetch_offsets("g", [("t", 0)])[1].get(("t", 0)) is None
    parts.isr_enough, parts.led = True, False
    errors, writes = _commit(groups, pending)
    assert errors == {("t", 0): E.NOT_COORDINATOR} and parts.appends == 0


def test_a_response_waits_for_its_furthest_write_per_partition():
    parts, pending, groups = _setup()
    writes = pending.begin()
    inner = pending.begin()  # e.g. a parked JoinGroup completed by this request's poke
    groups.commit_offsets("g", -1, "", None, {("t", 0): (1, -1, "")}, 0)
    pending.end(inner)
    groups.commit_offsets("g", -1, "", None, {("t", 0): (2, -1, "")}, 0)
    pending.end(writes)
    p = groups.partition_for("g")
    assert len(inner) == 1 and len(writes) == 2
    parts.hw[(OFFSETS, p)] = 1
    resp = hold(parts, writes, "ok", _failed, now_ms=0, timeout_ms=5000)
    assert isinstance(resp, Delayed) and resp.try_complete(0) is None
    assert hold(parts, inner, "ok", _failed, now_ms=0, timeout_ms=5000) == "ok"
    parts.hw[(OFFSETS, p)] = 2
    assert resp.try_complete(0) == "ok"
