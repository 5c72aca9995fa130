"""InitializeShareGroupState (key 83) v0: a share-partition's state starts afresh at a start offset
and state epoch at its share coordinator (KIP-932); an older state epoch is FENCED_STATE_EPOCH."""

from __future__ import annotations

from odradek.wire.messages import initialize_share_group_state_response as r

from .share_state_common import answer, state_error_response

API_KEY = 83
MIN_VERSION = 0
MAX_VERSION = 0


def handle(ctx, req) -> r.InitializeShareGroupStateResponse:
    return r.InitializeShareGroupStateResponse(results=answer(
        ctx, req, lambda states, key, p: states.initialize(key, p.state_epoch, p.start_offset, ctx.now_ms),
        lambda partition, err, msg, _: r.PartitionResult(partition=partition, error_code=err, error_message=msg),
        lambda tid, rows: r.InitializeStateResult(topic_id=tid, partitions=rows)))


error_response = state_error_response(r.InitializeShareGroupStateResponse, r.InitializeStateResult, r.PartitionResult)
