"""DescribeShareGroupOffsets (key 90) v0-1: each share-partition's start offset (SPSO) and, v1, its lag
(records at or past the SPSO up to the high watermark that are not yet acknowledged or archived).
Topics null: every share-partition the group has; a partition without share state answers -1. As
Kafka 4.3: a classic or consumer group of that id is a group without share state (no error), and the
lag is not clamped (an SPSO set past the high watermark shows a negative lag; SPSO -1: lag -1)."""

from __future__ import annotations

from odradek.api_handlers.group_common import coordinator_error
from odradek.api_handlers.ports import NotLed
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


def handle(ctx, request) -> DescribeShareGroupOffsetsResponse:
    services = ctx.services
    enabled = share_enabled(services)
    out = []
    for g in request.groups:
        gid = g.group_id
        if not enabled:
            out.append(DescribeShareGroupOffsetsResponseGroup(group_id=gid, topics=[],
                                                              error_code=ErrorCode.UNSUPPORTED_VERSION))
            continue
        if err := coordinator_error(ctx, gid):
            out.append(DescribeShareGroupOffsetsResponseGroup(group_id=gid, topics=[], error_code=err,
                                                              error_message=err.message))
            continue
        sps = services.shares.group_partitions(gid)
        if g.topics is None:
            wanted = {}
            for (tid, p) in sorted(sps):
                t = services.metadata.image.topics_by_id.get(tid)
                if t is not None:
                    wanted.setdefault(t.name, []).append(p)
        else:
            wanted = {t.topic_name: list(t.partitions) for t in g.topics}
        topics = []
        for name, parts in wanted.items():
            t = services.metadata.image.topics.get(name)
            tid = bytes(t.topic_id) if t is not None else b"\0" * 16
            rows = []
            for p in parts:
                row = DescribeShareGroupOffsetsResponsePartition(partition_index=p, start_offset=-1, leader_epoch=-1,
                                                                 lag=-1, error_code=0, error_message=None)
                if t is None or p not in t.partitions:
                    row.error_code = ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
                    row.error_message = "This server does not host this topic-partition."
                else:
                    sp = sps.get((tid, p))
                    plog = services.partitions.leader_log(name, p)
                    led = not isinstance(plog, NotLed)
                    if sp is not None:
                        # negative: altered so, shown as it was set (-1 is "uninitialized": no lag)
                        if led and sp.start_offset >= 0:
                            sp.move_start(plog.log_start_offset)
                        row.start_offset = sp.start_offset
                        row.leader_epoch = services.partitions.leader_epoch(name, p)
                        if led and sp.start_offset != -1:
                            row.lag = plog.high_watermark - sp.start_offset - sp.in_flight_done()
                rows.append(row)
            topics.append(DescribeShareGroupOffsetsResponseTopic(topic_name=name, topic_id=tid, partitions=rows))
        out.append(DescribeShareGroupOffsetsResponseGroup(group_id=gid, topics=topics, error_code=0,
                                                          error_message=None))
    return DescribeShareGroupOffsetsResponse(throttle_time_ms=0, groups=out)


def error_response(v: int, req, code: int, msg: str | None):
    """Kafka's DescribeShareGroupOffsetsRequest.getErrorResponse."""
    return DescribeShareGroupOffsetsResponse(groups=[
        DescribeShareGroupOffsetsResponseGroup(group_id=g.group_id, topics=[], error_code=code,
                                               error_message=msg or ErrorCode.from_code(code).message)
        for g in req.groups or ()])
