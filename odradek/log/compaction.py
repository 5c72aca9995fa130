"""Log compaction (cleanup.policy=compact): keep the latest record per key, as
Kafka's LogCleaner does.

Choosing a log (Kafka's LogCleanerManager): the cleanable range ends at the first
uncleanable offset - the active segment, the last stable offset, the first dirty
segment younger than min.compaction.lag.ms - rounded down to a segment start. A
log is cleaned when its dirty ratio exceeds min.cleanable.dirty.ratio, or when a
dirty closed segment's first batch is older than now - max.compaction.lag.ms
("needCompactionNow") and there is something cleanable; among those, the log with
the highest ratio goes first.

A pass (Kafka's Cleaner.doClean): an offset map (key -> latest offset) of the
dirty range, then every segment below the end of what was mapped is rewritten,
consecutive segments grouped into one as long as the result fits segment.bytes and
segment.index.bytes (groupSegmentsBySize). Records superseded by a later record
with the same key, keyless records and records of aborted transactions go. A
tombstone (null value) or the marker of a transaction whose data is all gone is
kept the first time, and its batch gets a delete horizon (KIP-534: attribute bit
6, baseTimestamp = now + delete.retention.ms); a later pass at or after the
horizon drops it. The last batch of the pass and the last batch of a producer
that is still active are kept, emptied if need be (sequence and epoch state).

The offset map has a fixed budget, Kafka's SkimpyOffsetMap: min(
log.cleaner.dedupe.buffer.size / log.cleaner.threads, 2^31 - 1) bytes per cleaner,
24 bytes a slot (MD5 digest + offset), filled to at most (int) (slots *
log.cleaner.io.buffer.load.factor) keys (offset_map.py). Mapping starts at the first
dirty offset and stops before the first keyed record that finds the map at that size,
which may be inside a segment or a batch (buildOffsetMapForSegment); the pass then
cleans up to the last offset mapped + 1, records past it are kept as they are
(pastLatestOffset), and that offset becomes the cleaner checkpoint: the rest stays
dirty for the next pass. A pass that raises (a map too small for a single key, a
corrupt segment) marks the log uncleanable: run_once logs it and skips the log from
then on, as Kafka's LogCleanerManager.markPartitionUncleanable; segments not swapped
in by then stay as they were, and the log takes appends and reads as before. A pass
whose log closes under it (a broker stop) stops at the next batch it would read and
swaps nothing in, as Kafka's cleaner threads at shutdown.

Crash safety: a group is written (as the pass goes, not held in memory) and fsynced
as `<first base>.log.cleaned`, then PartitionLog.replace_segments swaps it in (see
there). Offsets are kept: a rewritten batch keeps its base offset and
lastOffsetDelta, records keep theirs.
"""
from __future__ import annotations

import heapq
import logging
import math
from dataclasses import dataclass

from odradek.wire import records
from odradek.wire.exceptions import WireError

from . import errors
from .offset_map import BYTES_PER_ENTRY, SkimpyOffsetMap
from .partition_log import PartitionLog
from .segment import INT32_MAX, LogSegment
from .txn_index import AbortedTxn

log = logging.getLogger("odradek.log.cleaner")

OFFSET_INDEX_ENTRY = 8   # Kafka's index entry sizes, for groupSegmentsBySize
TIME_INDEX_ENTRY = 12

DEDUPE_BUFFER_SIZE = 134217728   # Kafka's CleanerConfig defaults
DEDUPE_BUFFER_LOAD_FACTOR = 0.9
CLEANER_THREADS = 1


class LogCleaningError(errors.LogError):
    """A cleaning pass failed; run_once marks the log uncleanable (Kafka's LogCleaningException)."""


class _LogClosed(Exception):
    """The log closed (a broker stop) while a pass read it: the pass stops at the next batch, as
    Kafka's cleaner threads check they still run (checkDone) for every batch they read."""


class DedupeBufferTooSmallError(LogCleaningError):
    """The offset map cannot hold a single key, so no pass could make progress."""


def _java_int(x: float) -> int:
    """Java's (int) of a double: toward zero, saturating, NaN -> 0."""
    if math.isnan(x):
        return 0
    if x >= INT32_MAX:
        return INT32_MAX
    if x <= -INT32_MAX - 1:
        return -INT32_MAX - 1
    return int(x)


@dataclass(frozen=True)
class CleanerConfig:
    """The broker's log.cleaner.* settings that size the offset map (Kafka's CleanerConfig)."""
    dedupe_buffer_size: int = DEDUPE_BUFFER_SIZE               # log.cleaner.dedupe.buffer.size
    dedupe_buffer_load_factor: float = DEDUPE_BUFFER_LOAD_FACTOR  # log.cleaner.io.buffer.load.factor
    threads: int = CLEANER_THREADS                              # log.cleaner.threads

    @property
    def offset_map_memory(self) -> int:
        """One cleaner's share: Kafka's (int) min(dedupeBufferSize / numThreads, Int.MaxValue)."""
        share = abs(self.dedupe_buffer_size) // max(self.threads, 1)  # Java's long division
        return max(0, min(share if self.dedupe_buffer_size >= 0 else -share, INT32_MAX))

    @property
    def slots(self) -> int:
        """SkimpyOffsetMap.slots: memory / 24 (16-byte MD5 digest + 8-byte offset)."""
        return self.offset_map_memory // BYTES_PER_ENTRY

    @property
    def max_map_size(self) -> int:
        """Cleaner's maxDesiredMapSize: (int) (slots * load factor) keys per pass."""
        return _java_int(self.slots * self.dedupe_buffer_load_factor)

    def check(self) -> None:
        """Kafka's Cleaner constructor assertion."""
        if not self.slots * self.dedupe_buffer_load_factor > 1:
            raise DedupeBufferTooSmallError(
                "offset map is too small to fit in even a single message, so log cleaning will never make "
                "progress. You can increase log.cleaner.dedupe.buffer.size or decrease log.cleaner.threads "
                f"(log.cleaner.dedupe.buffer.size={self.dedupe_buffer_size}, log.cleaner.threads={self.threads}, "
                f"log.cleaner.io.buffer.load.factor={self.dedupe_buffer_load_factor}: {self.slots} slots)")


def validate_compacted_record_set(buf, tp: str = "") -> None:
    """Produce-path check for compacted topics: every record needs a key. As Kafka's
    LogValidator: one RecordError per keyless record (its index in the batch), and the
    summary message of processRecordErrors. ``tp`` is the "topic-partition" name."""
    found = []
    try:
        index = 0
        for pos, h in records.iter_batch_headers(buf):
            if h.is_control:
                continue
            _, recs = records.decode_records(buf, pos, check_crc=False)
            for r in recs:
                if r.key is None:
                    found.append((index, f"Compacted topic cannot accept message without key in topic partition {tp}"))
                index += 1
    except WireError as e:
        raise errors.CorruptRecordError(str(e)) from e
    if found:
        shown = ", ".join(f"RecordError(batchIndex={i}, message='{m}')" for i, m in found[:3])
        raise errors.InvalidRecordError(
            f"One or more records have been rejected due to {len(found)} record errors in total, and only "
            f"showing the first three errors at most: [{shown}]", record_errors=found)


@dataclass
class CleanResult:
    """What one cleaning pass of a compacted log did."""
    first_dirty_offset: int
    end_offset: int                 # new cleaner checkpoint: last offset mapped + 1
    dirty_ratio: float
    segments_rewritten: int = 0     # old segments replaced
    segments_written: int = 0       # cleaned segments swapped in (one per group)
    bytes_before: int = 0
    bytes_after: int = 0
    records_removed: int = 0
    aborted: bool = False
    first_uncleanable_offset: int = -1  # where the pass would have ended with room for every key
    map_entries: int = 0            # distinct keys mapped
    buffer_utilization: float = 0.0  # Kafka's stats.bufferUtilization: entries / slots
    map_full: bool = False          # the map filled up: [end_offset, first_uncleanable_offset) left dirty


@dataclass
class _Plan:
    """Kafka's LogToClean: what a pass over this log would cover."""
    segments: list[tuple[LogSegment, int, int]]   # (segment, size, generation), base < end
    first_dirty: int
    end: int                 # first uncleanable offset (a segment base): the new checkpoint
    clean_bytes: int
    dirty_bytes: int         # cleanable bytes
    need_compaction_now: bool = False

    @property
    def ratio(self) -> float:
        total = self.clean_bytes + self.dirty_bytes
        return self.dirty_bytes / total if total else 0.0

    def should_clean(self, min_ratio: float) -> bool:
        # LogCleanerManager.grabFilthiestCompactedLog's filter (a strict ">")
        return (self.need_compaction_now and self.dirty_bytes > 0) or self.ratio > min_ratio


class _TxnTracker:
    """Kafka's CleanedTransactionMetadata: which transactional batches are aborted,
    which markers may go (their transaction's data is gone from the log), and the
    aborted-transaction index entries the cleaned segment keeps."""

    def __init__(self, aborted: list[AbortedTxn]):
        self._heap = [(a.first_offset, i, a) for i, a in enumerate(aborted)]
        heapq.heapify(self._heap)
        self._aborted: dict[int, list] = {}     # pid -> [AbortedTxn, last observed batch offset]
        self._committed: set[int] = set()
        self.kept_entries: list[AbortedTxn] = []

    def _consume_up_to(self, offset: int) -> None:
        while self._heap and self._heap[0][0] <= offset:
            a = heapq.heappop(self._heap)[2]
            self._aborted.setdefault(a.producer_id, [a, None])

    def on_batch(self, h) -> bool:
        """A data batch; True if it belongs to an aborted transaction."""
        self._consume_up_to(h.last_offset)
        if not h.is_transactional:
            return False
        meta = self._aborted.get(h.producer_id)
        if meta is not None:
            meta[1] = h.last_offset
            return True
        self._committed.add(h.producer_id)
        return False

    def on_control(self, h, recs) -> bool:
        """A control batch; True if it may be discarded (its transaction left no data)."""
        self._consume_up_to(h.last_offset)
        if not recs:
            return True  # emptied by an earlier pass
        rtype, _ = records.parse_control_record(recs[0])
        if rtype == records.ControlRecordType.ABORT:
            meta = self._aborted.pop(h.producer_id, None)
            if meta is not None and meta[1] is not None:
                self.kept_entries.append(meta[0])
                return False
            return True
        if rtype == records.ControlRecordType.COMMIT:
            if h.producer_id in self._committed:
                self._committed.discard(h.producer_id)
                return False
            return True
        return False


@dataclass
class _GroupOutput:
    """What cleaning one group of segments gave: the cleaned size, whether anything changed, records removed."""
    size: int = 0
    changed: bool = False
    removed: int = 0


COPY_CHUNK = 1 << 20


class _CleanedWriter:
    """The cleaned copy of a group, `<first base>.log.cleaned`, written as the pass goes
    (Kafka's cleanInto appends each filtered read buffer to the new segment), so what a
    group keeps is never held in memory whole. Until the first change, batches kept byte
    for byte are only noted as ranges of their segment: a group of one segment that
    keeps everything writes nothing."""

    def __init__(self, fs, path: str, eager: bool):
        self.fs, self.path = fs, path
        self.file = None
        self.pending: list[list] = []  # [segment, position, length], each a contiguous range
        if eager:
            self.open()

    def keep(self, seg: LogSegment, pos: int, data) -> None:
        """A batch kept as it is (``data``, read from ``seg`` at ``pos``)."""
        if self.file is not None:
            self.file.append(data)
            return
        last = self.pending[-1] if self.pending else None
        if last is not None and last[0] is seg and last[1] + last[2] == pos:
            last[2] += len(data)
        else:
            self.pending.append([seg, pos, len(data)])

    def write(self, data) -> None:
        """A rebuilt batch (the group changes)."""
        self.open()
        self.file.append(data)

    def open(self) -> None:
        if self.file is not None:
            return
        f = self.file = self.fs.open(self.path)
        f.truncate(0)
        for seg, pos, length in self.pending:
            end = pos + length
            while pos < end:
                chunk = seg.read(pos, min(COPY_CHUNK, end - pos))
                if not chunk:
                    raise OSError(f"{seg.path}: short read at {pos} while copying kept batches")
                f.append(chunk)
                pos += len(chunk)
        self.pending = []

    def commit(self) -> None:
        self.open()
        self.file.fsync()

    def close(self) -> None:
        if self.file is not None:
            self.file.close()
            self.file = None

    def discard(self) -> None:
        """Best effort: the file goes (a crash leaves it to PartitionLog's load to remove)."""
        try:
            self.close()
            if self.fs.exists(self.path):
                self.fs.remove(self.path)
        except Exception:  # noqa: BLE001
            pass


class LogCleaner:
    """One cleaner (Kafka's CleanerThread + Cleaner): the progress lives in each log's
    cleaner checkpoint; the only state kept between runs is which logs are uncleanable.
    Each pass has its own offset map, of at most ``config.offset_map_memory`` bytes, so
    passes of separate logs may run in separate threads."""

    def __init__(self, config: CleanerConfig | None = None):
        self.config = config or CleanerConfig()
        # Kafka's LogCleanerManager.uncleanablePartitions: log dir -> (log, why). run_once
        # skips these until the log is deleted or replaced (or the broker restarts).
        self.uncleanable: dict[str, tuple[PartitionLog, str]] = {}
        # what Kafka's cleaner metrics show: the last run_once (timeOfLastRun), the highest dirty
        # ratio it saw (max-dirty-percent) and the last pass's result (recopy, buffer utilization)
        self.last_run_ms: int | None = None
        self.dirtiest_ratio = 0.0
        self.last_result: CleanResult | None = None

    def is_uncleanable(self, log: PartitionLog) -> bool:
        entry = self.uncleanable.get(log.dir)
        return entry is not None and entry[0] is log

    def _mark_uncleanable(self, log_: PartitionLog, e: BaseException) -> None:
        log.warning("Unexpected exception thrown when cleaning log %s. Marking its partition as uncleanable: "
                    "%s: %s", log_.dir, type(e).__name__, e, exc_info=e)
        self.uncleanable[log_.dir] = (log_, f"{type(e).__name__}: {e}")

    def plan(self, log: PartitionLog, now_ms: int) -> _Plan | None:
        """Kafka's cleanableOffsets + LogToClean + maxCompactionDelay, under the log lock."""
        with log.lock:
            cfg = log.config
            segs = list(log.segments)
            active = segs[-1]
            bases = [s.base_offset for s in segs]
            leo = log.log_end_offset
            start = log.log_start_offset
            cp = log.cleaner_checkpoint
            first_dirty = start if cp < start or cp > leo else cp

            def floor(offset: int) -> int:  # index of the segment holding offset (0 if before all)
                i = 0
                for j, b in enumerate(bases):
                    if b <= offset:
                        i = j
                    else:
                        break
                return i

            dirty_closed = [s for s in segs[floor(first_dirty):-1]] if first_dirty < active.base_offset else []
            uncleanable = min(log.last_stable_offset, active.base_offset)
            if cfg.min_compaction_lag_ms > 0:
                for s in dirty_closed:
                    if s.max_timestamp > now_ms - cfg.min_compaction_lag_ms:
                        uncleanable = min(uncleanable, s.base_offset)
                        break
            uncleanable = max(first_dirty, uncleanable)
            # rounded down to the start of its segment (the active segment's at most)
            end = active.base_offset if uncleanable >= active.base_offset else segs[floor(uncleanable)].base_offset
            clean_bytes = sum(s.size for s in segs if s.base_offset < first_dirty)
            lo = min(first_dirty, end)
            dirty_bytes = 0 if lo == end else sum(
                s.size for s in segs[floor(lo):] if s.base_offset < end)
            # max.compaction.lag.ms: a dirty closed segment whose first batch is too old
            firsts = [s.first_batch_timestamp for s in dirty_closed if s.first_batch_timestamp > 0]
            need_now = bool(firsts) and min(firsts) < now_ms - max(cfg.max_compaction_lag_ms, 0)
            chosen = [(s, s.size, s.generation) for s in segs if s.base_offset < end]
            if clean_bytes + dirty_bytes == 0 or not chosen:
                return None
            return _Plan(chosen, first_dirty, end, clean_bytes, dirty_bytes, need_now)

    def dirty_ratio(self, log: PartitionLog, now_ms: int) -> float:
        p = self.plan(log, now_ms)
        return p.ratio if p else 0.0

    def clean(self, log: PartitionLog, now_ms: int, *, force: bool = False) -> CleanResult | None:
        if not log.config.compact:
            return None
        plan = self.plan(log, now_ms)
        if plan is None or (not force and not plan.should_clean(log.config.min_cleanable_dirty_ratio)):
            return None
        return self._clean(log, plan, now_ms)

    def _clean(self, log: PartitionLog, plan: _Plan, now_ms: int) -> CleanResult:
        """One pass (clean() and run_once both come here): no file of the log is parked
        while this thread reads them."""
        with log.files_held():
            return self._clean_held(log, plan, now_ms)

    def _clean_held(self, log: PartitionLog, plan: _Plan, now_ms: int) -> CleanResult:
        config = self.config  # (one pass, one config: a dynamic change takes the next pass)
        config.check()
        cfg = log.config
        result = CleanResult(plan.first_dirty, plan.end, plan.ratio, first_uncleanable_offset=plan.end)
        with log.lock:
            aborted = log.aborted_transactions(0, plan.end)
            active_producers = {}
            for pid, e in log.producer_state.producers.items():
                active_producers[pid] = (e.batches[-1].last_offset if e.batches else None, e.epoch)
        seen = set()
        aborted = [a for a in aborted if not (a in seen or seen.add(a))]
        try:
            offset_map, full = self._build_offset_map(log, plan, aborted, config)
        except _LogClosed:
            result.aborted = True
            return result
        except (OSError, ValueError, WireError):
            if all(seg in log.segments for seg, _, _ in plan.segments):
                raise
            result.aborted = True  # retention or truncation removed a segment under us
            return result
        end = offset_map.latest_offset + 1  # Kafka's doClean: endOffset = map.latestOffset + 1
        result.end_offset = end
        result.map_entries = offset_map.size
        result.buffer_utilization = offset_map.utilization
        result.map_full = full
        txn = _TxnTracker(aborted)
        # Kafka: groupSegmentsBySize(log.logSegments(0, endOffset), ..., firstUncleanableOffset)
        segments = [entry for entry in plan.segments if entry[0].base_offset < end]
        for group in self.group_segments_by_size(segments, cfg.segment_bytes,
                                                 cfg.segment_index_bytes, plan.end):
            if log.closed or log.gone or any(seg not in log.segments for seg, _, _ in group):
                result.aborted = True
                return result
            txn.kept_entries = []
            cleaned_path = group[0][0].path + ".cleaned"
            # a group of one kept byte for byte is left alone (nothing written)
            sink = _CleanedWriter(log.fs, cleaned_path, eager=len(group) > 1)
            try:
                out = self._filter_group(log, group, offset_map, txn, active_producers, plan.end, now_ms,
                                         cfg.delete_retention_ms, sink)
                if not out.changed and len(group) == 1:
                    continue  # byte for byte what is there already
                sink.commit()
            except Exception as e:
                sink.discard()
                if isinstance(e, _LogClosed) or (isinstance(e, (OSError, ValueError, WireError))
                                                 and not all(seg in log.segments for seg, _, _ in group)):
                    result.aborted = True
                    return result
                raise
            finally:
                sink.close()
            if not log.replace_segments([s for s, _, _ in group], cleaned_path, now_ms,
                                        [(size, gen) for _, size, gen in group], txn.kept_entries):
                if log.fs.exists(cleaned_path):
                    log.fs.remove(cleaned_path)
                result.aborted = True
                return result
            result.segments_rewritten += len(group)
            result.segments_written += 1
            result.bytes_before += sum(size for _, size, _ in group)
            result.bytes_after += out.size
            result.records_removed += out.removed
        log.set_cleaner_checkpoint(end)
        return result

    @staticmethod
    def group_segments_by_size(segments, max_size: int, max_index_size: int, end: int):
        """Kafka's Cleaner.groupSegmentsBySize: consecutive segments whose log bytes sum
        to at most segment.bytes, offset- and time-index bytes each to at most
        segment.index.bytes, and whose offsets fit one segment (int32 deltas)."""
        groups = []
        i, n = 0, len(segments)
        while i < n:
            seg, size, _ = segments[i]
            group = [segments[i]]
            log_size = size
            oi = len(seg.offset_index.keys) * OFFSET_INDEX_ENTRY
            ti = len(seg.time_index.keys) * TIME_INDEX_ENTRY
            i += 1
            while i < n:
                nxt, nsize, _ = segments[i]
                noi = len(nxt.offset_index.keys) * OFFSET_INDEX_ENTRY
                nti = len(nxt.time_index.keys) * TIME_INDEX_ENTRY
                last = segments[i + 1][0].base_offset - 1 if i + 1 < n else end - 1
                if (log_size + nsize > max_size or oi + noi > max_index_size
                        or ti + nti > max_index_size
                        or (nsize != 0 and last - group[0][0].base_offset > INT32_MAX)):
                    break
                group.append(segments[i])
                log_size += nsize
                oi += noi
                ti += nti
                i += 1
            groups.append(group)
        return groups

    @staticmethod
    def _batches(plog: PartitionLog, seg: LogSegment, size: int):
        for pos, h in seg.batches(0, size):
            if plog.closed:
                raise _LogClosed
            yield pos, h, seg.read(pos, h.size_in_bytes)

    def _build_offset_map(self, plog: PartitionLog, plan: _Plan, aborted: list[AbortedTxn],
                          config: CleanerConfig) -> tuple[SkimpyOffsetMap, bool]:
        """Kafka's Cleaner.buildOffsetMap: key -> offset of its latest record from the first
        dirty offset on, aborted data left out, segment by segment until the map holds
        max_map_size keys; (map, whether it filled up). map.latest_offset + 1 is where
        the pass ends: the next segment's base after a segment mapped whole (offset gaps
        included), else the last offset mapped."""
        start = plan.first_dirty
        limit = config.max_map_size
        # the table is sized for at most as many keys as offsets in the dirty range
        offset_map = SkimpyOffsetMap(config.offset_map_memory,
                                     expected_entries=max(0, min(limit, plan.end - start)))
        offset_map.update_latest_offset(start - 1)  # nothing dirty: the pass ends at the first dirty offset
        # as Kafka's collectAbortedTransactions(startOffset, ...): only transactions that end
        # in the dirty range; one aborted before it has its marker there too, which this scan
        # does not read, so it would mark that producer's later transactions aborted
        txn = _TxnTracker([a for a in aborted if a.last_offset >= start])
        segs = plan.segments
        for i, (seg, size, _) in enumerate(segs):
            next_start = segs[i + 1][0].base_offset if i + 1 < len(segs) else plan.end
            if next_start <= start:
                continue  # Kafka's log.logSegments(start, end): segments overlapping the dirty range
            if self._map_segment(plog, seg, size, offset_map, start, limit, txn):
                log.debug("Offset map for %s is full, segment with base offset %d is partially mapped "
                          "(up to offset %d of [%d, %d))", seg.directory, seg.base_offset,
                          offset_map.latest_offset, start, plan.end)
                return offset_map, True
            offset_map.update_latest_offset(next_start - 1)
        return offset_map, False

    def _map_segment(self, plog: PartitionLog, seg: LogSegment, size: int, offset_map: SkimpyOffsetMap, start: int,
                     limit: int, txn: "_TxnTracker") -> bool:
        """Kafka's buildOffsetMapForSegment; True if the map filled up in this segment."""
        for _, h, data in self._batches(plog, seg, size):
            if h.last_offset < start:
                continue
            if h.is_control:
                _, recs = records.decode_records(data, 0, check_crc=False)
                txn.on_control(h, recs)
            elif not txn.on_batch(h):
                _, recs = records.decode_records(data, 0, check_crc=False)
                base = h.base_offset
                items = [(r.key, base + r.offset_delta) for r in recs
                         if r.key is not None and base + r.offset_delta >= start]
                if items and offset_map.put_while_below(items, limit) < len(items):
                    return True
            offset_map.update_latest_offset(h.last_offset)
        return False

    def _filter_group(self, plog: PartitionLog, group, offset_map: SkimpyOffsetMap, txn: _TxnTracker,
                      active_producers: dict, round_end: int, now_ms: int, delete_retention_ms: int,
                      sink: _CleanedWriter) -> _GroupOutput:
        """Kafka's cleanInto + MemoryRecords.filterTo over each segment of the group,
        written to ``sink`` as it goes."""
        out = _GroupOutput()

        def emit(data) -> None:  # a batch as it is
            sink.keep(seg, pos, data)
            out.size += len(data)

        def emit_new(data) -> None:  # a rebuilt batch
            out.changed = True
            sink.write(data)
            out.size += len(data)

        def drop() -> None:
            out.changed = True
            sink.open()

        for seg, size, _ in group:
            for pos, h, data in self._batches(plog, seg, size):
                _, recs = records.decode_records(data, 0, check_crc=False)
                if h.is_control:
                    can_discard = txn.on_control(h, recs)
                    horizon = h.delete_horizon_ms
                    discard_records = can_discard and horizon is not None and horizon <= now_ms
                else:
                    can_discard = discard_records = txn.on_batch(h)
                if h.producer_id >= 0 and self._last_of_active_producer(h, active_producers):
                    retain_empty = True
                else:
                    retain_empty = h.next_offset == round_end
                if discard_records and not retain_empty:
                    drop()
                    out.removed += len(recs)
                    continue
                if discard_records:
                    kept = []
                elif h.is_control:
                    kept = recs
                else:
                    kept = self._retained(h, recs, offset_map, now_ms)
                out.removed += len(recs) - len(kept)
                if kept:
                    need_horizon = (not h.has_delete_horizon and
                                    (any(r.value is None for r in kept) or (can_discard and h.is_control)))
                    if len(kept) == len(recs) and not need_horizon:
                        emit(data)
                        continue
                    if need_horizon:
                        horizon = now_ms + delete_retention_ms
                    else:
                        horizon = h.delete_horizon_ms
                    emit_new(self._rebuild(h, kept, horizon))
                elif retain_empty:
                    if recs:
                        emit_new(self._empty(h))
                    else:
                        emit(data)
                else:
                    drop()
        return out

    @staticmethod
    def _last_of_active_producer(h, active_producers: dict) -> bool:
        last = active_producers.get(h.producer_id)
        if last is None:
            return False
        last_data_offset, epoch = last
        if last_data_offset is not None:
            return h.last_offset == last_data_offset
        return h.is_control and h.producer_epoch == epoch

    @staticmethod
    def _retained(h, recs, offset_map: SkimpyOffsetMap, now_ms: int) -> list:
        """The records of data batch h the pass keeps (Kafka's Cleaner.shouldRetainRecord)."""
        base = h.base_offset
        latest = offset_map.latest_offset
        keys = [r.key for r in recs if r.key is not None and base + r.offset_delta <= latest]
        found = iter(offset_map.get_many(keys))
        horizon = h.delete_horizon_ms
        retain_deletes = horizon is None or now_ms < horizon  # a tombstone lives until its batch's horizon
        kept = []
        for r in recs:
            off = base + r.offset_delta
            if off > latest:
                kept.append(r)  # past what was mapped: this pass leaves it as it is
            elif r.key is None:
                continue  # Kafka's cleaner drops keyless records
            elif off < next(found):
                continue  # superseded by a later record with the same key
            elif r.value is not None or retain_deletes:
                kept.append(r)
        return kept

    @staticmethod
    def _rebuild(h, kept, horizon: int | None) -> bytes:
        """The batch with only `kept`, as Kafka's MemoryRecordsBuilder writes it: base
        offset, last offset delta, producer fields kept; baseTimestamp is the delete
        horizon when there is one, else the first kept record's timestamp; record
        timestamp deltas are against that; maxTimestamp is the kept records' largest
        (the append time under LogAppendTime)."""
        lat = h.timestamp_type == records.TimestampType.LOG_APPEND_TIME
        stamps = [h.max_timestamp if lat else r.timestamp(h) for r in kept]
        base_ts = horizon if horizon is not None else stamps[0]
        rebuilt = [records.Record(0, ts - base_ts, r.offset_delta, r.key, r.value, r.headers)
                   for r, ts in zip(kept, stamps)]
        return records.build_batch(
            rebuilt, base_offset=h.base_offset, compression=h.compression,
            timestamp_type=h.timestamp_type, base_timestamp=base_ts,
            max_timestamp=h.max_timestamp if lat else max(stamps),
            producer_id=h.producer_id, producer_epoch=h.producer_epoch,
            base_sequence=h.base_sequence, is_transactional=h.is_transactional,
            is_control=h.is_control, partition_leader_epoch=h.partition_leader_epoch,
            last_offset_delta=h.last_offset_delta, delete_horizon=horizon is not None)

    @staticmethod
    def _empty(h) -> bytes:
        """Kafka's DefaultRecordBatch.writeEmptyHeader: no records, no compression, no
        base timestamp, the batch's max timestamp, offsets and producer fields."""
        return records.build_batch(
            [], base_offset=h.base_offset, compression=0, timestamp_type=h.timestamp_type,
            base_timestamp=records.NO_TIMESTAMP, max_timestamp=h.max_timestamp,
            producer_id=h.producer_id, producer_epoch=h.producer_epoch,
            base_sequence=h.base_sequence, is_transactional=h.is_transactional,
            is_control=h.is_control, partition_leader_epoch=h.partition_leader_epoch,
            last_offset_delta=h.last_offset_delta)

    def run_once(self, logs, now_ms: int) -> tuple[PartitionLog, CleanResult] | None:
        """Kafka's grabFilthiestCompactedLog + clean: of the compacted logs whose dirty
        ratio exceeds min.cleanable.dirty.ratio or that need compaction now
        (max.compaction.lag.ms), clean the one with the highest dirty ratio. A pass
        that raises marks its log uncleanable (logged; the log is left as it was) and
        returns None, as Kafka's tryCleanFilthiestLog; uncleanable logs are skipped."""
        logs = list(logs)
        # Kafka's maintainUncleanablePartitions: forget logs that are gone
        current = {lg.dir: lg for lg in logs}
        for d, (lg, _) in list(self.uncleanable.items()):
            if current.get(d) is not lg:
                del self.uncleanable[d]
        self.last_run_ms = now_ms
        best, best_plan = None, None
        dirtiest = 0.0
        for lg in logs:
            # (a hollow log is empty: nothing to clean, and a plan would remake its segment objects, made
            # for good wherever the heap is then; in a storm, in its pymalloc arenas: issue 27)
            if lg.hollow or lg.closed or not lg.config.compact or self.is_uncleanable(lg):
                continue
            p = self.plan(lg, now_ms)
            if p is None:
                continue
            dirtiest = max(dirtiest, p.ratio)
            if not p.should_clean(lg.config.min_cleanable_dirty_ratio):
                continue
            if best_plan is None or p.ratio > best_plan.ratio:
                best, best_plan = lg, p
        self.dirtiest_ratio = dirtiest
        if best is None:
            return None
        try:
            result = self._clean(best, best_plan, now_ms)
            if not result.aborted:
                self.last_result = result
            return best, result
        except Exception as e:  # noqa: BLE001 - any failure of one log's pass (Kafka: LogCleaningException)
            self._mark_uncleanable(best, e)
            return None
