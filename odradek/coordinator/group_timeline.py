"""Groups as readers see them: only what the coordinator's partition has committed.

Kafka 4.3 answers DescribeGroups, ConsumerGroupDescribe, StreamsGroupDescribe and ListGroups as
read operations (GroupCoordinatorService -> CoordinatorRuntime.scheduleReadOperation) at the
__consumer_offsets partition's last committed offset, its high watermark. What they read there
(GroupMetadataManager, its groups a TimelineHashMap):
- which group an id names, and of which type: the groups map at that offset (a group created or
  deleted by records the HW has not passed is not yet there, or still there);
- a consumer or streams group's every described field (epochs, state, members, target assignment,
  preferred assignor, topology): timeline objects read at that offset;
- a classic group's own fields (state, protocol, members): not timeline structures, read as they
  are now (a classic group committed is described as it is now).
Kafka takes a snapshot each time it writes a batch of records, so what changes between two
batches becomes visible together, once the HW passes the next batch.

Here each write with records that changes a group notes, before it applies, the group as it was:
``committed_copy()`` (the group itself for a classic group; for a consumer or streams group a
MapsBefore: a copy of its fields, and the values its members and target assignment maps replace
from then on, their entries being replaced, never changed in place: what changed, not a copy of
the maps, as Kafka's timeline maps keep), or None when the id named no group, at the offset of
the write's last record; once per group and record batch (the HW passes a batch at a time: the
state before the first write of the batch is the state after the batches before it). A read at
the HW is the group's oldest note beyond it (the state before its first uncommitted batch), else
the group as it is now. Pure: no I/O.
"""

from __future__ import annotations

from typing import Callable, Iterable

from collections import deque

from .group_model import GroupModel, MapsBefore
from .uncommitted import Uncommitted


def _as_noted(writes: deque) -> GroupModel | None:
    """The group as its oldest note of ``writes`` (the group id's notes, oldest first) saw it."""
    first = writes[0][1]
    return first.group([note for _, note in writes]) if isinstance(first, MapsBefore) else first


class GroupTimeline(Uncommitted["GroupModel | MapsBefore | None"]):
    def changing(self, partition: int, group_id: str, last_offset: int, batch_start: int,
                 current: GroupModel | None) -> None:
        """A write ending at ``last_offset``, in the record batch starting at ``batch_start``, is
        about to change the group (``current``: as it is now, None: none has the id)."""
        newest = self.newest(partition, group_id)
        if newest is not None and newest >= batch_start:
            return  # an earlier write of the same batch noted the group as it was before the batch
        self.note(partition, last_offset, group_id, None if current is None else current.committed_copy())

    def view(self, partition: int, high_watermark: int, group_id: str,
             current: GroupModel | None) -> GroupModel | None:
        """The group the id names at ``high_watermark`` (None: none): ``current`` unless it has
        writes beyond it."""
        writes = self.uncommitted(partition, high_watermark).get(group_id)
        return _as_noted(writes) if writes else current

    def views(self, high_watermark: Callable[[int], int]) -> dict[str, GroupModel | None]:
        """{group id: the group it names at its partition's ``high_watermark(partition)``} of the
        groups that have writes beyond it (every other group reads as it is now)."""
        out: dict[str, GroupModel | None] = {}
        for p in self.partitions():
            for group_id, writes in self.uncommitted(p, high_watermark(p)).items():
                out[group_id] = _as_noted(writes)
        return out

    def forgotten(self, note: GroupModel | MapsBefore | None) -> None:
        if isinstance(note, MapsBefore):
            note.close()


def committed_groups(groups: dict, views: dict) -> Iterable[GroupModel]:
    """Every group at the committed offsets: ``groups`` (the one map) with ``views`` (``views()``)
    standing for theirs, and those ``views`` has that the map no longer has."""
    for group_id, g in groups.items():
        v = views.get(group_id, g) if views else g
        if v is not None:
            yield v
    for group_id, v in views.items():
        if v is not None and group_id not in groups:
            yield v
