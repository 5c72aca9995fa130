"""Fetch (key 1): record data as log file slices, long polling through the purgatory.

Rules as Kafka's: whole batches from the one holding fetch_offset; the first
partition with data may return one batch larger than the limits (so a consumer can
always progress); later partitions only what fits in max_bytes/partition_max_bytes;
read_uncommitted reads up to the high watermark, read_committed up to the last
stable offset with the aborted transactions of the range read; an empty record set
is empty bytes, not null.
"""

from __future__ import annotations

from odradek.api_handlers.context import Delayed
from odradek.log import errors as log_errors
from odradek.wire.errors import ErrorCode
from odradek.wire.messages.fetch_response import (
    AbortedTransaction,
    FetchableTopicResponse,
    FetchResponse,
    PartitionData,
)

from .common import SliceRecords, leader_epoch_error, log_error_code

API_KEY = 1
MIN_VERSION = 4
MAX_VERSION = 16

ZERO_UUID = b"\0" * 16


def _resolve(ctx, req):
    """[(topic name or None, topic_id, FetchTopic)] honouring topic ids from v13."""
    image = ctx.broker.image
    out = []
    for t in req.topics:
        if ctx.api_version >= 13:
            ti = image.topics_by_id.get(t.topic_id)
            out.append((ti.name if ti is not None else None, t.topic_id, t))
        else:
            ti = image.topics.get(t.topic)
            out.append((t.topic, ti.topic_id if ti is not None else ZERO_UUID, t))
    return out


def _read_all(ctx, req, topics):
    """Build the response now; returns (response, total bytes, any partition error)."""
    b = ctx.broker
    v = ctx.api_version
    committed = req.isolation_level == 1
    remaining = req.max_bytes if req.max_bytes > 0 else 0x7FFFFFFF
    total = 0
    error = False
    responses = []
    for name, topic_id, t in topics:
        parts = []
        for fp in t.partitions:
            pd = PartitionData(partition_index=fp.partition, error_code=0, high_watermark=-1,
                               last_stable_offset=-1, log_start_offset=-1,
                               aborted_transactions=[] if committed else None,
                               preferred_read_replica=-1, records=b"")
            parts.append(pd)
            plog = b.replicas.get(name, fp.partition) if name is not None else None
            if plog is None:
                pd.error_code = ErrorCode.UNKNOWN_TOPIC_ID if name is None else ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
                error = True
                continue
            if v >= 9:
                err = leader_epoch_error(fp.current_leader_epoch, b.replicas.leader_epoch(name, fp.partition))
                if err:
                    pd.error_code = err
                    error = True
                    continue
            hw = plog.high_watermark
            lso = plog.last_stable_offset
            pd.high_watermark = hw
            pd.last_stable_offset = lso
            pd.log_start_offset = plog.log_start_offset
            limit = min(fp.partition_max_bytes, remaining)
            if limit <= 0 and total > 0:
                continue
            try:
                sl = plog.read(fp.fetch_offset, max(limit, 0), upper_bound_offset=lso if committed else hw,
                               min_one_batch=total == 0)
            except log_errors.OffsetOutOfRangeError:
                pd.error_code = ErrorCode.OFFSET_OUT_OF_RANGE
                error = True
                continue
            except log_errors.LogError as e:
                pd.error_code = log_error_code(e)
                error = True
                continue
            pd.log_start_offset = sl.log_start_offset
            if sl.total_bytes:
                pd.records = SliceRecords(sl)
                if committed:
                    pd.aborted_transactions = [
                        AbortedTransaction(producer_id=a.producer_id, first_offset=a.first_offset)
                        for a in plog.aborted_transactions(sl.first_offset, lso)]
                total += sl.total_bytes
                remaining -= sl.total_bytes
        responses.append(FetchableTopicResponse(topic=name or "", topic_id=topic_id, partitions=parts))
    resp = FetchResponse(throttle_time_ms=0, error_code=0, session_id=0, responses=responses,
                         node_endpoints=[])
    return resp, total, error


def handle(ctx, req):
    b = ctx.broker
    try:
        b.fetch_sessions.lookup(req.session_id, req.session_epoch)
    except KeyError:
        return FetchResponse(throttle_time_ms=0, error_code=ErrorCode.FETCH_SESSION_ID_NOT_FOUND,
                             session_id=0, responses=[], node_endpoints=[])
    topics = _resolve(ctx, req)
    resp, total, error = _read_all(ctx, req, topics)
    if req.max_wait_ms <= 0 or total >= req.min_bytes or error or not topics:
        return resp

    def try_complete(now_ms: int):
        r, n, err = _read_all(ctx, req, topics)
        return r if (n >= req.min_bytes or err) else None

    def on_expire(now_ms: int):
        return _read_all(ctx, req, topics)[0]

    watch = [("partition", name, fp.partition) for name, _, t in topics if name is not None for fp in t.partitions]
    return Delayed(try_complete=try_complete, on_expire=on_expire, deadline_ms=ctx.now_ms + req.max_wait_ms,
                   watch=watch)
