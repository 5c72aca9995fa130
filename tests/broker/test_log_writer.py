"""The broker's log lines are written by a thread of their own (broker/log_writer.py): in the order
logged, each message made from its arguments when logged, a traceback kept for the line's formatter,
everything written once flush() returns, and what is queued at close written before it returns."""
from __future__ import annotations

import io
import json
import logging
import threading
import time

from odradek.broker.log_format import formatter
from odradek.broker.log_writer import ThreadedLogHandler


class Slow(logging.StreamHandler):
    """A stream whose writes wait until released (a slow disk or pipe), noting the writing thread."""

    def __init__(self, kind: str = "text"):
        super().__init__(io.StringIO())
        self.setFormatter(formatter(kind))
        self.release_writes = threading.Event()
        self.threads: set[str] = set()

    def emit(self, record):
        self.release_writes.wait(30)
        self.threads.add(threading.current_thread().name)
        super().emit(record)


def logger(handler: logging.Handler) -> logging.Logger:
    lg = logging.getLogger(f"test-log-writer-{id(handler)}")
    lg.propagate = False
    lg.setLevel(logging.INFO)
    lg.addHandler(handler)
    return lg


def test_lines_are_written_by_another_thread_in_order_and_flush_waits_for_them():
    slow = Slow()
    h = ThreadedLogHandler(slow)
    lg = logger(h)
    state = ["before"]
    for i in range(50):
        lg.info("line %d %s", i, state)  # returns while the stream is stuck
    state[0] = "after"  # (the message was made when logged)
    assert slow.stream.getvalue() == ""
    slow.release_writes.set()
    deadline = time.monotonic() + 30
    while len(slow.stream.getvalue().splitlines()) < 50:  # written without anyone waiting for them
        assert time.monotonic() < deadline
        time.sleep(0.005)
    lines = slow.stream.getvalue().splitlines()
    assert [ln.split(": ", 1)[1] for ln in lines] == [f"line {i} ['before']" for i in range(50)]
    assert slow.threads == {"log-writer"}
    h.close()


def test_flush_writes_what_is_queued_before_it_returns():
    slow = Slow()
    slow.release_writes.set()
    h = ThreadedLogHandler(slow)
    lg = logger(h)
    for i in range(20):
        lg.info("line %d", i)
    h.flush()
    assert [ln.split(": ", 1)[1] for ln in slow.stream.getvalue().splitlines()] == [f"line {i}" for i in range(20)]
    h.close()


def test_a_traceback_reaches_the_json_line_apart():
    slow = Slow("json")
    slow.release_writes.set()
    h = ThreadedLogHandler(slow)
    lg = logger(h)
    try:
        raise ValueError("boom")
    except ValueError:
        lg.exception("failed %s", "here")
    h.flush()
    (line,) = slow.stream.getvalue().splitlines()
    out = json.loads(line)
    assert out["message"] == "failed here" and "ValueError: boom" in out["exception"]
    h.close()


def test_close_writes_what_is_queued_and_later_lines_are_written_at_once():
    slow = Slow()
    h = ThreadedLogHandler(slow)
    lg = logger(h)
    for i in range(5):
        lg.warning("queued %d", i)
    threading.Timer(0.05, slow.release_writes.set).start()
    h.close()
    assert len(slow.stream.getvalue().splitlines()) == 5
    lg.warning("after close")
    assert slow.stream.getvalue().splitlines()[-1].endswith("after close")


def test_the_waiting_writer_holds_nothing_made_for_its_wait():
    """Between bursts of lines the writer thread holds no object made for that wait (a
    threading.Event's wait held a lock and a bound method from one burst to the next: made while a
    storm of clients was served, they kept 1 MiB pymalloc arenas of the storm's after it)."""
    import inspect
    import sys
    import tracemalloc

    lines, first = inspect.getsourcelines(ThreadedLogHandler._run)
    in_run = range(first, first + len(lines))

    stream = logging.StreamHandler(io.StringIO())
    handler = ThreadedLogHandler(stream)
    lg = logger(handler)
    tracemalloc.start(8)
    try:
        for i in range(3):  # three bursts, each written before the next
            lg.info("burst %d", i)
            deadline = time.monotonic() + 30
            while str(i) not in stream.stream.getvalue().rsplit("burst", 1)[-1] and time.monotonic() < deadline:
                time.sleep(0.005)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:  # the writer is back at its wait (in _run, or inside a wait)
            frame = sys._current_frames().get(handler._thread.ident)
            if frame is not None and frame.f_code.co_name in ("_run", "wait") and not handler._records:
                break
            time.sleep(0.005)
        held = [t for t in tracemalloc.take_snapshot().traces
                if any(f.filename.endswith("log_writer.py") and f.lineno in in_run for f in t.traceback)
                and any(f.filename.endswith("threading.py") for f in t.traceback)]
    finally:
        tracemalloc.stop()
        handler.close()
    assert not held, [str(t.traceback) for t in held]
