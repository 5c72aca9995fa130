"""OffsetForLeaderEpoch (key 23): end offset of a leader epoch.

A single node never truncates, so the log is one unbroken history: any epoch up to
the current one ends at the log end offset.
"""

from __future__ import annotations

from odradek.wire.messages.offset_for_leader_epoch_response import (
    EpochEndOffset,
    OffsetForLeaderEpochResponse,
    OffsetForLeaderTopicResult,
)

from .common import leader_epoch_error, mirror_partitions
from .ports import NotLed

API_KEY = 23
MIN_VERSION = 2
MAX_VERSION = 4


def handle(ctx, req) -> OffsetForLeaderEpochResponse:
    partitions = ctx.services.partitions
    topics = []
    for t in req.topics:
        parts = []
        for p in t.partitions:
            r = EpochEndOffset(error_code=0, partition=p.partition, leader_epoch=-1, end_offset=-1)
            plog = partitions.leader_log(t.topic, p.partition)
            if isinstance(plog, NotLed):
                r.error_code = plog.error
            else:
                current = partitions.leader_epoch(t.topic, p.partition)
                err = leader_epoch_error(p.current_leader_epoch, current)
                if err:
                    r.error_code = err
                elif p.leader_epoch <= current:
                    r.leader_epoch = p.leader_epoch if p.leader_epoch >= 0 else current
                    r.end_offset = plog.log_end_offset
            parts.append(r)
        topics.append(OffsetForLeaderTopicResult(topic=t.topic, partitions=parts))
    return OffsetForLeaderEpochResponse(throttle_time_ms=0, topics=topics)


def error_response(v: int, req, code: int, msg: str | None):
    """Kafka's OffsetForLeaderEpochRequest.getErrorResponse."""
    return OffsetForLeaderEpochResponse(topics=mirror_partitions(
        req.topics, lambda t, parts: OffsetForLeaderTopicResult(topic=t.topic, partitions=parts),
        lambda p: EpochEndOffset(partition=p.partition, error_code=code, leader_epoch=-1, end_offset=-1)))
