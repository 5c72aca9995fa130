"""Generated from Kafka's FindCoordinatorRequest.json by tools/gen_wire.py. Do not edit."""
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

_S0 = _struct.Struct('>b')


class FindCoordinatorRequest(Message):
    __slots__ = ('key', 'key_type', 'coordinator_keys', '_unknown_tagged')
    _FIELDS = (('key', 'string', 0, 3, -1, -1, None, -1, None), ('key_type', 'int8', 1, 32767, -1, -1, None, -1, None), ('coordinator_keys', '[]string', 4, 32767, -1, -1, None, -1, None))
    API_KEY = 10
    VALID_VERSIONS = (0, 6)
    FLEXIBLE_MIN = 3

    def __init__(self, *, key='', key_type=0, coordinator_keys=DEFAULT, _unknown_tagged=None):
        self.key = key
        self.key_type = key_type
        self.coordinator_keys = [] if coordinator_keys is DEFAULT else coordinator_keys
        self._unknown_tagged = _unknown_tagged



def _d_FindCoordinatorRequest_0(b, p):
    o = _new(FindCoordinatorRequest)
    o.key, p = _rstr(b, p)
    o.key_type = 0
    o.coordinator_keys = []
    o._unknown_tagged = None
    return o, p


def _e_FindCoordinatorRequest_0(o, w):
    _wstr(w, o.key)


def _d_FindCoordinatorRequest_1(b, p):
    o = _new(FindCoordinatorRequest)
    o.key, p = _rstr(b, p)
    o.key_type, = _S0.unpack_from(b, p)
    p += 1
    o.coordinator_keys = []
    o._unknown_tagged = None
    return o, p


def _e_FindCoordinatorRequest_1(o, w):
    _wstr(w, o.key)
    w.append(_S0.pack(o.key_type))


def _d_FindCoordinatorRequest_2(b, p):
    o = _new(FindCoordinatorRequest)
    o.key, p = _rcstr(b, p)
    o.key_type, = _S0.unpack_from(b, p)
    p += 1
    o.coordinator_keys = []
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_FindCoordinatorRequest_2(o, w):
    _wcstr(w, o.key)
    w.append(_S0.pack(o.key_type))
    _wtag(w, o._unknown_tagged)


def _d_FindCoordinatorRequest_3(b, p):
    o = _new(FindCoordinatorRequest)
    o.key = ''
    o.key_type, = _S0.unpack_from(b, p)
    p += 1
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 1)
    l = []
    for _ in range(n):
        e, p = _rcstr(b, p)
        l.append(e)
    o.coordinator_keys = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_FindCoordinatorRequest_3(o, w):
    w.append(_S0.pack(o.key_type))
    x = o.coordinator_keys
    w.append(_uv(len(x) + 1))
    for e in x:
        _wcstr(w, e)
    _wtag(w, o._unknown_tagged)


FindCoordinatorRequest._DECODERS = {0: _d_FindCoordinatorRequest_0, 1: _d_FindCoordinatorRequest_1, 2: _d_FindCoordinatorRequest_1, 3: _d_FindCoordinatorRequest_2, 4: _d_FindCoordinatorRequest_3, 5: _d_FindCoordinatorRequest_3, 6: _d_FindCoordinatorRequest_3}
FindCoordinatorRequest._ENCODERS = {0: _e_FindCoordinatorRequest_0, 1: _e_FindCoordinatorRequest_1, 2: _e_FindCoordinatorRequest_1, 3: _e_FindCoordinatorRequest_2, 4: _e_FindCoordinatorRequest_3, 5: _e_FindCoordinatorRequest_3, 6: _e_FindCoordinatorRequest_3}
