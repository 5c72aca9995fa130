"""The high-watermark checkpoint as Kafka keeps it: `replication-offset-checkpoint` in each
log directory (OffsetCheckpointFile layout), written by the LogManager every
replica.high.watermark.checkpoint.interval.ms and at close, read at start as each log's
high watermark. Pure: the in-memory FaultyFileSystem."""
from __future__ import annotations

import pytest

from odradek.log import FaultyFileSystem, LogConfig, LogManager, SimulatedCrash
from odradek.log import offset_checkpoint
from odradek.log.offset_checkpoint import REPLICATION_OFFSET_CHECKPOINT, CheckpointError

from log_helpers import batch

D = "/data"
FILE = f"{D}/{REPLICATION_OFFSET_CHECKPOINT}"
CFG = LogConfig(segment_bytes=400)

# written by Apache Kafka 4.3.0 (a single broker, topic "ep" with 2 partitions, 3 records
# produced to partition 0, after its periodic checkpoint)
KAFKA_FILE = b"0\n2\nep 0 3\nep 1 0\n"


def manager(fs, now_ms=0, **kw) -> LogManager:
    return LogManager([D], fs=fs, default_config=CFG, now_ms=now_ms, **kw)


def fill(lm: LogManager, topic: str, partition: int, n: int, hw: int):
    log = lm.get_or_create(topic, partition)
    for i in range(n):
        log.append(batch([b"v%d" % i]), 1000)
    log.high_watermark = hw
    return log


def test_layout_is_kafkas():
    assert offset_checkpoint.decode(KAFKA_FILE) == {("ep", 0): 3, ("ep", 1): 0}
    assert offset_checkpoint.encode({("ep", 0): 3, ("ep", 1): 0}) == KAFKA_FILE
    fs = FaultyFileSystem()
    lm = manager(fs)
    fill(lm, "ep", 1, 0, 0)
    fill(lm, "ep", 0, 3, 3)
    lm.checkpoint_high_watermarks()
    assert bytes(fs.files[FILE].data) == KAFKA_FILE
    assert offset_checkpoint.encode({}) == b"0\n0\n"
    assert offset_checkpoint.decode(b"") == {}


@pytest.mark.parametrize("data", [b"1\n0\n", b"0\n2\nep 0 3\n", b"0\n1\nep 0\n", b"0\n1\nep x 3\n", b"zz\n"])
def test_bad_files_are_refused(data):
    with pytest.raises(CheckpointError):
        offset_checkpoint.decode(data)


def test_written_every_interval_and_at_close_read_at_start():
    fs = FaultyFileSystem()
    lm = manager(fs, now_ms=0, hw_checkpoint_interval_ms=5000)
    a = fill(lm, "a", 0, 5, 2)
    fill(lm, "b", 3, 4, 4)
    assert not lm.maybe_checkpoint_high_watermarks(4999)
    assert not fs.exists(FILE)
    lm.flush_dirty(5000)  # the broker's periodic call: due now
    assert offset_checkpoint.decode(bytes(fs.files[FILE].data)) == {("a", 0): 2, ("b", 3): 4}
    fsyncs = fs.fsyncs
    assert lm.maybe_checkpoint_high_watermarks(10000)  # due, but unchanged: not rewritten
    assert fs.fsyncs == fsyncs
    a.high_watermark = 5
    lm.close()
    assert offset_checkpoint.decode(bytes(fs.files[FILE].data)) == {("a", 0): 5, ("b", 3): 4}
    lm2 = manager(fs)
    assert lm2.get("a", 0).high_watermark == 5 and lm2.get("b", 3).high_watermark == 4


def test_the_directory_file_is_the_truth_at_start():
    fs = FaultyFileSystem()
    lm = manager(fs)
    log = fill(lm, "t", 0, 6, 6)
    log.flush()  # the log's own checkpoint says 6 too
    lm.checkpoint_high_watermarks()
    lm.close()
    # the directory's file is what a start believes (as Kafka), clamped to the log
    fs.files[FILE].data[:] = offset_checkpoint.encode({("t", 0): 4})
    assert manager(fs).get("t", 0).high_watermark == 4
    fs.files[FILE].data[:] = offset_checkpoint.encode({("t", 0): 99})
    assert manager(fs).get("t", 0).high_watermark == 6
    # a log it does not name (created after the last checkpoint) keeps its own value;
    # an unreadable file is logged and the logs' own values are used
    fs.files[FILE].data[:] = offset_checkpoint.encode({("other", 0): 3})
    assert manager(fs).get("t", 0).high_watermark == 6
    fs.files[FILE].data[:] = b"0\n7\n"
    assert manager(fs).get("t", 0).high_watermark == 6


def test_deleted_partitions_leave_the_file():
    fs = FaultyFileSystem()
    lm = manager(fs)
    fill(lm, "t", 0, 2, 2)
    fill(lm, "t", 1, 2, 1)
    lm.checkpoint_high_watermarks()
    lm.delete("t", 0)
    lm.checkpoint_high_watermarks()
    assert offset_checkpoint.decode(bytes(fs.files[FILE].data)) == {("t", 1): 1}


def workload(fs: FaultyFileSystem, done: list) -> None:
    """Appends to two logs, high watermarks moving, a checkpoint each round; `done` gets
    the content of each checkpoint that completed."""
    lm = manager(fs)
    logs = [lm.get_or_create("t", p) for p in (0, 1)]
    for r in range(6):
        for p, log in enumerate(logs):
            log.append(batch([b"r%d-p%d" % (r, p)] * (p + 1)), 1000)
            log.high_watermark = log.log_end_offset - (r + p) % 2
        if r == 3:
            logs[0].flush()
        lm.checkpoint_high_watermarks()
        done.append({("t", p): log.high_watermark for p, log in enumerate(logs)})
    lm.close()


def test_crash_at_every_byte():
    probe = FaultyFileSystem()
    workload(probe, [])
    for budget in range(probe.bytes_written + 1):
        fs = FaultyFileSystem(seed=budget)
        fs.crash_after_bytes = budget
        done: list = []
        try:
            workload(fs, done)
        except SimulatedCrash:
            pass
        for mode in ("lost", "kept"):
            lm = manager(fs.restart(mode, seed=budget))
            for tp, log in lm.logs.items():
                assert log.log_start_offset <= log.high_watermark <= log.log_end_offset
                if done and tp in done[-1]:  # the last checkpoint that completed, within the log
                    assert log.high_watermark == min(done[-1][tp], log.log_end_offset), (budget, mode)
            lm.close()


def test_the_broker_writes_it_apart_from_the_periodic_pass_in_a_worker_thread(tmp_path):
    """high_watermarks_due says when (interval passed, something changed); flush_dirty with checkpoint
    False writes nothing; checkpoint_high_watermarks in another thread while logs come and go writes
    the logs of one moment, whole."""
    import threading

    from odradek.log import RealFileSystem

    d = str(tmp_path)
    lm = LogManager([d], fs=RealFileSystem(), default_config=CFG, now_ms=0, hw_checkpoint_interval_ms=5000)
    fill(lm, "a", 0, 3, 3)
    assert not lm.high_watermarks_due(4999)
    lm.flush_dirty(5000, checkpoint=False)
    assert not (tmp_path / REPLICATION_OFFSET_CHECKPOINT).exists()
    assert lm.high_watermarks_due(5000) and not lm.high_watermarks_due(5001)  # (next: 10,000)
    stop = threading.Event()
    written = []

    def checkpoints():
        while not stop.is_set():
            lm.checkpoint_high_watermarks()
            written.append(offset_checkpoint.decode((tmp_path / REPLICATION_OFFSET_CHECKPOINT).read_bytes()))

    t = threading.Thread(target=checkpoints, daemon=True)
    t.start()
    try:
        for p in range(60):  # logs come and go meanwhile
            lm.get_or_create("b", p)
            if p % 3 == 0:
                lm.delete("b", p)
    finally:
        stop.set()
        t.join(30)
    lm.checkpoint_high_watermarks()
    assert written and all(cp[("a", 0)] == 3 for cp in written)
    final = offset_checkpoint.decode((tmp_path / REPLICATION_OFFSET_CHECKPOINT).read_bytes())
    assert sorted(final) == sorted([("a", 0)] + [("b", p) for p in range(60) if p % 3])
    assert not lm.high_watermarks_due(10000)  # due, but nothing changed since
    lm.close()
