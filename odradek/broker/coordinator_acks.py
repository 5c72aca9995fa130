"""Hold a response until the coordinator writes it stands for are committed.

Kafka's coordinators (CoordinatorRuntime, TransactionStateManager) append to their internal
topic with acks=-1 and answer once the high watermark passes the write, like an acks=all
Produce (DelayedProduce); a write that cannot be replicated answers with the coordinators'
mapped errors (CoordinatorOperationExceptionHelper): NOT_LEADER_OR_FOLLOWER or KAFKA_STORAGE_ERROR
-> NOT_COORDINATOR (the partition moved, its log offline here), and UNKNOWN_TOPIC_OR_PARTITION,
NOT_ENOUGH_REPLICAS_AFTER_APPEND or REQUEST_TIMED_OUT -> COORDINATOR_NOT_AVAILABLE. Here the
response (already decided) waits in the purgatory on the partitions' HW; on failure the
request gets its API's error response with that code. On a single node the HW is the log end
right after the append, so ``hold`` returns the response at once.
"""

from __future__ import annotations

from typing import Callable, Protocol

from odradek.api_handlers.context import Delayed
from odradek.wire.errors import ErrorCode

from .coordinator_log import Write

_MAPPED = {ErrorCode.NOT_LEADER_OR_FOLLOWER: ErrorCode.NOT_COORDINATOR,
           ErrorCode.KAFKA_STORAGE_ERROR: ErrorCode.NOT_COORDINATOR}


class Acks(Protocol):
    """The partitions port's acks=all check (broker/replica_manager.py ReplicaManager)."""

    def acks_reached(self, topic: str, partition: int, required_offset: int) -> tuple[bool, ErrorCode]: ...


def _outstanding(acks: Acks, writes: list[Write]) -> tuple[list[Write], ErrorCode]:
    """The writes not committed yet (per partition, the furthest), or the first failure."""
    furthest: dict[tuple[str, int], int] = {}
    for w in writes:
        key = (w.topic, w.partition)
        furthest[key] = max(furthest.get(key, -1), w.end_offset)
    still = []
    for (topic, partition), end in furthest.items():
        done, err = acks.acks_reached(topic, partition, end)
        if err:
            return [], _MAPPED.get(err, ErrorCode.COORDINATOR_NOT_AVAILABLE)
        if not done:
            still.append(Write(topic, partition, end))
    return still, ErrorCode.NONE


def hold(acks: Acks, writes: list[Write], response, failed: Callable[[ErrorCode], object],
         now_ms: int, timeout_ms: int):
    """``response`` once every write is committed: at once if they are, else a Delayed on the
    partitions' HW; ``failed(code)`` builds the answer when a write cannot be committed."""
    still, err = _outstanding(acks, writes)
    if err:
        return failed(err)
    if not still:
        return response
    pending = still

    def try_complete(_now_ms: int):
        nonlocal pending
        still, code = _outstanding(acks, pending)
        if code:
            return failed(code)
        pending = still
        return None if still else response

    def on_expire(now: int):
        return try_complete(now) or failed(ErrorCode.COORDINATOR_NOT_AVAILABLE)  # REQUEST_TIMED_OUT, mapped

    return Delayed(try_complete=try_complete, on_expire=on_expire, deadline_ms=now_ms + timeout_ms,
                   watch=[("partition", w.topic, w.partition) for w in still])
