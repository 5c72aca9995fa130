"""Generated from Kafka's GetTelemetrySubscriptionsResponse.json by tools/gen_wire.py. Do not edit."""
# flake8: noqa
import struct as _struct

from ..base import DEFAULT, Message
from ..exceptions import TruncatedError as _Trunc
from ..primitives import (
    ZERO_UUID, I_PACK as _I, uvarint_bytes as _uv, read_tagged_raw as _rtag, write_tagged as _wtag,
    read_string as _rstr, read_nullable_string as _rnstr, read_compact_string as _rcstr,
    read_compact_nullable_string as _rcnstr, read_bytes as _rbyt, read_nullable_bytes as _rnbyt,
    read_compact_bytes as _rcbyt, read_compact_nullable_bytes as _rcnbyt, read_records as _rrec,
    read_compact_records as _rcrec, read_array_len as _ral, read_nullable_array_len as _rnal,
    read_compact_array_len as _rcal, read_compact_nullable_array_len as _rcnal,
    write_string as _wstr, write_nullable_string as _wnstr, write_compact_string as _wcstr,
    write_compact_nullable_string as _wcnstr, write_bytes as _wbyt, write_nullable_bytes as _wnbyt,
    write_compact_bytes as _wcbyt, write_compact_nullable_bytes as _wcnbyt, ARRAY_STRUCTS as _ARRAY_STRUCTS,
)

_new = object.__new__
_ARR = _ARRAY_STRUCTS
_unpack = _struct.unpack_from
_pack = _struct.pack


def _tagkey(t):
    return t[0]

_S0 = _struct.Struct('>ih16si')
_S1 = _struct.Struct('>ii?')


class GetTelemetrySubscriptionsResponse(Message):
    __slots__ = ('throttle_time_ms', 'error_code', 'client_instance_id', 'subscription_id', 'accepted_compression_types', 'push_interval_ms', 'telemetry_max_bytes', 'delta_temporality', 'requested_metrics', '_unknown_tagged')
    _FIELDS = (('throttle_time_ms', 'int32', 0, 32767, -1, -1, None, -1, None), ('error_code', 'int16', 0, 32767, -1, -1, None, -1, None), ('client_instance_id', 'uuid', 0, 32767, -1, -1, None, -1, None), ('subscription_id', 'int32', 0, 32767, -1, -1, None, -1, None), ('accepted_compression_types', '[]int8', 0, 32767, -1, -1, None, -1, None), ('push_interval_ms', 'int32', 0, 32767, -1, -1, None, -1, None), ('telemetry_max_bytes', 'int32', 0, 32767, -1, -1, None, -1, None), ('delta_temporality', 'bool', 0, 32767, -1, -1, None, -1, None), ('requested_metrics', '[]string', 0, 32767, -1, -1, None, -1, None))
    API_KEY = 71
    VALID_VERSIONS = (0, 0)
    FLEXIBLE_MIN = 0

    def __init__(self, *, throttle_time_ms=0, error_code=0, client_instance_id=ZERO_UUID, subscription_id=0, accepted_compression_types=DEFAULT, push_interval_ms=0, telemetry_max_bytes=0, delta_temporality=False, requested_metrics=DEFAULT, _unknown_tagged=None):
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.client_instance_id = client_instance_id
        self.subscription_id = subscription_id
        self.accepted_compression_types = [] if accepted_compression_types is DEFAULT else accepted_compression_types
        self.push_interval_ms = push_interval_ms
        self.telemetry_max_bytes = telemetry_max_bytes
        self.delta_temporality = delta_temporality
        self.requested_metrics = [] if requested_metrics is DEFAULT else requested_metrics
        self._unknown_tagged = _unknown_tagged



def _d_GetTelemetrySubscriptionsResponse_0(b, p):
    o = _new(GetTelemetrySubscriptionsResponse)
    o.throttle_time_ms, o.error_code, o.client_instance_id, o.subscription_id = _S0.unpack_from(b, p)
    p += 26
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 1)
    l = list((_ARR['b'][n] if n < 64 else _struct.Struct('>%db' % n)).unpack_from(b, p))
    p += 1 * n
    o.accepted_compression_types = l
    o.push_interval_ms, o.telemetry_max_bytes, o.delta_temporality = _S1.unpack_from(b, p)
    p += 9
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 1)
    l = []
    for _ in range(n):
        e, p = _rcstr(b, p)
        l.append(e)
    o.requested_metrics = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_GetTelemetrySubscriptionsResponse_0(o, w):
    w.append(_S0.pack(o.throttle_time_ms, o.error_code, o.client_instance_id, o.subscription_id))
    x = o.accepted_compression_types
    w.append(_uv(len(x) + 1))
    w.append(_pack('>%db' % len(x), *x))
    w.append(_S1.pack(o.push_interval_ms, o.telemetry_max_bytes, o.delta_temporality))
    x = o.requested_metrics
    w.append(_uv(len(x) + 1))
    for e in x:
        _wcstr(w, e)
    _wtag(w, o._unknown_tagged)


GetTelemetrySubscriptionsResponse._DECODERS = {0: _d_GetTelemetrySubscriptionsResponse_0}
GetTelemetrySubscriptionsResponse._ENCODERS = {0: _e_GetTelemetrySubscriptionsResponse_0}
