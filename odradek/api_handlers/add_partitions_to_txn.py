"""AddPartitionsToTxn (key 24) v0-5: add partitions to a producer's transaction.

v0-3 carry one transaction (clients); v4+ a batch of them, each either adding or
verify_only (Kafka's broker-side verification of KIP-890).
"""

from __future__ import annotations

from odradek.controller.acls import CLUSTER, CLUSTER_ACTION, CLUSTER_NAME, TOPIC, TRANSACTIONAL_ID, WRITE
from odradek.wire.errors import ErrorCode
from odradek.wire.messages.add_partitions_to_txn_response import (
    AddPartitionsToTxnPartitionResult,
    AddPartitionsToTxnResponse,
    AddPartitionsToTxnResult,
    AddPartitionsToTxnTopicResult,
)

from .authorization import allowed, allowed_names
from .common import mirror_partitions
from .txn_common import fenced_for, txn_coordinator

API_KEY = 24
MIN_VERSION = 0
MAX_VERSION = 5


def _results(errors: dict, topics) -> list:
    return [AddPartitionsToTxnTopicResult(name=t.name, results_by_partition=[
        AddPartitionsToTxnPartitionResult(partition_index=p, partition_error_code=errors[(t.name, p)])
        for p in t.partitions]) for t in topics]


def _one(ctx, txn, tid, pid, epoch, verify_only, topics, denied=frozenset()) -> list:
    """``denied``: topics the client may not WRITE (v0-3 from a producer)."""
    wanted = [(t.name, p) for t in topics for p in t.partitions]
    unknown: dict = {}
    image_topics = ctx.services.metadata.image.topics
    for t in topics:
        ti = image_topics.get(t.name)
        for p in t.partitions:
            if t.name in denied:
                unknown[(t.name, p)] = ErrorCode.TOPIC_AUTHORIZATION_FAILED
            elif ti is None or p not in ti.partitions:
                unknown[(t.name, p)] = ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
    if unknown:
        errors = {tp: unknown.get(tp, ErrorCode.OPERATION_NOT_ATTEMPTED) for tp in wanted}
        return _results(errors, topics)
    if verify_only:
        errors = txn.verify_partitions(tid, pid, epoch, wanted)
    else:
        # v5 from a partition leader adds for a transaction.version 2 producer (its Produce v12+)
        err = txn.add_partitions(tid, pid, epoch, wanted, ctx.now_ms, client_tv=2 if ctx.api_version >= 5 else 0)
        errors = {tp: err for tp in wanted}
    errors = {tp: fenced_for(ctx.api_version, 2, e) for tp, e in errors.items()}
    return _results(errors, topics)


def handle(ctx, req) -> AddPartitionsToTxnResponse:
    txn = txn_coordinator(ctx)
    denied: frozenset = frozenset()
    if ctx.services.authorizer is not None:
        # Kafka: v4+ comes from partition leaders (CLUSTER_ACTION); v0-3 from a producer (WRITE on its
        # transactional id, then on each topic but the internal ones)
        if ctx.api_version >= 4:
            if not allowed(ctx, CLUSTER_ACTION, CLUSTER, CLUSTER_NAME):
                return error_response(ctx.api_version, req, ErrorCode.CLUSTER_AUTHORIZATION_FAILED, None)
        elif not allowed(ctx, WRITE, TRANSACTIONAL_ID, req.v3_and_below_transactional_id):
            return error_response(ctx.api_version, req, ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED, None)
        else:
            names = {t.name for t in req.v3_and_below_topics if not ctx.services.metadata.is_internal(t.name)}
            denied = frozenset(names - allowed_names(ctx, WRITE, TOPIC, names))
    if ctx.api_version <= 3:
        res = _one(ctx, txn, req.v3_and_below_transactional_id, req.v3_and_below_producer_id,
                   req.v3_and_below_producer_epoch, False, req.v3_and_below_topics, denied)
        return AddPartitionsToTxnResponse(throttle_time_ms=0, results_by_topic_v3_and_below=res)
    out = []
    for t in req.transactions:
        out.append(AddPartitionsToTxnResult(
            transactional_id=t.transactional_id,
            topic_results=_one(ctx, txn, t.transactional_id, t.producer_id, t.producer_epoch, t.verify_only,
                               t.topics)))
    return AddPartitionsToTxnResponse(throttle_time_ms=0, error_code=0, results_by_transaction=out)


def error_response(v: int, req, code: int, msg: str | None):
    """Kafka's AddPartitionsToTxnRequest.getErrorResponse."""
    if v >= 4:  # broker-to-broker batched form: top-level error only
        return AddPartitionsToTxnResponse(error_code=code)
    return AddPartitionsToTxnResponse(results_by_topic_v3_and_below=mirror_partitions(
        req.v3_and_below_topics,
        lambda t, parts: AddPartitionsToTxnTopicResult(name=t.name, results_by_partition=parts),
        lambda p: AddPartitionsToTxnPartitionResult(partition_index=p, partition_error_code=code)))
