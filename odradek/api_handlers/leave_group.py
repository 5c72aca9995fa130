"""LeaveGroup (key 13): one member (v0-2) or a batch of members, static ones by instance id (v3+)."""

from __future__ import annotations

from odradek.api_handlers.error_responses import top_level_error
from odradek.api_handlers.group_common import coordinator_error, coordinator, image_topics
from odradek.wire.errors import ErrorCode
from odradek.wire.messages.leave_group_response import LeaveGroupResponse, MemberResponse

API_KEY = 13
MIN_VERSION = 0
MAX_VERSION = 5


def handle(ctx, request) -> LeaveGroupResponse:
    v = ctx.api_version
    if coord_err := coordinator_error(ctx, request.group_id):
        return LeaveGroupResponse(throttle_time_ms=0, error_code=coord_err, members=[])
    coord = coordinator(ctx)
    if v < 3:
        top, errors = coord.leave_group(request.group_id, [(request.member_id, None)], ctx.now_ms,
                                        topics=image_topics(ctx))
        return LeaveGroupResponse(throttle_time_ms=0, error_code=top if top else errors[0])
    members = [(m.member_id, m.group_instance_id) for m in request.members]
    top, errors = coord.leave_group(request.group_id, members, ctx.now_ms, topics=image_topics(ctx))
    if top:
        return LeaveGroupResponse(throttle_time_ms=0, error_code=top, members=[])
    return LeaveGroupResponse(
        throttle_time_ms=0,
        error_code=0,
        members=[MemberResponse(member_id=mid, group_instance_id=iid, error_code=err)
                 for (mid, iid), err in zip(members, errors)],
    )


error_response = top_level_error(LeaveGroupResponse)  # Kafka's LeaveGroupRequest.getErrorResponse
