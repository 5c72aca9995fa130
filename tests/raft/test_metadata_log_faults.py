"""The metadata log and quorum-state on the faulty filesystem (odradek.log.fs).

- A crash at every byte written while electing, appending, snapshotting and
  re-electing: the restarted node holds a committed prefix (everything acknowledged,
  nothing that was not proposed), for power loss ("lost", "torn") and kill -9 ("kept").
- A full disk (ENOSPC) at every byte of a write, then space returns: the failed
  append raised and left nothing, later appends succeed, and a restart recovers
  exactly the acknowledged ones (issue 27: a torn batch is never built upon).
- The issue's reproduction with metadata records: DeleteTopics fails on a full disk,
  then succeeds, then CreateTopics; after a restart both changes are there.
"""

from __future__ import annotations

import errno

import pytest

from odradek.controller.image import MetadataDelta, MetadataImage
from odradek.controller.metadata_log import MetadataLog
from odradek.log.fs import FaultyFileSystem, SimulatedCrash
from odradek.raft.file_storage import FileStorage
from odradek.raft.local_log import LocalRaftLog
from odradek.raft.node import RaftNode
from odradek.wire.messages.partition_record import PartitionRecord
from odradek.wire.messages.remove_topic_record import RemoveTopicRecord
from odradek.wire.messages.topic_record import TopicRecord

DATA = "/data"
VALUES = [b"v%02d" % i + b"x" * i for i in range(6)]


def new_fs() -> FaultyFileSystem:
    fs = FaultyFileSystem(seed=7)
    fs.makedirs(DATA)
    return fs


def state(log: LocalRaftLog) -> list[bytes]:
    """The state machine a restarted node rebuilds: its snapshot, then the log."""
    snap = log.snapshot_data
    out = [v for v in snap.split(b",") if v] if snap else []
    return out + [v for _, v in log.replay()]


def workload(fs: FaultyFileSystem, acked: list[bytes]) -> None:
    """Election, appends, a snapshot, more appends; a restart (new epoch: quorum-state
    and LeaderChange again), a second snapshot and a last append."""
    log = LocalRaftLog(DATA, 1, fs)
    applied: list[bytes] = []
    for i, v in enumerate(VALUES):
        log.append([v])
        acked.append(v)
        applied.append(v)
        if i in (1, 4):
            log.snapshot(b",".join(applied))
        if i == 2:
            log = LocalRaftLog(DATA, 1, fs)
            applied = state(log)


def crash_at_every_byte(run, expected: list[bytes], mode: str) -> None:
    """Crash ``run(fs, acked)`` after each byte it writes, restart the disk in ``mode`` and load:
    a prefix of ``expected`` holding every acknowledged value, a leader that takes writes again."""
    fs = new_fs()
    run(fs, [])
    for n in range(fs.bytes_written + 1):
        fs = new_fs()
        fs.crash_after_bytes = n
        acked: list[bytes] = []
        try:
            run(fs, acked)
        except SimulatedCrash:
            pass
        log = LocalRaftLog(DATA, 1, fs.restart(mode, seed=n))
        got = state(log)
        assert got == expected[:len(got)], (n, got)
        assert len(got) >= len(acked), (n, got, acked)
        assert log.node.is_leader
        log.append([b"after"])  # the restarted node takes writes again


@pytest.mark.parametrize("mode", ["lost", "kept", "torn"])
def test_crash_at_every_byte_recovers_a_committed_prefix(mode):
    crash_at_every_byte(workload, VALUES, mode)


def test_crash_points_cover_snapshot_and_quorum_state_writes():
    fs = new_fs()
    workload(fs, [])
    names = set(fs.listdir(f"{DATA}/__cluster_metadata-0"))
    assert "quorum-state" in names and any(n.endswith(".checkpoint") for n in names)
    assert not any(n.endswith(".tmp") for n in names)


def disk_full_round(n: int | None, mode: str) -> int:
    """Appends and a snapshot on a disk that fills after n more bytes, then space
    returns; checks a restart recovers exactly what was acknowledged. Returns the
    bytes the full-disk phase wrote."""
    fs = new_fs()
    log = LocalRaftLog(DATA, 1, fs)
    acked = [VALUES[0]]
    log.append([VALUES[0]])
    start = fs.bytes_written
    fs.full_after_bytes = None if n is None else start + n
    failures = 0
    for v in VALUES[1:3]:
        try:
            log.append([v])
            acked.append(v)
        except OSError as e:
            assert e.errno == errno.ENOSPC
            failures += 1
    try:
        log.snapshot(b",".join(acked))
    except OSError as e:
        assert e.errno == errno.ENOSPC
        failures += 1
    phase = fs.bytes_written - start
    assert failures or n is None or n >= phase
    fs.full_after_bytes = None  # space returns
    for v in VALUES[3:]:
        log.append([v])
        acked.append(v)
    got = state(LocalRaftLog(DATA, 1, fs.restart(mode)))
    assert got == acked, (n, got, acked)
    return phase


@pytest.mark.parametrize("mode", ["lost", "kept"])
def test_disk_full_at_every_byte_then_space_returns(mode):
    phase = disk_full_round(None, mode)
    for n in range(phase + 1):
        disk_full_round(n, mode)


def test_failed_fsync_rolls_back_and_later_writes_succeed():
    fs = new_fs()
    log = LocalRaftLog(DATA, 1, fs)
    log.append([b"a"])
    fs.fsync_errno = errno.EIO
    with pytest.raises(OSError):
        log.append([b"b"])
    with pytest.raises(OSError):  # still failing: refused, nothing written after a torn batch
        log.append([b"c"])
    fs.fsync_errno = None
    log.append([b"d"])
    for mode in ("lost", "kept"):
        assert state(LocalRaftLog(DATA, 1, fs.restart(mode))) == [b"a", b"d"]


TOPIC_ID = b"\x01" * 16
NEW_ID = b"\x02" * 16


def topics(fs) -> set[str]:
    log = MetadataLog(DATA, 1, fs)
    delta = MetadataDelta(MetadataImage())
    for offset, rec in log.replay():
        delta.replay(rec, offset)
    return set(delta.apply().topics)


def test_issue27_delete_fails_on_full_disk_then_delete_and_create_survive_restart():
    n = 0
    while True:  # the disk fills at every byte of the DeleteTopics batch
        fs = new_fs()
        log = MetadataLog(DATA, 1, fs)
        log.append([TopicRecord(name="fill", topic_id=TOPIC_ID),
                    PartitionRecord(partition_id=0, topic_id=TOPIC_ID, replicas=[1], isr=[1],
                                    removing_replicas=[], adding_replicas=[], leader=1,
                                    leader_epoch=0, partition_epoch=0)], now_ms=1)
        fs.full_after_bytes = fs.bytes_written + n
        try:
            log.append([RemoveTopicRecord(topic_id=TOPIC_ID)], now_ms=2)
            break  # n is past the batch: every write point was tried
        except OSError as e:
            assert e.errno == errno.ENOSPC
        fs.full_after_bytes = None
        log.append([RemoveTopicRecord(topic_id=TOPIC_ID)], now_ms=3)
        log.append([TopicRecord(name="newtopic2", topic_id=NEW_ID)], now_ms=4)
        for mode in ("lost", "kept"):
            assert topics(fs.restart(mode)) == {"newtopic2"}, (n, mode)
        n += 1
    assert n > 50


def test_issue27_through_the_controller_a_full_disk_loses_no_acknowledged_change():
    """DeleteTopics on a full disk fails (nothing written, the image unchanged); space
    returns; DeleteTopics and CreateTopics succeed; after a restart both are there."""
    from odradek.controller.controller import Controller, CreateTopicSpec
    from odradek.controller.image import BrokerImage

    def start(fs):
        c = Controller(DATA, 1, {}, 0, fs=fs)
        c.start(BrokerImage(1, "127.0.0.1", 9092), 0)
        return c

    fs = new_fs()
    c = start(fs)
    assert c.create_topics([CreateTopicSpec("fill", 3, 1)], False, 1)[0].error_code == 0
    fs.full_after_bytes = fs.bytes_written + 10
    with pytest.raises(OSError):
        c.delete_topics(["fill"], now_ms=2)
    assert "fill" in c.image.topics
    fs.full_after_bytes = None
    c.delete_topics(["fill"], now_ms=3)
    assert c.create_topics([CreateTopicSpec("newtopic2", 1, 1)], False, 4)[0].error_code == 0
    for mode in ("lost", "kept"):
        c2 = start(fs.restart(mode))
        assert set(c2.image.topics) == {"newtopic2"}, mode


def test_a_ready_whose_writes_failed_is_offered_again():
    """The core keeps quorum-state, entries and a snapshot pending until advance(), so a
    driver whose persist step raised (and did not advance) is asked to persist them again."""
    from odradek.raft.log import MemoryStorage

    node = RaftNode(1, [1])
    failed = node.ready()  # persisting this one "failed": no advance
    assert failed.quorum_state is not None and failed.entries
    again = node.ready()
    assert again.quorum_state == failed.quorum_state and again.entries == failed.entries
    disk = MemoryStorage()
    while node.has_ready():
        rd = node.ready()
        disk.apply(rd)
        node.advance(rd)
    assert disk.quorum_state.leader_id == 1 and node.is_leader
    node.propose([b"a"])
    while node.has_ready():
        rd = node.ready()
        disk.apply(rd)
        node.advance(rd)
    node.snapshot(node.applied, b"image")
    first = node.ready()
    assert first.snapshot is not None and first.delete_log_before == node.applied
    second = node.ready()
    assert second.snapshot == first.snapshot and second.delete_log_before == first.delete_log_before
    disk.apply(second)
    node.advance(second)
    assert not node.has_ready() and disk.snapshot.data == b"image"



def drive(node, storage) -> None:
    """As the network driver: a Ready whose apply raised is not advanced (offered again)."""
    while node.has_ready():
        rd = node.ready()
        storage.apply(rd)
        node.advance(rd)


def reopened(fs) -> tuple[list[int], int]:
    """The batches' base offsets and the end offset a node loading this disk sees."""
    state = FileStorage(f"{DATA}/meta", fs).load()
    return [b.base_offset for b in state.batches], RaftNode(1, [1], state).log.end_offset


def entry_with_a_snapshot(fs, fail) -> tuple[list[int], int]:
    """One voter; a proposed entry and a snapshot in the same Ready, whose write `fail` makes
    fail after the entry is fsynced; then the fault clears, the Ready is retried and one more
    entry appended."""
    storage = FileStorage(f"{DATA}/meta", fs)
    node = RaftNode(1, [1], storage.load())
    drive(node, storage)
    for v in (b"a", b"b"):
        node.propose([v])
        drive(node, storage)
    node.propose([b"c"])
    node.snapshot(node.applied - 1, b"image")  # keeps the batch of b: entries stay on disk
    if fail is not None:
        fail()
        with pytest.raises(OSError):
            drive(node, storage)
        fs.clear_write_faults()
    drive(node, storage)
    node.propose([b"d"])
    drive(node, storage)
    return reopened(fs)


@pytest.mark.parametrize("err", [errno.ENOSPC, errno.EIO])
@pytest.mark.parametrize("tmp", [".checkpoint.tmp", ".log.tmp"])  # the snapshot, the delete step
def test_a_ready_retried_after_its_snapshot_or_delete_step_failed_writes_its_entries_once(err, tmp):
    """Review finding: the entries of a Ready were fsynced, its checkpoint write failed, and
    the retried Ready appended them a second time (batches [2, 3, 3, 4] after a restart).
    Now the disk holds exactly what it holds without the fault."""
    want = entry_with_a_snapshot(new_fs(), None)
    assert want == ([2, 3, 4], 6)
    fs = new_fs()
    got = entry_with_a_snapshot(fs, lambda: fs.fail_writes(err, match=lambda p: p.endswith(tmp)))
    assert got == want
    for mode in ("lost", "kept"):
        assert reopened(fs.restart(mode)) == want, mode


def test_a_snapshot_restore_whose_ready_failed_is_offered_again():
    """A node starting from a snapshot (or installing a fetched one) hands the state machine
    snapshot_to_apply; a driver whose persist step of that Ready raised does not act on it
    and must be given the restore again, or its state machine misses the snapshot."""
    from odradek.raft.types import Snapshot, SnapshotId, StorageState

    snap = Snapshot(SnapshotId(5, 1), b"image")
    node = RaftNode(1, [1, 2, 3], StorageState(None, snap, []))
    failed = node.ready()
    assert failed.snapshot_to_apply == snap
    again = node.ready()
    assert again.snapshot_to_apply == snap
    node.advance(again)
    assert node.ready().snapshot_to_apply is None


FILE_KINDS = {
    "metadata-log": lambda p: p.endswith(".log") or p.endswith(".log.tmp"),
    "snapshot": lambda p: ".checkpoint" in p,
    "quorum-state": lambda p: "quorum-state" in p,
}


def faulty_workload(fs: FaultyFileSystem, err: int) -> list[bytes]:
    """Appends, snapshots and restarts (each a new epoch: quorum-state and LeaderChange) while
    writes fail; returns the values whose append was acknowledged. A failed snapshot is not
    acknowledged either; the next call after a failure reloads the log from the disk."""
    acked: list[bytes] = []
    log = None
    for i in range(12):
        try:
            if log is None or i % 5 == 4:
                log = LocalRaftLog(DATA, 1, fs)  # a restart
            v = b"w%02d" % i
            log.append([v])
            acked.append(v)
            if i % 4 == 2:
                log.snapshot(b",".join(state(LocalRaftLog(DATA, 1, fs.restart("kept")))))
        except OSError as e:
            assert e.errno == err
        if fs.failed_writes >= 3:
            fs.clear_write_faults()  # space came back / the disk was replaced
    return acked


@pytest.mark.parametrize("kind", sorted(FILE_KINDS))
@pytest.mark.parametrize("err", [errno.ENOSPC, errno.EIO], ids=["ENOSPC", "EIO"])
def test_a_failed_write_of_each_file_kind_loses_no_committed_record(err, kind):
    """ENOSPC (until space returns) or EIO (once) at every write of the metadata log, of a
    snapshot and of quorum-state in turn: a restart recovers exactly the acknowledged records
    (power loss and kill -9), the node is leader again and takes writes."""
    at = 0
    while True:
        fs = new_fs()
        fs.fail_writes(err, after=at, match=FILE_KINDS[kind], sticky=err == errno.ENOSPC)
        acked = faulty_workload(fs, err)
        if not fs.failed_writes:
            break  # past the last write of that kind
        fs.clear_write_faults()
        for mode in ("lost", "kept"):
            log = LocalRaftLog(DATA, 1, fs.restart(mode))
            assert state(log) == acked, (at, mode)
            log.append([b"after"])
            assert state(LocalRaftLog(DATA, 1, log.storage.fs.restart("lost")))[-1] == b"after"
        at += 1
    assert at >= 3
