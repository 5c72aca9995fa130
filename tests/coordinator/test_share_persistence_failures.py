"""share_persistence: a change is marked written only once its append went through. A failed
append (a full disk, a lost leadership) leaves the share-partition's state and the group's epoch
pending, and the next persist writes them; an acknowledgement is written before it changes the state
(as Kafka's SharePartition): a failed write rolls it back and is its error; nothing acknowledged is
silently dropped."""
from __future__ import annotations

import pytest

from odradek.coordinator.share_coordinator import ShareCoordinator, Snapshot
from odradek.coordinator.share_group_coordinator import ShareGroupCoordinator
from odradek.coordinator.share_partition import ACCEPT, ACQUIRED, RELEASE
from odradek.wire.errors import ErrorCode as E
from odradek.coordinator.share_persistence import SharePersistence

from txn_fakes import FailingLog

T = b"\1" * 16
TOPICS = {"t": (T, 1)}


def coordinator():
    return ShareGroupCoordinator(settings=lambda g: {"share.auto.offset.reset": "earliest"},
                                 offsets=lambda topic, p: (0, 10))


class LocalStates:
    """The share coordinator of the one __share_group_state partition, loaded from ``state_log``,
    written through directly (what the broker's persister does when it is this node)."""

    def __init__(self, state_log):
        self.store = ShareCoordinator(state_log, lambda: 1)
        self.store.partitions.loaded(self.store.partitions.elect(0, 0, 0))
        self.store.load(0, state_log.read(0))

    def write_state(self, key, start_offset, batches, now_ms, state_epoch=0, settle=None):
        if start_offset is None:
            self.store.delete(key, now_ms)
        else:
            self.store.write(key, Snapshot(start_offset, batches), now_ms)
        if settle is not None:
            settle(E.NONE, now_ms)


def persistence(sg, offsets_log, state_log):
    return SharePersistence(sg, offsets_log, LocalStates(state_log), offsets_partition_for=lambda gid: 0,
                            state_partitions=lambda: 1, ensure_state_topic=lambda: True)


def test_a_failed_state_append_stays_pending_and_is_written_next_time():
    offsets_log, state_log = FailingLog(), FailingLog()
    sg = coordinator()
    sp_writer = persistence(sg, offsets_log, state_log)
    sg.heartbeat("g", "m1", 0, ["t"], None, "c", "h", 0, TOPICS)
    sp = sg.share_partition("g", T, "t", 0)
    sp.acquire("m1", [(0, 4)], 10, 0, sg.share_settings("g"))
    sp_writer.persist(1)
    assert not sg.has_changes()
    assert sp.acknowledge("m1", 0, 2, [ACCEPT], 2, sg.share_settings("g")) == 0

    state_log.failing = True
    written = len(state_log.read(0))
    assert sp_writer.persist(3) == {("g", T, 0): E.UNKNOWN_SERVER_ERROR}  # (was raised: now the ack's error)
    assert sp.dirty and sg.has_changes() and len(state_log.read(0)) == written
    # rolled back: the records are the member's again, acknowledged again once the write goes through
    assert [sp.state_of(o) for o in range(3)] == [ACQUIRED] * 3 and sp.start_offset == 0

    state_log.failing = False
    assert sp.acknowledge("m1", 0, 2, [ACCEPT], 3, sg.share_settings("g")) == 0
    assert sp_writer.persist(4) == {}
    assert not sp.dirty and not sg.has_changes()
    # what a restart reads back: the acknowledgement is there
    sg2 = coordinator()
    reader = persistence(sg2, offsets_log, state_log)
    for _, key, value in offsets_log.read(0):
        reader.replay_group_record(key, value)
    stored = LocalStates(state_log).store.read(("g", T, 0), -1, 5)  # what the share-partition leader reads
    sg2.restore_partition(("g", T, 0), stored.start_offset, stored.batches)
    again = sg2.partitions[("g", T, 0)]
    assert again.start_offset == sp.start_offset == 3
    assert sg2.groups["g"].group_epoch == sg.groups["g"].group_epoch


def test_a_failed_group_epoch_append_stays_pending():
    offsets_log, state_log = FailingLog(), FailingLog()
    sg = coordinator()
    writer = persistence(sg, offsets_log, state_log)
    offsets_log.failing = True
    sg.heartbeat("g", "m1", 0, ["t"], None, "c", "h", 0, TOPICS)
    with pytest.raises(OSError):
        writer.persist(1)
    assert sg.groups["g"].persisted_epoch is None and sg.has_changes()
    offsets_log.failing = False
    writer.persist(2)
    assert sg.groups["g"].persisted_epoch == sg.groups["g"].group_epoch and not sg.has_changes()


def test_a_failed_release_is_rolled_back_and_a_lock_run_out_meanwhile_frees_the_records():
    """As Kafka's rollbackOrProcessStateUpdates: a released record is available only once its write
    went through; a failed write leaves it acquired by the member (acquirable again when its lock runs
    out, at once if it ran out while the write was on its way)."""
    offsets_log, state_log = FailingLog(), FailingLog()
    sg = coordinator()
    released = []
    writer = SharePersistence(sg, offsets_log, LocalStates(state_log), offsets_partition_for=lambda gid: 0,
                              state_partitions=lambda: 1, ensure_state_topic=lambda: True, released=released.append)
    sg.heartbeat("g", "m1", 0, ["t"], None, "c", "h", 0, TOPICS)
    sp = sg.share_partition("g", T, "t", 0)
    settings = sg.share_settings("g")
    sp.acquire("m1", [(0, 1)], 10, 0, settings)
    writer.persist(1)
    assert sp.acknowledge("m1", 0, 1, [RELEASE], 2, settings) == 0
    assert sp.acquire("m2", [(0, 1)], 10, 2, settings) == []  # not released before it is written
    state_log.failing = True
    assert writer.persist(3) == {("g", T, 0): E.UNKNOWN_SERVER_ERROR}
    assert sp.state_of(0) == ACQUIRED and sp.acquire("m2", [(0, 1)], 10, 3, settings) == [] and not released
    # the lock runs out while the next write is on its way and fails: the records are released at once
    assert sp.acknowledge("m1", 0, 1, [RELEASE], 4, settings) == 0
    late = settings.record_lock_duration_ms + 10
    assert sg.tick(late) == set()  # pending: not expired under the write
    assert writer.persist(late) == {("g", T, 0): E.UNKNOWN_SERVER_ERROR}
    assert released == [{("g", T, 0)}]
    assert sp.acquire("m2", [(0, 1)], 10, late, settings) == [(0, 1, 2)]
