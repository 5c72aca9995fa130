"""DeleteGroups (key 42) v0-2: removes empty groups and their committed offsets (tombstones)."""

from __future__ import annotations

from odradek.api_handlers.group_common import coordinator_error
from odradek.controller.acls import DELETE, GROUP
from odradek.wire.errors import ErrorCode
from odradek.wire.messages.delete_groups_response import DeletableGroupResult, DeleteGroupsResponse

from .authorization import allowed_names
from .context import STEP_ENTRIES, in_steps

API_KEY = 42
MIN_VERSION = 0
MAX_VERSION = 2


# the groups one step of a large request deletes at most (context.in_steps): the groups of one
# __consumer_offsets partition go in one coordinator write of their tombstones (as Kafka's one write
# operation per partition), a partition with more in several: a step of 20 groups of one offset
# each is ~1 ms (5,000 groups: 0.7 ms a step, 0.24-0.29 s in all; 2.4 ms and 1.7 s at a write per group)
GROUPS_PER_STEP = 20


def handle(ctx, request):
    """The response; a large request deletes GROUPS_PER_STEP groups a step (context.in_steps)."""
    return in_steps(_answer(ctx, request))


def _answer(ctx, request):
    elsewhere = {}
    if ctx.services.authorizer is not None:  # DELETE on each group
        ok = allowed_names(ctx, DELETE, GROUP, request.groups_names)
        elsewhere = {g: ErrorCode.GROUP_AUTHORIZATION_FAILED for g in request.groups_names if g not in ok}
    groups = ctx.services.groups
    by_partition: dict[int, list] = {}  # the groups of each __consumer_offsets partition
    for i, g in enumerate(dict.fromkeys(g for g in request.groups_names if g not in elsewhere)):
        if i and i % STEP_ENTRIES == 0:
            yield
        by_partition.setdefault(groups.partition_for(g), []).append(g)
    for partition, part in list(by_partition.items()):  # (whether this node coordinates them: by partition)
        if err := coordinator_error(ctx, part[0]):
            elsewhere.update(dict.fromkeys(part, err))
            del by_partition[partition]
    shares = ctx.services.shares
    share_ids = [] if shares is None else [g for part in by_partition.values() for g in part
                                           if shares.is_share_group(g)]
    result = {}
    for i, step in enumerate(_steps(by_partition.values(), set(share_ids))):
        if i:
            yield
        result.update(groups.delete_groups(step, ctx.now_ms))
    result.update(elsewhere)
    for gid in share_ids:  # a share group and its share-partition state
        result[gid] = shares.delete_group(gid, ctx.now_ms)
    return DeleteGroupsResponse(
        throttle_time_ms=0,
        # (a group named twice is answered once, as Kafka's keyed result collection)
        results=[DeletableGroupResult(group_id=gid, error_code=result[gid])
                 for gid in dict.fromkeys(request.groups_names)],
    )


def _steps(partitions, leave_out: set) -> list[list]:
    """The groups of each step: whole partitions' groups (a partition's in one write), at most
    GROUPS_PER_STEP a step (a partition with more split over several steps)."""
    steps: list[list] = []
    step: list = []
    for part in partitions:
        part = [g for g in part if g not in leave_out] if leave_out else part
        for i in range(0, len(part), GROUPS_PER_STEP):
            chunk = part[i:i + GROUPS_PER_STEP]
            if step and len(step) + len(chunk) > GROUPS_PER_STEP:
                steps.append(step)
                step = []
            step += chunk
    if step:
        steps.append(step)
    return steps


def error_response(v: int, req, code: int, msg: str | None):
    """Kafka's DeleteGroupsRequest.getErrorResponse."""
    return DeleteGroupsResponse(results=[
        DeletableGroupResult(group_id=g, error_code=code) for g in req.groups_names or ()])
