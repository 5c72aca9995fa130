"""Full garbage collections walk only what is new (issue 27: no request freezes the broker).

CPython's full collection walks every object the collector tracks, and holds the event loop while
it does; it comes each time the objects that survived the younger collections have grown by a
quarter since the last one. A broker that grows a large long-lived heap (a 10,000-member group and
its 10,000 connections) paid that walk again and again, each finding nothing: ten full
collections of 0.2-1.5 s during one run of `bench limits --only group848 --members 10000` (load
~45 on 2 CPUs), the longest of another client's waits. After a full collection every tracked
object left is reachable, so ``OldHeap`` moves the survivors out of the generations (gc.freeze)
right then: the next full collections walk only what was made since, as a generational
collector's old generation is not walked with every young one. Refcounting still frees a frozen
object as before; cyclic garbage that involves a frozen object waits for a thorough collection
(gc.unfreeze, a full collection, then freeze again): ``thorough()``, run after a storm of
connections has closed (HeapTrim) and when ``thorough_due()``: once the frozen heap has grown by a
quarter (at least THOROUGH_MIN_GROWTH objects) over the least it was since the last one - CPython's
own rule for its oldest generation, applied to the frozen one. Frozen garbage stays counted until
it is found, so it is never more than that quarter; a broker whose heap does not grow is not walked
whole again (a thorough collection walks every object: ~100 ms at 50,000 partitions, where a fixed
10-minute one had held the loop that long however little had changed).

With the survivors frozen, CPython's rule for when a full collection comes (more than threshold2 =
10 middle-generation collections since the last one, and what those moved into the oldest
generation more than a quarter of the last full collection's survivors) no longer holds anything
back: the survivors it counts are only what was alive at the last one - during a large request,
the request's own objects - so a full collection came after every eleventh middle one (every
~75,000 objects made and kept), walking the 50,000-80,000 that those left alive in one piece:
12-29 ms inside a step of a 100,000-entry request (bench hold, bench/RESULTS.md 2026-11-28 01:40).
A full collection walks only what the last one did not freeze, so the walks cost about the same in
all however often they come; ``install`` makes them come after every second middle one
(threshold2 FULL_AFTER), each walking at most ~15,000 objects (3-8 ms in the same runs).
"""

from __future__ import annotations

import gc
import logging
import time

log = logging.getLogger("odradek.broker")

THOROUGH_CHECK_MS = 10_000  # how often the frozen heap is counted (gc.get_freeze_count walks it: ~8 ms at 500,000)
THOROUGH_MIN_GROWTH = 20_000  # objects: below this a small heap's growth does not call for a whole walk
FULL_AFTER = 1  # gc threshold2: a full collection once more middle ones than this came (CPython's: 10)


class OldHeap:
    def __init__(self, min_growth: int = THOROUGH_MIN_GROWTH):
        self._min_growth = min_growth
        self.frozen = 0  # full collections after which the survivors were frozen
        self._installed = False
        self._thresholds = gc.get_threshold()
        self._floor = 0  # the least the frozen heap was since the last thorough collection

    def install(self) -> None:
        """From now on the survivors of every full collection are frozen, and a full collection comes
        after every FULL_AFTER + 1 middle ones."""
        if not self._installed:
            self._installed = True
            self._thresholds = gc.get_threshold()
            gc.set_threshold(self._thresholds[0], self._thresholds[1], FULL_AFTER)
            gc.callbacks.append(self._after)
            self._floor = gc.get_freeze_count()

    def uninstall(self) -> None:
        if self._installed:
            self._installed = False
            gc.callbacks.remove(self._after)
            gc.set_threshold(*self._thresholds)

    def _after(self, phase: str, info: dict) -> None:
        if phase == "stop" and info["generation"] == 2:
            gc.freeze()  # (what is left of a full collection is reachable: no garbage is frozen)
            self.frozen += 1

    def thorough_due(self) -> bool:
        """True when the frozen heap has grown by a quarter (and min_growth objects) over the least
        it was since the last thorough collection: the garbage it may hold is then worth a walk."""
        frozen = gc.get_freeze_count()
        self._floor = min(self._floor, frozen)
        return frozen - self._floor > max(self._floor // 4, self._min_growth)

    def thorough(self) -> int:
        """A full collection over every object, the frozen ones too (the survivors frozen again);
        -> the unreachable objects found."""
        started = time.perf_counter()
        gc.unfreeze()
        found = gc.collect()
        gc.freeze()
        self._floor = gc.get_freeze_count()
        log.debug("thorough garbage collection: %d unreachable, %.0f ms", found,
                  (time.perf_counter() - started) * 1000)
        return found
