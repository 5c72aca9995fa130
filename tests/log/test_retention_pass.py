"""LogManager.apply_retention as the broker runs it, in a background thread while the event loop goes
on (issue 27): each log's deletion is under that log's lock, and a log taken out of the manager while
the pass is under way (a deleted partition) is left as it is."""

from __future__ import annotations

import threading
import time

from odradek.log import LogConfig, LogManager

from log_helpers import batch

CFG = LogConfig(segment_bytes=400, index_interval_bytes=100, retention_ms=100)


def wait_until(cond, what, timeout=30):
    deadline = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.01)


def test_a_pass_waits_for_a_logs_lock_and_skips_a_log_deleted_meanwhile(tmp_path):
    m = LogManager([str(tmp_path)], now_ms=0)
    logs = []
    for p in range(3):
        log = m.get_or_create("t", p, config=CFG)
        log.append(batch([b"v"], ts=1000), now_ms=1000)
        log.high_watermark = log.log_end_offset
        logs.append(log)
    deleted = []
    logs[1].lock.acquire()  # as a produce or a fetch of t-1 holding it
    try:
        ran = threading.Thread(target=lambda: deleted.append(m.apply_retention(10_000)))
        ran.start()
        wait_until(lambda: logs[0].log_start_offset == 1, "the pass over t-0")
        assert ran.is_alive() and logs[1].log_start_offset == 0  # (waiting for t-1's lock)
        assert m.delete("t", 2, defer=True)  # taken out before the pass reaches it
    finally:
        logs[1].lock.release()
    ran.join(30)
    assert deleted == [2]
    assert [log.log_start_offset for log in logs] == [1, 1, 0]
    assert logs[1].log_end_offset == 1 and [s.base_offset for s in logs[1].segments] == [1]
    m.close()
