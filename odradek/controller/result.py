"""What a controller decision returns, and what writing it gave.

ControllerResult is Kafka's: the records a decision writes (one batch, applied
atomically) and the response to give once they are committed. Commit says where
the batch went: a single voter appends, commits and applies it before returning;
the Raft quorum's active controller returns at once and the caller waits until
the metadata log is applied up to ``last_offset`` (raft_driver.wait_applied).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Generic, TypeVar

from odradek.wire.errors import ErrorCode

T = TypeVar("T")

# Kafka's QuorumController.MAX_RECORDS_PER_USER_OP: each manager builds the records of one user
# operation in a BoundedList of this length, whose overflow (BoundedListTooLongException) fails the
# operation where it is not caught
MAX_RECORDS_PER_USER_OP = 10000


@dataclass(frozen=True)
class ControllerResult(Generic[T]):
    """A decision: the records to write and the response once they are written."""
    records: list = field(default_factory=list)
    response: T = None


@dataclass(frozen=True)
class Commit:
    """Where a proposed batch of records went in the metadata log."""
    last_offset: int  # the offset of the batch's last record; -1 when nothing was written
    applied: bool  # already committed and in the image
    epoch: int = -1  # the leader epoch it was proposed in (a Raft quorum's); -1: not known / a single voter

    @property
    def written(self) -> bool:
        return self.last_offset >= 0


def committed_as_proposed(commit: Commit, epoch_at_offset: int | None, epoch_now: int) -> bool:
    """Whether the batch committed at ``commit.last_offset`` is the one proposed: the record there
    has the leader epoch it was proposed in (only that epoch's leader writes records of that epoch, one
    per offset). A new leader may have truncated an uncommitted proposal and committed other records at
    the same offsets. ``epoch_at_offset``: the epoch of the record held there (None once it is in a
    snapshot: then only a leader epoch that did not change says so)."""
    if commit.epoch < 0:
        return True
    held = epoch_at_offset if epoch_at_offset is not None else epoch_now
    return held == commit.epoch


NOTHING_WRITTEN = Commit(-1, True)


@dataclass(frozen=True)
class Written(Generic[T]):
    """A decision that went through the driver: its response and its commit."""
    response: T
    commit: Commit


@dataclass(frozen=True)
class Refusal:
    """A controller operation that failed whole, nothing written: Kafka's controller completes the
    operation's future with an exception, answered by the request's getErrorResponse (its error on
    every entry the request names)."""
    error_code: int
    message: str | None


# Kafka's EventHandlerExceptionInfo for a BoundedListTooLongException out of an operation: a
# PolicyViolationException
TOO_LARGE = Refusal(int(ErrorCode.POLICY_VIOLATION), "Unable to perform excessively large batch operation.")
