"""Purgatory: requests waiting for an event (an append, a group change) or a deadline.

Handlers return a ``Delayed``; the broker parks it here with a callback that sends
the response. ``poke(key)`` re-tries every operation watching ``key``; a timer
calls ``on_expire`` at the deadline. Exactly one of them completes an operation.
"""

from __future__ import annotations

import logging
from typing import Any, Callable

log = logging.getLogger(__name__)


class _Op:
    __slots__ = ("delayed", "done_cb", "done", "timer")

    def __init__(self, delayed, done_cb):
        self.delayed = delayed
        self.done_cb = done_cb
        self.done = False
        self.timer = None


class Purgatory:
    def __init__(self, clock_ms: Callable[[], int], schedule: Callable[[float, Callable], Any]):
        """clock_ms(): now in ms; schedule(delay_s, fn) -> handle with .cancel()."""
        self._clock = clock_ms
        self._schedule = schedule
        self._watchers: dict[Any, set[_Op]] = {}

    def __len__(self) -> int:
        return len({op for ops in self._watchers.values() for op in ops})

    def add(self, delayed, done_cb: Callable[[Any], None]) -> _Op:
        op = _Op(delayed, done_cb)
        for key in delayed.watch:
            self._watchers.setdefault(key, set()).add(op)
        delay = max(0.0, (delayed.deadline_ms - self._clock()) / 1000.0)
        op.timer = self._schedule(delay, lambda: self._expire(op))
        return op

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
        """Drop an operation whose connection went away (its timer too: it would keep the operation
        and what it holds until the deadline, a rebalance timeout for a JoinGroup)."""
        if not op.done:
            op.done = True
            if op.timer is not None:
                op.timer.cancel()
            self._unwatch(op)

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
        op.done = True
        if op.timer is not None:
            op.timer.cancel()
        self._unwatch(op)
        op.done_cb(resp)

    def _unwatch(self, op: _Op) -> None:
        for key in op.delayed.watch:
            ops = self._watchers.get(key)
            if ops is not None:
                ops.discard(op)
                if not ops:
                    del self._watchers[key]

    def cancel_all(self) -> None:
        for ops in list(self._watchers.values()):
            for op in list(ops):
                if not op.done:
                    self._expire(op)
