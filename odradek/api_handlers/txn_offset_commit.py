"""TxnOffsetCommit (key 28) v0-5: offsets that become visible when the transaction commits.

v5 is the transaction.version 2 protocol (KIP-890 part 2): the client sends no
AddOffsetsToTxn, the broker adds the group's __consumer_offsets partition to the
transaction itself (Kafka: txnOffsetCommitRequestVersionToTransactionSupportedOperation,
ADD_PARTITION), before the group checks the member, as Kafka's transactional write does.

The offsets are stored with the topic's current id (Kafka 4.3 writes the zero id here): odradek
hides the offsets of a deleted topic by their id (group_records.is_stale) where Kafka deletes them
with the topic, and a zero id would bring them back for a topic re-created under the same name.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from odradek.api_handlers.context import STEP_ENTRIES, StepCount, in_steps
from odradek.api_handlers.group_common import TopicAnswers, metadata_topics, split_known_partitions_in_steps
from odradek.wire.errors import ErrorCode
from odradek.wire.messages.txn_offset_commit_response import (
    TxnOffsetCommitResponse,
    TxnOffsetCommitResponsePartition,
    TxnOffsetCommitResponseTopic,
)

from .common import mirror_partitions
from .context import Delayed
from .txn_common import fenced_for, txn_coordinator

if TYPE_CHECKING:
    from odradek.coordinator.offset_store import Staged

API_KEY = 28
MIN_VERSION = 0
MAX_VERSION = 5
FIRST_ADD_PARTITION_VERSION = 5


# the transaction coordinator's answer to the group coordinator's AddPartitionsToTxn (another broker)
_VERDICTS = {ErrorCode.PRODUCER_FENCED: ErrorCode.INVALID_PRODUCER_EPOCH,
             ErrorCode.TRANSACTION_ABORTABLE: ErrorCode.INVALID_TXN_STATE,  # the partition is not in it
             ErrorCode.NETWORK_EXCEPTION: ErrorCode.COORDINATOR_NOT_AVAILABLE,
             ErrorCode.NOT_COORDINATOR: ErrorCode.COORDINATOR_NOT_AVAILABLE,
             ErrorCode.COORDINATOR_LOAD_IN_PROGRESS: ErrorCode.COORDINATOR_NOT_AVAILABLE}
REQUEST_TIMEOUT_MS = 30_000


def handle(ctx, req):
    """The response, made in steps for a large request (context.in_steps; run as coordinator events,
    each step one: broker/coordinator_events.py): the partitions checked against the metadata
    STEP_ENTRIES a step, the coordinator's commit one step (its checks and the one atomic write of
    the transactional offset records, as Kafka's scheduleTransactionalWriteOperation), the answer
    STEP_ENTRIES partitions a step.

    The transaction's check first: by the transaction coordinator here, or (a cluster broker
    leading the group's partition but not the transactional id's) by the one on another broker,
    asked as Kafka's group coordinator asks (AddPartitionsToTxn v4 verify_only; v5 adds the
    group's partition for a transaction.version 2 producer)."""
    services = ctx.services
    txn, groups, verifier = services.txns, services.groups, services.txn_verifier
    if verifier is None or txn is None or groups is None or not req.group_id or not req.topics \
            or txn.is_coordinator(req.transactional_id) or not groups.is_coordinator(req.group_id):
        return _commit(ctx, req, None)
    tp = ("__consumer_offsets", groups.partition_for(req.group_id))
    v = verifier.verify(req.transactional_id, req.producer_id, req.producer_epoch, [tp],
                        add=ctx.api_version >= FIRST_ADD_PARTITION_VERSION)

    def verdict():
        code = ErrorCode(v.errors.get(tp, ErrorCode.NETWORK_EXCEPTION))
        return _commit(ctx, req, _VERDICTS.get(code, code))

    if v.errors is not None:
        return verdict()
    return Delayed(try_complete=lambda _now: None if v.errors is None else verdict(),
                   on_expire=lambda _now: verdict() if v.errors is not None else _commit(
                       ctx, req, ErrorCode.COORDINATOR_NOT_AVAILABLE),
                   deadline_ms=ctx.now_ms + REQUEST_TIMEOUT_MS, watch=[v.key])


def _commit(ctx, req, verified: ErrorCode | None):
    """``verified``: the remote transaction coordinator's verdict (None: the coordinator is here).
    -> the response, or a Stepped making it (a large request)."""
    return in_steps(_answer(ctx, req, verified))


def _answer(ctx, req, verified: ErrorCode | None):
    v = ctx.api_version
    count = StepCount()
    offsets, errors = yield from split_known_partitions_in_steps(ctx, req.topics, lambda p: (
        p.committed_offset, p.committed_leader_epoch if v >= 2 else -1, p.committed_metadata), count)
    if offsets:
        by_name, _ = metadata_topics(ctx)
        topic_ids = {name: by_name[name].topic_id for name, _ in offsets if name in by_name}
        store = ctx.services.txn_offsets
        staged = None
        if store is not None and len(offsets) >= STEP_ENTRIES:
            # a large commit's records made STEP_ENTRIES a step, then a step for the commit
            staging = StepCount()
            staged = yield from store.stage(req.group_id, offsets, ctx.now_ms, topic_ids, staging.due)
            yield
        # (one step: the coordinator's checks, its one write and the pending offsets)
        _commit_offsets(ctx, req, verified, offsets, errors, topic_ids, staged)
    # Kafka's TxnOffsetCommitResponse.Builder: the partitions refused here first, topics in the order
    # met, then the coordinator's answer (the partitions it was given) merged in
    out = TopicAnswers(False, lambda name, _id: TxnOffsetCommitResponseTopic(name=name, partitions=[]))
    made = []
    count = StepCount()  # (a request of fewer than STEP_ENTRIES partitions: answered at once)
    for t in req.topics:
        name = t.name
        answered, refused = [], None
        for p in t.partitions:
            if count.due():
                yield
            tp = (name, p.partition_index)
            answer = TxnOffsetCommitResponsePartition(partition_index=p.partition_index,
                                                      error_code=fenced_for(v, 3, errors.get(tp, ErrorCode.NONE)))
            if tp in offsets:
                answered.append(answer)
            else:
                if refused is None:
                    refused = out.partitions(name)
                refused.append(answer)
        if answered:
            made.append(TxnOffsetCommitResponseTopic(name=name, partitions=answered))
    out.merge(made)
    return TxnOffsetCommitResponse(throttle_time_ms=0, topics=out.topics)


def _commit_offsets(ctx, req, verified: ErrorCode | None, offsets: dict, errors: dict, topic_ids: dict,
                    staged: Staged | None) -> None:
    """The coordinator's commit of ``offsets`` {(topic, partition): (offset, epoch, metadata)} (``staged``:
    made ready beforehand): the errors of the partitions into ``errors``."""
    v = ctx.api_version
    groups = ctx.services.groups
    txn = txn_coordinator(ctx)
    store = ctx.services.txn_offsets
    if store is None:
        err = ErrorCode.COORDINATOR_NOT_AVAILABLE
    elif not req.group_id:
        err = ErrorCode.INVALID_GROUP_ID
    elif group_err := groups.coordinator_error(req.group_id):  # Kafka's group coordinator answers first
        err = group_err
    elif verified is None and not txn.is_coordinator(req.transactional_id):
        # Kafka: its transaction verification finds no coordinator partition to ask
        err = ErrorCode.COORDINATOR_NOT_AVAILABLE
    else:
        if verified is not None:
            err = verified
        elif v >= FIRST_ADD_PARTITION_VERSION:
            tp = ("__consumer_offsets", groups.partition_for(req.group_id))
            err = txn.add_partitions(req.transactional_id, req.producer_id, req.producer_epoch, [tp],
                                     ctx.now_ms, client_tv=2)
            if err == ErrorCode.PRODUCER_FENCED:  # AddPartitionsToTxnManager's mapping
                err = ErrorCode.INVALID_PRODUCER_EPOCH
        else:
            err = txn.check_offset_commit(req.transactional_id, req.producer_id, req.producer_epoch)
        if err == ErrorCode.NONE:
            gen = req.generation_id if v >= 3 else -1
            member = req.member_id if v >= 3 else ""
            instance = req.group_instance_id if v >= 3 else None
            # the partitions committed: a consumer group member's older epoch is stale unless it
            # was assigned them at that epoch, as for OffsetCommit
            err = groups.validate_txn_commit(req.group_id, gen, member, instance, ctx.now_ms,
                                             partitions=list(offsets))
    if err != ErrorCode.NONE:
        errors.update({tp: err for tp in offsets})
    else:
        errors.update(store.commit(req.group_id, req.producer_id, req.producer_epoch, offsets, ctx.now_ms,
                                   topic_ids=topic_ids, staged=staged))


def error_response(v: int, req, code: int, msg: str | None):
    """Kafka's TxnOffsetCommitRequest.getErrorResponse."""
    return TxnOffsetCommitResponse(topics=mirror_partitions(
        req.topics, lambda t, parts: TxnOffsetCommitResponseTopic(name=t.name, partitions=parts),
        lambda p: TxnOffsetCommitResponsePartition(partition_index=p.partition_index, error_code=code)))
