"""ListPartitionReassignments (key 46) v0: no reassignment is ever in progress here (a
reassignment to the current replica set completes at once), so the list is empty, as on
a single Kafka node; unknown topics are simply absent."""

from __future__ import annotations

from odradek.wire.messages.list_partition_reassignments_response import (
    ListPartitionReassignmentsResponse,
    OngoingPartitionReassignment,
    OngoingTopicReassignment,
)

API_KEY = 46
MIN_VERSION = 0
MAX_VERSION = 0


def handle(ctx, request) -> ListPartitionReassignmentsResponse:
    return ListPartitionReassignmentsResponse(throttle_time_ms=0, error_code=0, error_message=None, topics=[])


def error_response(v: int, req, code: int, msg: str | None):
    """Kafka's ListPartitionReassignmentsRequest.getErrorResponse."""
    return ListPartitionReassignmentsResponse(error_code=code, error_message=msg, topics=[
        OngoingTopicReassignment(name=t.name, partitions=[
            OngoingPartitionReassignment(partition_index=i) for i in t.partition_indexes or ()])
        for t in req.topics or ()])
