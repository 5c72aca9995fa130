"""DescribeCluster (key 60) v0-2: cluster id, controller, brokers (fenced ones on request, v2)."""

from __future__ import annotations

from odradek.api_handlers.error_responses import top_level_error
from odradek.controller.acls import CLUSTER, CLUSTER_NAME, DESCRIBE
from odradek.wire.errors import ErrorCode
from odradek.wire.messages.describe_cluster_response import DescribeClusterBroker, DescribeClusterResponse

from .authorization import allowed, operations
from .common import broker_endpoint

API_KEY = 60
MIN_VERSION = 0
MAX_VERSION = 2

ENDPOINT_BROKER = 1
INT32_MIN = -2147483648
# What Kafka reports with no authorizer: ALTER, ALTER_CONFIGS, CLUSTER_ACTION, CREATE, DESCRIBE,
# DESCRIBE_CONFIGS, IDEMPOTENT_WRITE (as seen from Kafka 4.3).
CLUSTER_OPERATIONS = 8096


def handle(ctx, request) -> DescribeClusterResponse:
    if ctx.api_version >= 1 and request.endpoint_type != ENDPOINT_BROKER:
        return DescribeClusterResponse(
            throttle_time_ms=0, error_code=ErrorCode.MISMATCHED_ENDPOINT_TYPE,
            error_message="The request was sent to an endpoint of type BROKER, but we wanted an endpoint of "
                          "type CONTROLLER",
            endpoint_type=ENDPOINT_BROKER, cluster_id="", controller_id=-1, brokers=[],
            cluster_authorized_operations=INT32_MIN)
    image = ctx.services.metadata.image
    include_fenced = ctx.api_version >= 2 and bool(request.include_fenced_brokers)
    brokers = [
        DescribeClusterBroker(broker_id=b.node_id, host=ep[0], port=ep[1], rack=b.rack, is_fenced=b.fenced)
        for b in sorted(image.brokers.values(), key=lambda b: b.node_id)
        if (include_fenced or not b.fenced) and (ep := broker_endpoint(b, ctx.listener)) is not None
    ]
    ops = INT32_MIN
    if request.include_cluster_authorized_operations:
        ops = CLUSTER_OPERATIONS
        if ctx.services.authorizer is not None:  # Kafka's AuthHelper.computeDescribeClusterResponse
            ops = operations(ctx, CLUSTER, CLUSTER_NAME, ops) if allowed(ctx, DESCRIBE, CLUSTER, CLUSTER_NAME) else 0
    return DescribeClusterResponse(
        throttle_time_ms=0, error_code=0, error_message=None, endpoint_type=ENDPOINT_BROKER,
        cluster_id=image.cluster_id, controller_id=image.controller_id, brokers=brokers,
        cluster_authorized_operations=ops)


# Kafka's DescribeClusterRequest.getErrorResponse
error_response = top_level_error(DescribeClusterResponse, message=True)
