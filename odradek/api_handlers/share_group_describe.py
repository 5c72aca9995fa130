"""ShareGroupDescribe (key 77) v1: state, epochs, assignor and members of share groups."""

from __future__ import annotations

import functools

from odradek.api_handlers.authorization import group_denied
from odradek.api_handlers.context import made_in_parts
from odradek.api_handlers.group_common import coordinator_error, described_entries
from odradek.coordinator.errors import CoordinatorError
from odradek.controller.acls import DESCRIBE
from odradek.wire.errors import ErrorCode
from odradek.wire.messages.share_group_describe_response import (
    Assignment,
    DescribedGroup,
    Member,
    ShareGroupDescribeResponse,
    TopicPartitions,
)

from .describe_groups import GROUP_OPERATIONS, NOT_REQUESTED
from .share_common import is_other_group, share_enabled

API_KEY = 77
MIN_VERSION = 1
MAX_VERSION = 1


def handle(ctx, request):
    """The response; a large request is described STEP_ENTRIES entries (a group, each of its members) a
    step (context.made_in_parts), a small one at once."""
    services = ctx.services
    ops = GROUP_OPERATIONS if request.include_authorized_operations else NOT_REQUESTED
    if not share_enabled(services):
        return _response([DescribedGroup(error_code=ErrorCode.UNSUPPORTED_VERSION, group_id=gid, group_state="Dead",
                                         assignor_name="", members=[], authorized_operations=NOT_REQUESTED)
                          for gid in request.group_ids])
    names = {bytes(t.topic_id): name for name, t in services.metadata.image.topics.items()}
    return made_in_parts(request.group_ids, functools.partial(_described, ctx, ops, names), described_entries, _response)


def _response(groups: list) -> ShareGroupDescribeResponse:
    return ShareGroupDescribeResponse(throttle_time_ms=0, groups=groups)


def _described(ctx, ops: int, names: dict, gid: str) -> DescribedGroup:
    if denied := group_denied(ctx, DESCRIBE, gid):  # (Kafka 4.3 sends no message with it)
        return DescribedGroup(error_code=denied, error_message=None, group_id=gid, group_state="",
                              group_epoch=0, assignment_epoch=0, assignor_name="", members=[],
                              authorized_operations=NOT_REQUESTED)
    if err := coordinator_error(ctx, gid):
        return DescribedGroup(error_code=err, error_message=err.message, group_id=gid, group_state="",
                              group_epoch=0, assignment_epoch=0, assignor_name="", members=[],
                              authorized_operations=NOT_REQUESTED)
    try:
        if is_other_group(ctx, gid):
            raise CoordinatorError(ErrorCode.GROUP_ID_NOT_FOUND, f"Group {gid} is not a share group.")
        d = ctx.services.shares.describe(gid, names)
    except CoordinatorError as f:
        return DescribedGroup(error_code=f.code, error_message=f.message, group_id=gid, group_state="Dead",
                              group_epoch=-1, assignment_epoch=-1, assignor_name="", members=[],
                              authorized_operations=NOT_REQUESTED)
    members = [Member(member_id=m.member_id, rack_id=m.rack_id, member_epoch=m.member_epoch, client_id=m.client_id,
                      client_host=m.client_host, subscribed_topic_names=list(m.subscribed),
                      assignment=Assignment(topic_partitions=[
                          TopicPartitions(topic_id=tid, topic_name=names.get(tid, ""), partitions=sorted(ps))
                          for tid, ps in sorted(m.assignment.items())]))
               for m in d["members"]]
    return DescribedGroup(error_code=0, error_message=None, group_id=gid, group_state=d["state"],
                          group_epoch=d["group_epoch"], assignment_epoch=d["assignment_epoch"],
                          assignor_name=d["assignor"], members=members, authorized_operations=ops)


def error_response(v: int, req, code: int, msg: str | None):
    """Kafka's ShareGroupDescribeRequest.getErrorResponse."""
    return ShareGroupDescribeResponse(groups=[
        DescribedGroup(group_id=g, error_code=code, error_message=msg) for g in req.group_ids or ()])
