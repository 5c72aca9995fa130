"""Kafka's CreateTime bounds on produced records (LogValidator.validateTimestamp):
message.timestamp.before.max.ms / message.timestamp.after.max.ms around the
broker's clock, records without a timestamp (-1) exempt."""
from __future__ import annotations

from odradek.wire import records
from odradek.wire.exceptions import WireError

from . import errors

NO_TIMESTAMP = -1


def check_timestamps(buf, headers, now_ms: int, before_max_ms: int, after_max_ms: int) -> None:
    """Raise InvalidTimestampError naming every out-of-range record of the record set.

    The batch header bounds its records (base and max timestamp), so a batch whose
    header lies inside the window is not decoded; one that does not is decoded to
    name the records, with Kafka's messages and batch indexes."""
    low, high = now_ms - before_max_ms, now_ms + after_max_ms
    found = []
    index = 0
    pos = 0
    for h in headers:
        size = h.batch_length + records.LOG_OVERHEAD
        if not h.is_control and (h.max_timestamp > high or (
                h.base_timestamp < low and h.base_timestamp != NO_TIMESTAMP)):
            try:
                _, recs = records.decode_records(buf, pos, check_crc=False)
            except WireError as e:
                raise errors.CorruptRecordError(str(e)) from e
            for r in recs:
                ts = h.base_timestamp + r.timestamp_delta
                if ts != NO_TIMESTAMP and (ts < low or ts > high):
                    found.append((index, f"Timestamp {ts} of message with offset "
                                         f"{h.base_offset + r.offset_delta} is out of range. "
                                         f"The timestamp should be within [{low}, {high}]"))
                index += 1
        else:
            index += h.records_count
        pos += size
    if found:
        raise errors.InvalidTimestampError(
            "One or more records have been rejected due to invalid timestamp", record_errors=found)
