"""DeleteTopics (key 20) v1-6: by name, and from v6 by name or topic id."""

from __future__ import annotations

from odradek.wire.errors import ErrorCode
from odradek.wire.messages.delete_topics_response import DeletableTopicResult, DeleteTopicsResponse

API_KEY = 20
MIN_VERSION = 1
MAX_VERSION = 6

ZERO_UUID = bytes(16)


def handle(ctx, request) -> DeleteTopicsResponse:
    errors: list = []
    names: list[str] = []
    ids: list[bytes] = []
    if ctx.api_version >= 6:
        for t in request.topics:
            has_id = t.topic_id != ZERO_UUID
            if t.name is not None and has_id:
                errors.append((t.name, t.topic_id, ErrorCode.INVALID_REQUEST,
                               "You may not specify both topic name and topic id."))
            elif t.name is None and not has_id:
                errors.append((None, ZERO_UUID, ErrorCode.INVALID_REQUEST,
                               "Neither topic name nor id were specified."))
            elif has_id:
                ids.append(t.topic_id)
            else:
                names.append(t.name)
    else:
        names = list(request.topic_names)
    results = errors + ctx.services.metadata.delete_topics(names=names, ids=ids, now_ms=ctx.now_ms)
    responses = []
    for name, topic_id, code, message in results:
        if name is None and ctx.api_version < 6:
            name = ""
        responses.append(DeletableTopicResult(name=name, topic_id=topic_id, error_code=int(code),
                                              error_message=message))
    return DeleteTopicsResponse(throttle_time_ms=0, responses=responses)


def error_response(v: int, req, code: int, msg: str | None):
    """Kafka's DeleteTopicsRequest.getErrorResponse."""
    if v >= 6:
        states = [(t.name, t.topic_id) for t in req.topics or ()]
    else:
        from odradek.wire.primitives import ZERO_UUID
        states = [(n, ZERO_UUID) for n in req.topic_names or ()]
    return DeleteTopicsResponse(responses=[
        DeletableTopicResult(name=n, topic_id=tid, error_code=code) for n, tid in states])
