"""A roll leaves its fsyncs to the owner's background pass (Kafka's "flush-log" task of a roll): the
append that rolls (the event loop's produce or replica fetch) fsyncs nothing and writes no state file;
LogManager.write_pending_state (a worker thread) fsyncs the segments below the new one, then moves
the recovery point there, and writes the producer snapshot taken at the roll. A crash anywhere
between a roll and its pass, or inside the pass, loses nothing that was flushed, duplicates nothing,
and an idempotent producer goes on after the restart (no OutOfOrderSequence)."""
from __future__ import annotations

import threading

import pytest

from odradek.log import FaultyFileSystem, LogConfig, LogManager, SimulatedCrash
from odradek.log import errors
from odradek.log.producer_state import list_snapshots
from odradek.wire.records import build_batch

from log_helpers import read_all

CFG = LogConfig(segment_bytes=700, index_interval_bytes=120)
PID = 11
TOPIC_ID = b"\x05" * 16


def value(i: int) -> bytes:
    return b"r%04d-" % i + b"y" * (i % 31)


class Producer:
    """An idempotent producer: each batch's sequence follows the last acknowledged one; a batch
    whose append did not return (a crash) is sent again after the restart."""

    def __init__(self):
        self.acked: list[bytes] = []
        self.pending: list[bytes] | None = None

    def batch(self, n: int) -> tuple[bytes, list[bytes]]:
        if self.pending is None:
            start = len(self.acked)
            self.pending = [value(start + k) for k in range(n)]
        return build_batch([(None, v, (), 1000) for v in self.pending], producer_id=PID, producer_epoch=0,
                           base_sequence=len(self.acked)), self.pending

    def send(self, log, n: int, now: int):
        data, vals = self.batch(n)
        info = log.append(data, now_ms=now)
        self.acked.extend(vals)
        self.pending = None
        return info


def manager(fs: FaultyFileSystem) -> LogManager:
    return LogManager("/data", fs=fs, default_config=CFG)


def test_a_roll_makes_no_fsync_on_the_appending_thread():
    fs = FaultyFileSystem()
    lm = manager(fs)
    log = lm.get_or_create("t", 0, topic_id=TOPIC_ID)
    lm.write_pending_state()
    prod = Producer()
    prod.send(log, 3, 1000)
    log.flush()
    assert log.recovery_point == 3
    while len(log.segments) == 1:
        before = (fs.fsyncs, fs.dir_fsyncs, sorted(fs.files))
        prod.send(log, 3, 1000)
    # the append that rolled: no fsync, no file but the new segment's and the producer snapshot at
    # its base (written, not fsynced: Kafka's takeSnapshot(sync=false) under the roll's lock)
    assert (fs.fsyncs, fs.dir_fsyncs) == before[:2]
    base = log.active.base_offset
    snap = f"{log.dir}/{base:020d}.snapshot"
    assert sorted(set(fs.files) - set(before[2])) == sorted([log.active.path, snap])
    assert fs.files[snap].durable != fs.files[snap].data
    assert log.recovery_point == 3 and log.rolled_pending and lm.state_pending
    assert not any(fs.files[p].durable == fs.files[p].data for p in [log.segments[0].path])
    # the background pass, in a thread of its own: every fsync there
    main = threading.get_ident()
    on_main = fs.fsyncs_by_thread.get(main, 0)
    worker = threading.Thread(target=lm.write_pending_state)
    worker.start()
    worker.join(30)
    assert fs.fsyncs_by_thread.get(main, 0) == on_main
    assert fs.fsyncs_by_thread[worker.ident] >= 3  # the old segment, its two indexes (+ the state files)
    assert log.recovery_point == base and not log.rolled_pending
    seg = log.segments[0]
    for path in (seg.path, seg.offset_index.path, seg.time_index.path):
        assert fs.files[path].durable == fs.files[path].data
    assert list_snapshots(fs, log.dir)[-1] == base
    assert fs.files[snap].durable == fs.files[snap].data  # (the pass fsynced it)
    assert b"recovery_point=%d\n" % base in fs.files[log.dir + "/log-state.checkpoint"].durable
    lm.close()


def test_a_truncation_before_the_pass_drops_the_snapshot_the_roll_took():
    """A follower's truncation below the roll's offset: the producer snapshot taken at the roll
    describes records that are gone; the pass writes none of it and moves no recovery point past them."""
    fs = FaultyFileSystem()
    lm = manager(fs)
    log = lm.get_or_create("t", 0, topic_id=TOPIC_ID)
    prod = Producer()
    while len(log.segments) == 1:
        prod.send(log, 3, 1000)
    base = log.active.base_offset
    log.truncate_to(base - 2)
    assert not log.rolled_pending
    lm.write_pending_state()
    assert log.recovery_point <= base - 2
    assert all(off <= base - 2 for off in list_snapshots(fs, log.dir))
    lm.close()


# ------------------------------------------------------------------ crashes

STEPS = 30


def workload(fs: FaultyFileSystem, prod: Producer, flushed: list) -> None:
    """Idempotent appends rolling every few batches, the background pass every third step, a flush
    every seventh; a crash (SimulatedCrash) ends it anywhere."""
    lm = manager(fs)
    log = lm.get_or_create("t", 0, topic_id=TOPIC_ID)
    for step in range(STEPS):
        prod.send(log, 1 + step % 3, 1000 + step)
        if step % 3 == 2:
            lm.write_pending_state()
        if step % 7 == 6:
            log.flush()
            flushed[:] = prod.acked
    lm.close()
    flushed[:] = prod.acked


def total_bytes() -> int:
    fs = FaultyFileSystem()
    workload(fs, Producer(), [])
    return fs.bytes_written


def crash_points() -> list[int]:
    total = total_bytes()
    return list(range(0, total, max(1, total // 120))) + [total + 1]


@pytest.mark.parametrize("mode", ["lost", "kept"])
def test_a_crash_anywhere_around_rolls_and_their_pass(mode):
    """Crash at every ~1/120th of the workload's bytes: power loss ("lost": only fsynced bytes stay)
    or kill -9 ("kept"). The restart finds the log a prefix of what was appended with every flushed
    record (every acknowledged one after a kill -9), none twice; the producer's unanswered batch sent
    again and a new one are taken (a duplicate is answered with its offsets), never OutOfOrderSequence."""
    rolled = 0
    for budget in crash_points():
        fs = FaultyFileSystem(seed=budget)
        fs.crash_after_bytes = budget
        prod, flushed = Producer(), []
        try:
            workload(fs, prod, flushed)
        except SimulatedCrash:
            pass
        lm = manager(fs.restart(mode, seed=budget))
        log = lm.get("t", 0)
        if log is None:  # (crashed before the partition's directory was made)
            assert not prod.acked
            continue
        got = [v for _, _, v in read_all(log)]
        appended = prod.acked + (prod.pending or [])
        assert got == appended[:len(got)], f"budget {budget}: not a prefix of what was appended"
        must = prod.acked if mode == "kept" else flushed
        assert len(got) >= len(must), f"budget {budget}: {len(must) - len(got)} records lost"
        rolled += len(log.segments) > 1
        if mode == "lost":  # the producer's records past what survived are gone: it goes on from there
            prod.acked, prod.pending = got[:], None
        try:
            first = prod.send(log, 2, 9000) if prod.pending is not None else None
            after = prod.send(log, 2, 9001)
        except errors.OutOfOrderSequenceError as e:
            raise AssertionError(f"budget {budget} ({mode}): {e}") from e
        got = [v for _, _, v in read_all(log)]
        assert got == prod.acked, f"budget {budget}: {first} {after}"
        lm.close()
    assert rolled > 10


def idempotent(seq: int, v: bytes, ts: int = 1000) -> bytes:
    return build_batch([(None, v, (), ts)], producer_id=PID, producer_epoch=0, base_sequence=seq)


def six_records_over_a_roll(fs: FaultyFileSystem, cfg: LogConfig):
    """A managed log: the idempotent producer's sequences 0-2, a roll at 3 through the background pass
    (its snapshot at 3 fsynced), then sequences 3-5 at offsets 3-5."""
    lm = LogManager("/data", fs=fs, default_config=cfg)
    log = lm.get_or_create("t", 0, topic_id=TOPIC_ID)
    lm.write_pending_state()
    for seq in range(3):
        log.append(idempotent(seq, b"a%d" % seq), now_ms=1000)
    log.roll(1001)
    lm.write_pending_state()
    for seq in range(3, 6):
        log.append(idempotent(seq, b"b%d" % seq), now_ms=1000)
    return lm, log


@pytest.mark.parametrize("mode", ["kept", "lost", "torn"])
def test_retention_of_every_segment_then_a_crash_before_the_pass_keeps_the_producer_going(mode):
    """An idle partition whose every segment expires rolls inside retention (its snapshot at the new
    base taken by that roll) and loses the segments below; kill -9 (or a power loss) before the
    background pass: the load takes no snapshot below the log start (its records are gone) and the
    idempotent producer's next batch is appended (rev-i 2: OutOfOrderSequence, producer state rebuilt
    from an older snapshot)."""
    cfg = LogConfig(segment_bytes=100000, retention_ms=1000)
    fs = FaultyFileSystem()
    lm, log = six_records_over_a_roll(fs, cfg)
    log.high_watermark = log.log_end_offset
    assert lm.apply_retention(10_000) == 2
    assert log.log_start_offset == 6 and log.rolled_pending
    fs2 = fs.restart(mode, seed=19)  # before the pass
    lm2 = LogManager("/data", fs=fs2, default_config=cfg)
    log2 = lm2.get("t", 0)
    assert log2.log_start_offset == 6 and all(off >= 6 for off in list_snapshots(fs2, log2.dir))
    assert log2.append(idempotent(6, b"next", 20_000), now_ms=20_000).base_offset == 6
    assert log2.append(idempotent(7, b"next2", 20_000), now_ms=20_000).base_offset == 7
    lm2.close()


def test_a_truncation_after_retention_keeps_the_snapshot_of_the_roll():
    """No crash: a roll's snapshot not yet through the pass, retention deleting the segments below
    it, then a follower's truncation above the log start: producer state is rebuilt from the roll's
    snapshot, not from an older one below the log start (rev-i 2: the producer went back to an old
    sequence, and its next batch was OutOfOrderSequence)."""
    cfg = LogConfig(segment_bytes=100000, retention_bytes=1)
    fs = FaultyFileSystem()
    lm, log = six_records_over_a_roll(fs, cfg)
    log.roll(1002)  # its snapshot at 6 left to the pass
    for seq, v in enumerate((b"c", b"d", b"e")):
        log.append(build_batch([(None, v, (), 1000)], producer_id=PID + 1, producer_epoch=0,
                               base_sequence=seq), now_ms=1003)
    log.high_watermark = 7
    lm.apply_retention(2000)
    assert log.log_start_offset == 6 and log.producer_state.producers[PID].batches[-1].last_seq == 5
    log.truncate_to(8)  # a follower's truncation, above the log start
    assert log.producer_state.producers[PID].batches[-1].last_seq == 5
    lm.write_pending_state()
    assert log.append(idempotent(6, b"n"), now_ms=2000).base_offset == 8
    lm.close()
