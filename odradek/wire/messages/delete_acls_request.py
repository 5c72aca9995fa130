"""Generated from Kafka's DeleteAclsRequest.json by tools/gen_wire.py. Do not edit."""
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


class DeleteAclsFilter(Message):
    __slots__ = ('resource_type_filter', 'resource_name_filter', 'pattern_type_filter', 'principal_filter', 'host_filter', 'operation', 'permission_type', '_unknown_tagged')
    _FIELDS = (('resource_type_filter', 'int8', 0, 32767, -1, -1, None, -1, None), ('resource_name_filter', 'string', 0, 32767, 0, 32767, None, -1, None), ('pattern_type_filter', 'int8', 1, 32767, -1, -1, None, -1, None), ('principal_filter', 'string', 0, 32767, 0, 32767, None, -1, None), ('host_filter', 'string', 0, 32767, 0, 32767, None, -1, None), ('operation', 'int8', 0, 32767, -1, -1, None, -1, None), ('permission_type', 'int8', 0, 32767, -1, -1, None, -1, None))

    def __init__(self, *, resource_type_filter=0, resource_name_filter='', pattern_type_filter=3, principal_filter='', host_filter='', operation=0, permission_type=0, _unknown_tagged=None):
        self.resource_type_filter = resource_type_filter
        self.resource_name_filter = resource_name_filter
        self.pattern_type_filter = pattern_type_filter
        self.principal_filter = principal_filter
        self.host_filter = host_filter
        self.operation = operation
        self.permission_type = permission_type
        self._unknown_tagged = _unknown_tagged


class DeleteAclsRequest(Message):
    __slots__ = ('filters', '_unknown_tagged')
    _FIELDS = (('filters', '[]DeleteAclsFilter', 0, 32767, -1, -1, None, -1, 'DeleteAclsFilter'),)
    API_KEY = 31
    VALID_VERSIONS = (1, 3)
    FLEXIBLE_MIN = 2

    def __init__(self, *, filters=DEFAULT, _unknown_tagged=None):
        self.filters = [] if filters is DEFAULT else filters
        self._unknown_tagged = _unknown_tagged



def _d_DeleteAclsFilter_0(b, p):
    o = _new(DeleteAclsFilter)
    o.resource_type_filter, = _S0.unpack_from(b, p)
    p += 1
    o.resource_name_filter, p = _rnstr(b, p)
    o.pattern_type_filter, = _S0.unpack_from(b, p)
    p += 1
    o.principal_filter, p = _rnstr(b, p)
    o.host_filter, p = _rnstr(b, p)
    o.operation, o.permission_type = _S1.unpack_from(b, p)
    p += 2
    o._unknown_tagged = None
    return o, p


def _s_DeleteAclsRequest_0(b, p):
    o = _new(DeleteAclsRequest)
    n, p = _ral(b, p, 10)
    y = p + 16384
    l = []
    for _ in range(n):
        e, p = _d_DeleteAclsFilter_0(b, p)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.filters = l
    o._unknown_tagged = None
    return o, p


def _e_DeleteAclsFilter_0(o, w):
    w.append(_S0.pack(o.resource_type_filter))
    _wnstr(w, o.resource_name_filter)
    w.append(_S0.pack(o.pattern_type_filter))
    _wnstr(w, o.principal_filter)
    _wnstr(w, o.host_filter)
    w.append(_S1.pack(o.operation, o.permission_type))


def _e_DeleteAclsRequest_0(o, w):
    x = o.filters
    w.append(_I(len(x)))
    for e in x:
        _e_DeleteAclsFilter_0(e, w)


def _d_DeleteAclsFilter_1(b, p):
    o = _new(DeleteAclsFilter)
    o.resource_type_filter, = _S0.unpack_from(b, p)
    p += 1
    o.resource_name_filter, p = _rcnstr(b, p)
    o.pattern_type_filter, = _S0.unpack_from(b, p)
    p += 1
    o.principal_filter, p = _rcnstr(b, p)
    o.host_filter, p = _rcnstr(b, p)
    o.operation, o.permission_type = _S1.unpack_from(b, p)
    p += 2
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _s_DeleteAclsRequest_1(b, p):
    o = _new(DeleteAclsRequest)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 8)
    y = p + 16384
    l = []
    for _ in range(n):
        e, p = _d_DeleteAclsFilter_1(b, p)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.filters = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_DeleteAclsFilter_1(o, w):
    w.append(_S0.pack(o.resource_type_filter))
    _wcnstr(w, o.resource_name_filter)
    w.append(_S0.pack(o.pattern_type_filter))
    _wcnstr(w, o.principal_filter)
    _wcnstr(w, o.host_filter)
    w.append(_S1.pack(o.operation, o.permission_type))
    _wtag(w, o._unknown_tagged)


def _e_DeleteAclsRequest_1(o, w):
    x = o.filters
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_DeleteAclsFilter_1(e, w)
    _wtag(w, o._unknown_tagged)


_d_s_DeleteAclsRequest_0 = _whole(_s_DeleteAclsRequest_0)
_d_s_DeleteAclsRequest_1 = _whole(_s_DeleteAclsRequest_1)
DeleteAclsRequest._STEPS = {1: _s_DeleteAclsRequest_0, 2: _s_DeleteAclsRequest_1, 3: _s_DeleteAclsRequest_1}
DeleteAclsRequest._DECODERS = {1: _d_s_DeleteAclsRequest_0, 2: _d_s_DeleteAclsRequest_1, 3: _d_s_DeleteAclsRequest_1}
DeleteAclsRequest._ENCODERS = {1: _e_DeleteAclsRequest_0, 2: _e_DeleteAclsRequest_1, 3: _e_DeleteAclsRequest_1}
