"""A clean stop closes the logs in a worker thread while the event loop goes on running what was
scheduled on it (broker/server.py: close_logs in an executor). A write that still reaches a log
after its close is refused with LogClosedError (Kafka's checkIfMemoryMappedBufferClosed: a
KafkaStorageException that fails no log dir), before any byte is written: the log is not taken
offline, its log dir is not failed (the broker would halt(1) before its clean-shutdown markers),
and a hollow log (empty, idle, no file open) opens nothing. Real files."""
from __future__ import annotations

import os

import pytest

from odradek.log import LogConfig, LogManager, PartitionLog, RealFileSystem
from odradek.log.errors import LogClosedError
from odradek.wire.records import build_batch


def one(value: bytes) -> bytes:
    return build_batch([(None, value, (), 1)])


def open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def test_a_write_to_a_closed_log_of_a_log_manager_fails_no_log_dir(tmp_path):
    """rev-g's reproduction: a log appended to, closed (the worker's LogManager.close), then
    appended to (a callback still on the loop). Before, the write met the closed file: EBADF, the
    log offline and on_dir_failure told (a broker's halt(1)). Now: LogClosedError, nothing told, the
    log not offline, a follower's append and a new partition's creation refused alike, and the
    clean-shutdown marker written; the next start loads it clean with what was written before."""
    root = str(tmp_path / "data")
    lm = LogManager(root, now_ms=0)
    failed: list = []
    lm.on_dir_failure = lambda d, why: failed.append((d, why))
    log = lm.get_or_create("t", 0, LogConfig(), now_ms=0)
    log.append(one(b"before"), 1)
    leo = log.log_end_offset
    lm.close(broker_epoch=7)
    with pytest.raises(LogClosedError):
        log.append(one(b"a write after the close"), 2)
    with pytest.raises(LogClosedError):
        log.append_as_follower(build_batch([(None, b"f", (), 1)], base_offset=leo), 2)
    with pytest.raises(LogClosedError):
        lm.get_or_create("t", 1, LogConfig(), now_ms=2)  # (close's list of logs was taken)
    assert failed == [] and log.offline is None and not lm.failed_dirs
    assert log.log_end_offset == leo
    again = LogManager(root, now_ms=3)
    assert again.previous_broker_epoch == 7  # (its dir's clean-shutdown marker)
    reloaded = again.get("t", 0)
    assert reloaded.log_end_offset == leo and not reloaded.truncated_on_recovery
    assert again.get("t", 1) is None and sorted(os.listdir(root))[-1] == "t-0"
    again.close()


def test_a_hollow_log_takes_no_write_after_its_close_and_opens_nothing(tmp_path):
    """An empty idle log holds no file (_try_hollow); its first use remakes its segment (_fill).
    After its close, a write is refused before that: no descriptor opened, no file made, nothing
    after the marker."""
    d = str(tmp_path / "t-0")
    log = PartitionLog(RealFileSystem(), d, LogConfig(), now_ms=0, new=True)
    assert log.hollow
    assert log.close()
    files = sorted(os.listdir(d))
    before = open_fds()
    with pytest.raises(LogClosedError):
        log.append(one(b"after-close"), 1)
    assert open_fds() == before and sorted(os.listdir(d)) == files
    assert log.hollow and log.log_end_offset == 0 and log.offline is None
    again = PartitionLog(RealFileSystem(), d, LogConfig(), now_ms=1)
    assert again.log_end_offset == 0
    again.close()
