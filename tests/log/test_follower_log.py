"""The log side of replication (issue 20): leader epochs on append, the follower's append of
the leader's bytes, truncation and the log start as a follower moves them. Pure: the
in-memory FaultyFileSystem."""
from __future__ import annotations

import pytest

from odradek.log import errors
from odradek.log.config import LogConfig
from odradek.log.fs import FaultyFileSystem
from odradek.log.leader_epoch_cache import EpochEndOffset, EpochEntry, LeaderEpochCache
from odradek.log.partition_log import PartitionLog
from odradek.log.txn_index import AbortedTxn
from odradek.wire.records import build_control_batch, iter_batch_headers

from log_helpers import batch, read_all

CFG = LogConfig(segment_bytes=600, index_interval_bytes=100)


def segment_bytes(fs: FaultyFileSystem, d: str) -> dict[str, bytes]:
    return {p.rsplit("/", 1)[1]: bytes(i.data) for p, i in fs.files.items()
            if p.startswith(d + "/") and p.endswith(".log")}


def log_bytes(fs: FaultyFileSystem, d: str) -> bytes:
    """Every segment's bytes, in offset order: the log as one stream."""
    segs = segment_bytes(fs, d)
    return b"".join(segs[name] for name in sorted(segs))


def replicate(leader: PartitionLog, follower: PartitionLog, max_bytes: int = 300) -> int:
    """Feed the follower the leader's fetched slices from its log end on, as a replica
    fetcher does; returns how many appends it took."""
    n = 0
    while follower.log_end_offset < leader.log_end_offset:
        fetched = leader.read(follower.log_end_offset, max_bytes).read_bytes()
        follower.append_as_follower(fetched, now_ms=5000)
        follower.high_watermark = min(leader.high_watermark, follower.log_end_offset)
        n += 1
    return n


def entries(log: PartitionLog) -> list[tuple[int, int]]:
    return [(e.epoch, e.start_offset) for e in log.epochs.entries]


def test_leader_append_records_new_epochs_at_the_batch_base():
    log = PartitionLog(FaultyFileSystem(), "/d/t-0", CFG)
    assert log.epochs == LeaderEpochCache()
    log.append(batch([b"a", b"b"]), 1000, leader_epoch=0)        # fast path: 0-1
    log.append(batch([b"c"]), 1000, leader_epoch=0)             # 2
    assert entries(log) == [(0, 0)]
    log.append(batch([b"d"], keys=[b"k"]), 1000, leader_epoch=3)  # 3
    log.append(batch([b"e"], producer_id=7, producer_epoch=0, base_sequence=0), 1000,
               leader_epoch=5)                                    # 4, producer id
    log.append(batch([b"f"] * 2) + batch([b"g"]), 1000, leader_epoch=6)  # general path: 5-7
    assert entries(log) == [(0, 0), (3, 3), (5, 4), (6, 5)]
    # an older epoch (a stale leader) does not rewrite the history
    log.append(batch([b"h"]), 1000, leader_epoch=2)
    assert log.epochs.latest_epoch == 6
    # the epoch is stamped on the batches
    data = log.read(0, 1 << 20).read_bytes()
    assert [h.partition_leader_epoch for _, h in iter_batch_headers(data)] == [0, 0, 3, 5, 6, 6, 2]
    assert log.epochs.end_offset_for(3, log.log_end_offset) == EpochEndOffset(3, 4)
    assert log.epochs.end_offset_for(6, log.log_end_offset) == EpochEndOffset(6, 9)


def test_assign_epoch_at_the_log_end_then_truncate_at_the_log_end_drops_it():
    log = PartitionLog(FaultyFileSystem(), "/d/t-0", CFG)
    log.append(batch([b"a"]), 1000, leader_epoch=1)
    log.assign_epoch(2, log.log_end_offset)  # a new leader, nothing written yet
    assert entries(log) == [(1, 0), (2, 1)]
    log.assign_epoch(2, 5)  # same epoch later: no change
    assert entries(log) == [(1, 0), (2, 1)]
    log.truncate_to(log.log_end_offset)  # as a follower again: the empty epoch goes
    assert entries(log) == [(1, 0)]
    log.truncate_to(10)  # beyond the end: nothing more to drop
    assert entries(log) == [(1, 0)]


@pytest.mark.parametrize("max_bytes", [1, 300], ids=["batch-by-batch", "slices"])
def test_follower_bytes_are_the_leaders(max_bytes):
    fs = FaultyFileSystem()
    leader = PartitionLog(fs, "/d/leader/t-0", CFG)
    follower = PartitionLog(fs, "/d/follower/t-0", CFG)
    off = 0
    for i in range(40):
        epoch = i // 10
        if i % 7 == 3:
            data = batch([b"v%d" % i, b"w%d" % i], producer_id=11, producer_epoch=0,
                         base_sequence=off, ts=1000 + i)
            off += 2
        else:
            data = batch([b"x" * (i % 13), b"y%d" % i], ts=2000 + i, keys=[b"k", None])
        leader.append(data, 3000 + i, leader_epoch=epoch)
        leader.high_watermark = leader.log_end_offset - 1
    assert len(leader.segments) > 3
    assert replicate(leader, follower, max_bytes) > 1
    assert follower.log_end_offset == leader.log_end_offset
    assert follower.epochs == leader.epochs
    assert entries(follower) == [(0, 0), (1, 20), (2, 40), (3, 60)]
    # the same log, byte for byte (offsets, epochs, timestamps and CRC as written)
    assert log_bytes(fs, "/d/follower/t-0") == log_bytes(fs, "/d/leader/t-0")
    if max_bytes == 1:  # appended as the leader appended: the same segment files too (where
        # a follower rolls depends on the slices it appends, in Kafka as here)
        assert segment_bytes(fs, "/d/follower/t-0") == segment_bytes(fs, "/d/leader/t-0")
    assert read_all(follower) == read_all(leader)


def test_follower_append_refuses_offsets_below_its_end_and_out_of_order():
    fs = FaultyFileSystem()
    leader = PartitionLog(fs, "/d/l/t-0", CFG)
    follower = PartitionLog(fs, "/d/f/t-0", CFG)
    for i in range(3):
        leader.append(batch([b"a%d" % i]), 1000, leader_epoch=0)
    all3 = leader.read(0, 1 << 20).read_bytes()
    follower.append_as_follower(all3, 1000)
    with pytest.raises(errors.UnexpectedAppendOffsetError):
        follower.append_as_follower(all3, 1000)
    with pytest.raises(errors.OffsetsOutOfOrderError):
        follower.append_as_follower(batch([b"z"], base_offset=3) + batch([b"y"], base_offset=3), 1000)
    assert follower.log_end_offset == 3
    # a gap the leader's compaction left is taken
    follower.append_as_follower(batch([b"g"], base_offset=9, partition_leader_epoch=4), 1000)
    assert follower.log_end_offset == 10 and entries(follower) == [(0, 0), (4, 9)]


def test_follower_takes_what_a_leader_took_without_the_client_checks():
    cfg = LogConfig(segment_bytes=4000, max_message_bytes=200, cleanup_policy=("compact",))
    fs = FaultyFileSystem()
    follower = PartitionLog(fs, "/d/f/t-0", cfg)
    # no key on a compacted topic, a batch over max.message.bytes, an ancient timestamp,
    # a sequence that does not start at 0: all the leader's business
    data = (batch([b"x" * 300], keys=[b"k"], base_offset=0, partition_leader_epoch=1, ts=1)
            + batch([b"nokey"], base_offset=1, partition_leader_epoch=1, producer_id=5,
                    producer_epoch=2, base_sequence=17))
    info = follower.append_as_follower(data, now_ms=10**13)
    assert (info[0], follower.log_end_offset) == (0, 2)
    assert follower.read(0, 1 << 20).read_bytes() == data
    # ... but not a corrupt batch
    bad = bytearray(batch([b"x"], base_offset=2))
    bad[-1] ^= 1
    with pytest.raises(errors.CorruptRecordError):
        follower.append_as_follower(bytes(bad), 1000)


def test_a_follower_that_becomes_leader_dedupes_idempotent_retries():
    fs = FaultyFileSystem()
    leader = PartitionLog(fs, "/d/l/t-0", CFG)
    follower = PartitionLog(fs, "/d/f/t-0", CFG)
    sent = [batch([b"p%d" % i], producer_id=42, producer_epoch=3, base_sequence=i)
            for i in range(6)]
    for data in sent:
        leader.append(data, 1000, leader_epoch=0)
    replicate(leader, follower)
    # the follower leads now (epoch 1); the producer retries its last two batches
    follower.assign_epoch(1, follower.log_end_offset)
    for i in (4, 5):
        info = follower.append(sent[i], 2000, leader_epoch=1)
        assert info.duplicate and info[0] == i  # the offset it first got
    assert follower.log_end_offset == 6
    with pytest.raises(errors.OutOfOrderSequenceError):
        follower.append(batch([b"gap"], producer_id=42, producer_epoch=3, base_sequence=9), 2000,
                        leader_epoch=1)
    with pytest.raises(errors.InvalidProducerEpochError):
        follower.append(batch([b"old"], producer_id=42, producer_epoch=2, base_sequence=6), 2000,
                        leader_epoch=1)
    follower.append(batch([b"next"], producer_id=42, producer_epoch=3, base_sequence=6), 2000,
                    leader_epoch=1)
    assert follower.log_end_offset == 7
    assert entries(follower) == [(0, 0), (1, 6)]


def test_a_follower_that_becomes_leader_serves_read_committed():
    fs = FaultyFileSystem()
    leader = PartitionLog(fs, "/d/l/t-0", CFG)
    follower = PartitionLog(fs, "/d/f/t-0", CFG)

    def txn(pid, seq, value):
        return batch([value], producer_id=pid, producer_epoch=0, base_sequence=seq,
                     is_transactional=True)

    for data in (txn(7, 0, b"a"), txn(8, 0, b"b"), build_control_batch(False, 7, 0, 0, 1000),
                 txn(8, 1, b"c"), txn(9, 0, b"open")):
        leader.append(data, 1000, leader_epoch=2)
        leader.high_watermark = leader.log_end_offset
    # 0: 7 a, 1: 8 b, 2: abort 7, 3: 8 c, 4: 9 open
    replicate(leader, follower, max_bytes=90)
    assert follower.aborted_transactions(0, 5) == leader.aborted_transactions(0, 5) == [AbortedTxn(7, 0, 2, 1)]
    assert follower.last_stable_offset == leader.last_stable_offset == 1
    assert follower.txn_state.ongoing == leader.txn_state.ongoing == {8: 1, 9: 4}
    # the follower leads: the commit of 8 and the abort of 9 land in its index as on a leader
    follower.append(build_control_batch(True, 8, 0, 0, 1000), 2000, leader_epoch=3)
    follower.append(build_control_batch(False, 9, 0, 0, 1000), 2000, leader_epoch=3)
    follower.high_watermark = follower.log_end_offset
    assert follower.last_stable_offset == 7
    assert follower.aborted_transactions(0, 7) == [AbortedTxn(7, 0, 2, 1), AbortedTxn(9, 4, 6, 7)]
    # and the same after a restart (rebuilt from the log and the snapshot)
    follower.close()
    again = PartitionLog(fs, "/d/f/t-0", CFG)
    assert again.aborted_transactions(0, 7) == [AbortedTxn(7, 0, 2, 1), AbortedTxn(9, 4, 6, 7)]
    assert entries(again) == [(2, 0), (3, 5)]


def test_truncation_cuts_the_epoch_cache():
    fs = FaultyFileSystem()
    log = PartitionLog(fs, "/d/t-0", CFG)
    for i in range(12):
        log.append(batch([b"v%03d" % i] * 3), 1000, leader_epoch=i // 4)
    assert entries(log) == [(0, 0), (1, 12), (2, 24)]
    log.truncate_to(25)  # in the middle of a batch: that batch goes (24..26)
    assert log.log_end_offset == 24
    assert entries(log) == [(0, 0), (1, 12)]
    log.truncate_to(13)
    assert log.log_end_offset == 12 and entries(log) == [(0, 0)]
    # the next leader's batches come after
    log.append_as_follower(batch([b"n"], base_offset=12, partition_leader_epoch=5), 1000)
    assert entries(log) == [(0, 0), (5, 12)]
    log.close()
    assert entries(PartitionLog(fs, "/d/t-0", CFG)) == [(0, 0), (5, 12)]


def test_truncate_fully_clears_the_cache():
    fs = FaultyFileSystem()
    log = PartitionLog(fs, "/d/t-0", CFG)
    for i in range(4):
        log.append(batch([b"v"]), 1000, leader_epoch=i)
    log.high_watermark = 2
    log.truncate_fully_and_start_at(100)
    assert log.epochs == LeaderEpochCache()
    assert (log.log_start_offset, log.log_end_offset, log.high_watermark) == (100, 100, 100)
    log.append_as_follower(batch([b"w"], base_offset=100, partition_leader_epoch=7), 1000)
    assert entries(log) == [(7, 100)]
    log.close()
    again = PartitionLog(fs, "/d/t-0", CFG)
    assert entries(again) == [(7, 100)] and again.log_start_offset == 100


def test_log_start_offset_follows_the_leader_not_beyond_the_high_watermark():
    fs = FaultyFileSystem()
    log = PartitionLog(fs, "/d/t-0", CFG)
    for i in range(20):
        log.append(batch([b"value-%03d" % i] * 2), 1000, leader_epoch=i // 5)
    assert entries(log) == [(0, 0), (1, 10), (2, 20), (3, 30)]
    log.high_watermark = 25
    with pytest.raises(errors.OffsetOutOfRangeError):
        log.maybe_increment_log_start_offset(26)
    assert log.maybe_increment_log_start_offset(13)
    assert not log.maybe_increment_log_start_offset(13)
    assert log.log_start_offset == 13
    assert entries(log) == [(1, 13), (2, 20), (3, 30)]
    assert log.epochs.epoch_for_offset(13) == 1
    assert read_all(log)[0][0] == 13
    log.close()
    again = PartitionLog(fs, "/d/t-0", CFG)
    assert entries(again) == [(1, 13), (2, 20), (3, 30)] and again.log_start_offset == 13


def test_retention_cuts_the_cache_from_the_start():
    fs = FaultyFileSystem()
    cfg = LogConfig(segment_bytes=300, retention_bytes=600)
    log = PartitionLog(fs, "/d/t-0", cfg)
    for i in range(30):
        log.append(batch([b"value-%03d" % i]), 1000, leader_epoch=i // 10)
    log.high_watermark = log.log_end_offset
    assert log.apply_retention(2000) > 0
    start = log.log_start_offset
    assert start > 10
    assert log.epochs.entries[0] == EpochEntry(start // 10, start)
    assert len(log.epochs.entries) == 3 - start // 10


def test_log_append_time_batches_keep_the_leaders_time():
    cfg = LogConfig(segment_bytes=4000, message_timestamp_type="LogAppendTime")
    fs = FaultyFileSystem()
    leader = PartitionLog(fs, "/d/l/t-0", cfg)
    follower = PartitionLog(fs, "/d/f/t-0", cfg)
    leader.append(batch([b"a", b"b"]), 123_456, leader_epoch=0)
    replicate(leader, follower)
    assert log_bytes(fs, "/d/f/t-0") == log_bytes(fs, "/d/l/t-0")
    (h,) = [h for _, h in iter_batch_headers(log_bytes(fs, "/d/f/t-0"))]
    assert h.max_timestamp == 123_456


def test_a_diverged_replica_truncates_by_epoch_and_converges():
    """A leads in epoch 1 and writes 0..9; B has 0..5 when A dies; B leads in epoch 2 and
    writes 6..8; A comes back as B's follower: the end of A's epoch 1 on B is 6, A
    truncates there and takes B's batches (Kafka's OffsetForLeaderEpoch truncation)."""
    fs = FaultyFileSystem()
    a = PartitionLog(fs, "/d/a/t-0", CFG)
    b = PartitionLog(fs, "/d/b/t-0", CFG)
    for i in range(10):
        a.append(batch([b"a%d" % i]), 1000, leader_epoch=1)
    b.append_as_follower(a.read(0, 1 << 20, upper_bound_offset=6).read_bytes(), 1000)
    assert b.log_end_offset == 6
    b.assign_epoch(2, b.log_end_offset)  # B becomes leader
    for i in range(3):
        b.append(batch([b"b%d" % i]), 2000, leader_epoch=2)
    # A, now a follower in epoch 2, asks where its latest epoch ends on the leader
    end = b.epochs.end_offset_for(a.epochs.latest_epoch, b.log_end_offset)
    assert end == EpochEndOffset(1, 6)
    a.truncate_to(min(end.end_offset, a.log_end_offset))
    assert entries(a) == [(1, 0)] and a.log_end_offset == 6
    replicate(b, a)
    assert entries(a) == entries(b) == [(1, 0), (2, 6)]
    assert log_bytes(fs, "/d/a/t-0") == log_bytes(fs, "/d/b/t-0")
    assert [v for _, _, v in read_all(a)] == [b"a%d" % i for i in range(6)] + [b"b%d" % i for i in range(3)]
