"""The leader-epoch cache on disk: Kafka's `leader-epoch-checkpoint` in the partition
directory, loaded at open, cut to the recovered log and rebuilt from the batches when it
is missing or unreadable; crashes at every byte of a workload that changes epochs,
truncates and rolls (the FaultyFileSystem's power loss, torn writes and kill -9)."""
from __future__ import annotations

import pytest

from odradek.log import FaultyFileSystem, LogConfig, PartitionLog, SimulatedCrash
from odradek.log.leader_epoch_cache import LeaderEpochCache
from odradek.log.partition_log import LEADER_EPOCH_CHECKPOINT_FILE
from odradek.wire.records import build_batch, iter_batch_headers

DIR = "/data/t-0"
FILE = f"{DIR}/{LEADER_EPOCH_CHECKPOINT_FILE}"
CFG = LogConfig(segment_bytes=500, index_interval_bytes=100)


def one(i: int, epoch: int = -1, base: int = 0) -> bytes:
    return build_batch([(b"k%d" % i, b"value-%03d" % i, (), 1000 + i)], base_offset=base,
                       partition_leader_epoch=epoch)


def epochs_of_batches(log: PartitionLog) -> LeaderEpochCache:
    """What the cache must say: each epoch from the first batch stamped with it."""
    cache = LeaderEpochCache()
    data = log.read(log.log_start_offset, 1 << 30).read_bytes() if log.log_end_offset > log.log_start_offset else b""
    for _, h in iter_batch_headers(data):
        cache = cache.assign(h.partition_leader_epoch, h.base_offset)
    return cache


def test_file_layout_is_kafkas():
    fs = FaultyFileSystem()
    fs.makedirs("/data")
    log = PartitionLog(fs, DIR, CFG)
    assert not fs.exists(FILE)  # a new partition writes none until it has an epoch
    log.append(one(0), 1000, leader_epoch=0)
    log.write_pending_state()  # (the owner's background pass, or a flush)
    assert bytes(fs.files[FILE].data) == b"0\n1\n0 0\n"
    log.append(one(1), 1000, leader_epoch=0)
    log.append(one(2), 1000, leader_epoch=3)
    log.assign_epoch(7, log.log_end_offset)
    log.write_pending_state()  # (a new leader's epoch at the log end: the owner's background pass writes it)
    # version 0, the number of entries, then "epoch start_offset" lines, each ended by \n
    assert bytes(fs.files[FILE].data) == b"0\n3\n0 0\n3 2\n7 3\n"
    log.truncate_fully_and_start_at(10)
    assert bytes(fs.files[FILE].data) == b"0\n0\n"


def test_loaded_at_open_and_not_rewritten_after_a_clean_stop():
    fs = FaultyFileSystem()
    fs.makedirs("/data")
    log = PartitionLog(fs, DIR, CFG)
    for i in range(6):
        log.append(one(i), 1000, leader_epoch=i // 2)
    log.close()
    fsyncs = fs.fsyncs
    again = PartitionLog(fs, DIR, CFG)
    assert [(e.epoch, e.start_offset) for e in again.epochs.entries] == [(0, 0), (1, 2), (2, 4)]
    assert fs.fsyncs == fsyncs  # read, not written again
    # the file is what is loaded, cut to the log: an epoch assigned at the log end with
    # nothing written in it is gone after a reopen, as Kafka's loading truncates from the
    # log end (its next leadership assigns again)
    again.assign_epoch(9, 5)
    again.assign_epoch(11, again.log_end_offset)
    again.close()
    assert [(e.epoch, e.start_offset) for e in PartitionLog(fs, DIR, CFG).epochs.entries] == \
        [(0, 0), (1, 2), (2, 4), (9, 5)]


@pytest.mark.parametrize("damage", ["missing", "garbage", "wrong count", "version 1"])
def test_missing_or_unreadable_file_is_rebuilt_from_the_batches(damage):
    fs = FaultyFileSystem()
    fs.makedirs("/data")
    log = PartitionLog(fs, DIR, CFG)
    for i in range(12):
        log.append(one(i), 1000, leader_epoch=i // 3 * 2)
    expected = log.epochs
    log.close()
    if damage == "missing":
        fs.remove(FILE)
    else:
        fs.files[FILE].data[:] = {"garbage": b"\x00zz\n", "wrong count": b"0\n5\n0 0\n",
                                  "version 1": b"1\n1\n0 0\n"}[damage]
    again = PartitionLog(fs, DIR, CFG)
    assert again.epochs == expected == epochs_of_batches(again)
    assert bytes(fs.files[FILE].data) == b"0\n4\n0 0\n2 3\n4 6\n6 9\n"


def test_entries_beyond_the_recovered_log_end_are_cut():
    fs = FaultyFileSystem()
    fs.makedirs("/data")
    log = PartitionLog(fs, DIR, CFG)
    for i in range(4):
        log.append(one(i), 1000, leader_epoch=1)
    log.flush()
    log.append(one(4), 1000, leader_epoch=2)  # its entry is fsynced, the batch is not
    log.append(one(5), 1000, leader_epoch=3)
    assert [e.epoch for e in log.epochs.entries] == [1, 2, 3]
    again = PartitionLog(fs.restart("lost"), DIR, CFG)
    assert again.log_end_offset == 4
    assert [(e.epoch, e.start_offset) for e in again.epochs.entries] == [(1, 0)]


def test_log_start_before_the_first_entry_moves_it():
    fs = FaultyFileSystem()
    fs.makedirs("/data")
    log = PartitionLog(fs, DIR, CFG)
    for i in range(8):
        log.append(one(i), 1000, leader_epoch=i // 4)
    log.high_watermark = 8
    log.flush()
    log.maybe_increment_log_start_offset(2)
    assert bytes(fs.files[FILE].data) == b"0\n2\n0 0\n1 4\n"  # in memory (Kafka's truncateFromStartAsyncFlush)
    assert [(e.epoch, e.start_offset) for e in log.epochs.entries] == [(0, 2), (1, 4)]
    log.append(one(8), 1000, leader_epoch=2)
    log.write_pending_state()  # the log start first, then the epochs' file
    assert b"log_start_offset=2\n" in bytes(fs.files["/data/t-0/log-state.checkpoint"].data)
    assert bytes(fs.files[FILE].data) == b"0\n3\n0 2\n1 4\n2 8\n"
    # a crash after the log start moved but before the cache followed it: the load cuts it
    fs.files[FILE].data[:] = b"0\n2\n0 0\n1 4\n"
    log.close()  # (writes the clean-stop marker; the file above is kept as it is)
    fs.files[FILE].data[:] = b"0\n2\n0 0\n1 4\n"
    assert [(e.epoch, e.start_offset) for e in PartitionLog(fs, DIR, CFG).epochs.entries] == [(0, 2), (1, 4), (2, 8)]


# ------------------------------------------------------------ crashes at every byte

def workload(fs: FaultyFileSystem) -> None:
    """A leader in epochs 0..2, rolls, a flush, becoming follower (truncation to a point the
    next leader chose), the new leader's batches with their epoch, a log start that moves,
    a leader again at the end; closed cleanly."""
    log = PartitionLog(fs, DIR, CFG)
    i = 0
    for epoch in range(3):
        for _ in range(4):
            log.append(one(i), 1000 + i, leader_epoch=epoch)
            i += 1
        if epoch == 1:
            log.flush()
    log.assign_epoch(3, log.log_end_offset)  # a leader that wrote nothing in its epoch
    log.truncate_to(10)  # follower of epoch 4's leader, which diverged at 10
    base = log.log_end_offset
    log.append_as_follower(b"".join(one(100 + k, 4, base + k) for k in range(3)), 2000)
    log.high_watermark = log.log_end_offset
    log.maybe_increment_log_start_offset(5)
    log.append(one(200), 3000, leader_epoch=6)
    log.close()


def total_bytes() -> int:
    fs = FaultyFileSystem()
    fs.makedirs("/data")
    workload(fs)
    return fs.bytes_written


TOTAL = total_bytes()


def crashed(budget: int) -> FaultyFileSystem:
    """The file system the workload leaves when it crashes after `budget` bytes."""
    fs = FaultyFileSystem(seed=budget)
    fs.makedirs("/data")
    fs.crash_after_bytes = budget
    try:
        workload(fs)
    except SimulatedCrash:
        pass
    return fs


@pytest.fixture(scope="module")
def crashes() -> dict[int, FaultyFileSystem]:
    """crashed(budget) once for the three restart modes: restart(mode, seed) leaves the crashed file
    system as it was, so each mode reboots the same crash (~15 MB for all budgets, freed with the module)."""
    return {}


@pytest.mark.parametrize("mode", ["lost", "torn", "kept"])
def test_crash_at_every_byte_leaves_a_cache_that_matches_the_log(mode, crashes):
    for budget in range(TOTAL + 1):
        fs = crashes.get(budget)
        if fs is None:
            fs = crashes[budget] = crashed(budget)
        log = PartitionLog(fs.restart(mode, seed=budget), DIR, CFG)
        cache = log.epochs
        # every batch's epoch is where the cache says; no entry past the log end or
        # before its start; an epoch without a batch only as the log start's epoch
        for e in cache.entries:
            assert log.log_start_offset <= e.start_offset < log.log_end_offset, (budget, cache)
        want = epochs_of_batches(log)
        assert cache.truncate_from_start(log.log_start_offset) == cache
        assert [e for e in cache.entries if e.start_offset > log.log_start_offset] == \
            [e for e in want.entries if e.start_offset > log.log_start_offset], (budget, cache, want)
        assert cache.epoch_for_offset(log.log_end_offset - 1) == want.epoch_for_offset(log.log_end_offset - 1)
        # and the file says the same as the memory
        again_bytes = bytes(log.fs.files[FILE].data) if log.fs.exists(FILE) else None
        log.close()
        reopened = PartitionLog(log.fs, DIR, CFG)
        assert reopened.epochs == cache, budget
        assert again_bytes is None or not cache.entries or again_bytes.startswith(b"0\n")
        reopened.close()
