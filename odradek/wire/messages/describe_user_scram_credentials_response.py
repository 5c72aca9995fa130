"""Generated from Kafka's DescribeUserScramCredentialsResponse.json by tools/gen_wire.py. Do not edit."""
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
_S1 = _struct.Struct('>h')
_S2 = _struct.Struct('>bi')


class CredentialInfo(Message):
    __slots__ = ('mechanism', 'iterations', '_unknown_tagged')
    _FIELDS = (('mechanism', 'int8', 0, 32767, -1, -1, None, -1, None), ('iterations', 'int32', 0, 32767, -1, -1, None, -1, None))

    def __init__(self, *, mechanism=0, iterations=0, _unknown_tagged=None):
        self.mechanism = mechanism
        self.iterations = iterations
        self._unknown_tagged = _unknown_tagged


class DescribeUserScramCredentialsResult(Message):
    __slots__ = ('user', 'error_code', 'error_message', 'credential_infos', '_unknown_tagged')
    _FIELDS = (('user', 'string', 0, 32767, -1, -1, None, -1, None), ('error_code', 'int16', 0, 32767, -1, -1, None, -1, None), ('error_message', 'string', 0, 32767, 0, 32767, None, -1, None), ('credential_infos', '[]CredentialInfo', 0, 32767, -1, -1, None, -1, 'CredentialInfo'))

    def __init__(self, *, user='', error_code=0, error_message='', credential_infos=DEFAULT, _unknown_tagged=None):
        self.user = user
        self.error_code = error_code
        self.error_message = error_message
        self.credential_infos = [] if credential_infos is DEFAULT else credential_infos
        self._unknown_tagged = _unknown_tagged


class DescribeUserScramCredentialsResponse(Message):
    __slots__ = ('throttle_time_ms', 'error_code', 'error_message', 'results', '_unknown_tagged')
    _FIELDS = (('throttle_time_ms', 'int32', 0, 32767, -1, -1, None, -1, None), ('error_code', 'int16', 0, 32767, -1, -1, None, -1, None), ('error_message', 'string', 0, 32767, 0, 32767, None, -1, None), ('results', '[]DescribeUserScramCredentialsResult', 0, 32767, -1, -1, None, -1, 'DescribeUserScramCredentialsResult'))
    API_KEY = 50
    VALID_VERSIONS = (0, 0)
    FLEXIBLE_MIN = 0

    def __init__(self, *, throttle_time_ms=0, error_code=0, error_message='', results=DEFAULT, _unknown_tagged=None):
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.error_message = error_message
        self.results = [] if results is DEFAULT else results
        self._unknown_tagged = _unknown_tagged



def _d_CredentialInfo_0(b, p):
    o = _new(CredentialInfo)
    o.mechanism, o.iterations = _S2.unpack_from(b, p)
    p += 5
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_DescribeUserScramCredentialsResult_0(b, p):
    o = _new(DescribeUserScramCredentialsResult)
    o.user, p = _rcstr(b, p)
    o.error_code, = _S1.unpack_from(b, p)
    p += 2
    o.error_message, p = _rcnstr(b, p)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 6)
    l = []
    for _ in range(n):
        e, p = _d_CredentialInfo_0(b, p)
        l.append(e)
    o.credential_infos = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_DescribeUserScramCredentialsResponse_0(b, p):
    o = _new(DescribeUserScramCredentialsResponse)
    o.throttle_time_ms, o.error_code = _S0.unpack_from(b, p)
    p += 6
    o.error_message, p = _rcnstr(b, p)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 6)
    l = []
    for _ in range(n):
        e, p = _d_DescribeUserScramCredentialsResult_0(b, p)
        l.append(e)
    o.results = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_CredentialInfo_0(o, w):
    w.append(_S2.pack(o.mechanism, o.iterations))
    _wtag(w, o._unknown_tagged)


def _e_DescribeUserScramCredentialsResult_0(o, w):
    _wcstr(w, o.user)
    w.append(_S1.pack(o.error_code))
    _wcnstr(w, o.error_message)
    x = o.credential_infos
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_CredentialInfo_0(e, w)
    _wtag(w, o._unknown_tagged)


def _e_DescribeUserScramCredentialsResponse_0(o, w):
    w.append(_S0.pack(o.throttle_time_ms, o.error_code))
    _wcnstr(w, o.error_message)
    x = o.results
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_DescribeUserScramCredentialsResult_0(e, w)
    _wtag(w, o._unknown_tagged)


DescribeUserScramCredentialsResponse._DECODERS = {0: _d_DescribeUserScramCredentialsResponse_0}
DescribeUserScramCredentialsResponse._ENCODERS = {0: _e_DescribeUserScramCredentialsResponse_0}
