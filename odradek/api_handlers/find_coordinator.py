"""FindCoordinator (key 10) v0-6: this node coordinates a group, transactional id or share-partition
when it holds the key's partition of __consumer_offsets / __transaction_state / __share_group_state.
The first lookup of each kind creates that topic, as Kafka does; Kafka answers
COORDINATOR_NOT_AVAILABLE until the topic is there, which a single node (creating it at once) skips,
while a quorum broker (asking its controller) answers it.

v5 only allows TRANSACTION_ABORTABLE in the response (nothing odradek answers here). v6 adds key type
2, the share coordinator (KIP-932), keyed "groupId:topicId:partition"; an older version naming it,
or a key Kafka's SharePartitionKey refuses, is INVALID_REQUEST. With an authorizer a key needs DESCRIBE on
its group or transactional id (GROUP_/TRANSACTIONAL_ID_AUTHORIZATION_FAILED), a share key CLUSTER_ACTION
(Kafka fails the whole request then; odradek answers the key CLUSTER_AUTHORIZATION_FAILED)."""

from __future__ import annotations

from odradek.coordinator import share_state
from odradek.coordinator.group_records import OFFSETS_TOPIC
from odradek.coordinator.txn_records import TXN_STATE_TOPIC
from odradek.wire.errors import ErrorCode
from odradek.wire.messages.find_coordinator_response import Coordinator, FindCoordinatorResponse

from odradek.controller.acls import CLUSTER, CLUSTER_ACTION, CLUSTER_NAME, DESCRIBE, GROUP, TRANSACTIONAL_ID

from .authorization import allowed
from .common import broker_endpoint
from .ports import Groups, NotLed, Txns

API_KEY = 10
MIN_VERSION = 0
MAX_VERSION = 6

KEY_TYPE_GROUP = 0
KEY_TYPE_TRANSACTION = 1
KEY_TYPE_SHARE = 2

_NONE = (-1, "", -1)


def _share_lookup(ctx, key: str) -> tuple[ErrorCode, str | None, int, str, int]:
    if ctx.api_version < 6:
        return (ErrorCode.INVALID_REQUEST, None) + _NONE
    try:
        group, topic_id, partition = share_state.parse_share_key(key)
    except ValueError:
        return (ErrorCode.INVALID_REQUEST, None) + _NONE
    services = ctx.services
    topic = share_state.SHARE_STATE_TOPIC
    services.topic_creation.ensure_internal_topic(topic)  # the first lookup of its kind (a no-op once it exists)
    t = services.metadata.image.topics.get(topic)
    if t is None:
        return (ErrorCode.COORDINATOR_NOT_AVAILABLE, None) + _NONE
    p = share_state.partition_for(group, topic_id, partition, len(t.partitions))
    if isinstance(services.partitions.leader_log(topic, p), NotLed):
        return _partition_leader(ctx, topic, p)
    return _this_node(ctx)


def _partition_leader(ctx, topic: str, partition: int) -> tuple[ErrorCode, str | None, int, str, int]:
    """The key's partition's leader is the coordinator: Kafka answers its endpoint from the metadata
    (also while it is still loading the partition: its requests then answer
    COORDINATOR_LOAD_IN_PROGRESS); no leader, or a fenced one: COORDINATOR_NOT_AVAILABLE."""
    services = ctx.services
    image = services.metadata.image
    t = image.topics.get(topic)
    part = t.partitions.get(partition) if t is not None else None
    owner = image.brokers.get(part.leader) if part is not None else None
    if owner is None or owner.fenced:
        return (ErrorCode.COORDINATOR_NOT_AVAILABLE, None) + _NONE
    if owner.node_id == services.node.node_id:
        return _this_node(ctx)
    ep = broker_endpoint(owner, ctx.listener)
    if ep is None:
        return (ErrorCode.COORDINATOR_NOT_AVAILABLE, None) + _NONE
    return ErrorCode.NONE, None, owner.node_id, ep[0], ep[1]


def _lookup(ctx, key: str, key_type: int) -> tuple[ErrorCode, str | None, int, str, int]:
    """(error, message, node_id, host, port) for one key."""
    if ctx.services.authorizer is not None:
        denied = _denied(ctx, key, key_type)
        if denied is not None:
            return (denied, None) + _NONE
    if key_type == KEY_TYPE_SHARE:
        return _share_lookup(ctx, key)
    if key_type not in (KEY_TYPE_GROUP, KEY_TYPE_TRANSACTION):
        # Kafka fails the whole lookup with the error's default message
        return (ErrorCode.INVALID_REQUEST, ErrorCode.INVALID_REQUEST.message) + _NONE
    services = ctx.services  # an empty key is a key too (Kafka 4.3 answers its coordinator)
    coord: Groups | Txns | None
    if key_type == KEY_TYPE_GROUP:
        coord, topic = services.groups, OFFSETS_TOPIC
    else:
        coord, topic = services.txns, TXN_STATE_TOPIC
    if coord is not None and not coord.is_coordinator(key):
        services.topic_creation.ensure_internal_topic(topic)  # the first lookup of its kind
    if coord is None:
        return (ErrorCode.COORDINATOR_NOT_AVAILABLE, None) + _NONE
    if not coord.is_coordinator(key):
        return _partition_leader(ctx, topic, coord.partition_for(key))
    return _this_node(ctx)


def _denied(ctx, key: str, key_type: int) -> ErrorCode | None:
    if key_type == KEY_TYPE_GROUP and not allowed(ctx, DESCRIBE, GROUP, key):
        return ErrorCode.GROUP_AUTHORIZATION_FAILED
    if key_type == KEY_TYPE_TRANSACTION and not allowed(ctx, DESCRIBE, TRANSACTIONAL_ID, key):
        return ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED
    if key_type == KEY_TYPE_SHARE and ctx.api_version >= 6 and not allowed(ctx, CLUSTER_ACTION, CLUSTER, CLUSTER_NAME):
        return ErrorCode.CLUSTER_AUTHORIZATION_FAILED
    return None


def _this_node(ctx) -> tuple[ErrorCode, str | None, int, str, int]:
    """This broker, at its endpoint on the client's listener."""
    node = ctx.services.node
    me = ctx.services.metadata.image.brokers.get(node.node_id) if ctx.listener else None
    ep = broker_endpoint(me, ctx.listener) if me is not None else None
    host, port = ep if ep is not None else (node.host, node.port)
    return ErrorCode.NONE, None, node.node_id, host, port


def handle(ctx, request) -> FindCoordinatorResponse:
    v = ctx.api_version
    key_type = request.key_type if v >= 1 else KEY_TYPE_GROUP
    if v >= 4:
        coordinators = []
        for key in request.coordinator_keys:
            err, msg, node, host, port = _lookup(ctx, key, key_type)
            # Kafka leaves the message unset: its default, ""
            coordinators.append(Coordinator(key=key, node_id=node, host=host, port=port, error_code=err,
                                            error_message=msg or ""))
        return FindCoordinatorResponse(throttle_time_ms=0, coordinators=coordinators)
    err, msg, node, host, port = _lookup(ctx, request.key, key_type)
    # Kafka sends an error below v4 as an error response: the error's default message
    return FindCoordinatorResponse(throttle_time_ms=0, error_code=err, error_message=err.message if err else None,
                                   node_id=node, host=host, port=port)


def error_response(v: int, req, code: int, msg: str | None):
    """Kafka's FindCoordinatorRequest.getErrorResponse."""
    default_msg = ErrorCode.from_code(code).message  # Kafka sets Errors.message() here
    if v < 4:
        return FindCoordinatorResponse(error_code=code, error_message=default_msg,
                                       node_id=-1, host="", port=-1)
    return FindCoordinatorResponse(coordinators=[
        Coordinator(key=k, node_id=-1, host="", port=-1, error_code=code, error_message=default_msg)
        for k in req.coordinator_keys or ()])
