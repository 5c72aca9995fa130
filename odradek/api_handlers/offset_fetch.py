"""OffsetFetch (key 9) v1-9: committed offsets of one group, or of several groups (v8+)."""

from __future__ import annotations

from odradek.coordinator.group_api import coordinates
from odradek.wire.errors import ErrorCode
from odradek.wire.messages.offset_fetch_response import (
    OffsetFetchResponse,
    OffsetFetchResponseGroup,
    OffsetFetchResponsePartition,
    OffsetFetchResponsePartitions,
    OffsetFetchResponseTopic,
    OffsetFetchResponseTopics,
)

API_KEY = 9
MIN_VERSION = 1
MAX_VERSION = 9  # v10 addresses topics by id


def _fetch(coord, group_id: str, topics):
    """topics: [(name, [partition])] or None for all -> (error, [(name, [(p, OffsetAndMetadata|None)])])."""
    wanted = None if topics is None else [(name, p) for name, parts in topics for p in parts]
    err, got = coord.fetch_offsets(group_id, wanted)
    by_topic: dict = {}
    if topics is not None:
        for name, _ in topics:
            by_topic.setdefault(name, [])
    for (name, p), om in got.items():
        by_topic.setdefault(name, []).append((p, om))
    return err, list(by_topic.items())


def _unstable(ctx, request, group_id: str, res) -> list:
    """require_stable (v7+): partitions with a pending transactional commit answer UNSTABLE_OFFSET_COMMIT."""
    store = getattr(ctx.broker, "txn_offsets", None)
    if store is None or ctx.api_version < 7 or not request.require_stable:
        return res
    pending = store.pending_partitions(group_id)
    if not pending:
        return res
    return [(name, [(p, _UNSTABLE if (name, p) in pending else om) for p, om in parts]) for name, parts in res]


_UNSTABLE = object()


def _partition(cls, p, om):
    if om is _UNSTABLE:
        return cls(partition_index=p, committed_offset=-1, committed_leader_epoch=-1, metadata="",
                   error_code=ErrorCode.UNSTABLE_OFFSET_COMMIT)
    if om is None:
        return cls(partition_index=p, committed_offset=-1, committed_leader_epoch=-1, metadata="", error_code=0)
    return cls(partition_index=p, committed_offset=om.offset, committed_leader_epoch=om.leader_epoch,
               metadata=om.metadata, error_code=0)


def handle(ctx, request) -> OffsetFetchResponse:
    v = ctx.api_version
    coord = ctx.broker.groups
    if v >= 8:
        groups = []
        for rg in request.groups:
            topics = None if rg.topics is None else [(t.name, t.partition_indexes) for t in rg.topics]
            if not rg.group_id:
                groups.append(OffsetFetchResponseGroup(group_id=rg.group_id, topics=[],
                                                       error_code=ErrorCode.INVALID_GROUP_ID))
                continue
            if not coordinates(ctx, rg.group_id):
                groups.append(OffsetFetchResponseGroup(group_id=rg.group_id, topics=[],
                                                       error_code=ErrorCode.NOT_COORDINATOR))
                continue
            if v >= 9 and hasattr(coord, "validate_offset_fetch"):  # KIP-848 members send id + epoch
                check = coord.validate_offset_fetch(rg.group_id, rg.member_id, rg.member_epoch)
                if check != ErrorCode.NONE:
                    groups.append(OffsetFetchResponseGroup(group_id=rg.group_id, topics=[], error_code=check))
                    continue
            err, res = _fetch(coord, rg.group_id, topics)
            res = _unstable(ctx, request, rg.group_id, res)
            groups.append(OffsetFetchResponseGroup(
                group_id=rg.group_id, error_code=err,
                topics=[OffsetFetchResponseTopics(name=name, partitions=[
                    _partition(OffsetFetchResponsePartitions, p, om) for p, om in parts]) for name, parts in res],
            ))
        return OffsetFetchResponse(throttle_time_ms=0, groups=groups)
    topics = None if request.topics is None else [(t.name, t.partition_indexes) for t in request.topics]
    if not request.group_id:
        return OffsetFetchResponse(throttle_time_ms=0, topics=[], error_code=ErrorCode.INVALID_GROUP_ID)
    if not coordinates(ctx, request.group_id):
        return OffsetFetchResponse(throttle_time_ms=0, topics=[], error_code=ErrorCode.NOT_COORDINATOR)
    err, res = _fetch(coord, request.group_id, topics)
    res = _unstable(ctx, request, request.group_id, res)
    return OffsetFetchResponse(
        throttle_time_ms=0,
        error_code=err,
        topics=[OffsetFetchResponseTopic(name=name, partitions=[
            _partition(OffsetFetchResponsePartition, p, om) for p, om in parts]) for name, parts in res],
    )
