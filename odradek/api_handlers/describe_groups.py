"""DescribeGroups (key 15) v0-5: state, protocol and members (with assignments when Stable)."""

from __future__ import annotations

from odradek.wire.messages.describe_groups_response import (
    DescribedGroup,
    DescribedGroupMember,
    DescribeGroupsResponse,
)

API_KEY = 15
MIN_VERSION = 0
MAX_VERSION = 5

# READ | DELETE | DESCRIBE (AclOperation codes 3, 6, 8): what a group lets a client do
GROUP_OPERATIONS = (1 << 3) | (1 << 6) | (1 << 8)
NOT_REQUESTED = -(2**31)


def handle(ctx, request) -> DescribeGroupsResponse:
    v = ctx.api_version
    coord = ctx.broker.groups
    ops = GROUP_OPERATIONS if v >= 3 and request.include_authorized_operations else NOT_REQUESTED
    out = []
    for gid in request.groups:
        d = coord.describe_group(gid)
        out.append(DescribedGroup(
            error_code=d["error"],
            group_id=gid,
            group_state=d["state"],
            protocol_type=d["protocol_type"],
            protocol_data=d["protocol"],
            members=[DescribedGroupMember(member_id=m["member_id"], group_instance_id=m["group_instance_id"],
                                          client_id=m["client_id"], client_host=m["client_host"],
                                          member_metadata=m["metadata"], member_assignment=m["assignment"])
                     for m in d["members"]],
            authorized_operations=ops,
        ))
    return DescribeGroupsResponse(throttle_time_ms=0, groups=out)
