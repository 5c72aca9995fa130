"""Produce (key 0) v3-13: append record batches; acks 0 (no response), 1 and -1.

acks=-1 waits (the purgatory, Kafka's DelayedProduce) until the leader's high watermark
passes the appended batch (NOT_ENOUGH_REPLICAS_AFTER_APPEND if the ISR fell under
min.insync.replicas meanwhile, NOT_LEADER_OR_FOLLOWER if leadership moved, REQUEST_TIMED_OUT
at the request's timeout_ms); with the ISR under min.insync.replicas it is refused before the
append (NOT_ENOUGH_REPLICAS). On a single node the high watermark moves with every append, so
acks=-1 is answered at once, like acks=1.

flush.messages: Kafka's append fsyncs the log in the request handler thread when the topic's
flush.messages is reached, before the answer. Here the fsync is the log flusher's (a worker
thread: the event loop serves meanwhile) and the partition's answer waits for it, acks=1 and -1
alike (KAFKA_STORAGE_ERROR if it failed, whatever the ISR does after; NOT_LEADER_OR_FOLLOWER if
the partition stops being led here at the append's epoch or is truncated below the batch meanwhile,
as Kafka's flush inside the append never waits across a leadership change; REQUEST_TIMED_OUT at
the request's timeout_ms, unless another error was set).

Transactional batches: up to v11 they may only go to a partition already in the
producer's ongoing transaction (Kafka's partition verification); from v12 (transaction.version
2, KIP-890 part 2) the broker adds the partition to the transaction itself, as Kafka's
AddPartitionsToTxnManager does (ADD_PARTITION), with the coordinator's errors mapped as
Kafka's ReplicaManager maps them. v13 names topics by id (UNKNOWN_TOPIC_ID for an unknown one).
"""

from __future__ import annotations

import logging

from odradek.log import errors as log_errors
from odradek.wire.primitives import ZERO_UUID
from odradek.wire.errors import ErrorCode
from odradek.wire.messages.produce_response import (
    BatchIndexAndErrorMessage,
    LeaderIdAndEpoch,
    NodeEndpoint,
    PartitionProduceResponse,
    ProduceResponse,
    TopicProduceResponse,
)

from odradek.controller.acls import TOPIC, TRANSACTIONAL_ID, WRITE

from .authorization import allowed, allowed_names
from .common import CLOSE_CONNECTION, leader_endpoints, log_error_code
from .context import STEP_PARTITIONS, Delayed, in_steps, topic_chunks
from .ports import NotLed

API_KEY = 0
MIN_VERSION = 3
MAX_VERSION = 13
FIRST_CURRENT_LEADER_VERSION = 10  # KIP-951: CurrentLeader and NodeEndpoints
FIRST_ADD_PARTITION_VERSION = 12  # AddPartitionsToTxnManager.produceRequestVersionToTransactionSupportedOperation

# coordinator errors of the implicit AddPartitionsToTxn, as the producer gets them
_NOT_VERIFIED = (ErrorCode.NETWORK_EXCEPTION, ErrorCode.COORDINATOR_LOAD_IN_PROGRESS,
                 ErrorCode.COORDINATOR_NOT_AVAILABLE, ErrorCode.NOT_COORDINATOR)

log = logging.getLogger(__name__)
NOTHING_DENIED: frozenset = frozenset()


def _partition(ctx, topic: str, p: int, records, acks: int, transactional_id,
               pending: list, verified: dict, flushing: list) -> PartitionProduceResponse:
    services = ctx.services
    resp = PartitionProduceResponse(index=p, error_code=0, base_offset=-1, log_append_time_ms=-1,
                                    log_start_offset=-1, record_errors=[], error_message=None)
    plog = services.partitions.leader_log(topic, p)
    if isinstance(plog, NotLed):
        resp.error_code = plog.error
        if plog.error == ErrorCode.NOT_LEADER_OR_FOLLOWER and ctx.api_version >= FIRST_CURRENT_LEADER_VERSION:
            resp.current_leader = LeaderIdAndEpoch(leader_id=plog.leader_id, leader_epoch=plog.leader_epoch)
        return resp
    if records is None or len(records) == 0:
        resp.error_code = ErrorCode.CORRUPT_MESSAGE if records is None else ErrorCode.INVALID_RECORD
        resp.log_start_offset = plog.log_start_offset
        return resp
    if services.metadata.is_internal(topic):
        # clients may not write to internal topics (Kafka: INVALID_TOPIC_EXCEPTION)
        resp.error_code = ErrorCode.INVALID_TOPIC_EXCEPTION
        return resp
    if _has_transactional_batch(records):
        if (topic, p) in verified:  # asked of the coordinator on another broker
            code, message = _coordinator_answer(ctx.api_version >= FIRST_ADD_PARTITION_VERSION, verified[(topic, p)])
        else:
            code, message = _transaction_check(ctx, topic, p, records, transactional_id)
        if code:
            resp.error_code = code
            resp.error_message = message
            return resp
    code = services.partitions.check_append(topic, p, acks)
    if code:
        resp.error_code = code
        return resp
    try:
        info = services.partitions.append(topic, p, records, ctx.now_ms, log=plog, flush_later=True)
    except log_errors.LogError as e:
        code = log_error_code(e)
        resp.error_code = code
        resp.log_start_offset = plog.log_start_offset
        if isinstance(e, log_errors.InvalidRecordError):  # incl. INVALID_TIMESTAMP
            resp.error_message = str(e)
            resp.record_errors = record_errors_of(e)
        elif isinstance(e, log_errors.UndecodableBatchError):
            log.info("produce to %s-%d refused: %s", topic, p, e)
        elif code == ErrorCode.UNKNOWN_SERVER_ERROR:
            log.error("append to %s-%d failed: %s", topic, p, e)
        return resp
    except OSError as e:  # disk full, I/O error: Kafka marks the log dir offline
        log.error("append to %s-%d failed: %s", topic, p, e)
        resp.error_code = ErrorCode.KAFKA_STORAGE_ERROR
        return resp
    resp.base_offset = info.base_offset
    resp.log_append_time_ms = info.log_append_time_ms
    resp.log_start_offset = info.log_start_offset
    if acks == -1:
        pending.append(_Pending(resp, topic, p, info.last_offset + 1))
    if acks != 0 and plog.flush_wanted_upto > info.last_offset and not plog.flushed(info.last_offset + 1):
        flushing.append(_Flushing(resp, plog, info.last_offset + 1, topic, p, plog.truncations))
    return resp


class _Pending:
    """One partition of an acks=-1 produce waiting for its replicas (ProducePartitionStatus)."""
    __slots__ = ("resp", "topic", "partition", "required_offset")

    def __init__(self, resp: PartitionProduceResponse, topic: str, partition: int, required_offset: int):
        self.resp, self.topic, self.partition, self.required_offset = resp, topic, partition, required_offset


class _Flushing:
    """One partition of a produce whose append reached flush.messages, waiting for the log flusher
    (``truncations``: the log's PartitionLog.truncations at the append)."""
    __slots__ = ("resp", "log", "offset", "topic", "partition", "truncations")

    def __init__(self, resp: PartitionProduceResponse, log, offset: int, topic: str, partition: int,
                 truncations: int):
        self.resp, self.log, self.offset, self.topic, self.partition = resp, log, offset, topic, partition
        self.truncations = truncations


def _flushes_pending(partitions, flushing: list[_Flushing]) -> list[_Flushing]:
    """The partitions whose flush is still to come; one whose log went offline meanwhile is answered
    KAFKA_STORAGE_ERROR (Kafka's answer to a failed flush in the append), one whose log was deleted
    or closed meanwhile (no flush comes) NOT_LEADER_OR_FOLLOWER, and so is one no longer led here or
    whose log was truncated since the append (it may have been led elsewhere meanwhile) or is below
    the batch: a batch a follower's truncation cut is never answered success (a flush of records
    written there since is not its). A leader epoch bumped with the partition still led here and
    no truncation (a reassignment removing replicas) keeps the batch: Kafka flushes inside the
    append, under the leader-ISR read lock, so no epoch change falls within it and such a produce
    is answered success (acks=all: once the high watermark passes it)."""
    still = []
    for w in flushing:
        log = w.log
        if (partitions.leader_epoch(w.topic, w.partition) < 0 or log.truncations != w.truncations
                or log.log_end_offset < w.offset):
            w.resp.error_code = ErrorCode.NOT_LEADER_OR_FOLLOWER
        elif log.flushed(w.offset):
            if log.offline is not None and log.recovery_point < w.offset:
                w.resp.error_code = ErrorCode.KAFKA_STORAGE_ERROR
        elif log.gone or log.closed:
            w.resp.error_code = ErrorCode.NOT_LEADER_OR_FOLLOWER
        else:
            still.append(w)
    return still


def _acks_pending(partitions, pending: list[_Pending]) -> list[_Pending]:
    """DelayedProduce.tryComplete: the partitions still waiting; a done one takes its error."""
    still = []
    for w in pending:
        done, error = partitions.acks_reached(w.topic, w.partition, w.required_offset)
        if error or done:
            if error and not w.resp.error_code:  # (an error the flush set stays the answer)
                w.resp.error_code = error
        else:
            still.append(w)
    return still


def _transaction_check(ctx, topic: str, p: int, records, transactional_id) -> tuple[int, str | None]:
    txn = ctx.services.txns
    pid = int.from_bytes(records[43:51], "big", signed=True)
    epoch = int.from_bytes(records[51:53], "big", signed=True)
    if txn is None:
        return ErrorCode.INVALID_TXN_STATE, None
    if ctx.api_version < FIRST_ADD_PARTITION_VERSION or not transactional_id:
        # only into a partition of the producer's ongoing transaction (Kafka's partition verification)
        return txn.check_produce(pid, epoch, topic, p), None
    code = txn.add_partitions(transactional_id, pid, epoch, [(topic, p)], ctx.now_ms, client_tv=2)
    return _coordinator_answer(True, code)


def _coordinator_answer(added: bool, code: ErrorCode) -> tuple[int, str | None]:
    """The coordinator's answer to the leader's AddPartitionsToTxn (``added``: for a Produce v12+,
    else verify_only), as Kafka's ReplicaManager gives it to the producer."""
    if not added and code == ErrorCode.TRANSACTION_ABORTABLE:
        return ErrorCode.INVALID_TXN_STATE, None  # not in the transaction: as the local check answers
    if code == ErrorCode.NONE:
        return code, None
    if code == ErrorCode.PRODUCER_FENCED:  # AddPartitionsToTxnManager: producers expect this one
        return ErrorCode.INVALID_PRODUCER_EPOCH, None
    if code == ErrorCode.INVALID_TXN_STATE:
        return code, "Partition was not added to the transaction"
    if code in _NOT_VERIFIED:
        return ErrorCode.NOT_ENOUGH_REPLICAS, ("Unable to verify the partition has been added to the transaction. "
                                               f"Underlying error: {ErrorCode(code).name}")
    return code, None


def record_errors_of(e) -> list:
    """The Produce response's record_errors: Kafka's RecordErrors where the log named the
    offending records (keyless records in a compacted topic), else the batch's first record."""
    errs = getattr(e, "record_errors", None) or [(0, str(e))]
    return [BatchIndexAndErrorMessage(batch_index=i, batch_index_error_message=m) for i, m in errs]


def _has_transactional_batch(records) -> bool:
    # attributes are at byte 21..22 of the batch header; bit 4 is "transactional"
    try:
        return bool(records[22] & 0x10)
    except IndexError:
        return False


def _unknown_topic_id(pd) -> PartitionProduceResponse:
    return PartitionProduceResponse(index=pd.index, error_code=ErrorCode.UNKNOWN_TOPIC_ID, base_offset=-1,
                                    log_append_time_ms=-1, log_start_offset=-1, record_errors=[], error_message=None)


def _to_verify(ctx, req, denied: frozenset) -> tuple[int, int, list[tuple[str, int]], list[tuple[str, int]]] | None:
    """(producer id, epoch, partitions whose transactional batches need the verdict of the
    transaction coordinator on another broker, partitions that need none) or None: the
    coordinator is here. KIP-890: only a producer's first batch of a transaction in a partition
    is verified; later ones find the transaction open in the log (Kafka's hasOngoingTransaction)."""
    tid = req.transactional_id
    services = ctx.services
    if not tid or services.txn_verifier is None or services.txns is None or services.txns.is_coordinator(tid) \
            or req.acks not in (1, -1):  # (acks=0 has no answer to wait for: the local check refuses it)
        return None
    pid = epoch = -1
    out, open_ = [], []
    for t in req.topic_data:
        name = t.name
        if ctx.api_version >= 13:
            ti = services.metadata.image.topics_by_id.get(t.topic_id)
            name = ti.name if ti is not None else ""
        for pd in t.partition_data:
            records = pd.records
            if not name or records is None or len(records) < 61 or not _has_transactional_batch(records) \
                    or name in denied:
                continue
            plog = services.partitions.leader_log(name, pd.index)
            if isinstance(plog, NotLed):
                continue
            pid = int.from_bytes(records[43:51], "big", signed=True)
            epoch = int.from_bytes(records[51:53], "big", signed=True)
            entry = plog.producer_state.producers.get(pid)
            if pid in plog.txn_state.ongoing and entry is not None and entry.epoch == epoch:
                open_.append((name, pd.index))
            else:
                out.append((name, pd.index))
    return (pid, epoch, out, open_) if out or open_ else None


def _denied_topics(ctx, req) -> frozenset:
    """The topics this principal may not WRITE (Kafka's filterByAuthorized in handleProduceRequest)."""
    image = ctx.services.metadata.image
    names = set()
    for t in req.topic_data:
        if ctx.api_version >= 13:
            ti = image.topics_by_id.get(t.topic_id)
            if ti is not None:
                names.add(ti.name)
        else:
            names.add(t.name)
    return frozenset(names - allowed_names(ctx, WRITE, TOPIC, names))


def handle(ctx, req):
    denied = NOTHING_DENIED
    if ctx.services.authorizer is not None:
        if req.transactional_id and not allowed(ctx, WRITE, TRANSACTIONAL_ID, req.transactional_id):
            resp = error_response(ctx.api_version, req, ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED, None)
            return CLOSE_CONNECTION if resp is None else resp
        denied = _denied_topics(ctx, req)
    asked = _to_verify(ctx, req, denied)
    if asked is None:
        return _produce(ctx, req, {}, denied)
    pid, epoch, tps, open_ = asked
    verified = {tp: ErrorCode.NONE for tp in open_}
    if not tps:
        return _produce(ctx, req, verified, denied)
    v = ctx.services.txn_verifier.verify(req.transactional_id, pid, epoch, tps,
                                         add=ctx.api_version >= FIRST_ADD_PARTITION_VERSION)
    if v.errors is not None:
        return _produce(ctx, req, {**verified, **v.errors}, denied)

    # (the purgatory's completions run in one piece: a remote verification is of a transactional producer's
    # few partitions)
    def answered(_now_ms: int):
        return None if v.errors is None else _produce_whole(ctx, req, {**verified, **v.errors}, denied)

    def on_expire(_now_ms: int):
        return _produce_whole(ctx, req, {**verified, **(v.errors or {tp: ErrorCode.NETWORK_EXCEPTION for tp in tps})},
                              denied)

    return Delayed(try_complete=answered, on_expire=on_expire, deadline_ms=ctx.now_ms + req.timeout_ms,
                   watch=[v.key])


def _produce(ctx, req, verified: dict, denied: frozenset):
    """The produce itself, ``verified`` {(topic, partition): the remote coordinator's answer}; the
    partitions of ``denied`` topics answered TOPIC_AUTHORIZATION_FAILED. A produce to more than
    STEP_PARTITIONS partitions appends STEP_PARTITIONS a step (context.in_steps: other clients are served
    between them; as Kafka's, appends are per partition, not atomic across them); a smaller one in one
    piece, with no generator (the hot path pays nothing for the steps)."""
    topics = req.topic_data
    n = 0
    for t in topics:
        n += len(t.partition_data)
    if n > STEP_PARTITIONS:
        return in_steps(_produce_steps(ctx, req, verified, denied))
    return _produce_whole(ctx, req, verified, denied)


def _produce_whole(ctx, req, verified: dict, denied: frozenset):
    """_produce in one piece."""
    made = _Made(ctx, req, verified, denied)
    for t in req.topic_data:
        made.append(t.partition_data, *made.topic(t))
    return made.answer()


def _produce_steps(ctx, req, verified: dict, denied: frozenset):
    """_produce as a generator for in_steps: it yields after every STEP_PARTITIONS partitions."""
    made = _Made(ctx, req, verified, denied)
    answers, name = [], ""
    for t, chunk, first, full in topic_chunks(req.topic_data, _partition_data, STEP_PARTITIONS):
        if first:
            answers, name = made.topic(t)
        made.append(chunk, answers, name)
        if full:
            yield
    return made.answer()


def _partition_data(t) -> list:
    return t.partition_data


class _Made:
    """A produce's partitions produced so far (_produce_whole's and _produce_steps'): the topics' answers
    (``out``), the acks=-1 appends waiting for the ISR (``pending``), the leaders the answers name."""

    __slots__ = ("ctx", "req", "verified", "denied", "out", "pending", "leaders", "flushing")

    def __init__(self, ctx, req, verified: dict, denied: frozenset):
        self.ctx, self.req, self.verified, self.denied = ctx, req, verified, denied
        self.out: list = []
        self.pending: list[_Pending] = []
        self.leaders: list = []
        self.flushing: list[_Flushing] = []  # the appends waiting for their flush.messages flush

    def topic(self, t) -> tuple[list, str]:
        """(the partition answers, the topic's name) of a topic of the request, its answer added to
        ``out`` (v13+: the name of its id, "" if unknown)."""
        ctx = self.ctx
        name = t.name
        if ctx.api_version >= 13:
            known = ctx.services.metadata.image.topics_by_id.get(t.topic_id) if t.topic_id != ZERO_UUID else None
            name = known.name if known is not None else ""
        parts: list = []
        self.out.append(TopicProduceResponse(name=t.name, topic_id=t.topic_id, partition_responses=parts))
        return parts, name

    def append(self, data, parts: list, name: str) -> None:
        """The partitions ``data`` of topic ``name`` produced, their answers added to ``parts`` (acks=-1:
        those appended to ``pending``; the leaders named to ``leaders``)."""
        ctx, req, denied = self.ctx, self.req, self.denied
        acks = req.acks
        by_id = ctx.api_version >= 13
        for pd in data:
            if by_id and not name:
                parts.append(_unknown_topic_id(pd))
                continue
            if denied and name in denied:
                parts.append(PartitionProduceResponse(index=pd.index, error_code=ErrorCode.TOPIC_AUTHORIZATION_FAILED,
                                                      base_offset=-1, log_append_time_ms=-1, log_start_offset=-1,
                                                      record_errors=[], error_message=None))
                continue
            if acks not in (0, 1, -1):
                parts.append(PartitionProduceResponse(index=pd.index, error_code=ErrorCode.INVALID_REQUIRED_ACKS,
                                                      base_offset=-1, log_start_offset=-1))
                continue
            pr = _partition(ctx, name, pd.index, pd.records, acks, req.transactional_id, self.pending, self.verified,
                            self.flushing)
            if pr.error_code == ErrorCode.NOT_LEADER_OR_FOLLOWER:
                self.leaders.append(pr.current_leader.leader_id)
            parts.append(pr)

    def answer(self):
        return _answer(self.ctx, self.req, self.out, self.pending, self.leaders, self.flushing)


def _answer(ctx, req, out: list, pending: list[_Pending], leaders: list, flushing: list[_Flushing] = ()):
    """Once every partition is produced: the response, or none (acks=0), or the wait for the ISR
    and for the flushes of flush.messages (the log flusher pokes the partition's key)."""
    if req.acks == 0:
        if any(pr.error_code for tr in out for pr in tr.partition_responses):
            return CLOSE_CONNECTION
        return None
    partitions = ctx.services.partitions
    if pending:
        pending = _acks_pending(partitions, pending)
    if flushing:
        flushing = _flushes_pending(partitions, flushing)
    if not pending and not flushing:
        return _response(ctx, out, leaders)

    def try_complete(now_ms: int):
        nonlocal pending, flushing
        pending = _acks_pending(partitions, pending)
        flushing = _flushes_pending(partitions, flushing)
        return None if pending or flushing else _response(ctx, out, leaders)

    def on_expire(now_ms: int):
        # (an error already set, NOT_LEADER_OR_FOLLOWER or the flush's, stays the answer)
        for w in _acks_pending(partitions, pending):
            if not w.resp.error_code:
                w.resp.error_code = ErrorCode.REQUEST_TIMED_OUT
        for f in _flushes_pending(partitions, flushing):
            if not f.resp.error_code:
                f.resp.error_code = ErrorCode.REQUEST_TIMED_OUT
        return _response(ctx, out, leaders)

    watch = {("partition", w.topic, w.partition): None for w in pending}
    watch.update((("partition", f.topic, f.partition), None) for f in flushing)
    return Delayed(try_complete=try_complete, on_expire=on_expire, deadline_ms=ctx.now_ms + req.timeout_ms,
                   watch=list(watch))


def _response(ctx, out: list, leaders: list) -> ProduceResponse:
    """The response once every partition is answered; a partition that lost its leadership
    while it waited names the new leader too (KIP-951)."""
    if ctx.api_version >= FIRST_CURRENT_LEADER_VERSION:
        image = ctx.services.metadata.image
        for tr in out:
            for pr in tr.partition_responses:
                if pr.error_code == ErrorCode.NOT_LEADER_OR_FOLLOWER and pr.current_leader.leader_id < 0:
                    part = _image_partition(image, tr.name, tr.topic_id, pr.index)
                    if part is not None:
                        pr.current_leader = LeaderIdAndEpoch(leader_id=part.leader, leader_epoch=part.leader_epoch)
                        leaders.append(part.leader)
    endpoints = leader_endpoints(ctx.services.metadata.image, leaders, NodeEndpoint, ctx.listener) if leaders else []
    return ProduceResponse(responses=out, throttle_time_ms=0, node_endpoints=endpoints)


def _image_partition(image, name: str, topic_id: bytes, index: int):
    ti = image.topics.get(name) if name else image.topics_by_id.get(topic_id)
    return ti.partitions.get(index) if ti is not None else None


def error_response(v: int, req, code: int, msg: str | None):
    """Kafka's ProduceRequest.getErrorResponse."""
    if req.acks == 0:
        return None  # Kafka has no response for acks=0: it closes the connection
    topics = []
    for t in req.topic_data or ():
        topics.append(TopicProduceResponse(name=t.name, topic_id=t.topic_id, partition_responses=[
            PartitionProduceResponse(index=p.index, error_code=code, base_offset=-1,
                                     log_append_time_ms=-1, log_start_offset=-1,
                                     record_errors=[], error_message=msg)
            for p in t.partition_data or ()]))
    return ProduceResponse(responses=topics)
