"""DeleteGroups (key 42) v0-2: removes empty groups and their committed offsets (tombstones)."""

from __future__ import annotations

from odradek.api_handlers.group_common import coordinator_error
from odradek.controller.acls import DELETE, GROUP
from odradek.wire.errors import ErrorCode
from odradek.wire.messages.delete_groups_response import DeletableGroupResult, DeleteGroupsResponse

from .authorization import allowed_names
from .context import in_steps

API_KEY = 42
MIN_VERSION = 0
MAX_VERSION = 2


# the groups one step of a large request deletes (context.in_steps): each is a coordinator write
# of its tombstones, ~0.1-0.3 ms, so a step is a few ms
GROUPS_PER_STEP = 20


def handle(ctx, request):
    """The response; a large request deletes GROUPS_PER_STEP groups a step (context.in_steps)."""
    return in_steps(_answer(ctx, request))


def _answer(ctx, request):
    elsewhere = {}
    if ctx.services.authorizer is not None:  # DELETE on each group
        ok = allowed_names(ctx, DELETE, GROUP, request.groups_names)
        elsewhere = {g: ErrorCode.GROUP_AUTHORIZATION_FAILED for g in request.groups_names if g not in ok}
    elsewhere.update({g: err for g in request.groups_names if g not in elsewhere and (err := coordinator_error(ctx, g))})
    names = [g for g in request.groups_names if g not in elsewhere]
    shares = ctx.services.shares
    share_ids = [g for g in names if shares is not None and shares.is_share_group(g)]
    groups = ctx.services.groups
    result = {}
    others = [g for g in names if g not in share_ids]
    for i in range(0, len(others), GROUPS_PER_STEP):
        if i:
            yield
        result.update(groups.delete_groups(others[i:i + GROUPS_PER_STEP], ctx.now_ms))
    result.update(elsewhere)
    for gid in share_ids:  # a share group and its share-partition state
        result[gid] = shares.delete_group(gid, ctx.now_ms)
    return DeleteGroupsResponse(
        throttle_time_ms=0,
        results=[DeletableGroupResult(group_id=gid, error_code=result[gid]) for gid in request.groups_names],
    )


def error_response(v: int, req, code: int, msg: str | None):
    """Kafka's DeleteGroupsRequest.getErrorResponse."""
    return DeleteGroupsResponse(results=[
        DeletableGroupResult(group_id=g, error_code=code) for g in req.groups_names or ()])
