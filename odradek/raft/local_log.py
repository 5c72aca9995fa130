"""A Raft log run by this process alone: the single-voter quorum of `odradek serve`.

Same shape as controller.metadata_log.MetadataLog (replay / append / next_offset /
close), but every append goes through the Raft core: the quorum state is persisted,
the leader writes its LeaderChange record, and an append returns once committed
(for one voter: once fsynced). Multi-voter quorums need the network driver instead.

An append may also be made in three parts, so that its fsync need not hold the caller's
thread (the event loop): begin_append writes the batch, the PendingSync it leaves is run
on any thread (the fsync), end_append commits it. Nothing is committed, replayed or
acknowledged before its fsync returned; every other call ends a begun append first.
"""

from __future__ import annotations

import os
from typing import Iterator

from odradek.log.fs import FileSystem, PendingFsync

from .codec import Prepared
from .file_storage import FileStorage
from .node import RaftNode
from .types import RaftConfig

DIR_NAME = "__cluster_metadata-0"


class PendingSync:
    """The fsync a begun append waits for (log.fs.PendingFsync: run once, by whichever thread
    comes first, a worker thread or end_append on the caller's, which then waits for it)."""

    def __init__(self, fsync: PendingFsync | None, ready, last: int, kept: int):
        self._fsync = fsync  # None: durable already (a Ready that was more than the one batch)
        self.ready, self.last, self.kept = ready, last, kept

    def __call__(self) -> None:
        if self._fsync is not None:
            self._fsync()

    @property
    def error(self) -> OSError | None:
        return self._fsync.error if self._fsync is not None else None


class LocalRaftLog:
    """A failed write (ENOSPC, EIO) raises from append() with the disk rolled back to what
    was acknowledged before it; the next call reloads the node from that disk (a fresh
    epoch, as after a restart), so a write after space returns is built on good batches."""

    def __init__(self, data_dir: str, node_id: int, fs: FileSystem | None = None):
        self.storage = FileStorage(os.path.join(data_dir, DIR_NAME), fs)
        self.node_id = node_id
        self._replayed: list = []
        self._pending: PendingSync | None = None
        self._open()

    def _open(self) -> None:
        self._broken = True  # until the election below is durable
        state = self.storage.load()
        self._data_seen = any(not b.control for b in state.batches) or state.snapshot is not None
        self.node = RaftNode(self.node_id, [self.node_id], state, RaftConfig())
        self._replayed = []
        self._drive()
        if not self.node.is_leader:
            raise RuntimeError(f"single voter {self.node_id} did not elect itself: {self.node.status()}")
        self._broken = False

    def _repair(self) -> None:
        """Reload after a failed write; the caller has applied every record on disk already."""
        try:
            self.end_append()
        except OSError:
            pass  # (its PendingSync keeps the error for whoever began it)
        if self._broken:
            self._open()
            self._let_go()

    def _let_go(self) -> None:
        """The committed batches not to replay (applied already) keep only their offsets and epoch:
        a single voter's log is never fetched from, and is read back from its file at a start."""
        for b in self._replayed:
            b.forget_bytes()
        self._replayed = []

    def _drive(self) -> None:
        while self.node.has_ready():
            self._persist(self.node.ready())

    def _persist(self, rd) -> None:
        try:
            self.storage.apply(rd)
        except BaseException:
            self._broken = True  # the node holds what the disk does not: reload first
            raise
        for b in rd.committed_entries:
            if b.control:
                b.forget_bytes()  # (a LeaderChange: never replayed)
            else:
                self._replayed.append(b)
        self.node.advance(rd)

    @property
    def next_offset(self) -> int:
        """0 until the first data record (LeaderChange records are not metadata)."""
        return self.node.log.end_offset if self._data_seen else 0

    def replay(self) -> Iterator[tuple[int, bytes]]:
        """(offset, record value) for every committed data record, in order."""
        batches, self._replayed = self._replayed, []
        for b in batches:
            for i, v in enumerate(b.records):
                yield b.base_offset + i, v
            b.forget_bytes()

    def append(self, values: list[bytes] | Prepared, timestamp: int = 0) -> int:
        """Append encoded records (or a codec.Prepared batch) as one batch, committed; returns the last offset.
        Raises OSError when the write fails; nothing of the batch is then on disk."""
        self._repair()
        last = self.node.propose(values, timestamp)
        self._drive()
        self._after_append(last)
        return last

    def begin_append(self, values: list[bytes] | Prepared, timestamp: int = 0) -> int:
        """Write encoded records as one batch, not yet durable nor committed; returns the last
        offset. The pending fsync (pending_sync) may run on any thread; end_append commits.
        Raises OSError when the write fails; nothing of the batch is then on disk."""
        self._repair()
        last = self.node.propose(values, timestamp)
        rd = self.node.ready()
        if rd.messages or rd.quorum_state is not None or rd.snapshot is not None or rd.committed_entries \
                or rd.truncate_log_from is not None or rd.delete_log_before is not None \
                or rd.snapshot_to_apply is not None:
            self._persist(rd)  # more than the one batch: made durable here, as append does
            self._drive()
            self._pending = PendingSync(None, None, last, 0)
            return last
        try:
            kept = self.storage.write_unsynced(rd.entries)
        except BaseException:
            self._broken = True  # the node holds what the disk does not: reload first
            raise
        self._pending = PendingSync(self.storage.pending_fsync(), rd, last, kept)
        return last

    @property
    def pending_sync(self) -> PendingSync | None:
        """The fsync a begun append waits for (callable once from any thread), or None."""
        return self._pending

    def end_append(self) -> None:
        """Commit the begun append, after its fsync (run here if no other thread ran it, or
        waited for); raises OSError if the fsync failed: the batch is then cut off the log."""
        p = self._pending
        if p is None:
            return
        p()
        self._pending = None
        if p.ready is None:
            self._after_append(p.last)
            return
        if p.error is not None:
            self._broken = True
            self.storage.unsynced_failed(p.kept)
            raise p.error
        self.node.advance(p.ready)
        self._drive()
        self._after_append(p.last)

    def _after_append(self, last: int) -> None:
        self._let_go()  # the appended batch: its writer has applied its records
        self._data_seen = True
        if self.node.hw <= last:
            raise RuntimeError(f"append at {last} not committed (hw {self.node.hw})")

    def snapshot(self, data: bytes) -> None:
        """Store the state machine's image of everything applied; drop the log behind it."""
        self._repair()
        self.node.snapshot(self.node.applied, data)
        self._drive()

    @property
    def snapshot_data(self):
        s = self.node.log.snapshot
        return None if s is None else s.data

    def close(self) -> None:
        try:
            self.end_append()
        except OSError:
            pass  # never acknowledged: cut off the log as any failed write
