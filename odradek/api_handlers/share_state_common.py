"""What the share coordinator's five inter-broker APIs (KIP-932: Read/Write/Initialize/Delete
ShareGroupState, ReadShareGroupStateSummary) have in common: one answer per requested partition,
from the share coordinator of its key (ports.ShareStates), Kafka's error when this node is not
it (NOT_COORDINATOR) or is still loading it (COORDINATOR_LOAD_IN_PROGRESS). As Kafka's
ShareCoordinatorService: an empty group id answers nothing; the writes are answered once committed
(the coordinator writes of the request, broker/coordinator_acks.py)."""

from __future__ import annotations

from typing import Callable

from odradek.coordinator.errors import CoordinatorError
from odradek.wire.errors import ErrorCode


def answer(ctx, req, one: Callable, partition_result: Callable, topic_result: Callable) -> list:
    """[topic_result(topic_id, [partition results])]: ``one(states, key, partition data)`` per
    partition, its return value handed to ``partition_result(partition, error, message, value)``."""
    states = ctx.services.share_states
    if not req.group_id:
        return []
    out = []
    for t in req.topics:
        rows = []
        for p in t.partitions:
            key = (req.group_id, bytes(t.topic_id), p.partition)
            try:
                if states is None:
                    raise CoordinatorError(ErrorCode.COORDINATOR_NOT_AVAILABLE)
                rows.append(partition_result(p.partition, 0, None, one(states, key, p)))
            except CoordinatorError as e:
                rows.append(partition_result(p.partition, int(e.code), e.message or e.code.message, None))
        out.append(topic_result(bytes(t.topic_id), rows))
    return out


def state_error_response(response_cls: type, topic_cls: type, partition_cls: type) -> Callable:
    """Kafka's getErrorResponse of these requests: every requested partition with the error."""
    def error_response(v: int, req, code: int, msg: str | None):
        return response_cls(results=[topic_cls(topic_id=t.topic_id, partitions=[
            partition_cls(partition=p.partition, error_code=code, error_message=msg or ErrorCode.from_code(code).message)
            for p in t.partitions]) for t in req.topics or ()])
    return error_response
