"""Kafka's LogValidator look inside produced batches: every record of a client
batch is read (compressed batches decompressed first), so malformed records are
refused instead of stored for consumers to choke on."""
from __future__ import annotations

from odradek.wire import records
from odradek.wire.compression import Codec, decompress
from odradek.wire.exceptions import WireError

from . import errors
from .batchio import CHECK_INVALID, CHECK_OK, check_records


def check_batch_records(buf, pos: int, h) -> None:
    """Raise RecordStructureError (INVALID_RECORD) or UndecodableBatchError
    (UNKNOWN_SERVER_ERROR) as Kafka would for the batch with header ``h`` at ``pos``."""
    section = memoryview(buf)[pos + records.RECORDS_OFFSET:pos + records.LOG_OVERHEAD + h.batch_length]
    codec = h.attributes & records.COMPRESSION_CODEC_MASK
    if codec == Codec.NONE:
        if check_records(section, h.records_count, False) != CHECK_OK:
            raise errors.RecordStructureError("invalid records in batch")
        return
    try:
        data = decompress(codec, section, records.DEFAULT_MAX_DECOMPRESSED)
    except (WireError, ValueError) as e:
        raise errors.UndecodableBatchError(f"cannot decompress batch: {e}") from e
    r = check_records(data, h.records_count, True)
    if r == CHECK_INVALID:
        raise errors.RecordStructureError("invalid records in batch")
    if r != CHECK_OK:
        raise errors.UndecodableBatchError("inner record offsets out of order")


def check_client_batches(buf, headers) -> None:
    pos = 0
    for h in headers:
        if not h.is_control:
            check_batch_records(buf, pos, h)
        pos += h.batch_length + records.LOG_OVERHEAD
