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
connections has closed (HeapTrim) and every THOROUGH_EVERY_MS.
"""

from __future__ import annotations

import gc
import logging
import time

log = logging.getLogger("odradek.broker")

THOROUGH_EVERY_MS = 600_000


class OldHeap:
    def __init__(self):
        self.frozen = 0  # full collections after which the survivors were frozen
        self._installed = False

    def install(self) -> None:
        """From now on the survivors of every full collection are frozen."""
        if not self._installed:
            self._installed = True
            gc.callbacks.append(self._after)

    def uninstall(self) -> None:
        if self._installed:
            self._installed = False
            gc.callbacks.remove(self._after)

    def _after(self, phase: str, info: dict) -> None:
        if phase == "stop" and info["generation"] == 2:
            gc.freeze()  # (what is left of a full collection is reachable: no garbage is frozen)
            self.frozen += 1

    def thorough(self) -> int:
        """A full collection over every object, the frozen ones too (the survivors frozen again);
        -> the unreachable objects found."""
        started = time.perf_counter()
        gc.unfreeze()
        found = gc.collect()
        gc.freeze()
        log.debug("thorough garbage collection: %d unreachable, %.0f ms", found,
                  (time.perf_counter() - started) * 1000)
        return found
