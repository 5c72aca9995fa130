"""The group coordinator's requests as Kafka's CoordinatorRuntime runs them: queued as events and
taken a slice at a time, their appends written together (group.coordinator.append.linger.ms).

Kafka's request handler threads only enqueue a group request; the coordinator's own threads run
the events and write their records in batches; a heartbeat is answered once its batch is written
and committed. Other requests (an ApiVersions, a Fetch) never wait behind the coordinator's work.
Here the event loop is the only thread: a connection hands its group request to ``run`` and
waits; a slice runs queued events for at most SLICE_S, then the loop reads and serves the other
connections before the next slice. A storm of 10,000 heartbeats thus costs another client the
reading of the requests ahead of its own, not their handling.

The appends of a slice are collected in CoordinatorBatches (broker/coordinator_log.py) and each
partition's written as one record batch:
  -1 (Kafka's default, adaptive): right after the slice, in a turn of the event loop of its own
     (Kafka: a flush event queued behind the events waiting when the batch opened; a slice and
     the write of what it collected are not one piece: an OffsetCommit of 2,000 partitions is a
     ~15 ms step and a ~20 ms write);
   0: each append written at once (no batch);
   N: once the batch is N ms old (checked after each slice and by a timer), or full.
An event is answered once the batches of the partitions it wrote (none: every batch open) are
written; if one cannot be, with the coordinators' error (its state is reloaded from the log).
Then, as before, the connection holds the response until the HW passes the records (acks=-1 on
a replicated __consumer_offsets).

A large request goes in steps (issue 27): an event that returns a ``NextStep`` is not answered yet;
its next step is queued behind the events waiting, and so on until a step returns the response
(then answered once the batches of every step's writes are written). An OffsetCommit of 100,000
partitions checks them against the metadata, stages the offsets of the real ones (their records
and their batch's bytes: nothing there depends on the group's state) and makes its answer in steps
of a few ms each, the coordinator's commit (its checks against the group's state, its one atomic
write, written alone, and the apply) in a step of its own; so does a TxnOffsetCommit (its commit:
the transaction's check, the group's, the one transactional batch of its offsets), and an
OffsetDelete makes its tombstones' keys before its deletion's step.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from dataclasses import dataclass
from typing import Callable

from odradek.coordinator.errors import CoordinatorError
from odradek.wire.errors import ErrorCode

from .coordinator_log import CoordinatorBatches, PendingWrites

# how long one slice of coordinator events holds the event loop (s); at least one event runs
SLICE_S = 0.005
ADAPTIVE = -1


@dataclass(frozen=True, slots=True)
class NextStep:
    """What an event returns while its request is not done: ``event``, its next step, is queued
    behind the events waiting (a large request in steps, the others' events run between them)."""
    event: Callable[[], object]


class CoordinatorEvents:
    def __init__(self, batches: CoordinatorBatches, pending: PendingWrites, linger_ms: int,
                 clock_ms: Callable[[], int], slice_s: float = SLICE_S):
        self.batches = batches
        self.pending = pending
        self.linger_ms = linger_ms
        self.clock_ms = clock_ms
        self.slice_s = slice_s
        self._queue: deque = deque()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._scheduled = False
        self._timer: asyncio.TimerHandle | None = None
        self.slices = 0  # slices run (a count for tests)
        self.closed = False  # close() ran (a clean stop): no event runs, nothing more is written

    def run(self, event: Callable[[], object]) -> asyncio.Future:
        """Queue ``event`` (a request's handling: -> its response); a future of the response once
        the event ran and its writes are in the log, or of the CoordinatorError that failed them."""
        loop = asyncio.get_running_loop()
        if loop is not self._loop:  # (a slice scheduled on a loop that has ended never ran)
            self._loop, self._scheduled = loop, False
        fut = loop.create_future()
        if self.closed:  # (Kafka's CoordinatorRuntime once closed: "Can't accept an event")
            fut.set_exception(_shut_down())
            return fut
        self._queue.append((fut, event, set()))
        if not self._scheduled:
            self._scheduled = True
            loop.call_soon(self._slice)
        return fut

    def _slice(self) -> None:
        self._scheduled = False
        if self.closed:  # (scheduled before close, which failed what was queued)
            return
        self.slices += 1
        batches = self.batches
        queue = self._queue
        batches.collecting = self.linger_ms != 0
        start = time.perf_counter()
        try:
            while queue:
                fut, event, written = queue.popleft()
                if fut.done():  # (cancelled: its connection went)
                    continue
                opened = self.pending.begin()
                try:
                    resp = event()
                except Exception as e:  # noqa: BLE001 - the connection answers it as a handler's error
                    fut.set_exception(e)
                    continue
                finally:
                    self.pending.end(opened)
                written.update((w.topic, w.partition) for w in opened)
                if isinstance(resp, NextStep):
                    queue.append((fut, resp.event, written))
                else:
                    self._answer(fut, resp, written)
                if time.perf_counter() - start >= self.slice_s:
                    break
        finally:
            batches.collecting = False
        if self.linger_ms == ADAPTIVE:
            self._loop.call_soon(self._flush)  # (before the next slice: call_soon keeps the order)
        elif self.linger_ms > 0:
            self._flush_due()
        if queue and not self._scheduled:
            self._scheduled = True
            self._loop.call_soon(self._slice)

    def _answer(self, fut: asyncio.Future, resp, written: set) -> None:
        """``fut`` gets ``resp`` once the batches it waits for are written (at once if none is open)."""
        def done(err: ErrorCode | None) -> None:
            if fut.done():
                return
            if err is None:
                fut.set_result(resp)
            else:
                fut.set_exception(CoordinatorError(err, "the coordinator's write failed"))

        key = next(iter(written)) if len(written) == 1 else None
        if not self.batches.wait(key, done):
            done(None)

    def _flush(self) -> None:
        """-1 (adaptive): write the batches a slice collected, at the loop's next turn (not once
        closed: close wrote them, and a write then would reach a log closing in a worker)."""
        if not self.closed:
            self.batches.flush()

    def _flush_due(self) -> None:
        """group.coordinator.append.linger.ms > 0: write the batches open that long; a timer for the next."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self.closed:
            return
        now = self.clock_ms()
        self.batches.flush(older_than_ms=now - self.linger_ms)
        oldest = self.batches.oldest_ms()
        if oldest is not None and self._loop is not None:
            delay = max(0, oldest + self.linger_ms - now) / 1000
            self._timer = self._loop.call_later(delay, self._flush_due)

    def close(self) -> None:
        """A clean stop, before the logs close (as Kafka's BrokerServer shuts its coordinator
        runtimes down before its LogManager): what is open written; the events queued, and any
        ``run`` from now on, fail with NOT_COORDINATOR (their clients look for the coordinator
        again); no slice, flush or timer of this runs any more, so nothing here writes to a log
        while a worker closes the logs."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self.closed = True
        queue, self._queue = self._queue, deque()
        for fut, _, _ in queue:
            if not fut.done():
                fut.set_exception(_shut_down())
        self.batches.flush()


def _shut_down() -> CoordinatorError:
    return CoordinatorError(ErrorCode.NOT_COORDINATOR, "the coordinator is shutting down")
