"""StreamsGroupDescribe (key 89) v0: a streams group's topology, epochs, members and their tasks."""

from __future__ import annotations

import functools

from odradek.api_handlers.consumer_group_describe import CONSUMER_GROUP_OPERATIONS
from odradek.api_handlers.describe_groups import NOT_REQUESTED
from odradek.api_handlers.streams_group_heartbeat import streams_enabled
from odradek.api_handlers.authorization import group_denied
from odradek.api_handlers.context import made_in_parts
from odradek.api_handlers.group_common import (coordinator, coordinator_error, described_entries, image_topics,
                                               protocol_disabled)
from odradek.controller.acls import DESCRIBE
from odradek.wire.errors import ErrorCode
from odradek.wire.messages.streams_group_describe_response import (
    Assignment,
    DescribedGroup,
    Endpoint,
    KeyValue,
    Member,
    StreamsGroupDescribeResponse,
    Subtopology,
    TaskIds,
    TopicInfo,
    Topology,
)

API_KEY = 89
MIN_VERSION = 0
MAX_VERSION = 0


def _task_ids(tasks: dict) -> list:
    return [TaskIds(subtopology_id=s, partitions=sorted(ps)) for s, ps in sorted(tasks.items()) if ps]


def _assignment(t) -> Assignment:
    return Assignment(active_tasks=_task_ids(t.active), standby_tasks=_task_ids(t.standby),
                      warmup_tasks=_task_ids(t.warmup))


def _topic_info(x, counts: dict) -> TopicInfo:
    # Kafka shows the partition counts the configured topology decided for the internal topics
    return TopicInfo(name=x.name, partitions=counts.get(x.name, x.partitions), replication_factor=x.replication_factor,
                     topic_configs=[KeyValue(key=c.key, value=c.value) for c in x.topic_configs or []])


def _topology(v, configured) -> Topology:
    counts = configured.internal_partitions if configured is not None else {}
    subs = [Subtopology(subtopology_id=s.subtopology_id, source_topics=list(s.source_topics or []),
                        repartition_sink_topics=list(s.repartition_sink_topics or []),
                        state_changelog_topics=[_topic_info(x, counts) for x in s.state_changelog_topics or []],
                        repartition_source_topics=[_topic_info(x, counts) for x in s.repartition_source_topics or []])
            for s in sorted(v.subtopologies or [], key=lambda s: s.subtopology_id)]
    return Topology(epoch=v.epoch, subtopologies=subs)


def _failed(gid, code, message=None) -> DescribedGroup:
    return DescribedGroup(group_id=gid, error_code=code, error_message=message, group_state="", group_epoch=0,
                          assignment_epoch=0, authorized_operations=NOT_REQUESTED)


def handle(ctx, request):
    """The response; a large request is described STEP_ENTRIES entries (a group, each of its members) a
    step (context.made_in_parts), a small one at once."""
    ops = CONSUMER_GROUP_OPERATIONS if request.include_authorized_operations else NOT_REQUESTED
    if not streams_enabled(ctx.services) or protocol_disabled(ctx, "streams"):
        return StreamsGroupDescribeResponse(throttle_time_ms=0, groups=[
            _failed(gid, ErrorCode.UNSUPPORTED_VERSION) for gid in request.group_ids])
    coordinator(ctx).update_topics(image_topics(ctx))
    return made_in_parts(request.group_ids, functools.partial(_described, ctx, ops), described_entries, _response)


def _response(groups: list) -> StreamsGroupDescribeResponse:
    return StreamsGroupDescribeResponse(throttle_time_ms=0, groups=groups)


def _described(ctx, ops: int, gid: str) -> DescribedGroup:
    if coord_err := group_denied(ctx, DESCRIBE, gid) or coordinator_error(ctx, gid):
        return _failed(gid, coord_err)
    d = coordinator(ctx).streams_group_describe(gid)
    if d["error"] != ErrorCode.NONE:
        return _failed(gid, d["error"], d.get("message"))
    g = d["group"]
    members = []
    for m in g.members.values():
        ep = m.user_endpoint
        members.append(Member(
            member_id=m.member_id, member_epoch=m.member_epoch, instance_id=m.instance_id, rack_id=m.rack_id,
            client_id=m.client_id, client_host=m.client_host, topology_epoch=m.topology_epoch,
            process_id=m.process_id, user_endpoint=None if ep is None else Endpoint(host=ep[0], port=ep[1]),
            client_tags=[KeyValue(key=k, value=v) for k, v in sorted(m.client_tags.items())],
            task_offsets=[], task_end_offsets=[], assignment=_assignment(m.assigned),
            target_assignment=_assignment(g.target.get(m.member_id) or type(m.assigned)()),
            is_classic=False))
    return DescribedGroup(
        error_code=0, group_id=gid, group_state=g.state, group_epoch=g.group_epoch,
        assignment_epoch=g.assignment_epoch, topology=None if g.topology is None else _topology(g.topology, g.configured),
        members=members, authorized_operations=ops)


def error_response(v: int, req, code: int, msg: str | None):
    """Kafka's StreamsGroupDescribeRequest.getErrorResponse."""
    return StreamsGroupDescribeResponse(groups=[
        DescribedGroup(group_id=g, error_code=code, error_message=msg) for g in req.group_ids or ()])
