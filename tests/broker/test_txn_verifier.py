"""The partition leader's questions to a transaction coordinator on another broker
(broker/txn_verifier.py) with a fake broker: AddPartitionsToTxn v4 verify_only or v5 add to the
leader of the id's __transaction_state partition, the answer per partition, the purgatory key
poked; no coordinator known, a lost connection and a top-level error as Kafka's manager reports them."""
from __future__ import annotations

import asyncio

from odradek.broker.inter_broker import NotDelivered
from odradek.broker.txn_verifier import TxnVerifier
from odradek.controller.image import BrokerImage, MetadataImage, PartitionImage, TopicImage
from odradek.wire.errors import ErrorCode as E
from odradek.wire.messages import add_partitions_to_txn_response as ar

TPS = [("t", 0), ("t", 3)]


def image(leader: int = 2, fenced=()) -> MetadataImage:
    ts = TopicImage("__transaction_state", b"\x02" * 16,
                    {p: PartitionImage(p, leader, 1, 1, (1, 2, 3), (1, 2, 3)) for p in range(3)})
    return MetadataImage(topics={ts.name: ts}, topics_by_id={ts.topic_id: ts},
                         brokers={i: BrokerImage(i, "h", 9000 + i, fenced=i in fenced) for i in (1, 2, 3)})


class Coordinator:
    def __init__(self, answer):
        self.answer = answer
        self.calls = []

    async def call(self, broker_id, request, max_version, min_version=0):
        self.calls.append((broker_id, request, max_version, min_version))
        return self.answer(request)

    def close(self):
        pass


def ask(state_image, answer, add=False):
    pokes = []
    coordinator = Coordinator(answer)

    async def main():
        v = TxnVerifier(1, lambda: state_image, pokes.append, client=coordinator)
        got = v.verify("tx", 7, 3, TPS, add=add)
        for _ in range(100):
            if got.errors is not None:
                break
            await asyncio.sleep(0.01)
        await v.close()
        return got
    got = asyncio.run(main())
    return got, pokes, coordinator.calls


def per_partition(code):
    def answer(request):
        t = request.transactions[0]
        return ar.AddPartitionsToTxnResponse(error_code=0, results_by_transaction=[ar.AddPartitionsToTxnResult(
            transactional_id=t.transactional_id, topic_results=[ar.AddPartitionsToTxnTopicResult(
                name=tp.name, results_by_partition=[ar.AddPartitionsToTxnPartitionResult(
                    partition_index=p, partition_error_code=code(p)) for p in tp.partitions]) for tp in t.topics])])
    return answer


def test_verify_only_at_the_coordinator_and_the_answer_per_partition():
    got, pokes, calls = ask(image(leader=2), per_partition(lambda p: E.NONE if p == 0 else E.TRANSACTION_ABORTABLE))
    [(broker, request, max_version, min_version)] = calls
    t = request.transactions[0]
    assert broker == 2 and (max_version, min_version) == (4, 4)
    assert (t.transactional_id, t.producer_id, t.producer_epoch, t.verify_only) == ("tx", 7, 3, True)
    assert [(x.name, x.partitions) for x in t.topics] == [("t", [0, 3])]
    assert got.errors == {("t", 0): E.NONE, ("t", 3): E.TRANSACTION_ABORTABLE} and pokes == [got.key]


def test_add_uses_v5():
    got, _, calls = ask(image(), per_partition(lambda p: E.NONE), add=True)
    assert calls[0][1].transactions[0].verify_only is False and calls[0][2:] == (5, 5)
    assert got.errors == {tp: E.NONE for tp in TPS}


def test_no_coordinator_no_answer_and_top_level_errors():
    for leader, fenced in ((-1, ()), (2, (2,))):  # no leader, or a fenced one: nobody asked
        got, pokes, calls = ask(image(leader, fenced), per_partition(lambda p: E.NONE))
        assert got.errors == {tp: E.COORDINATOR_NOT_AVAILABLE for tp in TPS} and calls == [] and pokes == []

    def lost(request):
        raise NotDelivered("broker 2: connection reset")
    got, pokes, _ = ask(image(), lost)
    assert got.errors == {tp: E.NETWORK_EXCEPTION for tp in TPS} and pokes == [got.key]
    got, _, _ = ask(image(), lambda request: ar.AddPartitionsToTxnResponse(error_code=E.CLUSTER_AUTHORIZATION_FAILED))
    assert got.errors == {tp: E.CLUSTER_AUTHORIZATION_FAILED for tp in TPS}
