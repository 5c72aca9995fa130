"""ShareGroupHeartbeat (key 76) v1: KIP-932 share group membership with server-side assignment."""

from __future__ import annotations

from odradek.api_handlers.group_common import client_host, coordinator_error
from odradek.coordinator.errors import CoordinatorError
from odradek.wire.errors import ErrorCode
from odradek.wire.messages.share_group_heartbeat_response import (
    Assignment,
    ShareGroupHeartbeatResponse,
    TopicPartitions,
)

from .error_responses import top_level_error
from .share_common import is_other_group, share_enabled, topics_snapshot

API_KEY = 76
MIN_VERSION = 1  # v0 was Kafka 4.0's early access, removed in 4.1
MAX_VERSION = 1


def handle(ctx, request) -> ShareGroupHeartbeatResponse:
    services = ctx.services
    if not share_enabled(services):
        return ShareGroupHeartbeatResponse(error_code=ErrorCode.UNSUPPORTED_VERSION,
                                           error_message="The share group feature is not enabled.")
    if coord_err := coordinator_error(ctx, request.group_id):  # Kafka keeps share groups in __consumer_offsets too
        return ShareGroupHeartbeatResponse(throttle_time_ms=0, error_code=coord_err,
                                           member_id=None, member_epoch=0, heartbeat_interval_ms=0)
    sg = services.shares
    try:
        r = sg.heartbeat(request.group_id, request.member_id, request.member_epoch, request.subscribed_topic_names,
                         request.rack_id, ctx.client_id or "", client_host(ctx), ctx.now_ms, topics_snapshot(ctx),
                         is_other_group=is_other_group(ctx, request.group_id))
    except CoordinatorError as f:
        return ShareGroupHeartbeatResponse(throttle_time_ms=0, error_code=f.code, error_message=f.message,
                                           member_id=None, member_epoch=0, heartbeat_interval_ms=0)
    assignment = None
    if r.assignment is not None:
        assignment = Assignment(topic_partitions=[TopicPartitions(topic_id=tid, partitions=sorted(ps))
                                                  for tid, ps in sorted(r.assignment.items())])
    return ShareGroupHeartbeatResponse(throttle_time_ms=0, error_code=0, error_message=None, member_id=r.member_id,
                                       member_epoch=r.member_epoch, heartbeat_interval_ms=r.heartbeat_interval_ms,
                                       assignment=assignment)


error_response = top_level_error(ShareGroupHeartbeatResponse)  # Kafka's ShareGroupHeartbeatRequest.getErrorResponse
