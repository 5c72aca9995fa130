"""Generated from Kafka's FindCoordinatorResponse.json by tools/gen_wire.py. Do not edit."""
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
_S1 = _struct.Struct('>i')
_S2 = _struct.Struct('>hi')
_S3 = _struct.Struct('>ih')


class Coordinator(Message):
    __slots__ = ('key', 'node_id', 'host', 'port', 'error_code', 'error_message', '_unknown_tagged')
    _FIELDS = (('key', 'string', 4, 32767, -1, -1, None, -1, None), ('node_id', 'int32', 4, 32767, -1, -1, None, -1, None), ('host', 'string', 4, 32767, -1, -1, None, -1, None), ('port', 'int32', 4, 32767, -1, -1, None, -1, None), ('error_code', 'int16', 4, 32767, -1, -1, None, -1, None), ('error_message', 'string', 4, 32767, 4, 32767, None, -1, None))

    def __init__(self, *, key='', node_id=0, host='', port=0, error_code=0, error_message='', _unknown_tagged=None):
        self.key = key
        self.node_id = node_id
        self.host = host
        self.port = port
        self.error_code = error_code
        self.error_message = error_message
        self._unknown_tagged = _unknown_tagged


class FindCoordinatorResponse(Message):
    __slots__ = ('throttle_time_ms', 'error_code', 'error_message', 'node_id', 'host', 'port', 'coordinators', '_unknown_tagged')
    _FIELDS = (('throttle_time_ms', 'int32', 1, 32767, -1, -1, None, -1, None), ('error_code', 'int16', 0, 3, -1, -1, None, -1, None), ('error_message', 'string', 1, 3, 1, 3, None, -1, None), ('node_id', 'int32', 0, 3, -1, -1, None, -1, None), ('host', 'string', 0, 3, -1, -1, None, -1, None), ('port', 'int32', 0, 3, -1, -1, None, -1, None), ('coordinators', '[]Coordinator', 4, 32767, -1, -1, None, -1, 'Coordinator'))
    API_KEY = 10
    VALID_VERSIONS = (0, 6)
    FLEXIBLE_MIN = 3

    def __init__(self, *, throttle_time_ms=0, error_code=0, error_message='', node_id=0, host='', port=0, coordinators=DEFAULT, _unknown_tagged=None):
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.error_message = error_message
        self.node_id = node_id
        self.host = host
        self.port = port
        self.coordinators = [] if coordinators is DEFAULT else coordinators
        self._unknown_tagged = _unknown_tagged



def _d_FindCoordinatorResponse_0(b, p):
    o = _new(FindCoordinatorResponse)
    o.throttle_time_ms = 0
    o.error_code, = _S0.unpack_from(b, p)
    p += 2
    o.error_message = ''
    o.node_id, = _S1.unpack_from(b, p)
    p += 4
    o.host, p = _rstr(b, p)
    o.port, = _S1.unpack_from(b, p)
    p += 4
    o.coordinators = []
    o._unknown_tagged = None
    return o, p


def _e_FindCoordinatorResponse_0(o, w):
    w.append(_S2.pack(o.error_code, o.node_id))
    _wstr(w, o.host)
    w.append(_S1.pack(o.port))


def _d_FindCoordinatorResponse_1(b, p):
    o = _new(FindCoordinatorResponse)
    o.throttle_time_ms, o.error_code = _S3.unpack_from(b, p)
    p += 6
    o.error_message, p = _rnstr(b, p)
    o.node_id, = _S1.unpack_from(b, p)
    p += 4
    o.host, p = _rstr(b, p)
    o.port, = _S1.unpack_from(b, p)
    p += 4
    o.coordinators = []
    o._unknown_tagged = None
    return o, p


def _e_FindCoordinatorResponse_1(o, w):
    w.append(_S3.pack(o.throttle_time_ms, o.error_code))
    _wnstr(w, o.error_message)
    w.append(_S1.pack(o.node_id))
    _wstr(w, o.host)
    w.append(_S1.pack(o.port))


def _d_FindCoordinatorResponse_2(b, p):
    o = _new(FindCoordinatorResponse)
    o.throttle_time_ms, o.error_code = _S3.unpack_from(b, p)
    p += 6
    o.error_message, p = _rcnstr(b, p)
    o.node_id, = _S1.unpack_from(b, p)
    p += 4
    o.host, p = _rcstr(b, p)
    o.port, = _S1.unpack_from(b, p)
    p += 4
    o.coordinators = []
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_FindCoordinatorResponse_2(o, w):
    w.append(_S3.pack(o.throttle_time_ms, o.error_code))
    _wcnstr(w, o.error_message)
    w.append(_S1.pack(o.node_id))
    _wcstr(w, o.host)
    w.append(_S1.pack(o.port))
    _wtag(w, o._unknown_tagged)


def _d_Coordinator_0(b, p):
    o = _new(Coordinator)
    o.key, p = _rcstr(b, p)
    o.node_id, = _S1.unpack_from(b, p)
    p += 4
    o.host, p = _rcstr(b, p)
    o.port, o.error_code = _S3.unpack_from(b, p)
    p += 6
    o.error_message, p = _rcnstr(b, p)
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_FindCoordinatorResponse_3(b, p):
    o = _new(FindCoordinatorResponse)
    o.throttle_time_ms, = _S1.unpack_from(b, p)
    p += 4
    o.error_code = 0
    o.error_message = ''
    o.node_id = 0
    o.host = ''
    o.port = 0
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 14)
    l = []
    for _ in range(n):
        e, p = _d_Coordinator_0(b, p)
        l.append(e)
    o.coordinators = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_Coordinator_0(o, w):
    _wcstr(w, o.key)
    w.append(_S1.pack(o.node_id))
    _wcstr(w, o.host)
    w.append(_S3.pack(o.port, o.error_code))
    _wcnstr(w, o.error_message)
    _wtag(w, o._unknown_tagged)


def _e_FindCoordinatorResponse_3(o, w):
    w.append(_S1.pack(o.throttle_time_ms))
    x = o.coordinators
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_Coordinator_0(e, w)
    _wtag(w, o._unknown_tagged)


FindCoordinatorResponse._DECODERS = {0: _d_FindCoordinatorResponse_0, 1: _d_FindCoordinatorResponse_1, 2: _d_FindCoordinatorResponse_1, 3: _d_FindCoordinatorResponse_2, 4: _d_FindCoordinatorResponse_3, 5: _d_FindCoordinatorResponse_3, 6: _d_FindCoordinatorResponse_3}
FindCoordinatorResponse._ENCODERS = {0: _e_FindCoordinatorResponse_0, 1: _e_FindCoordinatorResponse_1, 2: _e_FindCoordinatorResponse_1, 3: _e_FindCoordinatorResponse_2, 4: _e_FindCoordinatorResponse_3, 5: _e_FindCoordinatorResponse_3, 6: _e_FindCoordinatorResponse_3}
