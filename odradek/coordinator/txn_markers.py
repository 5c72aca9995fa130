"""Delivery of a transaction's commit/abort markers to its partitions' leaders (the decisions of
Kafka's TransactionMarkerChannelManager and TransactionMarkerRequestCompletionHandler), pure:
the broker's channel (broker/txn_marker_channel.py) sends what ``poll`` plans and feeds back
what each leader answered.

- ``add``: a transaction in PrepareCommit/PrepareAbort hands over its markers (``TxnMarkers``).
- ``poll``: every partition still to be marked goes to its current leader, grouped into one
  request per broker (``MarkerSend``); a partition gone from the metadata (its topic deleted)
  needs no marker any more; one without a live leader waits. A transaction whose coordinator
  moved (``owned`` false) is dropped: the new coordinator finishes it from its log. Transactions
  with every marker written come back as completed: the coordinator writes CompleteCommit /
  CompleteAbort for them.
- ``on_response``: per partition, as Kafka: written (or a format the partition cannot take) is
  done; NOT_LEADER_OR_FOLLOWER, UNKNOWN_TOPIC_OR_PARTITION, NOT_ENOUGH_REPLICAS(_AFTER_APPEND),
  REQUEST_TIMED_OUT, KAFKA_STORAGE_ERROR are retried at the partition's leader of the next
  metadata after ``retry_backoff_ms``; INVALID_PRODUCER_EPOCH and TRANSACTION_COORDINATOR_FENCED
  mean a newer producer or coordinator took over: the transaction's markers are dropped;
  anything else is unexpected and drops them too (Kafka fails the completion the same way).
- ``on_failure``: the request got no answer (broker down, connection lost, timeout): its
  partitions are retried.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Callable

from odradek.wire.errors import ErrorCode

log = logging.getLogger(__name__)

E = ErrorCode
TopicPartition = tuple[str, int]

DONE = frozenset({E.NONE, E.UNSUPPORTED_FOR_MESSAGE_FORMAT, E.UNSUPPORTED_VERSION})
RETRIABLE = frozenset({E.UNKNOWN_TOPIC_OR_PARTITION, E.NOT_LEADER_OR_FOLLOWER, E.NOT_ENOUGH_REPLICAS,
                       E.NOT_ENOUGH_REPLICAS_AFTER_APPEND, E.REQUEST_TIMED_OUT, E.KAFKA_STORAGE_ERROR})
FENCED = frozenset({E.INVALID_PRODUCER_EPOCH, E.TRANSACTION_COORDINATOR_FENCED})
NO_LEADER = -1


@dataclass(frozen=True)
class TxnMarkers:
    """The markers a transaction in Prepare* needs: one per partition, all with its producer id
    and epoch, COMMIT or ABORT."""
    transactional_id: str
    producer_id: int
    producer_epoch: int
    commit: bool
    partitions: frozenset[TopicPartition]
    transaction_version: int = 0


@dataclass(frozen=True)
class MarkerBatch:
    """One transaction's markers in a request: (its markers, the coordinator epoch, the partitions)."""
    txn: TxnMarkers
    coordinator_epoch: int
    partitions: tuple[TopicPartition, ...]


@dataclass(frozen=True)
class MarkerSend:
    """One WriteTxnMarkers request to broker ``broker_id``."""
    broker_id: int
    batches: tuple[MarkerBatch, ...]


@dataclass
class _Pending:
    """A transaction whose markers are being written."""
    txn: TxnMarkers
    coordinator_epoch: int
    todo: set[TopicPartition]
    in_flight: set[TopicPartition] = field(default_factory=set)
    retry_at: dict[TopicPartition, int] = field(default_factory=dict)


class MarkerDelivery:
    def __init__(self, retry_backoff_ms: int = 100):
        self.retry_backoff_ms = retry_backoff_ms
        self._pending: dict[str, _Pending] = {}

    def __len__(self) -> int:
        return len(self._pending)

    def __contains__(self, transactional_id: str) -> bool:
        return transactional_id in self._pending

    def add(self, txn: TxnMarkers, coordinator_epoch: int) -> None:
        """Markers to deliver (replacing what was pending for the same transactional id)."""
        self._pending[txn.transactional_id] = _Pending(txn, coordinator_epoch, set(txn.partitions))

    def cancel(self, transactional_id: str) -> None:
        self._pending.pop(transactional_id, None)

    def poll(self, leader_of: Callable[[TopicPartition], int | None], owned: Callable[[TxnMarkers, int], bool],
             now_ms: int) -> tuple[list[MarkerSend], list[TxnMarkers]]:
        """-> (requests to send now, transactions whose markers are all written).
        ``leader_of(tp)``: the partition's live leader, NO_LEADER while it has none, None when the
        partition is not in the metadata."""
        by_broker: dict[int, list[MarkerBatch]] = {}
        completed = []
        for tid, p in list(self._pending.items()):
            if not owned(p.txn, p.coordinator_epoch):
                log.info("no longer the coordinator of %s at epoch %d: its markers are left to the new one",
                         tid, p.coordinator_epoch)
                del self._pending[tid]
                continue
            targets: dict[int, list[TopicPartition]] = {}
            for tp in sorted(p.todo - p.in_flight):
                if p.retry_at.get(tp, 0) > now_ms:
                    continue
                leader = leader_of(tp)
                if leader is None:
                    log.info("%s-%d is not in the metadata (deleted): no marker of %s needed there", tp[0], tp[1], tid)
                    p.todo.discard(tp)
                elif leader != NO_LEADER:
                    targets.setdefault(leader, []).append(tp)
            for broker, tps in targets.items():
                p.in_flight.update(tps)
                by_broker.setdefault(broker, []).append(MarkerBatch(p.txn, p.coordinator_epoch, tuple(tps)))
            if not p.todo:
                del self._pending[tid]
                completed.append(p.txn)
        sends = [MarkerSend(b, tuple(batches)) for b, batches in sorted(by_broker.items())]
        return sends, completed

    def _current(self, batch: MarkerBatch) -> _Pending | None:
        p = self._pending.get(batch.txn.transactional_id)
        return p if p is not None and p.txn == batch.txn and p.coordinator_epoch == batch.coordinator_epoch else None

    def on_response(self, send: MarkerSend, errors: dict[tuple[int, TopicPartition], int], now_ms: int) -> None:
        """The leader's answer: ``errors`` {(producer id, (topic, partition)): error code}; a
        partition the answer leaves out is retried."""
        for batch in send.batches:
            p = self._current(batch)
            if p is None:
                continue
            tid = batch.txn.transactional_id
            for tp in batch.partitions:
                p.in_flight.discard(tp)
                code = errors.get((batch.txn.producer_id, tp))
                if code in DONE:
                    p.todo.discard(tp)
                    p.retry_at.pop(tp, None)
                elif code is None or code in RETRIABLE:
                    p.retry_at[tp] = now_ms + self.retry_backoff_ms
                else:
                    log.log(logging.INFO if code in FENCED else logging.ERROR,
                            "marker of %s to %s-%d failed with error %d: its markers are dropped", tid, tp[0], tp[1],
                            code)
                    self._pending.pop(tid, None)
                    break

    def on_failure(self, send: MarkerSend, now_ms: int) -> None:
        """No answer from the broker: every partition of the request is retried."""
        for batch in send.batches:
            p = self._current(batch)
            if p is None:
                continue
            for tp in batch.partitions:
                p.in_flight.discard(tp)
                p.retry_at[tp] = now_ms + self.retry_backoff_ms
