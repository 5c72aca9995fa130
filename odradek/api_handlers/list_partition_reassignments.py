"""ListPartitionReassignments (key 46) v0: the partitions with adding or removing replicas
in the metadata image (every topic, or the named ones; unknown topics and partitions are
simply absent), as Kafka's listPartitionReassignments."""

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
    image = ctx.services.metadata.image
    wanted = ([(n, sorted(t.partitions)) for n, t in sorted(image.topics.items())] if request.topics is None
              else [(t.name, list(t.partition_indexes)) for t in request.topics])
    out = []
    for name, indexes in wanted:
        t = image.topics.get(name)
        if t is None:
            continue
        ongoing = [OngoingPartitionReassignment(partition_index=i, replicas=list(p.replicas),
                                                adding_replicas=list(p.adding_replicas),
                                                removing_replicas=list(p.removing_replicas))
                   for i in indexes if (p := t.partitions.get(i)) is not None
                   and (p.adding_replicas or p.removing_replicas)]
        if ongoing:
            out.append(OngoingTopicReassignment(name=name, partitions=ongoing))
    return ListPartitionReassignmentsResponse(throttle_time_ms=0, error_code=0, error_message=None, topics=out)


def error_response(v: int, req, code: int, msg: str | None):
    """Kafka's ListPartitionReassignmentsRequest.getErrorResponse."""
    return ListPartitionReassignmentsResponse(error_code=code, error_message=msg, topics=[
        OngoingTopicReassignment(name=t.name, partitions=[
            OngoingPartitionReassignment(partition_index=i) for i in t.partition_indexes or ()])
        for t in req.topics or ()])
