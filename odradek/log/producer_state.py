"""Idempotent-producer state of one partition: per producer id the epoch and the
metadata of its last 5 batches, checked on every append, snapshotted to
`%020d.snapshot` (offset = log end offset when taken) and rebuilt on recovery."""
from __future__ import annotations

import enum
import functools
import posixpath
from collections import deque
from dataclasses import dataclass, field

from odradek.wire.records import crc32c

from .fs import FileSystem, read_whole

MAX_CACHED_BATCHES = 5
INT32_MAX = 2147483647
SNAPSHOT_SUFFIX = ".snapshot"


class CheckResult(enum.Enum):
    OK = "OK"
    DUPLICATE = "DUPLICATE_SEQUENCE_NUMBER"
    OUT_OF_ORDER_SEQUENCE = "OUT_OF_ORDER_SEQUENCE_NUMBER"
    INVALID_PRODUCER_EPOCH = "INVALID_PRODUCER_EPOCH"
    COORDINATOR_FENCED = "TRANSACTION_COORDINATOR_FENCED"


@dataclass(frozen=True)
class BatchMetadata:
    """A producer's batch as the log remembers it for duplicate checks."""
    first_seq: int
    last_seq: int
    first_offset: int
    last_offset: int
    max_timestamp: int


@dataclass
class ProducerEntry:
    """A producer id's state in a log: epoch, recent batches, last timestamp."""
    epoch: int
    batches: deque = field(default_factory=lambda: deque(maxlen=MAX_CACHED_BATCHES))
    last_timestamp: int = -1
    coordinator_epoch: int = -1  # of the last transaction marker (Kafka's ProducerStateEntry)

    @property
    def last_seq(self) -> int:
        return self.batches[-1].last_seq if self.batches else -1


@dataclass(frozen=True)
class Check:
    """The result of checking an idempotent batch's sequence."""
    result: CheckResult
    duplicate_of: BatchMetadata | None = None


def _next_seq(seq: int) -> int:
    return 0 if seq == INT32_MAX else seq + 1


def _last_seq(first_seq: int, last_offset_delta: int) -> int:
    s = first_seq + last_offset_delta
    return s - INT32_MAX - 1 if s > INT32_MAX else s


_KAFKA_ENTRY_SIZE = 46


@functools.cache
@functools.lru_cache(maxsize=1)
def _empty_snapshot() -> bytes:
    """The snapshot of no producer (Kafka's layout, as to_bytes builds it)."""
    body = _formats()[0].build(dict(version=1, crc=0, entries=[]))
    return body[:2] + crc32c(body[6:]).to_bytes(4, "big") + body[6:]


def _formats():
    """(Kafka's snapshot, odradek's legacy snapshot) as construct Structs, built on first
    use: a broker that never reads or writes a snapshot skips importing construct."""
    from construct import Int8ub, Int16sb, Int16ub, Int32sb, Int32ub, Int64sb, PrefixedArray, Struct

    # Kafka's producer snapshot (ProducerStateManager, version 1): per producer its last
    # batch only, so `kafka-dump-log --files N.snapshot` reads ours and Kafka could load them.
    entry = Struct(
        "producer_id" / Int64sb,
        "epoch" / Int16sb,
        "last_sequence" / Int32sb,
        "last_offset" / Int64sb,
        "offset_delta" / Int32sb,
        "timestamp" / Int64sb,
        "coordinator_epoch" / Int32sb,
        "current_txn_first_offset" / Int64sb,
    )
    snapshot = Struct(
        "version" / Int16ub,
        "crc" / Int32ub,
        "entries" / PrefixedArray(Int32ub, entry),
    )
    # The layout odradek wrote before (same version and CRC, every cached batch); still read.
    legacy = Struct(
        "version" / Int16ub,
        "crc" / Int32ub,
        "entries" / PrefixedArray(Int32ub, Struct(
            "producer_id" / Int64sb,
            "epoch" / Int16sb,
            "last_timestamp" / Int64sb,
            "batches" / PrefixedArray(Int8ub, Struct(
                "first_seq" / Int32sb, "last_seq" / Int32sb,
                "first_offset" / Int64sb, "last_offset" / Int64sb, "max_timestamp" / Int64sb)),
        )),
    )
    return snapshot, legacy


def read_snapshot_entries(data: bytes) -> list:
    """Kafka-format snapshot entries (CRC checked); ValueError when the file is not one."""
    if len(data) < 10 or crc32c(data[6:]) != int.from_bytes(data[2:6], "big"):
        raise ValueError("producer snapshot checksum mismatch")
    if int.from_bytes(data[:2], "big") != 1:
        raise ValueError(f"producer snapshot version {int.from_bytes(data[:2], 'big')} unknown")
    if len(data) != 10 + _KAFKA_ENTRY_SIZE * int.from_bytes(data[6:10], "big"):
        raise ValueError("not a Kafka producer snapshot")
    return list(_formats()[0].parse(data).entries)


class ProducerStateTable:
    def __init__(self):
        self.producers: dict[int, ProducerEntry] = {}

    def check(self, producer_id: int, producer_epoch: int, base_sequence: int,
              last_offset_delta: int) -> Check:
        """Decide what to do with a batch from an idempotent producer (pid >= 0)."""
        entry = self.producers.get(producer_id)
        if entry is None:
            return Check(CheckResult.OK)  # unknown producer (new, or expired): accept
        if producer_epoch < entry.epoch:
            return Check(CheckResult.INVALID_PRODUCER_EPOCH)
        if base_sequence < 0:
            return Check(CheckResult.OK)
        if producer_epoch > entry.epoch:
            # a bumped epoch starts again at sequence 0
            return Check(CheckResult.OK if base_sequence == 0 else CheckResult.OUT_OF_ORDER_SEQUENCE)
        last_seq = _last_seq(base_sequence, last_offset_delta)
        for b in entry.batches:
            if b.first_seq == base_sequence and b.last_seq == last_seq:
                return Check(CheckResult.DUPLICATE, b)
        # no batch of this epoch yet (its entry made by a marker that bumped the epoch, transaction
        # version 2): last_seq -1, only sequence 0 is next, as Kafka's checkSequence
        if base_sequence == _next_seq(entry.last_seq):
            return Check(CheckResult.OK)
        return Check(CheckResult.OUT_OF_ORDER_SEQUENCE)

    def update(self, producer_id: int, producer_epoch: int, base_sequence: int,
               first_offset: int, last_offset: int, max_timestamp: int) -> None:
        entry = self.producers.get(producer_id)
        if entry is None or producer_epoch != entry.epoch:
            entry = self.producers[producer_id] = ProducerEntry(producer_epoch)
        if base_sequence >= 0:
            entry.batches.append(BatchMetadata(
                base_sequence, _last_seq(base_sequence, last_offset - first_offset),
                first_offset, last_offset, max_timestamp))
        entry.last_timestamp = max(entry.last_timestamp, max_timestamp)

    def check_marker(self, producer_id: int, producer_epoch: int, coordinator_epoch: int) -> CheckResult:
        """A transaction marker as leader (ProducerAppendInfo.appendEndTxnMarker): an older
        producer epoch is INVALID_PRODUCER_EPOCH, an older coordinator epoch than the last
        marker's is a fenced coordinator (TRANSACTION_COORDINATOR_FENCED)."""
        entry = self.producers.get(producer_id)
        if entry is None:
            return CheckResult.OK
        if producer_epoch < entry.epoch:
            return CheckResult.INVALID_PRODUCER_EPOCH
        if coordinator_epoch < entry.coordinator_epoch:
            return CheckResult.COORDINATOR_FENCED
        return CheckResult.OK

    def note_coordinator_epoch(self, producer_id: int, coordinator_epoch: int) -> None:
        entry = self.producers.get(producer_id)
        if entry is not None:
            entry.coordinator_epoch = coordinator_epoch

    def update_from_header(self, h) -> None:
        if h.producer_id >= 0:
            if h.is_control:
                e = self.producers.get(h.producer_id)
                if e is None or h.producer_epoch > e.epoch:
                    self.producers[h.producer_id] = ProducerEntry(
                        h.producer_epoch, coordinator_epoch=-1 if e is None else e.coordinator_epoch)
                return
            self.update(h.producer_id, h.producer_epoch, h.base_sequence,
                        h.base_offset, h.last_offset, h.max_timestamp)

    def remove_expired(self, now_ms: int, expiration_ms: int, keep=()) -> int:
        """Forget producers whose last batch is at least expiration_ms old (Kafka's
        producer.id.expiration.ms, judged by batch timestamps as Kafka does), except
        those in `keep` (an open transaction). Returns how many were removed."""
        expired = [pid for pid, e in self.producers.items()
                   if now_ms - e.last_timestamp >= expiration_ms and pid not in keep]
        for pid in expired:
            del self.producers[pid]
        return len(expired)

    def truncate_after(self, offset: int) -> None:
        """Forget batches at or after offset (used only when no snapshot fits)."""
        for pid in list(self.producers):
            e = self.producers[pid]
            kept = [b for b in e.batches if b.last_offset < offset]
            e.batches = deque(kept, maxlen=MAX_CACHED_BATCHES)

    def clear(self) -> None:
        self.producers.clear()

    # ------------------------------------------------------------ snapshots

    def to_bytes(self, ongoing: dict[int, int] | None = None) -> bytes:
        """Kafka's snapshot layout; ``ongoing`` maps producer id -> first offset of its open txn."""
        if not self.producers:
            return _empty_snapshot()  # (most partitions: built once, not per snapshot)
        ongoing = ongoing or {}
        entries = []
        for pid, e in sorted(self.producers.items()):
            last = e.batches[-1] if e.batches else None
            entries.append(dict(
                producer_id=pid, epoch=e.epoch,
                last_sequence=last.last_seq if last else -1,
                last_offset=last.last_offset if last else -1,
                offset_delta=last.last_offset - last.first_offset if last else 0,
                timestamp=e.last_timestamp,
                coordinator_epoch=e.coordinator_epoch,
                current_txn_first_offset=ongoing.get(pid, -1)))
        body = _formats()[0].build(dict(version=1, crc=0, entries=entries))
        crc = crc32c(body[6:])
        return body[:2] + crc.to_bytes(4, "big") + body[6:]

    @classmethod
    def from_bytes(cls, data: bytes) -> "ProducerStateTable":
        t = cls()
        if data == _empty_snapshot():
            return t
        try:
            entries = read_snapshot_entries(data)
        except ValueError as e:
            if "checksum" in str(e) or "version" in str(e):
                raise
            for le in _formats()[1].parse(data).entries:
                entry = ProducerEntry(le.epoch, last_timestamp=le.last_timestamp)
                for b in le.batches:
                    entry.batches.append(BatchMetadata(b.first_seq, b.last_seq, b.first_offset,
                                                       b.last_offset, b.max_timestamp))
                t.producers[le.producer_id] = entry
            return t
        for ke in entries:
            entry = ProducerEntry(ke.epoch, last_timestamp=ke.timestamp, coordinator_epoch=ke.coordinator_epoch)
            if ke.last_sequence >= 0:
                first_seq = ke.last_sequence - ke.offset_delta
                if first_seq < 0:  # the batch wrapped past INT32_MAX
                    first_seq += INT32_MAX + 1
                entry.batches.append(BatchMetadata(first_seq, ke.last_sequence, ke.last_offset - ke.offset_delta,
                                                   ke.last_offset, ke.timestamp))
            t.producers[ke.producer_id] = entry
        return t


def snapshot_open_txns(data: bytes) -> dict[int, int] | None:
    """The open transactions a snapshot records (producer id -> first offset: each entry's
    currentTxnFirstOffset, as Kafka's ProducerStateManager.loadProducerEntry reads them into
    ongoingTxns); None for odradek's older layout, which does not record them."""
    if data == _empty_snapshot():
        return {}
    try:
        entries = read_snapshot_entries(data)
    except ValueError:
        return None
    return {e.producer_id: e.current_txn_first_offset for e in entries if e.current_txn_first_offset >= 0}


def list_snapshots(fs: FileSystem, directory: str) -> list[int]:
    out = []
    for name in fs.listdir(directory):
        if name.endswith(SNAPSHOT_SUFFIX) and name[:-len(SNAPSHOT_SUFFIX)].isdigit():
            out.append(int(name[:-len(SNAPSHOT_SUFFIX)]))
    return sorted(out)


def snapshot_path(directory: str, offset: int) -> str:
    return posixpath.join(directory, f"{offset:020d}{SNAPSHOT_SUFFIX}")


def load_latest_snapshot(fs: FileSystem, directory: str, max_offset: int, min_offset: int = 0
                         ) -> tuple[int, ProducerStateTable, bytes] | None:
    """Newest readable snapshot with min_offset <= offset <= max_offset (offset, table, file
    content); the others are deleted, as Kafka's truncateAndReload deletes the snapshots out of the
    log's range (one below ``min_offset``, the first segment's base, describes a log whose next
    records are gone). A file removed meanwhile (another thread's prune) is skipped."""
    found = None
    for off in reversed(list_snapshots(fs, directory)):
        path = snapshot_path(directory, off)
        if found is None and min_offset <= off <= max_offset:
            try:
                data = read_whole(fs, path)
                found = off, ProducerStateTable.from_bytes(data), data
                continue
            except FileNotFoundError:
                continue
            except Exception:
                pass  # torn or corrupt: fall back to an older one
        elif found is not None and off >= min_offset:
            continue  # (an older one, kept)
        try:
            fs.remove(path)
        except FileNotFoundError:
            pass
    return found
