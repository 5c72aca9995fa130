"""OffsetCommit (key 8) v2-10: member commits (generation checked) and simple commits (generation -1).

v10 (KIP-848) names topics by id. As Kafka 4.3's KafkaApis.handleOffsetCommitRequest: an id the
metadata does not know (or the zero id) answers UNKNOWN_TOPIC_ID for all its partitions; a name
(v2-9) it does not know, UNKNOWN_TOPIC_OR_PARTITION; so does a partition the topic lacks. Only the
rest goes to the coordinator, which stores the topic's id with each offset (any version), and only
if anything is left. The response is Kafka's OffsetCommitResponse.Builder: the error topics in
request order, then the coordinator's answer merged in (partitions join a topic already there,
keyed by id from v10, by name before). Classic groups commit through v10 as through v9.
"""

from __future__ import annotations

from odradek.api_handlers.authorization import allowed_names
from odradek.api_handlers.context import STEP_ENTRIES, StepCount, in_steps
from odradek.api_handlers.group_common import TopicAnswers, coordinator_error, metadata_topics
from odradek.controller.acls import READ, TOPIC
from odradek.wire.errors import ErrorCode
from odradek.wire.messages.offset_commit_response import (
    OffsetCommitResponse,
    OffsetCommitResponsePartition,
    OffsetCommitResponseTopic,
)
from odradek.wire.primitives import ZERO_UUID

from .common import mirror_partitions


API_KEY = 8
MIN_VERSION = 2
MAX_VERSION = 10


def _denied_topics(ctx, request, topics_by_id) -> set:
    """The request's topics the principal may not READ (the group's READ is checked before the handler)."""
    names = set()
    for t in request.topics:
        if ctx.api_version >= 10:
            ti = topics_by_id.get(t.topic_id)
            if ti is not None:
                names.add(ti.name)
        else:
            names.add(t.name)
    return names - allowed_names(ctx, READ, TOPIC, names)


def handle(ctx, request):
    """The response, made in steps for a large request (context.in_steps; run as coordinator events,
    each step one: broker/coordinator_events.py): the partitions checked against the metadata and
    the offsets' records made and the answer STEP_ENTRIES partitions a step, the coordinator's commit
    (its checks, its records one atomic write as Kafka's CoordinatorResult, the apply) one step."""
    return in_steps(_answer(ctx, request))


def _answer(ctx, request):
    v = ctx.api_version
    by_id = v >= 10
    coord = ctx.services.groups
    topics, topics_by_id = metadata_topics(ctx)
    out = TopicAnswers(by_id, lambda name, topic_id: OffsetCommitResponseTopic(  # Kafka's Builder
        name=name, topic_id=topic_id, partitions=[]))
    count = StepCount()
    accepted = []  # [(topic_id, name, [request partition])] in request order
    offsets: dict = {}  # {(name, partition): (offset, leader epoch, metadata)} of the accepted ones
    topic_ids: dict = {}  # {name: topic id} of the accepted ones
    denied = _denied_topics(ctx, request, topics_by_id) if ctx.services.authorizer is not None else ()
    for t in request.topics:
        err = None
        if by_id:
            ti = topics_by_id.get(t.topic_id) if t.topic_id != ZERO_UUID else None
            if ti is None:
                topic_id, name, err = t.topic_id, "", ErrorCode.UNKNOWN_TOPIC_ID
            else:
                name, topic_id = ti.name, t.topic_id
                if denied and name in denied:
                    err = ErrorCode.TOPIC_AUTHORIZATION_FAILED
        else:
            name = t.name
            ti = topics.get(name)
            topic_id = ti.topic_id if ti is not None else ZERO_UUID
            if denied and name in denied:
                topic_id, err = ZERO_UUID, ErrorCode.TOPIC_AUTHORIZATION_FAILED
            elif ti is None:
                err = ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
        if err is not None:
            answered = out.partitions(name, topic_id)
            for p in t.partitions:
                if count.due():
                    yield
                answered.append(OffsetCommitResponsePartition(partition_index=p.partition_index, error_code=err))
            continue
        known = ti.partitions
        valid, unknown = [], None
        for p in t.partitions:
            if count.due():
                yield
            if p.partition_index in known:
                valid.append(p)
                offsets[name, p.partition_index] = (p.committed_offset, p.committed_leader_epoch if v >= 6 else -1,
                                                    p.committed_metadata)
                continue
            if unknown is None:
                unknown = out.partitions(name, topic_id)
            unknown.append(OffsetCommitResponsePartition(partition_index=p.partition_index,
                                                         error_code=ErrorCode.UNKNOWN_TOPIC_OR_PARTITION))
        if valid:
            accepted.append((topic_id, name, valid))
            topic_ids[name] = topic_id
    if not accepted:
        return OffsetCommitResponse(throttle_time_ms=0, topics=out.topics)

    retention_ms = request.retention_time_ms if v <= 4 else -1
    staged = None
    if len(offsets) >= STEP_ENTRIES and not coordinator_error(ctx, request.group_id):
        # the offsets' records made STEP_ENTRIES a step (they do not depend on the group's state),
        # then a step of their own for the commit
        staging = StepCount()
        staged = yield from coord.stage_offsets(request.group_id, offsets, ctx.now_ms, retention_ms, topic_ids,
                                                staging.due)
        yield
    if coord_err := coordinator_error(ctx, request.group_id):
        errors = dict.fromkeys(offsets, coord_err)
    else:  # (one step: the coordinator's checks, its one write and the state change)
        errors = coord.commit_offsets(
            request.group_id,
            request.generation_id_or_member_epoch,
            request.member_id,
            request.group_instance_id if v >= 7 else None,
            offsets,
            ctx.now_ms,
            retention_time_ms=retention_ms,
            api_version=v,
            topic_ids=topic_ids,
            staged=staged,
        )
    made = []
    for topic_id, name, parts in accepted:
        answered = []
        for p in parts:
            if count.due():
                yield
            answered.append(OffsetCommitResponsePartition(partition_index=p.partition_index,
                                                          error_code=errors.get((name, p.partition_index), 0)))
        made.append(OffsetCommitResponseTopic(name=name, topic_id=topic_id, partitions=answered))
    out.merge(made)
    return OffsetCommitResponse(throttle_time_ms=0, topics=out.topics)


def error_response(v: int, req, code: int, msg: str | None):
    """Kafka's OffsetCommitRequest.getErrorResponse."""
    return OffsetCommitResponse(topics=mirror_partitions(
        req.topics, lambda t, parts: OffsetCommitResponseTopic(name=t.name, topic_id=t.topic_id, partitions=parts),
        lambda p: OffsetCommitResponsePartition(partition_index=p.partition_index, error_code=code)))
