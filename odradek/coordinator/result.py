"""What a coordinator's write returns (Kafka's CoordinatorResult): the records to append to the
coordinator's partition, the state change they stand for and the response, the keys of parked
requests to wake. The caller that holds the log (GroupCoordinator.write, over the broker's
CoordinatorLog and purgatory) appends the records, then applies and answers, then wakes; the
state never moves ahead of its log.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Generic, TypeVar

T = TypeVar("T")


@dataclass
class CoordinatorResult(Generic[T]):
    records: list  # [(key, value | None)] for the partition of the group (or transactional id)
    apply: Callable[[], T]  # once the records are written: the state they stand for; returns the response
    failed: Callable[[Exception], T] | None = None  # the response when they cannot be (None: the error propagates)
    wake: tuple = ()  # purgatory keys to poke once written, e.g. ("group", group_id)
