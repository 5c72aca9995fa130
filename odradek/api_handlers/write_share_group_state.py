"""WriteShareGroupState (key 85) v0-1: a share-partition leader writes a share-partition's state to its
share coordinator (KIP-932): the start offset and in-flight state batches, answered once committed;
v1 adds how many of its records are done (DeliveryCompleteCount, KIP-1226: what
ReadShareGroupStateSummary v1 answers).
An older leader epoch is FENCED_LEADER_EPOCH, an older state epoch FENCED_STATE_EPOCH. The write
replaces the stored state (odradek's leaders always write it whole)."""

from __future__ import annotations

from odradek.coordinator.share_coordinator import Snapshot
from odradek.wire.messages import write_share_group_state_response as r

from .share_state_common import answer, state_error_response

API_KEY = 85
MIN_VERSION = 0
MAX_VERSION = 1


def handle(ctx, req) -> r.WriteShareGroupStateResponse:
    def write(states, key, p):
        states.write(key, Snapshot(p.start_offset, [(b.first_offset, b.last_offset, b.delivery_state,
                                                     b.delivery_count) for b in p.state_batches],
                                   p.state_epoch, p.leader_epoch, p.delivery_complete_count), ctx.now_ms)

    return r.WriteShareGroupStateResponse(results=answer(
        ctx, req, write, lambda partition, err, msg, _: r.PartitionResult(partition=partition, error_code=err,
                                                                          error_message=msg),
        lambda tid, rows: r.WriteStateResult(topic_id=tid, partitions=rows)))


error_response = state_error_response(r.WriteShareGroupStateResponse, r.WriteStateResult, r.PartitionResult)
