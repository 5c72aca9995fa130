"""ShareFetch (key 78) v1-2: acquire records for a share group member (KIP-932), in a share session,
with piggy-backed acknowledgements; long polls through the purgatory.

As Kafka's: epoch 0 opens a session with the request's partitions (replacing the member's old one),
a positive epoch must be the session's next one and adds / forgets partitions, -1 closes the session
(acknowledgements only; the member's acquired records are released). Acknowledgements apply first,
then records are acquired: whole batches from the log (batch-optimized mode may exceed MaxRecords to
complete a batch; v2 record-limit mode does not), each acquired range with its delivery count.
A full request (epoch 0) answers every session partition, a later one only those with records,
an error or acknowledgement results.
"""

from __future__ import annotations

from odradek.api_handlers.context import Delayed
from odradek.wire.errors import ErrorCode
from odradek.wire.messages.share_fetch_response import (
    AcquiredRecords,
    LeaderIdAndEpoch,
    PartitionData,
    ShareFetchableTopicResponse,
    ShareFetchResponse,
)

from .error_responses import top_level_error
from .share_common import (
    FINAL_EPOCH,
    acquire_partition,
    after_writes,
    apply_acknowledgements,
    by_topic,
    open_share_session,
)

API_KEY = 78
MIN_VERSION = 1  # v0 was Kafka 4.0's early access, removed in 4.1
MAX_VERSION = 2  # v2: ShareAcquireMode, Renew acknowledgements (KIP-1206, KIP-1222)

RECORD_LIMIT_MODE = 1


def handle(ctx, req):
    session, refused = open_share_session(ctx.services, req, ShareFetchResponse, opens=True,
                                          connection_id=ctx.connection_id)
    if refused is not None:
        return refused
    acks: dict = {}
    requested = []
    for t in req.topics:
        for p in t.partitions:
            key = (bytes(t.topic_id), p.partition_index)
            requested.append(key)
            if p.acknowledgement_batches:
                acks[key] = list(p.acknowledgement_batches)
    ack_results, writes = apply_acknowledgements(ctx, req.group_id, req.member_id, acks) if acks else ({}, [])
    return after_writes(ctx, ack_results, writes, lambda: _fetch(ctx, req, session, acks, ack_results, requested))


def _fetch(ctx, req, session, acks: dict, ack_results: dict, requested: list):
    """What follows the acknowledgements: the final epoch's answer, or the records acquired (a long
    poll parks)."""
    services = ctx.services
    v = ctx.api_version
    sg = services.shares
    group_id, member_id, epoch = req.group_id, req.member_id, req.share_session_epoch
    settings = sg.share_settings(group_id)

    def leader(tid, p):
        t = services.metadata.image.topics_by_id.get(tid)
        epoch = services.partitions.leader_epoch(t.name, p) if t is not None else -1
        return LeaderIdAndEpoch(leader_id=services.node.node_id if t is not None else -1, leader_epoch=epoch)

    if epoch == FINAL_EPOCH:  # a final request only acknowledges; nothing is fetched
        services.shares.end_session(req.group_id, req.member_id)
        return _respond(req, ack_results, {}, list(acks), settings, leader)

    for key in requested:
        session.partitions[key] = None
    for t in req.forgotten_topics_data:
        for p in t.partitions:
            session.partitions.pop((bytes(t.topic_id), p), None)
    parts = list(session.partitions)
    full = epoch == 0
    record_limit = v >= 2 and req.share_acquire_mode == RECORD_LIMIT_MODE
    max_records = req.max_records if req.max_records > 0 else 500

    def acquire_all():
        out = {}
        remaining = req.max_bytes if req.max_bytes > 0 else 0x7FFFFFFF
        left = max_records
        total = 0
        for tid, p in parts:
            err, data, ranges = acquire_partition(ctx, group_id, member_id, tid, p, remaining, left,
                                                  first=total == 0, record_limit=record_limit)
            out[(tid, p)] = (err, data, ranges)
            total += len(data)
            remaining -= len(data)
            left -= sum(last - first + 1 for first, last, _ in ranges)
        return out, total

    def respond(fetched):
        shown = parts if full else [k for k in parts if k in ack_results or fetched.get(k, (0, b"", []))[0]
                                    or fetched.get(k, (0, b"", []))[2]]
        return _respond(req, ack_results, fetched, shown, settings, leader)

    fetched, total = acquire_all()
    errors = any(e for e, _, _ in fetched.values())
    if req.max_wait_ms <= 0 or total >= max(req.min_bytes, 1) or errors or not parts:
        return respond(fetched)

    def try_complete(now_ms: int):
        f, n = acquire_all()
        if n >= max(req.min_bytes, 1) or any(e for e, _, _ in f.values()):
            return respond(f)
        return None

    def on_expire(now_ms: int):
        return respond(acquire_all()[0])

    watch = []
    for tid, p in parts:
        t = services.metadata.image.topics_by_id.get(tid)
        if t is not None:
            watch.append(("partition", t.name, p))
    return Delayed(try_complete=try_complete, on_expire=on_expire, deadline_ms=ctx.now_ms + req.max_wait_ms,
                   watch=watch)


def _respond(req, ack_results: dict, fetched: dict, shown: list, settings, leader) -> ShareFetchResponse:
    def row(key):
        tid, p = key
        err, data, ranges = fetched.get(key, (ErrorCode.NONE, b"", []))
        return tid, PartitionData(partition_index=p, error_code=int(err), error_message=None,
                                  acknowledge_error_code=int(ack_results.get(key) or 0), acknowledge_error_message=None,
                                  current_leader=leader(tid, p), records=data,
                                  acquired_records=[AcquiredRecords(first_offset=f, last_offset=last, delivery_count=c)
                                                    for f, last, c in ranges])

    responses = by_topic(map(row, shown), lambda tid: ShareFetchableTopicResponse(topic_id=tid, partitions=[]))
    return ShareFetchResponse(throttle_time_ms=0, error_code=0, error_message=None,
                              acquisition_lock_timeout_ms=settings.record_lock_duration_ms,
                              responses=responses, node_endpoints=[])


error_response = top_level_error(ShareFetchResponse)  # Kafka's ShareFetchRequest.getErrorResponse
