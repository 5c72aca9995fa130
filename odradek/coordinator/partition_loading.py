"""Which partitions of a coordinator's internal topic this node coordinates, and which of them are
still loading, as Kafka's CoordinatorRuntime (scheduleLoadOperation / scheduleUnloadOperation).

A coordinator lives on the leader of its partition. When this node becomes leader of a partition
at a leader epoch (``elect``), the partition is LOADING: its records are read in the background
and requests for its keys answer COORDINATOR_LOAD_IN_PROGRESS. When the read is done (``loaded``
with the token ``elect`` gave) the records are replayed and the partition is ACTIVE. When this
node stops leading it (``resign``: a follower now, or the partition gone) it is unloaded and its
keys answer NOT_COORDINATOR. A load is applied only if it is still the current one: a load
started before a resignation, or for an older epoch, is dropped (its token is stale).

Pure: no I/O, no clock; the broker (broker/coordinator_loading.py) reads the log and drives this.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from odradek.wire.errors import ErrorCode


class State(Enum):
    LOADING = "loading"
    ACTIVE = "active"


@dataclass(frozen=True, eq=False)
class Load:
    """A load to run: read ``partition`` (led here at ``epoch``) and hand back this token."""
    partition: int
    epoch: int
    started_ms: int


@dataclass
class _Partition:
    """A coordinator partition this node leads or led: its state, epoch and current load."""
    state: State
    epoch: int  # the newest leader epoch this node leads the partition at
    load: Load | None  # the current load, while LOADING


class CoordinatorPartitions:
    def __init__(self):
        self._partitions: dict[int, _Partition] = {}
        # the newest leader epoch each partition was seen at (elected or resigned): an election at
        # that epoch or older is stale, whatever came between
        self._epochs: dict[int, int] = {}

    def elect(self, partition: int, epoch: int, now_ms: int) -> Load | None:
        """This node leads ``partition`` at ``epoch``: the load to start (None: already loading or
        loaded, or the election is stale)."""
        if epoch <= self._epochs.get(partition, -1):
            return None
        self._epochs[partition] = epoch
        p = self._partitions.get(partition)
        if p is not None:  # a newer epoch of a leadership this node kept: still the same state
            p.epoch = epoch
            return None
        load = Load(partition, epoch, now_ms)
        self._partitions[partition] = _Partition(State.LOADING, epoch, load)
        return load

    def resign(self, partition: int, epoch: int | None = None) -> bool:
        """This node no longer leads ``partition`` (a follower at leader epoch ``epoch``; None: the
        partition is gone from this node). True: it was loading or loaded here, its state goes.
        A resignation for an epoch this node already leads at or beyond is stale (ignored)."""
        p = self._partitions.get(partition)
        if epoch is None:
            self._epochs.pop(partition, None)  # a re-created topic starts its epochs again
        elif p is not None and epoch <= p.epoch:
            return False
        else:
            self._epochs[partition] = max(epoch, self._epochs.get(partition, -1))
        return self._partitions.pop(partition, None) is not None

    def loaded(self, load: Load) -> bool:
        """The read of ``load`` is done: True if it is still the current load (replay it now,
        the partition is ACTIVE), False if leadership moved meanwhile (drop what was read)."""
        if not self.is_current(load):
            return False
        p = self._partitions[load.partition]
        p.state, p.load = State.ACTIVE, None
        return True

    def failed(self, load: Load) -> None:
        """The read of ``load`` failed: the partition is not coordinated here (NOT_COORDINATOR, as
        Kafka's FAILED state) until the next election."""
        if self.is_current(load):
            del self._partitions[load.partition]

    def is_current(self, load: Load) -> bool:
        p = self._partitions.get(load.partition)
        return p is not None and p.load is load

    def error(self, partition: int) -> ErrorCode:
        """What a request for a key of ``partition`` gets: NONE when ACTIVE here."""
        p = self._partitions.get(partition)
        if p is None:
            return ErrorCode.NOT_COORDINATOR
        return ErrorCode.COORDINATOR_LOAD_IN_PROGRESS if p.state is State.LOADING else ErrorCode.NONE

    def epoch(self, partition: int) -> int:
        """The leader epoch this node coordinates ``partition`` at (-1: not here)."""
        p = self._partitions.get(partition)
        return -1 if p is None else p.epoch

    def state(self, partition: int) -> State | None:
        p = self._partitions.get(partition)
        return None if p is None else p.state

    def partitions(self) -> list[int]:
        """Every partition loading or loaded here."""
        return sorted(self._partitions)
