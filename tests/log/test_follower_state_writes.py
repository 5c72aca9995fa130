"""What a follower's fetcher (the event loop) does to its logs without an fsync on its thread (issue 27):
a log start that follows its leader's (Kafka's maybeIncrementLogStartOffset: in memory, written by the
kafka-log-start-offset-checkpoint task), a truncation of records past the recovery point (Kafka's
truncateTo: truncateFromEndAsyncFlush), the first batch of a new leader epoch; and what a crash
before the background writes leaves: a lower log start, never a higher one, and leader epochs that
match the batches."""
from __future__ import annotations

from odradek.log import FaultyFileSystem, LogConfig, LogManager, errors
from odradek.wire.records import build_batch

from log_helpers import read_all

import pytest

CFG = LogConfig(segment_bytes=2000, index_interval_bytes=300)


def one(i: int, base: int = 0, epoch: int = -1) -> bytes:
    return build_batch([(None, b"v%05d" % i, (), 1)], base_offset=base, partition_leader_epoch=epoch)


def fsyncs(fs: FaultyFileSystem) -> int:
    """File and directory fsyncs so far (the tests below run on one thread: the caller's)."""
    return fs.fsyncs + fs.dir_fsyncs


def epochs(log) -> list[tuple[int, int]]:
    return [(e.epoch, e.start_offset) for e in log.epochs.entries]


def follower(fs: FaultyFileSystem):
    """A follower's log of 10 records (epoch 1 from 0, epoch 2 from 4), all of it flushed."""
    lm = LogManager("/data", fs=fs, default_config=CFG)
    log = lm.get_or_create("t", 0, topic_id=b"\x07" * 16)
    for i in range(10):
        log.append_as_follower(one(i, i, 1 if i < 4 else 2), now_ms=1)
    log.high_watermark = 10
    log.flush()
    lm.write_pending_state()
    lm.checkpoint_high_watermarks()
    return lm, log


def test_a_follower_log_start_moves_in_memory_and_is_written_by_the_periodic_pass():
    """The leader's retention or DeleteRecords moved its log start: the follower's moves with it on
    the fetcher's thread with no fsync (it was 4: log-state.checkpoint and the epochs' file, ~12 ms a
    partition on a disk), the epochs cut at it in memory; LogManager.checkpoint_log_starts writes it
    (log.flush.start.offset.checkpoint.interval.ms) and writes nothing for a log whose start did not
    move."""
    fs = FaultyFileSystem()
    lm, log = follower(fs)
    other = lm.get_or_create("t", 1, topic_id=b"\x07" * 16)
    other.append(one(0), now_ms=1, leader_epoch=1)
    other.flush()
    before = fsyncs(fs)
    assert log.maybe_increment_log_start_offset(6)
    assert fsyncs(fs) == before and log.start_unwritten
    assert log.log_start_offset == 6 and epochs(log) == [(2, 6)]
    with pytest.raises(errors.OffsetOutOfRangeError):  # below the log start: as Kafka, at once
        log.read(5, 1 << 20)
    assert [o for o, _, _ in read_all(log)] == list(range(6, 10))
    assert b"log_start_offset=0\n" in bytes(fs.files["/data/t-0/log-state.checkpoint"].data)
    assert lm.checkpoint_log_starts() == 1 and not log.start_unwritten
    assert b"log_start_offset=6\n" in bytes(fs.files["/data/t-0/log-state.checkpoint"].data)
    assert b"recovery_point=10\n" in bytes(fs.files["/data/t-0/log-state.checkpoint"].data)
    assert lm.checkpoint_log_starts() == 0
    lm.close()
    again = LogManager("/data", fs=fs.restart("lost"), default_config=CFG)
    assert again.get("t", 0).log_start_offset == 6 and epochs(again.get("t", 0)) == [(2, 6)]
    again.close()


@pytest.mark.parametrize("mode", ["kept", "lost"])
def test_a_crash_before_the_log_start_is_written_leaves_it_lower_never_higher(mode):
    """kill -9 (kept) or a power loss (lost) after the log start moved in memory: the load finds the
    last one written (Kafka's same: the deleteRecordsOffset may be lost within the interval), every
    record from it on is read again, OFFSET_OUT_OF_RANGE only below it, and the epochs match the
    batches; the leader's next fetch answer moves it again."""
    fs = FaultyFileSystem()
    lm, log = follower(fs)
    log.maybe_increment_log_start_offset(6)
    lm.write_pending_state()  # (nothing: the epochs' file is left as it is until the log start is written)
    assert b"0\n2\n1 0\n2 4\n" == bytes(fs.files["/data/t-0/leader-epoch-checkpoint"].data)
    crashed = LogManager("/data", fs=fs.restart(mode), default_config=CFG)
    log2 = crashed.get("t", 0)
    assert log2.log_start_offset == 0 and log2.log_end_offset == 10
    assert [o for o, _, _ in read_all(log2)] == list(range(10))
    assert epochs(log2) == [(1, 0), (2, 4)]
    log2.high_watermark = 10
    assert log2.maybe_increment_log_start_offset(6)
    with pytest.raises(errors.OffsetOutOfRangeError):
        log2.read(5, 1 << 20)
    crashed.close()


def test_the_epochs_file_never_leads_the_log_start_on_disk():
    """A log start moved in memory cut the epochs (in memory); a new epoch's batch then makes the
    epochs' file due: the background pass writes the log start first. A flush with both due writes
    the log start first too, with the recovery point on disk, then the epochs, then the checkpoint."""
    fs = FaultyFileSystem()
    lm, log = follower(fs)
    log.maybe_increment_log_start_offset(6)
    log.append_as_follower(one(10, 10, 3), now_ms=1)
    assert log.start_unwritten and log.epochs_unwritten
    assert lm.write_pending_state() == 1 and not log.start_unwritten and not log.epochs_unwritten
    assert b"log_start_offset=6\n" in bytes(fs.files["/data/t-0/log-state.checkpoint"].data)
    assert bytes(fs.files["/data/t-0/leader-epoch-checkpoint"].data) == b"0\n2\n2 6\n3 10\n"
    log.high_watermark = 11
    log.maybe_increment_log_start_offset(8)
    log.append_as_follower(one(11, 11, 4), now_ms=1)
    order: list[str] = []
    rename = fs.rename
    fs.rename = lambda src, dst: (order.append(f"{dst.rsplit('/', 1)[1]}:{bytes(fs.files[src].data)!r}"),
                                  rename(src, dst))[1]
    log.flush()
    assert order == [
        "log-state.checkpoint:b'0\\nlog_start_offset=8\\nrecovery_point=10\\ncleaner_checkpoint=8\\nhigh_watermark=11\\n'",
        "leader-epoch-checkpoint:b'0\\n3\\n2 8\\n3 10\\n4 11\\n'",
        "log-state.checkpoint:b'0\\nlog_start_offset=8\\nrecovery_point=12\\ncleaner_checkpoint=8\\nhigh_watermark=11\\n'"]
    lm.close()


def test_a_follower_truncation_past_the_recovery_point_makes_no_fsync_and_a_crash_loses_nothing():
    """The leader's epochs say the follower diverged at offset 12, past its recovery point (10): the
    cut makes no fsync on the fetcher's thread (it made 5: the segment, the epochs' file, the
    checkpoint); the new leader's batches follow, their epoch in memory. A kill -9 before any write
    leaves exactly the log the follower had, epochs from its batches; the epochs' file is written by
    the background pass, and before a flush moves the recovery point past the cut."""
    fs = FaultyFileSystem()
    lm, log = follower(fs)
    for i in range(10, 15):  # records of epoch 3, which the next leader (epoch 4) does not have past 12
        log.append_as_follower(one(i, i, 3), now_ms=1)
    lm.write_pending_state()
    before = fsyncs(fs)
    log.truncate_to(12)
    log.append_as_follower(one(100, 12, 4), now_ms=1)
    log.append_as_follower(one(101, 13, 4), now_ms=1)
    assert fsyncs(fs) == before
    assert epochs(log) == [(1, 0), (2, 4), (3, 10), (4, 12)] and log.epochs_unwritten
    assert bytes(fs.files["/data/t-0/leader-epoch-checkpoint"].data) == b"0\n3\n1 0\n2 4\n3 10\n"
    killed = LogManager("/data", fs=fs.restart("kept"), default_config=CFG)
    log2 = killed.get("t", 0)
    assert log2.log_end_offset == 14 and epochs(log2) == [(1, 0), (2, 4), (3, 10), (4, 12)]
    assert [v for o, _, v in read_all(log2)][12:] == [b"v00100", b"v00101"]
    killed.close()
    lost = LogManager("/data", fs=fs.restart("lost"), default_config=CFG)  # a power loss: the cut stands
    assert lost.get("t", 0).log_end_offset <= 14
    assert epochs(lost.get("t", 0)) == [(1, 0), (2, 4), (3, 10), (4, 12)][:2 + (lost.get("t", 0).log_end_offset > 10)
                                                                            + (lost.get("t", 0).log_end_offset > 12)]
    lost.close()
    log.flush()  # the recovery point passes the cut: the epochs first
    assert bytes(fs.files["/data/t-0/leader-epoch-checkpoint"].data) == b"0\n4\n1 0\n2 4\n3 10\n4 12\n"
    lm.close()


def test_a_truncation_below_the_recovery_point_still_writes_before_it_returns():
    """A cut into flushed records (the load would trust the epochs' file there): the recovery point
    goes down on disk first, then the epochs' file, before the next record can land past the cut."""
    fs = FaultyFileSystem()
    lm, log = follower(fs)
    log.truncate_to(6)
    assert b"recovery_point=6\n" in bytes(fs.files["/data/t-0/log-state.checkpoint"].data)
    assert bytes(fs.files["/data/t-0/leader-epoch-checkpoint"].data) == b"0\n2\n1 0\n2 4\n"
    log.truncate_to(3)
    assert bytes(fs.files["/data/t-0/leader-epoch-checkpoint"].data) == b"0\n1\n1 0\n"
    lm.close()


def test_a_rolls_background_flush_writes_the_new_epochs_before_it_moves_the_recovery_point():
    """A new epoch's records, then a roll: the roll's background flush (flush_rolled, Kafka's flush-log
    task) moves the recovery point past them only after the epochs' file holds their epoch, and the log
    start they were cut at before that."""
    fs = FaultyFileSystem()
    lm, log = follower(fs)
    log.maybe_increment_log_start_offset(6)
    log.append_as_follower(one(10, 10, 3), now_ms=1)
    log.roll(2)
    assert log.rolled_pending and log.epochs_unwritten and log.start_unwritten
    order: list[str] = []
    rename = fs.rename
    fs.rename = lambda src, dst: (order.append(f"{dst.rsplit('/', 1)[1]}:{bytes(fs.files[src].data)!r}"),
                                  rename(src, dst))[1]
    before = fsyncs(fs)
    log.flush_rolled()  # (the background pass's, in a worker thread)
    assert fsyncs(fs) > before and not log.epochs_unwritten and log.recovery_point == 11
    names = [o.split(":", 1)[0] for o in order]
    assert names.index("leader-epoch-checkpoint") < names.index("log-state.checkpoint", 1)
    assert order[0] == ("log-state.checkpoint:b'0\\nlog_start_offset=6\\nrecovery_point=10\\n"
                        "cleaner_checkpoint=6\\nhigh_watermark=10\\n'")
    assert order[-1].startswith("log-state.checkpoint:b'0\\nlog_start_offset=6\\nrecovery_point=11\\n")
    lm.close()
