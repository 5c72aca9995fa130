"""Generated from Kafka's DeleteAclsResponse.json by tools/gen_wire.py. Do not edit."""
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

_S0 = _struct.Struct('>i')
_S1 = _struct.Struct('>h')
_S2 = _struct.Struct('>b')
_S3 = _struct.Struct('>bb')


class DeleteAclsMatchingAcl(Message):
    __slots__ = ('error_code', 'error_message', 'resource_type', 'resource_name', 'pattern_type', 'principal', 'host', 'operation', 'permission_type', '_unknown_tagged')
    _FIELDS = (('error_code', 'int16', 0, 32767, -1, -1, None, -1, None), ('error_message', 'string', 0, 32767, 0, 32767, None, -1, None), ('resource_type', 'int8', 0, 32767, -1, -1, None, -1, None), ('resource_name', 'string', 0, 32767, -1, -1, None, -1, None), ('pattern_type', 'int8', 1, 32767, -1, -1, None, -1, None), ('principal', 'string', 0, 32767, -1, -1, None, -1, None), ('host', 'string', 0, 32767, -1, -1, None, -1, None), ('operation', 'int8', 0, 32767, -1, -1, None, -1, None), ('permission_type', 'int8', 0, 32767, -1, -1, None, -1, None))

    def __init__(self, *, error_code=0, error_message='', resource_type=0, resource_name='', pattern_type=3, principal='', host='', operation=0, permission_type=0, _unknown_tagged=None):
        self.error_code = error_code
        self.error_message = error_message
        self.resource_type = resource_type
        self.resource_name = resource_name
        self.pattern_type = pattern_type
        self.principal = principal
        self.host = host
        self.operation = operation
        self.permission_type = permission_type
        self._unknown_tagged = _unknown_tagged


class DeleteAclsFilterResult(Message):
    __slots__ = ('error_code', 'error_message', 'matching_acls', '_unknown_tagged')
    _FIELDS = (('error_code', 'int16', 0, 32767, -1, -1, None, -1, None), ('error_message', 'string', 0, 32767, 0, 32767, None, -1, None), ('matching_acls', '[]DeleteAclsMatchingAcl', 0, 32767, -1, -1, None, -1, 'DeleteAclsMatchingAcl'))

    def __init__(self, *, error_code=0, error_message='', matching_acls=DEFAULT, _unknown_tagged=None):
        self.error_code = error_code
        self.error_message = error_message
        self.matching_acls = [] if matching_acls is DEFAULT else matching_acls
        self._unknown_tagged = _unknown_tagged


class DeleteAclsResponse(Message):
    __slots__ = ('throttle_time_ms', 'filter_results', '_unknown_tagged')
    _FIELDS = (('throttle_time_ms', 'int32', 0, 32767, -1, -1, None, -1, None), ('filter_results', '[]DeleteAclsFilterResult', 0, 32767, -1, -1, None, -1, 'DeleteAclsFilterResult'))
    API_KEY = 31
    VALID_VERSIONS = (1, 3)
    FLEXIBLE_MIN = 2

    def __init__(self, *, throttle_time_ms=0, filter_results=DEFAULT, _unknown_tagged=None):
        self.throttle_time_ms = throttle_time_ms
        self.filter_results = [] if filter_results is DEFAULT else filter_results
        self._unknown_tagged = _unknown_tagged



def _d_DeleteAclsMatchingAcl_0(b, p):
    o = _new(DeleteAclsMatchingAcl)
    o.error_code, = _S1.unpack_from(b, p)
    p += 2
    o.error_message, p = _rnstr(b, p)
    o.resource_type, = _S2.unpack_from(b, p)
    p += 1
    o.resource_name, p = _rstr(b, p)
    o.pattern_type, = _S2.unpack_from(b, p)
    p += 1
    o.principal, p = _rstr(b, p)
    o.host, p = _rstr(b, p)
    o.operation, o.permission_type = _S3.unpack_from(b, p)
    p += 2
    o._unknown_tagged = None
    return o, p


def _d_DeleteAclsFilterResult_0(b, p):
    o = _new(DeleteAclsFilterResult)
    o.error_code, = _S1.unpack_from(b, p)
    p += 2
    o.error_message, p = _rnstr(b, p)
    n, p = _ral(b, p, 14)
    l = []
    for _ in range(n):
        e, p = _d_DeleteAclsMatchingAcl_0(b, p)
        l.append(e)
    o.matching_acls = l
    o._unknown_tagged = None
    return o, p


def _d_DeleteAclsResponse_0(b, p):
    o = _new(DeleteAclsResponse)
    o.throttle_time_ms, = _S0.unpack_from(b, p)
    p += 4
    n, p = _ral(b, p, 8)
    l = []
    for _ in range(n):
        e, p = _d_DeleteAclsFilterResult_0(b, p)
        l.append(e)
    o.filter_results = l
    o._unknown_tagged = None
    return o, p


def _e_DeleteAclsMatchingAcl_0(o, w):
    w.append(_S1.pack(o.error_code))
    _wnstr(w, o.error_message)
    w.append(_S2.pack(o.resource_type))
    _wstr(w, o.resource_name)
    w.append(_S2.pack(o.pattern_type))
    _wstr(w, o.principal)
    _wstr(w, o.host)
    w.append(_S3.pack(o.operation, o.permission_type))


def _e_DeleteAclsFilterResult_0(o, w):
    w.append(_S1.pack(o.error_code))
    _wnstr(w, o.error_message)
    x = o.matching_acls
    w.append(_I(len(x)))
    for e in x:
        _e_DeleteAclsMatchingAcl_0(e, w)


def _e_DeleteAclsResponse_0(o, w):
    w.append(_S0.pack(o.throttle_time_ms))
    x = o.filter_results
    w.append(_I(len(x)))
    for e in x:
        _e_DeleteAclsFilterResult_0(e, w)


def _u_DeleteAclsFilterResult_0(o, w, c):
    w.append(_S1.pack(o.error_code))
    _wnstr(w, o.error_message)
    x = o.matching_acls
    w.append(_I(len(x)))
    for e in x:
        _e_DeleteAclsMatchingAcl_0(e, w)
        c += 1
        if c >= 1000:
            c = 0
            yield
    return c


def _t_DeleteAclsResponse_0(o, w):
    c = 0
    w.append(_S0.pack(o.throttle_time_ms))
    x = o.filter_results
    w.append(_I(len(x)))
    for e in x:
        c = yield from _u_DeleteAclsFilterResult_0(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield


def _d_DeleteAclsMatchingAcl_1(b, p):
    o = _new(DeleteAclsMatchingAcl)
    o.error_code, = _S1.unpack_from(b, p)
    p += 2
    o.error_message, p = _rcnstr(b, p)
    o.resource_type, = _S2.unpack_from(b, p)
    p += 1
    o.resource_name, p = _rcstr(b, p)
    o.pattern_type, = _S2.unpack_from(b, p)
    p += 1
    o.principal, p = _rcstr(b, p)
    o.host, p = _rcstr(b, p)
    o.operation, o.permission_type = _S3.unpack_from(b, p)
    p += 2
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_DeleteAclsFilterResult_1(b, p):
    o = _new(DeleteAclsFilterResult)
    o.error_code, = _S1.unpack_from(b, p)
    p += 2
    o.error_message, p = _rcnstr(b, p)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 11)
    l = []
    for _ in range(n):
        e, p = _d_DeleteAclsMatchingAcl_1(b, p)
        l.append(e)
    o.matching_acls = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_DeleteAclsResponse_1(b, p):
    o = _new(DeleteAclsResponse)
    o.throttle_time_ms, = _S0.unpack_from(b, p)
    p += 4
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 5)
    l = []
    for _ in range(n):
        e, p = _d_DeleteAclsFilterResult_1(b, p)
        l.append(e)
    o.filter_results = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_DeleteAclsMatchingAcl_1(o, w):
    w.append(_S1.pack(o.error_code))
    _wcnstr(w, o.error_message)
    w.append(_S2.pack(o.resource_type))
    _wcstr(w, o.resource_name)
    w.append(_S2.pack(o.pattern_type))
    _wcstr(w, o.principal)
    _wcstr(w, o.host)
    w.append(_S3.pack(o.operation, o.permission_type))
    _wtag(w, o._unknown_tagged)


def _e_DeleteAclsFilterResult_1(o, w):
    w.append(_S1.pack(o.error_code))
    _wcnstr(w, o.error_message)
    x = o.matching_acls
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_DeleteAclsMatchingAcl_1(e, w)
    _wtag(w, o._unknown_tagged)


def _e_DeleteAclsResponse_1(o, w):
    w.append(_S0.pack(o.throttle_time_ms))
    x = o.filter_results
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_DeleteAclsFilterResult_1(e, w)
    _wtag(w, o._unknown_tagged)


def _u_DeleteAclsFilterResult_1(o, w, c):
    w.append(_S1.pack(o.error_code))
    _wcnstr(w, o.error_message)
    x = o.matching_acls
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_DeleteAclsMatchingAcl_1(e, w)
        c += 1
        if c >= 1000:
            c = 0
            yield
    _wtag(w, o._unknown_tagged)
    return c


def _t_DeleteAclsResponse_1(o, w):
    c = 0
    w.append(_S0.pack(o.throttle_time_ms))
    x = o.filter_results
    w.append(_uv(len(x) + 1))
    for e in x:
        c = yield from _u_DeleteAclsFilterResult_1(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield
    _wtag(w, o._unknown_tagged)


DeleteAclsResponse._DECODERS = {1: _d_DeleteAclsResponse_0, 2: _d_DeleteAclsResponse_1, 3: _d_DeleteAclsResponse_1}
DeleteAclsResponse._ENCODERS = {1: _e_DeleteAclsResponse_0, 2: _e_DeleteAclsResponse_1, 3: _e_DeleteAclsResponse_1}
DeleteAclsResponse._ENCODE_STEPS = {1: _t_DeleteAclsResponse_0, 2: _t_DeleteAclsResponse_1, 3: _t_DeleteAclsResponse_1}
