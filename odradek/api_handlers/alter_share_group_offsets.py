"""AlterShareGroupOffsets (key 91) v0: set the start offsets of an empty share group's
share-partitions (`kafka-share-groups --reset-offsets --execute`). The coordinator does the work
(ShareGroupCoordinator.alter_offsets); share_common.offsets_admin checks the request as Kafka's KafkaApis and
GroupCoordinatorService do, in their order: share groups enabled, a group id, the coordinator.
odradek has no authorizer, so the GROUP/TOPIC READ checks Kafka makes always pass (as Kafka with none)."""

from __future__ import annotations

from odradek.coordinator.errors import CoordinatorError
from odradek.wire.errors import ErrorCode
from odradek.wire.messages.alter_share_group_offsets_response import (
    AlterShareGroupOffsetsResponse,
    AlterShareGroupOffsetsResponsePartition,
    AlterShareGroupOffsetsResponseTopic,
)

from .share_common import offsets_admin

API_KEY = 91
MIN_VERSION = 0
MAX_VERSION = 0

ZERO_UUID = b"\0" * 16


def _error(code: ErrorCode, message: str | None = None) -> AlterShareGroupOffsetsResponse:
    return AlterShareGroupOffsetsResponse(throttle_time_ms=0, error_code=code, error_message=message or code.message,
                                          responses=[])


def handle(ctx, request) -> AlterShareGroupOffsetsResponse:
    gid = request.group_id
    requested = [(t.topic_name, [(p.partition_index, p.start_offset) for p in t.partitions]) for t in request.topics]
    try:
        result = offsets_admin(ctx, gid, lambda groups, topics, other: groups.alter_offsets(
            gid, requested, topics, is_other_group=other))
    except CoordinatorError as f:
        return _error(f.code, f.message)
    return AlterShareGroupOffsetsResponse(throttle_time_ms=0, error_code=0, error_message=None, responses=[
        AlterShareGroupOffsetsResponseTopic(topic_name=name, topic_id=tid or ZERO_UUID, partitions=[
            AlterShareGroupOffsetsResponsePartition(partition_index=p, error_code=err, error_message=msg)
            for p, err, msg in rows])
        for name, tid, rows in result])


def error_response(v: int, req, code: int, msg: str | None):
    """Kafka's AlterShareGroupOffsetsRequest.getErrorResponse."""
    # Kafka: getErrorResponse(throttle, Errors.forException(e)), the code and its default message
    return AlterShareGroupOffsetsResponse(error_code=code, error_message=ErrorCode(code).message)
