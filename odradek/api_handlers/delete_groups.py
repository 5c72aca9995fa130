"""DeleteGroups (key 42) v0-2: removes empty groups and their committed offsets (tombstones)."""

from __future__ import annotations

from odradek.wire.messages.delete_groups_response import DeletableGroupResult, DeleteGroupsResponse

API_KEY = 42
MIN_VERSION = 0
MAX_VERSION = 2


def handle(ctx, request) -> DeleteGroupsResponse:
    result = ctx.broker.groups.delete_groups(list(request.groups_names), ctx.now_ms)
    return DeleteGroupsResponse(
        throttle_time_ms=0,
        results=[DeletableGroupResult(group_id=gid, error_code=result[gid]) for gid in request.groups_names],
    )
