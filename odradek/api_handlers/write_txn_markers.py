"""WriteTxnMarkers (key 27) v1-2: a transaction coordinator's commit/abort markers, written by
the partitions' leader (Kafka's KafkaApis.handleWriteTxnMarkersRequest).

Each marker's partitions get one control batch (COMMIT or ABORT with the coordinator epoch),
appended as the leader with acks=-1: the answer waits until the high watermark passes every
marker (request.timeout.ms, then REQUEST_TIMED_OUT), as Kafka's appendRecords with
requiredAcks -1. The marker closes the producer's transaction in the partition (the last
stable offset moves, an abort enters the aborted-transaction index). On __consumer_offsets a
committed marker makes the transaction's offset commits visible in the group coordinator; while
the group coordinator here has not loaded that partition, no marker is written there
(NOT_LEADER_OR_FOLLOWER, as Kafka maps the group coordinator's loading / not-coordinator errors).

Per-partition errors as Kafka's: no local log (a partition not hosted here, or unknown):
UNKNOWN_TOPIC_OR_PARTITION; hosted but not led: NOT_LEADER_OR_FOLLOWER; an older producer
epoch than the partition's: INVALID_PRODUCER_EPOCH; an older coordinator epoch than the
producer's last marker: TRANSACTION_COORDINATOR_FENCED; a log refusal: its code (a control
batch that does not parse: CORRUPT_MESSAGE); min.insync.replicas not met: NOT_ENOUGH_REPLICAS.
"""

from __future__ import annotations

import logging

from odradek.log import errors as log_errors
from odradek.wire.errors import ErrorCode
from odradek.wire.messages.write_txn_markers_response import (WritableTxnMarkerPartitionResult,
                                                              WritableTxnMarkerResult, WritableTxnMarkerTopicResult,
                                                              WriteTxnMarkersResponse)
from odradek.wire.records import build_control_batch

from .common import log_error_code
from .context import Delayed
from .ports import NotLed

API_KEY = 27
MIN_VERSION = 1
MAX_VERSION = 2

CONSUMER_OFFSETS = "__consumer_offsets"
REQUEST_TIMEOUT_MS = 30_000  # Kafka's request.timeout.ms, the markers' append timeout

log = logging.getLogger(__name__)


class _Written:
    """One marker appended to one partition, waiting for its replicas."""
    __slots__ = ("result", "topic", "partition", "required_offset", "producer_id", "commit")

    def __init__(self, result: WritableTxnMarkerPartitionResult, topic: str, partition: int, required_offset: int,
                 producer_id: int, commit: bool):
        self.result, self.topic, self.partition = result, topic, partition
        self.required_offset, self.producer_id, self.commit = required_offset, producer_id, commit


def _append(ctx, topic: str, partition: int, marker) -> tuple[ErrorCode, int]:
    """-> (error, offset after the marker)."""
    services = ctx.services
    plog = services.partitions.leader_log(topic, partition)
    if isinstance(plog, NotLed):
        if plog.error == ErrorCode.NOT_LEADER_OR_FOLLOWER and services.log_dirs.get(topic, partition) is None:
            return ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, -1  # Kafka's getMagic: no local log
        return plog.error, -1
    if topic == CONSUMER_OFFSETS and (services.txn_offsets is None or services.txn_offsets.partition_error(partition)):
        # the group coordinator here has not loaded the partition (yet): Kafka's mapping of its
        # NOT_COORDINATOR / COORDINATOR_LOAD_IN_PROGRESS, which the transaction coordinator retries
        return ErrorCode.NOT_LEADER_OR_FOLLOWER, -1
    code = services.partitions.check_append(topic, partition, -1)
    if code:
        return code, -1
    batch = build_control_batch(marker.transaction_result, marker.producer_id, marker.producer_epoch,
                                marker.coordinator_epoch, ctx.now_ms)
    try:
        info = services.partitions.append(topic, partition, batch, ctx.now_ms, log=plog)
    except log_errors.LogError as e:
        log.info("marker of producer %d to %s-%d refused: %s", marker.producer_id, topic, partition, e)
        return ErrorCode(log_error_code(e)), -1
    except OSError as e:
        log.error("marker append to %s-%d failed: %s", topic, partition, e)
        return ErrorCode.KAFKA_STORAGE_ERROR, -1
    return ErrorCode.NONE, info.last_offset + 1


def _settle(ctx, waiting: list[_Written]) -> list[_Written]:
    """The markers still waiting for their replicas; a replicated one on __consumer_offsets
    completes its transaction's offset commits (groupCoordinator.onTransactionCompleted)."""
    partitions = ctx.services.partitions
    still = []
    for w in waiting:
        done, error = partitions.acks_reached(w.topic, w.partition, w.required_offset)
        if not (error or done):
            still.append(w)
            continue
        w.result.error_code = error
        if not error and w.topic == CONSUMER_OFFSETS:
            offsets = ctx.services.txn_offsets
            if offsets is None:
                w.result.error_code = ErrorCode.NOT_LEADER_OR_FOLLOWER
                continue
            try:
                offsets.complete(w.producer_id, w.partition, w.commit, ctx.services.clock())
            except Exception:
                log.exception("completing the transactional offsets of producer %d in %s-%d",
                              w.producer_id, w.topic, w.partition)
                w.result.error_code = ErrorCode.UNKNOWN_SERVER_ERROR
    return still


def _by_producer(req, result_of) -> WriteTxnMarkersResponse:
    """The answer keyed by producer id, as Kafka's (the markers of one producer merge):
    ``result_of(marker, topic, partition)`` gives each partition's result."""
    by_pid: dict[int, dict[str, list[WritableTxnMarkerPartitionResult]]] = {}
    for marker in req.markers:
        topics = by_pid.setdefault(marker.producer_id, {})
        for t in marker.topics:
            parts = topics.setdefault(t.name, [])
            parts.extend(result_of(marker, t.name, p) for p in t.partition_indexes)
    return WriteTxnMarkersResponse(markers=[WritableTxnMarkerResult(producer_id=pid, topics=[
        WritableTxnMarkerTopicResult(name=name, partitions=parts) for name, parts in topics.items()])
        for pid, topics in by_pid.items()])


def handle(ctx, req):
    waiting: list[_Written] = []

    def write(marker, topic: str, partition: int) -> WritableTxnMarkerPartitionResult:
        err, required = _append(ctx, topic, partition, marker)
        result = WritableTxnMarkerPartitionResult(partition_index=partition, error_code=err)
        if not err:
            waiting.append(_Written(result, topic, partition, required, marker.producer_id,
                                    marker.transaction_result))
        return result

    response = _by_producer(req, write)
    waiting = _settle(ctx, waiting)
    if not waiting:
        return response

    def try_complete(_now_ms: int):
        nonlocal waiting
        waiting = _settle(ctx, waiting)
        return None if waiting else response

    def on_expire(now_ms: int):
        for w in _settle(ctx, waiting):
            w.result.error_code = ErrorCode.REQUEST_TIMED_OUT
        return response

    return Delayed(try_complete=try_complete, on_expire=on_expire, deadline_ms=ctx.now_ms + REQUEST_TIMEOUT_MS,
                   watch=[("partition", w.topic, w.partition) for w in waiting])


def error_response(v: int, req, code: int, msg: str | None) -> WriteTxnMarkersResponse:
    """Kafka's WriteTxnMarkersRequest.getErrorResponse: the error on every partition."""
    return _by_producer(req, lambda _m, _t, p: WritableTxnMarkerPartitionResult(partition_index=p, error_code=code))
