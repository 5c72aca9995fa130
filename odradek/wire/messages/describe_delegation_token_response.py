"""Generated from Kafka's DescribeDelegationTokenResponse.json by tools/gen_wire.py. Do not edit."""
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

_S0 = _struct.Struct('>h')
_S1 = _struct.Struct('>qqq')
_S2 = _struct.Struct('>i')


class DescribedDelegationTokenRenewer(Message):
    __slots__ = ('principal_type', 'principal_name', '_unknown_tagged')
    _FIELDS = (('principal_type', 'string', 0, 32767, -1, -1, None, -1, None), ('principal_name', 'string', 0, 32767, -1, -1, None, -1, None))

    def __init__(self, *, principal_type='', principal_name='', _unknown_tagged=None):
        self.principal_type = principal_type
        self.principal_name = principal_name
        self._unknown_tagged = _unknown_tagged


class DescribedDelegationToken(Message):
    __slots__ = ('principal_type', 'principal_name', 'token_requester_principal_type', 'token_requester_principal_name', 'issue_timestamp', 'expiry_timestamp', 'max_timestamp', 'token_id', 'hmac', 'renewers', '_unknown_tagged')
    _FIELDS = (('principal_type', 'string', 0, 32767, -1, -1, None, -1, None), ('principal_name', 'string', 0, 32767, -1, -1, None, -1, None), ('token_requester_principal_type', 'string', 3, 32767, -1, -1, None, -1, None), ('token_requester_principal_name', 'string', 3, 32767, -1, -1, None, -1, None), ('issue_timestamp', 'int64', 0, 32767, -1, -1, None, -1, None), ('expiry_timestamp', 'int64', 0, 32767, -1, -1, None, -1, None), ('max_timestamp', 'int64', 0, 32767, -1, -1, None, -1, None), ('token_id', 'string', 0, 32767, -1, -1, None, -1, None), ('hmac', 'bytes', 0, 32767, -1, -1, None, -1, None), ('renewers', '[]DescribedDelegationTokenRenewer', 0, 32767, -1, -1, None, -1, 'DescribedDelegationTokenRenewer'))

    def __init__(self, *, principal_type='', principal_name='', token_requester_principal_type='', token_requester_principal_name='', issue_timestamp=0, expiry_timestamp=0, max_timestamp=0, token_id='', hmac=b'', renewers=DEFAULT, _unknown_tagged=None):
        self.principal_type = principal_type
        self.principal_name = principal_name
        self.token_requester_principal_type = token_requester_principal_type
        self.token_requester_principal_name = token_requester_principal_name
        self.issue_timestamp = issue_timestamp
        self.expiry_timestamp = expiry_timestamp
        self.max_timestamp = max_timestamp
        self.token_id = token_id
        self.hmac = hmac
        self.renewers = [] if renewers is DEFAULT else renewers
        self._unknown_tagged = _unknown_tagged


class DescribeDelegationTokenResponse(Message):
    __slots__ = ('error_code', 'tokens', 'throttle_time_ms', '_unknown_tagged')
    _FIELDS = (('error_code', 'int16', 0, 32767, -1, -1, None, -1, None), ('tokens', '[]DescribedDelegationToken', 0, 32767, -1, -1, None, -1, 'DescribedDelegationToken'), ('throttle_time_ms', 'int32', 0, 32767, -1, -1, None, -1, None))
    API_KEY = 41
    VALID_VERSIONS = (1, 3)
    FLEXIBLE_MIN = 2

    def __init__(self, *, error_code=0, tokens=DEFAULT, throttle_time_ms=0, _unknown_tagged=None):
        self.error_code = error_code
        self.tokens = [] if tokens is DEFAULT else tokens
        self.throttle_time_ms = throttle_time_ms
        self._unknown_tagged = _unknown_tagged



def _d_DescribedDelegationTokenRenewer_0(b, p):
    o = _new(DescribedDelegationTokenRenewer)
    o.principal_type, p = _rstr(b, p)
    o.principal_name, p = _rstr(b, p)
    o._unknown_tagged = None
    return o, p


def _d_DescribedDelegationToken_0(b, p):
    o = _new(DescribedDelegationToken)
    o.principal_type, p = _rstr(b, p)
    o.principal_name, p = _rstr(b, p)
    o.token_requester_principal_type = ''
    o.token_requester_principal_name = ''
    o.issue_timestamp, o.expiry_timestamp, o.max_timestamp = _S1.unpack_from(b, p)
    p += 24
    o.token_id, p = _rstr(b, p)
    o.hmac, p = _rbyt(b, p)
    n, p = _ral(b, p, 4)
    l = []
    for _ in range(n):
        e, p = _d_DescribedDelegationTokenRenewer_0(b, p)
        l.append(e)
    o.renewers = l
    o._unknown_tagged = None
    return o, p


def _d_DescribeDelegationTokenResponse_0(b, p):
    o = _new(DescribeDelegationTokenResponse)
    o.error_code, = _S0.unpack_from(b, p)
    p += 2
    n, p = _ral(b, p, 38)
    l = []
    for _ in range(n):
        e, p = _d_DescribedDelegationToken_0(b, p)
        l.append(e)
    o.tokens = l
    o.throttle_time_ms, = _S2.unpack_from(b, p)
    p += 4
    o._unknown_tagged = None
    return o, p


def _e_DescribedDelegationTokenRenewer_0(o, w):
    _wstr(w, o.principal_type)
    _wstr(w, o.principal_name)


def _e_DescribedDelegationToken_0(o, w):
    _wstr(w, o.principal_type)
    _wstr(w, o.principal_name)
    w.append(_S1.pack(o.issue_timestamp, o.expiry_timestamp, o.max_timestamp))
    _wstr(w, o.token_id)
    _wbyt(w, o.hmac)
    x = o.renewers
    w.append(_I(len(x)))
    for e in x:
        _e_DescribedDelegationTokenRenewer_0(e, w)


def _e_DescribeDelegationTokenResponse_0(o, w):
    w.append(_S0.pack(o.error_code))
    x = o.tokens
    w.append(_I(len(x)))
    for e in x:
        _e_DescribedDelegationToken_0(e, w)
    w.append(_S2.pack(o.throttle_time_ms))


def _d_DescribedDelegationTokenRenewer_1(b, p):
    o = _new(DescribedDelegationTokenRenewer)
    o.principal_type, p = _rcstr(b, p)
    o.principal_name, p = _rcstr(b, p)
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_DescribedDelegationToken_1(b, p):
    o = _new(DescribedDelegationToken)
    o.principal_type, p = _rcstr(b, p)
    o.principal_name, p = _rcstr(b, p)
    o.token_requester_principal_type = ''
    o.token_requester_principal_name = ''
    o.issue_timestamp, o.expiry_timestamp, o.max_timestamp = _S1.unpack_from(b, p)
    p += 24
    o.token_id, p = _rcstr(b, p)
    o.hmac, p = _rcbyt(b, p)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 3)
    l = []
    for _ in range(n):
        e, p = _d_DescribedDelegationTokenRenewer_1(b, p)
        l.append(e)
    o.renewers = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_DescribeDelegationTokenResponse_1(b, p):
    o = _new(DescribeDelegationTokenResponse)
    o.error_code, = _S0.unpack_from(b, p)
    p += 2
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 30)
    l = []
    for _ in range(n):
        e, p = _d_DescribedDelegationToken_1(b, p)
        l.append(e)
    o.tokens = l
    o.throttle_time_ms, = _S2.unpack_from(b, p)
    p += 4
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_DescribedDelegationTokenRenewer_1(o, w):
    _wcstr(w, o.principal_type)
    _wcstr(w, o.principal_name)
    _wtag(w, o._unknown_tagged)


def _e_DescribedDelegationToken_1(o, w):
    _wcstr(w, o.principal_type)
    _wcstr(w, o.principal_name)
    w.append(_S1.pack(o.issue_timestamp, o.expiry_timestamp, o.max_timestamp))
    _wcstr(w, o.token_id)
    _wcbyt(w, o.hmac)
    x = o.renewers
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_DescribedDelegationTokenRenewer_1(e, w)
    _wtag(w, o._unknown_tagged)


def _e_DescribeDelegationTokenResponse_1(o, w):
    w.append(_S0.pack(o.error_code))
    x = o.tokens
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_DescribedDelegationToken_1(e, w)
    w.append(_S2.pack(o.throttle_time_ms))
    _wtag(w, o._unknown_tagged)


def _d_DescribedDelegationToken_2(b, p):
    o = _new(DescribedDelegationToken)
    o.principal_type, p = _rcstr(b, p)
    o.principal_name, p = _rcstr(b, p)
    o.token_requester_principal_type, p = _rcstr(b, p)
    o.token_requester_principal_name, p = _rcstr(b, p)
    o.issue_timestamp, o.expiry_timestamp, o.max_timestamp = _S1.unpack_from(b, p)
    p += 24
    o.token_id, p = _rcstr(b, p)
    o.hmac, p = _rcbyt(b, p)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 3)
    l = []
    for _ in range(n):
        e, p = _d_DescribedDelegationTokenRenewer_1(b, p)
        l.append(e)
    o.renewers = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_DescribeDelegationTokenResponse_2(b, p):
    o = _new(DescribeDelegationTokenResponse)
    o.error_code, = _S0.unpack_from(b, p)
    p += 2
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 32)
    l = []
    for _ in range(n):
        e, p = _d_DescribedDelegationToken_2(b, p)
        l.append(e)
    o.tokens = l
    o.throttle_time_ms, = _S2.unpack_from(b, p)
    p += 4
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_DescribedDelegationToken_2(o, w):
    _wcstr(w, o.principal_type)
    _wcstr(w, o.principal_name)
    _wcstr(w, o.token_requester_principal_type)
    _wcstr(w, o.token_requester_principal_name)
    w.append(_S1.pack(o.issue_timestamp, o.expiry_timestamp, o.max_timestamp))
    _wcstr(w, o.token_id)
    _wcbyt(w, o.hmac)
    x = o.renewers
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_DescribedDelegationTokenRenewer_1(e, w)
    _wtag(w, o._unknown_tagged)


def _e_DescribeDelegationTokenResponse_2(o, w):
    w.append(_S0.pack(o.error_code))
    x = o.tokens
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_DescribedDelegationToken_2(e, w)
    w.append(_S2.pack(o.throttle_time_ms))
    _wtag(w, o._unknown_tagged)


DescribeDelegationTokenResponse._DECODERS = {1: _d_DescribeDelegationTokenResponse_0, 2: _d_DescribeDelegationTokenResponse_1, 3: _d_DescribeDelegationTokenResponse_2}
DescribeDelegationTokenResponse._ENCODERS = {1: _e_DescribeDelegationTokenResponse_0, 2: _e_DescribeDelegationTokenResponse_1, 3: _e_DescribeDelegationTokenResponse_2}
