"""Compaction against a model: latest record per key kept at its original offset,
tombstones dropped after delete.retention.ms, dirty-ratio gating, the active
segment untouched, crash safety of the segment swap, a cleaner thread racing appends."""
from __future__ import annotations

import dataclasses
import os
import threading

import pytest
from hypothesis import HealthCheck, settings, strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from odradek.log import (FaultyFileSystem, LogCleaner, LogConfig, PartitionLog, SimulatedCrash,
                         validate_compacted_record_set)
from odradek.log.fs import FaultyFile
from odradek.log import errors
from odradek.wire.records import build_batch

from log_helpers import read_all

DIR = "/data/c-0"
CFG = LogConfig(cleanup_policy=("compact",), segment_bytes=500, index_interval_bytes=100,
                delete_retention_ms=1000, min_cleanable_dirty_ratio=0.5)


def check_compacted(log: PartitionLog, original: dict[int, tuple[bytes, bytes | None, int]],
                    dropped_tombstones_ok: bool = True, uncleaned_from: int | None = None) -> None:
    """original: offset -> (key, value, timestamp) of everything ever appended."""
    got = read_all(log)
    cp = log.cleaner_checkpoint
    for o, k, v in got:
        assert original[o][:2] == (k, v), f"offset {o} changed"
    visible = {o for o, _, _ in got}
    latest: dict[bytes, int] = {}
    for o in sorted(original):
        latest[original[o][0]] = o
    for o, (k, v, ts) in original.items():
        if o >= (cp if uncleaned_from is None else uncleaned_from):
            assert o in visible, f"uncleaned offset {o} missing"
    below = {}
    for o, k, v in got:
        if o < cp:
            assert k not in below, f"key {k} twice in the cleaned range"
            below[k] = o
    latest_below = {}
    for o in sorted(original):
        if o < cp:
            latest_below[original[o][0]] = o
    for k, o in latest_below.items():
        if o not in visible:
            assert original[o][1] is None and dropped_tombstones_ok, f"latest {k}@{o} lost"
            assert k not in below
        else:
            assert below[k] == o
    for k, o in latest.items():
        if original[o][1] is not None:
            assert o in visible


def fill(log, original, keys, n, ts0=1000, tombstone_every=0, now=None):
    for i in range(n):
        k = keys[i % len(keys)]
        v = None if tombstone_every and i % tombstone_every == tombstone_every - 1 else b"v%d" % i
        info = log.append(build_batch([(k, v, (), ts0 + i)]), now_ms=now or ts0 + i)
        original[info.base_offset] = (k, v, ts0 + i)
    log.high_watermark = log.log_end_offset


def new(cfg=CFG, fs=None):
    fs = fs or FaultyFileSystem()
    fs.makedirs("/data")
    return PartitionLog(fs, DIR, cfg, now_ms=0)


def test_compaction_keeps_latest_per_key_at_original_offsets():
    log, original = new(), {}
    fill(log, original, [b"a", b"b", b"c", b"d"], 60)
    before = log.size_in_bytes
    active = (log.active.path, log.active.size)
    res = LogCleaner().clean(log, now_ms=2000)
    assert res and res.records_removed > 0 and res.segments_rewritten > 0
    assert log.size_in_bytes < before
    assert (log.active.path, log.active.size) == active
    check_compacted(log, original)
    # reopen (clean and unclean) sees the same thing
    got = read_all(log)
    log.close()
    log2 = PartitionLog(log.fs, DIR, CFG, now_ms=0)
    assert read_all(log2) == got
    log3 = PartitionLog(log.fs.restart("kept"), DIR, CFG, now_ms=0)
    assert read_all(log3) == got


def test_a_pass_still_running_when_the_log_closes_swaps_nothing_in():
    """A broker stop closes the logs while the cleaner thread may be mid-pass: as Kafka's cleaner
    aborts at shutdown, the pass's swap is refused and the closed log's files stay as the close
    left them (the reopened log reads the same records)."""
    log, original = new(), {}
    fill(log, original, [b"a", b"b", b"c", b"d"], 60)
    got = read_all(log)
    log.close()
    files = {path: bytes(inode.data) for path, inode in log.fs.files.items()}
    res = LogCleaner().clean(log, now_ms=2000, force=True)
    assert res is not None and res.aborted and res.segments_rewritten == 0
    assert {path: bytes(inode.data) for path, inode in log.fs.files.items()} == files
    assert read_all(PartitionLog(log.fs, DIR, CFG, now_ms=0)) == got


class ClosingReads(FaultyFileSystem):
    """Counts the reads of segment (.log) files; the read numbered ``close_at`` first closes the
    log (a broker stop while the cleaner thread is mid-pass)."""

    def __init__(self):
        super().__init__()
        self.reads = 0
        self.close_at: int | None = None
        self.log: PartitionLog | None = None

    def open(self, path: str) -> FaultyFile:
        f = super().open(path)
        return _CountedFile(self, f.path, f.inode) if path.endswith(".log") else f

    def counted_read(self) -> None:
        self.reads += 1
        if self.reads == self.close_at:
            self.log.close()


class _CountedFile(FaultyFile):
    def read(self, position: int, length: int) -> bytes:
        self.fs.counted_read()
        return super().read(position, length)


@pytest.mark.parametrize("when", [0.2, 0.8])  # in the offset map's scan, in the rewrite
def test_a_pass_stops_at_the_next_batch_when_its_log_closes(when):
    """Kafka's cleaner threads check at every batch they read that they still run: a broker stop
    neither waits for a doomed pass nor burns CPU on it. A pass whose log closes reads at most the
    batch it was at (it went on reading the whole range before, refused only at the swap)."""
    whole = ClosingReads()  # the same log elsewhere: how many reads a whole pass makes
    whole_log = new(fs=whole)
    fill(whole_log, {}, [b"a", b"b", b"c", b"d"], 60)
    whole.reads = 0
    assert LogCleaner().clean(whole_log, now_ms=2000, force=True).segments_rewritten > 0
    fs = ClosingReads()
    log, original = new(fs=fs), {}
    fill(log, original, [b"a", b"b", b"c", b"d"], 60)
    fs.reads = 0
    fs.log, fs.close_at = log, max(2, int(whole.reads * when))
    res = LogCleaner().clean(log, now_ms=2000, force=True)
    assert res is not None and res.aborted
    assert fs.reads <= fs.close_at + 1 < whole.reads  # (the batch's header was read before the close)
    assert not any(p.endswith(".cleaned") for p in fs.files)
    # the groups swapped in before the close stay (compacted), the rest as it was
    reopened = PartitionLog(fs, DIR, CFG, now_ms=0)
    check_compacted(reopened, original, uncleaned_from=reopened.active.base_offset)
    if when < 0.5:  # closed while mapping: nothing was rewritten
        assert res.segments_rewritten == 0 and len(read_all(reopened)) == len(original)


def test_tombstones_removed_only_after_delete_retention():
    log, original = new(), {}
    fill(log, original, [b"a", b"b", b"c"], 40, tombstone_every=4)
    LogCleaner().clean(log, now_ms=1000 + 40, force=True)  # tombstones still young
    tomb = [o for o, k, v in read_all(log) if v is None]
    assert tomb
    check_compacted(log, original, dropped_tombstones_ok=False)
    fill(log, original, [b"x"], 30, ts0=5000)
    # KIP-534: a pass sets the delete horizon of a batch keeping tombstones (now +
    # delete.retention.ms), whatever their timestamps; a pass at/after it drops them
    cp1 = log.cleaner_checkpoint
    LogCleaner().clean(log, now_ms=100000, force=True)  # past the first horizons (2040)
    late = [o for o, k, v in read_all(log) if v is None and o < log.cleaner_checkpoint]
    assert late and min(late) >= cp1  # first seen by this pass: horizon 101000
    LogCleaner().clean(log, now_ms=100999, force=True)
    assert [o for o, k, v in read_all(log) if v is None and o < log.cleaner_checkpoint] == late
    LogCleaner().clean(log, now_ms=101000, force=True)
    assert not [o for o, k, v in read_all(log) if v is None and o < log.cleaner_checkpoint]
    check_compacted(log, original)


def test_dirty_ratio_gating_and_compaction_lag():
    log, original = new(), {}
    fill(log, original, [b"k%d" % i for i in range(60)], 60)  # nothing to gain
    cleaner = LogCleaner()
    assert cleaner.clean(log, now_ms=2000) is not None
    assert cleaner.dirty_ratio(log, 2000) == 0
    fill(log, original, [b"a", b"b"], 6)
    assert cleaner.dirty_ratio(log, 2000) < 0.5
    assert cleaner.clean(log, now_ms=2000) is None
    lagged = new(dataclasses.replace(CFG, min_compaction_lag_ms=10_000))
    fill(lagged, {}, [b"a"], 40)
    assert cleaner.clean(lagged, now_ms=2000, force=True) is None
    assert cleaner.clean(lagged, now_ms=20_000) is not None
    assert cleaner.clean(new(LogConfig()), now_ms=0) is None  # delete policy: never


def test_keyless_records_rejected_in_compacted_topic():
    log = new()
    with pytest.raises(errors.InvalidRecordError):
        log.append(build_batch([(b"k", b"v"), (None, b"v")]), now_ms=1)
    with pytest.raises(errors.InvalidRecordError):
        validate_compacted_record_set(build_batch([(None, b"v")]))
    validate_compacted_record_set(build_batch([(b"k", None)]))


def test_compressed_and_multi_record_batches_keep_offsets():
    log, original = new(dataclasses.replace(CFG, segment_bytes=900)), {}
    for i in range(30):
        recs = [(b"k%d" % ((i + j) % 5), b"v%d.%d" % (i, j), (), 1000 + i) for j in range(3)]
        info = log.append(build_batch(recs, compression=1 + i % 2, producer_id=5,
                                      producer_epoch=0, base_sequence=3 * i), now_ms=1000 + i)
        for j, (k, v, _, ts) in enumerate(recs):
            original[info.base_offset + j] = (k, v, ts)
    log.high_watermark = log.log_end_offset
    LogCleaner().clean(log, now_ms=2000, force=True)
    check_compacted(log, original)
    # producer sequences still work after cleaning and reopen
    log.close()
    log2 = PartitionLog(log.fs, DIR, CFG, now_ms=0)
    assert log2.append(build_batch([(b"k", b"v")], producer_id=5, producer_epoch=0,
                                   base_sequence=90), now_ms=1).base_offset == 90


def workload_original():
    fs = FaultyFileSystem()
    log = new(fs=fs)
    original = {}
    fill(log, original, [b"a", b"b", b"c", b"d", b"e"], 80, tombstone_every=7)
    log.flush()
    return fs, original


@pytest.mark.parametrize("mode", ["lost", "kept"])
def test_crash_during_cleaning_leaves_old_or_new_segments(mode):
    fs, original = workload_original()
    base = fs.bytes_written
    log = PartitionLog(fs, DIR, CFG, now_ms=0)
    log.high_watermark = log.log_end_offset
    LogCleaner().clean(log, now_ms=3000)
    span = fs.bytes_written - base
    assert span > 0
    for budget in range(0, span + 1, max(1, span // 60)):
        fs2, _ = workload_original()
        log = PartitionLog(fs2, DIR, CFG, now_ms=0)
        log.high_watermark = log.log_end_offset
        fs2.crash_after_bytes = fs2.bytes_written + budget
        try:
            LogCleaner().clean(log, now_ms=3000)
        except SimulatedCrash:
            pass
        fs3 = fs2.restart(mode, seed=budget)
        log = PartitionLog(fs3, DIR, CFG, now_ms=0)
        assert not any(n.endswith(".cleaned") for n in fs3.listdir(DIR))
        # the checkpoint may lag the segments already swapped in before the crash
        check_compacted(log, original, uncleaned_from=log.active.base_offset)
        log.high_watermark = log.log_end_offset
        LogCleaner().clean(log, now_ms=3000, force=True)
        check_compacted(log, original)


def test_cleaner_thread_races_appends_and_retention():
    fs = FaultyFileSystem()
    log = new(fs=fs)
    original = {}
    stop = threading.Event()
    cleaner = LogCleaner()
    errors_seen = []

    def run():
        try:
            while not stop.is_set():
                cleaner.clean(log, now_ms=3000, force=True)
        except Exception as e:  # pragma: no cover - reported below
            errors_seen.append(e)

    t = threading.Thread(target=run)
    t.start()
    try:
        for r in range(10):
            fill(log, original, [b"a", b"b", b"c"], 20, ts0=1000 + 20 * r)
    finally:
        stop.set()
        t.join()
    assert not errors_seen
    check_compacted(log, original)


MODEL_CFG = dataclasses.replace(CFG, max_compaction_lag_ms=3000)


class CompactionModel(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        self.fs = FaultyFileSystem()
        self.fs.makedirs("/data")
        self.log = PartitionLog(self.fs, DIR, MODEL_CFG, now_ms=0)
        self.original = {}
        self.now = 1000
        self.first_pass = {}  # tombstone offset -> now of the first pass that covered it

    @rule(key=st.sampled_from([b"a", b"b", b"c", b"d"]), tomb=st.booleans(), n=st.integers(1, 4),
          dt=st.integers(0, 400))
    def append(self, key, tomb, n, dt):
        self.now += dt
        recs = [(key if j == 0 else b"k%d" % (j % 3), None if tomb and j == 0 else b"v%d" % self.now, (), self.now)
                for j in range(n)]
        info = self.log.append(build_batch(recs), now_ms=self.now)
        for j, (k, v, _, ts) in enumerate(recs):
            self.original[info.base_offset + j] = (k, v, ts)
        self.log.high_watermark = self.log.log_end_offset

    def _covered(self):
        cp = self.log.cleaner_checkpoint
        for o, (k, v, ts) in self.original.items():
            if v is None and o < cp:
                self.first_pass.setdefault(o, self.now)

    @rule(force=st.booleans(), dt=st.integers(0, 2000))
    def clean(self, force, dt):
        self.now += dt
        LogCleaner().clean(self.log, now_ms=self.now, force=force)
        self._covered()

    @rule(dt=st.integers(0, 4000))
    def run_once(self, dt):
        """The broker's path: eligible by ratio or by max.compaction.lag.ms."""
        self.now += dt
        before = self.log.cleaner_checkpoint
        plan = LogCleaner().plan(self.log, self.now)
        due = plan is not None and plan.should_clean(MODEL_CFG.min_cleanable_dirty_ratio)
        got = LogCleaner().run_once([self.log], self.now)
        assert (got is not None) == due
        if plan is not None and plan.need_compaction_now and plan.dirty_bytes:
            assert self.log.cleaner_checkpoint >= plan.end > before
        self._covered()

    @rule()
    def roll(self):
        self.log.roll(self.now)

    @rule(kill=st.booleans())
    def reopen(self, kill):
        if kill:
            self.fs = self.fs.restart("kept")
        else:
            self.log.close()
        self.log = PartitionLog(self.fs, DIR, MODEL_CFG, now_ms=self.now)
        self.log.high_watermark = self.log.log_end_offset

    @invariant()
    def compacted(self):
        check_compacted(self.log, self.original)

    @invariant()
    def tombstones_live_until_their_horizon(self):
        """KIP-534: a tombstone still latest for its key is readable until
        delete.retention.ms after the first pass that covered it."""
        latest = {}
        for o in sorted(self.original):
            latest[self.original[o][0]] = o
        visible = {o for o, _, _ in read_all(self.log)}
        for o, first in self.first_pass.items():
            if latest[self.original[o][0]] == o and self.now < first + MODEL_CFG.delete_retention_ms:
                assert o in visible, f"tombstone {o} gone before its horizon"


CompactionModel.TestCase.settings = settings(
    max_examples=int(os.environ.get("LOG_MODEL_EXAMPLES", 60)), stateful_step_count=40,
    deadline=None, suppress_health_check=[HealthCheck.too_slow])
TestCompactionModel = CompactionModel.TestCase


# ---------------------------------------------------------------- Kafka LogCleaner rules

def _headers(log):
    from log_helpers import batches_of
    return [h for s in log.segments for h in batches_of(s.read(0, s.size))]


def test_max_compaction_lag_cleans_below_the_dirty_ratio():
    cfg = dataclasses.replace(CFG, min_cleanable_dirty_ratio=0.99, max_compaction_lag_ms=5000)
    log, original = new(cfg), {}
    fill(log, original, [b"k%d" % i for i in range(30)], 30)  # ts 1000..1029
    cleaner = LogCleaner()
    assert cleaner.clean(log, now_ms=1100) is not None  # all dirty: ratio 1.0 > 0.99
    fill(log, original, [b"a"], 8, ts0=2000)
    log.roll(2100)
    plan = cleaner.plan(log, 2100)
    assert 0 < plan.ratio < 0.99 and not plan.need_compaction_now
    assert cleaner.clean(log, now_ms=2100) is None
    assert cleaner.run_once([log], 2100) is None
    # the dirty segment's first batch (ts 2000) is older than now - max.compaction.lag.ms
    assert cleaner.plan(log, 7001).need_compaction_now
    got = cleaner.run_once([log], 7001)
    assert got and got[0] is log and got[1].records_removed == 7
    check_compacted(log, original)
    # nothing dirty left: lag alone does not clean again
    assert cleaner.run_once([log], 100000) is None


def test_ratio_must_exceed_threshold_and_filthiest_log_goes_first():
    cleaner = LogCleaner()
    logs = []
    for i, dup in enumerate((2, 6)):
        fs = FaultyFileSystem()
        fs.makedirs("/data")
        log = PartitionLog(fs, DIR, dataclasses.replace(CFG, min_cleanable_dirty_ratio=1.0), now_ms=0)
        fill(log, {}, [b"k%d" % j for j in range(dup)], 40)
        logs.append(log)
    assert cleaner.plan(logs[0], 2000).ratio == 1.0
    assert cleaner.run_once(logs, 2000) is None  # 1.0 is not above 1.0 (Kafka's ">")
    for log in logs:
        log.config = dataclasses.replace(log.config, min_cleanable_dirty_ratio=0.5)
    fill(logs[1], {}, [b"z"], 1)  # equal ratios: the first one
    got = cleaner.run_once(logs, 2000)
    assert got[0] is logs[0]
    assert cleaner.run_once(logs, 2000)[0] is logs[1]


def test_delete_horizon_batch_layout():
    """Kafka's MemoryRecords.filterTo: a kept tombstone's batch gets attribute bit 6 and
    baseTimestamp = now + delete.retention.ms; record timestamps stay as they were,
    maxTimestamp is the records' largest; a later pass keeps the horizon."""
    cfg = dataclasses.replace(CFG, segment_bytes=100000, delete_retention_ms=700)
    log = new(cfg)
    log.append(build_batch([(b"a", b"1", (), 1000), (b"b", b"2", (), 1001)]), now_ms=1001)
    log.append(build_batch([(b"a", None, (), 1005), (b"c", b"3", (), 1007), (b"b", b"4", (), 1006)]),
               now_ms=1007)
    log.append(build_batch([(b"d", b"5", (), 1010)]), now_ms=1010)
    log.roll(1010)
    log.append(build_batch([(b"e", b"6", (), 1020)]), now_ms=1020)
    log.high_watermark = log.log_end_offset
    LogCleaner().clean(log, now_ms=5000, force=True)
    hs = _headers(log)
    assert [(h.base_offset, h.last_offset, h.records_count) for h in hs[:2]] == [(2, 4, 3), (5, 5, 1)]
    h = hs[0]
    assert h.has_delete_horizon and h.attributes & 0x40 and h.delete_horizon_ms == 5700
    assert h.base_timestamp == 5700 and h.max_timestamp == 1007
    assert not hs[1].has_delete_horizon and hs[1].base_timestamp == 1010
    assert [(o, k, v) for o, k, v in read_all(log)] == [(2, b"a", None), (3, b"c", b"3"), (4, b"b", b"4"),
                                                       (5, b"d", b"5"), (6, b"e", b"6")]
    from odradek.wire.records import decode_records
    seg = log.segments[0]
    _, recs = decode_records(seg.read(0, hs[0].size_in_bytes), 0)
    assert [r.timestamp(h) for r in recs] == [1005, 1007, 1006]
    # the time index and ListOffsets see record timestamps, never the horizon
    assert seg.max_timestamp == 1010
    assert log.offset_for_timestamp(1006).offset == 3
    # before the horizon nothing changes; the horizon survives a rewrite of the batch
    log.append(build_batch([(b"c", b"7", (), 1030)]), now_ms=1030)
    log.roll(1030)
    log.high_watermark = log.log_end_offset
    LogCleaner().clean(log, now_ms=5699, force=True)
    h = _headers(log)[0]
    assert (h.base_offset, h.records_count, h.delete_horizon_ms, h.max_timestamp) == (2, 2, 5700, 1006)
    LogCleaner().clean(log, now_ms=5700, force=True)
    h = _headers(log)[0]
    assert (h.base_offset, h.last_offset, h.records_count, h.has_delete_horizon) == (2, 4, 1, True)
    assert h.base_timestamp == 5700 and h.max_timestamp == 1006
    assert [o for o, _, _ in read_all(log)] == [4, 5, 6, 7]


def test_last_batch_of_the_pass_is_kept_empty():
    log = new(dataclasses.replace(CFG, segment_bytes=100000))
    log.append(build_batch([(b"a", b"1", (), 1000)]), now_ms=1000)
    log.append(build_batch([(b"b", b"1", (), 1001)]), now_ms=1001)
    log.append(build_batch([(b"b", b"2", (), 1002), (b"a", b"2", (), 1002)]), now_ms=1002)
    log.append(build_batch([(b"b", b"3", (), 1003)]), now_ms=1003)
    log.roll(1003)
    log.append(build_batch([(b"b", b"4", (), 1004)]), now_ms=1004)  # the active segment
    log.high_watermark = log.log_end_offset
    LogCleaner().clean(log, now_ms=2000, force=True)
    assert [(h.base_offset, h.records_count) for h in _headers(log)] == [(2, 1), (4, 1), (5, 1)]
    # b=3 at offset 4 superseded within the round's dirty range? no: it is the latest there
    log.append(build_batch([(b"b", b"5", (), 1005)]), now_ms=1005)
    log.roll(1005)
    log.high_watermark = log.log_end_offset
    LogCleaner().clean(log, now_ms=2000, force=True)
    hs = _headers(log)
    # offset 5 (b=4) is superseded by 6 but is no longer the last batch; 6 is
    assert [(h.base_offset, h.records_count) for h in hs] == [(2, 1), (6, 1)]
    log.append(build_batch([(b"b", b"6", (), 1006)]), now_ms=1006)
    log.roll(1006)
    log.append(build_batch([(b"b", b"7", (), 1007)]), now_ms=1007)
    log.roll(1007)
    log.high_watermark = log.log_end_offset
    LogCleaner().clean(log, now_ms=2000, force=True)
    hs = _headers(log)
    # b=7 at 8 is latest; the round ends at 9: offset 8's batch is last and kept as is
    assert [(h.base_offset, h.records_count) for h in hs] == [(2, 1), (8, 1)]


def test_emptied_last_batch_keeps_its_offsets_as_an_empty_batch():
    log = new(dataclasses.replace(CFG, segment_bytes=100000))
    log.append(build_batch([(b"a", b"1", (), 1000)]), now_ms=1000)
    log.append(build_batch([(b"a", None, (), 1001), (b"x", None, (), 1001)]), now_ms=1001)
    log.roll(1001)
    log.append(build_batch([(b"x", b"2", (), 1002)]), now_ms=1002)
    log.roll(1002)
    log.high_watermark = log.log_end_offset
    cleaner = LogCleaner()
    cleaner.clean(log, now_ms=2000, force=True)  # horizon 3000 on [1, 2]
    log.append(build_batch([(b"y", b"3", (), 1003)]), now_ms=1003)
    log.roll(1003)
    log.high_watermark = log.log_end_offset
    cleaner.clean(log, now_ms=3000, force=True)
    hs = _headers(log)
    # [x=2] at 3 is the last batch of the round ending at 4 and is the latest x: kept
    assert [(h.base_offset, h.last_offset, h.records_count) for h in hs] == [(3, 3, 1), (4, 4, 1)]


def test_active_producer_last_batch_kept_empty_and_sequences_continue():
    log = new(dataclasses.replace(CFG, segment_bytes=100000))
    log.append(build_batch([(b"a", b"1", (), 1000), (b"b", b"1", (), 1000)], producer_id=7,
                           producer_epoch=0, base_sequence=0), now_ms=1000)
    log.append(build_batch([(b"a", b"2", (), 1001), (b"b", b"2", (), 1001)]), now_ms=1001)
    log.append(build_batch([(b"c", b"1", (), 1002)]), now_ms=1002)
    log.roll(1002)
    log.high_watermark = log.log_end_offset
    LogCleaner().clean(log, now_ms=2000, force=True)
    hs = _headers(log)
    h = hs[0]
    assert (h.base_offset, h.last_offset, h.records_count, h.producer_id, h.base_sequence) == (0, 1, 0, 7, 0)
    assert h.base_timestamp == -1 and h.max_timestamp == 1000 and h.compression == 0
    assert [o for o, _, _ in read_all(log)] == [2, 3, 4]
    log.close()
    log2 = PartitionLog(log.fs.restart("kept"), DIR, log.config, now_ms=0)
    # the empty batch still carries the producer's last sequence
    info = log2.append(build_batch([(b"a", b"3")], producer_id=7, producer_epoch=0, base_sequence=2),
                       now_ms=3000)
    assert info.base_offset == 5


def test_keyless_records_are_dropped_by_the_cleaner():
    fs = FaultyFileSystem()
    fs.makedirs("/data")
    log = PartitionLog(fs, DIR, LogConfig(segment_bytes=100000), now_ms=0)
    log.append(build_batch([(None, b"n", (), 1000), (b"k", b"v", (), 1000)]), now_ms=1000)
    log.append(build_batch([(b"z", b"v", (), 1001)]), now_ms=1001)
    log.roll(1001)
    log.high_watermark = log.log_end_offset
    log.config = dataclasses.replace(log.config, cleanup_policy=("compact",))  # was delete
    LogCleaner().clean(log, now_ms=2000, force=True)
    assert [(o, k) for o, k, _ in read_all(log)] == [(1, b"k"), (2, b"z")]


def test_segments_grouped_by_size_into_one():
    cfg = dataclasses.replace(CFG, segment_bytes=2000, index_interval_bytes=10**6)
    log, original = new(cfg), {}
    for r in range(12):
        fill(log, original, [b"k%d" % i for i in range(3)], 3, ts0=1000 + 10 * r)
        log.roll(1000 + 10 * r + 5)
    assert len(log.segments) == 13
    cleaner = LogCleaner()
    res = cleaner.clean(log, now_ms=5000, force=True)
    # 9 of the 12 closed segments were superseded to empty; the rest merges by input size
    sizes = [s.size for s in log.segments[:-1]]
    assert len(log.segments) < 13 and res.segments_rewritten == 12
    assert all(s <= cfg.segment_bytes for s in sizes)
    check_compacted(log, original)
    fill(log, original, [b"k%d" % i for i in range(3)], 3, ts0=2000)
    log.roll(2100)
    cleaner.clean(log, now_ms=5000, force=True)
    assert len(log.segments) == 2  # small cleaned segments regroup into one
    check_compacted(log, original)
    got = read_all(log)
    log.close()
    assert read_all(PartitionLog(log.fs, DIR, cfg, now_ms=0)) == got


def test_grouping_respects_index_and_offset_limits():
    class Seg:
        def __init__(self, base, size, oi, ti):
            from array import array
            self.base_offset, self.size = base, size
            self.offset_index = type("I", (), {"keys": array("q", range(oi))})()
            self.time_index = type("I", (), {"keys": array("q", range(ti))})()

    g = LogCleaner.group_segments_by_size
    segs = [(Seg(b, 100, 2, 1), 100, 0) for b in (0, 10, 20, 30)]
    assert [[s.base_offset for s, _, _ in grp] for grp in g(segs, 250, 10**6, 40)] == [[0, 10], [20, 30]]
    # offset index 2 entries * 8 bytes each: 3 segments need 48 > 40
    assert [[s.base_offset for s, _, _ in grp] for grp in g(segs, 10**6, 40, 40)] == [[0, 10], [20, 30]]
    # time index 12 bytes an entry
    tsegs = [(Seg(b, 100, 0, 1), 100, 0) for b in (0, 10, 20, 30)]
    assert [[s.base_offset for s, _, _ in grp] for grp in g(tsegs, 10**6, 24, 40)] == [[0, 10], [20, 30]]
    big = [(Seg(0, 100, 0, 0), 100, 0), (Seg(2**31 - 5, 100, 0, 0), 100, 0), (Seg(2**31 + 10, 0, 0, 0), 0, 0)]
    # the second segment's last offset (next base - 1) is beyond int32 of the group's base;
    # an empty segment joins regardless
    assert [[s.base_offset for s, _, _ in grp] for grp in g(big, 10**6, 10**6, 2**31 + 20)] == \
        [[0], [2**31 - 5, 2**31 + 10]]


def test_transaction_markers_go_after_their_data_and_horizon():
    """Kafka's CleanedTransactionMetadata: aborted data goes at once; its ABORT marker
    stays (and its txn index entry) while the pass still sees the data, then gets a
    delete horizon, then goes; a COMMIT marker likewise once its data is gone."""
    from odradek.wire.records import build_control_batch
    cfg = dataclasses.replace(CFG, segment_bytes=100000, delete_retention_ms=100)
    log = new(cfg)
    t = dict(producer_epoch=0, is_transactional=True)
    log.append(build_batch([(b"k", b"aborted", (), 1000)], producer_id=4, base_sequence=0, **t), now_ms=1000)
    log.append(build_control_batch(False, 4, 0, 0, 1001), now_ms=1001)                    # 1: abort
    log.append(build_batch([(b"k", b"committed", (), 1002)], producer_id=5, base_sequence=0, **t),
               now_ms=1002)                                                               # 2
    log.append(build_control_batch(True, 5, 0, 0, 1003), now_ms=1003)                     # 3: commit
    log.append(build_batch([(b"k", b"plain", (), 1004)]), now_ms=1004)                     # 4
    log.append(build_batch([(b"q", b"tail", (), 1005)]), now_ms=1005)                     # 5
    log.roll(1005)
    log.append(build_batch([(b"r", b"active", (), 1006)]), now_ms=1006)
    log.high_watermark = log.log_end_offset
    log.producer_state.producers.clear()  # expired producers: nothing kept for them
    cleaner = LogCleaner()
    cleaner.clean(log, now_ms=2000, force=True)
    hs = _headers(log)
    # abort marker kept (data seen this pass), with its index entry; data gone; commit
    # marker kept (its data was seen); committed data superseded
    assert [(h.base_offset, h.is_control, h.has_delete_horizon) for h in hs] == \
        [(1, True, False), (3, True, False), (4, False, False), (5, False, False), (6, False, False)]
    assert [a.producer_id for a in log.aborted_transactions(0, 10)] == [4]
    cleaner.clean(log, now_ms=2001, force=True)  # markers' data gone: horizon 2101
    hs = _headers(log)
    assert [(h.base_offset, h.delete_horizon_ms) for h in hs if h.is_control] == [(1, 2101), (3, 2101)]
    assert log.aborted_transactions(0, 10) == []
    cleaner.clean(log, now_ms=2100, force=True)
    assert [h.base_offset for h in _headers(log) if h.is_control] == [1, 3]
    cleaner.clean(log, now_ms=2101, force=True)
    assert [h.base_offset for h in _headers(log)] == [4, 5, 6]
    assert [(o, v) for o, _, v in read_all(log)] == [(4, b"plain"), (5, b"tail"), (6, b"active")]
