"""ElectLeaders (key 43) v0-2: PREFERRED or UNCLEAN leader elections, decided and written by
the active controller (controller/replication_control.py, Kafka's electLeaders): per named
partition ELECTION_NOT_NEEDED, PREFERRED_LEADER_NOT_AVAILABLE, ELIGIBLE_LEADERS_NOT_AVAILABLE
or UNKNOWN_TOPIC_OR_PARTITION; for all partitions (null), those needing no election are left
out. An unknown election type fails the request (INVALID_REQUEST), as Kafka, and so does a timeout_ms
of 0 or less (REQUEST_TIMED_OUT: Kafka's deadline has passed before the election runs), and so do
more than 10,000 elections (POLICY_VIOLATION: one controller batch's bound, Decisions.elect_leaders)."""

from __future__ import annotations

from odradek.controller.result import Refusal
from odradek.wire.errors import ErrorCode
from odradek.wire.messages.elect_leaders_response import ElectLeadersResponse, PartitionResult, ReplicaElectionResult

from .common import mirror_partitions
from .context import in_steps, topic_results_steps

API_KEY = 43
MIN_VERSION = 0
MAX_VERSION = 2

PREFERRED, UNCLEAN = 0, 1


def handle(ctx, request):
    election_type = request.election_type if ctx.api_version >= 1 else PREFERRED
    if election_type not in (PREFERRED, UNCLEAN):
        return error_response(ctx.api_version, request, ErrorCode.INVALID_REQUEST,
                              f"Unknown election type {election_type}")
    if request.timeout_ms <= 0:
        # Kafka's controller runs the election under the deadline now + timeout_ms: one already past
        # answers REQUEST_TIMED_OUT for every partition, without a message (kafka-go sends 0 by default)
        return error_response(ctx.api_version, request, ErrorCode.REQUEST_TIMED_OUT, None)
    wanted = (None if request.topic_partitions is None
              else [(t.topic, list(t.partitions)) for t in request.topic_partitions])
    return in_steps(_answer(ctx, request, election_type, wanted))


def _answer(ctx, request, election_type: int, wanted):
    """The controller's decision a part at a time, then the answer, STEP_ENTRIES partitions a step."""
    results = yield from ctx.services.metadata.elect_leaders_steps(election_type, wanted, ctx.now_ms)
    if isinstance(results, Refusal):  # more elections than one controller batch holds
        return error_response(ctx.api_version, request, results.error_code, results.message)
    return (yield from topic_results_steps(
        ((r.topic, r.partitions) for r in results),
        lambda topic, parts: ReplicaElectionResult(topic=topic, partition_result=parts),
        lambda i, code, msg: PartitionResult(partition_id=i, error_code=code, error_message=msg),
        lambda topics: ElectLeadersResponse(throttle_time_ms=0, error_code=0, replica_election_results=topics)))


def error_response(v: int, req, code: int, msg: str | None):
    """Kafka's ElectLeadersRequest.getErrorResponse."""
    return ElectLeadersResponse(error_code=code if v >= 1 else 0, replica_election_results=mirror_partitions(
        req.topic_partitions, lambda t, parts: ReplicaElectionResult(topic=t.topic, partition_result=parts),
        lambda p: PartitionResult(partition_id=p, error_code=code, error_message=msg)))
