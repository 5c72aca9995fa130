"""OffsetDelete (key 47) v0: drop committed offsets of partitions the group no longer consumes."""

from __future__ import annotations

from odradek.api_handlers.group_common import coordinator_error, split_known_partitions
from odradek.wire.errors import ErrorCode
from odradek.wire.messages.offset_delete_response import (
    OffsetDeleteResponse,
    OffsetDeleteResponsePartition,
    OffsetDeleteResponseTopic,
)

API_KEY = 47
MIN_VERSION = 0
MAX_VERSION = 0


def handle(ctx, request) -> OffsetDeleteResponse:
    if coord_err := coordinator_error(ctx, request.group_id):
        return OffsetDeleteResponse(error_code=coord_err, throttle_time_ms=0, topics=[])
    known, errors = split_known_partitions(ctx, request.topics, lambda p: None)
    top, result = ctx.services.groups.delete_offsets(request.group_id, list(known), ctx.now_ms)
    if top:
        return OffsetDeleteResponse(error_code=top, throttle_time_ms=0, topics=[])
    errors.update(result)
    return OffsetDeleteResponse(
        error_code=0,
        throttle_time_ms=0,
        topics=[OffsetDeleteResponseTopic(name=t.name, partitions=[
            OffsetDeleteResponsePartition(partition_index=p.partition_index,
                                          error_code=errors.get((t.name, p.partition_index), 0))
            for p in t.partitions]) for t in request.topics],
    )


def error_response(v: int, req, code: int, msg: str | None):
    """Kafka's OffsetDeleteRequest.getErrorResponse."""
    return OffsetDeleteResponse(error_code=code, topics=[])
