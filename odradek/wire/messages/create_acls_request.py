"""Generated from Kafka's CreateAclsRequest.json by tools/gen_wire.py. Do not edit."""
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
_S1 = _struct.Struct('>bb')


class AclCreation(Message):
    __slots__ = ('resource_type', 'resource_name', 'resource_pattern_type', 'principal', 'host', 'operation', 'permission_type', '_unknown_tagged')
    _FIELDS = (('resource_type', 'int8', 0, 32767, -1, -1, None, -1, None), ('resource_name', 'string', 0, 32767, -1, -1, None, -1, None), ('resource_pattern_type', 'int8', 1, 32767, -1, -1, None, -1, None), ('principal', 'string', 0, 32767, -1, -1, None, -1, None), ('host', 'string', 0, 32767, -1, -1, None, -1, None), ('operation', 'int8', 0, 32767, -1, -1, None, -1, None), ('permission_type', 'int8', 0, 32767, -1, -1, None, -1, None))

    def __init__(self, *, resource_type=0, resource_name='', resource_pattern_type=3, principal='', host='', operation=0, permission_type=0, _unknown_tagged=None):
        self.resource_type = resource_type
        self.resource_name = resource_name
        self.resource_pattern_type = resource_pattern_type
        self.principal = principal
        self.host = host
        self.operation = operation
        self.permission_type = permission_type
        self._unknown_tagged = _unknown_tagged


class CreateAclsRequest(Message):
    __slots__ = ('creations', '_unknown_tagged')
    _FIELDS = (('creations', '[]AclCreation', 0, 32767, -1, -1, None, -1, 'AclCreation'),)
    API_KEY = 30
    VALID_VERSIONS = (1, 3)
    FLEXIBLE_MIN = 2

    def __init__(self, *, creations=DEFAULT, _unknown_tagged=None):
        self.creations = [] if creations is DEFAULT else creations
        self._unknown_tagged = _unknown_tagged



def _d_AclCreation_0(b, p):
    o = _new(AclCreation)
    o.resource_type, = _S0.unpack_from(b, p)
    p += 1
    o.resource_name, p = _rstr(b, p)
    o.resource_pattern_type, = _S0.unpack_from(b, p)
    p += 1
    o.principal, p = _rstr(b, p)
    o.host, p = _rstr(b, p)
    o.operation, o.permission_type = _S1.unpack_from(b, p)
    p += 2
    o._unknown_tagged = None
    return o, p


def _s_CreateAclsRequest_0(b, p):
    o = _new(CreateAclsRequest)
    n, p = _ral(b, p, 10)
    y = p + 16384
    l = []
    for _ in range(n):
        e, p = _d_AclCreation_0(b, p)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.creations = l
    o._unknown_tagged = None
    return o, p


def _e_AclCreation_0(o, w):
    w.append(_S0.pack(o.resource_type))
    _wstr(w, o.resource_name)
    w.append(_S0.pack(o.resource_pattern_type))
    _wstr(w, o.principal)
    _wstr(w, o.host)
    w.append(_S1.pack(o.operation, o.permission_type))


def _e_CreateAclsRequest_0(o, w):
    x = o.creations
    w.append(_I(len(x)))
    for e in x:
        _e_AclCreation_0(e, w)


def _d_AclCreation_1(b, p):
    o = _new(AclCreation)
    o.resource_type, = _S0.unpack_from(b, p)
    p += 1
    o.resource_name, p = _rcstr(b, p)
    o.resource_pattern_type, = _S0.unpack_from(b, p)
    p += 1
    o.principal, p = _rcstr(b, p)
    o.host, p = _rcstr(b, p)
    o.operation, o.permission_type = _S1.unpack_from(b, p)
    p += 2
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _s_CreateAclsRequest_1(b, p):
    o = _new(CreateAclsRequest)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 8)
    y = p + 16384
    l = []
    for _ in range(n):
        e, p = _d_AclCreation_1(b, p)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.creations = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_AclCreation_1(o, w):
    w.append(_S0.pack(o.resource_type))
    _wcstr(w, o.resource_name)
    w.append(_S0.pack(o.resource_pattern_type))
    _wcstr(w, o.principal)
    _wcstr(w, o.host)
    w.append(_S1.pack(o.operation, o.permission_type))
    _wtag(w, o._unknown_tagged)


def _e_CreateAclsRequest_1(o, w):
    x = o.creations
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_AclCreation_1(e, w)
    _wtag(w, o._unknown_tagged)


_d_s_CreateAclsRequest_0 = _whole(_s_CreateAclsRequest_0)
_d_s_CreateAclsRequest_1 = _whole(_s_CreateAclsRequest_1)
CreateAclsRequest._STEPS = {1: _s_CreateAclsRequest_0, 2: _s_CreateAclsRequest_1, 3: _s_CreateAclsRequest_1}
CreateAclsRequest._DECODERS = {1: _d_s_CreateAclsRequest_0, 2: _d_s_CreateAclsRequest_1, 3: _d_s_CreateAclsRequest_1}
CreateAclsRequest._ENCODERS = {1: _e_CreateAclsRequest_0, 2: _e_CreateAclsRequest_1, 3: _e_CreateAclsRequest_1}
