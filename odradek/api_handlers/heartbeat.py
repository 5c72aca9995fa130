"""Heartbeat (key 12): keeps a classic member's session alive; tells it when to rejoin."""

from __future__ import annotations

from odradek.api_handlers.error_responses import top_level_error
from odradek.api_handlers.group_common import coordinator_error, coordinator
from odradek.wire.errors import ErrorCode
from odradek.wire.messages.heartbeat_response import HeartbeatResponse

API_KEY = 12
MIN_VERSION = 0
MAX_VERSION = 4


def handle(ctx, request) -> HeartbeatResponse:
    if coord_err := coordinator_error(ctx, request.group_id):
        return HeartbeatResponse(throttle_time_ms=0, error_code=coord_err)
    err = coordinator(ctx).heartbeat(request.group_id, request.generation_id, request.member_id,
                                      request.group_instance_id if ctx.api_version >= 3 else None, ctx.now_ms)
    return HeartbeatResponse(throttle_time_ms=0, error_code=err)


error_response = top_level_error(HeartbeatResponse)  # Kafka's HeartbeatRequest.getErrorResponse
