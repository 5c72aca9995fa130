"""Records of the internal topic __transaction_state, framed exactly as Kafka frames them.

key   = int16 version (0) + TransactionLogKey v0 (transactional id)
value = int16 version + TransactionLogValue; None is a tombstone. Kafka 4.3 writes value v1
(flexible: previous/next producer id and the client's transaction version as tagged
fields) while transaction.version >= 1 is finalized, v0 below that
(TransactionVersion.transactionLogValueVersion).
Partition of a transactional id = Utils.abs(transactionalId.hashCode()) % partitions.
"""
from __future__ import annotations

import enum
import struct
from dataclasses import dataclass, field

from odradek.wire.messages.transaction_log_key import TransactionLogKey
from odradek.wire.messages.transaction_log_value import PartitionsSchema, TransactionLogValue

from .group_records import java_string_hash, kafka_abs

TXN_STATE_TOPIC = "__transaction_state"
DEFAULT_TXN_PARTITIONS = 50


def value_version(transaction_version: int) -> int:
    """The TransactionLogValue version Kafka writes at a finalized transaction.version."""
    return 1 if transaction_version >= 1 else 0


_I16 = struct.Struct(">h")


class TxnState(enum.IntEnum):
    """Kafka's TransactionState ids (the transaction_status byte in the log)."""

    EMPTY = 0
    ONGOING = 1
    PREPARE_COMMIT = 2
    PREPARE_ABORT = 3
    COMPLETE_COMMIT = 4
    COMPLETE_ABORT = 5
    DEAD = 6
    PREPARE_EPOCH_FENCE = 7

    @property
    def kafka_name(self) -> str:
        return _NAMES[self]


_NAMES = {
    TxnState.EMPTY: "Empty", TxnState.ONGOING: "Ongoing", TxnState.PREPARE_COMMIT: "PrepareCommit",
    TxnState.PREPARE_ABORT: "PrepareAbort", TxnState.COMPLETE_COMMIT: "CompleteCommit",
    TxnState.COMPLETE_ABORT: "CompleteAbort", TxnState.DEAD: "Dead",
    TxnState.PREPARE_EPOCH_FENCE: "PrepareEpochFence",
}
STATE_BY_NAME = {v: k for k, v in _NAMES.items()}


def partition_for(transactional_id: str, partitions: int = DEFAULT_TXN_PARTITIONS) -> int:
    return kafka_abs(java_string_hash(transactional_id)) % partitions


@dataclass
class TxnMetadata:
    """A transactional id's state, as the transaction log stores it."""
    transactional_id: str
    producer_id: int
    producer_epoch: int
    timeout_ms: int
    state: TxnState = TxnState.EMPTY
    partitions: set = field(default_factory=set)   # {(topic, partition)}
    start_ms: int = -1
    last_update_ms: int = -1
    last_producer_id: int = -1       # the id before an epoch overflow handed out a new one
    last_producer_epoch: int = -1    # the epoch before the last bump (retried InitProducerId)
    pending: bool = False            # markers being written (CONCURRENT_TRANSACTIONS)
    # transaction.version 2 (KIP-890 part 2); the log value v1 carries these
    client_tv: int = 0               # transaction version of the client's last transition
    prev_producer_id: int = -1       # Kafka's prevProducerId: the producer id before the last transition
    next_producer_id: int = -1       # overflow: the id this transaction's completion switches to


def key_bytes(transactional_id: str) -> bytes:
    return _I16.pack(0) + TransactionLogKey(transactional_id=transactional_id).encode(0)


def value_bytes(m: TxnMetadata, version: int = 0) -> bytes:
    by_topic: dict[str, list[int]] = {}
    for t, p in sorted(m.partitions):
        by_topic.setdefault(t, []).append(p)
    v = TransactionLogValue(
        producer_id=m.producer_id,
        producer_epoch=m.producer_epoch,
        transaction_timeout_ms=m.timeout_ms,
        transaction_status=int(m.state),
        # Kafka writes no partition list (null) for Empty
        transaction_partitions=None if m.state is TxnState.EMPTY else
        [PartitionsSchema(topic=t, partition_ids=ps) for t, ps in by_topic.items()],
        transaction_last_update_timestamp_ms=m.last_update_ms,
        transaction_start_timestamp_ms=m.start_ms,
        client_transaction_version=m.client_tv,
    )
    if version >= 1:
        v.previous_producer_id = m.prev_producer_id
        v.next_producer_id = m.next_producer_id
    return _I16.pack(version) + v.encode(version)


def decode_key(key: bytes) -> str | None:
    (version,) = _I16.unpack_from(key, 0)
    if version != 0:
        return None
    return TransactionLogKey.decode(key, 0, 2).transactional_id


def decode_value(transactional_id: str, value: bytes) -> TxnMetadata:
    (version,) = _I16.unpack_from(value, 0)
    v = TransactionLogValue.decode(value, version, 2)
    parts = {(ps.topic, p) for ps in (v.transaction_partitions or []) for p in ps.partition_ids}
    return TxnMetadata(
        transactional_id=transactional_id,
        producer_id=v.producer_id,
        producer_epoch=v.producer_epoch,
        timeout_ms=v.transaction_timeout_ms,
        state=TxnState(v.transaction_status),
        partitions=parts,
        start_ms=v.transaction_start_timestamp_ms,
        last_update_ms=v.transaction_last_update_timestamp_ms,
        # odradek's last_producer_id is set only by an overflow (Kafka writes the current id here too)
        last_producer_id=v.previous_producer_id if version >= 1 and v.previous_producer_id != v.producer_id else -1,
        client_tv=v.client_transaction_version if version >= 1 else 0,
        prev_producer_id=v.previous_producer_id if version >= 1 else -1,
        next_producer_id=v.next_producer_id if version >= 1 else -1,
    )
