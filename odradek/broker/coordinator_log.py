"""CoordinatorLog: the group and transaction coordinators' view of their internal
compacted topic: append key/value records, read them back at load time, and which
partitions this node holds (the keys it coordinates).

The internal topics are replicated (offsets.topic.replication.factor etc.): as Kafka's
coordinators, which append with acks=-1, an append first checks min.insync.replicas (fewer
in-sync replicas: CoordinatorError COORDINATOR_NOT_AVAILABLE, the partition not led here:
NOT_COORDINATOR, before anything is written), and each append is noted in ``PendingWrites``
so that the request it answers is held (broker/coordinator_acks.py) until the high watermark
passes it. On a single node the HW moves at the append: nothing waits.

``CoordinatorBatches`` holds the group coordinator's appends to be written together, one record
batch per partition, as Kafka's CoordinatorRuntime does (group.coordinator.append.linger.ms).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, NamedTuple

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


# a record's bytes in a batch beyond its key and value (length, attributes, deltas, header count)
RECORD_OVERHEAD = 24
BATCH_OVERHEAD = 61  # a record batch's header


@dataclass
class _Batch:
    """A partition's appends collected and not written yet: (key, value, headers, timestamp)."""
    log: "CoordinatorLog"
    partition: int
    base_offset: int  # the log end when it was opened: its first record's offset
    opened_ms: int
    records: list = field(default_factory=list)
    size: int = BATCH_OVERHEAD
    # called once it is written (None) or could not be (the mapped error code)
    flushed: list = field(default_factory=list)


class CoordinatorBatches:
    """The group coordinator's appends, collected while ``collecting`` (a slice of its requests,
    broker/coordinator_events.py) and written as one record batch per partition by ``flush``, as
    Kafka's CoordinatorRuntime writes its current batch: the state changes at once, the records
    go to the log together. An append collected is checked as one written at once
    (min.insync.replicas, leadership: refused before any state change); its offsets are known (the
    log end when the batch opened, plus the records before it), so the request it answers is held
    until the HW passes them as before (PendingWrites). A batch is written before it would outgrow
    the partition's max.message.bytes, and before any append that is not collected (a built
    batch, a write outside the slices) so that the log keeps the order of the state changes.
    ``failed(topic, partition)``: a batch that cannot be written leaves the state ahead of the log;
    the broker reloads the partition from its log (Kafka reverts to the last written snapshot)."""

    def __init__(self, failed: Callable[[str, int], None] | None = None):
        self.collecting = False
        self._open: dict[tuple[str, int], _Batch] = {}
        self._failed = failed
        self.flushes = 0  # batches written (a count for tests and metrics)

    def has_open(self) -> bool:
        return bool(self._open)

    def open_batches(self) -> list[_Batch]:
        return list(self._open.values())

    def oldest_ms(self) -> int | None:
        return min((b.opened_ms for b in self._open.values()), default=None)

    def add(self, log: "CoordinatorLog", partition: int, recs: list, now_ms: int) -> int:
        """Collect ``recs`` for the partition's batch; -> the offset the last of them will have."""
        log.check(partition)
        key = (log.topic, partition)
        size = sum(len(k) + (0 if v is None else len(v)) + RECORD_OVERHEAD for k, v in recs)
        batch = self._open.get(key)
        if batch is not None and batch.size + size > log.max_batch_bytes(partition):
            self.flush_partition(log.topic, partition)
            batch = None
        if batch is None:
            batch = self._open[key] = _Batch(log, partition, log.end_offset(partition), now_ms)
        batch.records.extend((k, v, (), now_ms) for k, v in recs)
        batch.size += size
        end = batch.base_offset + len(batch.records)
        if log.pending is not None:
            log.pending.note(Write(log.topic, partition, end))
        return end - 1

    def wait(self, key: tuple[str, int] | None, done: Callable[[ErrorCode | None], None]) -> bool:
        """``done`` once the batch of ``key`` (None: every open batch) is written; False if none is open."""
        batches = list(self._open.values()) if key is None else [b for b in (self._open.get(key),) if b]
        if not batches:
            return False
        if len(batches) == 1:
            batches[0].flushed.append(done)
            return True
        left = [len(batches)]
        errors: list = []

        def one(err):
            if err is not None:
                errors.append(err)
            left[0] -= 1
            if left[0] == 0:
                done(errors[0] if errors else None)

        for b in batches:
            b.flushed.append(one)
        return True

    def flush(self, older_than_ms: int | None = None) -> None:
        """Write the open batches (those opened at or before ``older_than_ms`` if given)."""
        for topic, partition in list(self._open):
            b = self._open.get((topic, partition))
            if b is not None and (older_than_ms is None or b.opened_ms <= older_than_ms):
                self.flush_partition(topic, partition)

    def flush_partition(self, topic: str, partition: int) -> None:
        b = self._open.pop((topic, partition), None)
        if b is None:
            return
        err = None
        try:
            last = b.log.write(partition, b.records, b.opened_ms)
            if last + 1 != b.base_offset + len(b.records):  # (written elsewhere meanwhile: out of step)
                raise CoordinatorError(ErrorCode.NOT_COORDINATOR,
                                       f"{topic}-{partition}: batch written at {last + 1 - len(b.records)}, "
                                       f"expected {b.base_offset}")
            self.flushes += 1
        except Exception as e:  # noqa: BLE001 - the requests of the batch get the coordinators' error
            log_failure(topic, partition, e)
            err = e.code if isinstance(e, CoordinatorError) else ErrorCode.COORDINATOR_NOT_AVAILABLE
            err = _REFUSED.get(err, err)
            if self._failed is not None:
                self._failed(topic, partition)
        for done in b.flushed:
            done(err)


def log_failure(topic: str, partition: int, e: Exception) -> None:
    import logging

    logging.getLogger(__name__).error("Writing records to %s-%d failed due to: %s.", topic, partition, e)


class CoordinatorLog:
    def __init__(self, replicas, topic: str, pending: PendingWrites | None = None,
                 batches: CoordinatorBatches | None = None):
        """``batches``: where the group coordinator's appends are collected (None: each written at once)."""
        self.replicas = replicas
        self.topic = topic
        self.pending = pending
        self.batches = batches

    def has_partition(self, partition: int) -> bool:
        """This node leads the partition (False while the topic does not exist yet)."""
        return self.replicas.get(self.topic, partition) is not None

    def append(self, partition: int, recs: list, now_ms: int) -> int:
        """Append (key, value|None) records as one batch (collected into the partition's open batch
        while the batches are collecting, unless their batch is encoded already: KeyedRecords);
        returns the last offset."""
        if isinstance(recs, wire_records.KeyedRecords) and recs:
            # a large write made ready in steps, its records section encoded: its batch framed and
            # written at once (after the partition's open batch: the log keeps the order)
            return self.append_batch(partition, recs.batch(), now_ms)
        batches = self.batches
        if batches is not None and batches.collecting:
            return batches.add(self, partition, recs, now_ms)
        return self.write(partition, [(k, v, (), now_ms) for k, v in recs], now_ms)

    def write(self, partition: int, records: list, now_ms: int) -> int:
        """Append (key, value, headers, timestamp) records as one batch at once."""
        batch = wire_records.build_batch(records, base_timestamp=now_ms)
        return self.append_batch(partition, batch, now_ms)

    def check(self, partition: int) -> None:
        """What an append would be refused with before anything is written (CoordinatorError)."""
        err = self.replicas.check_append(self.topic, partition, -1)
        if err:
            code = _REFUSED.get(err, ErrorCode.COORDINATOR_NOT_AVAILABLE)
            raise CoordinatorError(code, f"cannot write to {self.topic}-{partition}: {err.name}")

    def max_batch_bytes(self, partition: int) -> int:
        """The largest batch the partition takes (its max.message.bytes)."""
        plog = self.replicas.get(self.topic, partition)
        return plog.config.max_message_bytes if plog is not None else 1 << 20

    def append_batch(self, partition: int, batch, now_ms: int) -> int:
        """Append a batch the coordinator built of its records (keyed: not read back by the log,
        Kafka's AppendOrigin.COORDINATOR) as leader with acks=-1 (min.insync.replicas checked first);
        returns the last offset. The append is noted as pending until the HW passes it. A batch
        of collected appends open for the partition is written first (the log keeps their order)."""
        batches = self.batches
        if batches is not None and batches.has_open():
            batches.flush_partition(self.topic, partition)
        self.check(partition)
        info = self.replicas.append(self.topic, partition, batch, now_ms, coordinator=True)
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

    def committed_offset(self, partition: int) -> int:
        """The partition's high watermark: its records below it are committed (-1: not led here)."""
        plog = self.replicas.get(self.topic, partition)
        return -1 if plog is None else plog.high_watermark

    def hold_until_committed(self, partition: int) -> None:
        """The response being made (a read of the newest state: OffsetFetch with require_stable)
        is held until everything written to the partition so far is committed, as Kafka's write
        operation without records: the partition's open batch is written now, and the response
        waits for the HW to reach the log end (PendingWrites)."""
        if self.batches is not None:
            self.batches.flush_partition(self.topic, partition)
        end = self.end_offset(partition)
        if self.pending is not None and end >= 0:
            self.pending.note(Write(self.topic, partition, end))

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
