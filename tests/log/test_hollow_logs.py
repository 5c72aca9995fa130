"""Logs made on demand (issue 28): an empty log at rest keeps only its offsets, epochs and
checkpoint fields; its segment object and producer/transaction tables are remade on first
use, as they were. Nothing a client can see changes: offsets, reads, epochs, truncation,
retention, restarts behave as for a log that kept everything."""
from __future__ import annotations

import tracemalloc

import pytest

from odradek.log import LogConfig, LogManager, PartitionLog, RealFileSystem
from odradek.log import FaultyFileSystem
from odradek.wire.records import build_batch

from log_helpers import read_all

CFG = LogConfig(segment_bytes=2000, index_interval_bytes=300)


def one(i: int, ts: int = 1) -> bytes:
    return build_batch([(None, b"v%05d" % i, (), ts)])


def rest(log: PartitionLog, now: int = 1) -> None:
    """Two periodic passes with no use between them: the log parks its files (and goes hollow if empty)."""
    log.maybe_flush(now)
    log.maybe_flush(now + 1)


def test_a_new_log_is_hollow_until_written_and_then_serves_as_any(tmp_path):
    log = PartitionLog(RealFileSystem(), str(tmp_path / "t-0"), CFG, now_ms=0, new=True)
    assert log.hollow
    assert (log.log_start_offset, log.log_end_offset, log.high_watermark, log.size_in_bytes) == (0, 0, 0, 0)
    assert log.read(0, 1000).total_bytes == 0  # an idle fetch at the end does not remake it
    assert log.last_stable_offset == 0 and log.aborted_transactions(0, 10) == []
    assert log.apply_retention(10**12) == 0 and log.remove_expired_producers(10**12, 1) == 0
    assert log.hollow
    log.assign_epoch(3, 0)  # a new leader's epoch: kept without the segment
    assert log.hollow and log.epochs.latest_epoch == 3
    info = log.append(one(0), now_ms=5, leader_epoch=3)
    assert not log.hollow and info.base_offset == 0
    log.append(one(1), now_ms=5, leader_epoch=3)
    assert [v for _, _, v in read_all(log)] == [b"v00000", b"v00001"]
    rest(log, 10)
    assert not log.hollow  # a log with data keeps its segments
    log.close()
    again = PartitionLog(RealFileSystem(), str(tmp_path / "t-0"), CFG, now_ms=20, clean_shutdown=None)
    assert [v for _, _, v in read_all(again)] == [b"v00000", b"v00001"]
    assert again.epochs.latest_epoch == 3
    again.close()


def test_an_emptied_log_goes_hollow_at_its_end_offset_and_takes_appends_there(tmp_path):
    log = PartitionLog(RealFileSystem(), str(tmp_path / "t-0"), CFG, now_ms=0, new=True)
    for i in range(3):
        log.append(one(i), now_ms=1)
    log.truncate_fully_and_start_at(100, now_ms=2)
    log.flush()
    log.release_retired(2)
    log.release_retired(2 + CFG.file_delete_delay_ms)  # the old segments' files closed
    rest(log, 3)
    assert log.hollow and (log.log_start_offset, log.log_end_offset) == (100, 100)
    log.high_watermark = 100
    assert log.hollow and log.high_watermark == 100
    assert log.append(one(100), now_ms=4).base_offset == 100
    assert [v for _, _, v in read_all(log)] == [b"v00100"]
    log.close()


def test_a_truncation_of_a_hollow_log_replaces_it_whole(tmp_path):
    log = PartitionLog(RealFileSystem(), str(tmp_path / "t-0"), CFG, now_ms=0, new=True)
    assert log.hollow
    log.truncate_fully_and_start_at(7, now_ms=1)  # (a follower told to start at the leader's start)
    assert not log.hollow and (log.log_start_offset, log.log_end_offset) == (7, 7)
    assert log.producer_state.producers == {} and log.txn_state.ongoing == {}
    log.append_as_follower(build_batch([(None, b"x", (), 1)], base_offset=7), now_ms=2)
    assert log.log_end_offset == 8
    log.close()


def test_a_producer_state_keeps_an_empty_log_whole(tmp_path):
    log = PartitionLog(RealFileSystem(), str(tmp_path / "t-0"), CFG, now_ms=0, new=True)
    log.append(build_batch([(None, b"x", (), 1)], producer_id=5, producer_epoch=0, base_sequence=0), now_ms=1)
    log.high_watermark = 1
    log.delete_records(1)  # the log start moves to the end: the producer is still remembered
    log.apply_retention(2)
    rest(log, 3)
    assert not log.hollow and 5 in log.producer_state.producers
    log.close()


def test_a_hollow_log_closes_and_reloads_as_a_whole_one(tmp_path):
    fs = RealFileSystem()
    log = PartitionLog(fs, str(tmp_path / "t-0"), CFG, now_ms=0, new=True)
    log.assign_epoch(2, 0)
    assert log.hollow
    assert log.close()
    again = PartitionLog(fs, str(tmp_path / "t-0"), CFG, now_ms=1, clean_shutdown=None)
    assert (again.log_start_offset, again.log_end_offset) == (0, 0)
    assert not again.recovered_unclean
    rest(again, 2)
    assert again.hollow
    again.close()


def test_on_a_memory_filesystem_too(tmp_path):
    fs = FaultyFileSystem()
    log = PartitionLog(fs, "/d/t-0", CFG, now_ms=0, new=True)
    assert log.hollow
    log.append(one(0), now_ms=1)
    assert [v for _, _, v in read_all(log)] == [b"v00000"]
    log.close()


def test_the_log_manager_keeps_new_partitions_small_until_used(tmp_path):
    lm = LogManager(str(tmp_path), default_config=CFG)
    for p in range(50):
        lm.get_or_create("warm", p, topic_id=b"\x01" * 16)  # (the allocator's first pools)
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    for p in range(500):
        lm.get_or_create("t", p, topic_id=b"\x02" * 16)
    per_log = (tracemalloc.get_traced_memory()[0] - before) / 500
    tracemalloc.stop()
    assert all(log.hollow for log in lm)
    assert per_log < 2000, per_log  # (3,200 bytes a log when each kept its segment)
    lm.get("t", 7).append(one(0), now_ms=1)
    lm.flush_dirty(2)
    lm.flush_dirty(3)
    assert [lg.hollow for lg in lm] .count(False) == 1
    lm.close()
    lm2 = LogManager(str(tmp_path), default_config=CFG)
    assert lm2.get("t", 7).log_end_offset == 1 and lm2.get("t", 8).log_end_offset == 0
    lm2.flush_dirty(4)
    lm2.flush_dirty(5)
    assert sum(lg.hollow for lg in lm2) == 549
    lm2.close()


def test_a_new_logs_topic_id_is_written_after_its_creation_and_before_its_first_record(tmp_path):
    """partition.metadata as Kafka writes it: recorded at creation, flushed later (the broker's
    background pass), and always before the first record and at close."""
    from odradek.log import partition_metadata

    lm = LogManager(str(tmp_path), default_config=CFG)
    for p in range(3):
        lm.get_or_create("t", p, topic_id=b"\x07" * 16)
    assert lm.state_pending and lm.topic_id("t", 0) == b"\x07" * 16
    assert all(partition_metadata.read(RealFileSystem(), str(tmp_path / f"t-{p}")) is None for p in range(3))
    lm.get("t", 1).append(one(0), now_ms=1)  # the id goes first
    assert partition_metadata.read(RealFileSystem(), str(tmp_path / "t-1")) == b"\x07" * 16
    assert lm.write_pending_state() == 2  # (t-1's is written already: nothing to do for it)
    assert not lm.state_pending
    assert all(partition_metadata.read(RealFileSystem(), str(tmp_path / f"t-{p}")) == b"\x07" * 16
               for p in range(3))
    lm.get_or_create("u", 0, topic_id=b"\x08" * 16)
    lm.close()  # a close writes what is pending
    assert partition_metadata.read(RealFileSystem(), str(tmp_path / "u-0")) == b"\x08" * 16


def test_a_crash_before_the_topic_id_is_written_leaves_a_log_without_one(tmp_path):
    """As a log from before partition.metadata: no id on disk, nothing else lost (the broker then
    assigns the id the metadata gives, tests/broker/test_replica_manager_startup.py)."""
    fs = FaultyFileSystem()
    lm = LogManager("/data", fs=fs, default_config=CFG)
    lm.get_or_create("t", 0, topic_id=b"\x07" * 16)
    lm2 = LogManager("/data", fs=fs.restart("kept"), default_config=CFG)
    assert lm2.get("t", 0).log_end_offset == 0 and lm2.topic_id("t", 0) is None
    lm2.close()


def test_a_failed_topic_id_write_fails_the_append_and_is_tried_again(tmp_path):
    from odradek.log import errors

    fs = FaultyFileSystem()
    lm = LogManager("/data", fs=fs, default_config=CFG)
    log = lm.get_or_create("t", 0, topic_id=b"\x07" * 16)
    fs.full_after_bytes = 0
    with pytest.raises(errors.KafkaStorageError):
        log.append(one(0), now_ms=1)
    assert lm.write_pending_state() == 0 and lm.state_pending
    fs.full_after_bytes = None
    assert log.append(one(0), now_ms=2).base_offset == 0
    assert log.offline is None
    lm.close()
    lm2 = LogManager("/data", fs=fs.restart("lost"), default_config=CFG)
    assert lm2.topic_id("t", 0) == b"\x07" * 16 and lm2.get("t", 0).log_end_offset == 1
    lm2.close()


@pytest.mark.parametrize("reopened", [False, True])
def test_a_hollow_log_closes_to_the_same_files_as_a_whole_one(tmp_path, reopened):
    """A broker stop closes every log: a hollow one writes what the same log would write whole
    (index files, checkpoint, producer snapshot, transaction checkpoint), without remaking it."""
    fs = RealFileSystem()
    dirs = {}
    for name, keep_whole in (("hollow", False), ("whole", True)):
        d = str(tmp_path / name / "t-0")
        log = PartitionLog(fs, d, CFG, now_ms=0, new=True, clean_shutdown=True)
        log.assign_epoch(4, 0)
        if reopened:  # a log closed once and loaded again (its index files exist, fsynced)
            log.close()
            log = PartitionLog(fs, d, CFG, now_ms=1, clean_shutdown=True)
            rest(log, 2)
        assert log.hollow
        if keep_whole:
            assert log.segments and not log.hollow
        assert log.close()
        dirs[name] = d
    import os

    def files(d):
        return {n: open(os.path.join(d, n), "rb").read() for n in sorted(os.listdir(d))}
    assert files(dirs["hollow"]) == files(dirs["whole"])
    # a log never written closes to its empty segment file alone: no index, checkpoint, producer
    # snapshot or transaction checkpoint (their absence tells a load the same), and its epoch at
    # the log end is one a load drops anyway
    assert files(dirs["hollow"]) == {"00000000000000000000.log": b""}
    for d in dirs.values():
        again = PartitionLog(fs, d, CFG, now_ms=3, clean_shutdown=True)
        assert (again.log_end_offset, again.log_start_offset, again.high_watermark) == (0, 0, 0)
        assert again.epochs.latest_epoch == -1 and not again.recovered_unclean
        assert again.close()


def test_a_new_leaders_first_epoch_is_written_after_and_before_the_first_record(tmp_path):
    """A new leader's epoch at the log end: kept in memory at once (OffsetsForLeaderEpoch sees it),
    written by the background pass, an empty log's or not; the first append does not wait for it
    (EPOCHS_BELOW_END: the batch's own epoch rebuilds it at a load after a crash)."""
    import os

    lm = LogManager(str(tmp_path), default_config=CFG)
    log = lm.get_or_create("t", 0, topic_id=b"\x07" * 16)
    log.assign_epoch(5, 0)
    assert log.epochs.latest_epoch == 5 and log.epochs_unwritten
    path = tmp_path / "t-0" / "leader-epoch-checkpoint"
    assert not path.exists()
    assert lm.write_pending_state() == 1 and path.read_bytes() == b"0\n1\n5 0\n"
    assert not lm.state_pending
    other = lm.get_or_create("t", 1, topic_id=b"\x07" * 16)
    other.assign_epoch(6, 0)
    other.append(one(0), now_ms=1, leader_epoch=6)  # the record does not wait for the epoch's file
    assert not (tmp_path / "t-1" / "leader-epoch-checkpoint").exists() and lm.state_pending
    assert lm.write_pending_state() == 1 and not other.epochs_unwritten
    assert (tmp_path / "t-1" / "leader-epoch-checkpoint").read_bytes() == b"0\n1\n6 0\n"
    other.assign_epoch(7, 1)  # not empty: the same
    assert other.epochs.latest_epoch == 7 and other.epochs_unwritten
    assert (tmp_path / "t-1" / "leader-epoch-checkpoint").read_bytes() == b"0\n1\n6 0\n"
    assert lm.write_pending_state() == 1 and not other.epochs_unwritten
    assert (tmp_path / "t-1" / "leader-epoch-checkpoint").read_bytes() == b"0\n2\n6 0\n7 1\n"
    lm.close()
    assert sorted(os.listdir(tmp_path / "t-0")).count("leader-epoch-checkpoint") == 1


def test_a_crash_before_the_first_epoch_is_written_loses_nothing(tmp_path):
    fs = FaultyFileSystem()
    lm = LogManager("/data", fs=fs, default_config=CFG)
    lm.get_or_create("t", 0, topic_id=b"\x07" * 16).assign_epoch(3, 0)
    fs2 = fs.restart("lost")
    lm2 = LogManager("/data", fs=fs2, default_config=CFG)
    log = lm2.get("t", 0)
    assert log.log_end_offset == 0 and log.epochs.latest_epoch == -1  # (as a load of a written one)
    log.assign_epoch(4, 0)
    log.append(one(0), now_ms=1, leader_epoch=4)
    lm2.close()
    lm3 = LogManager("/data", fs=fs2.restart("lost"), default_config=CFG)
    assert lm3.get("t", 0).epochs.latest_epoch == 4 and lm3.get("t", 0).log_end_offset == 1
    lm3.close()


def test_a_leadership_change_of_a_log_with_records_makes_no_fsync_on_the_callers_thread():
    """A new leader's epoch at the end of a log with records (makeLeader), and a follower's truncation
    that only drops entries at the log end (Kafka's truncateFromEndAsyncFlush): no fsync on the
    caller's thread (the event loop: 5,000 leaderships moved were 10,000 of them there), the file
    written by the background pass; a crash before it loses nothing: the load gives the same cache
    below the log end, and the next record of the new epoch writes the epoch first."""
    fs = FaultyFileSystem()
    lm = LogManager("/data", fs=fs, default_config=CFG)
    log = lm.get_or_create("t", 0, topic_id=b"\x07" * 16)
    log.append(one(0), now_ms=1, leader_epoch=2)
    log.append(one(1), now_ms=1, leader_epoch=2)
    log.flush()
    lm.write_pending_state()
    fsyncs = fs.fsyncs
    log.assign_epoch(5, 2)  # a leader again
    assert log.epochs.latest_epoch == 5 and fs.fsyncs == fsyncs
    log.truncate_to(2)  # a follower again: the leader's answer is the log end; epoch 5 goes
    assert log.epochs.latest_epoch == 2 and fs.fsyncs == fsyncs
    log.assign_epoch(7, 2)
    assert fs.fsyncs == fsyncs and lm.state_pending
    lost = LogManager("/data", fs=fs.restart("lost"), default_config=CFG)  # a crash now
    assert [(e.epoch, e.start_offset) for e in lost.get("t", 0).epochs.entries] == [(2, 0)]
    assert lost.get("t", 0).log_end_offset == 2
    lost.close()
    log.append(one(2), now_ms=1, leader_epoch=7)  # the new epoch's first record: no fsync either
    assert fs.fsyncs == fsyncs and log.epochs_unwritten
    lost = LogManager("/data", fs=fs.restart("kept"), default_config=CFG)  # a kill -9 now: rebuilt from the batch
    assert [(e.epoch, e.start_offset) for e in lost.get("t", 0).epochs.entries] == [(2, 0), (7, 2)]
    lost.close()
    assert lm.write_pending_state() == 1 and not log.epochs_unwritten
    lm.close()
    again = LogManager("/data", fs=fs.restart("kept"), default_config=CFG)
    assert [(e.epoch, e.start_offset) for e in again.get("t", 0).epochs.entries] == [(2, 0), (7, 2)]
    again.close()


def test_the_periodic_pass_does_not_wait_for_a_log_another_thread_holds(tmp_path):
    """The background writer holds a new log's lock while it fsyncs its partition.metadata: the
    event loop's periodic pass (flush.ms policy, parking, the idle set) leaves that log for its
    next pass instead of waiting for the writer's disk (issue 27: loop blocks of seconds)."""
    import threading

    lm = LogManager(str(tmp_path), default_config=CFG)
    held = lm.get_or_create("t", 0, topic_id=b"\x07" * 16)
    other = lm.get_or_create("t", 1, topic_id=b"\x07" * 16)
    holding, release = threading.Event(), threading.Event()

    def writer():
        with held.lock:
            holding.set()
            release.wait(60)

    w = threading.Thread(target=writer, daemon=True)
    w.start()
    assert holding.wait(10)
    passes = threading.Thread(target=lambda: [lm.flush_dirty(now) for now in (1, 2, 3)], daemon=True)
    passes.start()
    passes.join(30)
    try:
        assert not passes.is_alive()  # (it would wait for the writer forever)
        assert other not in lm._active and held in lm._active  # the free log went idle; the held one waits
    finally:
        release.set()
        w.join(10)
    for now in (4, 5, 6):
        lm.flush_dirty(now)
    assert held not in lm._active
    lm.close()


def test_deleting_new_partitions_drops_what_the_background_writer_has_left_to_write(tmp_path):
    """LogManager.delete_many drops the pending partition.metadata of every partition it deletes,
    and never waits for the background writer's fsyncs: the writer holds no log's lock across them
    (only for the rename into place), so the deletes go through while it is inside t-0's fsync and
    it then drops what it wrote for t-0 and skips t-1 and t-2 (once the writer held each log's lock
    across its fsyncs: each delete waited for the writer's next log)."""
    import threading

    class GatedFS(FaultyFileSystem):
        """The first file fsync waits for ``gate``."""

        def __init__(self):
            self.gate, self.entered, self.armed = threading.Event(), threading.Event(), False
            super().__init__()

        @property
        def fsyncs(self) -> int:
            return self._n

        @fsyncs.setter
        def fsyncs(self, n: int) -> None:
            self._n = n
            if self.armed:
                self.armed = False
                self.entered.set()
                assert self.gate.wait(30)

    fs = GatedFS()
    fs.makedirs("/d")
    lm = LogManager("/d", fs=fs, default_config=CFG)
    for p in range(3):
        lm.get_or_create("t", p, topic_id=b"\x07" * 16)
    fs.armed = True
    wrote: list[int] = []
    writer = threading.Thread(target=lambda: wrote.append(lm.write_pending_state()), daemon=True)
    writer.start()
    assert fs.entered.wait(30)  # the writer is inside t-0's fsync
    deleting = threading.Thread(target=lm.delete_many, args=([("t", 0), ("t", 1), ("t", 2)],), daemon=True)
    deleting.start()
    deleting.join(30)
    assert not deleting.is_alive()  # done while the writer's fsync still waits
    fs.gate.set()
    writer.join(30)
    deleting.join(30)
    assert not writer.is_alive() and not deleting.is_alive()
    assert wrote == [0]  # t-0's file dropped before its rename, t-1 and t-2 never written
    assert lm.list() == []
    # (what it wrote of t-0 stayed a temp file, in the directory renamed away, removed with it)
    assert not any(name == "partition.metadata" for d in fs.listdir("/d") if fs.isdir(f"/d/{d}")
                   for name in fs.listdir(f"/d/{d}"))
    lm.close()


def test_a_cleaner_pass_leaves_an_empty_compacted_log_hollow(tmp_path):
    """Nothing to clean in an empty log: the pass does not remake its segment objects (50 empty
    __consumer_offsets logs remade in the middle of a group storm pinned its memory: issue 27)."""
    from odradek.log.compaction import CleanerConfig, LogCleaner

    compact = LogConfig(segment_bytes=2000, index_interval_bytes=300, cleanup_policy=("compact",))
    log = PartitionLog(RealFileSystem(), str(tmp_path / "t-0"), compact, now_ms=0, new=True)
    assert log.hollow and log.config.compact
    assert LogCleaner(CleanerConfig()).run_once([log], 10**6) is None
    assert log.hollow
    log.close()
