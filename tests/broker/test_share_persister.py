"""broker/share_persister.py with a fake metadata image, state log and inter-broker calls:
acknowledged share state is answered only once stored, also while __share_group_state does not
exist yet; DescribeShareGroupOffsets' summaries come from the share coordinator and the leaders."""
from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from odradek.broker.share_persister import SharePersister
from odradek.coordinator.share_coordinator import ShareCoordinator, Snapshot
from odradek.coordinator.share_group_coordinator import ShareGroupCoordinator
from odradek.coordinator.share_partition import SharePartition
from odradek.coordinator.share_persistence import SharePersistence
from odradek.wire.errors import ErrorCode as E
from odradek.wire.messages import list_offsets_response as lo
from odradek.wire.messages import read_share_group_state_summary_response as rs
from odradek.wire.messages import write_share_group_state_response as ws
from tests.coordinator.memory_state_log import MemoryStateLog

TID = b"\x01" * 16
KEY = ("g", TID, 0)
ME, OTHER = 1, 2


@dataclass
class Part:
    leader: int


@dataclass
class Topic:
    name: str
    topic_id: bytes
    partitions: dict


@dataclass
class Broker:
    fenced: bool = False


@dataclass
class Image:
    topics: dict = field(default_factory=dict)
    brokers: dict = field(default_factory=lambda: {ME: Broker(), OTHER: Broker()})

    @property
    def topics_by_id(self):
        return {t.topic_id: t for t in self.topics.values()}


class Calls:
    """The other brokers: each request waits until ``release`` (its write committed there)."""

    def __init__(self, answer):
        self.answer = answer
        self.sent = []
        self.release = asyncio.Event()

    async def call(self, broker_id, request, max_version, min_version=0):
        self.sent.append((broker_id, type(request).__name__))
        await self.release.wait()
        return self.answer(request)

    def close(self):
        pass


def setup(answer, state_partitions):
    image = Image({"t": Topic("t", TID, {0: Part(ME)}),
                   "__share_group_state": Topic("__share_group_state", b"\x02" * 16, {0: Part(ME), 1: Part(OTHER)})})
    store = ShareCoordinator(MemoryStateLog(), lambda: state_partitions[0])
    shares = ShareGroupCoordinator()
    pokes = []
    calls = Calls(answer)
    persister = SharePersister(ME, lambda: image, store, shares, lambda t, p: 0, pokes.append, lambda: 0,
                               remote=True, client=calls, latest_offset=lambda t, p: 10 if image.topics[t].partitions[p].leader == ME else None)
    persistence = SharePersistence(shares, MemoryStateLog(), persister, lambda g: None, lambda: state_partitions[0],
                                   lambda: state_partitions[0] is not None)
    return image, store, shares, persister, persistence, calls, pokes


def written(request):
    return ws.WriteShareGroupStateResponse(results=[ws.WriteStateResult(topic_id=TID, partitions=[
        ws.PartitionResult(partition=0, error_code=0)])])


async def _settle():
    for _ in range(5):
        await asyncio.sleep(0)


def test_an_acknowledgement_waits_for_share_group_state_to_exist_and_its_write_to_be_committed():
    async def run():
        state_partitions = [None]
        image, store, shares, persister, persistence, calls, pokes = setup(written, state_partitions)
        shares.partitions[KEY] = SharePartition(0)  # changed: to be written
        persister.created.clear()
        persistence.persist(0)  # no __share_group_state yet
        (w,) = persister.created
        assert w.share_key == KEY and w.error is None
        persister.created.clear()
        persistence.persist(1)  # the tick, still without the topic: the same wait
        assert persister.created == [w]
        await _settle()
        assert w.error is None and calls.sent == []

        state_partitions[0] = 1  # the topic exists and this node coordinates its partition
        store.partitions.loaded(store.partitions.elect(0, 1, 0))
        assert store.error(KEY) == E.NONE
        persister.created.clear()
        persistence.persist(2)
        assert persister.created == [w]
        await _settle()
        assert calls.sent == [(ME, "WriteShareGroupStateRequest")]  # to itself: answered once committed
        assert w.error is None and w.key not in pokes
        calls.release.set()
        await _settle()
        assert w.error == E.NONE and w.key in pokes
        assert not shares.partitions[KEY].dirty
        await persister.close()

    asyncio.run(run())


def test_a_waiting_acknowledgement_of_a_partition_led_elsewhere_now_fails():
    async def run():
        state_partitions = [None]
        image, store, shares, persister, persistence, calls, pokes = setup(written, state_partitions)
        shares.partitions[KEY] = SharePartition(0)
        persistence.persist(0)
        (w,) = persister.created
        persister.leadership_changed({}, {("t", 0): None})
        assert w.error == E.NOT_LEADER_OR_FOLLOWER and w.key in pokes
        await persister.close()

    asyncio.run(run())


def test_summaries_from_the_local_and_a_remote_share_coordinator_and_leader():
    from odradek.coordinator.share_state import partition_for

    here = next(p for p in range(20) if partition_for("g", TID, p, 2) == 0)   # state partition 0: here
    there = next(p for p in range(20) if partition_for("g", TID, p, 2) == 1)  # 1: on broker OTHER

    def answer(request):
        if type(request).__name__ == "ListOffsetsRequest":
            return lo.ListOffsetsResponse(topics=[lo.ListOffsetsTopicResponse(name="t", partitions=[
                lo.ListOffsetsPartitionResponse(partition_index=there, error_code=0, offset=30)])])
        return rs.ReadShareGroupStateSummaryResponse(results=[rs.ReadStateSummaryResult(topic_id=TID, partitions=[
            rs.PartitionResult(partition=there, error_code=0, state_epoch=1, leader_epoch=4, start_offset=20,
                               delivery_complete_count=2)])])

    async def run():
        image, store, shares, persister, persistence, calls, pokes = setup(answer, [2])
        image.topics["t"].partitions = {here: Part(ME), there: Part(OTHER)}
        store.partitions.loaded(store.partitions.elect(0, 1, 0))
        store.write(("g", TID, here), Snapshot(5, [(5, 6, 2, 1), (7, 7, 1, 1)], 0, 3), 0)
        out = persister.read_summaries("g", [(TID, "t", here), (TID, "t", there)])
        s = out.results[(TID, here)]
        assert (s.error, s.start_offset, s.leader_epoch, s.delivery_complete_count) == (E.NONE, 5, 3, 2)
        assert out.ends[(TID, here)] == (E.NONE, 10)  # its high watermark here
        assert out.pending == 2 and (TID, there) not in out.results
        calls.release.set()
        await _settle()
        s = out.results[(TID, there)]
        assert (s.error, s.start_offset, s.leader_epoch, s.delivery_complete_count) == (E.NONE, 20, 4, 2)
        assert out.ends[(TID, there)] == (E.NONE, 30) and out.pending == 0 and out.key in pokes
        assert sorted(calls.sent) == [(OTHER, "ListOffsetsRequest"), (OTHER, "ReadShareGroupStateSummaryRequest")]
        await persister.close()

    asyncio.run(run())


def test_a_latest_offset_is_asked_again_while_the_leader_does_not_answer():
    """An error there would hide the partition from kafka-share-groups --describe: ListOffsets to the
    partition's leader is retried with the persister's backoff (virtual time)."""
    from odradek.broker.inter_broker import NotDelivered
    from odradek.coordinator.share_state import partition_for
    from tests.broker.share_persister_sim import VirtualLoop

    there = next(p for p in range(20) if partition_for("g", TID, p, 1) == 0)
    tries = []

    def answer(request):
        tries.append(type(request).__name__)
        if len(tries) < 3:
            raise NotDelivered("no answer")
        return lo.ListOffsetsResponse(topics=[lo.ListOffsetsTopicResponse(name="t", partitions=[
            lo.ListOffsetsPartitionResponse(partition_index=there, error_code=0, offset=30)])])

    async def run():
        image, store, shares, persister, persistence, calls, pokes = setup(answer, [1])
        calls.release.set()
        image.topics["t"].partitions = {there: Part(OTHER)}
        store.partitions.loaded(store.partitions.elect(0, 1, 0))
        store.write(("g", TID, there), Snapshot(5, [], 0, 3), 0)
        out = persister.read_summaries("g", [(TID, "t", there)])
        while out.pending:
            await asyncio.sleep(0.5)
        assert out.ends[(TID, there)] == (E.NONE, 30) and tries == ["ListOffsetsRequest"] * 3
        await persister.close()

    loop = VirtualLoop()
    try:
        loop.run_until_complete(run())
    finally:
        loop.close()
