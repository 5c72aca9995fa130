"""ElectLeaders (key 43) v0-2. Every partition here is led by its preferred (and only live)
replica, so a preferred or unclean election is never needed: ELECTION_NOT_NEEDED per named
partition; for all partitions (null), every topic with no partition results (as Kafka)."""

from __future__ import annotations

from odradek.wire.errors import ErrorCode
from odradek.wire.messages.elect_leaders_response import ElectLeadersResponse, PartitionResult, ReplicaElectionResult

from .common import mirror_partitions

API_KEY = 43
MIN_VERSION = 0
MAX_VERSION = 2

PREFERRED, UNCLEAN = 0, 1
NOT_NEEDED = "Leader election not needed for topic partition."


def handle(ctx, request) -> ElectLeadersResponse:
    election_type = request.election_type if ctx.api_version >= 1 else PREFERRED
    image = ctx.services.metadata.image
    if request.topic_partitions is None:
        return ElectLeadersResponse(throttle_time_ms=0, error_code=0, replica_election_results=[
            ReplicaElectionResult(topic=name, partition_result=[]) for name in image.topics])
    if election_type not in (PREFERRED, UNCLEAN):
        msg = f"Unknown election type {election_type}"
        return ElectLeadersResponse(throttle_time_ms=0, error_code=ErrorCode.INVALID_REQUEST, replica_election_results=[
            ReplicaElectionResult(topic=t.topic, partition_result=[
                PartitionResult(partition_id=p, error_code=ErrorCode.INVALID_REQUEST, error_message=msg)
                for p in t.partitions])
            for t in request.topic_partitions])
    results = []
    for t in request.topic_partitions:
        topic = image.topics.get(t.topic)
        parts = []
        for p in t.partitions:
            if topic is None:
                parts.append(PartitionResult(partition_id=p, error_code=ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
                                             error_message=f"No such topic as {t.topic}"))
            elif p not in topic.partitions:
                parts.append(PartitionResult(partition_id=p, error_code=ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
                                             error_message=f"No such partition as {t.topic}-{p}"))
            else:
                parts.append(PartitionResult(partition_id=p, error_code=ErrorCode.ELECTION_NOT_NEEDED,
                                             error_message=NOT_NEEDED))
        results.append(ReplicaElectionResult(topic=t.topic, partition_result=parts))
    return ElectLeadersResponse(throttle_time_ms=0, error_code=0, replica_election_results=results)


def error_response(v: int, req, code: int, msg: str | None):
    """Kafka's ElectLeadersRequest.getErrorResponse."""
    return ElectLeadersResponse(error_code=code if v >= 1 else 0, replica_election_results=mirror_partitions(
        req.topic_partitions, lambda t, parts: ReplicaElectionResult(topic=t.topic, partition_result=parts),
        lambda p: PartitionResult(partition_id=p, error_code=code, error_message=msg)))
