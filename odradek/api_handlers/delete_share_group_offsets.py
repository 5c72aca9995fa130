"""DeleteShareGroupOffsets (key 92) v0: forget the share-partition state of whole topics of an empty
share group (`kafka-share-groups --delete-offsets`). The coordinator does the work
(ShareGroupCoordinator.delete_offsets); share_common.offsets_admin checks the request as Kafka's KafkaApis and
GroupCoordinatorService do, in their order: share groups enabled, a group id, the coordinator.
DELETE on the group is checked before (authorization.gate); a topic without READ is answered
TOPIC_AUTHORIZATION_FAILED and left out of the coordinator's work, as Kafka's KafkaApis."""

from __future__ import annotations

from odradek.wire.messages.delete_share_group_offsets_response import (
    DeleteShareGroupOffsetsResponse,
    DeleteShareGroupOffsetsResponseTopic,
)

from odradek.controller.acls import READ, TOPIC
from odradek.wire.errors import ErrorCode

from .authorization import allowed_names
from .share_common import ZERO_UUID, offsets_admin_error_response, offsets_admin_response, topic_id

API_KEY = 92
MIN_VERSION = 0
MAX_VERSION = 0


def handle(ctx, request) -> DeleteShareGroupOffsetsResponse:
    names = [t.topic_name for t in request.topics]
    ok = allowed_names(ctx, READ, TOPIC, names)
    refused = ErrorCode.TOPIC_AUTHORIZATION_FAILED
    denied = [(name, topic_id(ctx, name), refused, refused.message) for name in names if name not in ok]
    names = [name for name in names if name in ok]
    return offsets_admin_response(
        ctx, request.group_id,
        lambda groups, gid, topics, other: groups.delete_offsets(gid, names, topics, other, ctx.now_ms) + denied,
        DeleteShareGroupOffsetsResponse, lambda result: [
            DeleteShareGroupOffsetsResponseTopic(topic_name=name, topic_id=tid or ZERO_UUID, error_code=err,
                                                 error_message=msg)
            for name, tid, err, msg in result])


def error_response(v: int, req, code: int, msg: str | None):
    """Kafka's DeleteShareGroupOffsetsRequest.getErrorResponse."""
    return offsets_admin_error_response(DeleteShareGroupOffsetsResponse, code)
