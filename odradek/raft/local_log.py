"""A Raft log run by this process alone: the single-voter quorum of `odradek serve`.

Same shape as controller.metadata_log.MetadataLog (replay / append / next_offset /
close), but every append goes through the Raft core: the quorum state is persisted,
the leader writes its LeaderChange record, and an append returns once committed
(for one voter: once fsynced). Multi-voter quorums need the network driver instead.
"""

from __future__ import annotations

import os
from typing import Iterator

from odradek.log.fs import FileSystem

from .file_storage import FileStorage
from .node import RaftNode
from .types import RaftConfig

DIR_NAME = "__cluster_metadata-0"


class LocalRaftLog:
    """A failed write (ENOSPC, EIO) raises from append() with the disk rolled back to what
    was acknowledged before it; the next call reloads the node from that disk (a fresh
    epoch, as after a restart), so a write after space returns is built on good batches."""

    def __init__(self, data_dir: str, node_id: int, fs: FileSystem | None = None):
        self.storage = FileStorage(os.path.join(data_dir, DIR_NAME), fs)
        self.node_id = node_id
        self._replayed: list = []
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
        if self._broken:
            self._open()
            self._replayed = []

    def _drive(self) -> None:
        while self.node.has_ready():
            rd = self.node.ready()
            try:
                self.storage.apply(rd)
            except BaseException:
                self._broken = True  # the node holds what the disk does not: reload first
                raise
            for b in rd.committed_entries:
                if not b.control:
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

    def append(self, values: list[bytes], timestamp: int = 0) -> int:
        """Append encoded records as one batch, committed; returns the last offset.
        Raises OSError when the write fails; nothing of the batch is then on disk."""
        self._repair()
        last = self.node.propose(values, timestamp)
        self._drive()
        self._replayed = []
        self._data_seen = True
        if self.node.hw <= last:
            raise RuntimeError(f"append at {last} not committed (hw {self.node.hw})")
        return last

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
        pass
