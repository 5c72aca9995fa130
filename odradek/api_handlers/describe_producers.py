"""DescribeProducers (key 61) v0: the active idempotent/transactional producers of partitions
(KIP-664, `kafka-transactions.sh describe-producers`), from each partition's producer state.

As Kafka's Partition.activeProducerState, any replica with a local log answers, a follower too
(its producer state follows the leader's batches): `describe-producers --broker-id` and
`find-hanging --broker-id` ask one broker about every partition it hosts."""

from __future__ import annotations

from odradek.controller.acls import READ, TOPIC
from odradek.wire.errors import ErrorCode
from odradek.wire.messages.describe_producers_response import (DescribeProducersResponse, PartitionResponse,
                                                               ProducerState, TopicResponse)

from .authorization import allowed
from .common import topic_name_error
from .context import STEP_ENTRIES, in_steps
from .ports import NotLed

API_KEY = 61
MIN_VERSION = 0
MAX_VERSION = 0

UNKNOWN_TOPIC_MESSAGE = "This server does not host this topic-partition."


def handle(ctx, request):
    """The response, made STEP_ENTRIES partitions a step for a large request (context.in_steps)."""
    return in_steps(_answer(ctx, request))


def _answer(ctx, request):
    topics = []
    authorizing = ctx.services.authorizer is not None
    n = 0
    for t in request.topics:
        image = ctx.services.metadata.image  # (as it is now: a step may follow a change)
        bad_name = topic_name_error(t.name)
        if bad_name is not None:
            err = (ErrorCode.INVALID_TOPIC_EXCEPTION, bad_name)
        elif authorizing and not allowed(ctx, READ, TOPIC, t.name):
            err = (ErrorCode.TOPIC_AUTHORIZATION_FAILED, ErrorCode.TOPIC_AUTHORIZATION_FAILED.message)
        elif t.name not in image.topics:
            err = (ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, UNKNOWN_TOPIC_MESSAGE)
        else:
            err = None
        parts = []
        for p in t.partition_indexes:
            n += 1
            if n % STEP_ENTRIES == 0:
                yield
            if err is not None:
                parts.append(PartitionResponse(partition_index=p, error_code=err[0], error_message=err[1]))
            else:
                topic_image = ctx.services.metadata.image.topics.get(t.name)
                parts.append(PartitionResponse(partition_index=p, error_code=ErrorCode.UNKNOWN_TOPIC_OR_PARTITION)
                             if topic_image is None else _partition(ctx, topic_image, t.name, p))
        topics.append(TopicResponse(name=t.name, partitions=parts))
    return DescribeProducersResponse(throttle_time_ms=0, topics=topics)


def _partition(ctx, topic_image, name: str, p: int) -> PartitionResponse:
    if p not in topic_image.partitions:
        # Kafka's partition-level errors carry no message
        return PartitionResponse(partition_index=p, error_code=ErrorCode.UNKNOWN_TOPIC_OR_PARTITION)
    plog = ctx.services.partitions.consumer_log(name, p)
    if isinstance(plog, NotLed):
        return PartitionResponse(partition_index=p, error_code=ErrorCode.NOT_LEADER_OR_FOLLOWER)
    with plog.lock:
        ongoing = dict(plog.txn_state.ongoing)
        active = [
            ProducerState(producer_id=pid, producer_epoch=e.epoch, last_sequence=e.last_seq,
                          last_timestamp=e.last_timestamp,
                          coordinator_epoch=e.coordinator_epoch,  # of the producer's last marker
                          current_txn_start_offset=ongoing.get(pid, -1))
            for pid, e in sorted(plog.producer_state.producers.items())
        ]
    return PartitionResponse(partition_index=p, error_code=0, error_message=None, active_producers=active)


def error_response(v: int, req, code: int, msg: str | None):
    """Kafka's DescribeProducersRequest.getErrorResponse."""
    return DescribeProducersResponse(topics=[
        TopicResponse(name=t.name, partitions=[
            PartitionResponse(partition_index=i, error_code=code) for i in t.partition_indexes or ()])
        for t in req.topics or ()])
