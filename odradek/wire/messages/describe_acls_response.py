"""Generated from Kafka's DescribeAclsResponse.json by tools/gen_wire.py. Do not edit."""
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
_S2 = _struct.Struct('>bb')


class AclDescription(Message):
    __slots__ = ('principal', 'host', 'operation', 'permission_type', '_unknown_tagged')
    _FIELDS = (('principal', 'string', 0, 32767, -1, -1, None, -1, None), ('host', 'string', 0, 32767, -1, -1, None, -1, None), ('operation', 'int8', 0, 32767, -1, -1, None, -1, None), ('permission_type', 'int8', 0, 32767, -1, -1, None, -1, None))

    def __init__(self, *, principal='', host='', operation=0, permission_type=0, _unknown_tagged=None):
        self.principal = principal
        self.host = host
        self.operation = operation
        self.permission_type = permission_type
        self._unknown_tagged = _unknown_tagged


class DescribeAclsResource(Message):
    __slots__ = ('resource_type', 'resource_name', 'pattern_type', 'acls', '_unknown_tagged')
    _FIELDS = (('resource_type', 'int8', 0, 32767, -1, -1, None, -1, None), ('resource_name', 'string', 0, 32767, -1, -1, None, -1, None), ('pattern_type', 'int8', 1, 32767, -1, -1, None, -1, None), ('acls', '[]AclDescription', 0, 32767, -1, -1, None, -1, 'AclDescription'))

    def __init__(self, *, resource_type=0, resource_name='', pattern_type=3, acls=DEFAULT, _unknown_tagged=None):
        self.resource_type = resource_type
        self.resource_name = resource_name
        self.pattern_type = pattern_type
        self.acls = [] if acls is DEFAULT else acls
        self._unknown_tagged = _unknown_tagged


class DescribeAclsResponse(Message):
    __slots__ = ('throttle_time_ms', 'error_code', 'error_message', 'resources', '_unknown_tagged')
    _FIELDS = (('throttle_time_ms', 'int32', 0, 32767, -1, -1, None, -1, None), ('error_code', 'int16', 0, 32767, -1, -1, None, -1, None), ('error_message', 'string', 0, 32767, 0, 32767, None, -1, None), ('resources', '[]DescribeAclsResource', 0, 32767, -1, -1, None, -1, 'DescribeAclsResource'))
    API_KEY = 29
    VALID_VERSIONS = (1, 3)
    FLEXIBLE_MIN = 2

    def __init__(self, *, throttle_time_ms=0, error_code=0, error_message='', resources=DEFAULT, _unknown_tagged=None):
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.error_message = error_message
        self.resources = [] if resources is DEFAULT else resources
        self._unknown_tagged = _unknown_tagged



def _d_AclDescription_0(b, p):
    o = _new(AclDescription)
    o.principal, p = _rstr(b, p)
    o.host, p = _rstr(b, p)
    o.operation, o.permission_type = _S2.unpack_from(b, p)
    p += 2
    o._unknown_tagged = None
    return o, p


def _d_DescribeAclsResource_0(b, p):
    o = _new(DescribeAclsResource)
    o.resource_type, = _S1.unpack_from(b, p)
    p += 1
    o.resource_name, p = _rstr(b, p)
    o.pattern_type, = _S1.unpack_from(b, p)
    p += 1
    n, p = _ral(b, p, 6)
    l = []
    for _ in range(n):
        e, p = _d_AclDescription_0(b, p)
        l.append(e)
    o.acls = l
    o._unknown_tagged = None
    return o, p


def _d_DescribeAclsResponse_0(b, p):
    o = _new(DescribeAclsResponse)
    o.throttle_time_ms, o.error_code = _S0.unpack_from(b, p)
    p += 6
    o.error_message, p = _rnstr(b, p)
    n, p = _ral(b, p, 8)
    l = []
    for _ in range(n):
        e, p = _d_DescribeAclsResource_0(b, p)
        l.append(e)
    o.resources = l
    o._unknown_tagged = None
    return o, p


def _e_AclDescription_0(o, w):
    _wstr(w, o.principal)
    _wstr(w, o.host)
    w.append(_S2.pack(o.operation, o.permission_type))


def _e_DescribeAclsResource_0(o, w):
    w.append(_S1.pack(o.resource_type))
    _wstr(w, o.resource_name)
    w.append(_S1.pack(o.pattern_type))
    x = o.acls
    w.append(_I(len(x)))
    for e in x:
        _e_AclDescription_0(e, w)


def _e_DescribeAclsResponse_0(o, w):
    w.append(_S0.pack(o.throttle_time_ms, o.error_code))
    _wnstr(w, o.error_message)
    x = o.resources
    w.append(_I(len(x)))
    for e in x:
        _e_DescribeAclsResource_0(e, w)


def _u_DescribeAclsResource_0(o, w, c):
    w.append(_S1.pack(o.resource_type))
    _wstr(w, o.resource_name)
    w.append(_S1.pack(o.pattern_type))
    x = o.acls
    w.append(_I(len(x)))
    for e in x:
        _e_AclDescription_0(e, w)
        c += 1
        if c >= 1000:
            c = 0
            yield
    return c


def _t_DescribeAclsResponse_0(o, w):
    c = 0
    w.append(_S0.pack(o.throttle_time_ms, o.error_code))
    _wnstr(w, o.error_message)
    x = o.resources
    w.append(_I(len(x)))
    for e in x:
        c = yield from _u_DescribeAclsResource_0(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield


def _d_AclDescription_1(b, p):
    o = _new(AclDescription)
    o.principal, p = _rcstr(b, p)
    o.host, p = _rcstr(b, p)
    o.operation, o.permission_type = _S2.unpack_from(b, p)
    p += 2
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_DescribeAclsResource_1(b, p):
    o = _new(DescribeAclsResource)
    o.resource_type, = _S1.unpack_from(b, p)
    p += 1
    o.resource_name, p = _rcstr(b, p)
    o.pattern_type, = _S1.unpack_from(b, p)
    p += 1
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 5)
    l = []
    for _ in range(n):
        e, p = _d_AclDescription_1(b, p)
        l.append(e)
    o.acls = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_DescribeAclsResponse_1(b, p):
    o = _new(DescribeAclsResponse)
    o.throttle_time_ms, o.error_code = _S0.unpack_from(b, p)
    p += 6
    o.error_message, p = _rcnstr(b, p)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 5)
    l = []
    for _ in range(n):
        e, p = _d_DescribeAclsResource_1(b, p)
        l.append(e)
    o.resources = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_AclDescription_1(o, w):
    _wcstr(w, o.principal)
    _wcstr(w, o.host)
    w.append(_S2.pack(o.operation, o.permission_type))
    _wtag(w, o._unknown_tagged)


def _e_DescribeAclsResource_1(o, w):
    w.append(_S1.pack(o.resource_type))
    _wcstr(w, o.resource_name)
    w.append(_S1.pack(o.pattern_type))
    x = o.acls
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_AclDescription_1(e, w)
    _wtag(w, o._unknown_tagged)


def _e_DescribeAclsResponse_1(o, w):
    w.append(_S0.pack(o.throttle_time_ms, o.error_code))
    _wcnstr(w, o.error_message)
    x = o.resources
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_DescribeAclsResource_1(e, w)
    _wtag(w, o._unknown_tagged)


def _u_DescribeAclsResource_1(o, w, c):
    w.append(_S1.pack(o.resource_type))
    _wcstr(w, o.resource_name)
    w.append(_S1.pack(o.pattern_type))
    x = o.acls
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_AclDescription_1(e, w)
        c += 1
        if c >= 1000:
            c = 0
            yield
    _wtag(w, o._unknown_tagged)
    return c


def _t_DescribeAclsResponse_1(o, w):
    c = 0
    w.append(_S0.pack(o.throttle_time_ms, o.error_code))
    _wcnstr(w, o.error_message)
    x = o.resources
    w.append(_uv(len(x) + 1))
    for e in x:
        c = yield from _u_DescribeAclsResource_1(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield
    _wtag(w, o._unknown_tagged)


DescribeAclsResponse._DECODERS = {1: _d_DescribeAclsResponse_0, 2: _d_DescribeAclsResponse_1, 3: _d_DescribeAclsResponse_1}
DescribeAclsResponse._ENCODERS = {1: _e_DescribeAclsResponse_0, 2: _e_DescribeAclsResponse_1, 3: _e_DescribeAclsResponse_1}
DescribeAclsResponse._ENCODE_STEPS = {1: _t_DescribeAclsResponse_0, 2: _t_DescribeAclsResponse_1, 3: _t_DescribeAclsResponse_1}
