"""A log dir failing at runtime (Kafka's LogDirFailureChannel and handleLogDirFailure): a log
that could not undo a failed write takes its whole log dir as failed, reported once, and the
broker halts with Kafka 4.3's fatal line for the case (one registered dir, which also holds the
metadata log: no OfflineLogDirs report is possible, as in Kafka)."""
from __future__ import annotations

import errno
import logging

import pytest

from odradek.broker.log_dir_failure import halt_reason, on_log_dir_failure
from odradek.log import FaultyFileSystem, LogManager, errors
from odradek.wire.records import build_batch


def batch(v: bytes):
    return build_batch([(b"k", v, (), 1)])


def manager(dirs: list[str]) -> tuple[FaultyFileSystem, LogManager, list[str]]:
    """A LogManager on a faulty filesystem, and the log dirs it reports failed."""
    fs = FaultyFileSystem()
    lm = LogManager(dirs, fs=fs)
    reported: list[str] = []
    lm.on_dir_failure = lambda d, why: reported.append(d)
    return fs, lm, reported


def fail_append(fs: FaultyFileSystem, log, err: int) -> None:
    fs.fail_writes(err, match=lambda p: p.startswith(log.dir + "/"))
    with pytest.raises(OSError):
        log.append(batch(b"lost"), now_ms=2)
    fs.clear_write_faults()


def test_a_log_that_cannot_undo_a_failed_write_fails_its_dir_once():
    fs, lm, reported = manager(["/a", "/b"])
    a0 = lm.get_or_create("t", 0)  # fewest partitions: /a, then /b, then /a
    b1 = lm.get_or_create("t", 1)
    a2 = lm.get_or_create("t", 2)
    assert [x.dir for x in (a0, b1, a2)] == ["/a/t-0", "/b/t-1", "/a/t-2"]
    a0.append(batch(b"ok"), now_ms=1)
    fail_append(fs, a0, errno.EIO)
    assert a0.offline is not None and reported == ["/a"] and lm.failed_dirs == {"/a"}
    with pytest.raises(errors.KafkaStorageError):
        a0.append(batch(b"again"), now_ms=3)
    fail_append(fs, a2, errno.EIO)  # another log of the failed dir: not reported again
    assert a2.offline is not None and reported == ["/a"]
    b1.append(batch(b"b"), now_ms=4)  # the other dir is untouched
    assert b1.log_end_offset == 1


def test_a_full_disk_is_not_a_failed_dir():
    fs, lm, reported = manager(["/a"])
    log = lm.get_or_create("t", 0)
    fail_append(fs, log, errno.ENOSPC)
    log.append(batch(b"space again"), now_ms=2)  # cut back: writes go on
    assert reported == [] and log.offline is None and log.log_end_offset == 1


def test_a_deleted_log_reports_nothing():
    fs, lm, reported = manager(["/a"])
    log = lm.get_or_create("t", 0)
    log.append(batch(b"ok"), now_ms=1)  # (a log with data: its files stay open for reads in flight)
    assert lm.delete("t", 0)
    fail_append(fs, log, errno.EIO)  # (its reads in flight may still use it)
    assert log.offline is not None and reported == []


def test_halt_reason_follows_kafkas_order_of_checks():
    assert halt_reason("/a", ["/a"], {"/a"}) == "Shutdown broker because all log dirs in /a have failed"
    assert halt_reason("/a", ["/a", "/b"], {"/a"}) == "Shutdown broker because the metadata log dir /a has failed"
    assert halt_reason("/b", ["/a", "/b"], {"/b"}) == (
        "Unable to propagate directory failure disabled because directory /b has no UUID")
    assert halt_reason("/b", ["/a", "/b"], {"/a", "/b"}) == (
        "Shutdown broker because all log dirs in /a, /b have failed")


def test_the_broker_halts_with_kafkas_fatal_line(caplog):
    halted = []
    failed = on_log_dir_failure(["/a"], {"/a"}, halted.append)
    with caplog.at_level(logging.WARNING, logger="odradek.broker"):
        failed("/a", "flush failed: [Errno 5] Input/output error")
    assert halted == [1]
    assert [r.levelno for r in caplog.records] == [logging.WARNING, logging.CRITICAL]
    assert caplog.records[-1].getMessage() == "Shutdown broker because all log dirs in /a have failed"
