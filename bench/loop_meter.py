"""`odradek serve` on asyncio's event loop with every turn of the loop measured in CPU time of
the loop's thread (time.thread_time: waits for a CPU on a loaded machine do not count, nor does
the select between turns): what one piece of work holds the loop for, whatever else runs on the
machine. A diagnostic for benches (bench/loop_hold_bench.py), not for production:

    ODRADEK_LOOP_METER=FILE python -m bench.loop_meter serve [serve's arguments]

SIGUSR2 writes {"max_ms", "turns", "over_2ms", "over_10ms", "p99_ms", "p999_ms" (of the turns, to 0.1 ms),
"total_ms" (of every turn), "top_ms": [the 5 largest], "gc_max_ms",
"gc_top": [the 5 longest garbage collections as [ms, generation]]} of the turns since the last
SIGUSR2 to FILE (JSON) and starts counting again: a turn as long as a collection in it was held by
the collector, not by a handler; "top_gc_ms": what collections took of each of the 5 largest turns,
"top_gc": the collections of each of them as [ms, generation, unreachable objects found, objects
walked]; "gc": the collector's state at the dump (gc.get_count, gc.get_freeze_count, the
collections of each generation so far and the unreachable objects they found).
"Objects walked" (the tracked objects of the generations collected, counted before the collection
starts and not timed) only with ODRADEK_LOOP_METER_GC_OBJECTS=1: the count walks them too.

ODRADEK_LOOP_METER_CLOCK=wall: the turns in wall-clock time instead, less the select's wait between
them: a turn that waits for the disk (an fsync on the loop) counts that wait, as does one that waits
for a CPU on a loaded machine. And "blocked_max_ms", "blocked_over_2ms", "blocked_over_10ms",
"blocked_total_ms": what of each turn the loop's thread slept in it, neither running nor waiting for
a CPU (wall less CPU time less the run-queue wait of /proc/thread-self/schedstat, the select's share
left out): a wait for the disk or for another thread's lock, whatever the machine's load.
"""
from __future__ import annotations

import asyncio
import collections
import gc
import json
import os
import selectors
import signal
import sys
import time


def _run_queue_s(fd: int) -> float:
    """The thread's wait for a CPU so far (the second field of its schedstat, ns), in seconds."""
    return int(os.pread(fd, 128, 0).split()[1]) / 1e9


class _TimedSelector(selectors.DefaultSelector):
    """The loop's selector, with the wall time, CPU time and run-queue wait of its selects so far
    (ODRADEK_LOOP_METER_CLOCK=wall)."""

    def __init__(self) -> None:
        super().__init__()
        self.waited = self.cpu = self.queued = 0.0
        self.schedstat = os.open("/proc/thread-self/schedstat", os.O_RDONLY)  # (the loop's thread)

    def select(self, timeout=None):
        t, c, q = time.perf_counter(), time.thread_time(), _run_queue_s(self.schedstat)
        try:
            return super().select(timeout)
        finally:
            self.waited += time.perf_counter() - t
            self.cpu += time.thread_time() - c
            self.queued += _run_queue_s(self.schedstat) - q


class MeteredLoop(asyncio.SelectorEventLoop):
    def __init__(self) -> None:
        wall = os.environ.get("ODRADEK_LOOP_METER_CLOCK") == "wall"
        self._timed = _TimedSelector() if wall else None
        self._clock = time.perf_counter if wall else time.thread_time
        super().__init__(self._timed)
        self._out = os.environ["ODRADEK_LOOP_METER"]
        self._reset()
        self._gc_started = 0.0
        self._turn_gc = 0.0  # the collections of the current turn (ms)
        self._turn_gcs: list[tuple[float, int, int, int]] = []  # each: ms, generation, found, walked
        self._count_objects = os.environ.get("ODRADEK_LOOP_METER_GC_OBJECTS") == "1"
        self._walked = -1
        gc.callbacks.append(self._gc)
        self.add_signal_handler(signal.SIGUSR2, self._dump)

    def _reset(self) -> None:
        self.turns, self.over_2, self.over_10 = 0, 0, 0
        self.tenths: collections.Counter[int] = collections.Counter()  # the turns by their length in 0.1 ms
        self.total_ms = 0.0
        self.blocked_max, self.blocked_total, self.blocked_over_2, self.blocked_over_10 = 0.0, 0.0, 0, 0
        self.top: list[tuple[float, float, list]] = [(0.0, 0.0, [])] * 5
        self.gc_top: list[tuple[float, int]] = []

    def _gc(self, phase: str, info: dict) -> None:
        if phase == "start":
            if self._count_objects:
                self._walked = sum(len(gc.get_objects(g)) for g in range(info["generation"] + 1))
            self._gc_started = time.thread_time()
        else:
            ms = (time.thread_time() - self._gc_started) * 1000
            self._turn_gc += ms
            if ms >= 1:
                self._turn_gcs.append((round(ms, 1), info["generation"], info["collected"], self._walked))
                self.gc_top = sorted(self.gc_top + [(ms, info["generation"])], reverse=True)[:5]

    def _run_once(self) -> None:
        self._turn_gc = 0.0
        self._turn_gcs = []
        sel = self._timed
        if sel is not None:
            waited, sel_cpu, sel_queued = sel.waited, sel.cpu, sel.queued
            c0, q0 = time.thread_time(), _run_queue_s(sel.schedstat)
        t0 = self._clock()
        super()._run_once()  # (asyncio's one turn: select, then every ready callback)
        ms = (self._clock() - t0) * 1000
        if sel is not None:
            ms -= (sel.waited - waited) * 1000
            cpu = time.thread_time() - c0 - (sel.cpu - sel_cpu)
            queued = _run_queue_s(sel.schedstat) - q0 - (sel.queued - sel_queued)
            blocked = max(0.0, ms - (cpu + queued) * 1000)
            self.blocked_total += blocked
            self.blocked_max = max(self.blocked_max, blocked)
            self.blocked_over_2 += blocked >= 2
            self.blocked_over_10 += blocked >= 10
        self.turns += 1
        self.total_ms += ms
        self.tenths[int(ms * 10)] += 1
        if ms >= 2:
            self.over_2 += 1
            if ms >= 10:
                self.over_10 += 1
            if ms > self.top[-1][0]:
                self.top = sorted(self.top + [(ms, self._turn_gc, self._turn_gcs)], key=lambda t: t[0],
                                  reverse=True)[:5]

    def _quantile(self, q: float) -> float:
        """The turn length (ms, to 0.1) that a fraction ``q`` of the turns did not exceed."""
        need, seen = q * self.turns, 0
        for tenth in sorted(self.tenths):
            seen += self.tenths[tenth]
            if seen >= need:
                return tenth / 10
        return 0.0

    def _dump(self) -> None:
        tmp = self._out + ".tmp"
        with open(tmp, "w") as f:
            json.dump({"max_ms": round(self.top[0][0], 1), "turns": self.turns, "over_2ms": self.over_2,
                       "over_10ms": self.over_10, "p99_ms": self._quantile(0.99), "p999_ms": self._quantile(0.999),
                       "total_ms": round(self.total_ms, 1), "blocked_max_ms": round(self.blocked_max, 1),
                       "blocked_over_2ms": self.blocked_over_2, "blocked_over_10ms": self.blocked_over_10,
                       "blocked_total_ms": round(self.blocked_total, 1),
                       "top_ms": [round(t, 1) for t, _, _ in self.top],
                       "top_gc_ms": [round(g, 1) for _, g, _ in self.top],
                       "top_gc": [gcs for _, _, gcs in self.top],
                       "gc": {"count": gc.get_count(), "frozen": gc.get_freeze_count(),
                              "collections": [s["collections"] for s in gc.get_stats()],
                              "collected": [s["collected"] for s in gc.get_stats()]},
                       "gc_max_ms": round(self.gc_top[0][0], 1) if self.gc_top else 0.0,
                       "gc_top": [[round(ms, 1), g] for ms, g in self.gc_top]}, f)
        os.replace(tmp, self._out)
        self._reset()


def read(pid: int, path: str, timeout_s: float = 60) -> dict:
    """SIGUSR2 to the metered process ``pid``, then the JSON it writes to ``path`` ({} if none in time)."""
    before = os.stat(path).st_mtime_ns if os.path.exists(path) else 0
    os.kill(pid, signal.SIGUSR2)
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if os.path.exists(path) and os.stat(path).st_mtime_ns != before:
            with open(path) as f:
                return json.load(f)
        time.sleep(0.05)
    return {}


class MeteredPolicy(asyncio.DefaultEventLoopPolicy):
    def new_event_loop(self) -> asyncio.AbstractEventLoop:
        return MeteredLoop()


if __name__ == "__main__":
    os.environ["ODRADEK_NO_UVLOOP"] = "1"
    asyncio.set_event_loop_policy(MeteredPolicy())
    from odradek.cli import main

    sys.exit(main(sys.argv[1:]))
