"""Log compaction (cleanup.policy=compact): keep the latest record per key.

LogCleaner.clean(log, now_ms) works on the closed segments only, reads them
without holding the log lock (closed segments are immutable), and swaps each
rewritten segment in under the lock: the cleaned copy is written and fsynced as
`<base>.log.cleaned`, the old indexes are removed, then the copy is renamed over
`<base>.log` (atomic), so a crash leaves either the old or the new segment, and a
leftover `.cleaned` file is deleted on open. Offsets are kept: a rewritten batch
keeps its base offset and lastOffsetDelta, records keep their offset deltas.
"""
from __future__ import annotations

from dataclasses import dataclass

from odradek.wire import records
from odradek.wire.exceptions import WireError

from . import errors
from .partition_log import PartitionLog
from .segment import LogSegment


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
    first_dirty_offset: int
    end_offset: int                 # new cleaner checkpoint
    dirty_ratio: float
    segments_rewritten: int = 0
    bytes_before: int = 0
    bytes_after: int = 0
    records_removed: int = 0
    aborted: bool = False


@dataclass
class _Plan:
    segments: list[tuple[LogSegment, int, int]]   # (segment, size, generation)
    first_dirty: int
    end: int
    clean_bytes: int
    dirty_bytes: int

    @property
    def ratio(self) -> float:
        total = self.clean_bytes + self.dirty_bytes
        return self.dirty_bytes / total if total else 0.0


class LogCleaner:
    """Stateless between runs (the progress lives in the log's cleaner checkpoint),
    so the broker can call clean() from one background thread per log dir."""

    def plan(self, log: PartitionLog, now_ms: int) -> _Plan | None:
        with log.lock:
            cfg = log.config
            closed = log.segments[:-1]
            first_dirty = max(log.cleaner_checkpoint, log.log_start_offset)
            bounds = [s.base_offset for s in log.segments[1:]]  # end (exclusive) of each closed seg
            end = first_dirty
            chosen = []
            clean_bytes = dirty_bytes = 0
            for seg, seg_end in zip(closed, bounds):
                if seg_end > log.last_stable_offset:
                    break  # an open transaction may still abort: its records must not supersede
                if seg_end <= first_dirty:
                    clean_bytes += seg.size
                else:
                    if cfg.min_compaction_lag_ms > 0 and seg.max_timestamp > now_ms - cfg.min_compaction_lag_ms:
                        break
                    dirty_bytes += seg.size
                end = max(end, seg_end)
                chosen.append((seg, seg.size, seg.generation))
            if end <= first_dirty or not chosen:
                return None
            return _Plan(chosen, first_dirty, end, clean_bytes, dirty_bytes)

    def dirty_ratio(self, log: PartitionLog, now_ms: int) -> float:
        p = self.plan(log, now_ms)
        return p.ratio if p else 0.0

    def clean(self, log: PartitionLog, now_ms: int, *, force: bool = False) -> CleanResult | None:
        if not log.config.compact:
            return None
        plan = self.plan(log, now_ms)
        if plan is None or (not force and plan.ratio < log.config.min_cleanable_dirty_ratio):
            return None
        result = CleanResult(plan.first_dirty, plan.end, plan.ratio)
        log_start = log.log_start_offset
        # records of aborted transactions are dropped and never supersede anything
        aborted = {}
        for a in log.aborted_transactions(log_start, plan.end):
            aborted.setdefault(a.producer_id, []).append((a.first_offset, a.last_offset))
        self._aborted = aborted
        try:
            latest = self._offset_map(plan, log_start)
        except (OSError, ValueError, WireError):
            if all(seg in log.segments for seg, _, _ in plan.segments):
                raise
            result.aborted = True  # retention or truncation removed a segment under us
            return result
        horizon = now_ms - log.config.delete_retention_ms
        for seg, size, gen in plan.segments:
            if seg not in log.segments:
                result.aborted = True
                return result
            try:
                out, removed = self._filter_segment(seg, size, latest, horizon, log_start)
            except (OSError, ValueError, WireError):
                if seg in log.segments:
                    raise
                result.aborted = True
                return result
            if removed == 0:
                continue
            cleaned_path = seg.path + ".cleaned"
            f = log.fs.open(cleaned_path)
            try:
                f.truncate(0)
                for chunk in out:
                    f.append(chunk)
                f.fsync()
                new_size = f.size()
            finally:
                f.close()
            if not log.replace_segment(seg, cleaned_path, now_ms, size, gen):
                log.fs.remove(cleaned_path)
                result.aborted = True
                return result
            result.segments_rewritten += 1
            result.bytes_before += size
            result.bytes_after += new_size
            result.records_removed += removed
        log.set_cleaner_checkpoint(plan.end)
        return result

    _aborted: dict = {}

    def _is_aborted(self, h) -> bool:
        if not h.is_transactional or h.is_control:
            return False
        return any(first <= h.base_offset <= last for first, last in self._aborted.get(h.producer_id, ()))

    @staticmethod
    def _batches(seg: LogSegment, size: int):
        for pos, h in seg.batches(0, size):
            yield pos, h, seg.read(pos, h.size_in_bytes)

    def _offset_map(self, plan: _Plan, log_start: int) -> dict[bytes, int]:
        latest: dict[bytes, int] = {}
        for seg, size, _ in plan.segments:
            if seg.base_offset < plan.first_dirty and seg.next_offset <= plan.first_dirty:
                continue
            for _, h, data in self._batches(seg, size):
                if h.is_control or h.last_offset < max(plan.first_dirty, log_start) or self._is_aborted(h):
                    continue
                _, recs = records.decode_records(data, 0, check_crc=False)
                for r in recs:
                    off = h.base_offset + r.offset_delta
                    if r.key is not None and off >= log_start:
                        latest[r.key] = off
        return latest

    def _filter_segment(self, seg: LogSegment, size: int, latest: dict, horizon: int,
                        log_start: int) -> tuple[list[bytes], int]:
        out: list[bytes] = []
        removed_total = 0
        for _, h, data in self._batches(seg, size):
            if h.is_control or h.last_offset < log_start:
                out.append(data)
                continue
            _, recs = records.decode_records(data, 0, check_crc=False)
            kept = []
            if self._is_aborted(h):
                removed_total += len(recs)
                continue
            for r in recs:
                off = h.base_offset + r.offset_delta
                if r.key is not None and off >= log_start:
                    if latest.get(r.key, off) > off:
                        continue  # superseded by a later record with the same key
                    if r.value is None and r.timestamp(h) < horizon:
                        continue  # tombstone past delete.retention.ms
                kept.append(r)
            removed = len(recs) - len(kept)
            removed_total += removed
            if removed == 0:
                out.append(data)
            elif kept:
                lat = h.timestamp_type == records.TimestampType.LOG_APPEND_TIME
                out.append(records.build_batch(
                    kept, base_offset=h.base_offset, compression=h.compression,
                    timestamp_type=h.timestamp_type, base_timestamp=h.base_timestamp,
                    max_timestamp=h.max_timestamp if lat else None,
                    producer_id=h.producer_id, producer_epoch=h.producer_epoch,
                    base_sequence=h.base_sequence, is_transactional=h.is_transactional,
                    partition_leader_epoch=h.partition_leader_epoch,
                    last_offset_delta=h.last_offset_delta))
        return out, removed_total

    def run_once(self, logs, now_ms: int) -> tuple[PartitionLog, CleanResult] | None:
        """Clean the compacted log with the highest dirty ratio above its threshold."""
        best, best_ratio = None, -1.0
        for log in logs:
            if not log.config.compact:
                continue
            r = self.dirty_ratio(log, now_ms)
            if r >= log.config.min_cleanable_dirty_ratio and r > best_ratio and r > 0:
                best, best_ratio = log, r
        if best is None:
            return None
        res = self.clean(best, now_ms)
        return (best, res) if res else None
