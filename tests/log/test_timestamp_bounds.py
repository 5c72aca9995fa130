"""message.timestamp.before/after.max.ms in PartitionLog.append (Kafka's
LogValidator.validateTimestamp): errors per record, nothing written."""
from __future__ import annotations

import pytest

from odradek.log import FaultyFileSystem, LogConfig, PartitionLog, errors
from odradek.wire.compression import Codec
from odradek.wire.records import build_batch

NOW = 10_000_000_000
HOUR = 3_600_000


def _log(**cfg):
    fs = FaultyFileSystem()
    fs.makedirs("/data")
    return PartitionLog(fs, "/data/t-0", LogConfig(**cfg), now_ms=NOW)


def _b(*ts, codec=Codec.NONE, **kw):
    return build_batch([(b"k", b"v%d" % i, (), t) for i, t in enumerate(ts)], compression=codec, **kw)


@pytest.mark.parametrize("codec", [Codec.NONE, Codec.ZSTD])
def test_records_too_far_ahead_are_named(codec):
    log = _log()
    with pytest.raises(errors.InvalidTimestampError) as ei:
        log.append(_b(NOW, NOW + HOUR + 1, -1, NOW + HOUR, codec=codec), now_ms=NOW)
    e = ei.value
    assert str(e) == "One or more records have been rejected due to invalid timestamp"
    assert e.record_errors == [(1, f"Timestamp {NOW + HOUR + 1} of message with offset 1 is out of "
                                   f"range. The timestamp should be within "
                                   f"[{NOW - 2**63 + 1}, {NOW + HOUR}]")]
    assert log.log_end_offset == 0 and log.size_in_bytes == 0
    assert log.append(_b(NOW + HOUR, 5, -1, codec=codec), now_ms=NOW).last_offset == 2


def test_before_bound_applies_per_topic_and_idempotent_producers_too():
    log = _log(timestamp_before_max_ms=1000, timestamp_after_max_ms=0)
    with pytest.raises(errors.InvalidTimestampError) as ei:
        log.append(_b(NOW - 1001, NOW, NOW + 1, producer_id=4, producer_epoch=0, base_sequence=0),
                   now_ms=NOW)
    assert [i for i, _ in ei.value.record_errors] == [0, 2]
    assert "within [%d, %d]" % (NOW - 1000, NOW) in ei.value.record_errors[0][1]
    # nothing of the producer was recorded: the same sequence is accepted afterwards
    assert log.append(_b(NOW - 1000, NOW, producer_id=4, producer_epoch=0, base_sequence=0),
                      now_ms=NOW).base_offset == 0


def test_log_append_time_control_batches_and_followers_are_exempt():
    assert _log(message_timestamp_type="LogAppendTime").append(_b(NOW + 9 * HOUR), now_ms=NOW).base_offset == 0
    log = _log()
    far = _b(NOW + 9 * HOUR, base_offset=0)
    assert log.append(far, now_ms=NOW, assign_offsets=False).base_offset == 0  # replication
    marker = build_batch([(b"\x00\x00\x00\x00", b"\x00\x00\x00\x00\x00\x00", (), NOW + 9 * HOUR)],
                         is_control=True, is_transactional=True, producer_id=1, producer_epoch=0)
    assert log.append(marker, now_ms=NOW).base_offset == 1
