"""Generated from Kafka's SyncGroupResponse.json by tools/gen_wire.py. Do not edit."""
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

_S0 = _struct.Struct('>h')
_S1 = _struct.Struct('>ih')


class SyncGroupResponse(Message):
    __slots__ = ('throttle_time_ms', 'error_code', 'protocol_type', 'protocol_name', 'assignment', '_unknown_tagged')
    _FIELDS = (('throttle_time_ms', 'int32', 1, 32767, -1, -1, None, -1, None), ('error_code', 'int16', 0, 32767, -1, -1, None, -1, None), ('protocol_type', 'string', 5, 32767, 5, 32767, None, -1, None), ('protocol_name', 'string', 5, 32767, 5, 32767, None, -1, None), ('assignment', 'bytes', 0, 32767, -1, -1, None, -1, None))
    API_KEY = 14
    VALID_VERSIONS = (0, 5)
    FLEXIBLE_MIN = 4

    def __init__(self, *, throttle_time_ms=0, error_code=0, protocol_type=None, protocol_name=None, assignment=b'', _unknown_tagged=None):
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.protocol_type = protocol_type
        self.protocol_name = protocol_name
        self.assignment = assignment
        self._unknown_tagged = _unknown_tagged



def _d_SyncGroupResponse_0(b, p):
    o = _new(SyncGroupResponse)
    o.throttle_time_ms = 0
    o.error_code, = _S0.unpack_from(b, p)
    p += 2
    o.protocol_type = None
    o.protocol_name = None
    o.assignment, p = _rbyt(b, p)
    o._unknown_tagged = None
    return o, p


def _e_SyncGroupResponse_0(o, w):
    w.append(_S0.pack(o.error_code))
    _wbyt(w, o.assignment)


def _d_SyncGroupResponse_1(b, p):
    o = _new(SyncGroupResponse)
    o.throttle_time_ms, o.error_code = _S1.unpack_from(b, p)
    p += 6
    o.protocol_type = None
    o.protocol_name = None
    o.assignment, p = _rbyt(b, p)
    o._unknown_tagged = None
    return o, p


def _e_SyncGroupResponse_1(o, w):
    w.append(_S1.pack(o.throttle_time_ms, o.error_code))
    _wbyt(w, o.assignment)


def _d_SyncGroupResponse_2(b, p):
    o = _new(SyncGroupResponse)
    o.throttle_time_ms, o.error_code = _S1.unpack_from(b, p)
    p += 6
    o.protocol_type = None
    o.protocol_name = None
    o.assignment, p = _rcbyt(b, p)
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_SyncGroupResponse_2(o, w):
    w.append(_S1.pack(o.throttle_time_ms, o.error_code))
    _wcbyt(w, o.assignment)
    _wtag(w, o._unknown_tagged)


def _d_SyncGroupResponse_3(b, p):
    o = _new(SyncGroupResponse)
    o.throttle_time_ms, o.error_code = _S1.unpack_from(b, p)
    p += 6
    o.protocol_type, p = _rcnstr(b, p)
    o.protocol_name, p = _rcnstr(b, p)
    o.assignment, p = _rcbyt(b, p)
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_SyncGroupResponse_3(o, w):
    w.append(_S1.pack(o.throttle_time_ms, o.error_code))
    _wcnstr(w, o.protocol_type)
    _wcnstr(w, o.protocol_name)
    _wcbyt(w, o.assignment)
    _wtag(w, o._unknown_tagged)


SyncGroupResponse._DECODERS = {0: _d_SyncGroupResponse_0, 1: _d_SyncGroupResponse_1, 2: _d_SyncGroupResponse_1, 3: _d_SyncGroupResponse_1, 4: _d_SyncGroupResponse_2, 5: _d_SyncGroupResponse_3}
SyncGroupResponse._ENCODERS = {0: _e_SyncGroupResponse_0, 1: _e_SyncGroupResponse_1, 2: _e_SyncGroupResponse_1, 3: _e_SyncGroupResponse_1, 4: _e_SyncGroupResponse_2, 5: _e_SyncGroupResponse_3}
