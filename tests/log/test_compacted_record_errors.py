"""A keyless record in a compacted topic: Kafka rejects the batch with INVALID_RECORD and names
each offending record (RecordError batchIndex + message, LogValidator.validateKey) so clients
can fail only those records; librdkafka's 0011_produce_batch expects 10 INVALID_RECORD and 90
_INVALID_DIFFERENT_RECORD out of a 100-record batch with every 10th record keyless. odradek
reported no per-record errors (so every record was "the" invalid one)."""

import pytest

from odradek.api_handlers import produce
from odradek.log import FaultyFileSystem, LogConfig, PartitionLog, errors
from odradek.wire.records import build_batch

MSG = "Compacted topic cannot accept message without key in topic partition t-2"


def test_every_keyless_record_is_named_with_its_batch_index():
    fs = FaultyFileSystem()
    fs.makedirs("/data")
    log = PartitionLog(fs, "/data/t-2", LogConfig(cleanup_policy=("compact",)), now_ms=0)
    recs = [(None if i % 10 == 0 else b"k%d" % i, b"v") for i in range(25)]
    with pytest.raises(errors.InvalidRecordError) as e:
        log.append(build_batch(recs), now_ms=1)
    assert e.value.record_errors == [(0, MSG), (10, MSG), (20, MSG)]
    assert str(e.value) == (
        "One or more records have been rejected due to 3 record errors in total, and only showing the first "
        f"three errors at most: [RecordError(batchIndex=0, message='{MSG}'), "
        f"RecordError(batchIndex=10, message='{MSG}'), RecordError(batchIndex=20, message='{MSG}')]")


def test_produce_response_carries_the_record_errors():
    err = errors.InvalidRecordError("summary", record_errors=[(0, "a"), (10, "b")])
    out = produce.record_errors_of(err)
    assert [(x.batch_index, x.batch_index_error_message) for x in out] == [(0, "a"), (10, "b")]
    # an INVALID_RECORD without per-record detail still names the batch's first record
    out = produce.record_errors_of(errors.InvalidRecordError("bad"))
    assert [(x.batch_index, x.batch_index_error_message) for x in out] == [(0, "bad")]
