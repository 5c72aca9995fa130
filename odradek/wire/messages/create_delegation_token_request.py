"""Generated from Kafka's CreateDelegationTokenRequest.json by tools/gen_wire.py. Do not edit."""
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

_S0 = _struct.Struct('>q')


class CreatableRenewers(Message):
    __slots__ = ('principal_type', 'principal_name', '_unknown_tagged')
    _FIELDS = (('principal_type', 'string', 0, 32767, -1, -1, None, -1, None), ('principal_name', 'string', 0, 32767, -1, -1, None, -1, None))

    def __init__(self, *, principal_type='', principal_name='', _unknown_tagged=None):
        self.principal_type = principal_type
        self.principal_name = principal_name
        self._unknown_tagged = _unknown_tagged


class CreateDelegationTokenRequest(Message):
    __slots__ = ('owner_principal_type', 'owner_principal_name', 'renewers', 'max_lifetime_ms', '_unknown_tagged')
    _FIELDS = (('owner_principal_type', 'string', 3, 32767, 3, 32767, None, -1, None), ('owner_principal_name', 'string', 3, 32767, 3, 32767, None, -1, None), ('renewers', '[]CreatableRenewers', 0, 32767, -1, -1, None, -1, 'CreatableRenewers'), ('max_lifetime_ms', 'int64', 0, 32767, -1, -1, None, -1, None))
    API_KEY = 38
    VALID_VERSIONS = (1, 3)
    FLEXIBLE_MIN = 2

    def __init__(self, *, owner_principal_type='', owner_principal_name='', renewers=DEFAULT, max_lifetime_ms=0, _unknown_tagged=None):
        self.owner_principal_type = owner_principal_type
        self.owner_principal_name = owner_principal_name
        self.renewers = [] if renewers is DEFAULT else renewers
        self.max_lifetime_ms = max_lifetime_ms
        self._unknown_tagged = _unknown_tagged



def _d_CreatableRenewers_0(b, p):
    o = _new(CreatableRenewers)
    o.principal_type, p = _rstr(b, p)
    o.principal_name, p = _rstr(b, p)
    o._unknown_tagged = None
    return o, p


def _d_CreateDelegationTokenRequest_0(b, p):
    o = _new(CreateDelegationTokenRequest)
    o.owner_principal_type = ''
    o.owner_principal_name = ''
    n, p = _ral(b, p, 4)
    l = []
    for _ in range(n):
        e, p = _d_CreatableRenewers_0(b, p)
        l.append(e)
    o.renewers = l
    o.max_lifetime_ms, = _S0.unpack_from(b, p)
    p += 8
    o._unknown_tagged = None
    return o, p


def _e_CreatableRenewers_0(o, w):
    _wstr(w, o.principal_type)
    _wstr(w, o.principal_name)


def _e_CreateDelegationTokenRequest_0(o, w):
    x = o.renewers
    w.append(_I(len(x)))
    for e in x:
        _e_CreatableRenewers_0(e, w)
    w.append(_S0.pack(o.max_lifetime_ms))


def _d_CreatableRenewers_1(b, p):
    o = _new(CreatableRenewers)
    o.principal_type, p = _rcstr(b, p)
    o.principal_name, p = _rcstr(b, p)
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_CreateDelegationTokenRequest_1(b, p):
    o = _new(CreateDelegationTokenRequest)
    o.owner_principal_type = ''
    o.owner_principal_name = ''
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 3)
    l = []
    for _ in range(n):
        e, p = _d_CreatableRenewers_1(b, p)
        l.append(e)
    o.renewers = l
    o.max_lifetime_ms, = _S0.unpack_from(b, p)
    p += 8
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_CreatableRenewers_1(o, w):
    _wcstr(w, o.principal_type)
    _wcstr(w, o.principal_name)
    _wtag(w, o._unknown_tagged)


def _e_CreateDelegationTokenRequest_1(o, w):
    x = o.renewers
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_CreatableRenewers_1(e, w)
    w.append(_S0.pack(o.max_lifetime_ms))
    _wtag(w, o._unknown_tagged)


def _d_CreateDelegationTokenRequest_2(b, p):
    o = _new(CreateDelegationTokenRequest)
    o.owner_principal_type, p = _rcnstr(b, p)
    o.owner_principal_name, p = _rcnstr(b, p)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 3)
    l = []
    for _ in range(n):
        e, p = _d_CreatableRenewers_1(b, p)
        l.append(e)
    o.renewers = l
    o.max_lifetime_ms, = _S0.unpack_from(b, p)
    p += 8
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_CreateDelegationTokenRequest_2(o, w):
    _wcnstr(w, o.owner_principal_type)
    _wcnstr(w, o.owner_principal_name)
    x = o.renewers
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_CreatableRenewers_1(e, w)
    w.append(_S0.pack(o.max_lifetime_ms))
    _wtag(w, o._unknown_tagged)


CreateDelegationTokenRequest._DECODERS = {1: _d_CreateDelegationTokenRequest_0, 2: _d_CreateDelegationTokenRequest_1, 3: _d_CreateDelegationTokenRequest_2}
CreateDelegationTokenRequest._ENCODERS = {1: _e_CreateDelegationTokenRequest_0, 2: _e_CreateDelegationTokenRequest_1, 3: _e_CreateDelegationTokenRequest_2}
