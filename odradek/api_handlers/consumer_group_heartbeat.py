"""ConsumerGroupHeartbeat (key 68) v0-1: KIP-848 membership, server-side assignment, reconciliation."""

from __future__ import annotations

from odradek.api_handlers.authorization import allowed_names
from odradek.api_handlers.error_responses import top_level_error
from odradek.controller.acls import DESCRIBE, TOPIC
from odradek.api_handlers.group_common import (
    client_host, coordinator, coordinator_error, image_topics, protocol_disabled,
)
from odradek.wire.errors import ErrorCode
from odradek.wire.messages.consumer_group_heartbeat_response import (
    Assignment,
    ConsumerGroupHeartbeatResponse,
    TopicPartitions,
)

API_KEY = 68
MIN_VERSION = 0
MAX_VERSION = 1  # v1: the client names its member id (KIP-1082), SubscribedTopicRegex


def handle(ctx, request) -> ConsumerGroupHeartbeatResponse:
    from odradek.coordinator.consumer_heartbeat import HeartbeatRequest

    v = ctx.api_version
    if protocol_disabled(ctx, "consumer"):
        return error_response(v, request, ErrorCode.UNSUPPORTED_VERSION, None)
    coord = coordinator(ctx)
    if coord_err := coordinator_error(ctx, request.group_id):
        return ConsumerGroupHeartbeatResponse(throttle_time_ms=0, error_code=coord_err,
                                              member_id=None, member_epoch=0, heartbeat_interval_ms=0)
    shares = ctx.services.shares
    if shares is not None and shares.is_share_group(request.group_id):
        return ConsumerGroupHeartbeatResponse(throttle_time_ms=0, error_code=ErrorCode.GROUP_ID_NOT_FOUND,
                                              error_message=f"Group {request.group_id} is not a consumer group.",
                                              member_id=None, member_epoch=0, heartbeat_interval_ms=0)
    owned = None
    if request.topic_partitions is not None:
        owned = [(bytes(t.topic_id), list(t.partitions)) for t in request.topic_partitions]
    req = HeartbeatRequest(
        group_id=request.group_id, member_id=request.member_id, member_epoch=request.member_epoch,
        instance_id=request.instance_id, rack_id=request.rack_id,
        rebalance_timeout_ms=request.rebalance_timeout_ms,
        subscribed_topic_names=request.subscribed_topic_names,
        subscribed_topic_regex=request.subscribed_topic_regex if v >= 1 else None,
        server_assignor=request.server_assignor, owned=owned,
        client_id=ctx.client_id or "", client_host=client_host(ctx), api_version=v,
        describable=(None if ctx.services.authorizer is None or ctx.principal is None
                     else lambda names: allowed_names(ctx, DESCRIBE, TOPIC, names)))
    r = coord.consumer_group_heartbeat(req, ctx.now_ms, image_topics(ctx))
    if r.error != ErrorCode.NONE:
        return ConsumerGroupHeartbeatResponse(throttle_time_ms=0, error_code=r.error, error_message=r.error_message,
                                              member_id=None, member_epoch=0, heartbeat_interval_ms=0)
    assignment = None
    if r.assignment is not None:
        assignment = Assignment(topic_partitions=[TopicPartitions(topic_id=tid, partitions=ps)
                                                  for tid, ps in r.assignment.items()])
    return ConsumerGroupHeartbeatResponse(
        throttle_time_ms=0, error_code=0, error_message=None, member_id=r.member_id, member_epoch=r.member_epoch,
        heartbeat_interval_ms=r.heartbeat_interval_ms, assignment=assignment)


# Kafka's ConsumerGroupHeartbeatRequest.getErrorResponse
error_response = top_level_error(ConsumerGroupHeartbeatResponse)
