"""FindCoordinator (key 10): this node coordinates a group or transactional id when it holds the key's
partition of __consumer_offsets / __transaction_state. The first lookup of each kind creates that topic,
as Kafka does; Kafka answers COORDINATOR_NOT_AVAILABLE until the topic is there, which a single node
(creating it at once) skips, while a quorum broker (asking its controller) answers it."""

from __future__ import annotations

from odradek.coordinator.group_records import OFFSETS_TOPIC
from odradek.coordinator.txn_records import TXN_STATE_TOPIC
from odradek.wire.errors import ErrorCode
from odradek.wire.messages.find_coordinator_response import Coordinator, FindCoordinatorResponse

API_KEY = 10
MIN_VERSION = 0
MAX_VERSION = 4

KEY_TYPE_GROUP = 0
KEY_TYPE_TRANSACTION = 1


def _lookup(ctx, key: str, key_type: int) -> tuple[ErrorCode, str | None, int, str, int]:
    """(error, message, node_id, host, port) for one key."""
    if key_type not in (KEY_TYPE_GROUP, KEY_TYPE_TRANSACTION):
        return ErrorCode.INVALID_REQUEST, f"Unknown key type {key_type}", -1, "", -1
    if not key:
        return ErrorCode.INVALID_REQUEST, None, -1, "", -1
    b = ctx.broker
    if key_type == KEY_TYPE_GROUP:
        coord, topic = getattr(b, "groups", None), OFFSETS_TOPIC
    else:
        coord, topic = getattr(b, "txn_coordinator", None), TXN_STATE_TOPIC
    if coord is not None and not coord.is_coordinator(key):
        b.ensure_internal_topic(topic)  # the first lookup of its kind
    if coord is None or not coord.is_coordinator(key):
        return ErrorCode.COORDINATOR_NOT_AVAILABLE, None, -1, "", -1
    return ErrorCode.NONE, None, b.node_id, b.advertised_host, b.advertised_port


def handle(ctx, request) -> FindCoordinatorResponse:
    v = ctx.api_version
    key_type = request.key_type if v >= 1 else KEY_TYPE_GROUP
    if v >= 4:
        coordinators = []
        for key in request.coordinator_keys:
            err, msg, node, host, port = _lookup(ctx, key, key_type)
            coordinators.append(Coordinator(key=key, node_id=node, host=host, port=port, error_code=err,
                                            error_message=msg if err else None))
        return FindCoordinatorResponse(throttle_time_ms=0, coordinators=coordinators)
    err, msg, node, host, port = _lookup(ctx, request.key, key_type)
    return FindCoordinatorResponse(throttle_time_ms=0, error_code=err,
                                   error_message=(msg or err.name) if err else None,
                                   node_id=node, host=host, port=port)
