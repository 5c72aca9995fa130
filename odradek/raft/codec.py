"""Raft log batches <-> Kafka v2 record batches (the bytes on the wire and on disk)."""

from __future__ import annotations

import struct

from odradek.wire.messages.leader_change_message import LeaderChangeMessage, Voter
from odradek.wire.records import ControlRecordType, KeyedRecords, Record, build_batch, iter_batches

from .types import Batch

_CTRL_KEY = struct.Struct(">hh")


def data_batch(base_offset: int, epoch: int, records, timestamp: int = 0) -> Batch:
    records = tuple(records)
    raw = build_batch(
        [(None, r, (), timestamp) for r in records], base_offset=base_offset,
        partition_leader_epoch=epoch,
    )
    return Batch(base_offset, epoch, records, False, raw)


class Prepared:
    """A data batch's records made ahead, a part at a time (add), before its base offset and epoch
    are known: their values and the records section of the batch (a large metadata write's
    encoding then never holds the proposer's thread in one piece); proposed as one batch. The
    records are a wire KeyedRecords without keys (its section, framed by prepared_batch)."""

    def __init__(self, timestamp: int):
        self._records = KeyedRecords(timestamp)

    @property
    def timestamp(self) -> int:
        return self._records.timestamp

    def __len__(self) -> int:
        return len(self._records)

    @property
    def values(self) -> tuple[bytes, ...]:
        return tuple(v for _, v in self._records)

    def add(self, values: list[bytes]) -> None:
        self._records.add([(None, v) for v in values])

    def batch(self, base_offset: int, epoch: int) -> bytes:
        return self._records.batch(base_offset=base_offset, partition_leader_epoch=epoch)


def prepared_batch(base_offset: int, epoch: int, prepared: Prepared) -> Batch:
    """data_batch(base_offset, epoch, prepared.values, prepared.timestamp), from its made section."""
    return Batch(base_offset, epoch, prepared.values, False, prepared.batch(base_offset, epoch))


def leader_change_batch(base_offset: int, epoch: int, leader_id: int, voters, granting) -> Batch:
    """The LeaderChange control batch a new leader writes first in its epoch."""
    value = LeaderChangeMessage(
        version=0, leader_id=leader_id,
        voters=[Voter(voter_id=v) for v in sorted(voters)],
        granting_voters=[Voter(voter_id=v) for v in sorted(granting)],
    ).encode(0)
    key = _CTRL_KEY.pack(0, ControlRecordType.LEADER_CHANGE)
    raw = build_batch([Record(0, 0, 0, key, value, ())], base_offset=base_offset,
                      partition_leader_epoch=epoch, is_control=True, base_timestamp=0)
    return Batch(base_offset, epoch, (value,), True, raw)


def encode_batches(batches) -> bytes:
    return b"".join(b.raw for b in batches)


def decode_batches(buf) -> list[Batch]:
    out = []
    if not buf:
        return out
    mv = memoryview(buf)
    pos = 0
    for header, records in iter_batches(buf):
        size = header.batch_length + 12
        out.append(Batch(header.base_offset, header.partition_leader_epoch,
                         tuple(r.value for r in records), header.is_control,
                         bytes(mv[pos:pos + size])))
        pos += size
    return out
