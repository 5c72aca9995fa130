"""The cleaner's offset map has Kafka's fixed budget (log.cleaner.dedupe.buffer.size /
log.cleaner.threads, 24 bytes a key, filled to log.cleaner.io.buffer.load.factor). A dirty
section with more keys than fit is cleaned over several passes, each ending where the map
filled up (inside a segment or a batch, as Kafka's buildOffsetMapForSegment), and the end
result equals one pass with room for every key. A map that cannot hold a single key fails
the pass: the log is left as it was, marked uncleanable, appends go on."""
from __future__ import annotations

import dataclasses
import logging

import pytest
from hypothesis import HealthCheck, example, given, settings, strategies as st

from odradek.log import CleanerConfig, FaultyFileSystem, LogCleaner, LogConfig, LogManager, PartitionLog
from odradek.log.compaction import DedupeBufferTooSmallError
from odradek.log.offset_map import BYTES_PER_ENTRY, OffsetMapFullError, SkimpyOffsetMap
from odradek.wire.records import build_batch

from log_helpers import read_all

DIR = "/data/d-0"
CFG = LogConfig(cleanup_policy=("compact",), segment_bytes=600, index_interval_bytes=100,
                delete_retention_ms=1000, min_cleanable_dirty_ratio=0.5)


def tiny(keys: int, load_factor: float = 1.0) -> CleanerConfig:
    """A cleaner whose map takes `keys` keys a pass (slots * load factor)."""
    return CleanerConfig(dedupe_buffer_size=keys * BYTES_PER_ENTRY, dedupe_buffer_load_factor=load_factor)


def new_log(fs=None, cfg=CFG):
    fs = fs or FaultyFileSystem()
    fs.makedirs("/data")
    return PartitionLog(fs, DIR, cfg, now_ms=0)


def append(log, original, recs, now):
    """recs: [(key, value)] in one batch; original: offset -> (key, value)."""
    info = log.append(build_batch([(k, v, (), now) for k, v in recs]), now_ms=now)
    for i, (k, v) in enumerate(recs):
        original[info.base_offset + i] = (k, v)
    log.high_watermark = log.log_end_offset


def clean_to_end(log, cleaner, now):
    """Passes until the checkpoint reaches the first uncleanable offset; each must progress."""
    passes = []
    while True:
        r = cleaner.clean(log, now_ms=now, force=True)
        if r is None:  # nothing below the active segment
            assert not passes
            return passes
        assert not r.aborted
        passes.append(r)
        assert r.end_offset > r.first_dirty_offset or r.first_dirty_offset >= r.first_uncleanable_offset
        assert log.cleaner_checkpoint == r.end_offset
        if not r.map_full:
            assert r.end_offset == r.first_uncleanable_offset
            return passes
        assert r.end_offset < r.first_uncleanable_offset
        assert len(passes) < 10_000


# ---------------------------------------------------------------- the map itself

def test_cleaner_config_sizes_the_map_as_kafka():
    d = CleanerConfig()
    assert (d.dedupe_buffer_size, d.dedupe_buffer_load_factor, d.threads) == (134217728, 0.9, 1)
    assert d.slots == 134217728 // 24 == 5592405
    assert d.max_map_size == int(5592405 * 0.9) == 5033164
    four = CleanerConfig(threads=4)  # each of Kafka's cleaner threads gets buffer / threads
    assert four.offset_map_memory == 33554432 and four.slots == 1398101 and four.max_map_size == 1258290
    huge = CleanerConfig(dedupe_buffer_size=10 * 2**30)  # one thread's map is at most Int.MaxValue bytes
    assert huge.offset_map_memory == 2**31 - 1 and huge.slots == (2**31 - 1) // 24
    assert CleanerConfig(dedupe_buffer_size=-5).slots == 0
    assert CleanerConfig(dedupe_buffer_load_factor=float("nan")).max_map_size == 0
    for bad in (tiny(1), CleanerConfig(dedupe_buffer_size=24 * 100, dedupe_buffer_load_factor=0.01),
                CleanerConfig(dedupe_buffer_size=0)):
        with pytest.raises(DedupeBufferTooSmallError, match="offset map is too small to fit in even a single message"):
            bad.check()
    tiny(2).check()


def test_offset_map_budget_and_kafka_put_rules():
    m = SkimpyOffsetMap(10 * BYTES_PER_ENTRY)
    assert m.slots == 10 and m.nbytes <= 10 * BYTES_PER_ENTRY
    m.put(b"a", 5)
    m.put(b"a", 7)  # same key: overwritten, the size unchanged
    m.put(b"b", 6)
    assert (m.get(b"a"), m.get(b"b"), m.get(b"c"), m.size, m.latest_offset) == (7, 6, -1, 2, 6)
    assert m.utilization == pytest.approx(0.2)
    # Kafka checks map.size() < maxDesiredMapSize before every put, a key already there included
    assert m.put_while_below([(b"c", 8), (b"a", 9), (b"d", 10)], 3) == 1
    assert (m.get(b"a"), m.size, m.latest_offset) == (7, 3, 8)
    for i in range(7):
        m.put(b"k%d" % i, 20 + i)
    assert m.size == 10
    with pytest.raises(OffsetMapFullError, match="entries: 10, slots: 10"):
        m.put(b"a", 99)  # as SkimpyOffsetMap.put: refused once entries >= slots, even for a key there
    assert SkimpyOffsetMap(1_000_000 * BYTES_PER_ENTRY, expected_entries=100).nbytes < 1000 * BYTES_PER_ENTRY


@settings(max_examples=150, deadline=None)
@given(memory_slots=st.integers(1, 64), hint=st.one_of(st.none(), st.integers(0, 80)),
       ops=st.lists(st.tuples(st.binary(max_size=3), st.integers(0, 10**12)), max_size=200))
def test_offset_map_matches_a_dict(memory_slots, hint, ops):
    """Any table size (grown from the hint up to the budget, probed to the last slot)."""
    m = SkimpyOffsetMap(memory_slots * BYTES_PER_ENTRY + 23, expected_entries=hint)
    model: dict[bytes, int] = {}
    for key, offset in ops:
        if len(model) >= memory_slots:  # Kafka: refused once full, even for a key already there
            with pytest.raises(OffsetMapFullError):
                m.put(key, offset)
            continue
        m.put(key, offset)
        model[key] = offset
        assert m.latest_offset == offset and m.size == len(model)
        assert m.table_slots <= m.slots and m.nbytes <= m.memory
    assert m.get_many(list(model)) == list(model.values())
    assert m.get(b"not there, longer than any key") == -1


# ---------------------------------------------------------------- passes that stop early

def test_map_full_inside_a_batch_ends_the_pass_after_the_last_key_mapped():
    """Kafka's buildOffsetMapForSegment returns as soon as a keyed record finds the map at
    (int) (slots * load factor): the pass ends at the last mapped offset + 1, inside the
    batch; records past it are kept as they are, and the next pass starts there."""
    log, original = new_log(), {}
    append(log, original, [(b"k%d" % i, b"v%d" % i) for i in range(10)], 1000)   # offsets 0-9
    append(log, original, [(b"k%d" % i, b"w%d" % i) for i in range(10)], 1001)   # 10-19
    log.roll(1002)
    cleaner = LogCleaner(tiny(4, 0.9))  # 4 slots, 3 keys a pass
    r = cleaner.clean(log, now_ms=2000, force=True)
    assert (r.first_dirty_offset, r.end_offset, r.first_uncleanable_offset) == (0, 3, 20)
    assert r.map_full and r.map_entries == 3 and r.buffer_utilization == pytest.approx(0.75)
    assert r.records_removed == 0 and log.cleaner_checkpoint == 3
    assert [o for o, _, _ in read_all(log)] == list(range(20))
    passes = [r] + clean_to_end(log, cleaner, 2000)
    # 3 keys a pass: 0-2, 3-5, 6-8, then k9 and k0, k1 of the second batch, ...; the last
    # pass maps the rest of the segment and ends at the next segment's base
    assert [p.end_offset for p in passes] == [3, 6, 9, 12, 15, 18, 20]
    assert [(o, k, v) for o, k, v in read_all(log)] == [(10 + i, b"k%d" % i, b"w%d" % i) for i in range(10)]


def test_segments_past_the_mapped_range_are_left_as_they_are():
    log, original = new_log(), {}
    for i in range(40):
        append(log, original, [(b"k%d" % (i % 13), b"v%d" % i)], 1000 + i)
    log.roll(2000)
    snapshot = [(s, s.size, s.generation, s.read(0, s.size)) for s in log.segments[:-1]]
    assert len(snapshot) > 3
    cleaner = LogCleaner(tiny(5))
    r = cleaner.clean(log, now_ms=3000, force=True)
    assert r.map_full and r.end_offset == 5 and log.cleaner_checkpoint == 5
    past = [x for x in snapshot if x[0].base_offset >= r.end_offset]
    assert past
    for seg, size, gen, data in past:
        assert seg in log.segments and (seg.size, seg.generation) == (size, gen) and seg.read(0, size) == data
    check_model(log, original, 3000)
    r2 = cleaner.clean(log, now_ms=3000, force=True)
    assert r2.first_dirty_offset == 5 and r2.end_offset > 5
    check_model(log, original, 3000)


def check_model(log, original, now, tombstones_kept=True):
    """Below the checkpoint: exactly the latest record of each key (a tombstone only while
    kept), at its original offset; at and past it: every record."""
    got = read_all(log)
    cp = log.cleaner_checkpoint
    for o, k, v in got:
        assert original[o] == (k, v), f"offset {o} changed"
    visible = {o for o, _, _ in got}
    latest: dict[bytes, int] = {}
    for o in sorted(original):
        if o < cp:
            latest[original[o][0]] = o
    for o, (k, v) in original.items():
        if o >= cp:
            assert o in visible, f"uncleaned offset {o} missing"
        elif latest[k] != o:
            assert o not in visible, f"superseded {k}@{o} still there"
        elif v is not None or tombstones_kept:
            assert o in visible, f"latest {k}@{o} lost"


# ---------------------------------------------------------------- many passes == one pass

workloads = st.lists(
    st.tuples(st.lists(st.tuples(st.integers(0, 30), st.booleans()), min_size=1, max_size=6),
              st.booleans()),  # (records of a batch: (key, tombstone)), roll after it
    min_size=1, max_size=40)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(batches=workloads, keys_a_pass=st.integers(2, 12), load_factor=st.sampled_from([0.5, 0.9, 1.0]),
       later=st.lists(st.tuples(st.integers(0, 30), st.booleans()), max_size=8))
def test_tiny_buffer_cleans_over_several_passes_to_the_one_pass_result(batches, keys_a_pass, load_factor, later):
    slots = int(keys_a_pass / load_factor) + 1
    small_cfg = CleanerConfig(dedupe_buffer_size=slots * BYTES_PER_ENTRY, dedupe_buffer_load_factor=load_factor)
    logs, original = [new_log(), new_log()], {}
    for n, (recs, roll) in enumerate(batches):
        batch = [(b"key-%d" % k, None if tomb else b"v%d-%d" % (n, j)) for j, (k, tomb) in enumerate(recs)]
        for lg in logs:
            append(lg, original, batch, 1000 + n)
            if roll:
                lg.roll(1000 + n)
    small, big = logs
    now = 1000 + len(batches)
    for lg in logs:
        lg.roll(now)
    passes = clean_to_end(small, LogCleaner(small_cfg), now)
    assert len(clean_to_end(big, LogCleaner(), now)) == 1
    distinct = len({original[o][0] for o in original})
    assert len(passes) >= -(-distinct // small_cfg.max_map_size)
    assert all(p.map_entries <= small_cfg.max_map_size for p in passes)
    assert small.cleaner_checkpoint == big.cleaner_checkpoint
    assert read_all(small) == read_all(big)
    check_model(small, original, now)
    # more data, and a pass after the tombstones' horizon: still the same as one big pass
    for lg in logs:
        append(lg, original, [(b"key-%d" % k, None if tomb else b"late") for k, tomb in later] or [(b"x", b"y")],
               now + 1)
        lg.roll(now + 1)
    later_now = now + 10 * CFG.delete_retention_ms
    clean_to_end(small, LogCleaner(small_cfg), later_now)
    clean_to_end(big, LogCleaner(), later_now)
    assert read_all(small) == read_all(big)
    check_model(small, original, later_now, tombstones_kept=False)
    # offsets and the log's bytes survive a reopen
    reopened = PartitionLog(small.fs.restart("kept"), DIR, CFG, now_ms=later_now)
    assert read_all(reopened) == read_all(small)


txn_ops = st.lists(st.tuples(st.sampled_from(["plain", "txn", "commit", "abort", "roll"]),
                             st.integers(0, 2),  # producer id
                             st.lists(st.integers(0, 12), min_size=1, max_size=4)),
                   min_size=1, max_size=40)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ops=txn_ops, keys_a_pass=st.integers(1, 4))
# the second pass starts after an aborted transaction's marker: that transaction is not
# the producer's next one (the next one's key, at 4, must replace the one at 0)
@example(ops=[("plain", 0, [0, 1]), ("txn", 1, [0]), ("abort", 1, [0]), ("txn", 1, [0]), ("commit", 1, [0])],
         keys_a_pass=2)
def test_tiny_buffer_with_transactions_matches_one_pass(ops, keys_a_pass):
    """Aborted data, markers and producer state through passes that end mid-segment."""
    from odradek.wire.records import build_control_batch

    logs = [new_log(), new_log()]
    seq: dict[int, int] = {}
    open_txn: set[int] = set()
    now = 1000

    def add(data):
        for lg in logs:
            lg.append(data, now_ms=now)
            lg.high_watermark = lg.log_end_offset

    for n, (op, pid, keys) in enumerate(ops):
        now += 1
        recs = [(b"key-%d" % k, b"v%d-%d" % (n, j), (), now) for j, k in enumerate(keys)]
        if op == "plain":
            add(build_batch(recs))
        elif op == "txn":
            add(build_batch(recs, producer_id=100 + pid, producer_epoch=0, base_sequence=seq.get(pid, 0),
                            is_transactional=True))
            seq[pid] = seq.get(pid, 0) + len(recs)
            open_txn.add(pid)
        elif op in ("commit", "abort") and pid in open_txn:
            add(build_control_batch(op == "commit", 100 + pid, 0, 0, now))
            open_txn.discard(pid)
        elif op == "roll":
            for lg in logs:
                lg.roll(now)
    for pid in sorted(open_txn):
        add(build_control_batch(False, 100 + pid, 0, 0, now))
    for lg in logs:
        lg.roll(now)
    small, big = logs
    passes = clean_to_end(small, LogCleaner(tiny(keys_a_pass + 1, 0.99)), now)
    clean_to_end(big, LogCleaner(), now)
    assert all(p.map_entries <= keys_a_pass for p in passes)

    def data(lg):
        control = {h.base_offset for seg in lg.segments for _, h in seg.batches() if h.is_control}
        return [r for r in read_all(lg) if r[0] not in control]

    # the data records are the same at once; a marker goes a few passes after its
    # transaction's data (one to drop the data, one to set its horizon, one past it),
    # so the small cleaner, having made more passes, may be ahead with markers
    assert data(small) == data(big)
    cfg_small = tiny(keys_a_pass + 1, 0.99)
    for k in range(1, 4):
        at = now + k * 10 * CFG.delete_retention_ms
        clean_to_end(small, LogCleaner(cfg_small), at)
        clean_to_end(big, LogCleaner(), at)
        assert data(small) == data(big)
    assert read_all(small) == read_all(big)
    assert [(h.base_offset, h.last_offset, h.is_control) for seg in small.segments for _, h in seg.batches()] == \
        [(h.base_offset, h.last_offset, h.is_control) for seg in big.segments for _, h in seg.batches()]


def test_run_once_cleans_a_big_dirty_section_over_several_rounds():
    """The broker's path: each round continues where the last one stopped."""
    log, original = new_log(cfg=dataclasses.replace(CFG, min_cleanable_dirty_ratio=0.01)), {}
    for i in range(120):
        append(log, original, [(b"k%d" % (i % 50), b"v%d" % i), (b"k%d" % ((i * 7) % 50), b"w%d" % i)], 1000 + i)
    log.roll(2000)
    cleaner = LogCleaner(tiny(16))
    ends = []
    while True:
        got = cleaner.run_once([log], 3000)
        if got is None:
            break
        ends.append(got[1].end_offset)
        assert len(ends) < 100
    assert ends == sorted(ends) and len(ends) > 3 and ends[-1] == log.segments[-1].base_offset
    check_model(log, original, 3000)
    assert not cleaner.uncleanable


# ---------------------------------------------------------------- a map too small

def _filled(fs=None):
    log, original = new_log(fs), {}
    for i in range(30):
        append(log, original, [(b"k%d" % (i % 4), b"v%d" % i)], 1000 + i)
    log.roll(2000)
    return log, original


def _state(log):
    return (read_all(log), [(s.path, s.size, s.generation) for s in log.segments], log.cleaner_checkpoint,
            sorted(log.fs.listdir(log.dir)))


@pytest.mark.parametrize("config,message", [
    (tiny(1), "offset map is too small to fit in even a single message"),
    (CleanerConfig(dedupe_buffer_size=2 * BYTES_PER_ENTRY, dedupe_buffer_load_factor=3.0),
     "Attempted to add a new entry to a full offset map, entries: 2, slots: 2"),  # load factor > 1, as Kafka
])
def test_map_too_small_fails_the_pass_leaves_the_log_and_appends_go_on(config, message, caplog):
    log, original = _filled()
    before = _state(log)
    with pytest.raises(Exception, match=message):
        LogCleaner(config).clean(log, now_ms=3000, force=True)
    assert _state(log) == before
    cleaner = LogCleaner(config)
    with caplog.at_level(logging.WARNING, logger="odradek.log.cleaner"):
        assert cleaner.run_once([log], 3000) is None
    assert _state(log) == before
    assert cleaner.is_uncleanable(log) and message in cleaner.uncleanable[log.dir][1]
    assert any("Marking its partition as uncleanable" in r.getMessage() and log.dir in r.getMessage()
               for r in caplog.records)
    caplog.clear()
    # skipped from then on, quietly; appends and reads go on
    append(log, original, [(b"k9", b"after")], 4000)
    assert cleaner.run_once([log], 5000) is None
    assert not caplog.records
    assert read_all(log)[-1] == (log.log_end_offset - 1, b"k9", b"after")
    # a log opened again under that directory (deleted and re-created) is cleanable again
    log.close()
    fresh = PartitionLog(log.fs, DIR, CFG, now_ms=6000)
    assert not cleaner.is_uncleanable(fresh)
    assert cleaner.run_once([fresh], 6000) is None and cleaner.is_uncleanable(fresh)


def test_log_manager_uses_the_configured_cleaner():
    fs = FaultyFileSystem()
    mgr = LogManager("/logs", fs=fs, default_config=CFG, cleaner_config=tiny(3))
    assert mgr.cleaner.config == tiny(3)
    log = mgr.get_or_create("t", 0, now_ms=0)
    for i in range(20):
        log.append(build_batch([(b"k%d" % i, b"v", (), 1000 + i)]), now_ms=1000 + i)
    log.roll(2000)
    log.high_watermark = log.log_end_offset
    got = mgr.clean_once(3000)
    assert got is not None and got[1].map_full and got[1].end_offset == 3
    assert LogManager("/other", fs=fs).cleaner.config == CleanerConfig()
