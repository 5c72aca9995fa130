"""Unit tests of PartitionLog: append, read slices, indexes, timestamps, retention,
DeleteRecords, truncation, producer state, config, dump-log."""
from __future__ import annotations

import dataclasses
import os

import pytest

from odradek.log import (AppendInfo, FaultyFileSystem, LogConfig, LogManager, PartitionLog,
                         ProducerStateTable, RealFileSystem)
from odradek.log import errors
from odradek.log.config import ConfigError
from odradek.log.dump_log import dump, main as dump_main
from odradek.log.producer_state import CheckResult
from odradek.wire.records import build_batch, read_batch_header

from log_helpers import batch, batches_of, read_all, records_of

SMALL = LogConfig(segment_bytes=400, index_interval_bytes=100)


def new_log(cfg=SMALL, fs=None, path="/data/t-0", now=0):
    fs = fs or FaultyFileSystem()
    fs.makedirs("/data")
    return PartitionLog(fs, path, cfg, now_ms=now)


def test_append_assigns_offsets_in_place_and_reads_back():
    log = new_log()
    a = log.append(batch([b"a", b"b", b"c"]), now_ms=1)
    b = log.append(batch([b"d"]), now_ms=1)
    assert (a.base_offset, a.last_offset, a.record_count) == (0, 2, 3)
    assert (b.base_offset, b.last_offset) == (3, 3)
    assert log.log_end_offset == 4
    assert [v for _, _, v in read_all(log)] == [b"a", b"b", b"c", b"d"]


def test_read_starts_at_batch_containing_offset_and_respects_limits():
    log = new_log(LogConfig())
    for i in range(10):
        log.append(batch([b"x%d" % i, b"y%d" % i]), now_ms=1)
    size = len(batch([b"x0", b"y0"]))
    fs = log.read(5, 3 * size)
    hs = batches_of(fs.read_bytes())
    assert hs[0].base_offset == 4 and len(hs) == 3 and fs.first_offset == 4
    assert fs.total_bytes == 3 * size and len(fs.slices) == 1
    # first batch returned even if bigger than max_bytes, unless min_one_batch=False
    assert batches_of(log.read(0, 1).read_bytes())[0].base_offset == 0
    assert log.read(0, 1, min_one_batch=False).total_bytes == 0
    # upper bound (high watermark): only whole batches below it
    hs = batches_of(log.read(0, 1 << 20, upper_bound_offset=7).read_bytes())
    assert hs[-1].last_offset == 5
    assert log.read(20, 100).total_bytes == 0
    with pytest.raises(errors.OffsetOutOfRangeError):
        log.read(21, 100)


def test_roll_on_size_and_reads_span_segments():
    log = new_log()
    for i in range(30):
        log.append(batch([b"v%02d" % i]), now_ms=1)
    assert len(log.segments) > 3
    names = log.fs.listdir("/data/t-0")
    assert "00000000000000000000.log" in names
    assert all(f"{s.base_offset:020d}.index" in names for s in log.segments[:-1])
    assert [v for _, _, v in read_all(log)] == [b"v%02d" % i for i in range(30)]
    fs = log.read(0, 1 << 20)
    assert len(fs.slices) == len(log.segments)


def test_roll_on_segment_ms_and_full_index():
    log = new_log(LogConfig(segment_ms=100))
    log.append(batch([b"a"], ts=1000), now_ms=1000)
    log.append(batch([b"b"], ts=1050), now_ms=1050)
    assert len(log.segments) == 1
    log.append(batch([b"c"], ts=1200), now_ms=1200)
    assert len(log.segments) == 2
    log = new_log(LogConfig(segment_index_bytes=16, index_interval_bytes=0))
    for i in range(6):
        log.append(batch([b"x"]), now_ms=1)
    assert len(log.segments) >= 2


def test_log_append_time_rewrites_timestamp():
    log = new_log(dataclasses.replace(SMALL, message_timestamp_type="LogAppendTime"))
    info = log.append(batch([b"a"], ts=5), now_ms=777)
    assert info.log_append_time_ms == 777
    h = batches_of(log.read(0, 1000).read_bytes())[0]
    assert h.max_timestamp == 777 and h.timestamp_type == 1
    info = new_log().append(batch([b"a"], ts=5), now_ms=777, log_append_time=False)
    assert info.log_append_time_ms == -1


def test_offset_for_timestamp():
    log = new_log()
    for i in range(40):
        log.append(build_batch([(None, b"v", (), 1000 + 10 * i), (None, b"w", (), 1005 + 10 * i)]), now_ms=1)
    assert log.offset_for_timestamp(0).offset == 0
    r = log.offset_for_timestamp(1203)
    assert (r.offset, r.timestamp) == (41, 1205)
    assert log.offset_for_timestamp(1210).offset == 42
    assert log.offset_for_timestamp(99999) is None
    assert log.offset_for_timestamp(-1).offset == 80
    assert log.offset_for_timestamp(-2).offset == 0
    assert log.offset_for_timestamp(-3).offset == 79


def test_size_limits_and_corrupt_input():
    log = new_log(LogConfig(max_message_bytes=100))
    with pytest.raises(errors.RecordTooLargeError):
        log.append(batch([b"x" * 200]), now_ms=1)
    bad = bytearray(batch([b"x"]))
    bad[-1] ^= 1
    with pytest.raises(errors.CorruptRecordError):
        log.append(bytes(bad), now_ms=1)
    with pytest.raises(errors.CorruptRecordError):
        log.append(batch([b"x"])[:-3], now_ms=1)
    assert log.log_end_offset == 0


def test_retention_by_bytes_and_time_respects_high_watermark():
    cfg = dataclasses.replace(SMALL, retention_bytes=800)
    log = new_log(cfg)
    for i in range(40):
        log.append(batch([b"v%02d" % i], ts=1000 + i), now_ms=1)
    assert log.apply_retention(now_ms=2000) == 0  # high watermark still 0
    log.high_watermark = log.log_end_offset
    assert log.apply_retention(now_ms=2000) > 0
    assert log.size_in_bytes <= 800 + 400
    assert log.log_start_offset == log.segments[0].base_offset > 0
    assert [v for _, _, v in read_all(log)] == [b"v%02d" % i for i in range(log.log_start_offset, 40)]
    with pytest.raises(errors.OffsetOutOfRangeError):
        log.read(0, 100)
    log.config = dataclasses.replace(SMALL, retention_ms=100)
    log.apply_retention(now_ms=1000 + 39 + 101)
    assert log.log_start_offset == 40 and log.log_end_offset == 40
    log.append(batch([b"after"]), now_ms=5000)
    assert read_all(log) == [(40, None, b"after")]


def test_delete_records_and_truncate():
    log = new_log()
    for i in range(30):
        log.append(batch([b"v%02d" % i]), now_ms=1)
    with pytest.raises(errors.OffsetOutOfRangeError):
        log.delete_records(5)  # above high watermark
    log.high_watermark = 25
    assert log.delete_records(12) == 12
    assert read_all(log)[0][0] == 12
    assert log.segments[0].base_offset <= 12
    log.truncate_to(20)
    assert log.log_end_offset == 20 and log.high_watermark == 20
    log.append(batch([b"new"]), now_ms=1)
    assert read_all(log)[-1] == (20, None, b"new")
    log.truncate_to(5)  # below log start: start over at 5
    assert (log.log_start_offset, log.log_end_offset) == (5, 5)


def test_clean_reopen_keeps_everything():
    fs = FaultyFileSystem()
    log = new_log(fs=fs)
    for i in range(30):
        log.append(batch([b"v%02d" % i], ts=1000 + i), now_ms=1)
    log.high_watermark = 30
    log.delete_records(7)
    before = read_all(log)
    log.close()
    log2 = PartitionLog(fs, "/data/t-0", SMALL, now_ms=5)
    assert not log2.recovered_unclean
    assert read_all(log2) == before
    assert log2.log_start_offset == 7 and log2.high_watermark == 30
    assert log2.offset_for_timestamp(1020).offset == 20


def test_producer_state_duplicates_and_sequences():
    log = new_log()
    pb = lambda seq, n=2, epoch=0: batch([b"x"] * n, producer_id=7, producer_epoch=epoch, base_sequence=seq)
    assert log.append(pb(0), now_ms=1).base_offset == 0
    assert log.append(pb(2), now_ms=1).base_offset == 2
    dup = log.append(pb(0), now_ms=1)
    assert dup.duplicate and (dup.base_offset, dup.last_offset) == (0, 1)
    assert log.log_end_offset == 4
    with pytest.raises(errors.OutOfOrderSequenceError):
        log.append(pb(9), now_ms=1)
    assert log.append(pb(0, epoch=1), now_ms=1).base_offset == 4
    with pytest.raises(errors.InvalidProducerEpochError):
        log.append(pb(6, epoch=0), now_ms=1)
    with pytest.raises(errors.OutOfOrderSequenceError):
        log.append(pb(5, epoch=2), now_ms=1)
    # survives reopen (snapshot) and unclean reopen (rebuilt from the log)
    log.close()
    fs = log.fs
    log2 = PartitionLog(fs, "/data/t-0", SMALL, now_ms=1)
    assert log2.append(pb(0, epoch=1), now_ms=1).duplicate
    fs2 = fs.restart("kept")
    for name in fs2.listdir("/data/t-0"):
        if name.endswith(".snapshot") or name == ".clean-shutdown":
            fs2.remove("/data/t-0/" + name)
    log3 = PartitionLog(fs2, "/data/t-0", SMALL, now_ms=1)
    assert log3.append(pb(0, epoch=1), now_ms=1).duplicate
    assert log3.append(pb(2, epoch=1), now_ms=1).base_offset == 6


def test_producer_state_table_rules_and_snapshot_roundtrip():
    t = ProducerStateTable()
    assert t.check(1, 0, 5, 0).result is CheckResult.OK  # unknown producer
    for i in range(7):
        t.update(1, 0, i, 10 + i, 10 + i, 100)
    assert t.check(1, 0, 6, 0).result is CheckResult.DUPLICATE
    assert t.check(1, 0, 1, 0).result is CheckResult.OUT_OF_ORDER_SEQUENCE  # evicted from the 5
    assert t.check(1, 0, 7, 0).result is CheckResult.OK
    t.update(2, 3, 2147483647, 50, 50, 1)
    assert t.check(2, 3, 0, 0).result is CheckResult.OK  # wrap-around
    t2 = ProducerStateTable.from_bytes(t.to_bytes())
    assert t2.producers.keys() == t.producers.keys()
    # Kafka's snapshot keeps each producer's last batch only
    assert list(t2.producers[1].batches) == list(t.producers[1].batches)[-1:]
    assert list(t2.producers[2].batches) == list(t.producers[2].batches)
    with pytest.raises(ValueError):
        ProducerStateTable.from_bytes(t.to_bytes()[:-1] + b"\0")


def test_producer_snapshot_is_kafkas_layout():
    # what Kafka 4.3's ProducerStateManager writes (and kafka-dump-log reads): version 1,
    # CRC32C of the rest, int32 count, then per producer id/epoch/lastSeq/lastOffset/
    # offsetDelta/timestamp/coordinatorEpoch/currentTxnFirstOffset
    import struct

    import crc32c

    t = ProducerStateTable()
    t.update(7, 2, 10, 100, 104, 1234)
    t.update(9, 0, -1, 200, 200, 55)  # transactional marker-only producer: no sequence
    data = t.to_bytes(ongoing={9: 200})
    body = struct.pack(">i", 2) + struct.pack(">qhiqiqiq", 7, 2, 14, 104, 4, 1234, -1, -1) \
        + struct.pack(">qhiqiqiq", 9, 0, -1, -1, 0, 55, -1, 200)
    assert data == struct.pack(">hI", 1, crc32c.crc32c(body)) + body
    t2 = ProducerStateTable.from_bytes(data)
    b = t2.producers[7].batches[-1]
    assert (b.first_seq, b.last_seq, b.first_offset, b.last_offset) == (10, 14, 100, 104)
    assert t2.producers[9].epoch == 0 and not t2.producers[9].batches


def test_producer_snapshot_in_odradeks_older_layout_still_loads():
    import struct

    import crc32c

    body = struct.pack(">i", 1) + struct.pack(">qhq", 5, 1, 99) + struct.pack(">b", 1) \
        + struct.pack(">iiqqq", 0, 2, 10, 12, 99)
    t = ProducerStateTable.from_bytes(struct.pack(">hI", 1, crc32c.crc32c(body)) + body)
    assert list(t.producers[5].batches)[0].last_offset == 12 and t.producers[5].epoch == 1


def test_config_from_properties():
    c = LogConfig.from_properties({"segment.bytes": "1024", "cleanup.policy": "compact,delete",
                                   "min.cleanable.dirty.ratio": "0.1", "min.insync.replicas": "2",
                                   "message.timestamp.type": "LogAppendTime"})
    assert c.segment_bytes == 1024 and c.compact and c.delete and c.log_append_time
    assert LogConfig().retention_ms == 604800000 and LogConfig().max_message_bytes == 1048588
    for bad in ({"segment.bytes": "x"}, {"segment.bytes": 1}, {"cleanup.policy": "nope"},
                {"retention.ms": -2}, {"min.cleanable.dirty.ratio": 2}):
        with pytest.raises(ConfigError):
            LogConfig.from_properties(bad)
    with pytest.raises(ConfigError):
        LogConfig.from_properties({"bogus": 1}, strict=True)
    assert LogConfig.from_properties(c.to_properties()) == c


def test_real_fs_sendfile_slices_and_dump(tmp_path, capsys):
    fs = RealFileSystem()
    log = PartitionLog(fs, str(tmp_path / "t-0"), SMALL, now_ms=0)
    for i in range(10):
        log.append(batch([b"v%d" % i], keys=[b"k%d" % i]), now_ms=1)
    fsl = log.read(3, 1 << 20)
    r, w = os.pipe()
    try:
        for s in fsl.slices:
            assert os.sendfile(w, s.file.fileno(), s.position, s.length) == s.length
        got = os.read(r, 1 << 20)
    finally:
        os.close(r), os.close(w)
    assert records_of(got)[0] == (3, b"k3", b"v3")
    seg = log.segments[0].path
    log.close()
    lines = list(dump(seg, print_records=True))
    assert lines[0] == f"Dumping {seg}"
    assert any(l.startswith("baseOffset: 0 lastOffset: 0 count: 1") and "isvalid: true" in l for l in lines)
    assert any("key: k0 payload: v0" in l for l in lines)
    assert dump_main([seg.replace(".log", ".timeindex")]) == 0
    assert "Dumping" in capsys.readouterr().out


def test_log_manager_create_list_delete_reload(tmp_path):
    dirs = [str(tmp_path / "a"), str(tmp_path / "b")]
    m = LogManager(dirs, now_ms=0)
    for p in range(3):
        m.get_or_create("my-topic", p).append(batch([b"x"]), now_ms=1)
    m.get_or_create("other", 0)
    assert m.list() == [("my-topic", 0), ("my-topic", 1), ("my-topic", 2), ("other", 0)]
    assert {os.path.dirname(l.dir) for l in m} == set(dirs)
    assert m.delete("other", 0)
    m.close()
    m2 = LogManager(dirs, now_ms=0)
    assert m2.list() == [("my-topic", 0), ("my-topic", 1), ("my-topic", 2)]
    assert m2.get("my-topic", 1).log_end_offset == 1
    assert m2.apply_retention(now_ms=10) == 0 and m2.flush_dirty(now_ms=10) == 0


def test_log_manager_cleaner_thread(tmp_path):
    cfg = LogConfig(cleanup_policy=("compact",), segment_bytes=300, index_interval_bytes=50)
    m = LogManager(str(tmp_path), topic_config=lambda t: cfg if t.startswith("c") else None)
    log = m.get_or_create("compacted", 0)
    for i in range(40):
        log.append(batch([b"v%d" % i], keys=[b"k%d" % (i % 2)]), now_ms=1)
    log.high_watermark = log.log_end_offset
    m.start_cleaner(clock_ms=lambda: 10_000, interval_s=0.01)
    import time
    deadline = time.monotonic() + 60
    while log.cleaner_checkpoint == 0 and time.monotonic() < deadline:
        time.sleep(0.01)
    m.close()
    assert log.cleaner_checkpoint > 0
    m2 = LogManager(str(tmp_path), topic_config=lambda t: cfg)
    got = read_all(m2.get("compacted", 0))
    assert len(got) < 40 and got[-1] == (39, b"k1", b"v39")


def test_max_timestamp_query_answers_the_record_not_its_batch():
    log = new_log(LogConfig())
    log.append(build_batch([(None, b"x", [], 5)]), now_ms=1)
    log.append(build_batch([(None, b"a", [], 10), (None, b"b", [], 50), (None, b"c", [], 20)]), now_ms=1)
    log.append(build_batch([(None, b"d", [], 30)]), now_ms=1)
    got = log.offset_for_timestamp(-3)
    assert (got.offset, got.timestamp) == (2, 50)


def test_retention_of_records_without_timestamps_counts_from_the_segment_file_mtime():
    """Records with no timestamp (-1) are as old as their segment file's last write, as Kafka's
    LogSegment.largestTimestamp falls back to the file's lastModified: retention.ms deletes them
    that long after the write, not at the next retention pass."""
    fs = FaultyFileSystem()
    clock = [1_000_000]
    fs.clock_ms = lambda: clock[0]
    log = new_log(dataclasses.replace(SMALL, retention_ms=60_000), fs=fs)
    for i in range(20):
        log.append(batch([b"v%02d" % i], ts=-1), now_ms=clock[0])
    log.high_watermark = log.log_end_offset
    assert len(log.segments) > 2 and all(s.max_timestamp == -1 for s in log.segments)
    assert log.apply_retention(now_ms=clock[0] + 60_000) == 0
    assert log.log_start_offset == 0 and len(read_all(log)) == 20
    n = len(log.segments)
    assert log.apply_retention(now_ms=clock[0] + 60_001) == n  # the active one too, as Kafka (rolled)
    assert log.log_start_offset == log.log_end_offset == 20


def test_retention_reads_the_mtime_of_a_real_segment_file(tmp_path):
    log = new_log(dataclasses.replace(SMALL, retention_ms=3_600_000), fs=RealFileSystem(),
                  path=str(tmp_path / "t-0"))
    for i in range(20):
        log.append(batch([b"v%02d" % i], ts=-1), now_ms=1)
    log.high_watermark = log.log_end_offset
    now_ms = int(os.stat(log.segments[0].path).st_mtime * 1000)
    assert log.apply_retention(now_ms=now_ms + 1000) == 0
    two_hours_ago = now_ms / 1000 - 7200
    os.utime(log.segments[0].path, (two_hours_ago, two_hours_ago))
    assert log.apply_retention(now_ms=now_ms + 1000) == 1
    assert log.log_start_offset == log.segments[0].base_offset > 0
