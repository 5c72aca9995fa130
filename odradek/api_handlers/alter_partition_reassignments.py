"""AlterPartitionReassignments (key 45) v0-1: the target replica set is validated as Kafka's
controller does (empty list, unregistered broker, duplicates, in sorted order); a target equal
to the current replicas completes at once, a cancel finds no reassignment in progress; moving
replicas is refused (odradek does not move partition replicas between brokers yet)."""

from __future__ import annotations

from odradek.wire.errors import ErrorCode
from odradek.wire.messages.alter_partition_reassignments_response import (AlterPartitionReassignmentsResponse,
                                                                          ReassignablePartitionResponse,
                                                                          ReassignableTopicResponse)

from .common import mirror_partitions

API_KEY = 45
MIN_VERSION = 0
MAX_VERSION = 1


def handle(ctx, request) -> AlterPartitionReassignmentsResponse:
    image = ctx.services.metadata.image
    allow_rf_change = bool(request.allow_replication_factor_change) if ctx.api_version >= 1 else True
    responses = []
    for t in request.topics:
        topic = image.topics.get(t.name)
        parts = []
        for p in t.partitions:
            code, msg = _one(image, topic, t.name, p.partition_index, p.replicas, allow_rf_change)
            parts.append(ReassignablePartitionResponse(partition_index=p.partition_index, error_code=code,
                                                       error_message=msg))
        responses.append(ReassignableTopicResponse(name=t.name, partitions=parts))
    return AlterPartitionReassignmentsResponse(
        throttle_time_ms=0, allow_replication_factor_change=allow_rf_change, error_code=0,
        error_message="" if not request.topics else None,  # what Kafka 4.3 answers
        responses=responses)


def _one(image, topic, name: str, index: int, replicas, allow_rf_change: bool):
    if topic is None:
        return ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, f"Unable to find a topic named {name}."
    part = topic.partitions.get(index)
    if part is None:
        return ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, f"Unable to find partition {name}:{index}."
    if replicas is None:  # cancel
        return ErrorCode.NO_REASSIGNMENT_IN_PROGRESS, None
    if not replicas:
        return ErrorCode.INVALID_REPLICA_ASSIGNMENT, "The manual partition assignment includes an empty replica list."
    prev = None
    for b in sorted(replicas):
        if b not in image.brokers:
            return (ErrorCode.INVALID_REPLICA_ASSIGNMENT,
                    f"The manual partition assignment includes broker {b}, but no such broker is registered.")
        if b == prev:
            return (ErrorCode.INVALID_REPLICA_ASSIGNMENT,
                    f"The manual partition assignment includes the broker {b} more than once.")
        prev = b
    if not allow_rf_change and len(replicas) != len(part.replicas):
        return (ErrorCode.INVALID_REPLICATION_FACTOR,
                f"The replication factor is changed from {len(part.replicas)} to {len(replicas)}")
    if list(replicas) == list(part.replicas):
        return 0, None  # already there: the reassignment is complete
    # moving data between brokers is not implemented (a multi-node odradek cluster)
    return ErrorCode.INVALID_REPLICA_ASSIGNMENT, "odradek does not move partition replicas between brokers."


def error_response(v: int, req, code: int, msg: str | None):
    """Kafka's AlterPartitionReassignmentsRequest.getErrorResponse."""
    return AlterPartitionReassignmentsResponse(error_code=code, error_message=msg, responses=mirror_partitions(
        req.topics, lambda t, parts: ReassignableTopicResponse(name=t.name, partitions=parts),
        lambda p: ReassignablePartitionResponse(partition_index=p.partition_index, error_code=code, error_message=msg)))
