"""Kafka record batches, magic v2 (Kafka's DefaultRecordBatch / DefaultRecord).

Batch layout (big-endian), 61-byte header then the records section:

    0  baseOffset           int64    \\ LOG_OVERHEAD (12 bytes)
    8  batchLength          int32    /  = bytes after this field
   12  partitionLeaderEpoch int32
   16  magic                int8     (2)
   17  crc                  uint32   CRC32C of bytes [21, end)
   21  attributes           int16    bits 0-2 codec, 3 timestamp type, 4 transactional,
                                     5 control, 6 delete horizon
   23  lastOffsetDelta      int32
   27  baseTimestamp        int64
   35  maxTimestamp         int64
   43  producerId           int64
   51  producerEpoch        int16
   53  baseSequence         int32
   57  recordsCount         int32
   61  records (compressed as a whole when codec != 0)

Record: varint length, int8 attributes, varlong timestampDelta, varint offsetDelta,
varint keyLen + key (-1 null), varint valueLen + value (-1 null), varint header count,
then per header: varint keyLen + utf-8 key, varint valueLen + value (-1 null).

The hot paths (header read, validation, offset rewrite) never decode records and
never decompress. Every malformed input raises a WireError subclass.
"""

from __future__ import annotations

import enum
import struct
from typing import Iterable, Iterator, NamedTuple, Sequence

try:  # the C extension built by pip install; else the crc32c package (the same function)
    from odradek.wire._crc32c import crc32c
except ImportError:
    from crc32c import crc32c

from odradek.wire import compression as _compression
from odradek.wire.exceptions import (
    CorruptRecordError,
    InvalidRecordError,
    MalformedError,
    RecordCountError,
    TruncatedError,
    UnsupportedMagicError,
    WireError,
)
from odradek.wire.varint import read_varint, read_varlong, write_varint, write_varlong

__all__ = [
    "BATCH_HEADER_SIZE",
    "LOG_OVERHEAD",
    "RECORD_BATCH_OVERHEAD",
    "MAGIC",
    "NO_TIMESTAMP",
    "NO_PRODUCER_ID",
    "NO_PRODUCER_EPOCH",
    "NO_SEQUENCE",
    "NO_PARTITION_LEADER_EPOCH",
    "COMPRESSION_CODEC_MASK",
    "TIMESTAMP_TYPE_MASK",
    "TRANSACTIONAL_FLAG_MASK",
    "CONTROL_FLAG_MASK",
    "DELETE_HORIZON_FLAG_MASK",
    "DEFAULT_MAX_DECOMPRESSED",
    "TimestampType",
    "ControlRecordType",
    "BatchHeader",
    "Record",
    "read_batch_header",
    "iter_batch_headers",
    "validate_batch",
    "validate_record_set",
    "set_base_offset",
    "set_partition_leader_epoch",
    "set_log_append_time",
    "compute_crc",
    "decode_records",
    "iter_batches",
    "encode_record",
    "build_batch",
    "build_control_batch",
    "parse_control_record",
]

HEADER_STRUCT = struct.Struct(">qiibIhiqqqhii")
BATCH_HEADER_SIZE = 61
LOG_OVERHEAD = 12  # baseOffset + batchLength
RECORD_BATCH_OVERHEAD = BATCH_HEADER_SIZE
MIN_BATCH_LENGTH = BATCH_HEADER_SIZE - LOG_OVERHEAD  # 49
MAGIC = 2

# Field offsets inside a batch.
BASE_OFFSET_OFFSET = 0
LENGTH_OFFSET = 8
PARTITION_LEADER_EPOCH_OFFSET = 12
MAGIC_OFFSET = 16
CRC_OFFSET = 17
ATTRIBUTES_OFFSET = 21
LAST_OFFSET_DELTA_OFFSET = 23
BASE_TIMESTAMP_OFFSET = 27
MAX_TIMESTAMP_OFFSET = 35
PRODUCER_ID_OFFSET = 43
RECORDS_COUNT_OFFSET = 57
RECORDS_OFFSET = 61

COMPRESSION_CODEC_MASK = 0x07
TIMESTAMP_TYPE_MASK = 0x08
TRANSACTIONAL_FLAG_MASK = 0x10
CONTROL_FLAG_MASK = 0x20
DELETE_HORIZON_FLAG_MASK = 0x40

NO_TIMESTAMP = -1
NO_PRODUCER_ID = -1
NO_PRODUCER_EPOCH = -1
NO_SEQUENCE = -1
NO_PARTITION_LEADER_EPOCH = -1

# Smallest possible encoded record: length, attributes, tsDelta, offsetDelta,
# keyLen, valueLen, headerCount, one byte each.
MIN_RECORD_SIZE = 7

DEFAULT_MAX_DECOMPRESSED = 64 * 1024 * 1024

_I64 = struct.Struct(">q")
_I32 = struct.Struct(">i")
_U32 = struct.Struct(">I")
_I16 = struct.Struct(">h")
_CTRL_KEY = struct.Struct(">hh")
_CTRL_VALUE = struct.Struct(">hi")


class TimestampType(enum.IntEnum):
    CREATE_TIME = 0
    LOG_APPEND_TIME = 1


class ControlRecordType(enum.IntEnum):
    """Kafka's ControlRecordType (type field of a control record's key)."""

    ABORT = 0
    COMMIT = 1
    LEADER_CHANGE = 2
    SNAPSHOT_HEADER = 3
    SNAPSHOT_FOOTER = 4
    KRAFT_VERSION = 5
    KRAFT_VOTERS = 6


class BatchHeader(NamedTuple):
    base_offset: int
    batch_length: int
    partition_leader_epoch: int
    magic: int
    crc: int
    attributes: int
    last_offset_delta: int
    base_timestamp: int
    max_timestamp: int
    producer_id: int
    producer_epoch: int
    base_sequence: int
    records_count: int

    @property
    def compression(self) -> int:
        return self.attributes & COMPRESSION_CODEC_MASK

    @property
    def timestamp_type(self) -> TimestampType:
        return TimestampType.LOG_APPEND_TIME if self.attributes & TIMESTAMP_TYPE_MASK else TimestampType.CREATE_TIME

    @property
    def is_transactional(self) -> bool:
        return bool(self.attributes & TRANSACTIONAL_FLAG_MASK)

    @property
    def is_control(self) -> bool:
        return bool(self.attributes & CONTROL_FLAG_MASK)

    @property
    def has_delete_horizon(self) -> bool:
        return bool(self.attributes & DELETE_HORIZON_FLAG_MASK)

    @property
    def last_offset(self) -> int:
        return self.base_offset + self.last_offset_delta

    @property
    def next_offset(self) -> int:
        return self.base_offset + self.last_offset_delta + 1

    @property
    def size_in_bytes(self) -> int:
        return self.batch_length + LOG_OVERHEAD

    @property
    def has_producer_id(self) -> bool:
        return self.producer_id >= 0

    @property
    def last_sequence(self) -> int:
        """Sequence of the last record (wraps at int32 max, as in Kafka); -1 if none."""
        if self.base_sequence == NO_SEQUENCE:
            return NO_SEQUENCE
        return (self.base_sequence + self.last_offset_delta) & 0x7FFFFFFF

    @property
    def delete_horizon_ms(self) -> int | None:
        """With the delete-horizon flag, base_timestamp holds the horizon (KIP-534)."""
        return self.base_timestamp if self.has_delete_horizon else None


class Record(NamedTuple):
    """One decoded record; offsets and timestamps are deltas against its batch."""

    attributes: int = 0
    timestamp_delta: int = 0
    offset_delta: int = 0
    key: bytes | None = None
    value: bytes | None = None
    headers: tuple[tuple[str, bytes | None], ...] | list[tuple[str, bytes | None]] = ()

    def offset(self, header: BatchHeader) -> int:
        return header.base_offset + self.offset_delta

    def timestamp(self, header: BatchHeader) -> int:
        """Absolute timestamp: the batch's max_timestamp under LOG_APPEND_TIME."""
        if header.attributes & TIMESTAMP_TYPE_MASK:
            return header.max_timestamp
        return header.base_timestamp + self.timestamp_delta


# ------------------------------------------------------------------------------ header


def _as_bytes_view(buf) -> memoryview:
    mv = buf if isinstance(buf, memoryview) else memoryview(buf)
    if mv.format != "B" or mv.ndim != 1:
        mv = mv.cast("B")
    return mv


_unpack_header = HEADER_STRUCT.unpack_from
_make_header = BatchHeader._make


def read_batch_header(buf, pos: int = 0) -> BatchHeader:
    """Parse the 61-byte header at ``pos``; checks only that batch_length >= 49."""
    if len(buf) - pos < BATCH_HEADER_SIZE or pos < 0:
        raise TruncatedError(f"need {BATCH_HEADER_SIZE} bytes for a batch header, have {len(buf) - pos}")
    h = BatchHeader._make(HEADER_STRUCT.unpack_from(buf, pos))
    if h.batch_length < MIN_BATCH_LENGTH:
        raise CorruptRecordError(f"batch length {h.batch_length} below minimum {MIN_BATCH_LENGTH}")
    return h


def iter_batch_headers(buf, pos: int = 0) -> Iterator[tuple[int, BatchHeader]]:
    """Yield (position, header) for each complete batch; stop quietly at a partial tail."""
    end = len(buf)
    unpack = HEADER_STRUCT.unpack_from
    make = BatchHeader._make
    while end - pos >= BATCH_HEADER_SIZE:
        h = make(unpack(buf, pos))
        if h.batch_length < MIN_BATCH_LENGTH:
            raise CorruptRecordError(f"batch length {h.batch_length} below minimum {MIN_BATCH_LENGTH}")
        size = h.batch_length + LOG_OVERHEAD
        if pos + size > end:
            return
        yield pos, h
        pos += size


def compute_crc(buf, pos: int = 0, batch_length: int | None = None) -> int:
    """CRC32C over attributes..end of the batch at ``pos``."""
    mv = _as_bytes_view(buf)
    if batch_length is None:
        batch_length = _I32.unpack_from(mv, pos + LENGTH_OFFSET)[0]
    return crc32c(mv[pos + ATTRIBUTES_OFFSET : pos + LOG_OVERHEAD + batch_length])


def validate_batch(buf, pos: int = 0, *, require_dense: bool = False) -> BatchHeader:
    """Check one batch without decompressing it; return its header.

    Raises UnsupportedMagicError (magic != 2), TruncatedError (the buffer ends before
    the batch does), CorruptRecordError (bad length, CRC, counts). With
    ``require_dense`` (what a broker demands of a Produce), the batch must hold at
    least one record and ``last_offset_delta == records_count - 1``, else
    InvalidRecordError, as Kafka's LogValidator.
    """
    n = len(buf)
    if n - pos > MAGIC_OFFSET and buf[pos + MAGIC_OFFSET] != MAGIC:
        raise UnsupportedMagicError(f"unsupported record batch magic {buf[pos + MAGIC_OFFSET]}")
    # read_batch_header and compute_crc inlined: this runs once per produced batch
    if n - pos < BATCH_HEADER_SIZE or pos < 0:
        raise TruncatedError(f"need {BATCH_HEADER_SIZE} bytes for a batch header, have {n - pos}")
    h = _make_header(_unpack_header(buf, pos))
    if h.batch_length < MIN_BATCH_LENGTH:
        raise CorruptRecordError(f"batch length {h.batch_length} below minimum {MIN_BATCH_LENGTH}")
    size = h.batch_length + LOG_OVERHEAD
    if pos + size > n:
        raise TruncatedError(f"batch of {size} bytes at {pos} extends past buffer of {n}")
    if h.records_count < 0:
        raise CorruptRecordError(f"negative record count {h.records_count}")
    if h.last_offset_delta < 0:
        raise CorruptRecordError(f"negative last offset delta {h.last_offset_delta}")
    if h.records_count > h.last_offset_delta + 1:
        raise CorruptRecordError(
            f"record count {h.records_count} exceeds offset range {h.last_offset_delta + 1}"
        )
    body = size - RECORDS_OFFSET
    if h.attributes & COMPRESSION_CODEC_MASK == 0 and h.records_count * MIN_RECORD_SIZE > body:
        raise RecordCountError(f"record count {h.records_count} cannot fit in {body} bytes")
    t = type(buf)
    mv = memoryview(buf) if t is bytes or t is bytearray else _as_bytes_view(buf)
    crc = crc32c(mv[pos + ATTRIBUTES_OFFSET : pos + size])
    if crc != h.crc:
        raise CorruptRecordError(f"record batch CRC mismatch: stored {h.crc:#010x}, computed {crc:#010x}")
    if require_dense:
        if h.records_count == 0:
            raise InvalidRecordError("record batch holds no records")
        if h.last_offset_delta != h.records_count - 1:
            raise InvalidRecordError(
                f"inconsistent batch offset range {h.last_offset_delta + 1} and record count {h.records_count}"
            )
    return h


def validate_record_set(buf, *, require_dense: bool = False) -> list[BatchHeader]:
    """Validate a Produce ``records`` field: 1..n whole batches and nothing else.

    Every failure, including a partial trailing batch, is a CorruptRecordError
    (UnsupportedMagicError / InvalidRecordError being subclasses or kept as is).
    """
    n = len(buf)
    if n == 0:
        raise CorruptRecordError("empty record set")
    headers = []
    pos = 0
    try:
        while pos < n:
            h = validate_batch(buf, pos, require_dense=require_dense)
            headers.append(h)
            pos += h.batch_length + LOG_OVERHEAD
    except TruncatedError as e:
        raise CorruptRecordError(f"partial record batch at position {pos}: {e}") from e
    return headers


# ----------------------------------------------------------------- in-place header edits


def set_base_offset(buf, pos: int, offset: int) -> None:
    """Rewrite baseOffset (outside the CRC)."""
    _I64.pack_into(buf, pos + BASE_OFFSET_OFFSET, offset)


def set_partition_leader_epoch(buf, pos: int, epoch: int) -> None:
    """Rewrite partitionLeaderEpoch (outside the CRC)."""
    _I32.pack_into(buf, pos + PARTITION_LEADER_EPOCH_OFFSET, epoch)


def set_log_append_time(buf, pos: int, timestamp: int) -> None:
    """Mark the batch LOG_APPEND_TIME with max_timestamp = ``timestamp``; refresh the CRC."""
    (attrs,) = _I16.unpack_from(buf, pos + ATTRIBUTES_OFFSET)
    _I16.pack_into(buf, pos + ATTRIBUTES_OFFSET, attrs | TIMESTAMP_TYPE_MASK)
    _I64.pack_into(buf, pos + MAX_TIMESTAMP_OFFSET, timestamp)
    _U32.pack_into(buf, pos + CRC_OFFSET, compute_crc(buf, pos))


def set_max_timestamp(buf, pos: int, timestamp_type: int, timestamp: int) -> None:
    """Kafka's setMaxTimestamp: set the timestamp type bit and max_timestamp; refresh the CRC."""
    (attrs,) = _I16.unpack_from(buf, pos + ATTRIBUTES_OFFSET)
    attrs = (attrs | TIMESTAMP_TYPE_MASK) if timestamp_type == TimestampType.LOG_APPEND_TIME else (attrs & ~TIMESTAMP_TYPE_MASK)
    _I16.pack_into(buf, pos + ATTRIBUTES_OFFSET, attrs)
    _I64.pack_into(buf, pos + MAX_TIMESTAMP_OFFSET, timestamp)
    _U32.pack_into(buf, pos + CRC_OFFSET, compute_crc(buf, pos))


# ------------------------------------------------------------------------------ decode


def _decode_record_section(data, count: int) -> list[Record]:
    """Decode ``count`` records filling ``data`` exactly (data is bytes)."""
    records = []
    append = records.append
    pos = 0
    end = len(data)
    for _ in range(count):
        length, pos = read_varint(data, pos)
        if length < MIN_RECORD_SIZE - 1 or pos + length > end:
            raise CorruptRecordError(f"invalid record length {length}")
        rec_end = pos + length
        attributes = data[pos]
        pos += 1
        ts_delta, pos = read_varlong(data, pos)
        off_delta, pos = read_varint(data, pos)
        klen, pos = read_varint(data, pos)
        if klen < 0:
            if klen != -1:
                raise CorruptRecordError(f"invalid key length {klen}")
            key = None
        else:
            if pos + klen > rec_end:
                raise CorruptRecordError("record key overruns record")
            key = data[pos : pos + klen]
            pos += klen
        vlen, pos = read_varint(data, pos)
        if vlen < 0:
            if vlen != -1:
                raise CorruptRecordError(f"invalid value length {vlen}")
            value = None
        else:
            if pos + vlen > rec_end:
                raise CorruptRecordError("record value overruns record")
            value = data[pos : pos + vlen]
            pos += vlen
        nheaders, pos = read_varint(data, pos)
        if nheaders < 0 or nheaders > rec_end - pos:
            raise CorruptRecordError(f"invalid header count {nheaders}")
        headers = []
        for _ in range(nheaders):
            hklen, pos = read_varint(data, pos)
            if hklen < 0 or pos + hklen > rec_end:
                raise CorruptRecordError(f"invalid header key length {hklen}")
            hkey = data[pos : pos + hklen].decode("utf-8")
            pos += hklen
            hvlen, pos = read_varint(data, pos)
            if hvlen < 0:
                if hvlen != -1:
                    raise CorruptRecordError(f"invalid header value length {hvlen}")
                hval = None
            else:
                if pos + hvlen > rec_end:
                    raise CorruptRecordError("header value overruns record")
                hval = data[pos : pos + hvlen]
                pos += hvlen
            headers.append((hkey, hval))
        if pos != rec_end:
            raise CorruptRecordError(f"record size mismatch: declared {length}, read {length + pos - rec_end}")
        append(Record(attributes, ts_delta, off_delta, key, value, headers))
    if pos != end:
        raise CorruptRecordError(f"{end - pos} unexpected bytes after {count} records")
    return records


def decode_records(
    buf,
    pos: int = 0,
    max_decompressed: int = DEFAULT_MAX_DECOMPRESSED,
    *,
    check_crc: bool = True,
) -> tuple[BatchHeader, list[Record]]:
    """Decode the batch at ``pos`` into its header and records (decompressing, bounded).

    Raises TruncatedError if the buffer ends before the batch does, and
    CorruptRecordError (or its subclasses UnsupportedMagicError, CompressionError) for
    anything malformed.
    """
    mv = _as_bytes_view(buf)
    if check_crc:
        h = validate_batch(mv, pos)
    else:
        if len(mv) - pos > MAGIC_OFFSET and mv[pos + MAGIC_OFFSET] != MAGIC:
            raise UnsupportedMagicError(f"unsupported record batch magic {mv[pos + MAGIC_OFFSET]}")
        h = read_batch_header(mv, pos)
        if pos + h.batch_length + LOG_OVERHEAD > len(mv):
            raise TruncatedError("batch extends past buffer")
        if h.records_count < 0:
            raise CorruptRecordError(f"negative record count {h.records_count}")
    section = mv[pos + RECORDS_OFFSET : pos + LOG_OVERHEAD + h.batch_length]
    codec = h.attributes & COMPRESSION_CODEC_MASK
    if codec:
        data = _compression.decompress(codec, section, max_decompressed)
    else:
        data = bytes(section)
    if h.records_count * MIN_RECORD_SIZE > len(data):
        raise CorruptRecordError(f"record count {h.records_count} cannot fit in {len(data)} bytes")
    try:
        return h, _decode_record_section(data, h.records_count)
    except CorruptRecordError:
        raise
    except (TruncatedError, MalformedError, IndexError, UnicodeDecodeError, ValueError) as e:
        raise CorruptRecordError(f"malformed record: {e}") from e


def iter_batches(buf, max_decompressed: int = DEFAULT_MAX_DECOMPRESSED) -> Iterator[tuple[BatchHeader, list[Record]]]:
    """Decode every complete batch in ``buf`` (e.g. a fetched record set)."""
    for pos, _ in iter_batch_headers(buf):
        yield decode_records(buf, pos, max_decompressed)


# ------------------------------------------------------------------------------ encode


def _enc_bytes(out: bytearray, b) -> None:
    if b is None:
        out += b"\x01"  # zigzag(-1)
    else:
        out += write_varint(len(b))
        out += b


def encode_record(
    offset_delta: int,
    timestamp_delta: int,
    key: bytes | None,
    value: bytes | None,
    headers: Iterable[tuple[str | bytes, bytes | None]] = (),
    attributes: int = 0,
) -> bytes:
    """One record with its length prefix."""
    body = bytearray()
    body.append(attributes & 0xFF)
    body += write_varlong(timestamp_delta)
    body += write_varint(offset_delta)
    _enc_bytes(body, key)
    _enc_bytes(body, value)
    headers = list(headers or ())
    body += write_varint(len(headers))
    for hk, hv in headers:
        if hk is None:
            raise ValueError("header key cannot be null")
        _enc_bytes(body, hk.encode("utf-8") if isinstance(hk, str) else hk)
        _enc_bytes(body, hv)
    return write_varint(len(body)) + bytes(body)


def _normalise(records: Sequence, base_timestamp: int | None):
    """-> list of (offset_delta, timestamp or None, key, value, headers, attributes)."""
    out = []
    for i, r in enumerate(records):
        if isinstance(r, Record):
            out.append((r.offset_delta, ("delta", r.timestamp_delta), r.key, r.value, r.headers, r.attributes))
        elif isinstance(r, tuple):
            if not 1 <= len(r) <= 4:
                raise ValueError("record tuples are (key, value[, headers[, timestamp]])")
            key = r[0]
            value = r[1] if len(r) > 1 else None
            headers = r[2] if len(r) > 2 and r[2] is not None else ()
            ts = r[3] if len(r) > 3 else None
            out.append((i, ts, key, value, headers, 0))
        else:
            raise TypeError(f"cannot build a record from {type(r).__name__}")
    return out


# the zigzag varints of 0..4095 (offset deltas and lengths of plain records: _plain_section)
_SMALL_VARINTS = [write_varint(i) for i in range(1 << 12)]


def _plain_section(records: Sequence, base_timestamp: int, first_delta: int = 0, body: bytearray | None = None):
    """The records section of ``records`` when every one is a ``(key, value, headers, timestamp)``
    tuple without headers (a coordinator's records, most produced ones): the bytes encode_record
    gives, in one loop, and the largest timestamp; None for anything else (build_batch's general
    path). ``first_delta``: the offset delta of the first (a section made a part at a time,
    appended to ``body``)."""
    small = _SMALL_VARINTS
    n_small = len(small)
    body = bytearray() if body is None else body
    max_ts = None
    for i, r in enumerate(records, first_delta):
        if type(r) is not tuple or len(r) != 4 or r[2]:
            return None
        key, value, _, ts = r
        if ts is None or ts == base_timestamp:
            rec = bytearray(b"\x00\x00")  # attributes, timestamp delta 0
            ts = base_timestamp
        else:
            rec = bytearray(b"\x00")
            rec += write_varlong(ts - base_timestamp)
        rec += small[i] if i < n_small else write_varint(i)
        if key is None:
            rec += b"\x01"  # zigzag(-1)
        else:
            n = len(key)
            rec += small[n] if n < n_small else write_varint(n)
            rec += key
        if value is None:
            rec += b"\x01"
        else:
            n = len(value)
            rec += small[n] if n < n_small else write_varint(n)
            rec += value
        rec += b"\x00"  # no headers
        n = len(rec)
        body += small[n] if n < n_small else write_varint(n)
        body += rec
        if max_ts is None or ts > max_ts:
            max_ts = ts
    return body, max_ts


def build_batch(
    records: Sequence,
    *,
    base_offset: int = 0,
    compression: int = 0,
    compression_level: int | None = None,
    timestamp_type: int = TimestampType.CREATE_TIME,
    base_timestamp: int | None = None,
    max_timestamp: int | None = None,
    producer_id: int = NO_PRODUCER_ID,
    producer_epoch: int = NO_PRODUCER_EPOCH,
    base_sequence: int = NO_SEQUENCE,
    is_transactional: bool = False,
    is_control: bool = False,
    partition_leader_epoch: int = NO_PARTITION_LEADER_EPOCH,
    last_offset_delta: int | None = None,
    delete_horizon: bool = False,
) -> bytes:
    """Encode a complete v2 batch (header, CRC, optionally compressed records).

    ``records`` items are either
      * tuples ``(key, value[, headers[, timestamp]])``: offset_delta is the item's
        index, timestamp absolute (None = base_timestamp); or
      * ``Record`` objects: their offset_delta and timestamp_delta (relative to
        ``base_timestamp``) are kept as given, which is how a compacted batch is
        rewritten with gaps.
    ``base_timestamp`` defaults to the first tuple timestamp, else 0 when Records are
    given, else -1 (NO_TIMESTAMP). ``max_timestamp`` defaults to the largest record
    timestamp (under LOG_APPEND_TIME pass it: it is the append time).
    ``last_offset_delta`` defaults to the largest offset delta (0 for no records).
    """
    plain = _plain_section(records, base_timestamp) if records and base_timestamp is not None else None
    if plain is not None:
        body, max_ts = plain
        count = len(records)
        max_delta = count - 1
    else:
        body, max_ts, max_delta, count, base_timestamp = _general_section(records, base_timestamp)
    if max_timestamp is None:
        max_timestamp = base_timestamp if max_ts is None else max_ts
    if last_offset_delta is None:
        last_offset_delta = max_delta
    if compression:
        body = _compression.compress(compression, body, compression_level)
    return _framed(body, base_offset, _attributes(compression, timestamp_type, is_transactional, is_control,
                                                   delete_horizon),
                   partition_leader_epoch, last_offset_delta, base_timestamp, max_timestamp, producer_id,
                   producer_epoch, base_sequence, count)


class KeyedRecords(list):
    """(key | None, value | None) records whose batch's records section is encoded as they are added
    (offset deltas from 0, every record at ``timestamp``): a large write's batch made ready a part at a
    time, framed at once by ``batch`` (build_batch's bytes for the same records at that base timestamp).
    Add records only through ``add`` (the section follows the list)."""

    def __init__(self, timestamp: int):
        super().__init__()
        self.timestamp = timestamp
        self.section = bytearray()

    def add(self, records: Sequence[tuple[bytes | None, bytes | None]]) -> None:
        _plain_section([(k, v, (), None) for k, v in records], self.timestamp, len(self), self.section)
        self.extend(records)

    def batch(self, producer_id: int = NO_PRODUCER_ID, producer_epoch: int = NO_PRODUCER_EPOCH,
              is_transactional: bool = False, base_offset: int = 0,
              partition_leader_epoch: int = NO_PARTITION_LEADER_EPOCH) -> bytes:
        """The records' batch (base offset 0 by default: a partition's log sets it)."""
        return _framed(self.section, base_offset,
                       _attributes(0, TimestampType.CREATE_TIME, is_transactional, False, False),
                       partition_leader_epoch, max(len(self) - 1, 0), self.timestamp, self.timestamp,
                       producer_id, producer_epoch, NO_SEQUENCE, len(self))


def _general_section(records: Sequence, base_timestamp: int | None):
    """build_batch's records section of any records: (section, largest timestamp, largest offset
    delta, count, the base timestamp)."""
    items = _normalise(records, base_timestamp)
    if base_timestamp is None:
        first = next((ts for _, ts, *_ in items if isinstance(ts, int)), None)
        if first is not None:
            base_timestamp = first
        elif any(isinstance(ts, tuple) for _, ts, *_ in items):
            base_timestamp = 0
        else:
            base_timestamp = NO_TIMESTAMP
    body = bytearray()
    max_ts = None
    max_delta = 0
    for off_delta, ts, key, value, headers, attrs in items:
        if isinstance(ts, tuple):
            ts_delta = ts[1]
        elif ts is None:
            ts_delta = 0
        else:
            ts_delta = ts - base_timestamp
        t = base_timestamp + ts_delta
        if max_ts is None or t > max_ts:
            max_ts = t
        if off_delta > max_delta:
            max_delta = off_delta
        body += encode_record(off_delta, ts_delta, key, value, headers, attrs)
    return body, max_ts, max_delta, len(items), base_timestamp


def _attributes(compression: int, timestamp_type: int, is_transactional: bool, is_control: bool,
                  delete_horizon: bool) -> int:
    """A batch's attributes field."""
    attributes = compression & COMPRESSION_CODEC_MASK
    if timestamp_type == TimestampType.LOG_APPEND_TIME:
        attributes |= TIMESTAMP_TYPE_MASK
    if is_transactional:
        attributes |= TRANSACTIONAL_FLAG_MASK
    if is_control:
        attributes |= CONTROL_FLAG_MASK
    if delete_horizon:
        attributes |= DELETE_HORIZON_FLAG_MASK
    return attributes


def _framed(body, base_offset: int, attributes: int, partition_leader_epoch: int, last_offset_delta: int,
            base_timestamp: int, max_timestamp: int, producer_id: int, producer_epoch: int, base_sequence: int,
            count: int) -> bytes:
    """The batch of the records section ``body``: its header and CRC."""
    batch_length = BATCH_HEADER_SIZE - LOG_OVERHEAD + len(body)
    out = bytearray(BATCH_HEADER_SIZE + len(body))
    HEADER_STRUCT.pack_into(
        out,
        0,
        base_offset,
        batch_length,
        partition_leader_epoch,
        MAGIC,
        0,
        attributes,
        last_offset_delta,
        base_timestamp,
        max_timestamp,
        producer_id,
        producer_epoch,
        base_sequence,
        count,
    )
    out[RECORDS_OFFSET:] = body
    _U32.pack_into(out, CRC_OFFSET, crc32c(memoryview(out)[ATTRIBUTES_OFFSET:]))
    return bytes(out)



# ----------------------------------------------------------------------------- control


def build_control_batch(
    commit: bool,
    producer_id: int,
    producer_epoch: int,
    coordinator_epoch: int,
    timestamp: int,
    base_offset: int = 0,
    partition_leader_epoch: int = NO_PARTITION_LEADER_EPOCH,
) -> bytes:
    """A transaction marker batch (transactional + control, one record)."""
    rtype = ControlRecordType.COMMIT if commit else ControlRecordType.ABORT
    rec = Record(
        key=_CTRL_KEY.pack(0, rtype),
        value=_CTRL_VALUE.pack(0, coordinator_epoch),
    )
    return build_batch(
        [rec],
        base_offset=base_offset,
        base_timestamp=timestamp,
        producer_id=producer_id,
        producer_epoch=producer_epoch,
        base_sequence=NO_SEQUENCE,
        is_transactional=True,
        is_control=True,
        partition_leader_epoch=partition_leader_epoch,
    )


def parse_control_record(record: Record) -> tuple[int, int | None]:
    """(control type, coordinator epoch); the epoch is None for non-marker types.

    Types Kafka knows come back as ControlRecordType members; unknown ones as int.
    """
    key = record.key
    if key is None or len(key) < 4:
        raise CorruptRecordError("control record key too short")
    version, rtype = _CTRL_KEY.unpack_from(key, 0)
    if version < 0:
        raise CorruptRecordError(f"invalid control record key version {version}")
    try:
        rtype = ControlRecordType(rtype)
    except ValueError:
        return rtype, None
    if rtype not in (ControlRecordType.ABORT, ControlRecordType.COMMIT):
        return rtype, None
    value = record.value
    if value is None or len(value) < 6:
        raise CorruptRecordError("transaction marker value too short")
    _version, coordinator_epoch = _CTRL_VALUE.unpack_from(value, 0)
    return rtype, coordinator_epoch
