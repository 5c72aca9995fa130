"""OffsetCommit (key 8) v2-9: member commits (generation checked) and simple commits (generation -1)."""

from __future__ import annotations

from odradek.coordinator.group_api import coordinates, split_known_partitions
from odradek.wire.errors import ErrorCode
from odradek.wire.messages.offset_commit_response import (
    OffsetCommitResponse,
    OffsetCommitResponsePartition,
    OffsetCommitResponseTopic,
)

API_KEY = 8
MIN_VERSION = 2
MAX_VERSION = 9  # v10 addresses topics by id


def handle(ctx, request) -> OffsetCommitResponse:
    v = ctx.api_version
    coord = ctx.broker.groups
    offsets, errors = split_known_partitions(ctx, request.topics, lambda p: (
        p.committed_offset, p.committed_leader_epoch if v >= 6 else -1, p.committed_metadata))
    if not coordinates(ctx, request.group_id):
        errors.update({tp: ErrorCode.NOT_COORDINATOR for tp in offsets})
    elif offsets or not errors:
        errors.update(coord.commit_offsets(
            request.group_id,
            request.generation_id_or_member_epoch,
            request.member_id,
            request.group_instance_id if v >= 7 else None,
            offsets,
            ctx.now_ms,
            retention_time_ms=request.retention_time_ms if v <= 4 else -1,
            api_version=v,
        ))
    return OffsetCommitResponse(
        throttle_time_ms=0,
        topics=[
            OffsetCommitResponseTopic(
                name=t.name,
                partitions=[OffsetCommitResponsePartition(partition_index=p.partition_index,
                                                          error_code=errors.get((t.name, p.partition_index), 0))
                            for p in t.partitions],
            )
            for t in request.topics
        ],
    )
