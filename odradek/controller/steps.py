"""Decisions made in steps (issue 27: no request holds the event loop for long): a decision
over a large request is a generator that yields between parts and returns what the decision
returns; the caller serves other clients between the parts (api_handlers/context.in_steps), or
runs it through at once (``whole``). A StepBudget says when a part is done: each piece of work
spends units, and a part is DECISION_STEP units (~1-5 ms of CPU)."""

from __future__ import annotations

from typing import Generator, TypeVar

T = TypeVar("T")

DECISION_STEP = 500  # the units of one part: a partition looked at is one (~2-3 us)
CHANGE_UNITS = 10  # a partition whose change is built (PartitionChange: an election, a reassignment; ~40 us)
CONFIG_CHECK_UNITS = 50  # a topic's effective config checked (~0.3 ms)


class StepBudget:
    """``if budget.spend(units): yield`` after each piece of work yields every DECISION_STEP units."""

    __slots__ = ("size", "left")

    def __init__(self, size: int = DECISION_STEP):
        self.size = size
        self.left = size

    def spend(self, units: int = 1) -> bool:
        """Whether a part is done with these units (then the next part starts afresh)."""
        self.left -= units
        if self.left > 0:
            return False
        self.left = self.size
        return True


def whole(steps: Generator[None, None, T]) -> T:
    """What ``steps`` (a generator written to be run a part at a time) returns, run in one piece."""
    try:
        while True:
            next(steps)
    except StopIteration as done:
        return done.value
