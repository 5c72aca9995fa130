"""Generated from Kafka's AlterConfigsResponse.json by tools/gen_wire.py. Do not edit."""
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

_S0 = _struct.Struct('>i')
_S1 = _struct.Struct('>h')
_S2 = _struct.Struct('>b')


class AlterConfigsResourceResponse(Message):
    __slots__ = ('error_code', 'error_message', 'resource_type', 'resource_name', '_unknown_tagged')
    _FIELDS = (('error_code', 'int16', 0, 32767, -1, -1, None, -1, None), ('error_message', 'string', 0, 32767, 0, 32767, None, -1, None), ('resource_type', 'int8', 0, 32767, -1, -1, None, -1, None), ('resource_name', 'string', 0, 32767, -1, -1, None, -1, None))

    def __init__(self, *, error_code=0, error_message='', resource_type=0, resource_name='', _unknown_tagged=None):
        self.error_code = error_code
        self.error_message = error_message
        self.resource_type = resource_type
        self.resource_name = resource_name
        self._unknown_tagged = _unknown_tagged


class AlterConfigsResponse(Message):
    __slots__ = ('throttle_time_ms', 'responses', '_unknown_tagged')
    _FIELDS = (('throttle_time_ms', 'int32', 0, 32767, -1, -1, None, -1, None), ('responses', '[]AlterConfigsResourceResponse', 0, 32767, -1, -1, None, -1, 'AlterConfigsResourceResponse'))
    API_KEY = 33
    VALID_VERSIONS = (0, 2)
    FLEXIBLE_MIN = 2

    def __init__(self, *, throttle_time_ms=0, responses=DEFAULT, _unknown_tagged=None):
        self.throttle_time_ms = throttle_time_ms
        self.responses = [] if responses is DEFAULT else responses
        self._unknown_tagged = _unknown_tagged



def _d_AlterConfigsResourceResponse_0(b, p):
    o = _new(AlterConfigsResourceResponse)
    o.error_code, = _S1.unpack_from(b, p)
    p += 2
    o.error_message, p = _rnstr(b, p)
    o.resource_type, = _S2.unpack_from(b, p)
    p += 1
    o.resource_name, p = _rstr(b, p)
    o._unknown_tagged = None
    return o, p


def _d_AlterConfigsResponse_0(b, p):
    o = _new(AlterConfigsResponse)
    o.throttle_time_ms, = _S0.unpack_from(b, p)
    p += 4
    n, p = _ral(b, p, 7)
    l = []
    for _ in range(n):
        e, p = _d_AlterConfigsResourceResponse_0(b, p)
        l.append(e)
    o.responses = l
    o._unknown_tagged = None
    return o, p


def _e_AlterConfigsResourceResponse_0(o, w):
    w.append(_S1.pack(o.error_code))
    _wnstr(w, o.error_message)
    w.append(_S2.pack(o.resource_type))
    _wstr(w, o.resource_name)


def _e_AlterConfigsResponse_0(o, w):
    w.append(_S0.pack(o.throttle_time_ms))
    x = o.responses
    w.append(_I(len(x)))
    for e in x:
        _e_AlterConfigsResourceResponse_0(e, w)


def _t_AlterConfigsResponse_0(o, w):
    c = 0
    w.append(_S0.pack(o.throttle_time_ms))
    x = o.responses
    w.append(_I(len(x)))
    for e in x:
        _e_AlterConfigsResourceResponse_0(e, w)
        c += 1
        if c >= 1000:
            c = 0
            yield


def _d_AlterConfigsResourceResponse_1(b, p):
    o = _new(AlterConfigsResourceResponse)
    o.error_code, = _S1.unpack_from(b, p)
    p += 2
    o.error_message, p = _rcnstr(b, p)
    o.resource_type, = _S2.unpack_from(b, p)
    p += 1
    o.resource_name, p = _rcstr(b, p)
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_AlterConfigsResponse_1(b, p):
    o = _new(AlterConfigsResponse)
    o.throttle_time_ms, = _S0.unpack_from(b, p)
    p += 4
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 6)
    l = []
    for _ in range(n):
        e, p = _d_AlterConfigsResourceResponse_1(b, p)
        l.append(e)
    o.responses = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_AlterConfigsResourceResponse_1(o, w):
    w.append(_S1.pack(o.error_code))
    _wcnstr(w, o.error_message)
    w.append(_S2.pack(o.resource_type))
    _wcstr(w, o.resource_name)
    _wtag(w, o._unknown_tagged)


def _e_AlterConfigsResponse_1(o, w):
    w.append(_S0.pack(o.throttle_time_ms))
    x = o.responses
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_AlterConfigsResourceResponse_1(e, w)
    _wtag(w, o._unknown_tagged)


def _t_AlterConfigsResponse_1(o, w):
    c = 0
    w.append(_S0.pack(o.throttle_time_ms))
    x = o.responses
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_AlterConfigsResourceResponse_1(e, w)
        c += 1
        if c >= 1000:
            c = 0
            yield
    _wtag(w, o._unknown_tagged)


AlterConfigsResponse._DECODERS = {0: _d_AlterConfigsResponse_0, 1: _d_AlterConfigsResponse_0, 2: _d_AlterConfigsResponse_1}
AlterConfigsResponse._ENCODERS = {0: _e_AlterConfigsResponse_0, 1: _e_AlterConfigsResponse_0, 2: _e_AlterConfigsResponse_1}
AlterConfigsResponse._ENCODE_STEPS = {0: _t_AlterConfigsResponse_0, 1: _t_AlterConfigsResponse_0, 2: _t_AlterConfigsResponse_1}
