"""Committed offsets as a reader sees them: only what the coordinator's partition has committed.

Kafka's group coordinator keeps its offsets in timeline structures (TimelineHashMap over a
SnapshotRegistry keyed by log offset) and answers a plain OffsetFetch (a read operation) at the
partition's last committed offset, its high watermark: an offset commit is visible to readers once
its records are replicated, never before. A commit whose records are written but not committed can
still be lost (the leader fails, its successor does not have them); a reader that had seen it would
then see the committed offset go back. (An OffsetFetch with require_stable reads the newest state
but is answered only once everything written is committed: broker/coordinator_log.py.)

Here the coordinator applies a write's state at once, as before, and notes for every offset the
write changes the value it replaced and the offset of the write's last record. A read at a high
watermark HW takes, for each offset with changes at or beyond HW, the value before the first of
them. Changes below HW are forgotten (``prune``). Pure: no I/O; the high watermark is the caller's.
"""

from __future__ import annotations

from collections import deque
from typing import Iterable

Key = tuple[str, int]  # (topic, partition) of a committed offset
_ABSENT = object()  # the offset did not exist before the change


class _Partition:
    """The uncommitted changes of one coordinator partition's groups."""

    __slots__ = ("order", "groups")

    def __init__(self):
        self.order: deque = deque()  # (last offset, group id, key), in write order
        # group id -> key -> deque of (last offset, value before the change or _ABSENT)
        self.groups: dict[str, dict[Key, deque]] = {}


class OffsetTimeline:
    def __init__(self):
        self._partitions: dict[int, _Partition] = {}

    def changing(self, partition: int, last_offset: int, group_id: str, offsets: dict,
                 keys: Iterable[Key]) -> None:
        """The write ending at ``last_offset`` is about to change ``keys`` of the group's
        ``offsets`` (its newest values): their values now are what readers see until it commits."""
        part = self._partitions.get(partition)
        if part is None:
            part = self._partitions[partition] = _Partition()
        group = part.groups.get(group_id)
        if group is None:
            group = part.groups[group_id] = {}
        for key in keys:
            changes = group.get(key)
            if changes is None:
                changes = group[key] = deque()
            changes.append((last_offset, offsets.get(key, _ABSENT)))
            part.order.append((last_offset, group_id, key))

    def loaded(self, partition: int, high_watermark: int, changes: list, before: dict) -> None:
        """A load read records beyond the partition's high watermark (a new leader's log ends with
        records its HW has not passed yet): ``changes`` [(offset, group id, key, value or None)] the
        offset records among them in log order, ``before`` {(group id, key): value} what those keys
        had below the HW (absent: nothing). Readers see the values below the HW until it passes,
        as Kafka's loader keeps what is beyond the HW uncommitted."""
        now = dict(before)
        for offset, group_id, key, value in changes:
            self.changing(partition, offset, group_id, {key: now[group_id, key]} if (group_id, key) in now else {},
                          (key,))
            if value is None:
                now.pop((group_id, key), None)
            else:
                now[group_id, key] = value
        self.prune(partition, high_watermark)

    def prune(self, partition: int, high_watermark: int) -> None:
        """Forget the changes the partition has committed (their records below ``high_watermark``)."""
        part = self._partitions.get(partition)
        if part is None:
            return
        order = part.order
        while order and order[0][0] < high_watermark:
            _, group_id, key = order.popleft()
            group = part.groups[group_id]
            changes = group[key]
            changes.popleft()
            if not changes:
                del group[key]
                if not group:
                    del part.groups[group_id]
        if not order:
            del self._partitions[partition]

    def view(self, partition: int, high_watermark: int, group_id: str, offsets: dict) -> dict:
        """The group's committed offsets at ``high_watermark``: ``offsets`` (its newest) itself when
        none of its changes is beyond it, else a copy with those changes undone."""
        self.prune(partition, high_watermark)
        part = self._partitions.get(partition)
        group = part.groups.get(group_id) if part is not None else None
        if not group:
            return offsets
        seen = dict(offsets)
        for key, changes in group.items():
            before = changes[0][1]  # (pruned: every change left is beyond the high watermark)
            if before is _ABSENT:
                seen.pop(key, None)
            else:
                seen[key] = before
        return seen

    def drop(self, partition: int) -> None:
        """The partition is no longer coordinated here (or is reloaded): its changes go."""
        self._partitions.pop(partition, None)

    def pending(self, partition: int) -> int:
        """Changes not known to be committed (a count for tests)."""
        part = self._partitions.get(partition)
        return 0 if part is None else len(part.order)
