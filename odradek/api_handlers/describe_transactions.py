"""DescribeTransactions (key 65) v0: the coordinator's view of transactional ids."""

from __future__ import annotations

from odradek.controller.acls import DESCRIBE, TOPIC, TRANSACTIONAL_ID
from odradek.wire.errors import ErrorCode
from odradek.wire.messages.describe_transactions_response import (
    DescribeTransactionsResponse,
    TopicData,
    TransactionState,
)

from .authorization import allowed, allowed_names
from .context import STEP_ENTRIES, in_steps
from .txn_common import txn_coordinator

API_KEY = 65
MIN_VERSION = 0
MAX_VERSION = 0


def handle(ctx, req):
    """The response, made STEP_ENTRIES ids a step for a large request (context.in_steps)."""
    return in_steps(_answer(ctx, req))


def _answer(ctx, req):
    txn = txn_coordinator(ctx)
    out = []
    authorizing = ctx.services.authorizer is not None
    for i, tid in enumerate(req.transactional_ids, 1):
        if i % STEP_ENTRIES == 0:
            yield
        if authorizing and not allowed(ctx, DESCRIBE, TRANSACTIONAL_ID, tid):
            out.append(TransactionState(error_code=ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED, transactional_id=tid))
            continue
        if err := txn.coordinator_error(tid):
            out.append(TransactionState(error_code=err, transactional_id=tid,
                                        transaction_state="", transaction_timeout_ms=0, transaction_start_time_ms=0,
                                        producer_id=0, producer_epoch=0, topics=[]))
            continue
        m = txn.describe(tid)
        if m is None:
            out.append(TransactionState(error_code=ErrorCode.TRANSACTIONAL_ID_NOT_FOUND, transactional_id=tid,
                                        transaction_state="", transaction_timeout_ms=0, transaction_start_time_ms=-1,
                                        producer_id=-1, producer_epoch=-1, topics=[]))
            continue
        by_topic: dict = {}
        for t, p in sorted(m.partitions):
            by_topic.setdefault(t, []).append(p)
        if authorizing:  # only the topics the principal may DESCRIBE
            ok = allowed_names(ctx, DESCRIBE, TOPIC, by_topic)
            by_topic = {t: ps for t, ps in by_topic.items() if t in ok}
        out.append(TransactionState(
            error_code=0, transactional_id=tid, transaction_state=m.state.kafka_name,
            transaction_timeout_ms=m.timeout_ms, transaction_start_time_ms=m.start_ms,
            producer_id=m.producer_id, producer_epoch=m.producer_epoch,
            topics=[TopicData(topic=t, partitions=ps) for t, ps in by_topic.items()]))
    return DescribeTransactionsResponse(throttle_time_ms=0, transaction_states=out)


def error_response(v: int, req, code: int, msg: str | None):
    """Kafka's DescribeTransactionsRequest.getErrorResponse."""
    return DescribeTransactionsResponse(transaction_states=[
        TransactionState(transactional_id=t, error_code=code) for t in req.transactional_ids or ()])
