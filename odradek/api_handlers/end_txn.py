"""EndTxn (key 26) v0-4: commit or abort; the markers are written before the answer.

v5 (transaction.version 2: an epoch bump per transaction) is not advertised.
"""

from __future__ import annotations

from odradek.wire.errors import ErrorCode
from odradek.wire.messages.end_txn_response import EndTxnResponse

from .txn_common import fenced_for, txn_coordinator

API_KEY = 26
MIN_VERSION = 0
MAX_VERSION = 4


def handle(ctx, req) -> EndTxnResponse:
    txn = txn_coordinator(ctx)
    if txn is None:
        return EndTxnResponse(throttle_time_ms=0, error_code=ErrorCode.COORDINATOR_NOT_AVAILABLE)
    err = txn.end_txn(req.transactional_id, req.producer_id, req.producer_epoch, req.committed, ctx.now_ms)
    return EndTxnResponse(throttle_time_ms=0, error_code=fenced_for(ctx.api_version, 2, err))
