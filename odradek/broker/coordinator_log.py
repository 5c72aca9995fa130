"""CoordinatorLog: the group and transaction coordinators' view of their internal
compacted topic: append key/value records, read them back at load time, and which
partitions this node holds (the keys it coordinates).

The internal topics are replicated (offsets.topic.replication.factor etc.): as Kafka's
coordinators, which append with acks=-1, an append first checks min.insync.replicas (fewer
in-sync replicas: CoordinatorError COORDINATOR_NOT_AVAILABLE, the partition not led here:
NOT_COORDINATOR, before anything is written), and each append is noted in ``PendingWrites``
so that the request it answers is held (broker/coordinator_acks.py) until the high watermark
passes it. On a single node the HW moves at the append: nothing waits.
"""

from __future__ import annotations

from typing import NamedTuple

from odradek.coordinator.errors import CoordinatorError
from odradek.wire import records as wire_records
from odradek.wire.errors import ErrorCode


class Write(NamedTuple):
    """A coordinator append: committed once the partition's HW reaches ``end_offset``."""
    topic: str
    partition: int
    end_offset: int


class PendingWrites:
    """The coordinator appends made while the broker works out one request's response (its
    handler, or the try_complete of its parked operation): each open collection gets every
    append noted while it is open (nested: an operation completed by another request's poke
    is open inside that request's collection, and both wait)."""

    def __init__(self):
        self._open: list[list[Write]] = []

    def begin(self) -> list[Write]:
        writes: list[Write] = []
        self._open.append(writes)
        return writes

    def end(self, writes: list[Write]) -> None:
        if self._open and self._open[-1] is writes:  # (the innermost, as almost always)
            self._open.pop()
            return
        for i in range(len(self._open) - 1, -1, -1):
            if self._open[i] is writes:
                del self._open[i]
                return

    def note(self, write: Write) -> None:
        for writes in self._open:
            writes.append(write)


# what an append refused before the write answers (Kafka's coordinators' error mapping)
_REFUSED = {ErrorCode.NOT_ENOUGH_REPLICAS: ErrorCode.COORDINATOR_NOT_AVAILABLE,
            ErrorCode.NOT_LEADER_OR_FOLLOWER: ErrorCode.NOT_COORDINATOR}


class CoordinatorLog:
    def __init__(self, replicas, topic: str, pending: PendingWrites | None = None):
        self.replicas = replicas
        self.topic = topic
        self.pending = pending

    def has_partition(self, partition: int) -> bool:
        """This node leads the partition (False while the topic does not exist yet)."""
        return self.replicas.get(self.topic, partition) is not None

    def append(self, partition: int, recs: list, now_ms: int) -> int:
        """Append (key, value|None) records as one batch; returns the last offset."""
        batch = wire_records.build_batch([(k, v, (), now_ms) for k, v in recs], base_timestamp=now_ms)
        return self.append_batch(partition, batch, now_ms)

    def append_batch(self, partition: int, batch, now_ms: int) -> int:
        """Append a built batch as leader with acks=-1 (min.insync.replicas checked first);
        returns the last offset. The append is noted as pending until the HW passes it."""
        err = self.replicas.check_append(self.topic, partition, -1)
        if err:
            code = _REFUSED.get(err, ErrorCode.COORDINATOR_NOT_AVAILABLE)
            raise CoordinatorError(code, f"cannot write to {self.topic}-{partition}: {err.name}")
        info = self.replicas.append(self.topic, partition, batch, now_ms)
        if self.pending is not None and not info.duplicate:
            self.pending.note(Write(self.topic, partition, info.last_offset + 1))
        return info.last_offset

    def read(self, partition: int):
        """Every (offset, key, value) from the log start, in order."""
        plog = self.replicas.get(self.topic, partition)
        if plog is None:
            return
        yield from plain_records(self.read_batches(partition), plog.log_start_offset)

    def read_batches(self, partition: int):
        """Every (header, records) from the log start, control batches included."""
        plog = self.replicas.get(self.topic, partition)
        if plog is None:
            return
        offset = plog.log_start_offset
        end = plog.log_end_offset
        while offset < end:
            batches: list = []
            offset, n = read_into(plog, offset, batches, end)
            if n == 0:
                break
            yield from batches

    def end_offset(self, partition: int) -> int:
        plog = self.replicas.get(self.topic, partition)
        return -1 if plog is None else plog.log_end_offset

    def start_offset(self, partition: int) -> int:
        plog = self.replicas.get(self.topic, partition)
        return -1 if plog is None else plog.log_start_offset


READ_BYTES = 1 << 20


def read_into(plog, offset: int, batches: list, end: int) -> tuple[int, int]:
    """One read of up to READ_BYTES of ``plog`` from ``offset`` below ``end``: its (header, records)
    appended to ``batches``; -> (next offset, bytes read; 0: nothing more)."""
    sl = plog.read(offset, READ_BYTES, upper_bound_offset=end)
    if not sl.slices:
        return offset, 0
    data = sl.read_bytes()
    nxt = offset
    for h, recs in wire_records.iter_batches(data):
        if h.last_offset >= offset:
            batches.append((h, recs))
            nxt = h.last_offset + 1
    return nxt, len(data) if nxt > offset else 0


def plain_records(batches, log_start: int):
    """The (offset, key, value) of the non-transactional data records from ``log_start`` (the
    coordinators' own records; transactional offset commits: TxnOffsetStore.load_partition, which
    replays them with their markers)."""
    for h, recs in batches:
        if h.is_control or h.is_transactional:
            continue
        for r in recs:
            off = h.base_offset + r.offset_delta
            if off >= log_start:
                yield off, r.key, r.value
