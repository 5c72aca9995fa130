"""A cluster broker's ISR changes to the active controller (Kafka's AlterPartitionManager):
the leaders' proposals are batched into one AlterPartition (API 56, v3: topic ids and the
ISR members' broker epochs, KIP-903) with at most one request in flight; each partition's
answer - its new state, or an error - goes back to its PartitionLeader, which decides to
retry, revert or wait for the metadata. A failed request (no controller answered, a
top-level error) is answered with its error for every partition after a short back-off."""

from __future__ import annotations

import asyncio
import logging
from typing import Callable

from odradek.broker.controller_api import ALTER_PARTITION
from odradek.replication.messages import AlterPartitionProposal, LeaderAndIsr
from odradek.wire.errors import ErrorCode
from odradek.wire.messages import alter_partition_request as apq

log = logging.getLogger(__name__)

VERSION = 3
RECOVERED = 0  # LeaderRecoveryState
RETRY_BACKOFF_S = 0.1

TopicPartition = tuple[str, int]
Answer = Callable[[TopicPartition, int, "LeaderAndIsr | ErrorCode"], None]


def alter_partition_request(broker_id: int, broker_epoch: int,
                            batch: dict[TopicPartition, tuple[bytes, AlterPartitionProposal]]
                            ) -> apq.AlterPartitionRequest:
    topics: dict[bytes, apq.TopicData] = {}
    for (_, partition), (topic_id, p) in batch.items():
        td = topics.setdefault(topic_id, apq.TopicData(topic_id=topic_id, partitions=[]))
        td.partitions.append(apq.PartitionData(
            partition_index=partition, leader_epoch=p.leader_epoch, partition_epoch=p.partition_epoch,
            new_isr_with_epochs=[apq.BrokerState(broker_id=m.broker_id, broker_epoch=m.broker_epoch)
                                 for m in p.new_isr],
            # a leader is recovered once it leads: after an unclean election the metadata says
            # RECOVERING until its first ISR change says RECOVERED (Kafka's Partition.makeLeader)
            leader_recovery_state=RECOVERED))
    return apq.AlterPartitionRequest(broker_id=broker_id, broker_epoch=broker_epoch, topics=list(topics.values()))


def answers_of(resp, batch: dict[TopicPartition, tuple[bytes, AlterPartitionProposal]]
               ) -> dict[TopicPartition, LeaderAndIsr | ErrorCode]:
    """Each sent partition's answer; one the response does not name failed (UNKNOWN_SERVER_ERROR)."""
    if resp.error_code:
        return {tp: ErrorCode(resp.error_code) for tp in batch}
    by_id = {(topic_id, tp[1]): tp for tp, (topic_id, _) in batch.items()}
    out: dict[TopicPartition, LeaderAndIsr | ErrorCode] = {}
    for t in resp.topics:
        for p in t.partitions:
            tp = by_id.get((t.topic_id, p.partition_index))
            if tp is None:
                continue
            out[tp] = (ErrorCode(p.error_code) if p.error_code else
                       LeaderAndIsr(p.leader_id, p.leader_epoch, p.partition_epoch, frozenset(p.isr)))
    for tp in batch:
        out.setdefault(tp, ErrorCode.UNKNOWN_SERVER_ERROR)
    return out


class AlterPartitionManager:
    def __init__(self, call, broker_id: int, broker_epoch: Callable[[], int], on_answer: Answer):
        """``call(request, version, api_key)``: ControllerChannel.call (awaitable response)."""
        self._call = call
        self._broker_id = broker_id
        self._broker_epoch = broker_epoch
        self._on_answer = on_answer
        self._unsent: dict[TopicPartition, tuple[bytes, AlterPartitionProposal]] = {}
        self._task: asyncio.Task | None = None

    def submit(self, tp: TopicPartition, topic_id: bytes, proposal: AlterPartitionProposal) -> None:
        """Send (a newer proposal of the same partition replaces one not sent yet)."""
        self._unsent[tp] = (topic_id, proposal)
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._send())

    async def _send(self) -> None:
        while self._unsent:
            batch, self._unsent = self._unsent, {}
            req = alter_partition_request(self._broker_id, self._broker_epoch(), batch)
            try:
                resp = await self._call(req, VERSION, ALTER_PARTITION)
                answers = answers_of(resp, batch)
            except asyncio.CancelledError:
                raise
            except Exception:  # noqa: BLE001 - the leaders retry
                log.exception("AlterPartition failed")
                answers = {tp: ErrorCode.UNKNOWN_SERVER_ERROR for tp in batch}
            if any(isinstance(a, ErrorCode) for a in answers.values()):
                await asyncio.sleep(RETRY_BACKOFF_S)  # before the answers make the leaders retry
            for tp, answer in answers.items():
                if isinstance(answer, ErrorCode):
                    log.info("AlterPartition of %s-%d: %s", tp[0], tp[1], answer.name)
                try:
                    self._on_answer(tp, batch[tp][1].proposal_id, answer)
                except Exception:  # noqa: BLE001 - never stop the other partitions
                    log.exception("AlterPartition answer for %s-%d", *tp)

    def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
