"""Share groups' persistence (KIP-932), beside the share coordinator: what it changed, as records,
and where they go; the start-up replay; the pruning of old state snapshots.

Where (as Kafka): each share group's epoch is a ShareGroupMetadata record in __consumer_offsets
(partition of the group id, as every group record), each share-partition's state (SPSO and
in-flight record states, one whole snapshot per record) in __share_group_state, created on first
use. Records are built by share_state.py.

Pure: the logs come in as CoordinatorLog ports (append/read/has_partition, plus the log start and
end offsets for pruning); the broker wires them and calls persist / prune on its tick, and after
every request that changed share state (acknowledgements are persisted before their response).

Start-up: the group coordinator's one replay of __consumer_offsets hands each record to
``replay_group_record`` (share group epochs), then ``load_state`` reads __share_group_state.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Iterable, Protocol

from . import share_state
from .share_group_coordinator import ShareGroupCoordinator


class StateLog(Protocol):
    def append(self, partition: int, records: list[tuple[bytes, bytes | None]], now_ms: int) -> int: ...

    def read(self, partition: int) -> Iterable[tuple[int, bytes | None, bytes | None]]: ...

    def has_partition(self, partition: int) -> bool: ...

    def start_offset(self, partition: int) -> int: ...

    def end_offset(self, partition: int) -> int: ...


OFFSETS, STATE = "offsets", "state"  # the two logs a write goes to


@dataclass
class _Write:
    """One append: its records, and the coordinator's changes they carry (marked once written)."""
    records: list = field(default_factory=list)
    groups: list = field(default_factory=list)
    parts: list = field(default_factory=list)


class SharePersistence:
    def __init__(self, shares: ShareGroupCoordinator, offsets_log: StateLog, state_log: StateLog,
                 offsets_partition_for: Callable[[str], int | None], state_partitions: Callable[[], int | None],
                 ensure_state_topic: Callable[[], bool]):
        """offsets_partition_for(group_id): its __consumer_offsets partition (None: no group
        coordinator yet); state_partitions():
        the partition count of __share_group_state, None while it does not exist;
        ensure_state_topic(): create it if needed, True once it exists."""
        self.shares = shares
        self.logs = {OFFSETS: offsets_log, STATE: state_log}
        self.offsets_partition_for = offsets_partition_for
        self.state_partitions = state_partitions
        self.ensure_state_topic = ensure_state_topic
        self.latest: dict[int, dict] = {}  # __share_group_state partition -> {key: offset of its last snapshot}

    # ------------------------------------------------------------------ start-up

    def replay_group_record(self, key: bytes | None, value: bytes | None) -> None:
        """One record of the __consumer_offsets replay: a share group's epoch (others are ignored)."""
        d = share_state.decode_group_metadata(key, value)
        if d is not None:
            self.shares.restore_group(*d)

    def load_state(self, topic_ids: Iterable[bytes]) -> None:
        """Share-partition states as last persisted; state of topics not in ``topic_ids`` (deleted
        meanwhile) is dropped."""
        sg, log = self.shares, self.logs[STATE]
        for p in range(self.state_partitions() or 0):
            latest = self.latest.setdefault(p, {})
            for offset, key, value in log.read(p):
                d = share_state.decode_partition_state(key, value)
                if d is None:
                    continue
                k, start, batches = d
                sg.restore_partition(k, start, batches)
                if start is None:
                    latest.pop(bytes(key), None)
                else:
                    latest[bytes(key)] = offset
        for tid in {k[1] for k in sg.partitions} - set(topic_ids):
            sg.forget_topic(tid)

    # ------------------------------------------------------------------ writes

    def records(self, groups: list, parts: list) -> dict[tuple[str, int], _Write]:
        """The share coordinator's changes (ShareGroupCoordinator.changes) as records, by the log
        partition they go to. What has nowhere to go yet (no group coordinator, no state topic) is
        left out, and stays pending."""
        writes: dict[tuple[str, int], _Write] = {}
        for gid, epoch, h in groups:
            partition = self.offsets_partition_for(gid)
            if partition is None:
                continue  # no group coordinator yet (a quorum broker starting)
            value = None if epoch is None else share_state.group_metadata_value(epoch, h)
            w = writes.setdefault((OFFSETS, partition), _Write())
            w.records.append((share_state.group_metadata_key(gid), value))
            w.groups.append((gid, epoch, h))
        n = self.state_partitions()
        for (gid, tid, p), sp in parts if n is not None else ():
            value = None if sp is None else share_state.partition_state_value(gid, tid, p, sp.start_offset,
                                                                               sp.state_batches())
            w = writes.setdefault((STATE, share_state.partition_for(gid, tid, p, n)), _Write())
            w.records.append((share_state.partition_state_key(gid, tid, p), value))
            w.parts.append(((gid, tid, p), sp))
        return writes

    def persist(self, now_ms: int) -> None:
        """Write what changed in share groups and is not written yet. Each log partition's records go
        as one append; what an append carried is marked written only once it succeeded, so a failed
        append (raised to the caller) leaves its changes pending for the next call."""
        sg = self.shares
        if not sg.has_changes():
            return
        if any(sp.dirty for sp in sg.partitions.values()) and not self.ensure_state_topic():
            return  # a quorum broker: the topic is on its way; write once it is there
        for (which, partition), w in self.records(*sg.changes()).items():
            log = self.logs[which]
            if not log.has_partition(partition):
                sg.persisted(w.groups, w.parts)  # led elsewhere (a quorum): not this broker's to write
                continue
            recs = w.records
            last = log.append(partition, recs, now_ms)
            sg.persisted(w.groups, w.parts)
            if which == STATE:
                latest = self.latest.setdefault(partition, {})
                for i, (key, value) in enumerate(recs):
                    if value is None:
                        latest.pop(key, None)
                    else:
                        latest[key] = last - len(recs) + 1 + i

    def prune_points(self) -> list[tuple[int, int]]:
        """Every record of __share_group_state is a whole snapshot: records older than the oldest
        latest snapshot of a partition's keys are not needed (Kafka prunes them the same way, every
        share.coordinator.state.topic.prune.interval.ms). Returns [(partition, new log start)]."""
        log = self.logs[STATE]
        out = []
        for partition, latest in self.latest.items():
            if not log.has_partition(partition):
                continue
            low = min(latest.values()) if latest else log.end_offset(partition)
            if low > log.start_offset(partition):
                out.append((partition, low))
        return out
