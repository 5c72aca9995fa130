"""OffsetForLeaderEpoch (key 23): where a leader epoch ends, from the leader's epoch cache
(Kafka's Partition.lastOffsetForLeaderEpoch, for followers and consumers alike): the largest
epoch <= the one asked for and its end offset (the log end for the current epoch); an
epoch older than the cache knows answers UNDEFINED (-1, -1). The request's current leader
epoch is checked first (FENCED_LEADER_EPOCH / UNKNOWN_LEADER_EPOCH); only the leader answers.
"""

from __future__ import annotations

from odradek.wire.messages.offset_for_leader_epoch_response import (
    EpochEndOffset,
    OffsetForLeaderEpochResponse,
    OffsetForLeaderTopicResult,
)

from odradek.controller.acls import CLUSTER, CLUSTER_ACTION, CLUSTER_NAME, DESCRIBE, TOPIC
from odradek.wire.errors import ErrorCode

from .authorization import allowed, allowed_names
from .common import mirror_partitions
from .context import STEP_ENTRIES, in_steps
from .ports import NotLed

API_KEY = 23
MIN_VERSION = 2
MAX_VERSION = 4


def handle(ctx, req):
    """The response, made STEP_ENTRIES partitions a step for a large request (context.in_steps)."""
    return in_steps(_answer(ctx, req))


def _answer(ctx, req):
    partitions = ctx.services.partitions
    topics = []
    n = 0
    denied: set = set()
    if ctx.services.authorizer is not None and not allowed(ctx, CLUSTER_ACTION, CLUSTER, CLUSTER_NAME):
        names = {t.topic for t in req.topics}  # a consumer: DESCRIBE on each topic
        denied = names - allowed_names(ctx, DESCRIBE, TOPIC, names)
    for t in req.topics:
        parts = []
        for p in t.partitions:
            n += 1
            if n % STEP_ENTRIES == 0:
                yield
            r = EpochEndOffset(error_code=0, partition=p.partition, leader_epoch=-1, end_offset=-1)
            if denied and t.topic in denied:
                r.error_code = ErrorCode.TOPIC_AUTHORIZATION_FAILED
                parts.append(r)
                continue
            ans = partitions.epoch_end_offset(t.topic, p.partition, p.current_leader_epoch, p.leader_epoch)
            if isinstance(ans, NotLed):
                r.error_code = ans.error
            elif ans.error:
                r.error_code = ans.error
            else:
                r.leader_epoch, r.end_offset = ans.end.epoch, ans.end.end_offset
            parts.append(r)
        topics.append(OffsetForLeaderTopicResult(topic=t.topic, partitions=parts))
    return OffsetForLeaderEpochResponse(throttle_time_ms=0, topics=topics)


def error_response(v: int, req, code: int, msg: str | None):
    """Kafka's OffsetForLeaderEpochRequest.getErrorResponse."""
    return OffsetForLeaderEpochResponse(topics=mirror_partitions(
        req.topics, lambda t, parts: OffsetForLeaderTopicResult(topic=t.topic, partitions=parts),
        lambda p: EpochEndOffset(partition=p.partition, error_code=code, leader_epoch=-1, end_offset=-1)))
