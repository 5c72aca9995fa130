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
high watermark is the caller's (uncommitted.py keeps the notes).
"""

from __future__ import annotations

from typing import Collection

from .uncommitted import ABSENT, Uncommitted, take_back

Key = tuple[str, int]  # (topic, partition) of a committed offset
# a write changing at least 1/SNAPSHOT_SHARE of its group's offsets keeps the whole map as it was
SNAPSHOT_SHARE = 8


class OffsetTimeline(Uncommitted[tuple]):
    """Notes (True, the whole map before the write) or (False, {key: its value before it, or
    ABSENT})."""

    def changing(self, partition: int, last_offset: int, group_id: str, offsets: dict,
                 keys: Collection[Key]) -> dict:
        """The write ending at ``last_offset`` is about to change ``keys`` of the group's
        ``offsets`` (its newest values): what they are now is what readers see until it commits.
        -> the map the write is to change: ``offsets``, or a copy of it (``offsets`` then stays
        as it is, the group's state before the write)."""
        if not keys:
            return offsets
        if len(keys) * SNAPSHOT_SHARE >= len(offsets):
            self.note(partition, last_offset, group_id, (True, offsets))
            return dict(offsets)
        self.note(partition, last_offset, group_id, (False, {key: offsets.get(key, ABSENT) for key in keys}))
        return offsets

    def dropping(self, partition: int, last_offset: int, group_id: str, offsets: dict) -> dict:
        """The write ending at ``last_offset`` deletes every one of the group's ``offsets``: kept as
        they are for readers until it commits. -> the group's new map (empty)."""
        if offsets:
            self.note(partition, last_offset, group_id, (True, offsets))
        return {}

    def loaded(self, partition: int, high_watermark: int, changes: list, before: dict) -> None:
        """A load read records beyond the partition's high watermark (a new leader's log ends with
        records its HW has not passed yet): ``changes`` [(offset, group id, key, value or None)] the
        offset records among them in log order, ``before`` {(group id, key): value} what those keys
        had below the HW (absent: nothing). Readers see the values below the HW until it passes,
        as Kafka's loader keeps what is beyond the HW uncommitted."""
        now = dict(before)
        for offset, group_id, key, value in changes:
            self.note(partition, offset, group_id, (False, {key: now.get((group_id, key), ABSENT)}))
            if value is None:
                now.pop((group_id, key), None)
            else:
                now[group_id, key] = value
        self.prune(partition, high_watermark)

    def view(self, partition: int, high_watermark: int, group_id: str, offsets: dict) -> dict:
        """The group's committed offsets at ``high_watermark``: ``offsets`` (its newest) itself when
        none of its writes is beyond it, else its writes beyond it undone (never changing a map
        kept)."""
        writes = self.uncommitted(partition, high_watermark).get(group_id)
        if not writes:
            return offsets
        seen, own = offsets, False
        for _offset, (whole, before) in reversed(writes):  # (every write left is beyond the HW)
            if whole:
                seen, own = before, False
                continue
            if not own:
                seen, own = dict(seen), True
            take_back(seen, before)
        return seen
