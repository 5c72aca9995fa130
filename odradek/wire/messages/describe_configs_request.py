"""Generated from Kafka's DescribeConfigsRequest.json by tools/gen_wire.py. Do not edit."""
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
_S2 = _struct.Struct('>??')


class DescribeConfigsResource(Message):
    __slots__ = ('resource_type', 'resource_name', 'configuration_keys', '_unknown_tagged')
    _FIELDS = (('resource_type', 'int8', 0, 32767, -1, -1, None, -1, None), ('resource_name', 'string', 0, 32767, -1, -1, None, -1, None), ('configuration_keys', '[]string', 0, 32767, 0, 32767, None, -1, None))

    def __init__(self, *, resource_type=0, resource_name='', configuration_keys=DEFAULT, _unknown_tagged=None):
        self.resource_type = resource_type
        self.resource_name = resource_name
        self.configuration_keys = [] if configuration_keys is DEFAULT else configuration_keys
        self._unknown_tagged = _unknown_tagged


class DescribeConfigsRequest(Message):
    __slots__ = ('resources', 'include_synonyms', 'include_documentation', '_unknown_tagged')
    _FIELDS = (('resources', '[]DescribeConfigsResource', 0, 32767, -1, -1, None, -1, 'DescribeConfigsResource'), ('include_synonyms', 'bool', 1, 32767, -1, -1, None, -1, None), ('include_documentation', 'bool', 3, 32767, -1, -1, None, -1, None))
    API_KEY = 32
    VALID_VERSIONS = (1, 4)
    FLEXIBLE_MIN = 4

    def __init__(self, *, resources=DEFAULT, include_synonyms=False, include_documentation=False, _unknown_tagged=None):
        self.resources = [] if resources is DEFAULT else resources
        self.include_synonyms = include_synonyms
        self.include_documentation = include_documentation
        self._unknown_tagged = _unknown_tagged



def _n_DescribeConfigsResource_0(b, p, y):
    o = _new(DescribeConfigsResource)
    o.resource_type, = _S0.unpack_from(b, p)
    p += 1
    o.resource_name, p = _rstr(b, p)
    n, p = _rnal(b, p, 2)
    if n < 0:
        o.configuration_keys = None
    else:
        l = []
        for _ in range(n):
            e, p = _rstr(b, p)
            l.append(e)
            if p >= y:
                y = p + 16384
                yield
        o.configuration_keys = l
    o._unknown_tagged = None
    return o, p, y


def _s_DescribeConfigsRequest_0(b, p):
    o = _new(DescribeConfigsRequest)
    n, p = _ral(b, p, 7)
    y = p + 16384
    l = []
    for _ in range(n):
        e, p, y = yield from _n_DescribeConfigsResource_0(b, p, y)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.resources = l
    o.include_synonyms, = _S1.unpack_from(b, p)
    p += 1
    o.include_documentation = False
    o._unknown_tagged = None
    return o, p


def _e_DescribeConfigsResource_0(o, w):
    w.append(_S0.pack(o.resource_type))
    _wstr(w, o.resource_name)
    x = o.configuration_keys
    if x is None:
        w.append(b'\xff\xff\xff\xff')
    else:
        w.append(_I(len(x)))
        for e in x:
            _wstr(w, e)


def _e_DescribeConfigsRequest_0(o, w):
    x = o.resources
    w.append(_I(len(x)))
    for e in x:
        _e_DescribeConfigsResource_0(e, w)
    w.append(_S1.pack(o.include_synonyms))


def _s_DescribeConfigsRequest_1(b, p):
    o = _new(DescribeConfigsRequest)
    n, p = _ral(b, p, 7)
    y = p + 16384
    l = []
    for _ in range(n):
        e, p, y = yield from _n_DescribeConfigsResource_0(b, p, y)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.resources = l
    o.include_synonyms, o.include_documentation = _S2.unpack_from(b, p)
    p += 2
    o._unknown_tagged = None
    return o, p


def _e_DescribeConfigsRequest_1(o, w):
    x = o.resources
    w.append(_I(len(x)))
    for e in x:
        _e_DescribeConfigsResource_0(e, w)
    w.append(_S2.pack(o.include_synonyms, o.include_documentation))


def _n_DescribeConfigsResource_1(b, p, y):
    o = _new(DescribeConfigsResource)
    o.resource_type, = _S0.unpack_from(b, p)
    p += 1
    o.resource_name, p = _rcstr(b, p)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcnal(b, p, 1)
    if n < 0:
        o.configuration_keys = None
    else:
        l = []
        for _ in range(n):
            e, p = _rcstr(b, p)
            l.append(e)
            if p >= y:
                y = p + 16384
                yield
        o.configuration_keys = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p, y


def _s_DescribeConfigsRequest_2(b, p):
    o = _new(DescribeConfigsRequest)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 4)
    y = p + 16384
    l = []
    for _ in range(n):
        e, p, y = yield from _n_DescribeConfigsResource_1(b, p, y)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.resources = l
    o.include_synonyms, o.include_documentation = _S2.unpack_from(b, p)
    p += 2
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_DescribeConfigsResource_1(o, w):
    w.append(_S0.pack(o.resource_type))
    _wcstr(w, o.resource_name)
    x = o.configuration_keys
    if x is None:
        w.append(b'\x00')
    else:
        w.append(_uv(len(x) + 1))
        for e in x:
            _wcstr(w, e)
    _wtag(w, o._unknown_tagged)


def _e_DescribeConfigsRequest_2(o, w):
    x = o.resources
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_DescribeConfigsResource_1(e, w)
    w.append(_S2.pack(o.include_synonyms, o.include_documentation))
    _wtag(w, o._unknown_tagged)


_d_s_DescribeConfigsRequest_0 = _whole(_s_DescribeConfigsRequest_0)
_d_s_DescribeConfigsRequest_1 = _whole(_s_DescribeConfigsRequest_1)
_d_s_DescribeConfigsRequest_2 = _whole(_s_DescribeConfigsRequest_2)
DescribeConfigsRequest._STEPS = {1: _s_DescribeConfigsRequest_0, 2: _s_DescribeConfigsRequest_0, 3: _s_DescribeConfigsRequest_1, 4: _s_DescribeConfigsRequest_2}
DescribeConfigsRequest._DECODERS = {1: _d_s_DescribeConfigsRequest_0, 2: _d_s_DescribeConfigsRequest_0, 3: _d_s_DescribeConfigsRequest_1, 4: _d_s_DescribeConfigsRequest_2}
DescribeConfigsRequest._ENCODERS = {1: _e_DescribeConfigsRequest_0, 2: _e_DescribeConfigsRequest_0, 3: _e_DescribeConfigsRequest_1, 4: _e_DescribeConfigsRequest_2}
