"""StreamsGroupHeartbeat (key 88) v0: KIP-1071 streams groups, tasks assigned by the broker.

Served while streams.version >= 1 is finalized (as Kafka: otherwise not advertised and answered
UNSUPPORTED_VERSION). The internal topics the group's topology needs and that do not exist yet are
created here, as Kafka's KafkaApis does with the topics its coordinator returns; meanwhile the
heartbeat reports them in a MISSING_INTERNAL_TOPICS status.
"""

from __future__ import annotations

import logging

from odradek.api_handlers.authorization import allowed
from odradek.api_handlers.error_responses import top_level_error
from odradek.api_handlers.group_common import (
    client_host, coordinator, coordinator_error, image_topics, protocol_disabled,
)
from odradek.api_handlers.ports import Services
from odradek.controller.acls import CLUSTER, CLUSTER_NAME, CREATE, TOPIC
from odradek.coordinator.streams_topology import MISSING_INTERNAL_TOPICS
from odradek.wire.errors import ErrorCode
from odradek.wire.messages.streams_group_heartbeat_response import (
    Endpoint,
    EndpointToPartitions,
    Status,
    StreamsGroupHeartbeatResponse,
    TaskIds,
    TopicPartition,
)

API_KEY = 88
MIN_VERSION = 0
MAX_VERSION = 0

STREAMS_API_KEYS = frozenset({88, 89})
log = logging.getLogger(__name__)


def streams_enabled(services: Services) -> bool:
    return services.metadata.finalized_features().get("streams.version", 0) >= 1


def _error(code, message=None) -> StreamsGroupHeartbeatResponse:
    return StreamsGroupHeartbeatResponse(throttle_time_ms=0, error_code=code, error_message=message)


def _task_map(items):
    if items is None:
        return None
    return {t.subtopology_id: list(t.partitions) for t in items}


def _task_ids(tasks: dict) -> list:
    return [TaskIds(subtopology_id=s, partitions=sorted(ps)) for s, ps in sorted(tasks.items()) if ps]


def may_create(ctx, name: str) -> bool:
    """CREATE on the cluster or on the topic (an internal topic a streams group needs)."""
    return allowed(ctx, CREATE, CLUSTER, CLUSTER_NAME) or allowed(ctx, CREATE, TOPIC, name)


def create_internal_topics(ctx, topics: dict) -> None:
    """Kafka's AutoTopicCreationManager.createStreamsInternalTopics: CreateTopics with the counts and
    configs the topology asked for (the default replication factor unless it set one)."""
    if not topics:
        return
    try:
        ctx.services.topic_creation.create_streams_internal_topics(
            [(t.name, t.partitions, t.replication_factor, t.configs) for t in topics.values()], ctx.now_ms)
    except Exception:  # the next heartbeat reports them missing again and retries
        log.exception("creating the internal topics of a streams group failed")


def handle(ctx, request) -> StreamsGroupHeartbeatResponse:
    from odradek.coordinator.streams_heartbeat import StreamsHeartbeatRequest

    coord = coordinator(ctx)
    if not streams_enabled(ctx.services) or protocol_disabled(ctx, "streams"):
        return _error(ErrorCode.UNSUPPORTED_VERSION)
    if coord_err := coordinator_error(ctx, request.group_id):
        return _error(coord_err)
    shares = ctx.services.shares
    if shares is not None and shares.is_share_group(request.group_id):
        return _error(ErrorCode.GROUP_ID_NOT_FOUND, f"Group {request.group_id} is not a streams group.")
    ep = request.user_endpoint
    req = StreamsHeartbeatRequest(
        group_id=request.group_id, member_id=request.member_id, member_epoch=request.member_epoch,
        endpoint_information_epoch=request.endpoint_information_epoch, instance_id=request.instance_id,
        rack_id=request.rack_id, rebalance_timeout_ms=request.rebalance_timeout_ms, topology=request.topology,
        active=_task_map(request.active_tasks), standby=_task_map(request.standby_tasks),
        warmup=_task_map(request.warmup_tasks), process_id=request.process_id,
        user_endpoint=None if ep is None else (ep.host, ep.port),
        client_tags=None if request.client_tags is None else {kv.key: kv.value for kv in request.client_tags},
        shutdown_application=bool(request.shutdown_application),
        client_id=ctx.client_id or "", client_host=client_host(ctx))
    r = coord.streams_group_heartbeat(req, ctx.now_ms, image_topics(ctx))
    if r.error != ErrorCode.NONE:
        return _error(r.error, r.error_message)
    status = list(r.status)
    refused = [name for name in r.topics_to_create if not may_create(ctx, name)]
    if refused:  # as Kafka's KafkaApis: none is created then
        status.append((MISSING_INTERNAL_TOPICS, f"Unauthorized to CREATE on topics {','.join(refused)}."))
    else:
        create_internal_topics(ctx, r.topics_to_create)
    resp = StreamsGroupHeartbeatResponse(
        throttle_time_ms=0, error_code=0, error_message=None, member_id=r.member_id, member_epoch=r.member_epoch,
        heartbeat_interval_ms=r.heartbeat_interval_ms, acceptable_recovery_lag=0, task_offset_interval_ms=0,
        status=[Status(status_code=c, status_detail=d) for c, d in status],  # Kafka: [] when none
        endpoint_information_epoch=r.endpoint_information_epoch)
    if r.assignment is not None:
        resp.active_tasks = _task_ids(r.assignment.active)
        resp.standby_tasks = _task_ids(r.assignment.standby)
        resp.warmup_tasks = _task_ids(r.assignment.warmup)
    if r.partitions_by_endpoint is not None:
        resp.partitions_by_user_endpoint = [
            EndpointToPartitions(user_endpoint=Endpoint(host=h, port=p),
                                 active_partitions=[TopicPartition(topic=t, partitions=ps) for t, ps in act],
                                 standby_partitions=[TopicPartition(topic=t, partitions=ps) for t, ps in stb])
            for (h, p), act, stb in r.partitions_by_endpoint]
    return resp


error_response = top_level_error(StreamsGroupHeartbeatResponse)  # Kafka's StreamsGroupHeartbeatRequest.getErrorResponse
