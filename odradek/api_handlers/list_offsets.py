"""ListOffsets (key 2): earliest (-2), latest (-1), max timestamp (-3, v7+),
earliest local (-4, v8+; no tiered storage so = earliest), latest tiered (-5, v9+) and
earliest pending upload (-6, v11+) (no tiered storage: offset -1, as Kafka) and by timestamp."""

from __future__ import annotations

from odradek.controller.acls import DESCRIBE, TOPIC
from odradek.wire.errors import ErrorCode
from odradek.wire.messages.list_offsets_response import (
    ListOffsetsPartitionResponse,
    ListOffsetsResponse,
    ListOffsetsTopicResponse,
)

from .authorization import allowed_names
from .common import mirror_partitions
from .context import STEP_ENTRIES, in_steps
from .ports import NotLed

API_KEY = 2
MIN_VERSION = 1
MAX_VERSION = 11

LATEST, EARLIEST, MAX_TIMESTAMP, EARLIEST_LOCAL = -1, -2, -3, -4
LATEST_TIERED, EARLIEST_PENDING_UPLOAD = -5, -6


def _partition(ctx, req, topic: str, p) -> ListOffsetsPartitionResponse:
    partitions = ctx.services.partitions
    v = ctx.api_version
    out = ListOffsetsPartitionResponse(partition_index=p.partition_index, error_code=0, timestamp=-1, offset=-1,
                                       leader_epoch=-1)
    # the current leader epoch is checked first, on a follower too (FENCED / UNKNOWN_LEADER_EPOCH)
    plog = partitions.leader_log(topic, p.partition_index, p.current_leader_epoch if v >= 4 else -1)
    if isinstance(plog, NotLed):
        out.error_code = plog.error
        return out
    epoch = partitions.leader_epoch(topic, p.partition_index)
    ts = p.timestamp
    # the end a client may read to: last stable offset for read_committed
    hw = plog.last_stable_offset if req.isolation_level == 1 else plog.high_watermark
    if ts == LATEST:
        out.offset = hw
    elif ts == EARLIEST or (ts == EARLIEST_LOCAL and v >= 8):
        out.offset = plog.log_start_offset
    elif ts == MAX_TIMESTAMP and v >= 7:
        found = plog.offset_for_timestamp(MAX_TIMESTAMP)
        if found is not None and found.offset < hw:
            out.offset, out.timestamp = found.offset, found.timestamp
    elif (ts == LATEST_TIERED and v >= 9) or (ts == EARLIEST_PENDING_UPLOAD and v >= 11):
        pass  # nothing is tiered: offset -1, no error (Kafka without remote storage)
    elif ts < 0:
        # Kafka 4.3 answers any special timestamp the version lacks (and unknown ones) so
        out.error_code = ErrorCode.UNSUPPORTED_VERSION
        return out
    else:
        found = plog.offset_for_timestamp(ts)
        if found is not None and found.offset < hw:
            out.offset, out.timestamp = found.offset, found.timestamp
    if out.offset >= 0:
        out.leader_epoch = epoch
    return out


def handle(ctx, req):
    """The response, made STEP_ENTRIES partitions a step for a large request (context.in_steps)."""
    return in_steps(_answer(ctx, req))


def _answer(ctx, req):
    topics = []
    n = 0
    denied: set = set()
    if ctx.services.authorizer is not None:  # DESCRIBE on each topic (Kafka's partitionSeqByAuthorized)
        names = {t.name for t in req.topics}
        denied = names - allowed_names(ctx, DESCRIBE, TOPIC, names)
    for t in req.topics:
        if denied and t.name in denied:
            topics.append(ListOffsetsTopicResponse(name=t.name, partitions=[
                ListOffsetsPartitionResponse(partition_index=p.partition_index,
                                             error_code=ErrorCode.TOPIC_AUTHORIZATION_FAILED, offset=-1, timestamp=-1)
                for p in t.partitions]))
            continue
        seen = set()
        parts = []
        for p in t.partitions:
            n += 1
            if n % STEP_ENTRIES == 0:
                yield
            if p.partition_index in seen:
                parts.append(ListOffsetsPartitionResponse(partition_index=p.partition_index,
                                                          error_code=ErrorCode.INVALID_REQUEST))
                continue
            seen.add(p.partition_index)
            parts.append(_partition(ctx, req, t.name, p))
        topics.append(ListOffsetsTopicResponse(name=t.name, partitions=parts))
    return ListOffsetsResponse(throttle_time_ms=0, topics=topics)


def error_response(v: int, req, code: int, msg: str | None):
    """Kafka's ListOffsetsRequest.getErrorResponse."""
    return ListOffsetsResponse(topics=mirror_partitions(
        req.topics, lambda t, parts: ListOffsetsTopicResponse(name=t.name, partitions=parts),
        lambda p: ListOffsetsPartitionResponse(partition_index=p.partition_index, error_code=code, offset=-1,
                                               timestamp=-1)))
