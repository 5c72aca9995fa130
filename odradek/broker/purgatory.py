"""Purgatory: requests waiting for an event (an append, a group change) or a deadline.

Handlers return a ``Delayed``; the broker parks it here with a callback that sends
the response. ``poke(key)`` re-tries every operation watching ``key``; at the deadline
``on_expire`` answers it. Exactly one of them completes an operation.

The deadlines are a heap under one event-loop timer (for the earliest), as Kafka's purgatory
keeps its operations in one timing wheel: a timer of the loop for each costs ~700 bytes, 7 MB
for a 10,000-member group's parked joins. A completed or cancelled operation lets go of what it
holds at once; its heap entry goes at its deadline or when such entries outnumber the waiting
ones (the heap is rebuilt).
"""

from __future__ import annotations

import heapq
import itertools
import logging
from typing import Any, Callable

log = logging.getLogger(__name__)

# completed entries in the deadline heap that make it worth rebuilding (and more than the waiting ones)
REBUILD_AFTER = 256


class _Op:
    __slots__ = ("delayed", "done_cb", "done")

    def __init__(self, delayed, done_cb):
        self.delayed = delayed
        self.done_cb = done_cb
        self.done = False


class Purgatory:
    def __init__(self, clock_ms: Callable[[], int], schedule: Callable[[float, Callable], Any]):
        """clock_ms(): now in ms; schedule(delay_s, fn) -> handle with .cancel()."""
        self._clock = clock_ms
        self._schedule = schedule
        self._watchers: dict[Any, set[_Op]] = {}
        self._deadlines: list[tuple[int, int, _Op]] = []  # a heap: (deadline_ms, order, op)
        self._order = itertools.count()
        self._waiting = 0  # operations not done (the others' heap entries are stale)
        self._timer = None  # the loop's timer for the earliest deadline in the heap
        self._timer_ms: int | None = None  # ... and that deadline

    def __len__(self) -> int:
        return self._waiting

    def add(self, delayed, done_cb: Callable[[Any], None]) -> _Op:
        op = _Op(delayed, done_cb)
        for key in delayed.watch:
            self._watchers.setdefault(key, set()).add(op)
        self._waiting += 1
        deadline = delayed.deadline_ms
        heapq.heappush(self._deadlines, (deadline, next(self._order), op))
        if self._timer_ms is None or deadline < self._timer_ms:
            self._arm(deadline)
        return op

    def _arm(self, deadline_ms: int) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._timer_ms = deadline_ms
        self._timer = self._schedule(max(0.0, (deadline_ms - self._clock()) / 1000.0), self._expire_due)

    def _disarm(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._timer = self._timer_ms = None

    def _expire_due(self) -> None:
        """The timer: every operation whose deadline has come (by the clock, or the one the timer
        was set for: a virtual clock does not move with the loop's time) is answered by its
        on_expire."""
        due = max(self._clock(), self._timer_ms or 0)
        self._timer = self._timer_ms = None
        while self._deadlines and self._deadlines[0][0] <= due:  # (answers may rebuild the heap)
            op = heapq.heappop(self._deadlines)[2]
            if not op.done:
                self._expire(op)
        heap = self._deadlines
        while heap and heap[0][2].done:
            heapq.heappop(heap)
        if heap and self._timer_ms is None:
            self._arm(heap[0][0])

    def poke(self, key) -> int:
        ops = self._watchers.get(key)
        if not ops:
            return 0
        now = self._clock()
        n = 0
        for op in list(ops):
            if op.done:
                continue
            try:
                resp = op.delayed.try_complete(now)
            except Exception as e:  # a broken operation must not break the poker
                log.exception("delayed operation failed on poke")
                self._finish(op, e)
                n += 1
                continue
            if resp is not None:
                self._finish(op, resp)
                n += 1
        return n

    def cancel(self, op: _Op) -> None:
        """Drop an operation whose connection went away: it lets go at once of what it holds (a
        JoinGroup's until a rebalance timeout otherwise)."""
        if not op.done:
            self._unwatch(op)
            self._let_go(op)

    def _expire(self, op: _Op) -> None:
        if op.done:
            return
        try:
            resp = op.delayed.on_expire(self._clock())
        except Exception as e:
            log.exception("delayed operation failed on expiry")
            resp = e
        self._finish(op, resp)

    def _finish(self, op: _Op, resp) -> None:
        self._unwatch(op)
        done_cb = op.done_cb
        self._let_go(op)
        done_cb(resp)

    def _let_go(self, op: _Op) -> None:
        """op is done: it keeps nothing; the heap is rebuilt when done entries outnumber the waiting
        ones (the timer goes when none waits)."""
        op.done = True
        op.delayed = op.done_cb = None
        self._waiting -= 1
        heap = self._deadlines
        if not self._waiting:
            heap.clear()
            self._disarm()
        elif len(heap) - self._waiting > max(REBUILD_AFTER, self._waiting):
            self._deadlines = heap = [e for e in heap if not e[2].done]
            heapq.heapify(heap)

    def _unwatch(self, op: _Op) -> None:
        for key in op.delayed.watch:
            ops = self._watchers.get(key)
            if ops is not None:
                ops.discard(op)
                if not ops:
                    del self._watchers[key]

    def cancel_all(self) -> None:
        """Answer every waiting operation now (by its on_expire)."""
        for _, _, op in sorted(self._deadlines):
            if not op.done:
                self._expire(op)
