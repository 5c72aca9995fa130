"""EndTxn (key 26) v0-5: commit or abort; the markers are written before the answer.

v5 is the transaction.version 2 protocol (KIP-890 part 2), chosen by the request version
as Kafka's TransactionVersion.transactionVersionForEndTxn does: every transaction end bumps
the producer epoch (markers carry the new one) and the answer returns the producer id and
epoch for the next transaction.
"""

from __future__ import annotations

from odradek.wire.messages.end_txn_response import EndTxnResponse

from .error_responses import top_level_error
from .txn_common import fenced_for, txn_coordinator

API_KEY = 26
MIN_VERSION = 0
MAX_VERSION = 5


def handle(ctx, req) -> EndTxnResponse:
    txn = txn_coordinator(ctx)
    if ctx.api_version >= 5:
        err, pid, epoch = txn.end_txn_tv2(req.transactional_id, req.producer_id, req.producer_epoch,
                                          req.committed, ctx.now_ms)
        return EndTxnResponse(throttle_time_ms=0, error_code=err, producer_id=pid, producer_epoch=epoch)
    err = txn.end_txn(req.transactional_id, req.producer_id, req.producer_epoch, req.committed, ctx.now_ms)
    return EndTxnResponse(throttle_time_ms=0, error_code=fenced_for(ctx.api_version, 2, err))


error_response = top_level_error(EndTxnResponse)  # Kafka's EndTxnRequest.getErrorResponse
