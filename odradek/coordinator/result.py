"""What a coordinator's write returns (Kafka's CoordinatorResult): the records to append to the
coordinator's partition, the state change they stand for and the response, the keys of parked
requests to wake; and the runtime that runs them against the coordinator's log (the broker's
CoordinatorLog over its internal topic, and its purgatory): append the records, then apply and
answer, then wake. The state never moves ahead of its log.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Generic, Iterable, Protocol, TypeVar

from odradek.wire.errors import ErrorCode

from .errors import CoordinatorError
from .partition_loading import CoordinatorPartitions

T = TypeVar("T")


class CoordinatorLog(Protocol):
    """A coordinator's internal topic (broker/coordinator_log.py)."""

    def append(self, partition: int, records: list[tuple[bytes, bytes | None]], now_ms: int) -> int: ...

    def read(self, partition: int) -> Iterable[tuple[int, bytes | None, bytes | None]]: ...

    def has_partition(self, partition: int) -> bool: ...

    def end_offset(self, partition: int) -> int:
        """The offset the partition's next record written will have (records collected for a batch
        not written yet are not counted)."""
        ...

    def committed_offset(self, partition: int) -> int:
        """The partition's high watermark: its records below it are committed."""
        ...

    def hold_until_committed(self, partition: int) -> None:
        """The response being made waits until everything written to the partition so far is
        committed (Kafka's write operation without records)."""
        ...


@dataclass
class CoordinatorResult(Generic[T]):
    """A coordinator decision: the records to write and what follows once they are."""
    records: list  # [(key, value | None)] for the partition of the group (or transactional id)
    apply: Callable[[], T]  # once the records are written: the state they stand for; returns the response
    failed: Callable[[Exception], T] | None = None  # the response when they cannot be (None: the error propagates)
    wake: tuple = ()  # purgatory keys to poke once written, e.g. ("group", group_id)


def write_error(e: Exception) -> ErrorCode:
    """The code of a failed write: the one the log refused it with (COORDINATOR_NOT_AVAILABLE
    under min.insync.replicas, NOT_COORDINATOR when the partition moved), else UNKNOWN_SERVER_ERROR."""
    return e.code if isinstance(e, CoordinatorError) else ErrorCode.UNKNOWN_SERVER_ERROR


def no_response() -> None:
    """The apply of a write whose state change is already made (or that answers nothing)."""
    return None


class CoordinatorRuntime:
    """Runs a coordinator's CoordinatorResults: ``partition_for(key)`` names the partition of a
    group or transactional id, ``poke(key)`` wakes parked requests. Without a log (unit tests of the
    state machines) records go nowhere and every write succeeds."""

    def __init__(self, log: CoordinatorLog | None, partition_for: Callable[[str], int],
                 poke: Callable[[tuple], object] | None = None, partitions: CoordinatorPartitions | None = None,
                 changing: Callable[[str], None] | None = None):
        """``partitions``: which partitions are loaded here, as leadership moves (the broker's);
        None: every partition this node leads (``log.has_partition``) is coordinated here;
        ``changing(key)``: called before a write that appended records applies (last_offset set)."""
        self.log = log
        self.partition_for = partition_for
        self.poke = poke
        self.partitions = partitions
        self.changing = changing
        # while a write's apply runs: the offset of the last record it appended (None: it appended
        # none, or there is no log) and how many it appended; what the timelines note its changes
        # at (offset_timeline.py, group_timeline.py)
        self.last_offset: int | None = None
        self.appended = 0

    def is_coordinator(self, key: str) -> bool:
        """This node coordinates the key's partition and has loaded it (without a log: always)."""
        return self.coordinator_error(key) is ErrorCode.NONE

    def coordinator_error(self, key: str) -> ErrorCode:
        """NONE when the key's partition is coordinated here; else what Kafka answers: NOT_COORDINATOR,
        or COORDINATOR_LOAD_IN_PROGRESS while its records are being loaded."""
        return self.partition_error(self.partition_for(key))

    def partition_error(self, partition: int) -> ErrorCode:
        """coordinator_error of the keys of ``partition``."""
        if self.partitions is not None:
            return self.partitions.error(partition)
        if self.log is None or self.log.has_partition(partition):
            return ErrorCode.NONE
        return ErrorCode.NOT_COORDINATOR

    def append(self, key: str, records: list, now_ms: int) -> int | None:
        """-> the offset of the last record appended (None: none was)."""
        if self.log is not None and records:
            return self.log.append(self.partition_for(key), records, now_ms)
        return None

    def write(self, key: str, result: CoordinatorResult[T], now_ms: int) -> T:
        """Append the result's records to the key's partition, then apply it and wake what it names;
        if the append fails, the result's failure response (or the error)."""
        try:
            last = self.append(key, result.records, now_ms)
        except Exception as e:
            if result.failed is None:
                raise
            return result.failed(e)
        outer = self.last_offset, self.appended
        self.last_offset, self.appended = last, len(result.records) if last is not None else 0
        try:
            if last is not None and self.changing is not None:
                self.changing(key)
            response = result.apply()
        finally:
            self.last_offset, self.appended = outer
        if self.poke is not None:
            for k in result.wake:
                self.poke(k)
        return response
