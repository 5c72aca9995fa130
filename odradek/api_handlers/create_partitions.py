"""CreatePartitions (key 37) v0-3.

Under a controller_mutation_rate quota the request is decided first, then the partitions each
topic that passed adds are admitted in request order (from v3 a topic past the quota is refused
with THROTTLING_QUOTA_EXCEEDED), then the admitted are made. More than 10,000 topics (after the
duplicates and those not authorized) refuse the request whole, as Kafka's controller (a batch's bound:
Decisions.create_partitions)."""

from __future__ import annotations

from odradek.api_handlers.authorization import allowed_names
from odradek.api_handlers.mutation_quota import THROTTLED_MESSAGE, request_quota, throttle_ms
from odradek.controller.acls import ALTER, TOPIC
from odradek.controller.result import Refusal
from odradek.wire.errors import ErrorCode
from odradek.wire.messages.create_partitions_response import CreatePartitionsResponse, CreatePartitionsTopicResult

API_KEY = 37
MIN_VERSION = 0
MAX_VERSION = 3
STRICT_QUOTA_SINCE = 3  # Kafka's ControllerApis: newQuotaFor(request, strictSinceVersion = 3)


def handle(ctx, request) -> CreatePartitionsResponse:
    items = [(t.name, t.count, None if t.assignments is None else [list(a.broker_ids) for a in t.assignments])
             for t in request.topics]
    metadata = ctx.services.metadata
    validate_only = bool(request.validate_only)
    denied: list = []
    if ctx.services.authorizer is not None:  # ALTER on each topic (Kafka's ControllerApis.createPartitions)
        ok = allowed_names(ctx, ALTER, TOPIC, {t.name for t in request.topics})
        denied = [(n, ErrorCode.TOPIC_AUTHORIZATION_FAILED, None) for n in dict.fromkeys(
            t.name for t in request.topics if t.name not in ok)]
        items = [i for i in items if i[0] in ok]
    quota = request_quota(ctx, STRICT_QUOTA_SINCE)
    if quota is None:
        results = metadata.create_partitions(items, validate_only, ctx.now_ms) if items else []
        if isinstance(results, Refusal):  # more topics than one controller batch answers
            return error_response(ctx.api_version, request, results.error_code, results.message)
    else:
        topics = metadata.image.topics
        refused = {}
        decided = metadata.create_partitions(items, True, ctx.now_ms) if items else []
        if isinstance(decided, Refusal):
            return error_response(ctx.api_version, request, decided.error_code, decided.message)
        for name, code, _ in decided:
            if code == 0:
                count = next(c for n, c, _ in items if n == name)
                if not quota.admit(count - len(topics[name].partitions), ctx.now_ms):
                    refused[name] = (name, int(ErrorCode.THROTTLING_QUOTA_EXCEEDED), THROTTLED_MESSAGE)
        admitted = [i for i in items if i[0] not in refused]
        made = {r[0]: r for r in metadata.create_partitions(admitted, validate_only, ctx.now_ms)} if admitted else {}
        results = [refused.get(n) or made[n] for n in dict.fromkeys(i[0] for i in items)]
    return CreatePartitionsResponse(throttle_time_ms=throttle_ms(quota, ctx.now_ms), results=[
        CreatePartitionsTopicResult(name=n, error_code=int(code), error_message=msg)
        for n, code, msg in results + denied])


def error_response(v: int, req, code: int, msg: str | None):
    """Kafka's CreatePartitionsRequest.getErrorResponse."""
    return CreatePartitionsResponse(results=[
        CreatePartitionsTopicResult(name=t.name, error_code=code, error_message=msg)
        for t in req.topics or ()])
