"""A clean stop closes its logs several at once (LogManager.close(threads=...); the broker's
LOG_CLOSE_THREADS): their fsyncs overlap instead of adding up. What it leaves on disk must be exactly
what closing them one after another leaves, every file's name and bytes: segments trimmed to their
data, indexes, log-state checkpoints (log start, recovery point, high watermark), leader epochs,
producer snapshots, partition.metadata, the high-watermark checkpoint and each log dir's clean-shutdown
marker. The next start then loads every log as cleanly stopped (no recovery) with the same offsets,
epochs and records. Real files: the logs of many partitions of every kind a broker holds at a stop
(with records, several segments, an idempotent producer, empty, never written, files not yet made)."""
from __future__ import annotations

import os
import threading

from odradek.log import LogConfig, LogManager, RealFileSystem, partition_metadata
from odradek.log.fs import RealFile

from log_helpers import batch, read_all

NOW = 1_000_000
EPOCH = 42  # the broker epoch the stop records
TOPICS = 6
PARTITIONS = 20  # 120 logs over two log dirs
SMALL = LogConfig(segment_bytes=400, index_interval_bytes=64)  # several segments a log


class Quick(RealFileSystem):
    """Real files; while ``syncing`` is False (building the logs, closing the copy compared against)
    nothing is fsynced: what lands in the files is the same, and the test takes a second, not ten.
    Notes which threads fsynced a log's directory (a log's close does once it wrote)."""

    def __init__(self):
        self.syncing = False
        self.threads: set[str] = set()

    def open(self, path: str) -> RealFile:
        return _QuickFile(path, self)

    def fsync_dir(self, path: str) -> None:
        if self.syncing:
            self.threads.add(threading.current_thread().name)
            super().fsync_dir(path)


class _QuickFile(RealFile):
    __slots__ = ("fs",)

    def __init__(self, path: str, fs: Quick):
        super().__init__(path)
        self.fs = fs

    def fsync(self) -> None:
        if self.fs.syncing:
            super().fsync()


def topic_id(t: int) -> bytes:
    return bytes([t + 1]) * 16


def build(root: str) -> tuple[LogManager, Quick]:
    """The same logs, written the same way, under ``root`` (deterministic: names, offsets, times)."""
    fs = Quick()
    lm = LogManager([os.path.join(root, "a"), os.path.join(root, "b")], fs=fs, now_ms=NOW,
                    topic_config=lambda name: SMALL if name == "t1" else None)
    for t in range(TOPICS):
        for p in range(PARTITIONS):
            kind = (t * PARTITIONS + p) % 5
            log = lm.get_or_create(f"t{t}", p, now_ms=NOW, topic_id=topic_id(t), defer_files=kind == 4)
            if kind == 4:
                continue  # files not made yet (the background pass had not come to it): the close makes them
            lm.write_pending_state() if kind == 3 else None
            log.assign_epoch(3, 0)
            if kind == 3:
                continue  # a leader's empty log
            for i in range(3 + p % 4 + (10 if t == 1 else 0)):  # (t1: small segments, several of them)
                if kind == 0:  # an idempotent producer
                    b = batch([b"v%d-%d" % (p, i), b"w"], ts=NOW + i, producer_id=100 + p, producer_epoch=0,
                              base_sequence=2 * i)
                else:
                    b = batch([b"x" * (20 + i), b"y%d" % p], ts=NOW + i)
                log.append(b, now_ms=NOW + i, leader_epoch=3 + i // 3)
            log.high_watermark = log.log_end_offset - (p % 3)
            if kind == 2:
                log.flush()  # an idle partition: nothing new since its last flush
    return lm, fs


def tree(root: str) -> dict[str, bytes]:
    out = {}
    for d, _, names in os.walk(root):
        for n in names:
            path = os.path.join(d, n)
            with open(path, "rb") as f:
                out[os.path.relpath(path, root)] = f.read()
    return out


def state(lm: LogManager) -> dict:
    return {tp: (log.log_start_offset, log.log_end_offset, log.high_watermark, log.recovery_point,
                 log.epochs.entries, read_all(log)) for tp, log in lm.logs.items()}


def test_a_stop_closing_logs_at_once_leaves_exactly_what_one_at_a_time_does_and_the_next_start_recovers_nothing(tmp_path):
    one, at_once = str(tmp_path / "one"), str(tmp_path / "at-once")
    lm1, _ = build(one)
    lm16, fs16 = build(at_once)
    before = state(lm16)
    assert before == state(lm1)
    assert sum(1 for s in before.values() if s[1] > 0) == TOPICS * PARTITIONS * 3 // 5
    assert len(lm16.get("t1", 0).segments) > 2

    lm1.close(broker_epoch=EPOCH)  # (one at a time, in order: the reference)
    fs16.syncing = True
    lm16.close(broker_epoch=EPOCH, threads=16)

    assert len({n for n in fs16.threads if n.startswith("log-close")}) > 1  # (closed by the pool)
    files = tree(at_once)
    assert files == tree(one)
    # a background pass of pending state still running after the closes began writes nothing more
    # (the leader epochs of the empty logs, which a close leaves out, would come after the markers)
    assert lm16.write_pending_state() == 0 and tree(at_once) == files
    for d in ("a", "b"):
        assert os.path.join(d, ".kafka_cleanshutdown") in files
        assert os.path.join(d, "replication-offset-checkpoint") in files
    for (topic, p), (start, end, hw, _, _, records) in before.items():
        d = lm16.get(topic, p).dir
        rel = os.path.relpath(d, at_once)
        assert partition_metadata.read(fs16, d, {}) == topic_id(int(topic[1:]))
        segs = sorted(n for n in os.listdir(d) if n.endswith(".log"))
        assert segs, (topic, p)
        if end:  # every segment holds exactly its records' bytes (trimmed), the checkpoint the offsets
            assert sum(len(files[os.path.join(rel, n)]) for n in segs) == sum(
                s.size for s in lm16.get(topic, p).segments)
            checkpoint = files[os.path.join(rel, "log-state.checkpoint")].decode()
            assert f"recovery_point={end}\n" in checkpoint and f"high_watermark={hw}\n" in checkpoint
            assert b"3 0" in files[os.path.join(rel, "leader-epoch-checkpoint")]
            assert os.path.join(rel, "%020d.snapshot" % end) in files

    again = LogManager([os.path.join(at_once, "a"), os.path.join(at_once, "b")], fs=RealFileSystem(),
                       now_ms=NOW + 10, topic_config=lambda name: SMALL if name == "t1" else None)
    assert again.previous_broker_epoch == EPOCH  # (the markers were read: a clean start)
    assert not again.offline
    assert not [tp for tp, log in again.logs.items() if log.recovered_unclean or log.truncated_on_recovery]
    after = state(again)
    for tp, (start, end, hw, _, epochs, records) in before.items():
        assert after[tp][:3] == (start, end, hw) and after[tp][5] == records, tp
        assert after[tp][3] == end, tp  # (the recovery point: the whole log was flushed)
        if end:
            assert after[tp][4] == epochs, tp
    again.close(broker_epoch=EPOCH + 1)
