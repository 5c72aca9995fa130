"""AlterReplicaLogDirs (key 34) v1-2: move partition logs between this broker's log dirs.

A destination that is not one of the log dirs (absolute path, as Kafka compares it) is
LOG_DIR_NOT_FOUND; a partition already in the destination succeeds at once; an unknown
partition is UNKNOWN_TOPIC_OR_PARTITION. Moving a log to another of several log.dirs is
not implemented (KAFKA_STORAGE_ERROR). Results are grouped by topic, as Kafka's.
"""

from __future__ import annotations

import os
import posixpath

from odradek.wire.errors import ErrorCode
from odradek.wire.messages.alter_replica_log_dirs_response import (AlterReplicaLogDirPartitionResult,
                                                                   AlterReplicaLogDirsResponse,
                                                                   AlterReplicaLogDirTopicResult)

from .ports import LogDirs

API_KEY = 34
MIN_VERSION = 1
MAX_VERSION = 2


def handle(ctx, request) -> AlterReplicaLogDirsResponse:
    log_dirs = ctx.services.log_dirs
    dirs = {os.path.abspath(d) for d in log_dirs.log_dirs}
    image = ctx.services.metadata.image
    by_topic: dict[str, dict[int, int]] = {}
    for d in request.dirs:
        for t in d.topics:
            for p in t.partitions:
                by_topic.setdefault(t.name, {})[p] = _one(log_dirs, image, dirs, d.path, t.name, p)
    return AlterReplicaLogDirsResponse(throttle_time_ms=0, results=[
        AlterReplicaLogDirTopicResult(topic_name=name, partitions=[
            AlterReplicaLogDirPartitionResult(partition_index=p, error_code=code) for p, code in parts.items()])
        for name, parts in by_topic.items()])


def _one(log_dirs: LogDirs, image, dirs: set, path: str, topic: str, partition: int) -> int:
    if path not in dirs:
        return ErrorCode.LOG_DIR_NOT_FOUND
    t = image.topics.get(topic)
    if t is None or partition not in t.partitions:
        return ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
    plog = log_dirs.get(topic, partition)
    if plog is None:
        return ErrorCode.NOT_LEADER_OR_FOLLOWER
    if os.path.abspath(posixpath.dirname(plog.dir)) == path:
        return 0
    return ErrorCode.KAFKA_STORAGE_ERROR


def error_response(v: int, req, code: int, msg: str | None):
    """Kafka's AlterReplicaLogDirsRequest.getErrorResponse."""
    return AlterReplicaLogDirsResponse(results=[
        AlterReplicaLogDirTopicResult(topic_name=t.name, partitions=[
            AlterReplicaLogDirPartitionResult(partition_index=p, error_code=code)
            for p in t.partitions or ()])
        for d in req.dirs or () for t in d.topics or ()])
