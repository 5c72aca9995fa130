"""Fetch (key 1): record data as log file slices, long polling through the purgatory.

Rules as Kafka's: whole batches from the one holding fetch_offset; the first
partition with data may return one batch larger than the limits (so a consumer can
always progress); later partitions only what fits in max_bytes/partition_max_bytes;
read_uncommitted reads up to the high watermark, read_committed up to the last
stable offset with the aborted transactions of the range read; an empty record set
is empty bytes, not null.

Sessions (KIP-227) as Kafka's: the broker's FetchSessionCache turns each request into
a context (full / incremental / sessionless / session error, see fetch_session.py)
that names the partitions to read and shapes the response.
"""

from __future__ import annotations

from odradek.api_handlers.context import STEP_ENTRIES, STEP_PARTITIONS, Delayed, in_steps, topic_chunks
from odradek.log import errors as log_errors
from odradek.replication.messages import NO_EPOCH, ReplicaFetch
from odradek.wire.errors import ErrorCode
from odradek.wire.messages.fetch_response import (
    AbortedTransaction,
    EpochEndOffset as DivergingEpoch,
    FetchableTopicResponse,
    FetchResponse,
    LeaderIdAndEpoch,
    NodeEndpoint,
    PartitionData,
)

from odradek.controller.acls import CLUSTER, CLUSTER_ACTION, CLUSTER_NAME, READ, TOPIC

from .authorization import allowed, allowed_names
from .common import SliceRecords, leader_endpoints, log_error_code
from .fetch_session import PartitionRequest
from .ports import NotLed

API_KEY = 1
MIN_VERSION = 4
MAX_VERSION = 18
FIRST_CLIENT_RACK_VERSION = 11  # KIP-392: rack_id sent, consumers may read from followers
FIRST_CURRENT_LEADER_VERSION = 16  # KafkaApis fills KIP-951's CurrentLeader and NodeEndpoints from v16
LAST_STORAGE_ERROR_DOWNCONVERT_VERSION = 5  # v5 and older get KAFKA_STORAGE_ERROR as NOT_LEADER_OR_FOLLOWER

ZERO_UUID = b"\0" * 16
# KafkaApis names the current leader (KIP-951) for these partition errors
_NAMES_LEADER = (ErrorCode.NOT_LEADER_OR_FOLLOWER, ErrorCode.FENCED_LEADER_EPOCH)


def _forgotten(req, uses_topic_ids: bool) -> list:
    return [((t.topic_id if uses_topic_ids else t.topic), p) for t in req.forgotten_topics_data
            for p in t.partitions]


class _Everything:
    """Every topic (a follower's fetch without CLUSTER_ACTION)."""

    def __contains__(self, name) -> bool:
        return True

    def __bool__(self) -> bool:
        return True


NOTHING_DENIED: frozenset = frozenset()


def _denied_topics(ctx, parts, follower: bool):
    """The topics of this fetch answered TOPIC_AUTHORIZATION_FAILED (Kafka's handleFetchRequest: a
    follower needs CLUSTER_ACTION on the cluster, a consumer READ on each topic)."""
    if follower:
        return NOTHING_DENIED if allowed(ctx, CLUSTER_ACTION, CLUSTER, CLUSTER_NAME) else _Everything()
    names = {p.topic for p in parts if p.topic is not None}
    return frozenset(names - allowed_names(ctx, READ, TOPIC, names))


def _read_steps(ctx, req, parts, replica: tuple[int, int] | None, denied):
    """_read of a large fetch, a generator for in_steps that yields after every STEP_PARTITIONS
    partitions read."""
    got = ([], 0, False, 0)
    for i in range(0, len(parts), STEP_PARTITIONS):
        chunk = parts[i:i + STEP_PARTITIONS]
        got = _read(ctx, req, chunk, replica, denied, *got)
        if len(chunk) == STEP_PARTITIONS:
            yield
    return got


def _read(ctx, req, parts, replica: tuple[int, int] | None = None, denied=NOTHING_DENIED, entries=None, total=0,
          error=False, readable=0):
    """Read ``parts`` now, each on its own (as Kafka's readFromLog), after the partitions before them
    (``entries``, ``total``, ``error``, ``readable``: what _read of those returned; none for the first):
    ([(PartitionRequest, PartitionData)], total bytes, whether a read failed (or a follower must truncate,
    or a consumer is sent to a preferred read replica: answer now), how many partitions were readable at
    all). A small fetch reads in one call; a large one a slice a step (_read_steps). ``replica``: (replica
    id, broker epoch) of a follower's fetch, whose progress the leader records (at most once per request:
    ``replica`` is None when a long poll reads again)."""
    partitions = ctx.services.partitions
    topics = ctx.services.metadata.image.topics
    v = ctx.api_version
    replica_id = _replica_id(req, v)
    follower = replica_id >= 0
    committed = req.isolation_level == 1 and not follower
    # KIP-392: a consumer's v11+ fetch may be served by a follower (Kafka's fetchOnlyFromLeader is
    # false for it), and a leader with replica.selector.class may send it to one in its rack
    from_followers = v >= FIRST_CLIENT_RACK_VERSION and not follower
    remaining = (req.max_bytes if req.max_bytes > 0 else 0x7FFFFFFF) - total
    if entries is None:
        entries = []
    for p in parts:
        pd = PartitionData(partition_index=p.partition, error_code=0, high_watermark=-1,
                           last_stable_offset=-1, log_start_offset=-1,
                           aborted_transactions=[] if committed else None,
                           preferred_read_replica=-1, records=b"")
        entries.append((p, pd))
        name = p.topic
        if name is None:
            # unknown to the metadata: answered, but not a read error (Kafka's "erroneous")
            pd.error_code = ErrorCode.UNKNOWN_TOPIC_ID
            continue
        if denied and name in denied:
            pd.error_code = ErrorCode.TOPIC_AUTHORIZATION_FAILED
            continue
        current_epoch = p.current_leader_epoch if v >= 9 else -1
        ti = topics.get(name) if v >= 13 else None
        if ti is not None and ti.topic_id != p.topic_id:
            plog = partitions.leader_log(name, p.partition, current_epoch)
            if not isinstance(plog, NotLed):
                # a session's topic deleted and re-created under the same name
                readable += 1
                pd.error_code = ErrorCode.INCONSISTENT_TOPIC_ID
                error = True
                continue
        elif replica is not None:
            plog = partitions.follower_fetch(name, p.partition, ReplicaFetch(
                0, replica[0], replica[1], current_epoch, p.fetch_offset,
                p.last_fetched_epoch if v >= 12 else NO_EPOCH, p.log_start_offset if v >= 5 else -1), ctx.now_ms)
            if not isinstance(plog, NotLed):
                plog, decision = plog
                if decision.error or decision.diverging_epoch is not None:
                    readable += 1
                    _follower_answer(pd, plog, decision)
                    error = True
                    continue
        elif from_followers:
            plog = partitions.consumer_log(name, p.partition, current_epoch)
        else:
            plog = partitions.leader_log(name, p.partition, current_epoch)
        if isinstance(plog, NotLed):
            pd.error_code = plog.error
            # a partition led elsewhere or offline answers at once (Kafka's errorReadingData); only one
            # the metadata does not know is set aside without forcing the answer
            error = error or plog.error != ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
            if plog.error == ErrorCode.KAFKA_STORAGE_ERROR and v <= LAST_STORAGE_ERROR_DOWNCONVERT_VERSION:
                pd.error_code = ErrorCode.NOT_LEADER_OR_FOLLOWER  # Kafka's maybeDownConvertStorageError
            elif plog.error in _NAMES_LEADER and v >= FIRST_CURRENT_LEADER_VERSION:
                pd.current_leader = LeaderIdAndEpoch(leader_id=plog.leader_id, leader_epoch=plog.leader_epoch)
            continue
        readable += 1
        hw = plog.high_watermark
        lso = plog.last_stable_offset
        pd.high_watermark = hw
        pd.last_stable_offset = lso
        pd.log_start_offset = plog.log_start_offset
        if from_followers:
            preferred = partitions.preferred_read_replica(name, p.partition, req.rack_id, p.fetch_offset,
                                                          ctx.now_ms)
            if preferred >= 0:  # as Kafka's readFromLog: no records, the consumer moves there
                pd.preferred_read_replica = preferred
                error = True
                continue
        if follower and partitions.replication_throttled(name, p.partition, replica_id, ctx.now_ms):
            continue  # leader.replication.throttled.rate: an out-of-sync follower gets no records now
        limit = min(p.max_bytes, remaining)
        if limit <= 0 and total > 0:
            continue
        # a follower reads up to the log end; a consumer up to the HW (read_committed: the LSO)
        bound = None if follower else lso if committed else hw
        try:
            sl = plog.read(p.fetch_offset, max(limit, 0), upper_bound_offset=bound, min_one_batch=total == 0)
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
            if follower:
                partitions.replication_sent(name, p.partition, sl.total_bytes, ctx.now_ms)
            pd.records = SliceRecords(sl)
            if committed:
                pd.aborted_transactions = [
                    AbortedTransaction(producer_id=a.producer_id, first_offset=a.first_offset)
                    for a in plog.aborted_transactions(sl.first_offset, lso)]
            total += sl.total_bytes
            remaining -= sl.total_bytes
    return entries, total, error, readable


def _follower_answer(pd: PartitionData, plog, decision) -> None:
    """A follower's fetch the leader answers without records: an error (FENCED_LEADER_EPOCH,
    UNKNOWN_LEADER_EPOCH, OFFSET_OUT_OF_RANGE, NOT_LEADER_OR_FOLLOWER) or where its log
    diverged (DivergingEpoch: truncate there first)."""
    pd.error_code = decision.error
    pd.high_watermark = decision.high_watermark
    pd.log_start_offset = decision.log_start_offset
    if decision.error == ErrorCode.NONE:
        pd.last_stable_offset = plog.last_stable_offset
    de = decision.diverging_epoch
    if de is not None:
        pd.diverging_epoch = DivergingEpoch(epoch=de.epoch, end_offset=de.end_offset)


def _replica_id(req, v: int) -> int:
    return req.replica_state.replica_id if v >= 15 else req.replica_id


def _response(fctx, entries, now_ms: int, image, listener: str = "") -> FetchResponse:
    """The context decides what is sent (an incremental one drops unchanged partitions);
    consecutive partitions of one topic share a topic entry, as Kafka's FetchResponse.of."""
    error_code, session_id, kept = fctx.respond(entries, now_ms)
    responses = []
    last = None
    leaders = []
    for p, pd in kept:
        if pd.current_leader.leader_id >= 0:  # set for a NOT_LEADER_OR_FOLLOWER from v16 only
            leaders.append(pd.current_leader.leader_id)
        if last is None or last.topic_id != p.topic_id or last.topic != (p.topic or ""):
            last = FetchableTopicResponse(topic=p.topic or "", topic_id=p.topic_id, partitions=[])
            responses.append(last)
        last.partitions.append(pd)
    return FetchResponse(throttle_time_ms=0, error_code=error_code, session_id=session_id, responses=responses,
                         node_endpoints=leader_endpoints(image, leaders, NodeEndpoint, listener) if leaders else [])


def handle(ctx, req):
    """The response. A fetch of at most STEP_PARTITIONS partitions (a consumer's, a follower's of a few
    partitions) is answered in one piece, with no generator (the hot path pays nothing for the steps);
    a larger one lists its partitions STEP_ENTRIES a step and reads them STEP_PARTITIONS a step
    (context.in_steps). Both run the same _ask, _session, _read and _answered."""
    n = 0
    for t in req.topics:
        n += len(t.partitions)
    if n > STEP_PARTITIONS:
        return in_steps(_answer_steps(ctx, req))
    fetch_data: dict = {}
    for t in req.topics:
        _ask(ctx, t, t.partitions, fetch_data)
    fctx, parts, replica, denied = _session(ctx, req, fetch_data)
    if len(parts) > STEP_PARTITIONS:  # an incremental fetch of a large session
        return in_steps(_read_answer_steps(ctx, req, fctx, parts, replica, denied))
    return _answered(ctx, req, fctx, parts, denied, _read(ctx, req, parts, replica, denied))


def _answer_steps(ctx, req):
    """handle of a large fetch, a generator for in_steps: it yields after every STEP_ENTRIES partitions
    listed, then after every STEP_PARTITIONS read."""
    fetch_data: dict = {}
    for t, chunk, _, full in topic_chunks(req.topics, _partitions, STEP_ENTRIES):
        _ask(ctx, t, chunk, fetch_data)
        if full:
            yield
    return (yield from _read_answer_steps(ctx, req, *_session(ctx, req, fetch_data)))


def _read_answer_steps(ctx, req, fctx, parts, replica, denied):
    got = yield from _read_steps(ctx, req, parts, replica, denied)
    return _answered(ctx, req, fctx, parts, denied, got)


def _partitions(t) -> list:
    return t.partitions


def _ask(ctx, t, fps, fetch_data: dict) -> None:
    """``fetch_data`` {session key: PartitionRequest}, in request order, given the partitions ``fps`` of
    the request's topic ``t``; from v13 topics come by id (name None when this broker does not know the
    id)."""
    image = ctx.services.metadata.image
    if ctx.api_version >= 13:
        ti = image.topics_by_id.get(t.topic_id)
        name, topic_id = (ti.name if ti is not None else None), t.topic_id
        key = topic_id
    else:
        ti = image.topics.get(t.topic)
        name, topic_id = t.topic, (ti.topic_id if ti is not None else ZERO_UUID)
        key = name
    for fp in fps:
        fetch_data[(key, fp.partition)] = PartitionRequest(
            name, topic_id, fp.partition, fp.fetch_offset, fp.partition_max_bytes, fp.current_leader_epoch,
            fp.log_start_offset, fp.last_fetched_epoch)


def _session(ctx, req, fetch_data: dict):
    """(the fetch's session context, the partitions it reads, the follower's (replica id, broker epoch)
    or None, the topics it may not read). The context is made once, here: a long poll reads these
    partitions again but answers through the same context, so the session epoch moves once per request."""
    services = ctx.services
    v = ctx.api_version
    replica_id = _replica_id(req, v)
    replica = (replica_id, req.replica_state.replica_epoch if v >= 15 else -1) if replica_id >= 0 else None

    def resolve_name(topic_id):
        ti = services.metadata.image.topics_by_id.get(topic_id)
        return ti.name if ti is not None else None

    fctx = services.fetch_sessions.new_context(v, req.session_id, req.session_epoch, replica_id >= 0, fetch_data,
                                               _forgotten(req, v >= 13), resolve_name, ctx.now_ms)
    parts = fctx.partitions()
    denied = NOTHING_DENIED if services.authorizer is None else _denied_topics(ctx, parts, replica_id >= 0)
    return fctx, parts, replica, denied


def _answered(ctx, req, fctx, parts, denied, got):
    """The response once ``parts`` are read (``got``: what _read returned), or the long poll's wait
    for more data (its reads again in one piece: the purgatory's completions are not stepped)."""
    entries, total, error, readable = got
    services = ctx.services
    if req.max_wait_ms <= 0 or total >= req.min_bytes or error or not readable:
        return _response(fctx, entries, ctx.now_ms, services.metadata.image, ctx.listener)

    def try_complete(now_ms: int):
        e, n, err, _ = _read(ctx, req, parts, None, denied)
        return _response(fctx, e, now_ms, services.metadata.image, ctx.listener) if (n >= req.min_bytes or err) else None

    def on_expire(now_ms: int):
        return _response(fctx, _read(ctx, req, parts, None, denied)[0], now_ms, services.metadata.image,
                         ctx.listener)

    watch = [("partition", p.topic, p.partition) for p in parts if p.topic is not None]
    return Delayed(try_complete=try_complete, on_expire=on_expire, deadline_ms=ctx.now_ms + req.max_wait_ms,
                   watch=watch)


def error_response(v: int, req, code: int, msg: str | None):
    """Kafka's FetchRequest.getErrorResponse."""
    # v13+: only the top-level error code; before that every partition carries it too.
    topics = []
    if v < 13:
        for t in req.topics or ():
            topics.append(FetchableTopicResponse(topic=t.topic, topic_id=t.topic_id, partitions=[
                PartitionData(partition_index=p.partition, error_code=code, high_watermark=-1)
                for p in t.partitions or ()]))
    return FetchResponse(error_code=code, session_id=req.session_id, responses=topics)
