"""Work the broker carries out to its end whoever asked for it: a controller decision made in
steps (a large admin write on a single node) goes on when its client disconnects, as Kafka's
controller carries out a request it accepted whether or not the client is still connected; its
response is then dropped. The broker's shutdown cancels what is still running."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine

log = logging.getLogger("odradek.broker")


class CarriedOut:
    def __init__(self) -> None:
        self._tasks: set[asyncio.Task] = set()

    async def run(self, work: Coroutine):
        """``work``'s result; ``work`` runs as a task of its own, so that a cancelled caller (its
        connection closed) does not stop it. A failure is its caller's to answer (and log); once the
        caller is gone, no one answers it: it is logged here."""
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        try:
            return await asyncio.shield(task)
        except asyncio.CancelledError:
            task.add_done_callback(_log_failure)
            raise

    def __len__(self) -> int:
        return len(self._tasks)

    def cancel_all(self) -> None:
        for task in list(self._tasks):
            task.cancel()


def _log_failure(task: asyncio.Task) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("carrying out a request failed", exc_info=task.exception())
