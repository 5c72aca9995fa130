"""DeleteShareGroupOffsets (key 92) v0: forget the share-partition state of whole topics of an empty
share group (`kafka-share-groups --delete-offsets`). The coordinator does the work
(ShareGroupCoordinator.delete_offsets); share_common.offsets_admin checks the request as Kafka's KafkaApis and
GroupCoordinatorService do, in their order: share groups enabled, a group id, the coordinator.
odradek has no authorizer, so the GROUP DELETE / TOPIC READ checks Kafka makes always pass (as
Kafka with none)."""

from __future__ import annotations

from odradek.coordinator.errors import CoordinatorError
from odradek.wire.errors import ErrorCode
from odradek.wire.messages.delete_share_group_offsets_response import (
    DeleteShareGroupOffsetsResponse,
    DeleteShareGroupOffsetsResponseTopic,
)

from .share_common import offsets_admin

API_KEY = 92
MIN_VERSION = 0
MAX_VERSION = 0

ZERO_UUID = b"\0" * 16


def _error(code: ErrorCode, message: str | None = None) -> DeleteShareGroupOffsetsResponse:
    return DeleteShareGroupOffsetsResponse(throttle_time_ms=0, error_code=code, error_message=message or code.message,
                                           responses=[])


def handle(ctx, request) -> DeleteShareGroupOffsetsResponse:
    gid = request.group_id
    names = [t.topic_name for t in request.topics]
    try:
        result = offsets_admin(ctx, gid, lambda groups, topics, other: groups.delete_offsets(
            gid, names, topics, is_other_group=other))
    except CoordinatorError as f:
        return _error(f.code, f.message)
    return DeleteShareGroupOffsetsResponse(throttle_time_ms=0, error_code=0, error_message=None, responses=[
        DeleteShareGroupOffsetsResponseTopic(topic_name=name, topic_id=tid or ZERO_UUID, error_code=err,
                                             error_message=msg)
        for name, tid, err, msg in result])


def error_response(v: int, req, code: int, msg: str | None):
    """Kafka's DeleteShareGroupOffsetsRequest.getErrorResponse."""
    # Kafka: getErrorResponse(throttle, Errors.forException(e)), the code and its default message
    return DeleteShareGroupOffsetsResponse(error_code=code, error_message=ErrorCode(code).message)
