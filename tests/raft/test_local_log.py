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
