"""A clean restart loads an empty log hollow, reading a few small files (PartitionLog._load_hollow),
and a clean stop writes nothing for a log nobody wrote: the state after such a stop and start is
the one the whole load and close give (issue 28: stop and restart with 100,000 partitions)."""
from __future__ import annotations

import os
import shutil

import pytest

from odradek.log import LogConfig, LogManager, PartitionLog, RealFileSystem
from odradek.log import FaultyFileSystem
from odradek.wire.records import build_batch

from log_helpers import read_all

CFG = LogConfig(segment_bytes=2000, index_interval_bytes=300)


def one(i: int, ts: int = 1) -> bytes:
    return build_batch([(None, b"v%05d" % i, (), ts)])


def files(d) -> dict[str, bytes]:
    return {n: open(os.path.join(d, n), "rb").read() for n in sorted(os.listdir(d))}


class OpenCounting(RealFileSystem):
    """Notes every file opened (a hollow load opens no segment or index file)."""

    def __init__(self):
        self.opened: list[str] = []

    def open(self, path: str):
        self.opened.append(os.path.basename(path))
        return super().open(path)


def state(log: PartitionLog) -> tuple:
    return (log.log_start_offset, log.log_end_offset, log.high_watermark, log.recovery_point,
            log.epochs.entries, log.last_stable_offset, log.size_in_bytes)


def test_new_partitions_stop_and_start_without_writing_or_opening_their_segments(tmp_path):
    fs = RealFileSystem()
    lm = LogManager(str(tmp_path), default_config=CFG)
    for p in range(3):
        lm.get_or_create("t", p, topic_id=b"\x07" * 16).assign_epoch(4, 0)
    lm.write_pending_state()  # (the broker's background pass)
    lm.close(broker_epoch=9)
    # each log: its empty segment, its topic id, its first epoch; nothing else written by the stop
    assert files(tmp_path / "t-0") == {"00000000000000000000.log": b"", "leader-epoch-checkpoint": b"0\n1\n4 0\n",
                                       "partition.metadata": files(tmp_path / "t-0")["partition.metadata"]}
    before = {p: files(tmp_path / f"t-{p}") for p in range(3)}
    lm = LogManager(str(tmp_path), default_config=CFG)
    assert lm.previous_broker_epoch == 9
    for p in range(3):
        log = lm.get("t", p)
        assert log.hollow and not log.recovered_unclean
        assert state(log) == (0, 0, 0, 0, (), 0, 0)  # (the epoch at the log end: dropped, as by Kafka's load)
        assert lm.topic_id("t", p) == b"\x07" * 16
    leader = lm.get("t", 0)
    leader.assign_epoch(5, 0)  # a new epoch: the file is rewritten before the first record
    assert leader.append(one(0), now_ms=5, leader_epoch=5).base_offset == 0
    lm.get("t", 1).assign_epoch(4, 0)  # the same leader again: its file holds that already
    assert not lm.get("t", 1).epochs_unwritten
    lm.close(broker_epoch=10)
    assert files(tmp_path / "t-1") == before[1] and files(tmp_path / "t-2") == before[2]
    lm = LogManager(str(tmp_path), default_config=CFG)
    log = lm.get("t", 0)
    assert not log.hollow and [v for _, _, v in read_all(log)] == [b"v00000"]
    assert log.epochs.latest_epoch == 5 and log.log_end_offset == 1
    assert lm.get("t", 1).hollow
    lm.close()


@pytest.mark.parametrize("case", ["absent-files", "checkpoint", "empty-indexes", "moved-start", "older-stop"])
def test_a_hollow_load_gives_the_state_of_the_whole_load(tmp_path, case):
    """The hollow load against the whole one (the same directory loaded by a log on its own, which
    takes no hollow path, then made hollow by its idle passes)."""
    fs = RealFileSystem()
    d = str(tmp_path / "t-0")
    log = PartitionLog(fs, d, CFG, now_ms=0, new=True, clean_shutdown=True)
    if case == "moved-start":  # an empty log at offset 40 (a follower that started at its leader's start)
        log.truncate_fully_and_start_at(40, now_ms=1)
        log.assign_epoch(2, 40)
    elif case == "checkpoint":
        log.assign_epoch(2, 0)
        log.checkpoint()  # a log-state.checkpoint that says 0 everywhere
    log.assign_epoch(3, log.log_end_offset)
    if case == "empty-indexes":
        log.flush()  # (remade: its empty index files written and fsynced)
    assert log.close()
    if case == "older-stop":  # what an older odradek's stop left in an empty log's directory
        from odradek.log.producer_state import ProducerStateTable

        for name, data in (("00000000000000000000.index", b""), ("00000000000000000000.timeindex", b""),
                           ("00000000000000000000.snapshot", ProducerStateTable().to_bytes()),
                           ("txn-state.checkpoint", b"0 0\n"),
                           ("log-state.checkpoint", b"0\nlog_start_offset=0\nrecovery_point=0\n"
                                                    b"cleaner_checkpoint=0\nhigh_watermark=0\n")):
            with open(os.path.join(d, name), "wb") as f:
                f.write(data)
    w = str(tmp_path / "whole" / "t-0")
    shutil.copytree(d, w)
    open(os.path.join(w, ".clean-shutdown"), "wb").close()  # the marker of a log on its own
    counting = OpenCounting()
    hollow = PartitionLog(counting, d, CFG, now_ms=5, clean_shutdown=True)
    assert hollow.hollow and not [n for n in counting.opened if n.startswith("0000")]  # no segment opened
    whole = PartitionLog(fs, w, CFG, now_ms=5)  # (a log on its own takes the whole load)
    assert not whole.recovered_unclean
    assert state(hollow) == state(whole)
    assert hollow.close() and whole.close()
    assert files(d) == {n: b for n, b in files(w).items() if n != ".clean-shutdown"}
    log = PartitionLog(fs, d, CFG, now_ms=6, clean_shutdown=True)
    assert log.append(one(7), now_ms=7, leader_epoch=6).base_offset == state(whole)[1]
    assert log.epochs.latest_epoch == 6
    log.close()


def test_a_log_with_data_or_producer_state_takes_the_whole_load(tmp_path):
    fs = RealFileSystem()
    d = str(tmp_path / "t-0")
    log = PartitionLog(fs, d, CFG, now_ms=0, new=True, clean_shutdown=True)
    log.append(one(0), now_ms=1)
    log.close()
    again = PartitionLog(fs, d, CFG, now_ms=2, clean_shutdown=True)
    assert not again.hollow and [v for _, _, v in read_all(again)] == [b"v00000"]
    again.close()


def test_a_kill_after_a_hollow_load_loses_nothing(tmp_path):
    """kill -9 (the FaultyFileSystem loses what was not fsynced) after a clean stop, a hollow start
    and appends: the records fsynced are there, the epochs are the appends'."""
    fs = FaultyFileSystem()
    lm = LogManager("/data", fs=fs, default_config=CFG)
    for p in range(2):
        lm.get_or_create("t", p, topic_id=b"\x07" * 16).assign_epoch(1, 0)
    lm.write_pending_state()
    lm.close()
    lm = LogManager("/data", fs=fs, default_config=CFG)
    assert lm.get("t", 0).hollow and lm.get("t", 1).hollow
    log = lm.get("t", 0)
    log.assign_epoch(2, 0)
    for i in range(3):
        log.append(one(i), now_ms=3, leader_epoch=2)
    log.flush()
    lm = LogManager("/data", fs=fs.restart("lost"), default_config=CFG)
    log = lm.get("t", 0)
    assert [v for _, _, v in read_all(log)] == [b"v00000", b"v00001", b"v00002"]
    assert log.epochs.entries[-1].epoch == 2 and log.epochs.entries[-1].start_offset == 0
    assert lm.get("t", 1).log_end_offset == 0 and lm.topic_id("t", 1) == b"\x07" * 16
    lm.close()


def test_a_touched_log_closes_with_one_directory_fsync(tmp_path):
    """Its checkpoint, producer snapshot and transaction checkpoint are renamed into place, then the
    directory is fsynced once (not once per file); they are all there after a crash that follows."""
    fs = FaultyFileSystem()
    lm = LogManager("/data", fs=fs, default_config=CFG)
    log = lm.get_or_create("t", 0, topic_id=b"\x07" * 16)
    lm.write_pending_state()
    log.append(build_batch([(None, b"x", (), 1)], producer_id=5, producer_epoch=0, base_sequence=0), now_ms=1)
    before = fs.dir_fsyncs
    assert log.close()
    assert fs.dir_fsyncs - before == 1
    names = set(fs.listdir("/data/t-0"))
    assert {"log-state.checkpoint", "00000000000000000001.snapshot", "txn-state.checkpoint"} <= names
    again = PartitionLog(fs.restart("lost"), "/data/t-0", CFG, now_ms=2, clean_shutdown=True)
    assert 5 in again.producer_state.producers and again.log_end_offset == 1 and again.recovery_point == 1
    again.close()


def test_state_files_that_say_more_than_empty_take_the_whole_load(tmp_path):
    """A transaction checkpoint naming an open transaction (or any snapshot but an empty one at the
    log start) is left to the whole load, which reads it."""
    fs = RealFileSystem()
    d = str(tmp_path / "t-0")
    PartitionLog(fs, d, CFG, now_ms=0, new=True, clean_shutdown=True).close()
    with open(os.path.join(d, "txn-state.checkpoint"), "wb") as f:
        f.write(b"0 0\n5 0\n")
    counting = OpenCounting()
    log = PartitionLog(counting, d, CFG, now_ms=1, clean_shutdown=True)
    assert "00000000000000000000.log" in counting.opened  # (the whole load opened its segment)
    assert log.txn_state.ongoing == {5: 0}
    log.close()
