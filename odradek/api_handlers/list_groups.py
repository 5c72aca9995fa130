"""ListGroups (key 16) v0-5: every group (classic, consumer, share), filtered by state (v4+) and type (v5+)."""

from __future__ import annotations

from odradek.controller.acls import CLUSTER, CLUSTER_NAME, DESCRIBE, GROUP
from odradek.wire.messages.list_groups_response import ListedGroup, ListGroupsResponse

from .authorization import allowed, allowed_names

API_KEY = 16
MIN_VERSION = 0
MAX_VERSION = 5


def handle(ctx, request) -> ListGroupsResponse:
    v = ctx.api_version
    states = request.states_filter if v >= 4 else None
    types = request.types_filter if v >= 5 else None
    groups = ctx.services.groups.list_groups(states or None, types or None)  # share groups too: one map
    if ctx.services.authorizer is not None and not allowed(ctx, DESCRIBE, CLUSTER, CLUSTER_NAME):
        # the groups the principal may DESCRIBE (Kafka: all of them with DESCRIBE on the cluster)
        ok = allowed_names(ctx, DESCRIBE, GROUP, [g[0] for g in groups])
        groups = [g for g in groups if g[0] in ok]
    return ListGroupsResponse(
        throttle_time_ms=0,
        error_code=0,
        groups=[ListedGroup(group_id=gid, protocol_type=ptype, group_state=state, group_type=gtype)
                for gid, ptype, state, gtype in groups],
    )


def error_response(v: int, req, code: int, msg: str | None):
    """Kafka's ListGroupsRequest.getErrorResponse."""
    return ListGroupsResponse(error_code=code, groups=[])
