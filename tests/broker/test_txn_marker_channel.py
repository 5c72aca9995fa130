"""The marker channel's I/O (broker/txn_marker_channel.py) on an event loop with fake brokers:
WriteTxnMarkers to each partition's leader from the current metadata, a broker that cannot be
reached and a leader that moved are retried at the new leader, and the transaction is handed to
the coordinator exactly once, after every marker is written."""
from __future__ import annotations

import asyncio

from odradek.broker.inter_broker import NotDelivered
from odradek.broker.txn_marker_channel import TxnMarkerChannel
from odradek.controller.image import BrokerImage, MetadataImage, PartitionImage, TopicImage
from odradek.coordinator.txn_markers import TxnMarkers
from odradek.wire.errors import ErrorCode as E
from odradek.wire.messages import write_txn_markers_response as wr


def image(leaders: dict[int, int], fenced=()) -> MetadataImage:
    t = TopicImage("t", b"\x01" * 16, {p: PartitionImage(p, b, 1, 1, (1, 2, 3), (1, 2, 3)) for p, b in leaders.items()})
    return MetadataImage(topics={"t": t}, topics_by_id={t.topic_id: t},
                         brokers={i: BrokerImage(i, "h", 9000 + i, fenced=i in fenced) for i in (1, 2, 3)})


class Brokers:
    """Fake destination brokers: each request is answered by ``answer(broker, partition)`` (an
    error code, or NotDelivered raised)."""

    def __init__(self, answer):
        self.answer = answer
        self.calls: list[tuple[int, list[int], int]] = []

    async def call(self, broker_id, request, max_version, min_version=0):
        parts = [p for m in request.markers for t in m.topics for p in t.partition_indexes]
        self.calls.append((broker_id, parts, request.markers[0].coordinator_epoch))
        results = {p: self.answer(broker_id, p) for p in parts}
        if any(r is NotDelivered for r in results.values()):
            raise NotDelivered(f"broker {broker_id} is down")
        m = request.markers[0]
        return wr.WriteTxnMarkersResponse(markers=[wr.WritableTxnMarkerResult(producer_id=m.producer_id, topics=[
            wr.WritableTxnMarkerTopicResult(name="t", partitions=[
                wr.WritableTxnMarkerPartitionResult(partition_index=p, error_code=code) for p, code in results.items()])])])

    def close(self):
        pass


TXN = TxnMarkers("tx", 5, 1, True, frozenset({("t", 0), ("t", 1), ("t", 2)}))


def run(brokers: Brokers, state: dict, until, coordinator_epoch=lambda tid: 7) -> list:
    completed = []

    async def main():
        ch = TxnMarkerChannel(1, lambda: state["image"], coordinator_epoch, lambda t, now: completed.append(t),
                              lambda: int(asyncio.get_running_loop().time() * 1000), retry_backoff_ms=10,
                              client=brokers)
        ch.send(TXN)
        async with asyncio.timeout(10):
            while not until(completed):
                await asyncio.sleep(0.01)
        await asyncio.sleep(0.05)  # nothing more comes after completion
        await ch.close()
    asyncio.run(main())
    return completed


def test_markers_go_to_each_leader_and_complete_once():
    brokers = Brokers(lambda b, p: E.NONE)
    state = {"image": image({0: 1, 1: 2, 2: 3})}
    assert run(brokers, state, lambda done: done) == [TXN]
    assert sorted(brokers.calls) == [(1, [0], 7), (2, [1], 7), (3, [2], 7)]


def test_a_dead_broker_and_a_moved_leader_are_retried_at_the_new_leader():
    state = {"image": image({0: 1, 1: 2, 2: 3})}

    def answer(broker, p):
        if broker == 3:  # killed: its partition moves to broker 1 after a few attempts
            if sum(1 for c in brokers.calls if c[0] == 3) >= 3:
                state["image"] = image({0: 1, 1: 2, 2: 1}, fenced=(3,))
            return NotDelivered
        if broker == 2 and sum(1 for c in brokers.calls if c[0] == 2) == 1:
            return E.NOT_LEADER_OR_FOLLOWER  # leadership moved and came back
        return E.NONE
    brokers = Brokers(answer)
    assert run(brokers, state, lambda done: done) == [TXN]
    assert [c for c in brokers.calls if c[1] == [2]][-1][0] == 1  # partition 2's marker finally at broker 1
    assert len([c for c in brokers.calls if c[0] == 2]) == 2


def test_markers_of_a_moved_coordinator_are_dropped():
    """The leader keeps answering NOT_LEADER_OR_FOLLOWER (retried) until this broker stops leading the
    transactional id's __transaction_state partition: then nothing more is sent, nothing completes."""
    brokers = Brokers(lambda b, p: E.NOT_LEADER_OR_FOLLOWER)
    state = {"image": image({0: 1, 1: 2, 2: 3})}
    owner = {"epoch": 7}
    completed = []

    async def main():
        ch = TxnMarkerChannel(1, lambda: state["image"], lambda tid: owner["epoch"],
                              lambda t, now: completed.append(t),
                              lambda: int(asyncio.get_running_loop().time() * 1000), retry_backoff_ms=10,
                              client=brokers)
        ch.send(TXN)
        async with asyncio.timeout(10):
            while len(brokers.calls) < 6:  # each leader asked twice: retried
                await asyncio.sleep(0.01)
        owner["epoch"] = None  # the partition moved to another broker
        async with asyncio.timeout(10):
            while len(ch.delivery):
                await asyncio.sleep(0.01)
        sent = len(brokers.calls)
        await asyncio.sleep(0.3)
        assert len(brokers.calls) <= sent + 3  # at most the requests already in flight
        await ch.close()
    asyncio.run(main())
    assert completed == []
