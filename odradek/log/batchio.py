"""The per-append steps of a plain produce: check the batch (and its records), write it.

`plain_batch`, `check_records` and `pwrite_batch` come from the C module `_batchio` when it was
built (pip install compiles it; it is optional), else from the Python versions
below, which define the behaviour. tests/log/test_batchio.py checks that both
agree.
"""
from __future__ import annotations

import os
import struct
from typing import NamedTuple

from odradek.wire import records

_HEADER = records.HEADER_STRUCT.unpack_from
_BASE_OFFSET = struct.Struct(">q")  # both before the CRC'd range
_PARTITION_LEADER_EPOCH = struct.Struct(">i")
_HEADER_SIZE = records.BATCH_HEADER_SIZE
_LOG_OVERHEAD = records.LOG_OVERHEAD
_MIN_BATCH_LENGTH = records.MIN_BATCH_LENGTH
_MIN_RECORD_SIZE = records.MIN_RECORD_SIZE
_RECORDS_OFFSET = records.RECORDS_OFFSET
_ATTRIBUTES_OFFSET = records.ATTRIBUTES_OFFSET
_CODEC_MASK = records.COMPRESSION_CODEC_MASK
_TXN_OR_CONTROL = records.TRANSACTIONAL_FLAG_MASK | records.CONTROL_FLAG_MASK
_crc32c = records.crc32c


CHECK_OK, CHECK_INVALID, CHECK_OFFSETS = 0, 1, 2


def _varint(data, pos: int, end: int, max_bytes: int) -> tuple[int, int]:
    """(zigzag value, next position); ValueError when truncated or too long."""
    raw = shift = 0
    for i in range(max_bytes):
        if pos >= end:
            raise ValueError("truncated varint")
        b = data[pos]
        pos += 1
        raw |= (b & 0x7F) << shift
        if not b & 0x80:
            return (raw >> 1) ^ -(raw & 1), pos
        shift += 7
    raise ValueError("varint too long")


def py_check_records(section, count: int, check_offsets: bool) -> int:
    """Walk ``count`` records that must fill ``section`` exactly, as Kafka's
    DefaultRecord.readFrom reads them: CHECK_INVALID for a bad size, count or field
    (Kafka: INVALID_RECORD), CHECK_OFFSETS when check_offsets and the offset deltas
    are not 0..count-1, else CHECK_OK. Negative key/value lengths mean null; a
    header key may not be null."""
    data = memoryview(section).cast("B") if not isinstance(section, (bytes, bytearray)) else section
    end = len(data)
    pos = 0
    offsets_ok = True
    if count < 0:
        return CHECK_INVALID
    try:
        for i in range(count):
            size, pos = _varint(data, pos, end, 5)
            if size < 0 or size > end - pos or size == 0:
                return CHECK_INVALID
            rec_end = pos + size
            pos += 1  # attributes
            _, pos = _varint(data, pos, rec_end, 10)  # timestamp delta
            delta, pos = _varint(data, pos, rec_end, 5)
            offsets_ok = offsets_ok and delta == i
            for _kv in range(2):
                n, pos = _varint(data, pos, rec_end, 5)
                if n > 0:
                    if n > rec_end - pos:
                        return CHECK_INVALID
                    pos += n
            headers, pos = _varint(data, pos, rec_end, 5)
            if headers < 0:
                return CHECK_INVALID
            for _h in range(headers):
                n, pos = _varint(data, pos, rec_end, 5)
                if n < 0 or n > rec_end - pos:
                    return CHECK_INVALID
                pos += n
                n, pos = _varint(data, pos, rec_end, 5)
                if n > 0:
                    if n > rec_end - pos:
                        return CHECK_INVALID
                    pos += n
            if pos != rec_end:
                return CHECK_INVALID
    except ValueError:
        return CHECK_INVALID
    if pos != end:
        return CHECK_INVALID
    return CHECK_OFFSETS if check_offsets and not offsets_ok else CHECK_OK


def py_plain_batch(record_set, max_bytes: int, check_crc: bool):
    """(batch_length, last_offset_delta, max_timestamp, producer_id, producer_epoch,
    base_sequence, records_count) when ``record_set`` is exactly one well-formed,
    dense (Kafka's LogValidator), uncompressed, non-transactional, non-control batch of at most
    ``max_bytes`` bytes whose CRC32C matches (when ``check_crc``) and whose records
    are well formed (py_check_records); else None, and
    the caller's general path names the error."""
    n = len(record_set)
    if n < _HEADER_SIZE:
        return None
    (_, blen, _, magic, crc, attrs, lod, _, max_ts, pid, pep, bseq,
     count) = _HEADER(record_set, 0)
    if (blen + _LOG_OVERHEAD != n or magic != 2 or attrs & _CODEC_MASK  # compressed: general path
            or blen < _MIN_BATCH_LENGTH or count < 1
            or lod != count - 1 or n > max_bytes or attrs & _TXN_OR_CONTROL
            or count * _MIN_RECORD_SIZE > n - _RECORDS_OFFSET):
        return None
    if check_crc and _crc32c(memoryview(record_set)[_ATTRIBUTES_OFFSET:]) != crc:
        return None
    if py_check_records(memoryview(record_set)[_RECORDS_OFFSET:], count, False) != CHECK_OK:
        return None
    return blen, lod, max_ts, pid, pep, bseq, count


def rewritten(record_set, base_offset: int, leader_epoch: int | None) -> bytearray:
    """A copy of the batch with baseOffset (and partitionLeaderEpoch) replaced."""
    if not -2**63 <= base_offset < 2**63 or (
            leader_epoch is not None and not -2**31 <= leader_epoch < 2**31):
        raise OverflowError("base_offset must be an int64 and leader_epoch an int32")
    buf = bytearray(record_set)
    _BASE_OFFSET.pack_into(buf, 0, base_offset)
    if leader_epoch is not None:
        _PARTITION_LEADER_EPOCH.pack_into(buf, records.PARTITION_LEADER_EPOCH_OFFSET, leader_epoch)
    return buf


def py_pwrite_batch(fd: int, position: int, record_set, base_offset: int,
                    leader_epoch: int | None) -> None:
    """Write the batch at ``position`` with its offsets assigned (see rewritten)."""
    if len(record_set) < _HEADER_SIZE:
        raise ValueError("record set shorter than a batch header")
    view = memoryview(rewritten(record_set, base_offset, leader_epoch))
    done = 0
    while done < len(view):
        done += os.pwrite(fd, view[done:], position + done)


class PyAppendInfo(NamedTuple):
    """What PartitionLog.append returns (the C module's AppendInfo has the same fields)."""
    base_offset: int
    last_offset: int
    log_append_time_ms: int      # -1 unless the topic/append uses LogAppendTime
    log_start_offset: int
    record_count: int
    max_timestamp: int
    duplicate: bool = False      # an idempotent retry: nothing written, original offsets


class PySegmentTail:
    """SegmentTail without the C module: the segment's end state is plain attributes, and
    append_plain only checks - it returns the header (py_plain_batch), "not written", and
    PartitionLog's Python path does the rest of the append. The C SegmentTail holds the
    same state as C fields and, when it can (no producer id, no roll due, a timestamp in
    bounds, a real file), also writes the batch, updates that state as
    LogSegment.append_batch does and returns the AppendInfo, all in the same call."""

    fd = -1

    def append_plain(self, record_set, max_bytes: int, check_crc: bool, now_ms: int,
                     timestamp_after_max_ms: int, segment_bytes: int, max_segment_ms: int,
                     leader_epoch: int | None, log_start_offset: int):
        return py_plain_batch(record_set, max_bytes, check_crc)


try:
    from ._batchio import AppendInfo, SegmentTail, check_records, plain_batch, pwrite_batch

    def append_info(base_offset: int, last_offset: int, log_append_time_ms: int,
                    log_start_offset: int, record_count: int, max_timestamp: int,
                    duplicate: bool = False) -> AppendInfo:
        return AppendInfo((base_offset, last_offset, log_append_time_ms, log_start_offset,
                           record_count, max_timestamp, duplicate))

    ACCELERATED = True
except ImportError:  # not built: same behaviour, slower
    plain_batch, check_records, pwrite_batch = py_plain_batch, py_check_records, py_pwrite_batch
    SegmentTail, AppendInfo = PySegmentTail, PyAppendInfo
    append_info = PyAppendInfo
    ACCELERATED = False
