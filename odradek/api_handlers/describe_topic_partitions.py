"""DescribeTopicPartitions (key 75) v0: topics by name (or all), paged with a cursor."""

from __future__ import annotations

from odradek.controller.acls import DESCRIBE, TOPIC
from odradek.controller.topic_validation import invalid_topic_name
from odradek.wire.errors import ErrorCode
from odradek.wire.messages.describe_topic_partitions_response import (
    Cursor,
    DescribeTopicPartitionsResponse,
    DescribeTopicPartitionsResponsePartition,
    DescribeTopicPartitionsResponseTopic,
)

from .authorization import allowed_names, operations
from .common import listener_leader, offline_replicas
from .context import STEP_ENTRIES, in_steps

API_KEY = 75
MIN_VERSION = 0
MAX_VERSION = 0

ZERO_UUID = bytes(16)
# READ, WRITE, CREATE, DELETE, ALTER, DESCRIBE, DESCRIBE_CONFIGS, ALTER_CONFIGS (Kafka 4.3, no authorizer)
TOPIC_OPERATIONS = 3576
INT32_MIN = -2147483648
# the most partitions a page holds, whatever the request's response_partition_limit: Kafka's
# max.request.partition.size.limit default (DescribeTopicPartitionsRequestHandler; not a property here)
MAX_REQUEST_PARTITION_SIZE_LIMIT = 2000


def handle(ctx, request):
    """The response, STEP_ENTRIES partitions a step for a large page (context.in_steps), all of it
    from one image."""
    return in_steps(_answer(ctx, request))


def _answer(ctx, request):
    image = ctx.services.metadata.image
    limit = max(1, min(MAX_REQUEST_PARTITION_SIZE_LIMIT, request.response_partition_limit))
    cursor = request.cursor
    if request.topics:
        names = sorted({t.name for t in request.topics})
    else:
        names = sorted(image.topics)
    if cursor is not None:
        if request.topics and cursor.topic_name not in names:
            return DescribeTopicPartitionsResponse(throttle_time_ms=0, topics=[
                DescribeTopicPartitionsResponseTopic(error_code=ErrorCode.INVALID_REQUEST, name=n,
                                                     topic_id=ZERO_UUID, is_internal=False, partitions=[],
                                                     topic_authorized_operations=INT32_MIN)
                for n in names], next_cursor=None)
        names = [n for n in names if n >= cursor.topic_name]
    denied = []  # (Kafka's DescribeTopicPartitionsRequestHandler: after the others)
    authorizing = ctx.services.authorizer is not None
    if authorizing:  # DESCRIBE on each: left out of a listing, TOPIC_AUTHORIZATION_FAILED when named
        ok = allowed_names(ctx, DESCRIBE, TOPIC, names)
        if request.topics:
            denied = [DescribeTopicPartitionsResponseTopic(
                error_code=ErrorCode.TOPIC_AUTHORIZATION_FAILED, name=n, topic_id=ZERO_UUID, is_internal=False,
                partitions=[], topic_authorized_operations=INT32_MIN) for n in names if n not in ok]
        names = [n for n in names if n in ok]
    topics = []
    next_cursor = None
    remaining = limit
    made = 0
    for name in names:
        if remaining <= 0:
            next_cursor = Cursor(topic_name=name, partition_index=0)
            break
        msg = invalid_topic_name(name)
        t = image.topics.get(name)
        if msg or t is None:
            code = ErrorCode.INVALID_TOPIC_EXCEPTION if msg else ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
            topics.append(DescribeTopicPartitionsResponseTopic(
                error_code=code, name=name, topic_id=ZERO_UUID, is_internal=False, partitions=[],
                topic_authorized_operations=TOPIC_OPERATIONS))
            continue
        start = cursor.partition_index if cursor is not None and name == cursor.topic_name else 0
        indexes = sorted(p for p in t.partitions if p >= start)
        take = indexes[:remaining]
        remaining -= len(take)
        parts = []
        for i in take:
            made += 1
            if made % STEP_ENTRIES == 0:
                yield
            p = t.partitions[i]
            parts.append(DescribeTopicPartitionsResponsePartition(
                error_code=ErrorCode.LEADER_NOT_AVAILABLE if p.leader < 0 else 0, partition_index=i,
                # a leader without the client's listener: -1, as Kafka's KRaftMetadataCache
                leader_id=p.leader if p.leader < 0 else listener_leader(image, p.leader, ctx.listener)[0],
                leader_epoch=p.leader_epoch, replica_nodes=list(p.replicas),
                isr_nodes=list(p.in_sync), eligible_leader_replicas=list(p.elr), last_known_elr=list(p.last_known_elr),
                offline_replicas=offline_replicas(image, p.replicas, ctx.listener)))
        topics.append(DescribeTopicPartitionsResponseTopic(
            error_code=0, name=name, topic_id=t.topic_id, is_internal=t.is_internal, partitions=parts,
            topic_authorized_operations=operations(ctx, TOPIC, name, TOPIC_OPERATIONS) if authorizing
            else TOPIC_OPERATIONS))
        if len(take) < len(indexes):
            next_cursor = Cursor(topic_name=name, partition_index=indexes[len(take)])
            break
    return DescribeTopicPartitionsResponse(throttle_time_ms=0, topics=topics + denied, next_cursor=next_cursor)


def error_response(v: int, req, code: int, msg: str | None):
    """Kafka's DescribeTopicPartitionsRequest.getErrorResponse."""
    return DescribeTopicPartitionsResponse(topics=[
        DescribeTopicPartitionsResponseTopic(name=t.name, error_code=code, is_internal=False, partitions=[])
        for t in req.topics or ()])
