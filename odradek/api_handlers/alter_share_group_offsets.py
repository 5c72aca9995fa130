"""AlterShareGroupOffsets (key 91) v0: set the start offsets of an empty share group's
share-partitions (`kafka-share-groups --reset-offsets --execute`). The coordinator does the work
(ShareGroupCoordinator.alter_offsets); share_common.offsets_admin checks the request as Kafka's KafkaApis and
GroupCoordinatorService do, in their order: share groups enabled, a group id, the coordinator.
READ on the group is checked before (authorization.gate); a topic without READ is answered
TOPIC_AUTHORIZATION_FAILED per partition and left out of the coordinator's work, as Kafka's KafkaApis."""

from __future__ import annotations

from odradek.wire.messages.alter_share_group_offsets_response import (
    AlterShareGroupOffsetsResponse,
    AlterShareGroupOffsetsResponsePartition,
    AlterShareGroupOffsetsResponseTopic,
)

from odradek.controller.acls import READ, TOPIC
from odradek.wire.errors import ErrorCode

from .authorization import allowed_names
from .share_common import ZERO_UUID, offsets_admin_error_response, offsets_admin_response, topic_id

TOPIC_AUTHORIZATION_FAILED = ErrorCode.TOPIC_AUTHORIZATION_FAILED

API_KEY = 91
MIN_VERSION = 0
MAX_VERSION = 0


def handle(ctx, request) -> AlterShareGroupOffsetsResponse:
    requested = [(t.topic_name, [(p.partition_index, p.start_offset) for p in t.partitions]) for t in request.topics]
    ok = allowed_names(ctx, READ, TOPIC, (name for name, _ in requested))
    refused = TOPIC_AUTHORIZATION_FAILED
    denied = [(name, topic_id(ctx, name), [(p, refused, refused.message) for p, _ in parts])
              for name, parts in requested if name not in ok]
    requested = [r for r in requested if r[0] in ok]
    return offsets_admin_response(
        ctx, request.group_id,
        lambda groups, gid, topics, other: groups.alter_offsets(gid, requested, topics, other, ctx.now_ms) + denied,
        AlterShareGroupOffsetsResponse, lambda result: [
            AlterShareGroupOffsetsResponseTopic(topic_name=name, topic_id=tid or ZERO_UUID, partitions=[
                AlterShareGroupOffsetsResponsePartition(partition_index=p, error_code=err, error_message=msg)
                for p, err, msg in rows])
            for name, tid, rows in result])


def error_response(v: int, req, code: int, msg: str | None):
    """Kafka's AlterShareGroupOffsetsRequest.getErrorResponse."""
    return offsets_admin_error_response(AlterShareGroupOffsetsResponse, code)
