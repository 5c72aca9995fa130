"""CreatePartitions (key 37) v0-3."""

from __future__ import annotations

from odradek.wire.messages.create_partitions_response import CreatePartitionsResponse, CreatePartitionsTopicResult

API_KEY = 37
MIN_VERSION = 0
MAX_VERSION = 3


def handle(ctx, request) -> CreatePartitionsResponse:
    items = [(t.name, t.count, None if t.assignments is None else [list(a.broker_ids) for a in t.assignments])
             for t in request.topics]
    results = ctx.services.metadata.create_partitions(items, bool(request.validate_only), ctx.now_ms)
    return CreatePartitionsResponse(throttle_time_ms=0, results=[
        CreatePartitionsTopicResult(name=n, error_code=int(code), error_message=msg) for n, code, msg in results])


def error_response(v: int, req, code: int, msg: str | None):
    """Kafka's CreatePartitionsRequest.getErrorResponse."""
    return CreatePartitionsResponse(results=[
        CreatePartitionsTopicResult(name=t.name, error_code=code, error_message=msg)
        for t in req.topics or ()])
