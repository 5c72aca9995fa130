"""DeleteRecords (key 21): move a partition's log start offset (-1 = high watermark).

As Kafka's ReplicaManager.deleteRecords: the leader moves its own log start at once; the
answer waits (DelayedDeleteRecords) until the partition's low watermark, the smallest log
start offset over its live replicas (the leader learns its followers' from their fetches),
reaches the offset asked for. At the request's timeout a partition still waiting answers
REQUEST_TIMED_OUT with the low watermark it had when the records were deleted."""

from __future__ import annotations

from odradek.controller.acls import DELETE, TOPIC
from odradek.log import errors as log_errors
from odradek.wire.errors import ErrorCode
from odradek.wire.messages.delete_records_response import (
    DeleteRecordsPartitionResult,
    DeleteRecordsResponse,
    DeleteRecordsTopicResult,
)

from .authorization import allowed_names
from .common import log_error_code, mirror_partitions
from .context import STEP_PARTITIONS, Delayed, in_steps
from .ports import NotLed, low_watermark_key

API_KEY = 21
MIN_VERSION = 0
MAX_VERSION = 2


class _Waiting:
    """A partition whose low watermark has not reached the offset asked for yet."""

    __slots__ = ("topic", "partition", "required_offset", "result")

    def __init__(self, topic: str, partition: int, required_offset: int, result: DeleteRecordsPartitionResult):
        self.topic, self.partition, self.required_offset, self.result = topic, partition, required_offset, result


def handle(ctx, req):
    """The response, STEP_PARTITIONS partitions a step for a large request (context.in_steps): each
    partition's log start moves on its own, as in Kafka's ReplicaManager.deleteRecords."""
    return in_steps(_answer(ctx, req))


def _answer(ctx, req):
    services = ctx.services
    partitions = services.partitions
    topics = []
    waiting: list[_Waiting] = []
    denied: set = set()
    if services.authorizer is not None:  # DELETE on each topic
        names = {t.name for t in req.topics}
        denied = names - allowed_names(ctx, DELETE, TOPIC, names)
    n = 0
    for t in req.topics:
        parts = []
        for p in t.partitions:
            n += 1
            if n % STEP_PARTITIONS == 0:
                yield
            r = DeleteRecordsPartitionResult(partition_index=p.partition_index, low_watermark=-1, error_code=0)
            if denied and t.name in denied:
                r.error_code = ErrorCode.TOPIC_AUTHORIZATION_FAILED
                parts.append(r)
                continue
            plog = partitions.leader_log(t.name, p.partition_index)
            if isinstance(plog, NotLed):
                r.error_code = plog.error
            elif services.metadata.is_internal(t.name):
                r.error_code = ErrorCode.INVALID_TOPIC_EXCEPTION  # Kafka: internal topics refuse
            elif not plog.config.delete:  # Kafka: a topic without cleanup.policy=delete refuses
                r.error_code = ErrorCode.POLICY_VIOLATION
            else:
                try:
                    deleted = partitions.delete_records(t.name, p.partition_index, p.offset)
                except log_errors.LogError as e:
                    r.error_code = log_error_code(e)
                else:
                    r.low_watermark = deleted.low_watermark
                    if deleted.low_watermark < deleted.requested_offset:
                        waiting.append(_Waiting(t.name, p.partition_index, deleted.requested_offset, r))
            parts.append(r)
        topics.append(DeleteRecordsTopicResult(name=t.name, partitions=parts))
    response = DeleteRecordsResponse(throttle_time_ms=0, topics=topics)
    if not waiting:
        return response

    def still_waiting() -> list[_Waiting]:
        """DelayedDeleteRecords.tryComplete: a partition is done once its low watermark reached
        the offset, or with the error of a leadership lost meanwhile."""
        out = []
        for w in waiting:
            low = partitions.low_watermark(w.topic, w.partition)
            if isinstance(low, NotLed):
                w.result.error_code, w.result.low_watermark = low.error, -1
            elif low >= w.required_offset:
                w.result.low_watermark = low
            else:
                out.append(w)
        return out

    def try_complete(now_ms: int):
        nonlocal waiting
        waiting = still_waiting()
        return None if waiting else response

    def on_expire(now_ms: int):
        for w in still_waiting():
            w.result.error_code = ErrorCode.REQUEST_TIMED_OUT
        return response

    waiting = still_waiting()
    if not waiting:
        return response
    watch = [key for w in waiting
             for key in (("partition", w.topic, w.partition), low_watermark_key(w.topic, w.partition))]
    return Delayed(try_complete=try_complete, on_expire=on_expire, deadline_ms=ctx.now_ms + req.timeout_ms,
                   watch=watch)


def error_response(v: int, req, code: int, msg: str | None):
    """Kafka's DeleteRecordsRequest.getErrorResponse."""
    return DeleteRecordsResponse(topics=mirror_partitions(
        req.topics, lambda t, parts: DeleteRecordsTopicResult(name=t.name, partitions=parts),
        lambda p: DeleteRecordsPartitionResult(partition_index=p.partition_index, low_watermark=-1, error_code=code)))
