"""InitProducerId (key 22): producer ids for idempotent producers.

Transactional ids go to the transaction coordinator once it exists; until then
they are refused (TRANSACTIONAL_ID_AUTHORIZATION_FAILED, non-retriable) rather than
half supported.
"""

from __future__ import annotations

from odradek.wire.errors import ErrorCode
from odradek.wire.messages.init_producer_id_response import InitProducerIdResponse

API_KEY = 22
MIN_VERSION = 0
MAX_VERSION = 5


def handle(ctx, req) -> InitProducerIdResponse:
    b = ctx.broker
    if req.transactional_id is not None:
        txn = getattr(b, "txn_coordinator", None)
        if txn is not None:
            return txn.handle_init_producer_id(ctx, req)
        return InitProducerIdResponse(throttle_time_ms=0, error_code=ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED,
                                      producer_id=-1, producer_epoch=-1)
    # Kafka: an idempotent producer always gets a fresh id (epoch 0), also when it
    # passes its old id/epoch (KIP-360) after an unknown-producer error.
    return InitProducerIdResponse(throttle_time_ms=0, error_code=0, producer_id=b.allocate_producer_id(),
                                  producer_epoch=0)
