"""A partition leader's questions to the transaction coordinator on another broker (Kafka's
AddPartitionsToTxnManager, KIP-890): before the first transactional batch of a producer's
transaction lands in a partition, the leader asks the transactional id's coordinator (the leader
of its __transaction_state partition) with AddPartitionsToTxn v4+: verify_only for producers
that added the partition themselves, or add it for transaction.version 2 producers (Produce
v12+, request v5). The answer fills the ``TxnVerification`` and pokes its purgatory key, where
the Produce waits.

Errors as Kafka's manager gives them to the Produce: no coordinator known (the topic or its
leader missing) COORDINATOR_NOT_AVAILABLE, a lost connection or timeout NETWORK_EXCEPTION, a
top-level error of the answer on every partition.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from typing import Callable

from odradek.api_handlers.ports import TxnVerification
from odradek.broker.inter_broker import BrokerCalls, InterBrokerClient, NotDelivered, cancel_all
from odradek.coordinator import txn_records
from odradek.wire.errors import ErrorCode
from odradek.wire.messages import add_partitions_to_txn_request as ap

log = logging.getLogger(__name__)

TRANSACTION_STATE = "__transaction_state"
REQUEST_TIMEOUT_S = 30.0  # Kafka's request.timeout.ms for the manager's requests


class TxnVerifier:
    def __init__(self, node_id: int, image: Callable[[], object], poke: Callable[[tuple], object],
                 client: BrokerCalls | None = None):
        self._image = image
        self._poke = poke
        self._client = client or InterBrokerClient(node_id, "txn-verifier", image, REQUEST_TIMEOUT_S)
        self._ids = itertools.count()
        self._tasks: set[asyncio.Task] = set()

    def coordinator_of(self, transactional_id: str) -> int | None:
        """The live leader of the id's __transaction_state partition, None while there is none."""
        image = self._image()
        t = image.topics.get(TRANSACTION_STATE)
        if t is None or not t.partitions:
            return None
        part = t.partitions.get(txn_records.partition_for(transactional_id, len(t.partitions)))
        b = image.brokers.get(part.leader) if part is not None and part.leader >= 0 else None
        return part.leader if b is not None and not b.fenced else None

    def verify(self, transactional_id: str, producer_id: int, producer_epoch: int,
               partitions: list[tuple[str, int]], add: bool) -> TxnVerification:
        v = TxnVerification(("txn-verification", next(self._ids)))
        coordinator = self.coordinator_of(transactional_id)
        if coordinator is None:
            v.errors = {tp: ErrorCode.COORDINATOR_NOT_AVAILABLE for tp in partitions}
            return v
        by_topic: dict[str, list[int]] = {}
        for topic, p in partitions:
            by_topic.setdefault(topic, []).append(p)
        txn = ap.AddPartitionsToTxnTransaction(
            transactional_id=transactional_id, producer_id=producer_id, producer_epoch=producer_epoch,
            verify_only=not add, topics=[ap.AddPartitionsToTxnTopic(name=t, partitions=ps) for t, ps in by_topic.items()])
        task = asyncio.get_running_loop().create_task(self._ask(coordinator, txn, partitions, v))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return v

    async def _ask(self, broker_id: int, txn, partitions: list[tuple[str, int]], v: TxnVerification) -> None:
        errors: dict[tuple[str, int], ErrorCode] = {}
        try:
            # v5: the leader adds partitions for a transaction.version 2 producer; v4: verify_only
            resp = await self._client.call(broker_id, ap.AddPartitionsToTxnRequest(transactions=[txn]),
                                           4 if txn.verify_only else 5, min_version=4 if txn.verify_only else 5)
        except NotDelivered as e:
            log.info("verification of %s at the coordinator failed: %s", txn.transactional_id, e)
        else:
            if resp.error_code:
                errors = {tp: ErrorCode(resp.error_code) for tp in partitions}
            for r in resp.results_by_transaction:
                for t in r.topic_results:
                    for p in t.results_by_partition:
                        errors[(t.name, p.partition_index)] = ErrorCode(p.partition_error_code)
        v.errors = {tp: errors.get(tp, ErrorCode.NETWORK_EXCEPTION) for tp in partitions}
        self._poke(v.key)

    async def close(self) -> None:
        await cancel_all(self._tasks)
        self._client.close()
