"""DeleteRecords (key 21): move a partition's log start offset (-1 = high watermark)."""

from __future__ import annotations

from odradek.log import errors as log_errors
from odradek.wire.errors import ErrorCode
from odradek.wire.messages.delete_records_response import (
    DeleteRecordsPartitionResult,
    DeleteRecordsResponse,
    DeleteRecordsTopicResult,
)

from .common import log_error_code, mirror_partitions
from .ports import NotLed

API_KEY = 21
MIN_VERSION = 0
MAX_VERSION = 2


def handle(ctx, req) -> DeleteRecordsResponse:
    services = ctx.services
    topics = []
    for t in req.topics:
        parts = []
        for p in t.partitions:
            r = DeleteRecordsPartitionResult(partition_index=p.partition_index, low_watermark=-1, error_code=0)
            plog = services.partitions.leader_log(t.name, p.partition_index)
            if isinstance(plog, NotLed):
                r.error_code = plog.error
            elif services.metadata.is_internal(t.name):
                r.error_code = ErrorCode.INVALID_TOPIC_EXCEPTION  # Kafka: internal topics refuse
            else:
                try:
                    r.low_watermark = services.partitions.delete_records(t.name, p.partition_index, p.offset)
                except log_errors.LogError as e:
                    r.error_code = log_error_code(e)
            parts.append(r)
        topics.append(DeleteRecordsTopicResult(name=t.name, partitions=parts))
    return DeleteRecordsResponse(throttle_time_ms=0, topics=topics)


def error_response(v: int, req, code: int, msg: str | None):
    """Kafka's DeleteRecordsRequest.getErrorResponse."""
    return DeleteRecordsResponse(topics=mirror_partitions(
        req.topics, lambda t, parts: DeleteRecordsTopicResult(name=t.name, partitions=parts),
        lambda p: DeleteRecordsPartitionResult(partition_index=p.partition_index, low_watermark=-1, error_code=code)))
