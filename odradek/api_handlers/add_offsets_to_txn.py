"""AddOffsetsToTxn (key 25) v0-4: add the group's __consumer_offsets partition to the transaction."""

from __future__ import annotations

from odradek.wire.errors import ErrorCode
from odradek.wire.messages.add_offsets_to_txn_response import AddOffsetsToTxnResponse

from .error_responses import top_level_error
from .txn_common import fenced_for, txn_coordinator

API_KEY = 25
MIN_VERSION = 0
MAX_VERSION = 4


def handle(ctx, req) -> AddOffsetsToTxnResponse:
    txn = txn_coordinator(ctx)
    if not req.group_id:
        return AddOffsetsToTxnResponse(throttle_time_ms=0, error_code=ErrorCode.INVALID_GROUP_ID)
    tp = ("__consumer_offsets", ctx.services.groups.partition_for(req.group_id))
    err = txn.add_partitions(req.transactional_id, req.producer_id, req.producer_epoch, [tp], ctx.now_ms)
    return AddOffsetsToTxnResponse(throttle_time_ms=0, error_code=fenced_for(ctx.api_version, 2, err))


error_response = top_level_error(AddOffsetsToTxnResponse)  # Kafka's AddOffsetsToTxnRequest.getErrorResponse
