"""ShareAcknowledge (key 79) v1-2: acknowledge acquired records (ACCEPT, RELEASE, REJECT, GAP; v2 RENEW)
in the member's share session. Epoch 0 is refused (acknowledging needs a session); -1 acknowledges
and closes the session, releasing the records the member still holds."""

from __future__ import annotations

from odradek.wire.messages.share_acknowledge_response import (
    LeaderIdAndEpoch,
    PartitionData,
    ShareAcknowledgeResponse,
    ShareAcknowledgeTopicResponse,
)

from .error_responses import top_level_error
from .share_common import FINAL_EPOCH, after_writes, apply_acknowledgements, by_topic, open_share_session

API_KEY = 79
MIN_VERSION = 1
MAX_VERSION = 2


def handle(ctx, req) -> ShareAcknowledgeResponse:
    services = ctx.services
    _, refused = open_share_session(services, req, ShareAcknowledgeResponse, opens=False)
    if refused is not None:
        return refused
    acks = {}
    for t in req.topics:
        for p in t.partitions:
            acks.setdefault((bytes(t.topic_id), p.partition_index), []).extend(p.acknowledgement_batches)
    results, writes = apply_acknowledgements(ctx, req.group_id, req.member_id, acks)
    if req.share_session_epoch == FINAL_EPOCH:
        services.shares.end_session(req.group_id, req.member_id)
    return after_writes(ctx, results, writes, lambda: _respond(services, req, results))


def _respond(services, req, results: dict) -> ShareAcknowledgeResponse:
    leader = LeaderIdAndEpoch(leader_id=services.node.node_id, leader_epoch=0)
    responses = by_topic(((tid, PartitionData(partition_index=p, error_code=int(e), error_message=None,
                                              current_leader=leader)) for (tid, p), e in results.items()),
                         lambda tid: ShareAcknowledgeTopicResponse(topic_id=tid, partitions=[]))
    lock_ms = services.shares.share_settings(req.group_id).record_lock_duration_ms
    return ShareAcknowledgeResponse(throttle_time_ms=0, error_code=0, error_message=None,
                                    acquisition_lock_timeout_ms=lock_ms, responses=responses, node_endpoints=[])


error_response = top_level_error(ShareAcknowledgeResponse)  # Kafka's ShareAcknowledgeRequest.getErrorResponse
