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

T = TypeVar("T")


@dataclass(frozen=True)
class ControllerResult(Generic[T]):
    records: list = field(default_factory=list)
    response: T = None


@dataclass(frozen=True)
class Commit:
    last_offset: int  # the offset of the batch's last record; -1 when nothing was written
    applied: bool  # already committed and in the image

    @property
    def written(self) -> bool:
        return self.last_offset >= 0


NOTHING_WRITTEN = Commit(-1, True)


@dataclass(frozen=True)
class Written(Generic[T]):
    """A decision that went through the driver: its response and its commit."""
    response: T
    commit: Commit
