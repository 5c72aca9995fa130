"""Crash tests: the fault-injecting filesystem crashes the log after every N bytes
(power loss: unflushed bytes lost / torn; kill -9: kept), then the log is reopened.
Every flushed batch must be intact, nothing partial visible, offsets consistent.
Also a real writer process killed with SIGKILL."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from odradek.log import FaultyFileSystem, LogConfig, PartitionLog, RealFileSystem, SimulatedCrash
from odradek.log import errors
from odradek.wire.records import build_batch

from log_helpers import SteppedFS, read_all

DIR = "/data/t-0"
CFG = LogConfig(segment_bytes=700, index_interval_bytes=120)
PREALLOCATED = LogConfig(segment_bytes=700, index_interval_bytes=120, preallocate=True)


def value(i: int) -> bytes:
    return b"value-%04d-" % i + b"z" * (i % 37)


def workload(fs: FaultyFileSystem, durable: list, appended: list, cfg: LogConfig = CFG) -> None:
    """Appends, explicit flushes, rolls and a clean close; records what was acked."""
    log = PartitionLog(fs, DIR, cfg, now_ms=0)
    i = 0
    for step in range(36):
        n = 1 + step % 3
        vals = [value(i + k) for k in range(n)]
        log.append(build_batch([(b"k%d" % (i + k), v, (), 1000 + step) for k, v in enumerate(vals)]),
                   now_ms=1000 + step)
        appended.extend(vals)
        i += n
        if step % 5 == 4:
            log.flush()
            durable[:] = list(appended)
        if step == 20:
            log.roll(1000 + step)
    log.close()
    durable[:] = list(appended)


def total_bytes() -> int:
    fs = FaultyFileSystem()
    fs.makedirs("/data")
    workload(fs, [], [])
    return fs.bytes_written


def check_reopened(fs: FaultyFileSystem, durable: list, appended: list, cfg: LogConfig = CFG) -> None:
    log = PartitionLog(fs, DIR, cfg, now_ms=5000)
    got = read_all(log)  # decodes every batch with its CRC checked
    assert [o for o, _, _ in got] == list(range(len(got)))
    assert len(got) >= len(durable), "a flushed batch was lost"
    assert len(got) <= len(appended)
    for o, _, v in got:
        assert v == appended[o]
    # the log is usable afterwards and survives another reopen
    log.append(build_batch([(b"k", b"after", (), 9999)]), now_ms=6000)
    log.close()
    log = PartitionLog(fs, DIR, cfg, now_ms=7000)
    assert read_all(log)[-1][2] == b"after"
    assert log.log_end_offset == len(got) + 1
    log.close()


TOTAL = total_bytes()
POINTS = sorted(set(range(0, TOTAL + 1, max(1, TOTAL // 150))) | {TOTAL - 1, 61, 62, 1})


@pytest.fixture(scope="module")
def crashes() -> dict:
    """Each crashed run once for the restart modes (lost, torn, kept) that reboot it:
    restart(mode, seed) leaves the crashed file system as it was."""
    return {}


def crashed(n: int, budget: int, cfg: LogConfig) -> tuple[FaultyFileSystem, list, list]:
    """The file system the workload leaves when it crashes after `budget` bytes, what was flushed
    and what was appended."""
    fs = FaultyFileSystem(seed=n)
    fs.makedirs("/data")
    fs.crash_after_bytes = budget
    durable, appended = [], []
    try:
        workload(fs, durable, appended, cfg)
    except SimulatedCrash:
        pass
    return fs, durable, appended


@pytest.mark.parametrize("cfg", [CFG, PREALLOCATED], ids=["plain", "preallocate"])
@pytest.mark.parametrize("mode", ["lost", "torn", "kept"])
def test_crash_at_every_point(mode, cfg, crashes):
    for n, budget in enumerate(POINTS):
        key = (cfg.preallocate, n)
        if key not in crashes:
            crashes[key] = crashed(n, budget, cfg)
        fs, durable, appended = crashes[key]
        # the append in flight when it crashed may or may not have landed
        in_flight = appended + [value(len(appended) + k) for k in range(3)]
        check_reopened(fs.restart(mode, seed=n), durable, in_flight, cfg)


def test_flushed_data_survives_power_loss_unflushed_may_go():
    fs = FaultyFileSystem()
    fs.makedirs("/data")
    log = PartitionLog(fs, DIR, CFG, now_ms=0)
    for i in range(5):
        log.append(build_batch([(b"k", value(i), (), 1)]), now_ms=1)
    log.flush()
    for i in range(5, 8):
        log.append(build_batch([(b"k", value(i), (), 1)]), now_ms=1)
    log2 = PartitionLog(fs.restart("lost"), DIR, CFG, now_ms=2)
    assert log2.recovered_unclean
    assert [v for _, _, v in read_all(log2)] == [value(i) for i in range(5)]


def test_flush_messages_policy():
    fs = FaultyFileSystem()
    fs.makedirs("/data")
    log = PartitionLog(fs, DIR, LogConfig(flush_messages=3), now_ms=0)
    for i in range(7):
        log.append(build_batch([(b"k", value(i), (), 1)]), now_ms=1)
    assert len(read_all(PartitionLog(fs.restart("lost"), DIR, CFG, now_ms=2))) == 6
    log.config = LogConfig(flush_ms=100)
    assert not log.maybe_flush(50) and log.maybe_flush(150)


def test_corruption_in_flushed_data_is_a_clear_error():
    fs = FaultyFileSystem()
    fs.makedirs("/data")
    log = PartitionLog(fs, DIR, LogConfig(), now_ms=0)
    for i in range(10):
        log.append(build_batch([(b"k", value(i), (), 1)]), now_ms=1)
    log.flush()
    log.append(build_batch([(b"k", value(99), (), 1)]), now_ms=1)
    fs2 = fs.restart("kept")
    path = DIR + "/00000000000000000000.log"
    inode = fs2.files[path]
    pos = 3 * len(build_batch([(b"k", value(0), (), 1)])) + 70
    inode.data[pos] ^= 0xFF
    with pytest.raises(errors.LogCorruptionError) as e:
        PartitionLog(fs2, DIR, LogConfig(), now_ms=2)
    assert path in str(e.value) and "offset" in str(e.value)
    assert e.value.path == path and e.value.offset == 3


def test_damaged_rolled_segment_is_an_error_damaged_active_tail_is_truncated():
    fs = FaultyFileSystem()
    fs.makedirs("/data")
    log = PartitionLog(fs, DIR, CFG, now_ms=0)
    for i in range(30):
        log.append(build_batch([(b"k", value(i), (), 1)]), now_ms=1)
    middle = f"{DIR}/{log.segments[-2].base_offset:020d}.log"
    active = f"{DIR}/{log.segments[-1].base_offset:020d}.log"
    fs2 = fs.restart("kept")
    del fs2.files[middle].data[-5:]  # rolled segments were fsynced: this is damage
    with pytest.raises(errors.LogCorruptionError, match=middle):
        PartitionLog(fs2, DIR, CFG, now_ms=2)
    fs3 = fs.restart("kept")
    del fs3.files[active].data[-5:]  # unflushed tail: a torn write, cut it off
    log3 = PartitionLog(fs3, DIR, CFG, now_ms=2)
    assert log3.log_end_offset == 29 and log3.truncated_on_recovery > 0
    assert [v for _, _, v in read_all(log3)] == [value(i) for i in range(29)]


WRITER = textwrap.dedent("""
    import sys
    from odradek.log import LogConfig, PartitionLog, RealFileSystem
    from odradek.wire.records import build_batch
    cfg = LogConfig(segment_bytes=256 * 1024, preallocate=sys.argv[2] == "1")
    log = PartitionLog(RealFileSystem(), sys.argv[1], cfg, now_ms=0)
    i = log.log_end_offset
    while True:
        recs = [(b"k%d" % (i + k), b"v%d-" % (i + k) + b"x" * 3000, (), 1) for k in range(4)]
        info = log.append(build_batch(recs), now_ms=1)
        i = info.last_offset + 1
        sys.stdout.write("%d\\n" % info.last_offset)
        sys.stdout.flush()
""")


@pytest.mark.parametrize("prealloc", [False, True], ids=["plain", "preallocate"])
def test_kill_minus_9_real_writer(tmp_path, prealloc):
    d = str(tmp_path / "t-0")
    env = dict(os.environ, PYTHONPATH=os.getcwd() + os.pathsep + os.environ.get("PYTHONPATH", ""))
    cfg = LogConfig(segment_bytes=256 * 1024, preallocate=prealloc)
    for round_ in range(2):
        p = subprocess.Popen([sys.executable, "-c", WRITER, d, "1" if prealloc else "0"], stdout=subprocess.PIPE,
                             env=env)
        acked = -1
        # at least 0.6 s of writing and enough batches for a second segment (~90 records),
        # however slowly a loaded machine starts the writer
        deadline = time.monotonic() + 0.6
        give_up = time.monotonic() + 60
        while (time.monotonic() < deadline or acked < 120 * (round_ + 1)) and time.monotonic() < give_up:
            acked = int(p.stdout.readline())
        os.kill(p.pid, signal.SIGKILL)
        p.wait()
        p.stdout.close()
        files = sorted(f for f in os.listdir(d) if f.endswith(".log"))
        sizes = [os.path.getsize(os.path.join(d, f)) for f in files]
        if prealloc:
            # rolled files were trimmed; the last is the preallocated active one, or (killed
            # mid-roll, after the trim and before the next file) the just-trimmed one
            # (test_preallocate checks the sizes at each step)
            assert sizes[-1] <= 256 * 1024 and all(s < 256 * 1024 for s in sizes[:-1])
        log = PartitionLog(RealFileSystem(), d, cfg, now_ms=0)
        assert log.recovered_unclean
        assert log.log_end_offset >= acked + 1  # everything acked was written (page cache)
        got = read_all(log)
        assert [o for o, _, _ in got] == list(range(log.log_end_offset))
        assert all(v.startswith(b"v%d-" % o) for o, _, v in got)
        assert len(log.segments) > 1
        log.close()


def test_checkpoint_keeps_high_watermark_across_a_crash():
    fs = FaultyFileSystem()
    fs.makedirs("/data")
    log = PartitionLog(fs, DIR, CFG, now_ms=0)
    for i in range(5):
        log.append(build_batch([(b"k", value(i), (), 1)]), now_ms=1)
    log.flush()
    log.high_watermark = 5
    log.checkpoint()
    log2 = PartitionLog(fs.restart("lost"), DIR, CFG, now_ms=2)
    assert log2.high_watermark == 5


# ------------------------------------------- cleaning that merges segments into one

from odradek.log import LogCleaner  # noqa: E402

GROUP_DIR = "/data/c-0"
GROUP_CFG = LogConfig(cleanup_policy=("compact",), segment_bytes=1500, index_interval_bytes=100,
                      delete_retention_ms=1000)


def group_workload(fs):
    from test_log_compaction import fill
    fs.makedirs("/data")
    log = PartitionLog(fs, GROUP_DIR, GROUP_CFG, now_ms=0)
    original = {}
    for r in range(8):  # 8 small segments (~300 bytes): groups of several
        fill(log, original, [b"a", b"b", b"c"], 4, ts0=1000 + 10 * r, tombstone_every=3)
        log.roll(1000 + 10 * r + 5)
    fill(log, original, [b"d"], 2, ts0=2000)
    log.flush()
    log.high_watermark = log.log_end_offset
    return log, original


def check_group_reopen(fs, original):
    from test_log_compaction import check_compacted
    log = PartitionLog(fs, GROUP_DIR, GROUP_CFG, now_ms=0)
    names = fs.listdir(GROUP_DIR)
    assert not [n for n in names if n.endswith((".cleaned", ".deleted", ".swapdeleted"))], names
    check_compacted(log, original, uncleaned_from=log.active.base_offset)
    # no segment overlaps another and each holds what its name says
    for a, b in zip(log.segments, log.segments[1:]):
        assert a.base_offset < b.base_offset and a.next_offset <= b.base_offset
    log.high_watermark = log.log_end_offset
    LogCleaner().clean(log, now_ms=3000, force=True)
    check_compacted(log, original)
    got = read_all(log)
    log.close()
    assert read_all(PartitionLog(fs, GROUP_DIR, GROUP_CFG, now_ms=0)) == got


def test_group_cleaning_merges_segments():
    fs = FaultyFileSystem()
    log, original = group_workload(fs)
    closed = len(log.segments) - 1
    res = LogCleaner().clean(log, now_ms=3000)
    assert res.segments_rewritten == closed and res.segments_written < closed
    assert len(log.segments) - 1 == res.segments_written
    check_group_reopen(fs, original)


def crashed_merge(n: int, budget: int) -> tuple[FaultyFileSystem, dict]:
    """The file system a cleaning leaves when it crashes `budget` bytes into it, and the records."""
    fs = FaultyFileSystem(seed=n)
    log, original = group_workload(fs)
    fs.crash_after_bytes = fs.bytes_written + budget
    try:
        LogCleaner().clean(log, now_ms=3000)
    except SimulatedCrash:
        pass
    return fs, original


@pytest.mark.parametrize("mode", ["lost", "torn", "kept"])
def test_crash_while_writing_a_merged_segment(mode, crashes):
    fs = FaultyFileSystem()
    log, _ = group_workload(fs)
    base = fs.bytes_written
    LogCleaner().clean(log, now_ms=3000)
    span = fs.bytes_written - base
    for n, budget in enumerate(range(0, span + 1, max(1, span // 80))):
        key = ("merge", n, budget)
        if key not in crashes:
            crashes[key] = crashed_merge(n, budget)
        fs2, original = crashes[key]
        check_group_reopen(fs2.restart(mode, seed=n), original)


@pytest.mark.parametrize("mode", ["lost", "kept"])
def test_crash_at_every_step_of_a_group_swap(mode):
    """A crash at each fsync (file or directory), rename and remove of a compaction pass of several
    groups: the load undoes a swap not committed and finishes one committed, no segment overlaps
    another, every key's latest record is there."""
    fs = SteppedFS()
    log, _ = group_workload(fs)
    fs.steps = 0
    LogCleaner().clean(log, now_ms=3000)
    total = fs.steps
    assert total > 20
    for n in range(total + 1):
        fs2 = SteppedFS(seed=n)
        log, original = group_workload(fs2)
        fs2.steps, fs2.crash_at = 0, n
        try:
            LogCleaner().clean(log, now_ms=3000)
        except SimulatedCrash:
            pass
        check_group_reopen(fs2.restart(mode, seed=n), original)


def test_retentions_deleted_segments_never_come_back_beside_a_cleaners_copy():
    """kill -9 after retention renamed its oldest segments to .deleted (finish_cut not run) while a
    cleaner pass was writing a .log.cleaned copy of the same log: the load restores only the files a
    cleaner swap set aside (.swapdeleted), never retention's .deleted (rev-i 7: records retention
    had deleted were readable again)."""
    fs = FaultyFileSystem()
    cfg = LogConfig(segment_bytes=700, index_interval_bytes=120, retention_bytes=1400)
    log = PartitionLog(fs, DIR, cfg, now_ms=0)
    for i in range(60):
        log.append(build_batch([(b"k%d" % i, value(i), (), 1000)]), now_ms=1000)
    log.flush()
    log.high_watermark = log.log_end_offset
    with log.lock:
        cut = log.cut_by_retention(2000)
    assert cut is not None and cut.deleted
    start = log.log_start_offset
    kept = read_all(log)
    # the cleaner's copy of a later group, half written when the broker died
    f = fs.open(log.segments[1].path + ".cleaned")
    f.append(fs.files[log.segments[1].path].data[:100])
    f.close()
    log2 = PartitionLog(fs.restart("kept"), DIR, cfg, now_ms=0)
    assert log2.log_start_offset == start and log2.segments[0].base_offset == start
    assert read_all(log2) == kept
    assert not [n for n in log2.fs.listdir(DIR) if n.endswith((".cleaned", ".deleted", ".swapdeleted"))]
    log2.close()


def test_an_older_versions_uncommitted_swap_still_comes_back():
    """An older odradek set a swap's later segments aside as .log.deleted (not .swapdeleted): a crash
    before its commit (the .log.cleaned still there) still restores them - they are above a live
    segment's base, which a retention's .deleted never is (it cuts a prefix)."""
    fs = FaultyFileSystem()
    log, _ = group_workload(fs)
    before = read_all(log)
    first, later = log.segments[0], log.segments[1:3]
    log.close()
    for seg in later:
        fs.rename(seg.path, seg.path + ".deleted")
    f = fs.open(first.path + ".cleaned")
    f.append(fs.files[first.path].data[:50])
    f.close()
    log2 = PartitionLog(fs.restart("kept"), GROUP_DIR, GROUP_CFG, now_ms=0)
    assert read_all(log2) == before
    assert not [n for n in log2.fs.listdir(GROUP_DIR) if n.endswith((".cleaned", ".deleted"))]
    log2.close()


def test_retentions_deleted_segments_never_come_back_after_a_truncation_below_them():
    """rev-j 4: retention set segments aside as .log.deleted, a truncation below them then left one
    live segment under their bases, and a cleaner's .log.cleaned of a group now gone is still there.
    A crash then: they are no older odradek's swap (that swap keeps its group's first segment, the
    .log.cleaned's base, live), so they stay deleted."""
    fs = FaultyFileSystem()
    log, _ = group_workload(fs)
    segs = log.segments
    low, deleted, group = segs[0], segs[1:3], segs[4]
    kept = [r for r in read_all(log) if r[0] < low.next_offset]
    log.close()
    for seg in deleted:
        fs.rename(seg.path, seg.path + ".deleted")
    f = fs.open(group.path + ".cleaned")
    f.append(fs.files[group.path].data[:50])
    f.close()
    for seg in segs[3:]:  # the truncation's retire
        for p in (seg.path, seg.offset_index.path, seg.time_index.path):
            if fs.exists(p):
                fs.remove(p)
    log2 = PartitionLog(fs.restart("kept"), GROUP_DIR, GROUP_CFG, now_ms=0)
    assert kept and read_all(log2) == kept
    assert [s.base_offset for s in log2.segments] == [low.base_offset]
    assert not [n for n in log2.fs.listdir(GROUP_DIR) if n.endswith((".cleaned", ".deleted"))]
    log2.close()
