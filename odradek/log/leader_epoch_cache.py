"""The leader-epoch cache (Kafka's LeaderEpochFileCache) as a pure value, and its
`leader-epoch-checkpoint` file format. The log layer keeps one per partition and writes
the checkpoint through its FileSystem; nothing here touches a file.

An entry (epoch, start_offset) says: the first record written in `epoch` has offset
`start_offset`. Entries are strictly increasing in both fields."""

from __future__ import annotations

from dataclasses import dataclass

from . import checkpoint_file
from .checkpoint_file import CheckpointError, to_int
from .shared_values import SharedValues

__all__ = ["CheckpointError", "EpochEndOffset", "EpochEntry", "LeaderEpochCache", "UNDEFINED",
           "decode_checkpoint", "encode_checkpoint"]

UNDEFINED_EPOCH = -1
UNDEFINED_EPOCH_OFFSET = -1
CHECKPOINT_VERSION = 0


@dataclass(frozen=True, slots=True)
class EpochEntry:
    """A leader epoch and the first offset written in it."""
    epoch: int
    start_offset: int


@dataclass(frozen=True)
class EpochEndOffset:
    """OffsetForLeaderEpoch's answer (and Fetch's DivergingEpoch): the largest epoch <= the
    one asked for, and the offset where it ends (exclusive)."""
    epoch: int
    end_offset: int

    @property
    def undefined(self) -> bool:
        return self.epoch == UNDEFINED_EPOCH or self.end_offset == UNDEFINED_EPOCH_OFFSET


UNDEFINED = EpochEndOffset(UNDEFINED_EPOCH, UNDEFINED_EPOCH_OFFSET)

# the caches of one entry, by (epoch, start offset): shared (see LeaderEpochCache.of)
_SINGLE: SharedValues[tuple[int, int], "LeaderEpochCache"] = SharedValues()


@dataclass(frozen=True, slots=True)
class LeaderEpochCache:
    """A log's leader epochs and their start offsets (Kafka's leader-epoch-checkpoint)."""
    entries: tuple[EpochEntry, ...] = ()

    @staticmethod
    def of(entries: tuple[EpochEntry, ...]) -> LeaderEpochCache:
        """The cache of ``entries``; one entry: the cache shared by every log with that one
        (immutable: most partitions' whole history is one epoch, from one offset)."""
        if len(entries) != 1:
            return LeaderEpochCache(entries)
        e = entries[0]
        return _SINGLE.get((e.epoch, e.start_offset), lambda: LeaderEpochCache(entries))

    @property
    def latest_epoch(self) -> int:
        return self.entries[-1].epoch if self.entries else UNDEFINED_EPOCH

    def assign(self, epoch: int, start_offset: int) -> LeaderEpochCache:
        """Record that `epoch` starts at `start_offset`. As Kafka: no change when the latest
        entry already has this epoch at an offset <= start_offset; otherwise entries that
        would break monotonicity (epoch >= or start >= the new one) are dropped first."""
        if epoch < 0 or start_offset < 0:
            raise ValueError(f"invalid epoch entry ({epoch}, {start_offset})")
        if not self.entries:  # (every new partition's first leader: the shared one-entry cache)
            return _SINGLE.get((epoch, start_offset), lambda: LeaderEpochCache((EpochEntry(epoch, start_offset),)))
        last = self.entries[-1]
        if epoch == last.epoch and start_offset >= last.start_offset:
            return self
        kept = tuple(e for e in self.entries if e.epoch < epoch and e.start_offset < start_offset)
        return LeaderEpochCache.of(kept + (EpochEntry(epoch, start_offset),))

    def truncate_from_end(self, end_offset: int) -> LeaderEpochCache:
        """The log was truncated to end_offset: drop the entries starting at or after it."""
        if end_offset < 0 or not self.entries or self.entries[-1].start_offset < end_offset:
            return self
        return LeaderEpochCache.of(tuple(e for e in self.entries if e.start_offset < end_offset))

    def truncate_from_start(self, start_offset: int) -> LeaderEpochCache:
        """The log start moved to start_offset: entries wholly before it go, and the epoch
        covering it now starts there."""
        before = [e for e in self.entries if e.start_offset <= start_offset]
        if not before:
            return self
        after = tuple(e for e in self.entries if e.start_offset > start_offset)
        return LeaderEpochCache.of((EpochEntry(before[-1].epoch, start_offset),) + after)

    def end_offset_for(self, epoch: int, log_end_offset: int) -> EpochEndOffset:
        """Kafka's endOffsetFor: the largest epoch <= `epoch` and its end offset (the next
        epoch's start, or the log end offset for the latest epoch); UNDEFINED when `epoch`
        is undefined or newer than every entry."""
        if epoch == UNDEFINED_EPOCH or not self.entries:
            return UNDEFINED
        if epoch == self.latest_epoch:
            return EpochEndOffset(epoch, log_end_offset)
        higher = next((e for e in self.entries if e.epoch > epoch), None)
        if higher is None:
            return UNDEFINED
        floor = [e for e in self.entries if e.epoch <= epoch]
        return EpochEndOffset(floor[-1].epoch if floor else epoch, higher.start_offset)

    def epoch_for_offset(self, offset: int) -> int:
        """The epoch the record at `offset` was written in (UNDEFINED_EPOCH before the first)."""
        found = UNDEFINED_EPOCH
        for e in self.entries:
            if e.start_offset > offset:
                break
            found = e.epoch
        return found


def encode_checkpoint(cache: LeaderEpochCache) -> bytes:
    """Kafka's leader-epoch-checkpoint: a version line (0), a count line, then one
    "epoch start_offset" line per entry."""
    return checkpoint_file.encode(CHECKPOINT_VERSION, ((e.epoch, e.start_offset) for e in cache.entries))


def decode_checkpoint(data: bytes) -> LeaderEpochCache:
    """The inverse of encode_checkpoint; an empty file is an empty cache, as in Kafka.
    A wrong version, a bad line or a count that does not match raises CheckpointError."""
    rows = checkpoint_file.decode(data, CHECKPOINT_VERSION, 2)
    return LeaderEpochCache.of(tuple(EpochEntry(to_int(e), to_int(o)) for e, o in rows))
