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


class CompactionModel(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        self.fs = FaultyFileSystem()
        self.fs.makedirs("/data")
        self.log = PartitionLog(self.fs, DIR, CFG, now_ms=0)
        self.original = {}
        self.now = 1000

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

    @rule(force=st.booleans(), dt=st.integers(0, 2000))
    def clean(self, force, dt):
        self.now += dt
        LogCleaner().clean(self.log, now_ms=self.now, force=force)

    @rule()
    def roll(self):
        self.log.roll(self.now)

    @rule(kill=st.booleans())
    def reopen(self, kill):
        if kill:
            self.fs = self.fs.restart("kept")
        else:
            self.log.close()
        self.log = PartitionLog(self.fs, DIR, CFG, now_ms=self.now)
        self.log.high_watermark = self.log.log_end_offset

    @invariant()
    def compacted(self):
        check_compacted(self.log, self.original)


CompactionModel.TestCase.settings = settings(
    max_examples=int(os.environ.get("LOG_MODEL_EXAMPLES", 60)), stateful_step_count=40,
    deadline=None, suppress_health_check=[HealthCheck.too_slow])
TestCompactionModel = CompactionModel.TestCase
