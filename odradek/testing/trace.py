"""The request trace (`odradek serve --trace FILE`): each request and response, decoded, as one
JSON line: direction, connection, API, version, correlation id, client id and the message's
fields; record batches are summarised (bytes, batches, records, offsets), not dumped.

Pure: ``request_line`` / ``response_line`` make the text; the broker writes it (broker/server.py
hands the lines to a logging handler on the file).
"""

from __future__ import annotations

import json
import struct

from odradek.api_handlers.common import SliceRecords
from odradek.wire.base import Message
from odradek.wire.uuid import uuid_str

from .faults import Fault, api_name

_BATCH_HEAD = struct.Struct(">qi")  # baseOffset, batchLength
_LAST_DELTA = struct.Struct(">i")  # lastOffsetDelta, at byte 23 of a batch
_COUNT = struct.Struct(">i")  # recordsCount, at byte 57
_BYTES_SHOWN = 64


def records_summary(records) -> dict | None:
    """{bytes, batches, records, base_offset, last_offset} of a records field (magic 2 batches);
    log file slices (a Fetch response) are summarised by their size only."""
    if records is None:
        return None
    if isinstance(records, SliceRecords):
        return {"bytes": len(records), "from_log_files": True}
    buf = memoryview(records) if not isinstance(records, memoryview) else records
    n = len(buf)
    pos = batches = count = 0
    first = last = None
    while pos + 61 <= n:
        base, length = _BATCH_HEAD.unpack_from(buf, pos)
        if length <= 0 or pos + 12 + length > n:
            break
        batches += 1
        count += _COUNT.unpack_from(buf, pos + 57)[0]
        first = base if first is None else first
        last = base + _LAST_DELTA.unpack_from(buf, pos + 23)[0]
        pos += 12 + length
    return {"bytes": n, "batches": batches, "records": count, "base_offset": first, "last_offset": last}


def _value(v, ftype: str):
    if isinstance(v, Message):
        return to_json(v)
    if isinstance(v, list):
        return [_value(x, ftype[2:]) for x in v]
    if ftype == "records":
        return records_summary(v)
    if ftype == "uuid" and isinstance(v, (bytes, bytearray)):
        return uuid_str(v)
    if isinstance(v, (bytes, bytearray, memoryview)):
        b = bytes(v[:_BYTES_SHOWN])
        return {"bytes": len(v), "hex": b.hex() + ("..." if len(v) > _BYTES_SHOWN else "")}
    return v


def to_json(msg: Message) -> dict:
    """A decoded message's fields as JSON values (tagged fields it does not know are left out)."""
    out = {}
    for f in msg._FIELDS:
        name, ftype = f[0], f[1]
        if name in msg.__slots__:
            try:
                v = getattr(msg, name)
            except AttributeError:  # a field this version does not have
                continue
            out[name] = _value(v, ftype)
    return out


def _dump(d: dict) -> str:
    return json.dumps(d, separators=(",", ":"), default=str)


def request_line(ts_ms: int, connection: str, header, body: Message, fault: Fault | None = None) -> str:
    d = {"ts_ms": ts_ms, "dir": "request", "connection": connection,
         "api": api_name(header.request_api_key), "api_key": header.request_api_key,
         "version": header.request_api_version, "correlation_id": header.correlation_id,
         "client_id": header.client_id, "fields": to_json(body)}
    if fault is not None:
        d["fault"] = {"id": fault.rule_id, "delay_ms": fault.delay_ms, "error_code": fault.error_code,
                      "action": fault.action, "rewrite": fault.rewrite is not None}
    return _dump(d)


def response_line(ts_ms: int, connection: str, api_key: int, version: int, correlation_id: int,
                  body: Message) -> str:
    return _dump({"ts_ms": ts_ms, "dir": "response", "connection": connection, "api": api_name(api_key),
                  "api_key": api_key, "version": version, "correlation_id": correlation_id,
                  "fields": to_json(body.plain(version))})
