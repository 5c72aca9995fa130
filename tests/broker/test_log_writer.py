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
