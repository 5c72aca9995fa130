"""What the replica state machines exchange and return: the parts of Fetch, OffsetForLeaderEpoch
and AlterPartition they need (the broker maps them to and from the generated wire messages),
and the actions a driver carries out. Plain frozen dataclasses; no I/O."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from odradek.log.leader_epoch_cache import EpochEndOffset, LeaderEpochCache
from odradek.wire.errors import ErrorCode

NO_EPOCH = -1


class LogView(Protocol):
    """The read side of a partition's local log that replication needs."""

    @property
    def log_start_offset(self) -> int: ...

    @property
    def log_end_offset(self) -> int: ...

    @property
    def epochs(self) -> LeaderEpochCache: ...


class BatchInfo(Protocol):
    """A record batch as the follower sees it: offsets and the leader epoch it was written in."""

    @property
    def base_offset(self) -> int: ...

    @property
    def last_offset(self) -> int: ...

    @property
    def leader_epoch(self) -> int: ...


@dataclass(frozen=True)
class ReplicaFetch:
    """One partition of a follower's Fetch (ReplicaState: replica id and broker epoch, KIP-903)."""
    request_id: int
    replica_id: int
    broker_epoch: int
    current_leader_epoch: int
    fetch_offset: int
    last_fetched_epoch: int  # NO_EPOCH: not sent (Fetch < v12)
    log_start_offset: int


@dataclass(frozen=True)
class FetchDecision:
    """The leader's answer to a ReplicaFetch. With error NONE and no diverging epoch, the
    driver reads records from `read_from` and sends them with these watermarks."""
    request_id: int
    leader_epoch: int
    error: ErrorCode
    fetch_offset: int
    high_watermark: int = -1
    log_start_offset: int = -1
    diverging_epoch: EpochEndOffset | None = None

    @property
    def read_from(self) -> int | None:
        ok = self.error == ErrorCode.NONE and self.diverging_epoch is None
        return self.fetch_offset if ok else None


@dataclass(frozen=True)
class EpochQuery:
    """OffsetForLeaderEpoch for one partition, as a follower of an old leader sends it."""
    request_id: int
    replica_id: int
    current_leader_epoch: int
    leader_epoch: int


@dataclass(frozen=True)
class EpochAnswer:
    """An OffsetForLeaderEpoch answer for one partition."""
    request_id: int
    leader_epoch: int  # the responder's current leader epoch
    error: ErrorCode
    end: EpochEndOffset


@dataclass(frozen=True)
class IsrMember:
    """A member of the ISR, with the epoch of its broker registration."""
    broker_id: int
    broker_epoch: int  # -1 when the leader has not seen a fetch from it in this epoch


@dataclass(frozen=True)
class AlterPartitionProposal:
    """AlterPartition's partition entry: the leader's proposed ISR at its partition epoch."""
    proposal_id: int
    leader_id: int
    leader_epoch: int
    partition_epoch: int
    new_isr: tuple[IsrMember, ...]

    @property
    def isr_ids(self) -> frozenset[int]:
        return frozenset(m.broker_id for m in self.new_isr)


@dataclass(frozen=True)
class LeaderAndIsr:
    """The controller's answer (or a metadata update): the partition as it now stands."""
    leader_id: int
    leader_epoch: int
    partition_epoch: int
    isr: frozenset[int]


@dataclass(frozen=True)
class ProduceCompletion:
    """An acks=all produce that is done: error NONE, NOT_ENOUGH_REPLICAS_AFTER_APPEND,
    REQUEST_TIMED_OUT or NOT_LEADER_OR_FOLLOWER."""
    request_id: int
    error: ErrorCode


@dataclass
class LeaderReady:
    """What the leader asks its driver to do (drained by PartitionLeader.ready())."""
    epoch_start: tuple[int, int] | None = None  # assign (epoch, start offset) in the epoch cache
    proposals: list[AlterPartitionProposal] = field(default_factory=list)
    completions: list[ProduceCompletion] = field(default_factory=list)
    high_watermark: int = 0
    low_watermark_moved: bool = False  # a waiting DeleteRecords may be answered (lowWatermarkIfLeader)


@dataclass(frozen=True)
class FollowerReady:
    """What a follower asks its driver to do with one response, in this order: truncate the
    log (to an end offset, or fully to a new start), append the batches, then move the log
    start offset and record the high watermark. truncate_to may equal the log end: the
    records stay, but the epoch cache is truncated there all the same."""
    truncate_to: int | None = None
    truncate_fully_to: int | None = None
    append: tuple = ()
    log_start_offset: int | None = None
    high_watermark: int | None = None
