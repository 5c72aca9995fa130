"""ReadShareGroupState (key 84) v0: a share-partition leader reads the persisted state of a
share-partition from its share coordinator (KIP-932); a newer leader epoch is recorded, an older
one is FENCED_LEADER_EPOCH; a key never written reads start offset -1."""

from __future__ import annotations

from odradek.wire.messages import read_share_group_state_response as r

from .share_state_common import answer, state_error_response

API_KEY = 84
MIN_VERSION = 0
MAX_VERSION = 0


def handle(ctx, req) -> r.ReadShareGroupStateResponse:
    def result(partition, err, msg, s):
        return r.PartitionResult(partition=partition, error_code=err, error_message=msg,
                                 state_epoch=0 if s is None else s.state_epoch,
                                 start_offset=-1 if s is None else s.start_offset,
                                 state_batches=[] if s is None else [
                                     r.StateBatch(first_offset=f, last_offset=last, delivery_state=st, delivery_count=n)
                                     for f, last, st, n in s.batches])

    return r.ReadShareGroupStateResponse(results=answer(
        ctx, req, lambda states, key, p: states.read(key, p.leader_epoch, ctx.now_ms), result,
        lambda tid, rows: r.ReadStateResult(topic_id=tid, partitions=rows)))


error_response = state_error_response(r.ReadShareGroupStateResponse, r.ReadStateResult, r.PartitionResult)
