"""What the group coordinator notes of its writes until its partition commits them.

Kafka's coordinators keep their state in timeline structures (a SnapshotRegistry keyed by log
offset) so that a read operation sees the state at the partition's last committed offset (its high
watermark). Here a write notes, per group, what a reader is to see until it commits (the values
it replaces: offset_timeline.py; the group as it was: group_timeline.py), at the offset of the
write's last record; a note is forgotten once the HW passes that offset. Pure: no I/O.
"""

from __future__ import annotations

from collections import deque
from typing import Generic, TypeVar

N = TypeVar("N")  # what a write notes
ABSENT = object()  # a value a note keeps: the key had none before the write


def take_back(values: dict, before: dict) -> None:
    """Put back in ``values`` what a note kept (key -> its value before, or ABSENT: none)."""
    for key, value in before.items():
        if value is ABSENT:
            values.pop(key, None)
        else:
            values[key] = value


class _Partition(Generic[N]):
    """The notes of one coordinator partition's groups."""

    __slots__ = ("order", "groups")

    def __init__(self):
        self.order: deque[tuple[int, str]] = deque()  # (offset, group id) in write order
        self.groups: dict[str, deque[tuple[int, N]]] = {}  # group id -> its (offset, note) in order


class Uncommitted(Generic[N]):
    def __init__(self):
        self._partitions: dict[int, _Partition[N]] = {}

    def note(self, partition: int, offset: int, group_id: str, note: N) -> None:
        """The group's write ending at ``offset`` notes ``note`` (after its earlier ones)."""
        part = self._partitions.get(partition)
        if part is None:
            part = self._partitions[partition] = _Partition()
        writes = part.groups.get(group_id)
        if writes is None:
            writes = part.groups[group_id] = deque()
        writes.append((offset, note))
        part.order.append((offset, group_id))

    def newest(self, partition: int, group_id: str) -> int | None:
        """The offset of the group's newest note (None: none)."""
        part = self._partitions.get(partition)
        writes = part.groups.get(group_id) if part is not None else None
        return writes[-1][0] if writes else None

    def prune(self, partition: int, high_watermark: int) -> None:
        """Forget the notes the partition has committed (their offsets below ``high_watermark``)."""
        part = self._partitions.get(partition)
        if part is None:
            return
        order, groups = part.order, part.groups
        while order and order[0][0] < high_watermark:
            _, group_id = order.popleft()
            writes = groups[group_id]
            self.forgotten(writes.popleft()[1])
            if not writes:
                del groups[group_id]
        if not order:
            del self._partitions[partition]

    def uncommitted(self, partition: int, high_watermark: int) -> dict[str, deque[tuple[int, N]]]:
        """{group id: its notes at or beyond ``high_watermark``, oldest first} of the partition
        (the notes below it forgotten); not to be changed."""
        self.prune(partition, high_watermark)
        part = self._partitions.get(partition)
        return {} if part is None else part.groups

    def partitions(self) -> list[int]:
        """The partitions with notes."""
        return list(self._partitions)

    def drop(self, partition: int) -> None:
        """The partition is no longer coordinated here (or is reloaded): its notes go."""
        part = self._partitions.pop(partition, None)
        if part is not None:
            for writes in part.groups.values():
                for _, note in writes:
                    self.forgotten(note)

    def forgotten(self, note: N) -> None:
        """A note is forgotten (committed, or its partition dropped)."""

    def pending(self, partition: int) -> int:
        """Notes not known to be committed (a count for tests)."""
        part = self._partitions.get(partition)
        return 0 if part is None else len(part.order)
