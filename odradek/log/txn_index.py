"""Aborted-transaction index of one segment: `%020d.txnindex`, Kafka's layout.

Each entry is 34 bytes, big-endian: version int16 (0), producer id int64, first
offset int64, last offset int64 (the abort marker), last stable offset int64 (when
the marker was written). An entry lives in the segment that holds its abort marker.
The file is created on the first entry, so segments without aborts have none.
"""
from __future__ import annotations

import struct
from dataclasses import dataclass

from .fs import FileSystem

ENTRY = struct.Struct(">hqqqq")
ENTRY_SIZE = ENTRY.size  # 34
SUFFIX = ".txnindex"


@dataclass(frozen=True, slots=True)
class AbortedTxn:
    """An aborted transaction of a segment's transaction index."""
    producer_id: int
    first_offset: int
    last_offset: int
    last_stable_offset: int

    def to_bytes(self) -> bytes:
        return ENTRY.pack(0, self.producer_id, self.first_offset, self.last_offset, self.last_stable_offset)


class TxnIndex:
    def __init__(self, fs: FileSystem, path: str):
        self.fs = fs
        self.path = path
        self.entries: list[AbortedTxn] = []
        self._file = None
        self._unsynced = False  # written since the last fsync
        if fs.exists(path):
            self._file = fs.open(path)
            data = self._file.read(0, self._file.size())
            n = len(data) // ENTRY_SIZE
            for i in range(n):
                _v, pid, first, last, lso = ENTRY.unpack_from(data, i * ENTRY_SIZE)
                self.entries.append(AbortedTxn(pid, first, last, lso))
            if len(data) != n * ENTRY_SIZE:  # torn tail
                self._file.truncate(n * ENTRY_SIZE)
                self._unsynced = True

    def append(self, entry: AbortedTxn) -> None:
        if self.entries and entry.last_offset <= self.entries[-1].last_offset:
            return  # replayed during recovery: already indexed
        if self._file is None:
            self._file = self.fs.open(self.path)
        self._file.append(entry.to_bytes())
        self.entries.append(entry)
        self._unsynced = True

    def truncate_to(self, offset: int) -> None:
        """Drop entries whose marker is at or after offset."""
        keep = [e for e in self.entries if e.last_offset < offset]
        if len(keep) != len(self.entries):
            self.entries = keep
            if self._file is not None:
                self._file.truncate(len(keep) * ENTRY_SIZE)
                self._unsynced = True

    def collect(self, fetch_offset: int, upper_bound_offset: int) -> list[AbortedTxn]:
        """Entries of transactions overlapping [fetch_offset, upper_bound_offset)."""
        return [e for e in self.entries
                if e.last_offset >= fetch_offset and e.first_offset < upper_bound_offset]

    def mark_unsynced(self) -> None:
        """Found on disk after an unclean stop: the next flush makes it durable."""
        self._unsynced = self._file is not None

    @property
    def unsynced(self) -> bool:
        return self._file is not None and self._unsynced

    def mark_synced(self, entries: int) -> None:
        """Another thread fsynced the file by its path while it held ``entries`` entries."""
        if len(self.entries) == entries:
            self._unsynced = False

    def flush(self) -> None:
        if self._file is not None and self._unsynced:
            self._file.fsync()
            self._unsynced = False

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None

    def detach(self) -> int:
        """close() without the close(2): the descriptor (-1: none), for the caller (RealFile.detach)."""
        f, self._file = self._file, None
        return -1 if f is None else f.detach()

    def delete(self) -> None:
        self.close()
        if self.fs.exists(self.path):
            self.fs.remove(self.path)
