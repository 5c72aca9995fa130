"""The transaction coordinator follows its __transaction_state partitions (coordinator/partition_loading.py):
COORDINATOR_LOAD_IN_PROGRESS while a partition loads, NOT_COORDINATOR once unloaded, its ids replayed
from the log on the next load, a transaction left in PrepareCommit finished on load, and the markers
carrying the partition's leader epoch as coordinator epoch (Kafka's coordinatorEpoch)."""
from __future__ import annotations

from odradek.coordinator.partition_loading import CoordinatorPartitions
from odradek.coordinator.txn_coordinator import TxnCoordinator
from odradek.coordinator.txn_records import TxnState as S
from odradek.wire.errors import ErrorCode as E

from txn_fakes import MemLog


class EpochMarkers:
    def __init__(self):
        self.written = []

    def __call__(self, topic, p, pid, epoch, commit, coord_epoch, now_ms):
        self.written.append((topic, p, pid, commit, coord_epoch))
        return 0


def make(log, markers=None):
    pids = iter(range(1000, 2000))
    return TxnCoordinator(log=log, allocate_producer_id=lambda: next(pids), write_marker=markers or EpochMarkers(),
                          partitions=CoordinatorPartitions())


def elect_and_load(c: TxnCoordinator, log: MemLog, partition: int, epoch: int, now_ms: int) -> None:
    load = c.runtime.partitions.elect(partition, epoch, now_ms)
    c.load_records(partition, log.read(partition), now_ms)
    assert c.runtime.partitions.loaded(load)


def test_load_in_progress_then_loaded_then_unloaded():
    log = MemLog()
    c = make(log)
    p = c.partition_for("a")
    assert c.init_producer_id("a", 60000, now_ms=1) == (E.NOT_COORDINATOR, -1, -1)
    load = c.runtime.partitions.elect(p, 3, 1)
    assert c.init_producer_id("a", 60000, now_ms=1) == (E.COORDINATOR_LOAD_IN_PROGRESS, -1, -1)
    assert c.add_partitions("a", 1000, 0, [("t", 0)], 1) == E.COORDINATOR_LOAD_IN_PROGRESS
    c.load_records(p, log.read(p), 2)
    c.runtime.partitions.loaded(load)
    assert c.init_producer_id("a", 60000, now_ms=2) == (E.NONE, 1000, 0)
    assert c.add_partitions("a", 1000, 0, [("t", 0)], 3) == E.NONE
    assert c.runtime.partitions.resign(p, 4)
    c.unload_partition(p)
    assert c.describe("a") is None and c.end_txn("a", 1000, 0, True, 4) == E.NOT_COORDINATOR


def test_a_new_coordinator_replays_the_ids_and_finishes_a_prepared_commit():
    log = MemLog()
    old = make(log)
    p = old.partition_for("a")
    elect_and_load(old, log, p, 1, 0)
    assert old.init_producer_id("a", 60000, now_ms=1) == (E.NONE, 1000, 0)
    assert old.add_partitions("a", 1000, 0, [("t", 0)], 2) == E.NONE
    prepared = old.describe("a")
    old._transition(prepared, 3, state=S.PREPARE_COMMIT)  # the old coordinator dies before its markers
    markers = EpochMarkers()
    new = make(log, markers)  # another broker, now leader of the partition at epoch 2
    elect_and_load(new, log, p, 2, 10)
    m = new.describe("a")
    assert m is not None and m.state is S.COMPLETE_COMMIT and m.producer_id == 1000
    assert markers.written == [("t", 0, 1000, True, 2)]  # the marker carries the leader epoch



def test_the_coordinator_epoch_follows_the_partition_tracker():
    """One source of the coordinator epoch (the marker channel asks coordinator_epoch_of too): None
    while the id's partition is not coordinated here, its leader epoch from the election on (loading
    included), the newer epoch of a leadership kept, None again after the resignation."""
    log = MemLog()
    c = make(log)
    p = c.partition_for("a")
    assert c.coordinator_epoch_of("a") is None
    load = c.runtime.partitions.elect(p, 3, 1)
    assert c.coordinator_epoch_of("a") == 3  # loading: the markers of transactions finished on load
    c.load_records(p, log.read(p), 2)
    assert c.runtime.partitions.loaded(load) and c.coordinator_epoch_of("a") == 3
    assert c.runtime.partitions.elect(p, 5, 3) is None and c.coordinator_epoch_of("a") == 5
    assert c.runtime.partitions.resign(p, 6)
    assert c.coordinator_epoch_of("a") is None
    assert TxnCoordinator(coordinator_epoch=7).coordinator_epoch_of("a") == 7  # no leadership tracking
