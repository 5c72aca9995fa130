"""Memory a storm of connections, or a large creation of partitions, leaves free goes back to the OS.

A connection's objects are freed when it closes, but glibc keeps the freed heap pages (the
heap is fragmented by what outlives the storm, so it cannot shrink from its top): RSS stayed
at its peak. ``HeapTrim`` calls glibc's ``malloc_trim(0)`` (which releases free pages inside
the heap too) once the number of open connections has fallen well below its peak since the
last trim, and once a creation of many partitions has ended (its requests, records and growing
tables freed); elsewhere than glibc it does nothing.
"""
from __future__ import annotations

import asyncio
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
# objects of a kind the event loop keeps for reuse once freed: uvloop's Handle and TimerHandle (Cython
# free lists of 250), asyncio's future iterators (255)
FREE_LIST_ROOM = 256


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
    def __init__(self, trim: Callable[[int], int] | None, collect: Callable[[], int] = gc.collect):
        """trim: malloc_trim(), or None (never trims); collect: the full garbage collection run
        first (OldHeap.thorough when the broker freezes its old heap)."""
        self._trim = trim
        self._collect = collect
        self._peak = 0
        self._again_in = 0  # calls until the follow-up trim (0: none due)
        self._partitions = 0  # the count at the last call of partitions()
        self._partitions_trimmed = 0  # ... at the last trim after a creation (or the lowest since)

    def connections_due(self, open_now: int) -> bool:
        """Note the open connections (every second or so); True when a trim is due now (the caller
        then calls trim_after_connections(), after renew_free_lists() on an event loop)."""
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
        return True

    def trim_after_connections(self) -> None:
        if self._trim is None:
            return
        self._collect()  # what the closed connections left in reference cycles first (and the free lists)
        self._trim(0)
        log.debug("heap trimmed after connections closed (%d open)", self._peak)

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


def shrink_set(s: set) -> None:
    """A set's table never shrinks as members leave: one that held a storm's 10,000 connections keeps
    its 512 KiB table. Refilled from empty, the same set object gets a table sized for what it holds."""
    members = list(s)
    s.clear()
    s.update(members)


def _noop() -> None:
    pass


async def renew_free_lists(loop: asyncio.AbstractEventLoop) -> None:
    """Give the event loop's free lists objects made now, and free for good the ones a storm left there.

    uvloop keeps the last 250 Handles and TimerHandles freed, and asyncio the last 255 future
    iterators, for reuse (gc.collect() does not empty these lists). After a storm of connections
    they are the storm's last objects, a few in each of many pymalloc pools, and they keep those
    pools' 1 MiB arenas from going back to the OS. Taken from the free lists, then as many made
    afresh, the fresh ones freed first fill the lists and the storm's ones go back to pymalloc (a
    3,000-member group, in-process on uvloop: arenas after 39 -> 28, baseline 16). Nothing the
    loop runs changes: every handle made here is cancelled before it runs."""
    n = FREE_LIST_ROOM
    fut = loop.create_future()
    kept = [[loop.call_soon(_noop) for _ in range(n)], [loop.call_later(3600, _noop) for _ in range(n)],
            [fut.__await__() for _ in range(n)]]
    fresh = [[loop.call_soon(_noop) for _ in range(n)], [loop.call_later(3600, _noop) for _ in range(n)],
             [fut.__await__() for _ in range(n)]]
    for handles in (kept[0], kept[1], fresh[0], fresh[1]):
        for h in handles:
            h.cancel()
    for _ in range(3):  # the loop lets go of the cancelled handles
        await asyncio.sleep(0)
    for objects in fresh:  # into the free lists
        objects.clear()
    for objects in kept:  # back to pymalloc
        objects.clear()
    fut.cancel()
