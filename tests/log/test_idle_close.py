"""Closing a log with nothing new since it was opened (or last flushed) writes and fsyncs
only the clean-shutdown marker: its indexes, checkpoint, producer snapshot and transaction
checkpoint already hold exactly what close would write, fsynced. Checked on the
fault-injecting filesystem: the skipped files are byte-identical, survive a power loss
right after the close, and the next open is still clean (no recovery scan); any change
(data, log start, producer expiry) is still written."""
from __future__ import annotations

import pytest

from odradek.log import FaultyFileSystem, LogConfig, LogManager, PartitionLog
from odradek.log.segment import LogSegment
from odradek.wire.records import build_control_batch

from log_helpers import batch, read_all

DIR = "/data/t-0"
CFG = LogConfig(segment_bytes=600, index_interval_bytes=100)
PID, TXN_PID = 7, 9


def pbatch(seq: int, ts: int = 1000):
    return batch([b"x%03d" % seq, b"y%03d" % seq], ts=ts, producer_id=PID, producer_epoch=0, base_sequence=seq)


def fill(fs) -> PartitionLog:
    """Several segments, an idempotent producer, an aborted and an open transaction."""
    log = PartitionLog(fs, DIR, CFG, now_ms=0)
    for i in range(12):
        log.append(pbatch(2 * i, ts=1000 + i), now_ms=1000 + i)
        if i in (3, 8):
            log.append(batch([b"t%d" % i], producer_id=TXN_PID, producer_epoch=0, base_sequence=i // 8,
                             is_transactional=True), now_ms=1000 + i)
        if i == 3:
            log.append(build_control_batch(False, TXN_PID, 0, 0, 1003), now_ms=1003)  # abort
    log.high_watermark = log.log_end_offset
    assert len(log.segments) > 2 and log.txn_state.ongoing
    return log


def files(fs) -> dict[str, bytes]:
    return {p: bytes(i.data) for p, i in fs.files.items() if p.startswith(DIR + "/")}


def counters(fs) -> tuple[int, int, int]:
    return fs.fsyncs, fs.dir_fsyncs, fs.bytes_written


@pytest.fixture
def no_recovery_scan(monkeypatch):
    def scan(self, min_offset):
        raise AssertionError(f"recovery scan of {self.path} after a clean stop")
    monkeypatch.setattr(LogSegment, "recover", scan)


@pytest.fixture
def closed_fs():
    fs = FaultyFileSystem()
    fs.makedirs("/data")
    log = fill(fs)
    expected = (read_all(log), log.log_end_offset, dict(log.txn_state.ongoing))
    log.close()
    return fs, expected


def reopen(fs, now=5000) -> PartitionLog:
    log = PartitionLog(fs, DIR, CFG, now_ms=now)
    assert not log.recovered_unclean
    return log


def test_idle_close_writes_only_the_marker_and_loses_nothing(closed_fs, no_recovery_scan):
    fs, (records, leo, ongoing) = closed_fs
    on_disk = files(fs)
    log = reopen(fs)
    # readers and an idle periodic flush change nothing on disk
    assert read_all(log) == records
    assert log.aborted_transactions(0, leo) and log.offset_for_timestamp(1005) is not None
    log.flush()
    log.checkpoint()
    before = counters(fs)
    log.close()
    fsyncs, dir_fsyncs, written = (a - b for a, b in zip(counters(fs), before))
    assert (fsyncs, dir_fsyncs, written) == (1, 1, 0)  # the marker file and its directory
    assert files(fs) == on_disk
    # a power loss right after the close: what was skipped was already durable
    log2 = reopen(fs.restart("lost"))
    assert read_all(log2) == records and log2.log_end_offset == leo
    assert log2.txn_state.ongoing == ongoing and log2.aborted_transactions(0, leo)
    assert log2.append(pbatch(22), now_ms=6000).duplicate  # the producer's last batch, from the snapshot
    assert log2.append(pbatch(24), now_ms=6000).base_offset == leo


def test_changes_after_a_clean_open_are_still_written(closed_fs, no_recovery_scan):
    fs, (records, leo, _) = closed_fs
    log = reopen(fs)
    log.append(pbatch(24, ts=2000), now_ms=2000)
    log.close()
    fs = fs.restart("lost")
    log = reopen(fs)
    assert log.log_end_offset == leo + 2 and read_all(log)[-1][2] == b"y024"
    assert log.append(pbatch(24, ts=2000), now_ms=6000).duplicate

    # only the log start moves: the checkpoint is rewritten
    log.delete_records(5)
    log.close()
    fs = fs.restart("lost")
    log = reopen(fs)
    assert log.log_start_offset == 5

    # only the producer state changes (expiry): the snapshot is rewritten
    assert log.remove_expired_producers(10**9, 1000) >= 1
    log.close()
    log = reopen(fs.restart("lost"))
    assert PID not in log.producer_state.producers
    log.close()


def test_log_manager_close_of_idle_logs_costs_one_marker_for_the_dir(tmp_path):
    fs = FaultyFileSystem()
    m = LogManager(["/data"], fs=fs, default_config=CFG)
    for p in range(20):
        m.get_or_create("t", p).append(pbatch(0), now_ms=1)
    m.close()
    on_disk = {p: bytes(i.data) for p, i in fs.files.items()}
    m = LogManager(["/data"], fs=fs, default_config=CFG)
    assert len(m.list()) == 20 and not any(lg.recovered_unclean for lg in m)
    before = counters(fs)
    m.close()
    # nothing per log: the log dir's .kafka_cleanshutdown says they all closed cleanly (its 30 bytes,
    # fsync and dir fsync), as Kafka's
    assert tuple(a - b for a, b in zip(counters(fs), before)) == (1, 1, len(b'{"version":0,"brokerEpoch":-1}'))
    assert {p: bytes(i.data) for p, i in fs.files.items()} == on_disk
    m = LogManager(["/data"], fs=fs, default_config=CFG)
    assert len(m.list()) == 20 and not any(lg.recovered_unclean for lg in m)  # and it is read so
