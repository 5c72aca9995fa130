"""broker/share_persister.py's InitializeShareGroupState for the group coordinator: at once when this
node is the key's share coordinator, else sent (and the outcome reported to the group); the
share-partition leader takes the state epoch it reads and writes with it; a write fenced by a newer
state epoch drops the cached share-partition (read again at the next fetch), as Kafka. Deleting
the group deletes the state of its initialized and initializing share-partitions at their share
coordinators (DeleteShareGroupState to the remote ones)."""
from __future__ import annotations

import asyncio


from odradek.api_handlers import write_share_group_state
from odradek.coordinator.share_partition import ACCEPT, ACKNOWLEDGED
from odradek.coordinator.share_state import partition_for
from odradek.wire.errors import ErrorCode as E
from odradek.wire.messages import delete_share_group_state_response as dr
from odradek.wire.messages import initialize_share_group_state_response as ir
from tests.broker.share_persister_sim import _Ctx, _States
from tests.broker.test_share_persister import ME, OTHER, TID, Part, _settle, setup

HERE = next(p for p in range(20) if partition_for("g", TID, p, 2) == 0)   # state partition 0: this node
THERE = next(p for p in range(20) if partition_for("g", TID, p, 2) == 1)  # 1: broker OTHER


def initialized(request):
    p = request.topics[0].partitions[0]
    return ir.InitializeShareGroupStateResponse(results=[ir.InitializeStateResult(
        topic_id=request.topics[0].topic_id, partitions=[ir.PartitionResult(partition=p.partition, error_code=0)])])


def test_initialize_here_at_once_and_there_by_request_then_reported():
    async def run():
        image, store, shares, persister, persistence, calls, pokes = setup(initialized, [2])
        image.topics["t"].partitions = {HERE: Part(ME), THERE: Part(OTHER)}
        store.partitions.loaded(store.partitions.elect(0, 1, 0))
        shares.initialize_state, shares.stored_state = persister.initialize, persister.stored_state
        shares.settings = lambda g: {"share.auto.offset.reset": "earliest"}
        shares.offsets = lambda t, p: (0, 10)
        topics = {"t": (TID, max(HERE, THERE) + 1)}
        r = shares.heartbeat("g", "m1", 0, ["t"], None, "c", "h", 0, topics)
        g = shares.groups["g"]
        assert HERE in r.assignment[TID] and THERE not in r.assignment[TID]  # initialized here at once
        s = store.summary(("g", TID, HERE))
        assert (s.start_offset, s.state_epoch) == (-1, 2)  # start offset -1, state epoch = group epoch (Kafka: 2)
        assert THERE in g.initializing[TID][0]
        calls.release.set()
        await _settle()
        assert (OTHER, "InitializeShareGroupStateRequest") in calls.sent
        assert THERE in g.initialized[TID] and TID not in g.initializing
        r = shares.heartbeat("g", "m1", 2, None, None, "c", "h", 10, topics)
        assert r.member_epoch == 3 and THERE in r.assignment[TID]  # assigned at the next heartbeat
        await persister.close()

    asyncio.run(run())


def test_the_leader_writes_at_the_state_epoch_it_read_and_a_newer_epoch_fences_it():
    """In a cluster an acknowledgement's write goes as WriteShareGroupState even to this node's share
    coordinator (as Kafka's persister sends it), so that it commits once answered."""
    stores = []

    def answer(request):
        if type(request).__name__ == "WriteShareGroupStateRequest":
            return write_share_group_state.handle(_Ctx(_States(stores[0]), 2), request)
        return initialized(request)

    async def run():
        image, store, shares, persister, persistence, calls, pokes = setup(answer, [1])
        stores.append(store)
        calls.release.set()
        store.partitions.loaded(store.partitions.elect(0, 1, 0))
        shares.initialize_state, shares.stored_state = persister.initialize, persister.stored_state
        shares.settings = lambda g: {"share.auto.offset.reset": "earliest"}
        shares.offsets = lambda t, p: (0, 10)
        shares.heartbeat("g", "m1", 0, ["t"], None, "c", "h", 0, {"t": (TID, 1)})
        key = ("g", TID, 0)
        sp = shares.share_partition("g", TID, "t", 0)  # the first ShareFetch: reads start -1, epoch 2
        assert (sp.start_offset, sp.state_epoch, sp.dirty) == (0, 2, False)
        sp.acquire("m1", [(0, 4)], 10, 0, shares.share_settings("g"))
        assert sp.acknowledge("m1", 0, 1, [ACCEPT], 0, shares.share_settings("g")) == E.NONE
        persister.created.clear()
        persistence.persist(1)
        (w,) = persister.created
        await _settle()
        assert (ME, "WriteShareGroupStateRequest") in calls.sent
        assert w.error == E.NONE and sp.start_offset == 2  # committed once answered
        s = store.summary(key)
        assert (s.start_offset, s.state_epoch, s.batches[0]) == (0, 2, (0, 1, 2, 1))
        store.initialize(key, 5, 3, 2)  # AlterShareGroupOffsets elsewhere: a newer state epoch
        assert sp.acknowledge("m1", 2, 2, [ACCEPT], 3, shares.share_settings("g")) == E.NONE
        persister.created.clear()
        persistence.persist(4)
        (w,) = persister.created
        await _settle()
        assert w.error == E.FENCED_STATE_EPOCH and key not in shares.partitions
        assert sp.state_of(2) != ACKNOWLEDGED  # rolled back
        assert store.summary(key).start_offset == 3  # not overwritten
        again = shares.share_partition("g", TID, "t", 0)
        assert (again.start_offset, again.state_epoch) == (3, 5)
        await persister.close()

    asyncio.run(run())


def test_a_single_node_whose_share_coordinator_is_not_ready_reports_failure():
    async def run():
        image, store, shares, persister, persistence, calls, pokes = setup(initialized, [1])
        persister._remote = False
        shares.initialize_state = persister.initialize
        r = shares.heartbeat("g", "m1", 0, ["t"], None, "c", "h", 0, {"t": (TID, 1)})
        assert r.assignment == {} and shares.groups["g"].initializing == {}  # asked again next heartbeat
        store.partitions.loaded(store.partitions.elect(0, 1, 0))
        r = shares.heartbeat("g", "m1", 2, None, None, "c", "h", 10, {"t": (TID, 1)})
        assert r.assignment == {TID: [0]} and calls.sent == []
        await persister.close()

    asyncio.run(run())


def test_deleting_the_group_deletes_the_state_here_and_at_the_remote_share_coordinator():
    def answer(request):
        p = request.topics[0].partitions[0]
        if type(request).__name__ == "DeleteShareGroupStateRequest":
            return dr.DeleteShareGroupStateResponse(results=[dr.DeleteStateResult(
                topic_id=request.topics[0].topic_id, partitions=[dr.PartitionResult(partition=p.partition,
                                                                                    error_code=0)])])
        return initialized(request)

    async def run():
        image, store, shares, persister, persistence, calls, pokes = setup(answer, [2])
        image.topics["t"].partitions = {HERE: Part(ME), THERE: Part(OTHER)}
        store.partitions.loaded(store.partitions.elect(0, 1, 0))
        shares.initialize_state = persister.initialize
        topics = {"t": (TID, max(HERE, THERE) + 1)}
        shares.heartbeat("g", "m1", 0, ["t"], None, "c", "h", 0, topics)
        assert ("g", TID, HERE) in store.states[0]
        shares.heartbeat("g", "m1", -1, None, None, "c", "h", 1, topics)  # leaves: the group is empty
        assert THERE in shares.groups["g"].initializing[TID][0]  # its initialization still on its way
        assert shares.delete_group("g") == E.NONE
        persistence.persist(2)
        assert ("g", TID, HERE) not in store.states[0]  # a tombstone here
        calls.release.set()
        await _settle()
        deletes = [c for c in calls.sent if c == (OTHER, "DeleteShareGroupStateRequest")]
        assert len(deletes) == 1 and shares.changes()[1] == []  # (the group's own records: no group coordinator here)
        await persister.close()

    asyncio.run(run())
