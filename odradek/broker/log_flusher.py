"""The broker's log flusher (Kafka's kafka-log-flusher thread and the flush of an append at
flush.messages): the flushes the logs ask for (PartitionLog.run_requested_flush) run in a worker
thread, one pass at a time, never on the event loop; after each pass the answers waiting for them
(produces at flush.messages) are woken through their partitions' purgatory keys."""
from __future__ import annotations

import asyncio
import logging
from typing import Callable

from odradek.log import LogManager

log = logging.getLogger(__name__)


class LogFlusher:
    def __init__(self, loop: asyncio.AbstractEventLoop, logs: LogManager, poke: Callable[[object], int]):
        self._loop, self._logs, self._poke = loop, logs, poke
        self._running: asyncio.Future | None = None
        self._closed = False
        self._waiters: list[asyncio.Future] = []  # wait_flushed's, resolved after each pass
        logs.flusher = self.wanted

    def wanted(self) -> None:
        """A log asked for a flush (from any thread: the event loop's append or periodic check)."""
        self._loop.call_soon_threadsafe(self._start)

    async def wait_flushed(self, logs: list) -> None:
        """Until every one of ``logs`` has had the flush its appends asked for (PartitionLog.flush_awaited:
        the replica fetcher's next fetch waits for it), or the flusher closed. A log still awaiting
        a flush that no log asked for while no pass is running (a defect: a pass ending below what
        it was asked for asks again) is asked again once (PartitionLog.ask_flush), not fetched on
        without its fsync; only if that pass leaves it so too (its flush failing unexpectedly: a
        defect, logged) is it not waited for, so the fetcher does not stop for good."""
        asked_again: set[int] = set()
        while not self._closed and any(lg.flush_awaited for lg in logs):
            self._start()
            if self._running is None:
                stuck = [lg for lg in logs if lg.flush_awaited]
                if any(id(lg) in asked_again for lg in stuck):
                    log.error("a flush is awaited that no log asked for: %s", ", ".join(lg.dir for lg in stuck))
                    return
                log.warning("a flush is awaited that no log asked for, asked again: %s",
                            ", ".join(lg.dir for lg in stuck))
                for lg in stuck:
                    asked_again.add(id(lg))
                    lg.ask_flush()
                self._start()
                if self._running is None:
                    return
            waiter = self._loop.create_future()
            self._waiters.append(waiter)
            await waiter

    def close(self) -> None:
        """No more passes (the broker is stopping: each log's close flushes it)."""
        self._closed = True
        if self._logs.flusher == self.wanted:
            self._logs.flusher = None
        self._wake_waiters()

    def _wake_waiters(self) -> None:
        waiters, self._waiters = self._waiters, []
        for w in waiters:
            if not w.done():
                w.set_result(None)

    def _start(self) -> None:
        if self._running is not None or self._closed or not self._logs.flushes_due:
            return
        self._running = self._loop.run_in_executor(None, self._logs.run_requested_flushes)
        self._running.add_done_callback(self._done)

    def _done(self, done: asyncio.Future) -> None:
        self._running = None
        if done.cancelled():
            return
        if done.exception() is not None:
            log.error("log flush pass failed", exc_info=done.exception())
        else:
            for topic, partition in done.result():
                self._poke(("partition", topic, partition))
        self._wake_waiters()
        self._start()  # (asked meanwhile)
