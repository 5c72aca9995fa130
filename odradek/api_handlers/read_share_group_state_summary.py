"""ReadShareGroupStateSummary (key 87) v0-1: a share-partition's start offset and epochs from its
share coordinator (KIP-932), without fencing; v1 adds how many in-flight records are done
(acknowledged or archived: DeliveryCompleteCount, KIP-1226)."""

from __future__ import annotations

from odradek.coordinator.share_coordinator import delivery_complete_count
from odradek.wire.messages import read_share_group_state_summary_response as r

from .share_state_common import answer, state_error_response

API_KEY = 87
MIN_VERSION = 0
MAX_VERSION = 1


def handle(ctx, req) -> r.ReadShareGroupStateSummaryResponse:
    def result(partition, err, msg, s):
        if s is None:
            return r.PartitionResult(partition=partition, error_code=err, error_message=msg, state_epoch=0,
                                     leader_epoch=0, start_offset=-1)
        return r.PartitionResult(partition=partition, error_code=0, error_message=None, state_epoch=s.state_epoch,
                                 leader_epoch=s.leader_epoch, start_offset=s.start_offset,
                                 delivery_complete_count=delivery_complete_count(s))

    return r.ReadShareGroupStateSummaryResponse(results=answer(
        ctx, req, lambda states, key, p: states.summary(key), result,
        lambda tid, rows: r.ReadStateSummaryResult(topic_id=tid, partitions=rows)))


error_response = state_error_response(r.ReadShareGroupStateSummaryResponse, r.ReadStateSummaryResult, r.PartitionResult)
