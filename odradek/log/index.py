"""Sparse offset index (.index) and time index (.timeindex) of one segment.

Kafka's layouts: offset index entries are (relative offset int32, position int32),
time index entries are (timestamp int64, relative offset int32), big-endian.
Entries live in memory (two arrays) and are written to the file lazily (on
flush / roll / close); after an unclean shutdown the indexes of unflushed
segments are rebuilt from the log, so a lost tail of an index costs nothing.
A flush with nothing new since the last fsync (an idle partition's) touches no file.
"""
from __future__ import annotations

import struct
from array import array
from bisect import bisect_left, bisect_right

from .fs import FileSystem


class IndexCorruptError(Exception):
    pass


class _Index:
    FMT: struct.Struct

    def __init__(self, fs: FileSystem, path: str, base_offset: int, max_bytes: int):
        self.fs = fs
        self.path = path
        self.base_offset = base_offset
        self.max_entries = max(1, max_bytes // self.FMT.size)
        # the same two arrays for the index's life (emptied in place, never replaced):
        # the segment's SegmentTail appends to them directly
        self.keys = array("q")
        self.values = array("q")
        self._persisted = 0  # entries already in the file
        self._synced = False  # the file holds exactly _persisted entries, fsynced
        # the file may be absent, which only an empty segment's may be (assume_synced_empty)
        self.maybe_absent = False

    def __len__(self) -> int:
        return len(self.keys)

    @property
    def synced_empty(self) -> bool:
        """No entry, and the file says so, fsynced."""
        return self._synced and self._persisted == 0 and not self.keys

    @property
    def is_full(self) -> bool:
        return len(self.keys) >= self.max_entries

    def _pack(self, key: int, value: int) -> bytes:
        raise NotImplementedError

    def _unpack(self, a: int, b: int) -> tuple[int, int]:
        raise NotImplementedError

    def load(self, missing_ok: bool = False) -> None:
        """Read the file; raise IndexCorruptError when it is not a plausible index. An absent
        file with ``missing_ok`` (an empty segment's: nothing to index) is an empty index."""
        del self.keys[:]
        del self.values[:]
        if not self.fs.exists(self.path):
            if missing_ok:
                self.assume_synced_empty()
                return
            raise IndexCorruptError(f"{self.path} missing")
        f = self.fs.open(self.path)
        try:
            data = f.read(0, f.size())
        finally:
            f.close()
        if len(data) % self.FMT.size:
            raise IndexCorruptError(f"{self.path} size {len(data)} not a multiple of {self.FMT.size}")
        for a, b in self.FMT.iter_unpack(data):
            k, v = self._unpack(a, b)
            if self.keys and (k < self.keys[-1] or v < self.values[-1]):
                raise IndexCorruptError(f"{self.path} entries not monotonic")
            self.keys.append(k)
            self.values.append(v)
        self._persisted = len(self.keys)
        # trusted only when durable: after a clean shutdown, or below the recovery point
        self._synced = True

    def assume_synced_empty(self) -> None:
        """No entry, and the file holds none durably, or is absent: a load of an EMPTY segment
        takes that for the same, so a flush with nothing to add writes nothing until the
        segment holds data (create_if_absent)."""
        self._persisted = 0
        self._synced = True
        self.maybe_absent = True

    def create_if_absent(self) -> None:
        """The segment holds data: its index file must exist (a load of a segment with data and
        no index recovers it), so the next flush writes it."""
        if self.maybe_absent:
            self.maybe_absent = False
            self._synced = False

    def reset(self) -> None:
        del self.keys[:]
        del self.values[:]
        self._persisted = 0
        self._synced = False
        self.maybe_absent = False
        f = self.fs.open(self.path)
        try:
            f.truncate(0)
        finally:
            f.close()

    def flush(self, fsync: bool = True) -> None:
        if self._synced and self._persisted == len(self.keys):
            return  # nothing since the last fsync
        f = self.fs.open(self.path)
        try:
            if f.size() != self._persisted * self.FMT.size:
                f.truncate(self._persisted * self.FMT.size)
            if self._persisted < len(self.keys):
                f.append(b"".join(self._pack(self.keys[i], self.values[i])
                                  for i in range(self._persisted, len(self.keys))))
                self._persisted = len(self.keys)
            if fsync:
                f.fsync()
            self._synced = fsync
        finally:
            f.close()

    @property
    def unsynced(self) -> bool:
        """The file may lack some entry, or hold it not fsynced."""
        return not (self._synced and self._persisted == len(self.keys))

    def mark_synced(self, entries: int) -> None:
        """Another thread fsynced the file by its path while it held exactly ``entries`` entries,
        written (flush(fsync=False)): synced, if the index still holds just those."""
        if self._persisted == entries == len(self.keys):
            self._synced = True

    def _truncate_entries(self, n: int) -> None:
        if n >= len(self.keys):
            return
        del self.keys[n:]
        del self.values[n:]
        if n < self._persisted:
            self._persisted = n
            self._synced = False  # the file has entries to cut


class OffsetIndex(_Index):
    """Maps a batch's last offset to its position; lookups give a scan start."""
    FMT = struct.Struct(">ii")

    def _pack(self, offset: int, position: int) -> bytes:
        return self.FMT.pack(offset - self.base_offset, position)

    def _unpack(self, rel: int, position: int) -> tuple[int, int]:
        return self.base_offset + rel, position

    def append(self, offset: int, position: int) -> None:
        if not self.keys or offset > self.keys[-1]:
            self.keys.append(offset)
            self.values.append(position)

    def lookup(self, offset: int) -> tuple[int, int]:
        """Largest entry with entry offset <= offset, else (base_offset, 0)."""
        i = bisect_right(self.keys, offset) - 1
        if i < 0:
            return self.base_offset, 0
        return self.keys[i], self.values[i]

    def truncate_to(self, offset: int) -> None:
        """Drop entries for offsets >= offset."""
        self._truncate_entries(bisect_left(self.keys, offset))

    def truncate_to_position(self, position: int) -> None:
        self._truncate_entries(bisect_left(self.values, position))


class TimeIndex(_Index):
    """Maps the max timestamp seen so far to the offset where it was seen."""
    FMT = struct.Struct(">qi")

    def _pack(self, timestamp: int, offset: int) -> bytes:
        return self.FMT.pack(timestamp, offset - self.base_offset)

    def _unpack(self, timestamp: int, rel: int) -> tuple[int, int]:
        return timestamp, self.base_offset + rel

    def append(self, timestamp: int, offset: int) -> None:
        if not self.keys or timestamp > self.keys[-1]:
            if self.values and offset < self.values[-1]:
                return
            self.keys.append(timestamp)
            self.values.append(offset)

    def last_entry(self) -> tuple[int, int] | None:
        return (self.keys[-1], self.values[-1]) if self.keys else None

    def lookup_below(self, timestamp: int) -> int | None:
        """Offset of the last entry whose timestamp < timestamp: every record up to
        that offset is older than `timestamp`."""
        i = bisect_left(self.keys, timestamp) - 1
        return self.values[i] if i >= 0 else None

    def truncate_to(self, offset: int) -> None:
        n = len(self.values)
        while n and self.values[n - 1] >= offset:
            n -= 1
        self._truncate_entries(n)
