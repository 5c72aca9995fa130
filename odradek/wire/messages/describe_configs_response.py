"""Generated from Kafka's DescribeConfigsResponse.json by tools/gen_wire.py. Do not edit."""
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
_S3 = _struct.Struct('>?b?')


class DescribeConfigsSynonym(Message):
    __slots__ = ('name', 'value', 'source', '_unknown_tagged')
    _FIELDS = (('name', 'string', 1, 32767, -1, -1, None, -1, None), ('value', 'string', 1, 32767, 0, 32767, None, -1, None), ('source', 'int8', 1, 32767, -1, -1, None, -1, None))

    def __init__(self, *, name='', value='', source=0, _unknown_tagged=None):
        self.name = name
        self.value = value
        self.source = source
        self._unknown_tagged = _unknown_tagged


class DescribeConfigsResourceResult(Message):
    __slots__ = ('name', 'value', 'read_only', 'config_source', 'is_sensitive', 'synonyms', 'config_type', 'documentation', '_unknown_tagged')
    _FIELDS = (('name', 'string', 0, 32767, -1, -1, None, -1, None), ('value', 'string', 0, 32767, 0, 32767, None, -1, None), ('read_only', 'bool', 0, 32767, -1, -1, None, -1, None), ('config_source', 'int8', 1, 32767, -1, -1, None, -1, None), ('is_sensitive', 'bool', 0, 32767, -1, -1, None, -1, None), ('synonyms', '[]DescribeConfigsSynonym', 1, 32767, -1, -1, None, -1, 'DescribeConfigsSynonym'), ('config_type', 'int8', 3, 32767, -1, -1, None, -1, None), ('documentation', 'string', 3, 32767, 0, 32767, None, -1, None))

    def __init__(self, *, name='', value='', read_only=False, config_source=-1, is_sensitive=False, synonyms=DEFAULT, config_type=0, documentation='', _unknown_tagged=None):
        self.name = name
        self.value = value
        self.read_only = read_only
        self.config_source = config_source
        self.is_sensitive = is_sensitive
        self.synonyms = [] if synonyms is DEFAULT else synonyms
        self.config_type = config_type
        self.documentation = documentation
        self._unknown_tagged = _unknown_tagged


class DescribeConfigsResult(Message):
    __slots__ = ('error_code', 'error_message', 'resource_type', 'resource_name', 'configs', '_unknown_tagged')
    _FIELDS = (('error_code', 'int16', 0, 32767, -1, -1, None, -1, None), ('error_message', 'string', 0, 32767, 0, 32767, None, -1, None), ('resource_type', 'int8', 0, 32767, -1, -1, None, -1, None), ('resource_name', 'string', 0, 32767, -1, -1, None, -1, None), ('configs', '[]DescribeConfigsResourceResult', 0, 32767, -1, -1, None, -1, 'DescribeConfigsResourceResult'))

    def __init__(self, *, error_code=0, error_message='', resource_type=0, resource_name='', configs=DEFAULT, _unknown_tagged=None):
        self.error_code = error_code
        self.error_message = error_message
        self.resource_type = resource_type
        self.resource_name = resource_name
        self.configs = [] if configs is DEFAULT else configs
        self._unknown_tagged = _unknown_tagged


class DescribeConfigsResponse(Message):
    __slots__ = ('throttle_time_ms', 'results', '_unknown_tagged')
    _FIELDS = (('throttle_time_ms', 'int32', 0, 32767, -1, -1, None, -1, None), ('results', '[]DescribeConfigsResult', 0, 32767, -1, -1, None, -1, 'DescribeConfigsResult'))
    API_KEY = 32
    VALID_VERSIONS = (1, 4)
    FLEXIBLE_MIN = 4

    def __init__(self, *, throttle_time_ms=0, results=DEFAULT, _unknown_tagged=None):
        self.throttle_time_ms = throttle_time_ms
        self.results = [] if results is DEFAULT else results
        self._unknown_tagged = _unknown_tagged



def _d_DescribeConfigsSynonym_0(b, p):
    o = _new(DescribeConfigsSynonym)
    o.name, p = _rstr(b, p)
    o.value, p = _rnstr(b, p)
    o.source, = _S2.unpack_from(b, p)
    p += 1
    o._unknown_tagged = None
    return o, p


def _d_DescribeConfigsResourceResult_0(b, p):
    o = _new(DescribeConfigsResourceResult)
    o.name, p = _rstr(b, p)
    o.value, p = _rnstr(b, p)
    o.read_only, o.config_source, o.is_sensitive = _S3.unpack_from(b, p)
    p += 3
    n, p = _ral(b, p, 5)
    l = []
    for _ in range(n):
        e, p = _d_DescribeConfigsSynonym_0(b, p)
        l.append(e)
    o.synonyms = l
    o.config_type = 0
    o.documentation = ''
    o._unknown_tagged = None
    return o, p


def _d_DescribeConfigsResult_0(b, p):
    o = _new(DescribeConfigsResult)
    o.error_code, = _S1.unpack_from(b, p)
    p += 2
    o.error_message, p = _rnstr(b, p)
    o.resource_type, = _S2.unpack_from(b, p)
    p += 1
    o.resource_name, p = _rstr(b, p)
    n, p = _ral(b, p, 11)
    l = []
    for _ in range(n):
        e, p = _d_DescribeConfigsResourceResult_0(b, p)
        l.append(e)
    o.configs = l
    o._unknown_tagged = None
    return o, p


def _d_DescribeConfigsResponse_0(b, p):
    o = _new(DescribeConfigsResponse)
    o.throttle_time_ms, = _S0.unpack_from(b, p)
    p += 4
    n, p = _ral(b, p, 11)
    l = []
    for _ in range(n):
        e, p = _d_DescribeConfigsResult_0(b, p)
        l.append(e)
    o.results = l
    o._unknown_tagged = None
    return o, p


def _e_DescribeConfigsSynonym_0(o, w):
    _wstr(w, o.name)
    _wnstr(w, o.value)
    w.append(_S2.pack(o.source))


def _e_DescribeConfigsResourceResult_0(o, w):
    _wstr(w, o.name)
    _wnstr(w, o.value)
    w.append(_S3.pack(o.read_only, o.config_source, o.is_sensitive))
    x = o.synonyms
    w.append(_I(len(x)))
    for e in x:
        _e_DescribeConfigsSynonym_0(e, w)


def _e_DescribeConfigsResult_0(o, w):
    w.append(_S1.pack(o.error_code))
    _wnstr(w, o.error_message)
    w.append(_S2.pack(o.resource_type))
    _wstr(w, o.resource_name)
    x = o.configs
    w.append(_I(len(x)))
    for e in x:
        _e_DescribeConfigsResourceResult_0(e, w)


def _e_DescribeConfigsResponse_0(o, w):
    w.append(_S0.pack(o.throttle_time_ms))
    x = o.results
    w.append(_I(len(x)))
    for e in x:
        _e_DescribeConfigsResult_0(e, w)


def _u_DescribeConfigsResourceResult_0(o, w, c):
    _wstr(w, o.name)
    _wnstr(w, o.value)
    w.append(_S3.pack(o.read_only, o.config_source, o.is_sensitive))
    x = o.synonyms
    w.append(_I(len(x)))
    for e in x:
        _e_DescribeConfigsSynonym_0(e, w)
        c += 1
        if c >= 1000:
            c = 0
            yield
    return c


def _u_DescribeConfigsResult_0(o, w, c):
    w.append(_S1.pack(o.error_code))
    _wnstr(w, o.error_message)
    w.append(_S2.pack(o.resource_type))
    _wstr(w, o.resource_name)
    x = o.configs
    w.append(_I(len(x)))
    for e in x:
        c = yield from _u_DescribeConfigsResourceResult_0(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield
    return c


def _t_DescribeConfigsResponse_0(o, w):
    c = 0
    w.append(_S0.pack(o.throttle_time_ms))
    x = o.results
    w.append(_I(len(x)))
    for e in x:
        c = yield from _u_DescribeConfigsResult_0(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield


def _d_DescribeConfigsResourceResult_1(b, p):
    o = _new(DescribeConfigsResourceResult)
    o.name, p = _rstr(b, p)
    o.value, p = _rnstr(b, p)
    o.read_only, o.config_source, o.is_sensitive = _S3.unpack_from(b, p)
    p += 3
    n, p = _ral(b, p, 5)
    l = []
    for _ in range(n):
        e, p = _d_DescribeConfigsSynonym_0(b, p)
        l.append(e)
    o.synonyms = l
    o.config_type, = _S2.unpack_from(b, p)
    p += 1
    o.documentation, p = _rnstr(b, p)
    o._unknown_tagged = None
    return o, p


def _d_DescribeConfigsResult_1(b, p):
    o = _new(DescribeConfigsResult)
    o.error_code, = _S1.unpack_from(b, p)
    p += 2
    o.error_message, p = _rnstr(b, p)
    o.resource_type, = _S2.unpack_from(b, p)
    p += 1
    o.resource_name, p = _rstr(b, p)
    n, p = _ral(b, p, 14)
    l = []
    for _ in range(n):
        e, p = _d_DescribeConfigsResourceResult_1(b, p)
        l.append(e)
    o.configs = l
    o._unknown_tagged = None
    return o, p


def _d_DescribeConfigsResponse_1(b, p):
    o = _new(DescribeConfigsResponse)
    o.throttle_time_ms, = _S0.unpack_from(b, p)
    p += 4
    n, p = _ral(b, p, 11)
    l = []
    for _ in range(n):
        e, p = _d_DescribeConfigsResult_1(b, p)
        l.append(e)
    o.results = l
    o._unknown_tagged = None
    return o, p


def _e_DescribeConfigsResourceResult_1(o, w):
    _wstr(w, o.name)
    _wnstr(w, o.value)
    w.append(_S3.pack(o.read_only, o.config_source, o.is_sensitive))
    x = o.synonyms
    w.append(_I(len(x)))
    for e in x:
        _e_DescribeConfigsSynonym_0(e, w)
    w.append(_S2.pack(o.config_type))
    _wnstr(w, o.documentation)


def _e_DescribeConfigsResult_1(o, w):
    w.append(_S1.pack(o.error_code))
    _wnstr(w, o.error_message)
    w.append(_S2.pack(o.resource_type))
    _wstr(w, o.resource_name)
    x = o.configs
    w.append(_I(len(x)))
    for e in x:
        _e_DescribeConfigsResourceResult_1(e, w)


def _e_DescribeConfigsResponse_1(o, w):
    w.append(_S0.pack(o.throttle_time_ms))
    x = o.results
    w.append(_I(len(x)))
    for e in x:
        _e_DescribeConfigsResult_1(e, w)


def _u_DescribeConfigsResourceResult_1(o, w, c):
    _wstr(w, o.name)
    _wnstr(w, o.value)
    w.append(_S3.pack(o.read_only, o.config_source, o.is_sensitive))
    x = o.synonyms
    w.append(_I(len(x)))
    for e in x:
        _e_DescribeConfigsSynonym_0(e, w)
        c += 1
        if c >= 1000:
            c = 0
            yield
    w.append(_S2.pack(o.config_type))
    _wnstr(w, o.documentation)
    return c


def _u_DescribeConfigsResult_1(o, w, c):
    w.append(_S1.pack(o.error_code))
    _wnstr(w, o.error_message)
    w.append(_S2.pack(o.resource_type))
    _wstr(w, o.resource_name)
    x = o.configs
    w.append(_I(len(x)))
    for e in x:
        c = yield from _u_DescribeConfigsResourceResult_1(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield
    return c


def _t_DescribeConfigsResponse_1(o, w):
    c = 0
    w.append(_S0.pack(o.throttle_time_ms))
    x = o.results
    w.append(_I(len(x)))
    for e in x:
        c = yield from _u_DescribeConfigsResult_1(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield


def _d_DescribeConfigsSynonym_1(b, p):
    o = _new(DescribeConfigsSynonym)
    o.name, p = _rcstr(b, p)
    o.value, p = _rcnstr(b, p)
    o.source, = _S2.unpack_from(b, p)
    p += 1
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_DescribeConfigsResourceResult_2(b, p):
    o = _new(DescribeConfigsResourceResult)
    o.name, p = _rcstr(b, p)
    o.value, p = _rcnstr(b, p)
    o.read_only, o.config_source, o.is_sensitive = _S3.unpack_from(b, p)
    p += 3
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 4)
    l = []
    for _ in range(n):
        e, p = _d_DescribeConfigsSynonym_1(b, p)
        l.append(e)
    o.synonyms = l
    o.config_type, = _S2.unpack_from(b, p)
    p += 1
    o.documentation, p = _rcnstr(b, p)
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_DescribeConfigsResult_2(b, p):
    o = _new(DescribeConfigsResult)
    o.error_code, = _S1.unpack_from(b, p)
    p += 2
    o.error_message, p = _rcnstr(b, p)
    o.resource_type, = _S2.unpack_from(b, p)
    p += 1
    o.resource_name, p = _rcstr(b, p)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 9)
    l = []
    for _ in range(n):
        e, p = _d_DescribeConfigsResourceResult_2(b, p)
        l.append(e)
    o.configs = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_DescribeConfigsResponse_2(b, p):
    o = _new(DescribeConfigsResponse)
    o.throttle_time_ms, = _S0.unpack_from(b, p)
    p += 4
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 7)
    l = []
    for _ in range(n):
        e, p = _d_DescribeConfigsResult_2(b, p)
        l.append(e)
    o.results = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_DescribeConfigsSynonym_1(o, w):
    _wcstr(w, o.name)
    _wcnstr(w, o.value)
    w.append(_S2.pack(o.source))
    _wtag(w, o._unknown_tagged)


def _e_DescribeConfigsResourceResult_2(o, w):
    _wcstr(w, o.name)
    _wcnstr(w, o.value)
    w.append(_S3.pack(o.read_only, o.config_source, o.is_sensitive))
    x = o.synonyms
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_DescribeConfigsSynonym_1(e, w)
    w.append(_S2.pack(o.config_type))
    _wcnstr(w, o.documentation)
    _wtag(w, o._unknown_tagged)


def _e_DescribeConfigsResult_2(o, w):
    w.append(_S1.pack(o.error_code))
    _wcnstr(w, o.error_message)
    w.append(_S2.pack(o.resource_type))
    _wcstr(w, o.resource_name)
    x = o.configs
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_DescribeConfigsResourceResult_2(e, w)
    _wtag(w, o._unknown_tagged)


def _e_DescribeConfigsResponse_2(o, w):
    w.append(_S0.pack(o.throttle_time_ms))
    x = o.results
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_DescribeConfigsResult_2(e, w)
    _wtag(w, o._unknown_tagged)


def _u_DescribeConfigsResourceResult_2(o, w, c):
    _wcstr(w, o.name)
    _wcnstr(w, o.value)
    w.append(_S3.pack(o.read_only, o.config_source, o.is_sensitive))
    x = o.synonyms
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_DescribeConfigsSynonym_1(e, w)
        c += 1
        if c >= 1000:
            c = 0
            yield
    w.append(_S2.pack(o.config_type))
    _wcnstr(w, o.documentation)
    _wtag(w, o._unknown_tagged)
    return c


def _u_DescribeConfigsResult_2(o, w, c):
    w.append(_S1.pack(o.error_code))
    _wcnstr(w, o.error_message)
    w.append(_S2.pack(o.resource_type))
    _wcstr(w, o.resource_name)
    x = o.configs
    w.append(_uv(len(x) + 1))
    for e in x:
        c = yield from _u_DescribeConfigsResourceResult_2(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield
    _wtag(w, o._unknown_tagged)
    return c


def _t_DescribeConfigsResponse_2(o, w):
    c = 0
    w.append(_S0.pack(o.throttle_time_ms))
    x = o.results
    w.append(_uv(len(x) + 1))
    for e in x:
        c = yield from _u_DescribeConfigsResult_2(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield
    _wtag(w, o._unknown_tagged)


DescribeConfigsResponse._DECODERS = {1: _d_DescribeConfigsResponse_0, 2: _d_DescribeConfigsResponse_0, 3: _d_DescribeConfigsResponse_1, 4: _d_DescribeConfigsResponse_2}
DescribeConfigsResponse._ENCODERS = {1: _e_DescribeConfigsResponse_0, 2: _e_DescribeConfigsResponse_0, 3: _e_DescribeConfigsResponse_1, 4: _e_DescribeConfigsResponse_2}
DescribeConfigsResponse._ENCODE_STEPS = {1: _t_DescribeConfigsResponse_0, 2: _t_DescribeConfigsResponse_0, 3: _t_DescribeConfigsResponse_1, 4: _t_DescribeConfigsResponse_2}
