"""The broker's log lines are written to stderr by a thread of their own, not by the thread that
logs them (the event loop): a write to stderr blocks while the file or pipe behind it is slow (a
busy disk's dirty-page throttling, a reader that lags), and on a busy disk those writes were the
largest blocks left on the loop during a large CreateTopics (issue 27 fairness).

A record's message is made from its arguments when it is logged (they may change later); the line
(time, level, traceback) is made and written by the writer thread, in the order logged. The writer
is woken once per burst of lines, not per line (the standard library's QueueHandler wakes its
listener for every record: that wake-up was most of what logging still cost the loop), and writes
the burst BATCH_S later; an idle broker costs it nothing. flush() writes what is queued before it
returns (a halt flushes the handlers before it ends the process; `all_written` before the ready
and stopped marks); close() writes what is queued and stops the thread; a record logged after that
is written at once.

The writer waits on a SimpleQueue, not a threading.Event: an Event's wait makes a lock and a bound
method that live as long as it waits, from one burst of lines to the next (after a storm of
clients, a line logged during it kept two 1 MiB pymalloc arenas of the storm's).
"""

from __future__ import annotations

import collections
import copy
import logging
import queue
import threading
import time

BATCH_S = 0.01


class ThreadedLogHandler(logging.Handler):
    def __init__(self, target: logging.Handler):
        super().__init__()
        self.target = target
        self._records: collections.deque[logging.LogRecord] = collections.deque()
        self._wake: queue.SimpleQueue[None] = queue.SimpleQueue()  # one None per wake-up
        self._woken = False  # a wake-up is queued and its round has not started writing
        self._write_lock = threading.Lock()  # (one thread writes the queued records at a time, in order)
        self._open = True
        self._thread = threading.Thread(target=self._run, name="log-writer", daemon=True)
        self._thread.start()

    def emit(self, record: logging.LogRecord) -> None:
        if not self._open:
            self.target.handle(record)
            return
        try:
            record = copy.copy(record)
            record.msg = record.getMessage()  # (the traceback, exc_info, is kept for the line's formatter)
            record.args = None
        except Exception:
            self.handleError(record)
            return
        self._records.append(record)
        if not self._woken:
            self._woken = True
            self._wake.put(None)

    def _run(self) -> None:
        while self._open:
            self._wake.get()
            time.sleep(BATCH_S)  # (a burst's lines written together)
            self._woken = False  # (before the write: a record queued after it wakes the next round)
            self._write()

    def _write(self) -> None:
        with self._write_lock:
            records = self._records
            while records:
                self.target.handle(records.popleft())

    def flush(self) -> None:
        self._write()
        self.target.flush()

    def close(self) -> None:
        self._open = False
        self._wake.put(None)
        if self._thread is not threading.current_thread():
            self._thread.join(5)
        self.flush()
        super().close()


def all_written() -> None:
    """Every log line logged so far is written: before a line printed on stdout that readers take as
    a mark in the output (ready, stopped), so the log lines before it stay before it."""
    for h in logging.getLogger().handlers:
        h.flush()
