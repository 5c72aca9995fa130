"""OffsetFetch (key 9) v1-10: committed offsets of one group, or of several groups (v8+).

v10 (KIP-848) names topics by id, as Kafka 4.3's KafkaApis: an id the metadata does not know (or
the zero id) answers UNKNOWN_TOPIC_ID per partition, listed after the coordinator's topics; "all
offsets" answers each topic with its current id and leaves out topics no longer there.

Offsets carry the id of the topic they were committed for. One committed for a topic deleted since
(the name is gone, or belongs to a re-created topic) reads as none at every version: Kafka deletes
such offsets with the topic (OffsetMetadataManager.onTopicsDeleted); odradek keeps the records and
hides them here.

An empty group id is a group like any other (Kafka 4.3 answers INVALID_GROUP_ID only for null,
which the protocol cannot carry here).
"""

from __future__ import annotations

from odradek.api_handlers.authorization import allowed, allowed_names
from odradek.api_handlers.context import STEP_ENTRIES, StepCount, in_steps
from odradek.api_handlers.group_common import coordinator_error, metadata_topics
from odradek.controller.acls import DESCRIBE, GROUP, TOPIC
from odradek.coordinator.group_records import is_stale, lookup_offset
from odradek.wire.errors import ErrorCode
from odradek.wire.messages.offset_fetch_response import (
    OffsetFetchResponse,
    OffsetFetchResponseGroup,
    OffsetFetchResponsePartition,
    OffsetFetchResponsePartitions,
    OffsetFetchResponseTopic,
    OffsetFetchResponseTopics,
)
from odradek.wire.primitives import ZERO_UUID

API_KEY = 9
MIN_VERSION = 1
MAX_VERSION = 10


def _fetch(ctx, group_id: str, topics, count: StepCount, stable: bool):
    """topics: [(name, topic_id, [partition])] or None for all -> (error, [(name, topic_id, [(p,
    OffsetAndMetadata|None)])]): one entry per request topic, as Kafka's coordinator answers.
    Offsets of a topic deleted since (stored with an id its name no longer has) are not seen:
    Kafka deletes them with the topic. A generator (in_steps): the coordinator's offsets are read
    in one piece (one moment's offsets) and matched to the partitions asked in steps; a request of
    more than STEP_ENTRIES partitions reads a copy of the group's offsets (a piece as long as the
    group has offsets, not as the request has partitions). Only committed offsets are read (the
    coordinator's ``committed``; ``stable``: require_stable, the newest held until committed)."""
    by_name, _ = metadata_topics(ctx)

    def current_id(name):
        ti = by_name.get(name)
        return ti.topic_id if ti is not None else ZERO_UUID

    coord = ctx.services.groups
    if topics is None:
        err, got = coord.fetch_offsets(group_id, None, stable=stable)
        by_topic: dict = {}
        for (name, p), om in got.items():
            if count.due():
                yield
            if not is_stale(om, current_id(name)):
                by_topic.setdefault(name, []).append((p, om))
        return err, [(name, ZERO_UUID, parts) for name, parts in by_topic.items()]
    ids = {name: current_id(name) for name, _, _ in topics}
    if sum(len(parts) for _, _, parts in topics) <= STEP_ENTRIES:
        err, got = coord.fetch_offsets(group_id, [(name, p) for name, _, parts in topics for p in parts], ids,
                                       stable=stable)
        return err, [(name, tid, [(p, got[name, p]) for p in parts]) for name, tid, parts in topics]
    err, stored = ErrorCode.NONE, coord.committed(group_id, stable)
    res = []
    for name, tid, parts in topics:
        found = []
        for p in parts:
            if count.due():
                yield
            found.append((p, lookup_offset(stored, (name, p), ids)))
        res.append((name, tid, found))
    return err, res


def _stable(ctx, request) -> bool:
    """require_stable (v7+)."""
    return ctx.api_version >= 7 and bool(request.require_stable)


def _unstable(ctx, request, group_id: str, res) -> list:
    """require_stable (v7+): partitions with a pending transactional commit answer UNSTABLE_OFFSET_COMMIT."""
    store = ctx.services.txn_offsets
    if store is None or ctx.api_version < 7 or not request.require_stable:
        return res
    pending = store.pending_partitions(group_id)
    if not pending:
        return res
    return [(name, tid, [(p, _UNSTABLE if (name, p) in pending else om) for p, om in parts])
            for name, tid, parts in res]


_UNSTABLE = object()
_UNKNOWN_TOPIC_ID = object()
_DENIED = object()  # a topic the principal may not DESCRIBE


def _split_denied(ctx, topics):
    """With an authorizer: (the request topics the principal may DESCRIBE, the others answered
    TOPIC_AUTHORIZATION_FAILED), as Kafka's fetchOffsetsForGroup; None (all topics) stays None."""
    if ctx.services.authorizer is None or topics is None:
        return topics, []
    ok = allowed_names(ctx, DESCRIBE, TOPIC, {name for name, _, _ in topics})
    return ([t for t in topics if t[0] in ok],
            [(name, tid, [(p, _DENIED) for p in parts]) for name, tid, parts in topics if name not in ok])


def _hide_denied(ctx, res) -> list:
    """All offsets of a group: the topics the principal may not DESCRIBE are left out (fetchAllOffsetsForGroup)."""
    if ctx.services.authorizer is None:
        return res
    ok = allowed_names(ctx, DESCRIBE, TOPIC, {name for name, _, _ in res})
    return [r for r in res if r[0] in ok]


def _group_denied(ctx, group_id: str) -> bool:
    return ctx.services.authorizer is not None and not allowed(ctx, DESCRIBE, GROUP, group_id)


def _partition(cls, p, om):
    if om is _UNKNOWN_TOPIC_ID:
        return cls(partition_index=p, committed_offset=-1, committed_leader_epoch=-1, metadata="",
                   error_code=ErrorCode.UNKNOWN_TOPIC_ID)
    if om is _DENIED:
        return cls(partition_index=p, committed_offset=-1, committed_leader_epoch=-1, metadata="",
                   error_code=ErrorCode.TOPIC_AUTHORIZATION_FAILED)
    if om is _UNSTABLE:
        return cls(partition_index=p, committed_offset=-1, committed_leader_epoch=-1, metadata="",
                   error_code=ErrorCode.UNSTABLE_OFFSET_COMMIT)
    if om is None:
        return cls(partition_index=p, committed_offset=-1, committed_leader_epoch=-1, metadata="", error_code=0)
    return cls(partition_index=p, committed_offset=om.offset, committed_leader_epoch=om.leader_epoch,
               metadata=om.metadata, error_code=0)


def _group_topics(ctx, rg):
    """v8+: the group's request topics -> ([(name, topic_id, [partition])] for the coordinator or None
    for all, [(name, topic_id, [(p, _UNKNOWN_TOPIC_ID)])] answered without it). From v10 topics come
    by id: an id the metadata does not know (or the zero id) is UNKNOWN_TOPIC_ID, as Kafka's
    KafkaApis.fetchOffsetsForGroup."""
    if rg.topics is None:
        return None, []
    if ctx.api_version < 10:
        return [(t.name, ZERO_UUID, t.partition_indexes) for t in rg.topics], []
    _, by_id = metadata_topics(ctx)
    known, unknown = [], []
    for t in rg.topics:
        ti = by_id.get(t.topic_id) if t.topic_id != ZERO_UUID else None
        if ti is None:
            unknown.append(("", t.topic_id, [(p, _UNKNOWN_TOPIC_ID) for p in t.partition_indexes]))
        else:
            known.append((ti.name, t.topic_id, t.partition_indexes))
    return known, unknown


def _with_current_ids(ctx, res) -> list:
    """v10, all offsets: each topic gets its id now; a topic the metadata no longer has is left out
    (Kafka's KafkaApis.fetchAllOffsetsForGroup)."""
    by_name, _ = metadata_topics(ctx)
    out = []
    for name, _, parts in res:
        ti = by_name.get(name)
        if ti is not None:
            out.append((name, ti.topic_id, parts))
    return out


def handle(ctx, request):
    """The response, made STEP_ENTRIES partitions a step for a large request (context.in_steps)."""
    return in_steps(_answer(ctx, request))


def _topics(topic, partition_cls, res, count: StepCount):
    """The answer's topics (``topic(name, topic_id, partitions)``) of ``res`` [(name, topic_id, [(p,
    offset or marker)])], in steps."""
    out = []
    for name, tid, parts in res:
        made = []
        for p, om in parts:
            if count.due():
                yield
            made.append(_partition(partition_cls, p, om))
        out.append(topic(name, tid, made))
    return out


def _group_topic(name: str, tid: bytes, partitions: list) -> OffsetFetchResponseTopics:
    return OffsetFetchResponseTopics(name=name, topic_id=tid, partitions=partitions)


def _topic(name: str, tid: bytes, partitions: list) -> OffsetFetchResponseTopic:
    return OffsetFetchResponseTopic(name=name, partitions=partitions)


def _answer(ctx, request):
    v = ctx.api_version
    coord = ctx.services.groups
    count = StepCount()
    if v >= 8:
        groups = []
        for rg in request.groups:
            if _group_denied(ctx, rg.group_id):
                groups.append(OffsetFetchResponseGroup(group_id=rg.group_id, topics=[],
                                                       error_code=ErrorCode.GROUP_AUTHORIZATION_FAILED))
                continue
            if coord_err := coordinator_error(ctx, rg.group_id):
                groups.append(OffsetFetchResponseGroup(group_id=rg.group_id, topics=[],
                                                       error_code=coord_err))
                continue
            if v >= 9:  # KIP-848 members send id + epoch
                check = coord.validate_offset_fetch(rg.group_id, rg.member_id, rg.member_epoch)
                if check != ErrorCode.NONE:
                    groups.append(OffsetFetchResponseGroup(group_id=rg.group_id, topics=[], error_code=check))
                    continue
            topics, unknown = _group_topics(ctx, rg)
            topics, denied = _split_denied(ctx, topics)
            err, res = yield from _fetch(ctx, rg.group_id, topics, count, _stable(ctx, request))
            res = _unstable(ctx, request, rg.group_id, res)
            if topics is None and v >= 10:
                res = _with_current_ids(ctx, res)
            if topics is None:
                res = _hide_denied(ctx, res)
            if err == ErrorCode.NONE:
                res += unknown + denied  # Kafka adds them after the coordinator's answer, unless the group failed
            groups.append(OffsetFetchResponseGroup(
                group_id=rg.group_id, error_code=err,
                topics=(yield from _topics(_group_topic, OffsetFetchResponsePartitions, res, count)),
            ))
        return OffsetFetchResponse(throttle_time_ms=0, groups=groups)
    topics = None if request.topics is None else [(t.name, ZERO_UUID, t.partition_indexes) for t in request.topics]
    if _group_denied(ctx, request.group_id):
        return error_response(v, request, ErrorCode.GROUP_AUTHORIZATION_FAILED, None)
    if coord_err := coordinator_error(ctx, request.group_id):
        return OffsetFetchResponse(throttle_time_ms=0, topics=[], error_code=coord_err)
    topics, denied = _split_denied(ctx, topics)
    err, res = yield from _fetch(ctx, request.group_id, topics, count, _stable(ctx, request))
    res = _unstable(ctx, request, request.group_id, res)
    res = _hide_denied(ctx, res) if topics is None else res + (denied if err == ErrorCode.NONE else [])
    return OffsetFetchResponse(
        throttle_time_ms=0,
        error_code=err,
        topics=(yield from _topics(_topic, OffsetFetchResponsePartition, res, count)),
    )


def error_response(v: int, req, code: int, msg: str | None):
    """Kafka's OffsetFetchRequest.getErrorResponse."""
    if v < 2:  # no top-level error code yet: every requested partition carries it
        return OffsetFetchResponse(topics=[
            OffsetFetchResponseTopic(name=t.name, partitions=[
                OffsetFetchResponsePartition(partition_index=i, committed_offset=-1,
                                             committed_leader_epoch=-1, metadata="", error_code=code)
                for i in t.partition_indexes or ()])
            for t in req.topics or ()])
    if v < 8:
        return OffsetFetchResponse(error_code=code, topics=[])
    return OffsetFetchResponse(groups=[
        OffsetFetchResponseGroup(group_id=g.group_id, topics=[], error_code=code)
        for g in req.groups or ()])
