"""DeleteShareGroupOffsets (key 92) v0: forget the share-partition state of whole topics of an empty
share group (`kafka-share-groups --delete-offsets`). The coordinator does the work
(ShareGroupCoordinator.delete_offsets); this module checks the request as Kafka's KafkaApis and
GroupCoordinatorService do, in their order: share groups enabled, a group id, the coordinator.
odradek has no authorizer, so the GROUP DELETE / TOPIC READ checks Kafka makes always pass (as
Kafka with none)."""

from __future__ import annotations

from odradek.coordinator.group_api import coordinates
from odradek.coordinator.share_group_coordinator import ShareFail
from odradek.wire.errors import ErrorCode
from odradek.wire.messages.delete_share_group_offsets_response import (
    DeleteShareGroupOffsetsResponse,
    DeleteShareGroupOffsetsResponseTopic,
)

from .share_common import share_enabled, topics_snapshot
from .share_group_heartbeat import _other_group

API_KEY = 92
MIN_VERSION = 0
MAX_VERSION = 0

ZERO_UUID = b"\0" * 16


def _error(code: ErrorCode, message: str | None = None) -> DeleteShareGroupOffsetsResponse:
    return DeleteShareGroupOffsetsResponse(throttle_time_ms=0, error_code=code, error_message=message or code.message,
                                           responses=[])


def handle(ctx, request) -> DeleteShareGroupOffsetsResponse:
    b = ctx.broker
    gid = request.group_id
    if not share_enabled(b):
        return _error(ErrorCode.UNSUPPORTED_VERSION)
    if not gid:
        return _error(ErrorCode.INVALID_GROUP_ID)
    if not coordinates(ctx, gid):
        return _error(ErrorCode.NOT_COORDINATOR)
    try:
        result = b.share_groups.delete_offsets(gid, [t.topic_name for t in request.topics], topics_snapshot(ctx),
                                               is_other_group=_other_group(ctx, gid))
    except ShareFail as f:
        return _error(f.code, f.message)
    b.persist_share_state(ctx.now_ms)  # written before the response, as Kafka's share coordinator
    return DeleteShareGroupOffsetsResponse(throttle_time_ms=0, error_code=0, error_message=None, responses=[
        DeleteShareGroupOffsetsResponseTopic(topic_name=name, topic_id=tid or ZERO_UUID, error_code=err,
                                             error_message=msg)
        for name, tid, err, msg in result])
