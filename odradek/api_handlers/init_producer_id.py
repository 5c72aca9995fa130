"""InitProducerId (key 22): producer ids for idempotent producers.

Transactional ids go to the transaction coordinator (epoch bump, fencing of the
previous incarnation, abort of its open transaction).
"""

from __future__ import annotations

from odradek.coordinator.errors import CoordinatorError
from odradek.wire.errors import ErrorCode
from odradek.wire.messages.init_producer_id_response import InitProducerIdResponse

API_KEY = 22
MIN_VERSION = 0
MAX_VERSION = 5


def handle(ctx, req) -> InitProducerIdResponse:
    if req.transactional_id is not None:
        txn = ctx.services.txns
        if txn is not None:
            err, pid, epoch = txn.init_producer_id(
                req.transactional_id, req.transaction_timeout_ms,
                req.producer_id if ctx.api_version >= 3 else -1,
                req.producer_epoch if ctx.api_version >= 3 else -1, ctx.now_ms)
            if err == ErrorCode.PRODUCER_FENCED and ctx.api_version < 4:
                err = ErrorCode.INVALID_PRODUCER_EPOCH
            return InitProducerIdResponse(throttle_time_ms=0, error_code=err, producer_id=pid, producer_epoch=epoch)
        return InitProducerIdResponse(throttle_time_ms=0, error_code=ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED,
                                      producer_id=-1, producer_epoch=-1)
    # Kafka: an idempotent producer always gets a fresh id (epoch 0), also when it
    # passes its old id/epoch (KIP-360) after an unknown-producer error; with no producer
    # id block at hand, COORDINATOR_LOAD_IN_PROGRESS (broker/producer_ids.py)
    try:
        pid = ctx.services.producer_ids.allocate()
    except CoordinatorError as e:
        return InitProducerIdResponse(throttle_time_ms=0, error_code=e.code, producer_id=-1, producer_epoch=-1)
    return InitProducerIdResponse(throttle_time_ms=0, error_code=0, producer_id=pid, producer_epoch=0)


def error_response(v: int, req, code: int, msg: str | None):
    """Kafka's InitProducerIdRequest.getErrorResponse."""
    return InitProducerIdResponse(error_code=code, producer_id=-1, producer_epoch=-1)
