"""ListTransactions (key 66) v0-2: filter by state, producer id, duration (v1), id pattern (v2)."""

from __future__ import annotations

from odradek.controller.acls import DESCRIBE, TRANSACTIONAL_ID
from odradek.coordinator.txn_records import STATE_BY_NAME
from odradek.wire.errors import ErrorCode
from odradek.wire.messages.list_transactions_response import ListTransactionsResponse, TransactionState

from .authorization import allowed_names
from .error_responses import top_level_error
from .txn_common import txn_coordinator

API_KEY = 66
MIN_VERSION = 0
MAX_VERSION = 2


def handle(ctx, req) -> ListTransactionsResponse:
    txn = txn_coordinator(ctx)
    states = list(req.state_filters or [])
    unknown = [s for s in states if s not in STATE_BY_NAME]
    known = [s for s in states if s in STATE_BY_NAME]
    if states and not known:
        found = []
    else:
        duration = req.duration_filter if ctx.api_version >= 1 else -1
        pattern = req.transactional_id_pattern if ctx.api_version >= 2 else None
        try:
            found = txn.list(known, req.producer_id_filters or [], duration, pattern, ctx.now_ms)
        except Exception:  # an invalid regular expression
            return ListTransactionsResponse(throttle_time_ms=0, error_code=ErrorCode.INVALID_REQUEST,
                                            unknown_state_filters=unknown, transaction_states=[])
    if ctx.services.authorizer is not None:  # the transactional ids the principal may DESCRIBE
        ok = allowed_names(ctx, DESCRIBE, TRANSACTIONAL_ID, [m.transactional_id for m in found])
        found = [m for m in found if m.transactional_id in ok]
    return ListTransactionsResponse(
        throttle_time_ms=0, error_code=0, unknown_state_filters=unknown,
        transaction_states=[TransactionState(transactional_id=m.transactional_id, producer_id=m.producer_id,
                                             transaction_state=m.state.kafka_name) for m in found])


error_response = top_level_error(ListTransactionsResponse)  # Kafka's ListTransactionsRequest.getErrorResponse
