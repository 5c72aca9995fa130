"""AlterPartitionManager (Kafka's): the leaders' ISR proposals batched into one AlterPartition v3
(topic ids, ISR members with broker epochs), one request in flight, each partition's answer -
the new state or an error - given back; a failed request answers every partition with an error."""
from __future__ import annotations

import asyncio

from odradek.broker.alter_partition import AlterPartitionManager, alter_partition_request, answers_of
from odradek.replication.messages import AlterPartitionProposal, IsrMember, LeaderAndIsr
from odradek.wire.errors import ErrorCode
from odradek.wire.messages import alter_partition_response as apr

A, B = bytes([1]) * 16, bytes([2]) * 16


def proposal(pid: int, isr=(1, 2)) -> AlterPartitionProposal:
    return AlterPartitionProposal(pid, 1, 5, 7, tuple(IsrMember(b, 100 + b) for b in isr))


def test_request_and_answers():
    batch = {("a", 0): (A, proposal(1)), ("a", 1): (A, proposal(2, (1,))), ("b", 0): (B, proposal(3))}
    req = alter_partition_request(1, 42, batch)
    assert (req.broker_id, req.broker_epoch) == (1, 42)
    by_topic = {t.topic_id: t.partitions for t in req.topics}
    assert [p.partition_index for p in by_topic[A]] == [0, 1]
    p0 = by_topic[A][0]
    assert (p0.leader_epoch, p0.partition_epoch) == (5, 7)
    assert [(m.broker_id, m.broker_epoch) for m in p0.new_isr_with_epochs] == [(1, 101), (2, 102)]
    # every leader says RECOVERED: that ends the RECOVERING of an unclean election (KIP-704)
    assert {p.leader_recovery_state for t in req.topics for p in t.partitions} == {0}
    resp = apr.AlterPartitionResponse(topics=[
        apr.TopicData(topic_id=A, partitions=[
            apr.PartitionData(partition_index=0, leader_id=1, leader_epoch=5, isr=[1, 2], partition_epoch=8),
            apr.PartitionData(partition_index=1, error_code=ErrorCode.INVALID_UPDATE_VERSION)])])
    assert answers_of(resp, batch) == {("a", 0): LeaderAndIsr(1, 5, 8, frozenset({1, 2})),
                                       ("a", 1): ErrorCode.INVALID_UPDATE_VERSION,
                                       ("b", 0): ErrorCode.UNKNOWN_SERVER_ERROR}  # not in the answer
    top = apr.AlterPartitionResponse(error_code=ErrorCode.STALE_BROKER_EPOCH)
    assert set(answers_of(top, batch).values()) == {ErrorCode.STALE_BROKER_EPOCH}


def test_one_request_in_flight_then_the_rest_batched():
    sent, answered = [], []

    async def main():
        gate = asyncio.Event()

        async def call(req, version, api_key):
            assert (version, api_key) == (3, 56)
            sent.append(sorted((t.topic_id, p.partition_index) for t in req.topics for p in t.partitions))
            await gate.wait()
            return apr.AlterPartitionResponse(topics=[apr.TopicData(topic_id=t.topic_id, partitions=[
                apr.PartitionData(partition_index=p.partition_index, leader_id=1, leader_epoch=5, isr=[1],
                                  partition_epoch=8) for p in t.partitions]) for t in req.topics])

        m = AlterPartitionManager(call, 1, lambda: 42, lambda tp, pid, a: answered.append((tp, pid, a)))
        m.submit(("a", 0), A, proposal(1))
        await asyncio.sleep(0)
        m.submit(("a", 1), A, proposal(2))
        m.submit(("a", 1), A, proposal(3))  # replaces the unsent one
        m.submit(("b", 0), B, proposal(4))
        await asyncio.sleep(0.01)
        assert sent == [[(A, 0)]]
        gate.set()
        for _ in range(100):
            if len(answered) == 3:
                break
            await asyncio.sleep(0.01)
        m.close()

    asyncio.run(main())
    assert sent == [[(A, 0)], [(A, 1), (B, 0)]]
    assert [(tp, pid) for tp, pid, _ in answered] == [(("a", 0), 1), (("a", 1), 3), (("b", 0), 4)]
    assert all(a == LeaderAndIsr(1, 5, 8, frozenset({1})) for _, _, a in answered)
