"""Generated from Kafka's AlterConfigsRequest.json by tools/gen_wire.py. Do not edit."""
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


class AlterableConfig(Message):
    __slots__ = ('name', 'value', '_unknown_tagged')
    _FIELDS = (('name', 'string', 0, 32767, -1, -1, None, -1, None), ('value', 'string', 0, 32767, 0, 32767, None, -1, None))

    def __init__(self, *, name='', value='', _unknown_tagged=None):
        self.name = name
        self.value = value
        self._unknown_tagged = _unknown_tagged


class AlterConfigsResource(Message):
    __slots__ = ('resource_type', 'resource_name', 'configs', '_unknown_tagged')
    _FIELDS = (('resource_type', 'int8', 0, 32767, -1, -1, None, -1, None), ('resource_name', 'string', 0, 32767, -1, -1, None, -1, None), ('configs', '[]AlterableConfig', 0, 32767, -1, -1, None, -1, 'AlterableConfig'))

    def __init__(self, *, resource_type=0, resource_name='', configs=DEFAULT, _unknown_tagged=None):
        self.resource_type = resource_type
        self.resource_name = resource_name
        self.configs = [] if configs is DEFAULT else configs
        self._unknown_tagged = _unknown_tagged


class AlterConfigsRequest(Message):
    __slots__ = ('resources', 'validate_only', '_unknown_tagged')
    _FIELDS = (('resources', '[]AlterConfigsResource', 0, 32767, -1, -1, None, -1, 'AlterConfigsResource'), ('validate_only', 'bool', 0, 32767, -1, -1, None, -1, None))
    API_KEY = 33
    VALID_VERSIONS = (0, 2)
    FLEXIBLE_MIN = 2

    def __init__(self, *, resources=DEFAULT, validate_only=False, _unknown_tagged=None):
        self.resources = [] if resources is DEFAULT else resources
        self.validate_only = validate_only
        self._unknown_tagged = _unknown_tagged



def _d_AlterableConfig_0(b, p):
    o = _new(AlterableConfig)
    o.name, p = _rstr(b, p)
    o.value, p = _rnstr(b, p)
    o._unknown_tagged = None
    return o, p


def _n_AlterConfigsResource_0(b, p, y):
    o = _new(AlterConfigsResource)
    o.resource_type, = _S0.unpack_from(b, p)
    p += 1
    o.resource_name, p = _rstr(b, p)
    n, p = _ral(b, p, 4)
    l = []
    for _ in range(n):
        e, p = _d_AlterableConfig_0(b, p)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.configs = l
    o._unknown_tagged = None
    return o, p, y


def _s_AlterConfigsRequest_0(b, p):
    o = _new(AlterConfigsRequest)
    n, p = _ral(b, p, 7)
    y = p + 16384
    l = []
    for _ in range(n):
        e, p, y = yield from _n_AlterConfigsResource_0(b, p, y)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.resources = l
    o.validate_only, = _S1.unpack_from(b, p)
    p += 1
    o._unknown_tagged = None
    return o, p


def _e_AlterableConfig_0(o, w):
    _wstr(w, o.name)
    _wnstr(w, o.value)


def _e_AlterConfigsResource_0(o, w):
    w.append(_S0.pack(o.resource_type))
    _wstr(w, o.resource_name)
    x = o.configs
    w.append(_I(len(x)))
    for e in x:
        _e_AlterableConfig_0(e, w)


def _e_AlterConfigsRequest_0(o, w):
    x = o.resources
    w.append(_I(len(x)))
    for e in x:
        _e_AlterConfigsResource_0(e, w)
    w.append(_S1.pack(o.validate_only))


def _d_AlterableConfig_1(b, p):
    o = _new(AlterableConfig)
    o.name, p = _rcstr(b, p)
    o.value, p = _rcnstr(b, p)
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _n_AlterConfigsResource_1(b, p, y):
    o = _new(AlterConfigsResource)
    o.resource_type, = _S0.unpack_from(b, p)
    p += 1
    o.resource_name, p = _rcstr(b, p)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 3)
    l = []
    for _ in range(n):
        e, p = _d_AlterableConfig_1(b, p)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.configs = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p, y


def _s_AlterConfigsRequest_1(b, p):
    o = _new(AlterConfigsRequest)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 4)
    y = p + 16384
    l = []
    for _ in range(n):
        e, p, y = yield from _n_AlterConfigsResource_1(b, p, y)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.resources = l
    o.validate_only, = _S1.unpack_from(b, p)
    p += 1
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_AlterableConfig_1(o, w):
    _wcstr(w, o.name)
    _wcnstr(w, o.value)
    _wtag(w, o._unknown_tagged)


def _e_AlterConfigsResource_1(o, w):
    w.append(_S0.pack(o.resource_type))
    _wcstr(w, o.resource_name)
    x = o.configs
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_AlterableConfig_1(e, w)
    _wtag(w, o._unknown_tagged)


def _e_AlterConfigsRequest_1(o, w):
    x = o.resources
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_AlterConfigsResource_1(e, w)
    w.append(_S1.pack(o.validate_only))
    _wtag(w, o._unknown_tagged)


_d_s_AlterConfigsRequest_0 = _whole(_s_AlterConfigsRequest_0)
_d_s_AlterConfigsRequest_1 = _whole(_s_AlterConfigsRequest_1)
AlterConfigsRequest._STEPS = {0: _s_AlterConfigsRequest_0, 1: _s_AlterConfigsRequest_0, 2: _s_AlterConfigsRequest_1}
AlterConfigsRequest._DECODERS = {0: _d_s_AlterConfigsRequest_0, 1: _d_s_AlterConfigsRequest_0, 2: _d_s_AlterConfigsRequest_1}
AlterConfigsRequest._ENCODERS = {0: _e_AlterConfigsRequest_0, 1: _e_AlterConfigsRequest_0, 2: _e_AlterConfigsRequest_1}
