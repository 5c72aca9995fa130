"""The driver's disk for a Raft log, in Kafka's layout (not used by the pure core):

  <dir>/00000000000000000000.log                 record batches, as on the wire
  <dir>/quorum-state                             JSON, as Kafka's FileQuorumStateStore
  <dir>/<end offset:20>-<epoch:10>.checkpoint    the latest snapshot

Every byte goes through the log engine's FileSystem interface (odradek.log.fs), so
tests crash it or fill its disk with the faulty filesystem. `apply(ready)` makes a
Ready durable (fsync) before the driver sends its messages. A Ready whose writes fail
(ENOSPC, EIO) is rolled back: the log is cut to the end of the last good batch, so no
later batch is ever written after a torn one. Should even that cut fail, the storage
refuses every write until it is loaded again. A driver may also write entries now and make
them durable later (write_unsynced, then its pending_fsync on any thread, then unsynced_failed if
that fsync failed: the entries are cut off as any failed write's). Entries offered again (their Ready failed
at the snapshot or delete step, after they were written) replace their first copy, so
a retried Ready leaves the file as one successful apply would. A torn tail batch (crash
mid-write, never acknowledged) is cut off at load.
"""

from __future__ import annotations

import logging
import os

from odradek.log.fs import FileSystem, PendingFsync, RealFileSystem, read_whole, write_atomic
from odradek.wire.exceptions import WireError
from odradek.wire.records import LOG_OVERHEAD, read_batch_header

from . import codec
from .quorum_state import from_json, to_json
from .types import Snapshot, SnapshotId, StorageState

log = logging.getLogger(__name__)

SEGMENT = "00000000000000000000.log"
QUORUM_STATE = "quorum-state"
CHECKPOINT = ".checkpoint"


class StorageOfflineError(OSError):
    """A failed write could not be rolled back: no write is taken until load() repairs."""


def checkpoint_name(sid: SnapshotId) -> str:
    return f"{sid.end_offset:020d}-{sid.epoch:010d}{CHECKPOINT}"


class FileStorage:
    def __init__(self, directory: str, fs: FileSystem | None = None):
        self.fs: FileSystem = fs if fs is not None else RealFileSystem()
        self.dir = directory
        self.fs.makedirs(directory)
        self.log_path = os.path.join(directory, SEGMENT)
        self._positions: list[tuple[int, int]] = []  # (base offset, file position) per batch
        self._end = 0  # file position just after the last good batch
        self._offline = False

    def _path(self, name: str) -> str:
        return os.path.join(self.dir, name)

    def load(self) -> StorageState:
        names = self.fs.listdir(self.dir)
        for n in names:
            if n.endswith(".tmp"):  # a write_atomic that never reached its rename
                self.fs.remove(self._path(n))
        qs = None
        if QUORUM_STATE in names:
            qs = from_json(read_whole(self.fs, self._path(QUORUM_STATE)))
        snap = None
        cps = sorted(n for n in names if n.endswith(CHECKPOINT))
        if cps:
            end, epoch = cps[-1][:-len(CHECKPOINT)].split("-")
            snap = Snapshot(SnapshotId(int(end), int(epoch)), read_whole(self.fs, self._path(cps[-1])))
        batches = []
        self._positions = []
        pos = 0
        if SEGMENT in names:
            data = read_whole(self.fs, self.log_path)
            while pos < len(data):
                try:
                    h = read_batch_header(data, pos)
                    size = h.batch_length + LOG_OVERHEAD
                    if pos + size > len(data):
                        break
                    (b,) = codec.decode_batches(data[pos:pos + size])
                except (WireError, ValueError):
                    break  # torn or corrupt tail: never acknowledged
                batches.append(b)
                self._positions.append((b.base_offset, pos))
                pos += size
            if pos < len(data):
                log.warning("%s: truncating %d bytes of a torn or corrupt tail at position %d",
                            self.log_path, len(data) - pos, pos)
                self._cut(pos)
        self._end = pos
        self._offline = False
        return StorageState(qs, snap, batches)

    def apply(self, ready) -> None:
        if self._offline:
            raise StorageOfflineError(f"{self.log_path}: offline after a failed write; reload to repair")
        kept = len(self._positions)
        cut_from = ready.truncate_log_from
        if ready.entries and self._positions and self._positions[-1][0] >= ready.entries[0].base_offset:
            # offered again after a Ready whose entries reached the disk but whose snapshot or
            # delete step failed (not advanced): write them over, never after, their first copy
            first = ready.entries[0].base_offset
            cut_from = first if cut_from is None else min(cut_from, first)
        try:
            if cut_from is not None:
                kept = self._truncate_from(cut_from)
            if ready.entries:
                self._append(ready.entries)
            if ready.quorum_state is not None:
                write_atomic(self.fs, self._path(QUORUM_STATE), to_json(ready.quorum_state))
        except OSError:
            self._roll_back(kept)
            raise
        if ready.snapshot is not None:
            name = checkpoint_name(ready.snapshot.id)
            write_atomic(self.fs, self._path(name), ready.snapshot.data)
            for n in self.fs.listdir(self.dir):
                if n.endswith(CHECKPOINT) and n < name:
                    self.fs.remove(self._path(n))
        if ready.delete_log_before is not None:
            self._rewrite_from(ready.delete_log_before)

    def write_unsynced(self, entries) -> int:
        """Write entries after the last good batch without fsync (a failed write is rolled back
        and raises); returns the number of batches before them, for unsynced_failed. Nothing else
        may be written until its pending_fsync() returned (and, if it raised, unsynced_failed was called)."""
        if self._offline:
            raise StorageOfflineError(f"{self.log_path}: offline after a failed write; reload to repair")
        kept = len(self._positions)
        try:
            self._append(entries, fsync=False)
        except OSError:
            self._roll_back(kept)
            raise
        return kept

    def pending_fsync(self) -> PendingFsync:
        """The fsync that makes what write_unsynced wrote durable, to run once on any thread (it
        touches nothing of this object)."""
        return PendingFsync(self.fs, self.log_path)

    def unsynced_failed(self, kept: int) -> None:
        """sync() raised: cut the log back to its first ``kept`` batches (as a failed apply)."""
        self._roll_back(kept)

    def _append(self, entries, fsync: bool = True) -> None:
        f = self.fs.open(self.log_path)
        try:
            pos = self._end
            for b in entries:
                f.pwrite(b.raw, pos)
                self._positions.append((b.base_offset, pos))
                pos += len(b.raw)
            if fsync:
                f.fsync()
            self._end = pos
        finally:
            f.close()

    def _roll_back(self, kept: int) -> None:
        """Cut the log back to its first `kept` batches (the state before a failed Ready)."""
        cut = self._positions[kept][1] if kept < len(self._positions) else self._end
        del self._positions[kept:]
        self._end = cut
        try:
            self._cut(cut)
        except OSError:
            self._offline = True  # torn bytes may remain: never write after them
            log.error("%s: could not roll back a failed write to position %d; offline until reloaded",
                      self.log_path, cut)

    def _cut(self, size: int) -> None:
        f = self.fs.open(self.log_path)
        try:
            if f.size() != size:
                f.truncate(size)
                f.fsync()
        finally:
            f.close()

    def _truncate_from(self, offset: int) -> int:
        """Drop batches with base >= offset (a follower's divergent tail); returns how many stay."""
        keep = sum(1 for o, _ in self._positions if o < offset)
        if keep < len(self._positions):
            cut = self._positions[keep][1]
            self._cut(cut)
            del self._positions[keep:]
            self._end = cut
        return keep

    def _rewrite_from(self, offset: int) -> None:
        """Drop batches wholly below offset (one segment, so rewrite the file)."""
        if not self._positions:
            return
        start = self._end
        for i, (o, p) in enumerate(self._positions):
            nxt = self._positions[i + 1][0] if i + 1 < len(self._positions) else None
            if nxt is None or nxt > offset:
                start = p
                break
        f = self.fs.open(self.log_path)
        try:
            data = f.read(start, self._end - start)
        finally:
            f.close()
        write_atomic(self.fs, self.log_path, data)
        self._positions = [(o, p - start) for o, p in self._positions if p >= start]
        self._end -= start
