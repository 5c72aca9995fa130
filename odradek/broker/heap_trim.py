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
import concurrent.futures
import contextvars
import os
import threading
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
# the event loop's free lists of objects kept for reuse once freed: uvloop's Handle and TimerHandle
# (Cython free lists of 250), asyncio's future iterators (255)
HANDLE_FREE_LIST = 250
FUTURE_ITER_FREE_LIST = 255


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
        # the trim due is the follow-up, once the closes have slowed down (the storm is over): the
        # time to renew the loop's free lists (FreeListReserve.renew), whose objects the closes of a
        # storm still under way would mix with their own
        self.settled = False
        self._partitions = 0  # the count at the last call of partitions()
        self._partitions_trimmed = 0  # ... at the last trim after a creation (or the lowest since)

    def connections_due(self, open_now: int) -> bool:
        """Note the open connections (every second or so); True when a trim is due now (the caller
        then calls trim_after_connections(), after FreeListReserve.renew() on an event loop)."""
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
            self.settled = True
        else:
            self._again_in = TRIM_AGAIN_AFTER
            self.settled = False
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


class FreeListReserve:
    """The event loop's free lists emptied of a storm's objects, refilled with objects made at start-up.

    uvloop keeps the last 250 Handles and TimerHandles freed, and asyncio the last 255 future
    iterators, for reuse (gc.collect() does not empty these lists). After a storm of connections
    they are the storm's objects, a few in each of many pymalloc pools, and they keep those pools'
    1 MiB arenas from going back to the OS. ``renew()`` takes them out of the free lists, lets the
    reserve (as many objects of each kind, made when the broker started, in arenas that live anyway)
    fill the lists, frees the storm's ones to pymalloc (their pools empty), then takes the reserve
    back for the next storm: the lists are left empty, and what the loop frees next fills them with
    objects made after the storm's pools emptied. (Objects made afresh while the storm's were still
    held, as before, were given free blocks in the storm's pools and kept them.) Renewed once the
    closes have slowed down (HeapTrim.settled): during a storm's closes the loop's own handles mix
    into the lists. The reserve costs ~7 pools (~110 KB). Nothing the loop runs changes: every
    handle made here is cancelled before it runs."""

    def __init__(self, loop: asyncio.AbstractEventLoop):
        self._loop = loop
        self._fut = loop.create_future()
        # one context for every handle made here (a handle made without one gets a new copy of the
        # current context, which it keeps: 250 Contexts made after the storm, in its pools)
        self._context = contextvars.copy_context()
        self._held = self._take()

    def _take(self) -> list[list]:
        """As many of each kind as a free list holds: the free list's, then new ones."""
        loop, fut, context = self._loop, self._fut, self._context
        taken = [[loop.call_soon(_noop, context=context) for _ in range(HANDLE_FREE_LIST)],
                 [loop.call_later(3600, _noop, context=context) for _ in range(HANDLE_FREE_LIST)],
                 [fut.__await__() for _ in range(FUTURE_ITER_FREE_LIST)]]
        for handles in taken[:2]:
            for h in handles:
                h.cancel()
        return taken

    async def renew(self) -> None:
        storm = self._take()  # the free lists' objects (the storm's), then new ones: the lists are empty
        for objects in self._held:  # the reserve fills them at once, before anything the loop runs frees
            objects.clear()         # a handle into them
        for _ in range(3):  # the loop lets go of the storm's cancelled handles
            await asyncio.sleep(0)
        for objects in storm:  # back to pymalloc: the lists are full
            objects.clear()
        self._held = self._take()  # the reserve again, from the free lists
        for _ in range(3):
            await asyncio.sleep(0)

    def close(self) -> None:
        self._held = []
        self._fut.cancel()


async def start_worker_threads(loop: asyncio.AbstractEventLoop) -> None:
    """The loop's default executor (log loading, retention, checkpoints, cleaning), with all its
    threads started now, as Kafka starts its scheduler's background.threads at start-up. Started on
    demand instead, a thread made while many clients were served (when jobs overlap, the loop being
    slow) kept its objects (Thread, Condition, locks, ...) in a 1 MiB pymalloc arena of theirs."""
    workers = min(32, (os.cpu_count() or 1) + 4)  # ThreadPoolExecutor's default
    executor = concurrent.futures.ThreadPoolExecutor(workers, thread_name_prefix="odradek-worker")
    loop.set_default_executor(executor)
    everyone = threading.Barrier(workers, timeout=10)  # each job waits until every thread has one

    def meet() -> None:
        try:
            everyone.wait()
        except threading.BrokenBarrierError:
            pass

    await asyncio.gather(*(loop.run_in_executor(None, meet) for _ in range(workers)))
