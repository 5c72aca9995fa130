"""Memory a storm of connections leaves free goes back to the OS.

A connection's objects are freed when it closes, but glibc keeps the freed heap pages (the
heap is fragmented by what outlives the storm, so it cannot shrink from its top): RSS stayed
at its peak. ``HeapTrim`` calls glibc's ``malloc_trim(0)`` (which releases free pages inside
the heap too) once the number of open connections has fallen well below its peak since the
last trim; elsewhere than glibc it does nothing.
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
