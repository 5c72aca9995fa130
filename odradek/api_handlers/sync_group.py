"""SyncGroup (key 14): the leader hands out assignments; followers park until it does."""

from __future__ import annotations

from odradek.api_handlers.join_group import park
from odradek.api_handlers.group_common import coordinator_error, coordinator, image_topics
from odradek.coordinator.group_state import SyncResult
from odradek.wire.errors import ErrorCode
from odradek.wire.messages.sync_group_response import SyncGroupResponse

API_KEY = 14
MIN_VERSION = 0
MAX_VERSION = 5


def build_response(v: int, r: SyncResult) -> SyncGroupResponse:
    return SyncGroupResponse(throttle_time_ms=0, error_code=r.error,
                             protocol_type=r.protocol_type if v >= 5 else None,
                             protocol_name=r.protocol_name if v >= 5 else None,
                             assignment=r.assignment or b"")


def handle(ctx, request):
    v = ctx.api_version
    if coord_err := coordinator_error(ctx, request.group_id):
        return build_response(v, SyncResult(error=coord_err))
    coord = coordinator(ctx)
    slot = coord.sync_group(
        request.group_id,
        request.generation_id,
        request.member_id,
        request.group_instance_id if v >= 3 else None,
        request.protocol_type if v >= 5 else None,
        request.protocol_name if v >= 5 else None,
        {a.member_id: a.assignment for a in request.assignments},
        ctx.now_ms,
        topics=image_topics(ctx),  # (a classic member of a consumer group is answered its partitions by name)
    )
    timeout = coord.rebalance_timeout_ms(request.group_id)
    return park(ctx, slot, build_response, timeout, request.group_id, _rebalancing)


def _rebalancing(member_id: str) -> SyncResult:
    return SyncResult(error=ErrorCode.REBALANCE_IN_PROGRESS)


def error_response(v: int, req, code: int, msg: str | None):
    """Kafka's SyncGroupRequest.getErrorResponse."""
    return SyncGroupResponse(error_code=code, assignment=b"")
