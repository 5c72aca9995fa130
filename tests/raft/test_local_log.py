"""The single-voter Raft log on disk: restart, torn tail, quorum-state file."""

import json
import os

from odradek.raft.local_log import DIR_NAME, LocalRaftLog


def test_single_voter_appends_and_replays_after_restart(tmp_path):
    log = LocalRaftLog(str(tmp_path), 1)
    assert log.next_offset == 0
    a = log.append([b"a", b"b"])
    b = log.append([b"c"])
    assert (a, b) == (2, 3)  # offset 0 is epoch 1's LeaderChange record
    log.close()
    qs = json.loads(open(os.path.join(tmp_path, DIR_NAME, "quorum-state")).read())
    assert qs["leaderId"] == 1 and qs["leaderEpoch"] == 1 and qs["data_version"] == 0

    log2 = LocalRaftLog(str(tmp_path), 1)
    assert list(log2.replay()) == [(1, b"a"), (2, b"b"), (3, b"c")]
    assert log2.node.epoch == 2  # a restarted leader never leads its old epoch again
    assert log2.append([b"d"]) == 5
    assert list(LocalRaftLog(str(tmp_path), 1).replay())[-1] == (5, b"d")


def test_torn_tail_is_cut(tmp_path):
    log = LocalRaftLog(str(tmp_path), 1)
    log.append([b"a"])
    log.append([b"b"])
    path = os.path.join(tmp_path, DIR_NAME, "00000000000000000000.log")
    size = os.path.getsize(path)
    with open(path, "r+b") as f:
        f.truncate(size - 5)
    log2 = LocalRaftLog(str(tmp_path), 1)
    assert [v for _, v in log2.replay()] == [b"a"]


def test_snapshot_drops_log_and_survives_restart(tmp_path):
    log = LocalRaftLog(str(tmp_path), 1)
    log.append([b"a"])
    log.append([b"b"])
    log.snapshot(b"image-through-b")
    log.append([b"c"])
    log2 = LocalRaftLog(str(tmp_path), 1)
    assert log2.snapshot_data == b"image-through-b"
    assert [v for _, v in log2.replay()] == [b"c"]
    assert log2.node.log.start_offset == 3


def test_applied_batches_keep_only_their_offsets_and_epoch(tmp_path):
    """The single voter's log holds every batch until a snapshot (issue 28: at 100,000 partitions
    their values and bytes were ~19 MB held beside the image built from them); once applied, a
    batch keeps its offsets and epoch, and a restart reads the values back from the file."""
    log = LocalRaftLog(str(tmp_path), 1)
    log.append([b"a", b"b"])
    last = log.begin_append([b"c"])
    log.pending_sync()
    log.end_append()
    assert last == 3
    held = log.node.log.batches
    assert [(b.base_offset, b.next_offset, b.epoch) for b in held] == [(0, 1, 1), (1, 3, 1), (3, 4, 1)]
    assert all(b.raw is None and b._records is None for b in held)
    log.close()

    log2 = LocalRaftLog(str(tmp_path), 1)
    assert [(b.raw is None, b._records is None) for b in log2.node.log.batches[:3]] == [(True, True)] + [(False, False)] * 2
    assert list(log2.replay()) == [(1, b"a"), (2, b"b"), (3, b"c")]
    assert all(b.raw is None for b in log2.node.log.batches)  # replayed, and the new LeaderChange
    assert log2.append([b"d"]) == 5 and log2.node.log.end_offset == 6
    assert [v for _, v in LocalRaftLog(str(tmp_path), 1).replay()] == [b"a", b"b", b"c", b"d"]


def test_a_batch_that_forgot_its_values_decodes_them_from_its_bytes():
    from odradek.raft import codec

    b = codec.data_batch(7, 3, [b"x", b"", b"y" * 300], timestamp=5)
    twin = codec.decode_batches(b.raw)[0]
    b.forget_records()
    assert b._records is None and b.records == (b"x", b"", b"y" * 300) and b == twin
    assert (b.base_offset, b.last_offset, b.next_offset, b.epoch, b.control) == (7, 9, 10, 3, False)
