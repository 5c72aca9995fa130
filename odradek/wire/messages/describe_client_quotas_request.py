"""Generated from Kafka's DescribeClientQuotasRequest.json by tools/gen_wire.py. Do not edit."""
# flake8: noqa
import struct as _struct

from ..base import DEFAULT, Message, whole as _whole
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
_S1 = _struct.Struct('>?')


class ComponentData(Message):
    __slots__ = ('entity_type', 'match_type', 'match', '_unknown_tagged')
    _FIELDS = (('entity_type', 'string', 0, 32767, -1, -1, None, -1, None), ('match_type', 'int8', 0, 32767, -1, -1, None, -1, None), ('match', 'string', 0, 32767, 0, 32767, None, -1, None))

    def __init__(self, *, entity_type='', match_type=0, match='', _unknown_tagged=None):
        self.entity_type = entity_type
        self.match_type = match_type
        self.match = match
        self._unknown_tagged = _unknown_tagged


class DescribeClientQuotasRequest(Message):
    __slots__ = ('components', 'strict', '_unknown_tagged')
    _FIELDS = (('components', '[]ComponentData', 0, 32767, -1, -1, None, -1, 'ComponentData'), ('strict', 'bool', 0, 32767, -1, -1, None, -1, None))
    API_KEY = 48
    VALID_VERSIONS = (0, 1)
    FLEXIBLE_MIN = 1

    def __init__(self, *, components=DEFAULT, strict=False, _unknown_tagged=None):
        self.components = [] if components is DEFAULT else components
        self.strict = strict
        self._unknown_tagged = _unknown_tagged



def _d_ComponentData_0(b, p):
    o = _new(ComponentData)
    o.entity_type, p = _rstr(b, p)
    o.match_type, = _S0.unpack_from(b, p)
    p += 1
    o.match, p = _rnstr(b, p)
    o._unknown_tagged = None
    return o, p


def _s_DescribeClientQuotasRequest_0(b, p):
    o = _new(DescribeClientQuotasRequest)
    n, p = _ral(b, p, 5)
    y = p + 16384
    l = []
    for _ in range(n):
        e, p = _d_ComponentData_0(b, p)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.components = l
    o.strict, = _S1.unpack_from(b, p)
    p += 1
    o._unknown_tagged = None
    return o, p


def _e_ComponentData_0(o, w):
    _wstr(w, o.entity_type)
    w.append(_S0.pack(o.match_type))
    _wnstr(w, o.match)


def _e_DescribeClientQuotasRequest_0(o, w):
    x = o.components
    w.append(_I(len(x)))
    for e in x:
        _e_ComponentData_0(e, w)
    w.append(_S1.pack(o.strict))


def _d_ComponentData_1(b, p):
    o = _new(ComponentData)
    o.entity_type, p = _rcstr(b, p)
    o.match_type, = _S0.unpack_from(b, p)
    p += 1
    o.match, p = _rcnstr(b, p)
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _s_DescribeClientQuotasRequest_1(b, p):
    o = _new(DescribeClientQuotasRequest)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 4)
    y = p + 16384
    l = []
    for _ in range(n):
        e, p = _d_ComponentData_1(b, p)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.components = l
    o.strict, = _S1.unpack_from(b, p)
    p += 1
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_ComponentData_1(o, w):
    _wcstr(w, o.entity_type)
    w.append(_S0.pack(o.match_type))
    _wcnstr(w, o.match)
    _wtag(w, o._unknown_tagged)


def _e_DescribeClientQuotasRequest_1(o, w):
    x = o.components
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_ComponentData_1(e, w)
    w.append(_S1.pack(o.strict))
    _wtag(w, o._unknown_tagged)


_d_s_DescribeClientQuotasRequest_0 = _whole(_s_DescribeClientQuotasRequest_0)
_d_s_DescribeClientQuotasRequest_1 = _whole(_s_DescribeClientQuotasRequest_1)
DescribeClientQuotasRequest._STEPS = {0: _s_DescribeClientQuotasRequest_0, 1: _s_DescribeClientQuotasRequest_1}
DescribeClientQuotasRequest._DECODERS = {0: _d_s_DescribeClientQuotasRequest_0, 1: _d_s_DescribeClientQuotasRequest_1}
DescribeClientQuotasRequest._ENCODERS = {0: _e_DescribeClientQuotasRequest_0, 1: _e_DescribeClientQuotasRequest_1}
