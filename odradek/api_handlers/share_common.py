"""What the share-group handlers (KIP-932) have in common: the share.version gate, the request checks
of ShareFetch and ShareAcknowledge, acknowledgements, and reading acquirable batches from the log for
ShareFetch."""

from __future__ import annotations

from typing import Callable

from odradek.api_handlers.context import Delayed
from odradek.controller.acls import READ, TOPIC
from odradek.coordinator.share_group_coordinator import OffsetNotAvailable
from odradek.log import errors as log_errors
from odradek.wire import records as wire_records
from odradek.wire.errors import ErrorCode

from .authorization import allowed, unreadable
from .common import log_error_code
from .ports import NotLed, Services

# ShareGroupHeartbeat, ShareGroupDescribe, ShareFetch, ShareAcknowledge, DescribeShareGroupOffsets,
# AlterShareGroupOffsets, DeleteShareGroupOffsets: advertised only while share.version >= 1
SHARE_API_KEYS = frozenset({76, 77, 78, 79, 90, 91, 92})

ZERO_UUID = b"\0" * 16
FINAL_EPOCH = -1  # a share session's last request: it acknowledges, then the session closes


def share_enabled(services: Services) -> bool:
    return services.metadata.finalized_features().get("share.version", 0) >= 1 and services.shares is not None


def open_share_session(services: Services, req, response_cls, opens: bool, connection_id: str = ""):
    """What ShareFetch and ShareAcknowledge do before anything else: check the request (share groups
    enabled, a group id, a member id; where the request cannot open a session, ShareAcknowledge's,
    an epoch of 0 is INVALID_SHARE_SESSION_EPOCH), then open or continue the member's share session
    at the request's epoch -> (session, None), or (None, a response_cls carrying the top-level error
    of the first that fails)."""
    failed = _session_error(services, req, opens)
    if failed is None:
        session, err = services.shares.open_session(req.group_id, req.member_id, req.share_session_epoch,
                                                    connection_id)
        if not err:
            return session, None
        failed = err, None
    code, message = failed
    return None, response_cls(throttle_time_ms=0, error_code=code, error_message=message,
                              acquisition_lock_timeout_ms=0, responses=[], node_endpoints=[])


def by_topic(rows, topic_response) -> list:
    """[(topic id, partition row)] as a response's topics, in the order they first appear, each
    made by ``topic_response(topic_id)`` (empty ``partitions``) with its rows in order."""
    topics: dict = {}
    for tid, row in rows:
        t = topics.get(tid)
        if t is None:
            t = topics[tid] = topic_response(tid)
        t.partitions.append(row)
    return list(topics.values())


def _session_error(services: Services, req, opens: bool) -> tuple[ErrorCode, str | None] | None:
    if not share_enabled(services):
        return ErrorCode.UNSUPPORTED_VERSION, None
    if not req.group_id:
        return ErrorCode.INVALID_REQUEST, "Group id is not provided."
    if not req.member_id:
        return ErrorCode.INVALID_REQUEST, "Member id is not provided."
    if not opens and req.share_session_epoch == 0:
        return ErrorCode.INVALID_SHARE_SESSION_EPOCH, None
    return None


def is_other_group(ctx, group_id: str) -> bool:
    """A classic, consumer or streams group has this id (a share group may not take it)."""
    return ctx.services.groups.is_group(group_id)


def offsets_admin(ctx, group_id: str, call):
    """Alter/DeleteShareGroupOffsets: the checks Kafka's KafkaApis and GroupCoordinatorService
    make first, in their order (share groups enabled, a group id, the coordinator), then
    call(share coordinator, group_id, topics_snapshot, is_other_group); its result, persisted by the
    port before the response (as Kafka's share coordinator). A failed check raises CoordinatorError."""
    from odradek.api_handlers.group_common import coordinator_error
    from odradek.coordinator.errors import CoordinatorError

    services = ctx.services
    if not share_enabled(services):
        raise CoordinatorError(ErrorCode.UNSUPPORTED_VERSION)
    if not group_id:
        raise CoordinatorError(ErrorCode.INVALID_GROUP_ID)
    if coord_err := coordinator_error(ctx, group_id):
        raise CoordinatorError(coord_err)
    return call(services.shares, group_id, topics_snapshot(ctx), is_other_group(ctx, group_id))


def offsets_admin_response(ctx, group_id: str, call, response_cls, responses):
    """Alter/DeleteShareGroupOffsets' answer: offsets_admin(ctx, group_id, call), its result made
    the response's topics by responses(result); a failed check, the top-level error alone."""
    from odradek.coordinator.errors import CoordinatorError

    try:
        result = offsets_admin(ctx, group_id, call)
    except CoordinatorError as f:
        return response_cls(throttle_time_ms=0, error_code=f.code, error_message=f.message or f.code.message,
                            responses=[])
    return response_cls(throttle_time_ms=0, error_code=0, error_message=None, responses=responses(result))


def offsets_admin_error_response(response_cls, code: int):
    """Kafka's Alter/DeleteShareGroupOffsetsRequest.getErrorResponse(throttle, Errors.forException(e)):
    the code and its default message."""
    return response_cls(error_code=code, error_message=ErrorCode(code).message)


def topic_id(ctx, name: str) -> bytes | None:
    t = ctx.services.metadata.image.topics.get(name)
    return None if t is None else bytes(t.topic_id)


def topics_snapshot(ctx) -> dict:
    """{name: (topic_id, partition count)} of the current metadata image."""
    topics = ctx.services.metadata.image.topics
    return {name: (bytes(t.topic_id), len(t.partitions)) for name, t in topics.items()}


def apply_acknowledgements(ctx, group_id: str, member_id: str, batches_by_partition) -> tuple[dict, list]:
    """batches_by_partition: {(topic_id, partition): [AcknowledgementBatch]} -> ({(topic_id, partition):
    error}, the writes to share coordinators elsewhere) (ShareGroupCoordinator.acknowledge; the
    answer waits for the writes: ``after_writes``)."""
    services = ctx.services
    refused = unreadable(ctx, batches_by_partition)
    results, writes = services.shares.acknowledge(
        group_id, member_id, {k: v for k, v in batches_by_partition.items() if k not in refused},
        services.metadata.image.topics_by_id.__contains__, ctx.now_ms)
    return {**results, **refused}, writes


# how long an acknowledging answer waits for its share state writes at most (the persister's retries
# end before: 1 + 2 + 4 + 8 s of backoff and the requests)
STATE_WRITE_WAIT_MS = 30_000


# a failed persister write's error as the acknowledgement's, as Kafka's SharePartition maps it
# (fetchPersisterError); others are UNKNOWN_SERVER_ERROR, but for the broker's own answers (the data
# partition's leadership moved, the wait ran out)
_WRITE_ERRORS = {
    ErrorCode.NOT_COORDINATOR: ErrorCode.COORDINATOR_NOT_AVAILABLE,
    ErrorCode.COORDINATOR_NOT_AVAILABLE: ErrorCode.COORDINATOR_NOT_AVAILABLE,
    ErrorCode.COORDINATOR_LOAD_IN_PROGRESS: ErrorCode.COORDINATOR_NOT_AVAILABLE,
    ErrorCode.GROUP_ID_NOT_FOUND: ErrorCode.INVALID_REQUEST,
    ErrorCode.UNKNOWN_TOPIC_OR_PARTITION: ErrorCode.INVALID_REQUEST,
    ErrorCode.FENCED_STATE_EPOCH: ErrorCode.FENCED_STATE_EPOCH,
    ErrorCode.FENCED_LEADER_EPOCH: ErrorCode.NOT_LEADER_OR_FOLLOWER,
    ErrorCode.NOT_LEADER_OR_FOLLOWER: ErrorCode.NOT_LEADER_OR_FOLLOWER,
    ErrorCode.REQUEST_TIMED_OUT: ErrorCode.REQUEST_TIMED_OUT,
}


def write_error(err: ErrorCode) -> ErrorCode:
    """The acknowledgement error of a share state write that failed with ``err``."""
    return _WRITE_ERRORS.get(err, ErrorCode.UNKNOWN_SERVER_ERROR) if err else ErrorCode.NONE


def after_writes(ctx, results: dict, writes: list, then: Callable[[], object]):
    """``then()`` once the acknowledgements' share state writes are answered; a write that failed is
    its partition's acknowledgement error in ``results`` (as Kafka's share partition answers a failed
    persister write: the acknowledgement was rolled back)."""
    def finish(timed_out: bool):
        for w in writes:
            err = write_error(w.error) if w.error is not None else (
                ErrorCode.REQUEST_TIMED_OUT if timed_out else None)
            if err:
                key = (w.share_key[1], w.share_key[2])
                if key in results and not results[key]:
                    results[key] = err
        return then()

    if all(w.error is not None for w in writes):
        return finish(False)
    return Delayed(try_complete=lambda now: finish(False) if all(w.error is not None for w in writes) else None,
                   on_expire=lambda now: finish(True), deadline_ms=ctx.now_ms + STATE_WRITE_WAIT_MS,
                   watch=[w.key for w in writes if w.error is None])


def acquire_partition(ctx, group_id: str, member_id: str, topic_id: bytes, partition: int, max_bytes: int,
                      max_records: int, first: bool, record_limit: bool):
    """Acquire records of one share-partition for member_id -> (error, records bytes, acquired ranges)."""
    services = ctx.services
    sg = services.shares
    t = services.metadata.image.topics_by_id.get(topic_id)
    if t is None:
        return ErrorCode.UNKNOWN_TOPIC_ID, b"", []
    if not allowed(ctx, READ, TOPIC, t.name):
        return ErrorCode.TOPIC_AUTHORIZATION_FAILED, b"", []
    plog = services.partitions.leader_log(t.name, partition)
    if isinstance(plog, NotLed):
        return plog.error, b"", []  # NOT_LEADER_OR_FOLLOWER / KAFKA_STORAGE_ERROR as Fetch
    try:
        sp = sg.share_partition(group_id, topic_id, t.name, partition)
    except OffsetNotAvailable:  # by_duration with no record that recent yet: Kafka's error, retried
        return ErrorCode.OFFSET_NOT_AVAILABLE, b"", []
    if sp is None:
        if sg.state_pending(group_id, topic_id, partition):
            return ErrorCode.NONE, b"", []  # its state is on its way from the share coordinator
        return ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, b"", []
    sp.move_start(plog.log_start_offset)
    settings = sg.share_settings(group_id)
    committed = str(sg.settings(group_id).get("share.isolation.level", "")).lower() == "read_committed"
    upper = plog.last_stable_offset if committed else plog.high_watermark
    if max_records <= 0 or (max_bytes <= 0 and not first) or not sp.has_available(upper):
        return ErrorCode.NONE, b"", []
    offset = sp.fetch_offset()
    if offset >= upper:
        return ErrorCode.NONE, b"", []
    try:
        sl = plog.read(offset, max(max_bytes, 0), upper_bound_offset=upper, min_one_batch=first)
    except log_errors.OffsetOutOfRangeError:
        return ErrorCode.NONE, b"", []
    except log_errors.LogError as e:
        return log_error_code(e), b"", []
    if not sl.total_bytes:
        return ErrorCode.NONE, b"", []
    data = sl.read_bytes()
    spans = []  # (base, last, pos, size)
    for pos, h in wire_records.iter_batch_headers(data):
        spans.append((h.base_offset, h.last_offset, pos, h.size_in_bytes, h))
    skip = _aborted(plog, spans, upper) if committed else ()
    acquired = sp.acquire(member_id, [(s[0], s[1]) for s in spans], max_records, ctx.now_ms, settings,
                          record_limit=record_limit, skip=skip)
    if not acquired:
        return ErrorCode.NONE, b"", []
    out = bytearray()
    for base, last, pos, size, _ in spans:
        if any(a[0] <= last and a[1] >= base for a in acquired):
            out += data[pos:pos + size]
    return ErrorCode.NONE, bytes(out), acquired


def _aborted(plog, spans, upper: int) -> set:
    """read_committed: the (base, last) of batches of aborted transactions (never delivered)."""
    if not spans:
        return set()
    aborted = plog.aborted_transactions(spans[0][0], upper)
    out = set()
    for base, last, _, _, h in spans:
        if h.is_transactional and not h.is_control and any(
                a.producer_id == h.producer_id and a.first_offset <= base <= a.last_offset for a in aborted):
            out.add((base, last))
    return out
