"""Idle partitions hold no file descriptor: segment files are parked (closed) when a log
has taken no append since the last periodic check, after a roll and after loading, and
opened again on the next use; a file a fetch still holds is not parked."""
from __future__ import annotations

import os
import threading

from odradek.log import LogCleaner, LogConfig, LogManager, PartitionLog, RealFileSystem
from odradek.log.fs import RealFile
from odradek.wire.records import build_batch

from log_helpers import read_all

CFG = LogConfig(segment_bytes=2000, index_interval_bytes=300)


def open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def fill(log: PartitionLog, n: int, start: int = 0) -> None:
    for i in range(start, start + n):
        log.append(build_batch([(None, b"v%05d" % i + b"x" * 100, (), 1)]), now_ms=1)


def test_an_idle_log_parks_its_files_and_opens_them_on_use(tmp_path):
    log = PartitionLog(RealFileSystem(), str(tmp_path / "t-0"), CFG, now_ms=0)
    fill(log, 60)
    assert len(log.segments) > 3
    assert all(s.log.parked for s in log.segments[:-1])  # parked when rolled
    assert not log.active.log.parked
    log.maybe_flush(1)  # first check: notes the log end
    log.maybe_flush(2)  # no append since: idle
    assert all(s.log.parked for s in log.segments) and log.active.fd == -1
    assert [v[:6] for _, _, v in read_all(log)] == [b"v%05d" % i for i in range(60)]
    fill(log, 5, 60)  # the next append opens it again and gives append_plain its descriptor
    assert log.active.fd >= 0 and not log.active.log.parked
    fill(log, 5, 65)
    assert [v[:6] for _, _, v in read_all(log)] == [b"v%05d" % i for i in range(70)]
    log.close()
    log2 = PartitionLog(RealFileSystem(), str(tmp_path / "t-0"), CFG, now_ms=3)
    assert all(s.log.parked for s in log2.segments)  # loaded, then parked
    assert [v[:6] for _, _, v in read_all(log2)] == [b"v%05d" % i for i in range(70)]


def test_a_file_a_fetch_holds_is_not_parked(tmp_path):
    log = PartitionLog(RealFileSystem(), str(tmp_path / "t-0"), CFG, now_ms=0)
    fill(log, 60)
    log.maybe_flush(1)
    log.maybe_flush(2)
    held = log.read(0, 1 << 20)  # slices of the first segment(s), opened for the send
    fds = [sl.file.fileno() for sl in held.slices]
    log.maybe_flush(3)
    assert all(not sl.file.parked for sl in held.slices)
    assert [sl.file.fileno() for sl in held.slices] == fds
    first = held.slices[0]
    assert os.pread(first.file.fileno(), first.length, first.position) == held.read_bytes()[:first.length]
    del held, first
    log.maybe_flush(4)
    assert all(s.log.parked for s in log.segments)


def test_many_idle_partitions_hold_few_descriptors(tmp_path):
    before = open_fds()
    m = LogManager(str(tmp_path), fs=RealFileSystem(), default_config=CFG)
    for p in range(200):
        fill(m.get_or_create("t", p), 1)
    for lg in m:
        lg.maybe_flush(1)
        lg.maybe_flush(2)
    assert open_fds() - before < 20  # was one per partition
    m.close()
    m2 = LogManager(str(tmp_path), fs=RealFileSystem(), default_config=CFG)
    assert open_fds() - before < 20  # a start opens each partition's files, then parks them
    assert len(m2.list()) == 200
    assert [v[:6] for _, _, v in read_all(m2.get("t", 123))] == [b"v00000"]
    m2.close()


# ---------------------------------------------------------------- the cleaner thread

COMPACT = LogConfig(cleanup_policy=("compact",), segment_bytes=2000, index_interval_bytes=300,
                    min_cleanable_dirty_ratio=0.01)


class _WatchingCleaner(LogCleaner):
    """Records, in the middle of each pass, what the event loop's idle check would do."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[tuple[int, int]] = []

    def _clean_held(self, log, plan, now_ms):
        compact = log.config
        log.config = CFG  # the policy switched to delete while the pass reads the files
        try:
            self.seen.append((log.files_in_use, log.park_files()))
        finally:
            log.config = compact
        return super()._clean_held(log, plan, now_ms)


def test_the_cleaners_run_holds_the_files_so_none_is_parked(tmp_path):
    # a broker loads logs (parked) under the delete policy and switches some to compact
    log = PartitionLog(RealFileSystem(), str(tmp_path / "t-0"), CFG, now_ms=0)
    for i in range(60):
        log.append(build_batch([(b"k%d" % (i % 3), b"v%05d" % i + b"x" * 100, (), 1)]), now_ms=1)
    log.close()
    log = PartitionLog(RealFileSystem(), str(tmp_path / "t-0"), CFG, now_ms=2)
    assert all(s.log.parked for s in log.segments)
    log.config = COMPACT
    log.high_watermark = log.log_end_offset
    cleaner = _WatchingCleaner()
    got = cleaner.run_once([log], 3)  # the production path (the cleaner thread's clean_once)
    assert not cleaner.uncleanable and got is not None and got[0] is log
    assert cleaner.seen == [(1, 0)]  # held during the pass: parking refused
    assert log.files_in_use == 0
    keys = {k: v[:6] for _, k, v in read_all(log)}
    assert keys == {b"k0": b"v00057", b"k1": b"v00058", b"k2": b"v00059"}
    log.close()


def test_two_threads_opening_one_parked_file_open_one_descriptor(tmp_path):
    f = RealFile(str(tmp_path / "f.log"))
    f.append(b"abcdef")
    f.park()
    before = open_fds()
    rounds, barrier = 300, threading.Barrier(2, timeout=30)
    counts: list[int] = []
    failures: list[BaseException] = []

    def run(position: int, want: bytes, parks: bool) -> None:
        try:
            for _ in range(rounds):
                barrier.wait()
                assert f.read(position, 3) == want  # both find the file parked
                barrier.wait()
                if parks:
                    counts.append(open_fds() - before)
                    f.park()
        except BaseException as e:  # noqa: BLE001 - reported by the test below
            failures.append(e)
            barrier.abort()

    threads = [threading.Thread(target=run, args=(0, b"abc", False)),
               threading.Thread(target=run, args=(3, b"def", True))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not failures and not any(t.is_alive() for t in threads)
    assert counts == [1] * rounds  # one descriptor each round, never two
    assert open_fds() == before
    f.close()


class _CountingList(list):
    walks = 0

    def __iter__(self):
        _CountingList.walks += 1
        return super().__iter__()


def test_an_idle_parked_log_does_not_walk_its_segments(tmp_path):
    log = PartitionLog(RealFileSystem(), str(tmp_path / "t-0"), CFG, now_ms=0)
    fill(log, 60)
    log.maybe_flush(1)
    log.maybe_flush(2)  # idle: parks every file
    assert all(s.log.parked for s in log.segments)
    log.segments = _CountingList(log.segments)
    _CountingList.walks = 0
    for t in range(3, 50):
        log.maybe_flush(t)
    assert _CountingList.walks == 0
    assert [v[:6] for _, _, v in read_all(log)][:1] == [b"v00000"]  # opens the files again
    log.maybe_flush(50)  # one walk parks them again
    assert _CountingList.walks >= 1 and all(s.log.parked for s in log.segments)
    walks = _CountingList.walks
    log.maybe_flush(51)
    assert _CountingList.walks == walks
    fill(log, 1, 60)  # an append opens the active file
    log.maybe_flush(52)
    log.maybe_flush(53)
    assert all(s.log.parked for s in log.segments)
    log.close()


def test_a_deleted_log_whose_files_were_parked_is_freed_by_refcounting(tmp_path):
    """A parked file keeps its log (the watch it wakes on reopening) and the log keeps its files: the
    cycle ends when the files close, so a deleted log goes without a garbage collection (odradek
    serve's survivors of full collections are frozen, and frozen cyclic garbage waits for a thorough
    one: broker/old_heap.py)."""
    import gc
    import weakref

    log = PartitionLog(RealFileSystem(), str(tmp_path / "t-0"), CFG, now_ms=0)
    fill(log, 60)
    log.maybe_flush(1)
    log.maybe_flush(2)
    assert all(s.log.parked for s in log.segments)
    gone = weakref.ref(log)
    gc.disable()
    try:
        log.close_files()  # (what LogManager does with a deleted topic's log after its delay)
        del log
        assert gone() is None
    finally:
        gc.enable()
