"""OffsetDelete (key 47) v0: drop committed offsets of partitions the group no longer consumes."""

from __future__ import annotations

from odradek.api_handlers.context import STEP_ENTRIES, StepCount, in_steps
from odradek.api_handlers.group_common import coordinator_error, split_known_partitions_in_steps
from odradek.wire.errors import ErrorCode
from odradek.wire.messages.offset_delete_response import (
    OffsetDeleteResponse,
    OffsetDeleteResponsePartition,
    OffsetDeleteResponseTopic,
)

API_KEY = 47
MIN_VERSION = 0
MAX_VERSION = 0


def handle(ctx, request):
    """The response, made STEP_ENTRIES partitions a step for a large request (context.in_steps), the
    tombstones' keys too; the coordinator's deletion (its checks, its one write, the apply) is one step."""
    return in_steps(_answer(ctx, request))


def _answer(ctx, request):
    if coord_err := coordinator_error(ctx, request.group_id):
        return OffsetDeleteResponse(error_code=coord_err, throttle_time_ms=0, topics=[])
    count = StepCount()
    known, errors = yield from split_known_partitions_in_steps(ctx, request.topics, lambda p: None, count)
    groups = ctx.services.groups
    keys = None
    if len(known) >= STEP_ENTRIES:  # the tombstones' keys made STEP_ENTRIES a step, then a step for the deletion
        staging = StepCount()
        keys = yield from groups.offset_keys(request.group_id, known, staging.due)
        yield
        if coord_err := coordinator_error(ctx, request.group_id):
            return OffsetDeleteResponse(error_code=coord_err, throttle_time_ms=0, topics=[])
    top, result = groups.delete_offsets(request.group_id, list(known), ctx.now_ms, keys)
    if top:
        return OffsetDeleteResponse(error_code=top, throttle_time_ms=0, topics=[])
    errors.update(result)
    topics = []
    for t in request.topics:
        parts = []
        for p in t.partitions:
            if count.due():
                yield
            parts.append(OffsetDeleteResponsePartition(partition_index=p.partition_index,
                                                       error_code=errors.get((t.name, p.partition_index), 0)))
        topics.append(OffsetDeleteResponseTopic(name=t.name, partitions=parts))
    return OffsetDeleteResponse(error_code=0, throttle_time_ms=0, topics=topics)


def error_response(v: int, req, code: int, msg: str | None):
    """Kafka's OffsetDeleteRequest.getErrorResponse."""
    return OffsetDeleteResponse(error_code=code, topics=[])
