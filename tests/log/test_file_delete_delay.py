"""file.delete.delay.ms (topic config; log.segment.delete.delay.ms for the broker), as
Kafka: a segment that leaves the log (retention, DeleteRecords, a cleaner swap) keeps
its data readable by reads already handed out, and its disk space, until the delay has
passed; a deleted partition's directory is renamed `<dir>.<id>-delete` and removed that
long after, also when the broker restarts in between."""
import errno
import os
import threading

import pytest

from odradek.config import BrokerConfig
from odradek.log import LogConfig, LogManager, PartitionLog, RealFileSystem
from odradek.log.fs import RealFile
from odradek.log.log_manager import DELETE_SUFFIX
from odradek.wire.records import build_batch, build_control_batch

from log_helpers import read_all

SEG = 1024


def filled(d: str, cfg: LogConfig, n: int = 40) -> PartitionLog:
    log = PartitionLog(RealFileSystem(), d, cfg, now_ms=0)
    for i in range(n):
        log.append(build_batch([(b"k", b"value-%03d" % i + b"x" * 100, (), 1)]), now_ms=1)
    log.high_watermark = log.log_end_offset  # retention only removes what is below it
    return log


def is_open(fd: int) -> bool:
    try:
        os.fstat(fd)
        return True
    except OSError:
        return False


def test_removed_segment_stays_readable_until_the_delay(tmp_path):
    d = str(tmp_path / "t-0")
    log = filled(d, LogConfig(segment_bytes=SEG, retention_bytes=SEG, file_delete_delay_ms=5000))
    first = log.segments[0]
    in_flight = log.read(0, 1 << 20)  # a fetch's slices, taken before retention
    before = in_flight.read_bytes()
    assert log.apply_retention(10) > 0 and log.log_start_offset > 0
    assert not os.path.exists(first.path)  # the files are gone at once ...
    fd = first.fd
    assert is_open(fd) and os.fstat(fd).st_nlink == 0  # ... the data is not
    assert in_flight.read_bytes() == before
    assert log.release_retired(1000) == 0  # the delay starts when the broker first looks
    assert log.release_retired(5999) == 0 and is_open(fd)
    closed = log.release_retired(6000)
    assert closed >= 1 and first.fd == -1 and not log._retired
    assert read_all(log)[0][0] == log.log_start_offset
    log.close()


def test_zero_delay_lets_go_at_the_next_look(tmp_path):
    log = filled(str(tmp_path / "t-0"), LogConfig(segment_bytes=SEG, retention_bytes=SEG, file_delete_delay_ms=0))
    n = log.apply_retention(10)
    assert n > 0 and len(log._retired) == n
    assert log.release_retired(11) == n and not log._retired
    log.close()


def test_delete_records_and_close_let_go_of_removed_segments(tmp_path):
    log = filled(str(tmp_path / "t-0"), LogConfig(segment_bytes=SEG, file_delete_delay_ms=60000))
    held = log.segments[:2]
    log.delete_records(log.segments[2].base_offset)
    assert [e[0] for e in log._retired][:2] == held and all(is_open(s.fd) for s in held)
    log.close()  # a clean stop does not wait
    assert all(s.fd == -1 for s in held) and not log._retired


def test_deleted_partition_dir_goes_after_the_broker_delay(tmp_path):
    root = str(tmp_path / "data")
    cfg = LogConfig(segment_bytes=SEG, file_delete_delay_ms=3000)
    lm = LogManager(root, default_config=cfg, now_ms=0)
    log = lm.get_or_create("t", 0, cfg, now_ms=0)
    for i in range(20):
        log.append(build_batch([(None, b"v%d" % i, (), 1)]), now_ms=1)
    in_flight = log.read(0, 1 << 20)
    before = in_flight.read_bytes()
    assert lm.delete("t", 0) and lm.get("t", 0) is None
    fds = [s.fd for s in log.segments]  # (idle segments hold none until the deletion opens them)
    dead = [n for n in os.listdir(root) if n.endswith(DELETE_SUFFIX)]
    assert len(dead) == 1 and dead[0].startswith("t-0.") and "t-0" not in os.listdir(root)
    assert in_flight.read_bytes() == before and all(is_open(fd) for fd in fds)
    assert lm.release_deleted(100) == []
    assert lm.release_deleted(3099) == []
    dirs = lm.release_deleted(3100)
    assert dirs == [os.path.join(root, dead[0])] and all(s.fd == -1 for s in log.segments)
    assert os.path.isdir(dirs[0])  # removed by remove_dirs (the broker runs it in a thread)
    lm.remove_dirs(dirs)
    assert os.listdir(root) == []
    # the same partition can be created again at once, while an older one waits
    lm.get_or_create("t", 0, cfg, now_ms=0)
    assert lm.delete("t", 0)
    lm.get_or_create("t", 0, cfg, now_ms=0).append(build_batch([(None, b"new", (), 1)]), now_ms=1)
    assert sorted(n.endswith(DELETE_SUFFIX) for n in os.listdir(root)) == [False, True]
    lm.close()


def test_a_deletion_pending_at_a_stop_finishes_after_the_restart(tmp_path):
    root = str(tmp_path / "data")
    cfg = LogConfig(segment_bytes=SEG, file_delete_delay_ms=500)
    lm = LogManager(root, default_config=cfg, now_ms=0)
    lm.get_or_create("t", 0, cfg, now_ms=0).append(build_batch([(None, b"v", (), 1)]), now_ms=1)
    lm.delete("t", 0)
    lm.close()
    names = os.listdir(root)
    assert ".kafka_cleanshutdown" in names  # the clean close says so (read and deleted at the start)
    (dead,) = [n for n in names if n != ".kafka_cleanshutdown"]
    assert dead.endswith(DELETE_SUFFIX)
    lm = LogManager(root, default_config=cfg, now_ms=0)  # the start does not block on it
    assert lm.list() == [] and os.listdir(root) == [dead]
    assert lm.release_deleted(10_000) == []
    lm.remove_dirs(lm.release_deleted(10_500))
    assert os.listdir(root) == []
    lm.close()


def test_broker_setting_is_the_topic_default():
    assert BrokerConfig.from_properties({}).log_config().file_delete_delay_ms == 60000
    cfg = BrokerConfig.from_properties({"log.segment.delete.delay.ms": "0"})
    assert cfg.log_config().file_delete_delay_ms == 0
    assert cfg.topic_defaults()["file.delete.delay.ms"] == "0"
    assert LogConfig.from_properties({"file.delete.delay.ms": "1234"}).file_delete_delay_ms == 1234


def _closing_thread(fn, *args) -> None:
    """fn(*args) in a thread of its own (the broker's worker), waited for."""
    t = threading.Thread(target=fn, args=args)
    t.start()
    t.join(60)
    assert not t.is_alive()


def test_taking_what_is_released_closes_no_descriptor_on_the_callers_thread(tmp_path):
    """The broker takes what has waited on its event loop and lets go of it in a worker thread:
    closing a removed file's last descriptor frees its disk space (~1.5 s a GiB on a disk), which
    must not hold the loop. Taking closes no descriptor (each one is still open after it), it
    detaches them: the segments' files (the log's and the transaction index's) give the numbers to
    nobody any more, so a read handed out before gets a clean error, never another file's bytes
    once a number is reused. let_go, in another thread, closes them and removes the directory."""
    root = str(tmp_path / "data")
    cfg = LogConfig(segment_bytes=SEG, retention_bytes=SEG, file_delete_delay_ms=0)
    lm = LogManager(root, default_config=cfg, now_ms=0)
    kept = lm.get_or_create("kept", 0, cfg, now_ms=0)
    gone = lm.get_or_create("gone", 0, cfg, now_ms=0)
    kept.append(build_batch([(None, b"t", (), 1)], producer_id=7, producer_epoch=0, base_sequence=0,
                            is_transactional=True), now_ms=1)
    kept.append(build_control_batch(False, 7, 0, 0, 1), now_ms=1)  # an abort: a .txnindex file open
    for log in (kept, gone):
        for i in range(40):
            log.append(build_batch([(b"k", b"value-%03d" % i + b"x" * 100, (), 1)]), now_ms=1)
        log.high_watermark = log.log_end_offset
    retired = kept.segments[:3]
    in_flight = kept.read(0, 1 << 20)  # a fetch's slices, taken before retention
    before = in_flight.read_bytes()
    assert kept.apply_retention(10) > 0
    txn_fd = retired[0].txn_index._file.fileno()
    fds = [s.fd for s in retired] + [txn_fd]
    assert lm.delete("gone", 0)
    gone_fds = [s.fd for s in gone.segments]
    assert in_flight.read_bytes() == before  # (still readable while it waits)
    released = lm.take_released(20)
    assert set(fds + gone_fds) <= set(released.fds) and len(released.dirs) == 1
    assert all(is_open(fd) for fd in released.fds)  # nothing closed by taking
    assert all(s.log.fileno() == -1 for s in retired + gone.segments)
    with pytest.raises(OSError) as e:
        in_flight.read_bytes()  # the slices' file is let go of: a clean error
    assert e.value.errno == errno.EBADF
    assert not lm.take_released(30)  # (taken once)
    _closing_thread(lm.let_go, released)
    assert not any(is_open(fd) for fd in released.fds)
    assert not os.path.exists(released.dirs[0]) and sorted(os.listdir(root)) == ["kept-0"]
    assert read_all(kept)[0][0] == kept.log_start_offset
    lm.close()


def test_segments_past_the_open_limit_wait_for_the_next_look_not_closed_by_the_remover(tmp_path):
    """More than MAX_RETIRED_OPEN segments removed at once (retention, in its worker thread): the
    oldest are let go of at the next look, whatever their delay, and not closed by the thread that
    removed them (it holds the log's lock, which the loop's appends and reads wait for, and it may
    not close a number a sendfile burst on the loop is using)."""
    from odradek.log.partition_log import MAX_RETIRED_OPEN

    cfg = LogConfig(segment_bytes=SEG, retention_bytes=SEG, file_delete_delay_ms=60_000)
    lm = LogManager(str(tmp_path / "data"), default_config=cfg, now_ms=0)
    log = lm.get_or_create("t", 0, cfg, now_ms=0)
    while len(log.segments) < MAX_RETIRED_OPEN + 6:
        log.append(build_batch([(b"k", b"x" * 300, (), 1)]), now_ms=1)
    log.high_watermark = log.log_end_offset
    segs = log.segments[:-2]
    removed: list[int] = []
    _closing_thread(lambda: removed.append(lm.apply_retention(10)))
    assert removed[0] >= len(segs) > MAX_RETIRED_OPEN and all(is_open(s.fd) for s in segs)
    over = len(log._retired) - MAX_RETIRED_OPEN
    oldest = [s.fd for s in segs[:over]]
    released = lm.take_released(11)  # long before their delay
    assert sorted(released.fds) == sorted(oldest) and all(is_open(fd) for fd in oldest)
    _closing_thread(lm.let_go, released)
    assert not any(is_open(fd) for fd in oldest) and len(log._retired) == MAX_RETIRED_OPEN
    assert all(is_open(e[0].fd) for e in log._retired)
    lm.close()


def test_a_log_whose_lock_another_thread_holds_is_looked_at_again_at_the_next_tick(tmp_path):
    """take_released runs on the event loop every 100 ms; a log's lock may be held for a while by
    another thread (the cleaner's swap across a directory fsync, a flush). Its retired segments are
    then left for the next look - the loop does not wait for the lock - and let go of then."""
    cfg = LogConfig(segment_bytes=SEG, retention_bytes=SEG, file_delete_delay_ms=0)
    lm = LogManager(str(tmp_path / "data"), default_config=cfg, now_ms=0)
    log = lm.get_or_create("t", 0, cfg, now_ms=0)
    for i in range(40):
        log.append(build_batch([(b"k", b"value-%03d" % i + b"x" * 100, (), 1)]), now_ms=1)
    log.high_watermark = log.log_end_offset
    assert log.apply_retention(10) > 0
    fds = [e[0].fd for e in log._retired]
    held, done = threading.Event(), threading.Event()

    def hold():
        with log.lock:
            held.set()
            done.wait(30)  # (released by the test once it looked; at the latest after 30 s)

    holder = threading.Thread(target=hold)
    holder.start()
    assert held.wait(30)
    try:
        released = lm.take_released(20)  # (a blocking acquire would wait out the holder: 30 s, then fds)
        assert not released and all(is_open(fd) for fd in fds) and len(log._retired) == len(fds)
    finally:
        done.set()
        holder.join(30)
    released = lm.take_released(120)
    assert sorted(released.fds) == sorted(fds) and not log._retired
    lm.let_go(released)
    assert not any(is_open(fd) for fd in fds)
    lm.close()


class _DetachFailsFS(RealFileSystem):
    """Real files; while ``failing`` names a path, detaching that file raises (a defect's
    exception half way through take_released)."""

    def __init__(self):
        self.failing: str | None = None

    def open(self, path: str):
        return _DetachFailsFile(path, self)


class _DetachFailsFile(RealFile):
    __slots__ = ("fs",)

    def __init__(self, path: str, fs: _DetachFailsFS):
        super().__init__(path)
        self.fs = fs

    def detach(self) -> int:
        if self.fs.failing is not None and self.path.startswith(self.fs.failing):
            raise RuntimeError("detach failed")
        return super().detach()


def test_descriptors_detached_before_take_released_raised_are_handed_over_by_the_next_call(tmp_path):
    """What take_released detached before a step raised is not lost (its files hand the numbers to
    nobody: no one else would close them, and the removed files' space would stay taken until a
    restart): the next call hands those descriptors over, with the deleted partitions it had yet
    to let go of, and let_go closes them all."""
    fs = _DetachFailsFS()
    root = str(tmp_path / "data")
    cfg = LogConfig(segment_bytes=SEG, retention_bytes=SEG, file_delete_delay_ms=0)
    lm = LogManager(root, fs=fs, default_config=cfg, now_ms=0)
    logs = [lm.get_or_create(t, 0, cfg, now_ms=0) for t in ("kept", "gone1", "gone2")]
    for log in logs:
        for i in range(40):
            log.append(build_batch([(b"k", b"value-%03d" % i + b"x" * 100, (), 1)]), now_ms=1)
        log.high_watermark = log.log_end_offset
    kept, gone1, gone2 = logs
    assert kept.apply_retention(10) > 0
    retired = [e[0].log.fileno() for e in kept._retired]
    gone_fds = [s.log.fileno() for s in gone1.segments + gone2.segments]
    assert min(retired + gone_fds) >= 0
    assert lm.delete("gone1", 0) and lm.delete("gone2", 0)
    fs.failing = gone2.dir  # (renamed away: its new name starts so)
    with pytest.raises(RuntimeError):
        lm.take_released(20)
    assert all(is_open(fd) for fd in retired + gone_fds)  # (none closed, gone1's detached)
    assert not kept._retired and all(s.log.fileno() == -1 for s in gone1.segments)
    fs.failing = None
    released = lm.take_released(30)
    assert sorted(released.fds) == sorted(retired + gone_fds) and len(released.dirs) == 2
    lm.let_go(released)
    assert not any(is_open(fd) for fd in retired + gone_fds)
    assert sorted(os.listdir(root)) == ["kept-0"]
    assert not lm.take_released(40)
    lm.close()
