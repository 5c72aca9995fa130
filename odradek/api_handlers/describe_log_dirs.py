"""DescribeLogDirs (key 35) v1-5: each log directory with the size and offset lag of every
partition log in it (`kafka-log-dirs.sh`), and (v4+) the file system's total/usable bytes."""

from __future__ import annotations

import os
import posixpath

from odradek.wire.messages.describe_log_dirs_response import (DescribeLogDirsPartition, DescribeLogDirsResponse,
                                                              DescribeLogDirsResult, DescribeLogDirsTopic)

from .context import STEP_ENTRIES, in_steps

API_KEY = 35
MIN_VERSION = 1
MAX_VERSION = 5


def handle(ctx, request):
    """The response, STEP_ENTRIES partitions (asked, or described) a step for a large request or
    broker (context.in_steps)."""
    return in_steps(_answer(ctx, request))


def _answer(ctx, request):
    log_dirs = ctx.services.log_dirs
    wanted = None  # None = every partition (topics: null)
    n = 0
    if request.topics is not None:
        wanted = set()
        for t in request.topics:
            for p in t.partitions:
                n += 1
                if n % STEP_ENTRIES == 0:
                    yield
                wanted.add((t.topic, p))
    by_dir: dict[str, dict[str, list]] = {os.path.abspath(d): {} for d in log_dirs.log_dirs}
    for (topic, partition) in log_dirs.list():
        if wanted is not None and (topic, partition) not in wanted:
            continue
        n += 1
        if n % STEP_ENTRIES == 0:
            yield
        plog = log_dirs.get(topic, partition)  # (None: deleted since the list was made)
        if plog is None:
            continue
        parent = os.path.abspath(posixpath.dirname(plog.dir))
        # offset lag of a current (not future) replica: how far the HW is behind the log end
        lag = max(plog.high_watermark - plog.log_end_offset, 0)
        by_dir.setdefault(parent, {}).setdefault(topic, []).append(
            DescribeLogDirsPartition(partition_index=partition, partition_size=plog.size_in_bytes,
                                     offset_lag=lag, is_future_key=False))
    results = []
    for d, topics in by_dir.items():
        total = usable = -1
        if ctx.api_version >= 4:
            total, usable = log_dirs.disk_space(d)
        results.append(DescribeLogDirsResult(
            error_code=0, log_dir=d, total_bytes=total, usable_bytes=usable, is_cordoned=False,
            topics=[DescribeLogDirsTopic(name=t, partitions=parts) for t, parts in sorted(topics.items())]))
    return DescribeLogDirsResponse(throttle_time_ms=0, error_code=0, results=results)


def error_response(v: int, req, code: int, msg: str | None):
    """Kafka's DescribeLogDirsRequest.getErrorResponse."""
    return DescribeLogDirsResponse(error_code=code, results=[])
