"""DescribeShareGroupOffsets (key 90) v0-1: each share-partition's start offset (SPSO) and, v1, its lag
(records at or past the SPSO up to the high watermark that are not yet acknowledged or archived).
Topics null: every share-partition the group has initialized; a partition without share state
answers -1. Every share-partition answers from its share coordinator (ReadShareGroupStateSummary
through the broker's persister, here at once when this node is that coordinator, the answer
waiting for the others) with the latest offset of its leader, as Kafka 4.3's group coordinator:
the state as last written (a share-partition leader writes the start offset from before the
acknowledgement it writes, so after one acknowledgement of records 0-3 the answer is start 0 with 4
delivered-complete, not start 4). As
Kafka 4.3: a classic or consumer group of that id is a group without share state (no error), and the
lag is not clamped (an SPSO set past the high watermark shows a negative lag; SPSO -1: lag -1)."""

from __future__ import annotations

from odradek.api_handlers.authorization import allowed_names, group_denied
from odradek.api_handlers.group_common import coordinator_error
from odradek.api_handlers.context import Delayed
from odradek.controller.acls import DESCRIBE, TOPIC
from odradek.wire.errors import ErrorCode
from odradek.wire.messages.describe_share_group_offsets_response import (
    DescribeShareGroupOffsetsResponse,
    DescribeShareGroupOffsetsResponseGroup,
    DescribeShareGroupOffsetsResponsePartition,
    DescribeShareGroupOffsetsResponseTopic,
)

from .share_common import share_enabled

API_KEY = 90
MIN_VERSION = 0
MAX_VERSION = 1


# how long the answer waits for the share coordinators elsewhere at most (the persister's retries end before)
SUMMARY_WAIT_MS = 30_000


def handle(ctx, request):
    services = ctx.services
    enabled = share_enabled(services)
    image = services.metadata.image
    plans = []  # (group id, response group | None, {topic: partitions}, summaries)
    for g in request.groups:
        gid = g.group_id
        if not enabled:
            plans.append((gid, DescribeShareGroupOffsetsResponseGroup(
                group_id=gid, topics=[], error_code=ErrorCode.UNSUPPORTED_VERSION), None, None))
            continue
        if denied := group_denied(ctx, DESCRIBE, gid):  # (Kafka 4.3 sends no message with it)
            plans.append((gid, DescribeShareGroupOffsetsResponseGroup(
                group_id=gid, topics=[], error_code=denied, error_message=None), None, None))
            continue
        if err := coordinator_error(ctx, gid):
            plans.append((gid, DescribeShareGroupOffsetsResponseGroup(
                group_id=gid, topics=[], error_code=err, error_message=err.message), None, None))
            continue
        if g.topics is None:
            wanted: dict = {}
            for (tid, p) in sorted(services.shares.initialized_partitions(gid)):
                t = image.topics_by_id.get(tid)
                if t is not None:
                    wanted.setdefault(t.name, []).append(p)
            shown = allowed_names(ctx, DESCRIBE, TOPIC, wanted)  # the topics not described are left out
            wanted = {n: ps for n, ps in wanted.items() if n in shown}
        else:
            wanted = {t.topic_name: list(t.partitions) for t in g.topics}
        described = allowed_names(ctx, DESCRIBE, TOPIC, wanted)
        ask = []  # the share coordinators' summaries
        for name, parts in wanted.items():
            t = image.topics.get(name)
            if t is not None and name in described:
                tid = bytes(t.topic_id)
                ask += [(tid, name, p) for p in parts if p in t.partitions]
        plans.append((gid, None, wanted, services.shares.read_summaries(gid, ask) if ask else None))

    def answer(expired: bool):
        return DescribeShareGroupOffsetsResponse(throttle_time_ms=0, groups=[
            done if done is not None else _group(ctx, gid, wanted, summaries)
            for gid, done, wanted, summaries in plans])

    waiting = [pl[3] for pl in plans if pl[3] is not None and pl[3].pending]
    if not waiting:
        return answer(False)
    return Delayed(try_complete=lambda now: None if any(s.pending for s in waiting) else answer(False),
                   on_expire=lambda now: answer(True), deadline_ms=ctx.now_ms + SUMMARY_WAIT_MS,
                   watch=[s.key for s in waiting])


def _group(ctx, gid: str, wanted: dict, summaries) -> DescribeShareGroupOffsetsResponseGroup:
    services = ctx.services
    topics = []
    described = allowed_names(ctx, DESCRIBE, TOPIC, wanted)
    for name, parts in wanted.items():
        if name not in described:  # as Kafka's KafkaApis: no topic id, leader epoch 0
            refused = ErrorCode.TOPIC_AUTHORIZATION_FAILED
            topics.append(DescribeShareGroupOffsetsResponseTopic(topic_name=name, topic_id=b"\0" * 16, partitions=[
                DescribeShareGroupOffsetsResponsePartition(partition_index=p, start_offset=-1, leader_epoch=0, lag=-1,
                                                           error_code=refused, error_message=refused.message)
                for p in parts]))
            continue
        t = services.metadata.image.topics.get(name)
        tid = bytes(t.topic_id) if t is not None else b"\0" * 16
        rows = []
        for p in parts:
            row = DescribeShareGroupOffsetsResponsePartition(partition_index=p, start_offset=-1, leader_epoch=-1,
                                                             lag=-1, error_code=0, error_message=None)
            if t is None or p not in t.partitions:
                row.error_code = ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
                row.error_message = "This server does not host this topic-partition."
            elif summaries is not None:
                _summarized(row, summaries.results.get((tid, p)), summaries.ends.get((tid, p)))
            rows.append(row)
        topics.append(DescribeShareGroupOffsetsResponseTopic(topic_name=name, topic_id=tid, partitions=rows))
    return DescribeShareGroupOffsetsResponseGroup(group_id=gid, topics=topics, error_code=0, error_message=None)


def _summarized(row, s, end) -> None:
    """As Kafka 4.3's group coordinator: the share coordinator's summary (an error, or no answer in
    time: start offset -1, leader epoch 0); the lag, latest offset - start offset - delivery complete
    count, when the start offset and count are known (the latest offset's error is the row's)."""
    if s is None or s.error:
        row.start_offset, row.leader_epoch = -1, 0
        return
    row.start_offset, row.leader_epoch = s.start_offset, s.leader_epoch
    if s.start_offset == -1 or s.delivery_complete_count == -1:
        return
    err, latest = end if end is not None else (ErrorCode.REQUEST_TIMED_OUT, -1)
    if err:
        row.error_code, row.error_message = err, err.message
    else:
        row.lag = latest - s.start_offset - s.delivery_complete_count


def error_response(v: int, req, code: int, msg: str | None):
    """Kafka's DescribeShareGroupOffsetsRequest.getErrorResponse."""
    return DescribeShareGroupOffsetsResponse(groups=[
        DescribeShareGroupOffsetsResponseGroup(group_id=g.group_id, topics=[], error_code=code,
                                               error_message=msg or ErrorCode.from_code(code).message)
        for g in req.groups or ()])
