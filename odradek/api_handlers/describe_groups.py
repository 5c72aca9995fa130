"""DescribeGroups (key 15) v0-6: state, protocol and members (with assignments when Stable).
v6 (KIP-1043) answers GROUP_ID_NOT_FOUND with a message for an unknown or non-classic group;
older versions describe it as Dead with no error, as Kafka 4.3 does."""

from __future__ import annotations

import functools

from odradek.api_handlers.group_common import coordinator_error, described_entries
from odradek.controller.acls import DESCRIBE, GROUP
from odradek.wire.errors import ErrorCode
from odradek.wire.messages.describe_groups_response import (
    DescribedGroup,
    DescribedGroupMember,
    DescribeGroupsResponse,
)

from .authorization import allowed, operations
from .context import made_in_parts

API_KEY = 15
MIN_VERSION = 0
MAX_VERSION = 6

# READ | DELETE | DESCRIBE (AclOperation codes 3, 6, 8): what a group lets a client do
GROUP_OPERATIONS = (1 << 3) | (1 << 6) | (1 << 8)
NOT_REQUESTED = -(2**31)


def handle(ctx, request):
    """The response; a large request is described STEP_ENTRIES entries (a group, each of its members) a
    step (context.made_in_parts), a small one at once."""
    v = ctx.api_version
    ops = GROUP_OPERATIONS if v >= 3 and request.include_authorized_operations else NOT_REQUESTED
    return made_in_parts(request.groups, functools.partial(_described, ctx, ops), described_entries, _response)


def _response(groups: list) -> DescribeGroupsResponse:
    return DescribeGroupsResponse(throttle_time_ms=0, groups=groups)


def _described(ctx, ops: int, gid: str) -> DescribedGroup:
    v = ctx.api_version
    authorizing = ctx.services.authorizer is not None
    if authorizing and not allowed(ctx, DESCRIBE, GROUP, gid):  # Kafka's DescribeGroupsResponse.groupError
        return DescribedGroup(error_code=ErrorCode.GROUP_AUTHORIZATION_FAILED, group_id=gid, group_state="",
                              protocol_type="", protocol_data="", members=[],
                              authorized_operations=NOT_REQUESTED)
    if coord_err := coordinator_error(ctx, gid):
        return DescribedGroup(error_code=coord_err, group_id=gid, group_state="",
                              protocol_type="", protocol_data="", members=[],
                              authorized_operations=NOT_REQUESTED)
    d = ctx.services.groups.describe_group(gid)  # a group of another type: Dead, "not a classic group"
    error, message = d["error"], d.get("message")
    if error == ErrorCode.NONE and d["state"] == "Dead":
        error, message = ErrorCode.GROUP_ID_NOT_FOUND, message or f"Group {gid} not found."
    if error == ErrorCode.GROUP_ID_NOT_FOUND and v < 6:
        error, message = ErrorCode.NONE, None
    return DescribedGroup(
        error_code=error,
        error_message=message if v >= 6 else None,
        group_id=gid,
        group_state=d["state"],
        protocol_type=d["protocol_type"],
        protocol_data=d["protocol"],
        members=[DescribedGroupMember(member_id=m["member_id"], group_instance_id=m["group_instance_id"],
                                      client_id=m["client_id"], client_host=m["client_host"],
                                      member_metadata=m["metadata"], member_assignment=m["assignment"])
                 for m in d["members"]],
        authorized_operations=operations(ctx, GROUP, gid, ops) if authorizing and ops != NOT_REQUESTED
        else ops,
    )


def error_response(v: int, req, code: int, msg: str | None):
    """Kafka's DescribeGroupsRequest.getErrorResponse."""
    return DescribeGroupsResponse(groups=[
        DescribedGroup(group_id=g, error_code=code, group_state="", protocol_type="",
                       protocol_data="", members=[], authorized_operations=NOT_REQUESTED)
        for g in req.groups or ()])
