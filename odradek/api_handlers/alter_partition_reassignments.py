"""AlterPartitionReassignments (key 45) v0-1, decided and written by the active controller
(controller/replication_control.py, Kafka's alterPartitionReassignments): the target is
validated as Kafka's (empty list, unregistered broker, duplicates, in sorted order; v1's
allow_replication_factor_change); the new replicas join the partition (adding_replicas)
and the ones to drop are marked removing until the ISR holds every target replica, when
the leader's AlterPartition completes it; a target the ISR already allows completes at
once; replicas None cancels (NO_REASSIGNMENT_IN_PROGRESS when there is none)."""

from __future__ import annotations

from odradek.wire.messages.alter_partition_reassignments_response import (AlterPartitionReassignmentsResponse,
                                                                          ReassignablePartitionResponse,
                                                                          ReassignableTopicResponse)

from .common import mirror_partitions
from .context import in_steps, topic_results_steps

API_KEY = 45
MIN_VERSION = 0
MAX_VERSION = 1


def handle(ctx, request):
    allow_rf_change = bool(request.allow_replication_factor_change) if ctx.api_version >= 1 else True
    topics = [(t.name, [(p.partition_index, None if p.replicas is None else list(p.replicas)) for p in t.partitions])
              for t in request.topics]
    return in_steps(_answer(ctx, topics, allow_rf_change, "" if not request.topics else None))


def _answer(ctx, topics, allow_rf_change: bool, error_message: str | None):
    """The controller's decision a part at a time, then the answer, STEP_ENTRIES partitions a step."""
    results = yield from ctx.services.metadata.alter_partition_reassignments_steps(topics, allow_rf_change,
                                                                                   ctx.now_ms)
    return (yield from topic_results_steps(
        results, lambda name, parts: ReassignableTopicResponse(name=name, partitions=parts),
        lambda i, code, msg: ReassignablePartitionResponse(partition_index=i, error_code=code, error_message=msg),
        lambda responses: AlterPartitionReassignmentsResponse(
            throttle_time_ms=0, allow_replication_factor_change=allow_rf_change, error_code=0,
            error_message=error_message,  # what Kafka 4.3 answers: "" for no topics
            responses=responses)))


def error_response(v: int, req, code: int, msg: str | None):
    """Kafka's AlterPartitionReassignmentsRequest.getErrorResponse."""
    return AlterPartitionReassignmentsResponse(error_code=code, error_message=msg, responses=mirror_partitions(
        req.topics, lambda t, parts: ReassignableTopicResponse(name=t.name, partitions=parts),
        lambda p: ReassignablePartitionResponse(partition_index=p.partition_index, error_code=code, error_message=msg)))
