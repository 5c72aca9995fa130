"""The share coordinator (KIP-932): the persisted state of share-partitions, one partition of
__share_group_state per key, on that partition's leader (Kafka's ShareCoordinatorService/Shard).

It answers ReadShareGroupState, WriteShareGroupState, InitializeShareGroupState,
DeleteShareGroupState and ReadShareGroupStateSummary for the keys of the partitions it has loaded
(``partitions``: the load/unload state machine the other coordinators use; a key of a partition
not led here answers NOT_COORDINATOR, of one still loading COORDINATOR_LOAD_IN_PROGRESS).

Each change is one whole snapshot record of its key (share_state.py) appended to the partition
through the ``StateLog`` port (acks=-1: a CoordinatorLog, whose appends hold the response until
committed). A write replaces the key's snapshot: odradek's share-partition leaders always write
their whole in-flight state (Kafka's leaders may write only the batches that changed, which
Kafka's coordinator merges; odradek's leaders never do).

Fencing as Kafka's shard: a write or read naming a leader epoch older than the one stored is
FENCED_LEADER_EPOCH (a leader that lost its partition), a read with a newer one records it (so the
old leader's later writes are fenced); -1 skips the check. A write with a state epoch older than
the stored one is FENCED_STATE_EPOCH. A key never written reads as start offset -1
(uninitialized), state epoch 0.

Pure: no I/O beyond the log port, no clock.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Callable, Iterable, Protocol

from odradek.wire.errors import ErrorCode

from . import share_state
from .errors import CoordinatorError
from .partition_loading import CoordinatorPartitions
from .share_partition import ACKNOWLEDGED, ARCHIVED

E = ErrorCode
UNINITIALIZED_START_OFFSET = -1  # Kafka's PartitionFactory.UNINITIALIZED_START_OFFSET


class StateLog(Protocol):
    def append(self, partition: int, records: list[tuple[bytes, bytes | None]], now_ms: int) -> int: ...

    def has_partition(self, partition: int) -> bool: ...

    def start_offset(self, partition: int) -> int: ...

    def end_offset(self, partition: int) -> int: ...


@dataclass
class Snapshot:
    """A share-partition's persisted state."""
    start_offset: int
    batches: list = field(default_factory=list)  # [(first, last, delivery state, delivery count)]
    state_epoch: int = 0
    leader_epoch: int = 0
    delivery_complete_count: int = -1  # as written (WriteShareGroupState v1); -1: not given


def delivery_complete_count(s: Snapshot) -> int:
    """ReadShareGroupStateSummary v1's DeliveryCompleteCount (KIP-1226): as the leader wrote it, else
    (a v0 write) the records at or past the start offset that are done (acknowledged or archived)."""
    if s.delivery_complete_count != -1:
        return s.delivery_complete_count
    return sum(last - max(first, s.start_offset) + 1 for first, last, state, _ in s.batches
               if state in (ACKNOWLEDGED, ARCHIVED) and last >= s.start_offset)


class ShareCoordinator:
    def __init__(self, log: StateLog, state_partitions: Callable[[], int | None]):
        """state_partitions(): the partition count of __share_group_state, None while it does not exist."""
        self.log = log
        self.state_partitions = state_partitions
        self.partitions = CoordinatorPartitions()
        self.states: dict[int, dict[tuple, Snapshot]] = {}  # state partition -> {(group, topic id, p): snapshot}
        self.latest: dict[int, dict[bytes, int]] = {}  # state partition -> {record key: offset of its last snapshot}

    # ------------------------------------------------------------------ where

    def partition_for(self, key: tuple) -> int | None:
        n = self.state_partitions()
        return None if not n else share_state.partition_for(key[0], key[1], key[2], n)

    def error(self, key: tuple) -> ErrorCode:
        """NONE when this node coordinates the key's partition (loaded), else Kafka's error."""
        p = self.partition_for(key)
        if p is None:
            return E.COORDINATOR_NOT_AVAILABLE
        return self.partitions.error(p)

    # ------------------------------------------------------------------ load / unload

    def load(self, partition: int, records: Iterable[tuple[int, bytes | None, bytes | None]]) -> list[tuple]:
        """Replay a partition's records (offset, key, value), in order; returns the keys it holds."""
        states = self.states[partition] = {}
        latest = self.latest[partition] = {}
        for offset, key, value in records:
            d = share_state.decode_partition_state(key, value)
            if d is None:
                continue
            k, start, batches, state_epoch, leader_epoch, done = d
            if start is None:
                states.pop(k, None)
                latest.pop(bytes(key), None)
            else:
                states[k] = Snapshot(start, batches, state_epoch, leader_epoch, done)
                latest[bytes(key)] = offset
        return list(states)

    def unload(self, partition: int) -> None:
        self.states.pop(partition, None)
        self.latest.pop(partition, None)

    # ------------------------------------------------------------------ the five RPCs

    def _checked(self, key: tuple) -> tuple[int, dict]:
        err = self.error(key)
        if err:
            raise CoordinatorError(err)
        p = self.partition_for(key)
        return p, self.states.setdefault(p, {})

    def read(self, key: tuple, leader_epoch: int, now_ms: int) -> Snapshot:
        """ReadShareGroupState: the key's state (start offset -1 when never written)."""
        p, states = self._checked(key)
        s = states.get(key)
        if s is None:
            return Snapshot(UNINITIALIZED_START_OFFSET)
        if leader_epoch != -1 and leader_epoch < s.leader_epoch:
            raise CoordinatorError(E.FENCED_LEADER_EPOCH)
        if leader_epoch > s.leader_epoch:  # a new share-partition leader: its predecessor is fenced
            self._put(p, key, replace(s, leader_epoch=leader_epoch), now_ms)
        return s

    def summary(self, key: tuple) -> Snapshot:
        """ReadShareGroupStateSummary: as read, without fencing or recording anything."""
        _, states = self._checked(key)
        return states.get(key) or Snapshot(UNINITIALIZED_START_OFFSET)

    def write(self, key: tuple, snapshot: Snapshot, now_ms: int) -> None:
        """WriteShareGroupState: the key's new whole state."""
        p, states = self._checked(key)
        s = states.get(key)
        if s is not None:
            if snapshot.leader_epoch != -1 and snapshot.leader_epoch < s.leader_epoch:
                raise CoordinatorError(E.FENCED_LEADER_EPOCH)
            if snapshot.state_epoch < s.state_epoch:
                raise CoordinatorError(E.FENCED_STATE_EPOCH)
            if snapshot.leader_epoch == -1:
                snapshot = replace(snapshot, leader_epoch=s.leader_epoch)
        self._put(p, key, snapshot, now_ms)

    def initialize(self, key: tuple, state_epoch: int, start_offset: int, now_ms: int) -> None:
        """InitializeShareGroupState: start afresh at start_offset (nothing in flight)."""
        p, states = self._checked(key)
        s = states.get(key)
        if s is not None and state_epoch < s.state_epoch:
            raise CoordinatorError(E.FENCED_STATE_EPOCH)
        self._put(p, key, Snapshot(start_offset, [], state_epoch, -1 if s is None else s.leader_epoch), now_ms)

    def delete(self, key: tuple, now_ms: int) -> None:
        """DeleteShareGroupState: forget the key (a tombstone)."""
        p, states = self._checked(key)
        if key in states:
            self._put(p, key, None, now_ms)

    def _put(self, partition: int, key: tuple, snapshot: Snapshot | None, now_ms: int) -> None:
        """Append the key's record; the state changes once the append went through."""
        rkey = share_state.partition_state_key(*key)
        value = None if snapshot is None else share_state.partition_state_value(
            key[0], key[1], key[2], snapshot.start_offset, snapshot.batches, snapshot.state_epoch,
            snapshot.leader_epoch, snapshot.delivery_complete_count)
        offset = self.log.append(partition, [(rkey, value)], now_ms)
        states, latest = self.states.setdefault(partition, {}), self.latest.setdefault(partition, {})
        if snapshot is None:
            states.pop(key, None)
            latest.pop(rkey, None)
        else:
            states[key] = snapshot
            latest[rkey] = offset

    # ------------------------------------------------------------------ pruning

    def prune_points(self) -> list[tuple[int, int]]:
        """Every record is a whole snapshot: records older than the oldest latest snapshot of a
        partition's keys are not needed (Kafka prunes them the same way, every
        share.coordinator.state.topic.prune.interval.ms). Returns [(partition, new log start)]."""
        out = []
        for partition, latest in self.latest.items():
            if not self.log.has_partition(partition) or self.partitions.error(partition):
                continue
            low = min(latest.values()) if latest else self.log.end_offset(partition)
            if low > self.log.start_offset(partition):
                out.append((partition, low))
        return out
