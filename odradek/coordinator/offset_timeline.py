"""Committed offsets as a reader sees them: only what the coordinator's partition has committed.

Kafka's group coordinator keeps its offsets in timeline structures (TimelineHashMap over a
SnapshotRegistry keyed by log offset) and answers a plain OffsetFetch (a read operation) at the
partition's last committed offset, its high watermark: an offset commit is visible to readers once
its records are replicated, never before. A commit whose records are written but not committed can
still be lost (the leader fails, its successor does not have them); a reader that had seen it would
then see the committed offset go back. (An OffsetFetch with require_stable reads the newest state
but is answered only once everything written is committed: broker/coordinator_log.py.)

Here the coordinator applies a write's state at once, as before, and notes for the write, with the
offset of its last record, what its group's offsets were before it: the values of the offsets it
changes, or - when it changes a good part of them (an OffsetCommit of 100,000 partitions) - the
whole map, kept as it was while the write changes a copy (a dict copy costs a few ms per 100,000
offsets, where noting each value costs tens). A read at a high watermark HW undoes the group's
writes at or beyond HW, newest first. Writes below HW are forgotten (``prune``). Pure: no I/O; the
high watermark is the caller's.
"""

from __future__ import annotations

from collections import deque
from typing import Collection

Key = tuple[str, int]  # (topic, partition) of a committed offset
_ABSENT = object()  # the offset did not exist before the change
# a write changing at least 1/SNAPSHOT_SHARE of its group's offsets keeps the whole map as it was
SNAPSHOT_SHARE = 8


class _Partition:
    """The uncommitted writes of one coordinator partition's groups."""

    __slots__ = ("order", "groups")

    def __init__(self):
        self.order: deque = deque()  # (last offset, group id), in write order
        # group id -> its writes in order: (True, the whole map before it) or (False, {key: its
        # value before it, or _ABSENT})
        self.groups: dict[str, deque] = {}


class OffsetTimeline:
    def __init__(self):
        self._partitions: dict[int, _Partition] = {}

    def changing(self, partition: int, last_offset: int, group_id: str, offsets: dict,
                 keys: Collection[Key]) -> dict:
        """The write ending at ``last_offset`` is about to change ``keys`` of the group's
        ``offsets`` (its newest values): what they are now is what readers see until it commits.
        -> the map the write is to change: ``offsets``, or a copy of it (``offsets`` then stays
        as it is, the group's state before the write)."""
        if not keys:
            return offsets
        if len(keys) * SNAPSHOT_SHARE >= len(offsets):
            self._note(partition, last_offset, group_id, (True, offsets))
            return dict(offsets)
        self._note(partition, last_offset, group_id, (False, {key: offsets.get(key, _ABSENT) for key in keys}))
        return offsets

    def _note(self, partition: int, last_offset: int, group_id: str, undo: tuple) -> None:
        part = self._partitions.get(partition)
        if part is None:
            part = self._partitions[partition] = _Partition()
        writes = part.groups.get(group_id)
        if writes is None:
            writes = part.groups[group_id] = deque()
        writes.append(undo)
        part.order.append((last_offset, group_id))

    def loaded(self, partition: int, high_watermark: int, changes: list, before: dict) -> None:
        """A load read records beyond the partition's high watermark (a new leader's log ends with
        records its HW has not passed yet): ``changes`` [(offset, group id, key, value or None)] the
        offset records among them in log order, ``before`` {(group id, key): value} what those keys
        had below the HW (absent: nothing). Readers see the values below the HW until it passes,
        as Kafka's loader keeps what is beyond the HW uncommitted."""
        now = dict(before)
        for offset, group_id, key, value in changes:
            self._note(partition, offset, group_id, (False, {key: now.get((group_id, key), _ABSENT)}))
            if value is None:
                now.pop((group_id, key), None)
            else:
                now[group_id, key] = value
        self.prune(partition, high_watermark)

    def prune(self, partition: int, high_watermark: int) -> None:
        """Forget the writes the partition has committed (their records below ``high_watermark``)."""
        part = self._partitions.get(partition)
        if part is None:
            return
        order = part.order
        while order and order[0][0] < high_watermark:
            _, group_id = order.popleft()
            writes = part.groups[group_id]
            writes.popleft()
            if not writes:
                del part.groups[group_id]
        if not order:
            del self._partitions[partition]

    def view(self, partition: int, high_watermark: int, group_id: str, offsets: dict) -> dict:
        """The group's committed offsets at ``high_watermark``: ``offsets`` (its newest) itself when
        none of its writes is beyond it, else its writes beyond it undone (never changing a map
        kept)."""
        self.prune(partition, high_watermark)
        part = self._partitions.get(partition)
        writes = part.groups.get(group_id) if part is not None else None
        if not writes:
            return offsets
        seen, own = offsets, False
        for whole, before in reversed(writes):  # (every write left is beyond the HW)
            if whole:
                seen, own = before, False
                continue
            if not own:
                seen, own = dict(seen), True
            for key, value in before.items():
                if value is _ABSENT:
                    seen.pop(key, None)
                else:
                    seen[key] = value
        return seen

    def drop(self, partition: int) -> None:
        """The partition is no longer coordinated here (or is reloaded): its writes go."""
        self._partitions.pop(partition, None)

    def pending(self, partition: int) -> int:
        """Writes not known to be committed (a count for tests)."""
        part = self._partitions.get(partition)
        return 0 if part is None else len(part.order)
