"""Transactions in the log: last stable offset, abort markers -> .txnindex, recovery."""
from __future__ import annotations

from odradek.log.fs import FaultyFileSystem, RealFileSystem
from odradek.log.partition_log import PartitionLog
from odradek.log.txn_index import AbortedTxn
from odradek.wire.records import build_control_batch

from log_helpers import batch, read_all


def txn_batch(pid, epoch, seq, values):
    return batch(values, producer_id=pid, producer_epoch=epoch, base_sequence=seq, is_transactional=True)


def marker(pid, epoch, commit):
    return build_control_batch(commit, pid, epoch, 0, 1000)


def append(log, data):
    info = log.append(data, 1000)
    log.high_watermark = log.log_end_offset
    return info


def test_lso_follows_the_first_open_transaction():
    fs = FaultyFileSystem()
    log = PartitionLog(fs, "/d/t-0")
    append(log, batch([b"plain"]))                       # 0
    assert log.last_stable_offset == 1
    append(log, txn_batch(7, 0, 0, [b"a", b"b"]))         # 1-2
    append(log, txn_batch(8, 0, 0, [b"c"]))               # 3
    assert log.last_stable_offset == 1
    append(log, txn_batch(7, 0, 2, [b"d"]))               # 4
    append(log, marker(7, 0, True))                       # 5 commit pid 7
    assert log.last_stable_offset == 3                    # pid 8 still open at 3
    append(log, marker(8, 0, False))                      # 6 abort pid 8
    assert log.last_stable_offset == log.log_end_offset == 7
    assert log.aborted_transactions(0, 7) == [AbortedTxn(8, 3, 6, 7)]
    assert log.aborted_transactions(4, 7) == [AbortedTxn(8, 3, 6, 7)]
    assert log.aborted_transactions(7, 8) == []
    assert log.aborted_transactions(0, 3) == []           # starts at the upper bound: not overlapping
    # read_committed bound: nothing of an open transaction leaks below the LSO
    append(log, txn_batch(9, 0, 0, [b"open"]))             # 7
    assert log.last_stable_offset == 7
    assert [r[0] for r in read_all(log, upper=log.last_stable_offset)][-1] == 6


def test_txn_state_survives_clean_restart_and_crash(tmp_path):
    for clean in (True, False):
        d = str(tmp_path / f"t-{clean}")
        fs = RealFileSystem()
        log = PartitionLog(fs, d)
        append(log, txn_batch(1, 0, 0, [b"x"]))           # 0
        append(log, marker(1, 0, False))                  # 1
        log.roll(1000)
        append(log, txn_batch(2, 0, 0, [b"y"]))           # 2 still open
        append(log, txn_batch(3, 0, 0, [b"z"]))           # 3
        append(log, marker(3, 0, False))                  # 4
        if clean:
            log.close()
        log2 = PartitionLog(fs, d)
        log2.high_watermark = log2.log_end_offset
        assert log2.txn_state.ongoing == {2: 2}
        assert log2.last_stable_offset == 2
        assert [(e.producer_id, e.first_offset, e.last_offset) for e in log2.aborted_transactions(0, 5)] == \
            [(1, 0, 1), (3, 3, 4)]
        log2.append(marker(2, 0, True), 1000)
        log2.high_watermark = log2.log_end_offset
        assert log2.last_stable_offset == 6
        log2.close()


def test_truncation_drops_index_entries_and_reopens_transactions():
    fs = FaultyFileSystem()
    log = PartitionLog(fs, "/d/t-0")
    append(log, txn_batch(1, 0, 0, [b"x"]))               # 0
    append(log, marker(1, 0, False))                      # 1
    assert len(log.aborted_transactions(0, 2)) == 1
    log.truncate_to(1)
    log.high_watermark = log.log_end_offset
    assert log.aborted_transactions(0, 2) == []
    assert log.txn_state.ongoing == {1: 0}
    assert log.last_stable_offset == 0


def test_deleted_segments_take_their_txnindex(tmp_path):
    fs = RealFileSystem()
    d = str(tmp_path / "t-0")
    log = PartitionLog(fs, d)
    append(log, txn_batch(1, 0, 0, [b"x"]))
    append(log, marker(1, 0, False))
    log.roll(1000)
    append(log, batch([b"y"]))
    import os
    assert any(n.endswith(".txnindex") for n in os.listdir(d))
    log.delete_records(2)
    assert not any(n.endswith(".txnindex") for n in os.listdir(d))
    log.close()


def test_compaction_drops_aborted_records_and_keeps_markers():
    from odradek.log import LogCleaner, LogConfig

    cfg = LogConfig(cleanup_policy=("compact",), segment_bytes=100000, min_cleanable_dirty_ratio=0.0)
    fs = FaultyFileSystem()
    log = PartitionLog(fs, "/d/c-0", cfg)
    append(log, batch([b"committed"], keys=[b"k"]))                                  # 0
    append(log, batch([b"aborted"], keys=[b"k"], producer_id=4, producer_epoch=0,
                      base_sequence=0, is_transactional=True))                         # 1
    append(log, marker(4, 0, False))                                                   # 2
    log.roll(1000)
    append(log, batch([b"open"], keys=[b"k"], producer_id=5, producer_epoch=0,
                      base_sequence=0, is_transactional=True))                         # 3
    log.roll(1000)
    append(log, batch([b"tail"], keys=[b"other"]))                                     # 4
    log.roll(1000)
    # the open transaction (LSO 3) bounds the cleaner: only [0, 3) is compacted
    LogCleaner().clean(log, now_ms=2000, force=True)
    vals = [(o, v) for o, _, v in read_all(log)]
    assert (0, b"committed") in vals and (1, b"aborted") not in vals
    assert (3, b"open") in vals and len(log.aborted_transactions(0, 10)) == 1
    from log_helpers import batches_of
    data = log.read(0, 1 << 20).read_bytes()
    assert [h.base_offset for h in batches_of(data) if h.is_control] == [2]
    append(log, marker(5, 0, True))                                                    # 5: "open" committed
    log.roll(1000)
    LogCleaner().clean(log, now_ms=3000, force=True)
    vals = [(o, v) for o, _, v in read_all(log)]
    assert (0, b"committed") not in vals and (3, b"open") in vals


def test_markers_are_checked_against_producer_and_coordinator_epochs(tmp_path):
    """ProducerAppendInfo.appendEndTxnMarker: an older producer epoch is refused, and so is an
    older coordinator epoch than the producer's last marker (kept in the producer snapshot)."""
    import pytest

    from odradek.log import errors

    d = str(tmp_path / "t-0")
    fs = RealFileSystem()
    log = PartitionLog(fs, d)
    append(log, txn_batch(4, 2, 0, [b"x"]))
    with pytest.raises(errors.InvalidProducerEpochError):
        log.append(build_control_batch(True, 4, 1, 5, 1000), 1000)
    append(log, build_control_batch(True, 4, 2, 5, 1000))
    with pytest.raises(errors.TransactionCoordinatorFencedError):
        log.append(build_control_batch(False, 4, 2, 4, 1000), 1000)
    assert log.log_end_offset == 2  # nothing refused was written
    log.close()
    log2 = PartitionLog(fs, d)  # the coordinator epoch comes back from the producer snapshot
    with pytest.raises(errors.TransactionCoordinatorFencedError):
        log2.append(build_control_batch(False, 4, 2, 4, 1000), 1000)
    log2.append(build_control_batch(False, 4, 3, 5, 1000), 1000)  # a bumped epoch, the same coordinator
    assert log2.log_end_offset == 3
    log2.close()
    # a follower's copy, and a log rebuilt without its producer snapshots, know the epoch too
    leader = PartitionLog(fs, d)
    follower = PartitionLog(fs, str(tmp_path / "f-0"))
    follower.append_as_follower(leader.read(0, 1 << 20).read_bytes(), 1000)
    leader.close()
    with pytest.raises(errors.TransactionCoordinatorFencedError):
        follower.append(build_control_batch(False, 4, 3, 4, 1000), 1000)
    follower.close()
    for snap in (tmp_path / "t-0").glob("*.snapshot"):
        snap.unlink()
    rebuilt = PartitionLog(fs, d)
    with pytest.raises(errors.TransactionCoordinatorFencedError):
        rebuilt.append(build_control_batch(False, 4, 3, 4, 1000), 1000)
    rebuilt.close()
