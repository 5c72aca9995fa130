"""One log segment: `%020d.log` plus its sparse `.index` and `.timeindex`."""
from __future__ import annotations

import logging
import posixpath
from dataclasses import dataclass
from sys import getrefcount as _refcount
from typing import Iterator

from odradek.wire import records
from odradek.wire.exceptions import WireError

from .batchio import SegmentTail
from .fs import FileSystem, ParkWatch, RealFile
from .index import IndexCorruptError, OffsetIndex, TimeIndex
from .txn_index import SUFFIX as TXN_INDEX_SUFFIX
from .txn_index import TxnIndex

log = logging.getLogger("odradek.log.segment")

HEADER_SIZE = 61          # magic-2 batch header: enough to read every header field
SCAN_CHUNK = 64 * 1024
INT32_MAX = 2147483647


def file_name(base_offset: int, suffix: str) -> str:
    return f"{base_offset:020d}{suffix}"


@dataclass
class SegmentScan:
    """Result of validating a segment from the start."""
    valid_bytes: int
    truncated_bytes: int
    error: str | None = None
    error_offset: int = -1
    # the error is only a cut-short last batch (a write that did not finish), no bad bytes
    torn_tail: bool = False


class LogSegment(SegmentTail):
    """The state of the segment's end (size, next_offset, timestamps, index bookkeeping,
    log, indexes, fd) lives in SegmentTail's fields, which append_plain updates in C."""

    def __init__(self, fs: FileSystem, directory: str, base_offset: int, *,
                 index_interval_bytes: int, index_max_bytes: int, created_ms: int,
                 roll_jitter_ms: int = 0, preallocate_bytes: int = 0, suffix: str = ""):
        """``suffix``: every file of the segment has it after its name (the cleaner's copy,
        ``.cleaned``) until install() renames them to their names."""
        self.fs = fs
        self.directory = directory
        self.base_offset = base_offset
        self.index_interval_bytes = index_interval_bytes
        self.path = posixpath.join(directory, file_name(base_offset, ".log")) + suffix
        self.log = fs.open(self.path)
        # append_plain writes through this descriptor (only a RealFile's: its _size follows)
        self._real = type(self.log) is RealFile  # parkable (see park())
        self.fd = self.log.fileno() if self._real else -1
        self.offset_index = OffsetIndex(fs, posixpath.join(directory, file_name(base_offset, ".index")) + suffix,
                                        base_offset, index_max_bytes)
        self.time_index = TimeIndex(fs, posixpath.join(directory, file_name(base_offset, ".timeindex")) + suffix,
                                    base_offset, index_max_bytes)
        # what append_plain appends to (the indexes never replace these arrays)
        oi, ti = self.offset_index, self.time_index
        self._oi_keys, self._oi_values, self._oi_max_entries = oi.keys, oi.values, oi.max_entries
        self._ti_keys, self._ti_values, self._ti_max_entries = ti.keys, ti.values, ti.max_entries
        self.size = self.log.size()
        # preallocate (a new file only, as Kafka): the file is made segment.bytes long
        # now and trimmed to its data when the segment stops being active or closes
        self.preallocated = bool(preallocate_bytes) and self.size == 0
        if self.preallocated:
            self.log.preallocate(preallocate_bytes)
        self.next_offset = base_offset
        self.max_offset = base_offset + INT32_MAX  # offsets are stored relative, as int32
        self.max_timestamp = -1
        self.offset_of_max_timestamp = base_offset
        self.first_batch_timestamp = -1
        self.created_ms = created_ms
        self.roll_jitter_ms = roll_jitter_ms  # segment.jitter.ms drawn for this segment
        self.bytes_since_last_index = 0
        self.dirty = False  # bytes written since last fsync
        self.generation = 0  # bumped by truncation, so the cleaner can detect a race
        self.index_full = False
        self.txn_index_path = posixpath.join(directory, file_name(base_offset, TXN_INDEX_SUFFIX)) + suffix
        self._txn_index: TxnIndex | None = None

    def install(self, suffix: str) -> None:
        """The files of a segment made with ``suffix`` renamed to their names (the log file first,
        then its indexes, then its transaction index, if there), and the segment using those."""
        n = len(suffix)
        if self._txn_index is not None:
            raise ValueError(f"{self.path}: its transaction index is open")
        for f in (self, self.offset_index, self.time_index):
            if self.fs.exists(f.path):
                self.fs.rename(f.path, f.path[:-n])
            f.path = f.path[:-n]
        if self.fs.exists(self.txn_index_path):
            self.fs.rename(self.txn_index_path, self.txn_index_path[:-n])
        self.txn_index_path = self.txn_index_path[:-n]
        self.log.path = self.path  # (a parked file opens again by its path)

    @property
    def txn_index(self) -> TxnIndex:
        """Aborted transactions whose abort marker is in this segment (opened lazily)."""
        if self._txn_index is None:
            self._txn_index = TxnIndex(self.fs, self.txn_index_path)
        return self._txn_index

    # -------------------------------------------------------------- writing

    def append_batch(self, record_set, base_offset: int, leader_epoch: int | None,
                     last_offset: int, max_ts: int) -> None:
        """Append one batch; the file write puts base_offset (and leader_epoch) into
        its header, leaving record_set as it is (no copy)."""
        start = self.log.append_batch(record_set, base_offset, leader_epoch)
        if self.fd < 0 and self._real:  # written after park(): append_plain may write again
            self.fd = self.log.fileno()
        n = len(record_set)
        # _track, inlined: this runs once per produced batch
        if self.first_batch_timestamp < 0 and max_ts >= 0:
            self.first_batch_timestamp = max_ts
        if max_ts > self.max_timestamp:
            self.max_timestamp = max_ts
            self.offset_of_max_timestamp = last_offset
        if self.bytes_since_last_index > self.index_interval_bytes:
            oi, ti = self.offset_index, self.time_index
            oi.keys.append(last_offset)  # OffsetIndex.append: offsets only grow here
            oi.values.append(start)
            if not ti.keys or self.max_timestamp > ti.keys[-1]:
                ti.append(self.max_timestamp, self.offset_of_max_timestamp)
            self.bytes_since_last_index = n
            self.index_full = len(oi.keys) >= oi.max_entries or len(ti.keys) >= ti.max_entries
        else:
            self.bytes_since_last_index += n
        self.next_offset = last_offset + 1
        self.size = start + n
        self.dirty = True

    def append(self, buf, batches: list[tuple[int, int, int, int]]) -> None:
        """Write `buf` (one or more batches whose offsets are already assigned) in one
        write. batches: (relative position, last offset, max timestamp, size)."""
        start = self.log.append(buf)
        if self.fd < 0 and self._real:
            self.fd = self.log.fileno()
        for rel, last_offset, max_ts, size in batches:
            self._track(start + rel, last_offset, max_ts, size)
        self.size = start + len(buf)
        self.dirty = True

    def _track(self, position: int, last_offset: int, max_ts: int, size: int) -> None:
        if self.first_batch_timestamp < 0 and max_ts >= 0:
            self.first_batch_timestamp = max_ts
        if max_ts > self.max_timestamp:
            self.max_timestamp = max_ts
            self.offset_of_max_timestamp = last_offset
        if self.bytes_since_last_index > self.index_interval_bytes:
            self.offset_index.append(last_offset, position)
            self.time_index.append(self.max_timestamp, self.offset_of_max_timestamp)
            self.bytes_since_last_index = 0
            self.index_full = self.offset_index.is_full or self.time_index.is_full
        self.bytes_since_last_index += size
        self.next_offset = last_offset + 1

    def _refresh_index_full(self) -> None:
        self.index_full = self.offset_index.is_full or self.time_index.is_full

    def can_hold(self, last_offset: int) -> bool:
        return last_offset <= self.max_offset

    def flush(self) -> None:
        if self.dirty:
            self.log.fsync()
            self.dirty = False
        if self.size:  # (an index file is absent only while the segment is empty)
            self.offset_index.create_if_absent()
            self.time_index.create_if_absent()
        self.offset_index.flush()
        self.time_index.flush()
        if self._txn_index is not None:
            self._txn_index.flush()

    def write_indexes(self) -> None:
        """The index entries written into their files, not fsynced (a roll: the fsyncs are
        another thread's, see unsynced_files)."""
        if self.size:
            self.offset_index.create_if_absent()
            self.time_index.create_if_absent()
        self.offset_index.flush(fsync=False)
        self.time_index.flush(fsync=False)

    def unsynced_files(self) -> tuple[list[str], tuple[int, int, int, int, int]]:
        """The paths of this segment's files an fsync would make durable (after write_indexes: the
        indexes' entries are in their files), and what it holds now, for mark_synced once another
        thread fsynced them by these paths, without the log's lock."""
        paths = [self.path] if self.dirty else []
        oi, ti, txn = self.offset_index, self.time_index, self._txn_index
        if oi.unsynced:
            paths.append(oi.path)
        if ti.unsynced:
            paths.append(ti.path)
        if txn is not None and txn.unsynced:
            paths.append(txn.path)
        return paths, (self.size, self.generation, len(oi), len(ti), len(txn.entries) if txn is not None else 0)

    def mark_synced(self, held: tuple[int, int, int, int, int]) -> None:
        """The files unsynced_files named were fsynced while the segment held ``held``: durable as
        far as they still hold just that (a truncation meanwhile leaves them to the next flush)."""
        size, generation, n_oi, n_ti, n_txn = held
        if self.size != size or self.generation != generation:
            return
        self.dirty = False
        self.offset_index.mark_synced(n_oi)
        self.time_index.mark_synced(n_ti)
        if self._txn_index is not None:
            self._txn_index.mark_synced(n_txn)

    def mark_unsynced(self) -> None:
        """Recovered after an unclean stop: the bytes found may not be durable yet, so the next
        flush fsyncs the data and the indexes (recover() rewrote those without an fsync)."""
        self.dirty = True
        if self._txn_index is not None or self.fs.exists(self.txn_index_path):
            self.txn_index.mark_unsynced()

    def on_become_inactive(self) -> None:
        """Kafka appends the final max-timestamp entry when a segment is rolled (and
        trims a preallocated file to its data)."""
        self.trim()
        if self.max_timestamp >= 0:
            ti = self.time_index
            if not ti.keys or self.max_timestamp > ti.keys[-1]:
                ti.keys.append(self.max_timestamp)
                ti.values.append(self.offset_of_max_timestamp)

    def trim(self) -> None:
        """Cut a preallocated file back to the bytes written (fsynced by the next flush)."""
        if self.preallocated:
            self.log.truncate(self.size)
            self.preallocated = False
            self.dirty = True

    def park(self, watch: ParkWatch | None = None) -> bool:
        """Give back the log file's descriptor while nothing holds the file (a fetch's
        FileSlice does until it is sent); the next use opens it again (calling
        watch.wake()), and the next append hands append_plain the new descriptor.
        True if parked now."""
        if self.holds_no_descriptor:
            return False
        if _refcount(self.log) > 2:  # 2 = this segment's reference + getrefcount's argument
            return False
        self.fd = -1
        self.log.park(watch)
        return True

    @property
    def holds_no_descriptor(self) -> bool:
        """Parked, or a file that is never parked (not a RealFile)."""
        return not self._real or self.fd < 0 and self.log.parked

    def unpark(self) -> None:
        """Open the file again now (if parked), while its path is still its own."""
        if self._real:
            self.fd = self.log.fileno()

    def discard_unwritten(self) -> None:
        """A write into this segment failed (ENOSPC, EIO) after part of it landed: cut the
        file back to its last whole batch, so no later write builds on a torn one."""
        self.log.truncate(self.size)
        self.preallocated = False

    # -------------------------------------------------------------- reading

    def read(self, position: int, length: int) -> bytes:
        return self.log.read(position, length)

    def batches(self, start: int = 0, end: int | None = None) -> Iterator[tuple[int, "records.BatchHeader"]]:
        """(position, header) of every batch starting in [start, end); headers only."""
        end = self.size if end is None else end
        pos = start
        chunk = b""
        chunk_pos = pos
        # Read sizes: a first read covering one index interval (where find_batch's
        # target usually is), then SCAN_CHUNK while batches are small; after a big
        # batch only its successor's header, as Kafka reads headers. A 64 KiB read to
        # parse one 61-byte header was a quarter of the bytes a 1 MiB fetch sends.
        want = min(SCAN_CHUNK, self.index_interval_bytes + HEADER_SIZE)
        while pos < end:
            rel = pos - chunk_pos
            if rel < 0 or rel + HEADER_SIZE > len(chunk):
                chunk = self.log.read(pos, min(want, self.size - pos))
                chunk_pos, rel = pos, 0
                if len(chunk) < HEADER_SIZE:
                    return
            h = records.read_batch_header(chunk, rel)
            yield pos, h
            size = h.size_in_bytes
            want = HEADER_SIZE if size >= SCAN_CHUNK // 16 else SCAN_CHUNK
            pos += size

    def find_batch(self, offset: int) -> tuple[int, "records.BatchHeader"] | None:
        """Position and header of the first batch whose last offset >= offset."""
        _, pos = self.offset_index.lookup(offset)
        for p, h in self.batches(pos):
            if h.last_offset >= offset:
                return p, h
        return None

    def position_of(self, offset: int) -> int:
        """Position of the first batch with last offset >= offset (or the end)."""
        found = self.find_batch(offset)
        return self.size if found is None else found[0]

    # -------------------------------------------------------------- recovery

    def recover(self, min_offset: int, truncate: bool = True) -> SegmentScan:
        """Validate every batch (CRC included), rebuild both indexes, truncate at the
        first invalid or partial batch. min_offset: offsets must not go below it.
        truncate=False: leave the file as it is (the segment then ends, in memory, at
        the last valid batch)."""
        self.offset_index.reset()
        self.time_index.reset()
        self._reset_stats()
        pos = 0
        expected = min_offset
        size = self.log.size()
        error = None
        err_offset = -1
        torn = False
        while pos < size:
            head = self.log.read(pos, HEADER_SIZE)
            try:
                h = records.read_batch_header(head, 0)
            except WireError as e:
                error = f"unreadable batch header: {e}"
                torn = size - pos < HEADER_SIZE
                break
            if h.batch_length < HEADER_SIZE - 12 or pos + h.size_in_bytes > size:
                error = f"partial batch ({h.size_in_bytes} bytes, {size - pos} left)"
                err_offset = h.base_offset
                torn = h.batch_length >= HEADER_SIZE - 12 and h.base_offset >= expected
                break
            data = self.log.read(pos, h.size_in_bytes)
            try:
                records.validate_batch(data, 0)
            except WireError as e:
                error = f"invalid batch: {e}"
                err_offset = h.base_offset
                break
            if h.base_offset < expected:
                error = f"offset {h.base_offset} below expected {expected}"
                err_offset = h.base_offset
                break
            self._track(pos, h.last_offset, h.max_timestamp, h.size_in_bytes)
            expected = h.last_offset + 1
            pos += h.size_in_bytes
        truncated = size - pos
        if truncated and truncate:
            self.log.truncate(pos)
        self.preallocated = False
        self.size = pos
        if truncate:
            self.offset_index.flush(fsync=False)
            self.time_index.flush(fsync=False)
        return SegmentScan(pos, truncated, error, err_offset, torn)

    def _reset_stats(self) -> None:
        self.next_offset = self.base_offset
        self.max_timestamp = -1
        self.offset_of_max_timestamp = self.base_offset
        self.first_batch_timestamp = -1
        self.bytes_since_last_index = 0
        self.index_full = False

    def load_clean(self) -> str | None:
        """Trust the index files (clean shutdown or below the recovery point); scan
        only the tail after the last index entry. None when loaded, else why the
        segment must be recovered (indexes unusable, or the log does not end where
        its last batch does)."""
        try:
            self.offset_index.load(missing_ok=self.size == 0)
            self.time_index.load(missing_ok=self.size == 0)
        except IndexCorruptError as e:
            return str(e)
        oi, ti = self.offset_index, self.time_index
        if oi.values and oi.values[-1] >= self.size:
            return f"{oi.path}: an entry points past the end of the log"
        if ti.values and (ti.values[-1] < self.base_offset or ti.values[-1] > INT32_MAX + self.base_offset):
            return f"{ti.path}: an entry outside the segment"
        self._reset_stats()
        last = ti.last_entry()
        if last is not None:
            self.max_timestamp, self.offset_of_max_timestamp = last
        start = oi.values[-1] if oi.values else 0
        try:
            if self.size >= HEADER_SIZE:
                first = records.read_batch_header(self.log.read(0, HEADER_SIZE), 0)
                self.first_batch_timestamp = first.max_timestamp
            end = start
            for pos, h in self.batches(start):
                if pos + h.size_in_bytes > self.size:
                    return f"a partial batch at byte {pos}"
                if h.max_timestamp > self.max_timestamp:
                    self.max_timestamp = h.max_timestamp
                    self.offset_of_max_timestamp = h.last_offset
                self.next_offset = h.last_offset + 1
                end = pos + h.size_in_bytes
            if end != self.size:
                return f"{self.size - end} bytes after the last batch"
        except WireError as e:
            return f"an unreadable batch header: {e}"
        self.bytes_since_last_index = self.size - start
        self._refresh_index_full()
        return None

    # -------------------------------------------------------------- changes

    def truncate_to(self, offset: int) -> int:
        """Remove every batch whose last offset >= offset; return bytes removed."""
        pos = self.position_of(offset)
        removed = self.size - pos
        if removed <= 0:
            return 0
        self.log.truncate(pos)
        self.preallocated = False
        self.size = pos
        self.generation += 1
        self.offset_index.truncate_to_position(pos)
        self.time_index.truncate_to(offset)
        self.txn_index.truncate_to(offset)
        self.offset_index.flush(fsync=False)
        self.time_index.flush(fsync=False)
        # recompute stats from the (now shorter) segment tail
        start = self.offset_index.values[-1] if self.offset_index.values else 0
        last = self.time_index.last_entry()
        self._reset_stats()
        if last is not None:
            self.max_timestamp, self.offset_of_max_timestamp = last
        if self.size >= HEADER_SIZE:
            self.first_batch_timestamp = records.read_batch_header(self.log.read(0, HEADER_SIZE), 0).max_timestamp
        for _, h in self.batches(start):
            if h.max_timestamp > self.max_timestamp:
                self.max_timestamp, self.offset_of_max_timestamp = h.max_timestamp, h.last_offset
            self.next_offset = h.last_offset + 1
        self.bytes_since_last_index = self.size - start
        self._refresh_index_full()
        self.dirty = True
        return removed

    def close(self) -> None:
        try:
            self.trim()
        except OSError as e:  # the next start's recovery cuts the bytes past the last batch
            log.warning("could not trim %s to its %d bytes of batches: %s", self.path, self.size, e)
        self.fd = -1
        self.log.close()
        if self._txn_index is not None:
            self._txn_index.close()

    def detach(self) -> list[int]:
        """close() of a segment whose files are removed (or about to be), without the close(2)s:
        the descriptors still open (its log's, its transaction index's), which the caller closes,
        in a worker thread (the last close of a removed file frees its disk space: ~1.5 s a GiB
        on a disk). Nothing is written (a removed file is not trimmed). From now on the segment's
        files give those numbers to nobody (RealFile.detach)."""
        self.fd = -1
        fds = [self.log.detach()]
        if self._txn_index is not None:
            fds.append(self._txn_index.detach())
        return [fd for fd in fds if fd >= 0]

    def delete(self) -> None:
        self.close()
        for p in (self.path, self.offset_index.path, self.time_index.path, self.txn_index_path):
            if self.fs.exists(p):
                self.fs.remove(p)
