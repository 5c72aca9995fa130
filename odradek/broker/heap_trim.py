"""Memory a storm of connections, or a large creation of partitions, leaves free goes back to the OS.

A connection's objects are freed when it closes, but glibc keeps the freed heap pages (the
heap is fragmented by what outlives the storm, so it cannot shrink from its top): RSS stayed
at its peak. ``HeapTrim`` calls glibc's ``malloc_trim(0)`` (which releases free pages inside
the heap too) once the number of open connections has fallen well below its peak since the
last trim, and once a creation of many partitions has ended (its requests, records and growing
tables freed); elsewhere than glibc it does nothing.
"""
from __future__ import annotations

import ctypes
import gc
import ctypes.util
import logging
from typing import Callable

log = logging.getLogger("odradek.broker")

TRIM_AFTER_CLOSED = 256  # connections closed since the peak that make a trim worth its few ms
# calls (seconds) after a trim with no new peak before one more: what the last closes of a storm
# and their callbacks freed after the first trim (a 10,000-member group: RSS after 83 -> 66 MB)
TRIM_AGAIN_AFTER = 3
TRIM_AFTER_CREATED = 5_000  # partitions made since the last trim that make one worth its few ms


def malloc_trim() -> Callable[[int], int] | None:
    """glibc's malloc_trim, or None elsewhere."""
    name = ctypes.util.find_library("c")
    if not name:
        return None
    try:
        return ctypes.CDLL(name).malloc_trim
    except (OSError, AttributeError):  # not glibc
        return None


class HeapTrim:
    def __init__(self, trim: Callable[[int], int] | None):
        """trim: malloc_trim(), or None (never trims)."""
        self._trim = trim
        self._peak = 0
        self._again_in = 0  # calls until the follow-up trim (0: none due)
        self._partitions = 0  # the count at the last call of partitions()
        self._partitions_trimmed = 0  # ... at the last trim after a creation (or the lowest since)

    def connections(self, open_now: int) -> bool:
        """Note the open connections (every second or so); True when the heap was trimmed."""
        if open_now > self._peak:
            self._peak = open_now
            self._again_in = 0
            return False
        if self._trim is None:
            return False
        if self._peak - open_now < TRIM_AFTER_CLOSED:
            if self._again_in == 0:
                return False
            self._again_in -= 1
            if self._again_in:
                return False
        else:
            self._again_in = TRIM_AGAIN_AFTER
        self._peak = open_now
        gc.collect()  # what the closed connections left in reference cycles first (and the free lists)
        self._trim(0)
        log.debug("heap trimmed after connections closed (%d open)", open_now)
        return True

    def partitions(self, count: int) -> bool:
        """Note how many partitions this broker holds (every second or so); True when the heap
        was trimmed: once the count has grown by TRIM_AFTER_CREATED since the last such trim
        and stayed the same since the previous call (the creation is over). No gc pass first:
        a creation leaves few cycles, and a full pass over 100,000 partitions' objects would hold
        the event loop."""
        grew = count != self._partitions
        self._partitions = count
        self._partitions_trimmed = min(self._partitions_trimmed, count)  # (deletions: counted from there)
        if self._trim is None or grew or count - self._partitions_trimmed < TRIM_AFTER_CREATED:
            return False
        self._partitions_trimmed = count
        self._trim(0)
        log.debug("heap trimmed after partitions were created (%d held)", count)
        return True
