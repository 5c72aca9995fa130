"""The broker's clock: the system's, or a test clock that moves only when told (``advance``).

Everything the broker decides by time (session timeouts, rebalance delays, transaction timeouts,
retention, compaction, producer-id expiry) reads ``now_ms()`` of the one clock the broker was
given; a broker started with ``odradek.testing.virtual.clock=true`` gets a ``VirtualClock``, so a
test moves it by ``advance(ms)`` and what is due happens at once. Socket-level timing
(idle connections, connection rate limits) and the wait of a parked request stay in real time.
"""

from __future__ import annotations

import time
from typing import Callable


def system_now_ms() -> int:
    return time.time_ns() // 1_000_000


class SystemClock:
    virtual = False

    def now_ms(self) -> int:
        return time.time_ns() // 1_000_000


class VirtualClock:
    """Starts at the real time it was made (records' CreateTime and the clock stay comparable)
    and then moves only by ``advance``."""

    virtual = True

    def __init__(self, start_ms: int | None = None) -> None:
        self._now = system_now_ms() if start_ms is None else start_ms
        self._listeners: list[Callable[[int], None]] = []

    def now_ms(self) -> int:
        return self._now

    def on_advance(self, fn: Callable[[int], None]) -> None:
        """Call ``fn(now_ms)`` after each advance (the broker runs its due work at once)."""
        self._listeners.append(fn)

    def advance(self, ms: int) -> int:
        if isinstance(ms, bool) or not isinstance(ms, int) or ms < 0:
            raise ValueError(f"a clock advances by a whole number of ms >= 0, not {ms!r}")
        self._now += ms
        for fn in list(self._listeners):
            fn(self._now)
        return self._now


Clock = SystemClock | VirtualClock
