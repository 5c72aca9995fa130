"""Generated from Kafka's ListConfigResourcesResponse.json by tools/gen_wire.py. Do not edit."""
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

_S0 = _struct.Struct('>ih')
_S1 = _struct.Struct('>b')


class ConfigResource(Message):
    __slots__ = ('resource_name', 'resource_type', '_unknown_tagged')
    _FIELDS = (('resource_name', 'string', 0, 32767, -1, -1, None, -1, None), ('resource_type', 'int8', 1, 32767, -1, -1, None, -1, None))

    def __init__(self, *, resource_name='', resource_type=16, _unknown_tagged=None):
        self.resource_name = resource_name
        self.resource_type = resource_type
        self._unknown_tagged = _unknown_tagged


class ListConfigResourcesResponse(Message):
    __slots__ = ('throttle_time_ms', 'error_code', 'config_resources', '_unknown_tagged')
    _FIELDS = (('throttle_time_ms', 'int32', 0, 32767, -1, -1, None, -1, None), ('error_code', 'int16', 0, 32767, -1, -1, None, -1, None), ('config_resources', '[]ConfigResource', 0, 32767, -1, -1, None, -1, 'ConfigResource'))
    API_KEY = 74
    VALID_VERSIONS = (0, 1)
    FLEXIBLE_MIN = 0

    def __init__(self, *, throttle_time_ms=0, error_code=0, config_resources=DEFAULT, _unknown_tagged=None):
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.config_resources = [] if config_resources is DEFAULT else config_resources
        self._unknown_tagged = _unknown_tagged



def _d_ConfigResource_0(b, p):
    o = _new(ConfigResource)
    o.resource_name, p = _rcstr(b, p)
    o.resource_type = 16
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_ListConfigResourcesResponse_0(b, p):
    o = _new(ListConfigResourcesResponse)
    o.throttle_time_ms, o.error_code = _S0.unpack_from(b, p)
    p += 6
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 2)
    l = []
    for _ in range(n):
        e, p = _d_ConfigResource_0(b, p)
        l.append(e)
    o.config_resources = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_ConfigResource_0(o, w):
    _wcstr(w, o.resource_name)
    _wtag(w, o._unknown_tagged)


def _e_ListConfigResourcesResponse_0(o, w):
    w.append(_S0.pack(o.throttle_time_ms, o.error_code))
    x = o.config_resources
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_ConfigResource_0(e, w)
    _wtag(w, o._unknown_tagged)


def _d_ConfigResource_1(b, p):
    o = _new(ConfigResource)
    o.resource_name, p = _rcstr(b, p)
    o.resource_type, = _S1.unpack_from(b, p)
    p += 1
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_ListConfigResourcesResponse_1(b, p):
    o = _new(ListConfigResourcesResponse)
    o.throttle_time_ms, o.error_code = _S0.unpack_from(b, p)
    p += 6
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 3)
    l = []
    for _ in range(n):
        e, p = _d_ConfigResource_1(b, p)
        l.append(e)
    o.config_resources = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_ConfigResource_1(o, w):
    _wcstr(w, o.resource_name)
    w.append(_S1.pack(o.resource_type))
    _wtag(w, o._unknown_tagged)


def _e_ListConfigResourcesResponse_1(o, w):
    w.append(_S0.pack(o.throttle_time_ms, o.error_code))
    x = o.config_resources
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_ConfigResource_1(e, w)
    _wtag(w, o._unknown_tagged)


ListConfigResourcesResponse._DECODERS = {0: _d_ListConfigResourcesResponse_0, 1: _d_ListConfigResourcesResponse_1}
ListConfigResourcesResponse._ENCODERS = {0: _e_ListConfigResourcesResponse_0, 1: _e_ListConfigResourcesResponse_1}
