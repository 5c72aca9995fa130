"""The replicated log as the core sees it: a snapshot, then batches; a persisted
prefix and an unstable tail the driver has not yet made durable.

Pure: the driver persists what Ready lists and calls advance(). The persistent
counterpart (files) lives with the driver; `MemoryStorage` here is the simplest one,
used by tests and the simulation.
"""

from __future__ import annotations

import bisect

from .types import Batch, Snapshot, SnapshotId, StorageState


class RaftLog:
    def __init__(self, snapshot: Snapshot | None = None, batches=()):
        self.snapshot = snapshot
        sid = snapshot.id if snapshot else SnapshotId(0, 0)
        self.start_offset = sid.end_offset
        self.start_epoch = sid.epoch
        self.batches: list[Batch] = []
        self._bases: list[int] = []
        for b in batches:
            if b.base_offset >= self.start_offset and b.base_offset == self.end_offset:
                self._push(b)
        self.persisted_end = self.end_offset  # everything given at start is on disk
        # Pending persistence work for the next Ready.
        self.pending_truncate: int | None = None
        self.pending_delete_before: int | None = None

    # ------------------------------------------------------------------ reading
    @property
    def end_offset(self) -> int:
        return self.batches[-1].next_offset if self.batches else self.start_offset

    @property
    def last_epoch(self) -> int:
        return self.batches[-1].epoch if self.batches else self.start_epoch

    def _push(self, b: Batch) -> None:
        self.batches.append(b)
        self._bases.append(b.base_offset)

    def index_of(self, offset: int) -> int:
        """Index of the batch containing offset (offset within [start, end))."""
        return bisect.bisect_right(self._bases, offset) - 1

    def batches_from(self, offset: int, limit: int) -> list[Batch]:
        if offset >= self.end_offset or offset < self.start_offset:
            return []
        i = max(0, self.index_of(offset))
        return self.batches[i:i + limit]

    def epoch_at(self, offset: int) -> int | None:
        """Epoch of the record at offset, or None if not held (snapshot end-1 known)."""
        if offset == self.start_offset - 1:
            return self.start_epoch
        if offset < self.start_offset or offset >= self.end_offset:
            return None
        return self.batches[self.index_of(offset)].epoch

    def end_offset_for_epoch(self, epoch: int) -> tuple[int, int]:
        """(largest epoch <= epoch held, the end offset of that epoch), as Kafka's
        LeaderEpochFileCache.endOffsetFor. (-1, -1) if epoch predates the log start."""
        if epoch >= self.last_epoch:
            return self.last_epoch, self.end_offset
        # Batches are ordered by epoch too; find the first batch with epoch > `epoch`.
        lo, hi = 0, len(self.batches)
        while lo < hi:
            mid = (lo + hi) // 2
            if self.batches[mid].epoch <= epoch:
                lo = mid + 1
            else:
                hi = mid
        if lo == 0:
            if epoch >= self.start_epoch:
                return self.start_epoch, self.start_offset
            return -1, -1
        return self.batches[lo - 1].epoch, self.batches[lo].base_offset

    def epoch_start_offset(self, epoch: int) -> int | None:
        for b in self.batches:  # only used on leader election paths
            if b.epoch == epoch:
                return b.base_offset
        return None

    # ------------------------------------------------------------------ writing
    def append(self, b: Batch) -> None:
        assert b.base_offset == self.end_offset, (b.base_offset, self.end_offset)
        assert b.epoch >= self.last_epoch
        self._push(b)

    def truncate_to(self, offset: int) -> None:
        """Drop everything at or after offset (rounded down to a batch boundary)."""
        if offset >= self.end_offset:
            return
        offset = max(offset, self.start_offset)
        i = self.index_of(offset)
        if i >= 0 and self.batches[i].base_offset < offset:
            offset = self.batches[i].base_offset  # never keep half a batch
        keep = bisect.bisect_left(self._bases, offset)
        del self.batches[keep:]
        del self._bases[keep:]
        if offset < self.persisted_end:
            self.persisted_end = offset
            self.pending_truncate = offset if self.pending_truncate is None else min(self.pending_truncate, offset)

    def unstable(self) -> list[Batch]:
        if self.persisted_end >= self.end_offset:
            return []
        i = max(0, self.index_of(self.persisted_end))
        return self.batches[i:]

    def mark_persisted(self, end: int) -> None:
        self.persisted_end = max(self.persisted_end, min(end, self.end_offset))

    def install_snapshot(self, snap: Snapshot) -> None:
        """Take a snapshot as the new log start; keep batches after it if they agree."""
        sid = snap.id
        keep_tail = self.epoch_at(sid.end_offset - 1) == sid.epoch and sid.end_offset <= self.end_offset
        if not keep_tail:
            self.truncate_to(self.start_offset)  # drop all
            self.batches.clear()
            self._bases.clear()
        self.snapshot = snap
        self._drop_before(sid.end_offset)
        self.start_offset = sid.end_offset
        self.start_epoch = sid.epoch
        if not keep_tail:
            self.persisted_end = sid.end_offset
            self.pending_truncate = 0
        self.pending_delete_before = sid.end_offset

    def _drop_before(self, offset: int) -> None:
        keep = bisect.bisect_left(self._bases, offset)
        del self.batches[:keep]
        del self._bases[:keep]


class MemoryStorage:
    """A driver-side disk that keeps what Ready says, for tests and the simulation."""

    def __init__(self):
        self.quorum_state = None
        self.snapshot: Snapshot | None = None
        self.batches: list[Batch] = []

    def apply(self, ready, entries_limit: int | None = None) -> None:
        """Persist ready; entries_limit keeps only a prefix of the new entries (a crash
        mid-write), in which case quorum state and snapshot are not written either."""
        if ready.truncate_log_from is not None:
            self.batches = [b for b in self.batches if b.base_offset < ready.truncate_log_from]
        entries = ready.entries if entries_limit is None else ready.entries[:entries_limit]
        for b in entries:
            if self.batches and self.batches[-1].next_offset != b.base_offset:
                self.batches = [x for x in self.batches if x.base_offset < b.base_offset]
            self.batches.append(b)
        if entries_limit is not None:
            return
        if ready.quorum_state is not None:
            self.quorum_state = ready.quorum_state
        if ready.snapshot is not None:
            if self.snapshot is None or ready.snapshot.id > self.snapshot.id:
                self.snapshot = ready.snapshot
        if ready.delete_log_before is not None:
            self.batches = [b for b in self.batches if b.next_offset > ready.delete_log_before]

    def load(self) -> StorageState:
        return StorageState(self.quorum_state, self.snapshot, list(self.batches))
