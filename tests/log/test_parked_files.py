"""Idle partitions hold no file descriptor: segment files are parked (closed) when a log
has taken no append since the last periodic check, after a roll and after loading, and
opened again on the next use; a file a fetch still holds is not parked."""
from __future__ import annotations

import os

from odradek.log import LogConfig, LogManager, PartitionLog, RealFileSystem
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
