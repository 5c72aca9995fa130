"""DeleteShareGroupState (key 86) v0: a share-partition's state is deleted at its share coordinator
(KIP-932; a tombstone, answered once committed)."""

from __future__ import annotations

from odradek.wire.messages import delete_share_group_state_response as r

from .share_state_common import answer, state_error_response

API_KEY = 86
MIN_VERSION = 0
MAX_VERSION = 0


def handle(ctx, req) -> r.DeleteShareGroupStateResponse:
    return r.DeleteShareGroupStateResponse(results=answer(
        ctx, req, lambda states, key, p: states.delete(key, ctx.now_ms),
        lambda partition, err, msg, _: r.PartitionResult(partition=partition, error_code=err, error_message=msg),
        lambda tid, rows: r.DeleteStateResult(topic_id=tid, partitions=rows)))


error_response = state_error_response(r.DeleteShareGroupStateResponse, r.DeleteStateResult, r.PartitionResult)
