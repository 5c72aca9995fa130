"""ConsumerGroupDescribe (key 69) v0-1: KIP-848 groups with epochs, assignments and target assignments."""

from __future__ import annotations

import functools

from odradek.api_handlers.describe_groups import GROUP_OPERATIONS, NOT_REQUESTED
from odradek.api_handlers.authorization import allowed, operations
from odradek.api_handlers.context import made_in_parts
from odradek.api_handlers.group_common import (coordinator, coordinator_error, described_entries, image_topics,
                                               protocol_disabled)
from odradek.controller.acls import DESCRIBE, GROUP
from odradek.wire.errors import ErrorCode
from odradek.wire.messages.consumer_group_describe_response import (
    Assignment,
    ConsumerGroupDescribeResponse,
    DescribedGroup,
    Member,
    TopicPartitions,
)

API_KEY = 69
MIN_VERSION = 0
MAX_VERSION = 1  # v1: MemberType

MEMBER_TYPE_CLASSIC, MEMBER_TYPE_CONSUMER = 0, 1  # Kafka 4.3: a member using the classic protocol, or the consumer one
# READ, DELETE, DESCRIBE, DESCRIBE_CONFIGS, ALTER_CONFIGS: what Kafka 4.3 reports for a group (3400)
CONSUMER_GROUP_OPERATIONS = GROUP_OPERATIONS | (1 << 10) | (1 << 11)


def _assignment(parts) -> Assignment:
    return Assignment(topic_partitions=[TopicPartitions(topic_id=tid, topic_name=name, partitions=ps)
                                        for tid, name, ps in parts])


def handle(ctx, request):
    """The response; a large request is described STEP_ENTRIES entries (a group, each of its members) a
    step (context.made_in_parts), a small one at once."""
    if protocol_disabled(ctx, "consumer"):
        return error_response(ctx.api_version, request, ErrorCode.UNSUPPORTED_VERSION, None)
    ops = CONSUMER_GROUP_OPERATIONS if request.include_authorized_operations else NOT_REQUESTED
    coordinator(ctx).update_topics(image_topics(ctx))
    return made_in_parts(request.group_ids, functools.partial(_described, ctx, ops), described_entries, _response)


def _response(groups: list) -> ConsumerGroupDescribeResponse:
    return ConsumerGroupDescribeResponse(throttle_time_ms=0, groups=groups)


def _described(ctx, ops: int, gid: str) -> DescribedGroup:
    authorizing = ctx.services.authorizer is not None
    if authorizing and not allowed(ctx, DESCRIBE, GROUP, gid):
        return DescribedGroup(group_id=gid, error_code=ErrorCode.GROUP_AUTHORIZATION_FAILED)
    if coord_err := coordinator_error(ctx, gid):
        return DescribedGroup(group_id=gid, error_code=coord_err, group_state="",
                              group_epoch=0, assignment_epoch=0, assignor_name="",
                              authorized_operations=NOT_REQUESTED)
    d = coordinator(ctx).consumer_group_describe(gid)
    if d["error"] != ErrorCode.NONE:
        # Kafka leaves the other fields at their defaults for a group it cannot describe
        return DescribedGroup(group_id=gid, error_code=d["error"], error_message=d.get("message"),
                              group_state="", group_epoch=0, assignment_epoch=0, assignor_name="",
                              authorized_operations=NOT_REQUESTED)
    g = d["group"]
    members = []
    for md in d["members"]:
        m = md["member"]
        members.append(Member(
            member_id=m.member_id, instance_id=m.instance_id, rack_id=m.rack_id, member_epoch=m.member_epoch,
            client_id=m.client_id, client_host=m.client_host,
            subscribed_topic_names=list(m.subscribed_topic_names),
            subscribed_topic_regex=m.subscribed_topic_regex or "",
            assignment=_assignment(md["assignment"]), target_assignment=_assignment(md["target"]),
            member_type=MEMBER_TYPE_CLASSIC if m.uses_classic_protocol() else MEMBER_TYPE_CONSUMER))
    return DescribedGroup(
        error_code=0, group_id=gid, group_state=g.state, group_epoch=g.group_epoch,
        assignment_epoch=g.assignment_epoch, assignor_name=d["assignor"], members=members,
        authorized_operations=operations(ctx, GROUP, gid, ops) if authorizing and ops != NOT_REQUESTED else ops)


def error_response(v: int, req, code: int, msg: str | None):
    """Kafka's ConsumerGroupDescribeRequest.getErrorResponse."""
    return ConsumerGroupDescribeResponse(groups=[
        DescribedGroup(group_id=g, error_code=code) for g in req.group_ids or ()])
