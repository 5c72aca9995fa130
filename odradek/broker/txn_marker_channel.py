"""The transaction coordinator's marker channel on a cluster broker (the I/O half of Kafka's
TransactionMarkerChannelManager): WriteTxnMarkers requests to the partitions' leaders, this
broker included (over its own listener, as Kafka), as coordinator/txn_markers.MarkerDelivery
plans them; what each leader answers goes back to it, and a transaction whose markers are all
written is handed to ``complete`` (the coordinator's markers_written: CompleteCommit /
CompleteAbort in __transaction_state).

One connection per destination broker, one request at a time on it (Kafka's channel keeps one
in flight per broker too). The leaders come from the current metadata image at every attempt:
a leader that moved or died is found again after the retry backoff. The coordinator epoch is the
one the transaction coordinator gives (TxnCoordinator.coordinator_epoch_of: the leader epoch it
coordinates the id's __transaction_state partition at); when this broker no longer coordinates it
at that epoch, the markers are left to the new coordinator.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Callable

from odradek.broker.inter_broker import BrokerCalls, InterBrokerClient, NotDelivered, cancel_all
from odradek.coordinator.txn_markers import NO_LEADER, MarkerDelivery, MarkerSend, TopicPartition, TxnMarkers
from odradek.wire.messages import write_txn_markers_request as wm

log = logging.getLogger(__name__)

WRITE_TXN_MARKERS_VERSION = 2
REQUEST_TIMEOUT_S = 40.0  # past the leader's own 30 s wait for its replicas (request.timeout.ms)
POLL_S = 0.1  # how often pending markers are looked at again (retry backoff, leader elections)


class TxnMarkerChannel:
    def __init__(self, node_id: int, image: Callable[[], object], coordinator_epoch: Callable[[str], int | None],
                 complete: Callable[[TxnMarkers, int], object], clock_ms: Callable[[], int],
                 retry_backoff_ms: int = 100, client: BrokerCalls | None = None):
        """``image()``: the current metadata image; ``coordinator_epoch(transactional_id)``: the
        coordinator's epoch for the id if this broker coordinates it, else None."""
        self.node_id = node_id
        self._image = image
        self._coordinator_epoch = coordinator_epoch
        self._complete = complete
        self._clock = clock_ms
        self.delivery = MarkerDelivery(retry_backoff_ms)
        self._client = client or InterBrokerClient(node_id, "txn-marker-sender", image, REQUEST_TIMEOUT_S)
        self._wake: asyncio.Event | None = None
        self._task: asyncio.Task | None = None
        self._sending: set[asyncio.Task] = set()
        self._failing: dict[int, str] = {}  # broker id -> why the last request to it failed

    # ------------------------------------------------------------ from the coordinator

    def send(self, txn: TxnMarkers) -> None:
        epoch = self._coordinator_epoch(txn.transactional_id)
        if epoch is None:
            log.info("not the coordinator of %s any more: its markers are left to the new one", txn.transactional_id)
            return
        self.delivery.add(txn, epoch)
        if self._task is None:
            self._wake = asyncio.Event()
            self._task = asyncio.get_running_loop().create_task(self._run())
        self._wake.set()

    async def close(self) -> None:
        await cancel_all({t for t in (self._task, *self._sending) if t is not None})
        self._client.close()

    # ------------------------------------------------------------ the sender

    def _leader_of(self, tp: TopicPartition) -> int | None:
        image = self._image()
        t = image.topics.get(tp[0])
        part = t.partitions.get(tp[1]) if t is not None else None
        if part is None:
            return None
        b = image.brokers.get(part.leader) if part.leader >= 0 else None
        return part.leader if b is not None and not b.fenced else NO_LEADER

    def _owned(self, txn: TxnMarkers, coordinator_epoch: int) -> bool:
        return self._coordinator_epoch(txn.transactional_id) == coordinator_epoch

    async def _run(self) -> None:
        while True:
            try:
                if len(self.delivery):
                    async with asyncio.timeout(POLL_S):
                        await self._wake.wait()
                else:
                    await self._wake.wait()
            except TimeoutError:
                pass
            self._wake.clear()
            now = self._clock()
            try:
                sends, done = self.delivery.poll(self._leader_of, self._owned, now)
                for txn in done:
                    self._complete(txn, now)
            except Exception:
                log.exception("transaction marker channel")
                continue
            for send in sends:
                task = asyncio.get_running_loop().create_task(self._deliver(send))
                self._sending.add(task)
                task.add_done_callback(self._sending.discard)

    async def _deliver(self, send: MarkerSend) -> None:
        req = wm.WriteTxnMarkersRequest(markers=[
            wm.WritableTxnMarker(producer_id=b.txn.producer_id, producer_epoch=b.txn.producer_epoch,
                                 transaction_result=b.txn.commit, coordinator_epoch=b.coordinator_epoch,
                                 transaction_version=b.txn.transaction_version, topics=_topics(b.partitions))
            for b in send.batches])
        try:
            resp = await self._client.call(send.broker_id, req, WRITE_TXN_MARKERS_VERSION)
        except NotDelivered as e:
            # once per broker and cause at INFO: a dead broker fails every 100 ms until its partitions move
            level = logging.DEBUG if self._failing.get(send.broker_id) == str(e.__cause__ or e) else logging.INFO
            self._failing[send.broker_id] = str(e.__cause__ or e)
            log.log(level, "markers not delivered (%s): retrying", e)
            self.delivery.on_failure(send, self._clock())
        else:
            self._failing.pop(send.broker_id, None)
            errors = {(m.producer_id, (t.name, p.partition_index)): p.error_code
                      for m in resp.markers for t in m.topics for p in t.partitions}
            self.delivery.on_response(send, errors, self._clock())
        self._wake.set()


def _topics(partitions: tuple[TopicPartition, ...]) -> list:
    by_topic: dict[str, list[int]] = {}
    for topic, p in partitions:
        by_topic.setdefault(topic, []).append(p)
    return [wm.WritableTxnMarkerTopic(name=t, partition_indexes=ps) for t, ps in by_topic.items()]
