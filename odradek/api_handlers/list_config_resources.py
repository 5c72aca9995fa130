"""ListConfigResources (key 74) v0-1 (KIP-1142; v0 was ListClientMetricsResources).

As Kafka 4.3's KafkaApis: v0 knows only CLIENT_METRICS resources, v1 also GROUP,
BROKER_LOGGER, BROKER and TOPIC; an empty filter means every type the version knows,
a type it does not know fails the whole request with UNSUPPORTED_VERSION. Listed in
Kafka's order: groups with configs (Kafka's GroupConfigManager.groupIds: any group with a
GROUP config set, whether or not the group exists; kafka-configs --describe of a group relies on
it), client metrics, broker loggers, brokers, topics (internal ones too). odradek keeps no
CLIENT_METRICS config resources, so that list is empty, as on a Kafka node where none was ever set.
"""

from __future__ import annotations

from odradek.api_handlers.error_responses import top_level_error
from odradek.wire.errors import ErrorCode
from odradek.wire.messages.list_config_resources_response import ConfigResource, ListConfigResourcesResponse

API_KEY = 74
MIN_VERSION = 0
MAX_VERSION = 1

TOPIC, BROKER, BROKER_LOGGER, CLIENT_METRICS, GROUP = 2, 4, 8, 16, 32
SUPPORTED = {0: (CLIENT_METRICS,), 1: (TOPIC, BROKER, BROKER_LOGGER, CLIENT_METRICS, GROUP)}


def handle(ctx, request) -> ListConfigResourcesResponse:
    supported = SUPPORTED[min(ctx.api_version, MAX_VERSION)]
    wanted = set(request.resource_types) if ctx.api_version >= 1 and request.resource_types else set(supported)
    if not wanted <= set(supported):
        return ListConfigResourcesResponse(throttle_time_ms=0, error_code=ErrorCode.UNSUPPORTED_VERSION,
                                           config_resources=[])
    image = ctx.services.metadata.image
    brokers = [str(b.node_id) for b in sorted(image.brokers.values(), key=lambda b: b.node_id) if not b.fenced]
    out = []
    if GROUP in wanted:
        out += [ConfigResource(resource_name=g, resource_type=GROUP) for g, cfg in image.group_configs.items() if cfg]
    if BROKER_LOGGER in wanted:
        out += [ConfigResource(resource_name=b, resource_type=BROKER_LOGGER) for b in brokers]
    if BROKER in wanted:
        out += [ConfigResource(resource_name=b, resource_type=BROKER) for b in brokers]
    if TOPIC in wanted:
        out += [ConfigResource(resource_name=t, resource_type=TOPIC) for t in image.topics]
    return ListConfigResourcesResponse(throttle_time_ms=0, error_code=0, config_resources=out)


error_response = top_level_error(ListConfigResourcesResponse)  # Kafka's ListConfigResourcesRequest.getErrorResponse
