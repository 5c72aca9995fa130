"""AddPartitionsToTxn (key 24) v0-5: add partitions to a producer's transaction.

v0-3 carry one transaction (clients); v4+ a batch of them, each either adding or
verify_only (Kafka's broker-side verification of KIP-890).
"""

from __future__ import annotations

from odradek.wire.errors import ErrorCode
from odradek.wire.messages.add_partitions_to_txn_response import (
    AddPartitionsToTxnPartitionResult,
    AddPartitionsToTxnResponse,
    AddPartitionsToTxnResult,
    AddPartitionsToTxnTopicResult,
)

from .common import mirror_partitions
from .txn_common import fenced_for, txn_coordinator

API_KEY = 24
MIN_VERSION = 0
MAX_VERSION = 5


def _results(errors: dict, topics) -> list:
    return [AddPartitionsToTxnTopicResult(name=t.name, results_by_partition=[
        AddPartitionsToTxnPartitionResult(partition_index=p, partition_error_code=errors[(t.name, p)])
        for p in t.partitions]) for t in topics]


def _one(ctx, txn, tid, pid, epoch, verify_only, topics) -> list:
    wanted = [(t.name, p) for t in topics for p in t.partitions]
    unknown = set()
    image_topics = ctx.services.metadata.image.topics
    for t in topics:
        ti = image_topics.get(t.name)
        for p in t.partitions:
            if ti is None or p not in ti.partitions:
                unknown.add((t.name, p))
    if unknown:
        errors = {tp: ErrorCode.UNKNOWN_TOPIC_OR_PARTITION if tp in unknown else ErrorCode.OPERATION_NOT_ATTEMPTED
                  for tp in wanted}
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
    if ctx.api_version <= 3:
        res = _one(ctx, txn, req.v3_and_below_transactional_id, req.v3_and_below_producer_id,
                   req.v3_and_below_producer_epoch, False, req.v3_and_below_topics)
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
