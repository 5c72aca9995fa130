"""Generated from Kafka's DescribeDelegationTokenRequest.json by tools/gen_wire.py. Do not edit."""
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



class DescribeDelegationTokenOwner(Message):
    __slots__ = ('principal_type', 'principal_name', '_unknown_tagged')
    _FIELDS = (('principal_type', 'string', 0, 32767, -1, -1, None, -1, None), ('principal_name', 'string', 0, 32767, -1, -1, None, -1, None))

    def __init__(self, *, principal_type='', principal_name='', _unknown_tagged=None):
        self.principal_type = principal_type
        self.principal_name = principal_name
        self._unknown_tagged = _unknown_tagged


class DescribeDelegationTokenRequest(Message):
    __slots__ = ('owners', '_unknown_tagged')
    _FIELDS = (('owners', '[]DescribeDelegationTokenOwner', 0, 32767, 0, 32767, None, -1, 'DescribeDelegationTokenOwner'),)
    API_KEY = 41
    VALID_VERSIONS = (1, 3)
    FLEXIBLE_MIN = 2

    def __init__(self, *, owners=DEFAULT, _unknown_tagged=None):
        self.owners = [] if owners is DEFAULT else owners
        self._unknown_tagged = _unknown_tagged



def _d_DescribeDelegationTokenOwner_0(b, p):
    o = _new(DescribeDelegationTokenOwner)
    o.principal_type, p = _rstr(b, p)
    o.principal_name, p = _rstr(b, p)
    o._unknown_tagged = None
    return o, p


def _d_DescribeDelegationTokenRequest_0(b, p):
    o = _new(DescribeDelegationTokenRequest)
    n, p = _rnal(b, p, 4)
    if n < 0:
        o.owners = None
    else:
        l = []
        for _ in range(n):
            e, p = _d_DescribeDelegationTokenOwner_0(b, p)
            l.append(e)
        o.owners = l
    o._unknown_tagged = None
    return o, p


def _e_DescribeDelegationTokenOwner_0(o, w):
    _wstr(w, o.principal_type)
    _wstr(w, o.principal_name)


def _e_DescribeDelegationTokenRequest_0(o, w):
    x = o.owners
    if x is None:
        w.append(b'\xff\xff\xff\xff')
    else:
        w.append(_I(len(x)))
        for e in x:
            _e_DescribeDelegationTokenOwner_0(e, w)


def _d_DescribeDelegationTokenOwner_1(b, p):
    o = _new(DescribeDelegationTokenOwner)
    o.principal_type, p = _rcstr(b, p)
    o.principal_name, p = _rcstr(b, p)
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_DescribeDelegationTokenRequest_1(b, p):
    o = _new(DescribeDelegationTokenRequest)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcnal(b, p, 3)
    if n < 0:
        o.owners = None
    else:
        l = []
        for _ in range(n):
            e, p = _d_DescribeDelegationTokenOwner_1(b, p)
            l.append(e)
        o.owners = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_DescribeDelegationTokenOwner_1(o, w):
    _wcstr(w, o.principal_type)
    _wcstr(w, o.principal_name)
    _wtag(w, o._unknown_tagged)


def _e_DescribeDelegationTokenRequest_1(o, w):
    x = o.owners
    if x is None:
        w.append(b'\x00')
    else:
        w.append(_uv(len(x) + 1))
        for e in x:
            _e_DescribeDelegationTokenOwner_1(e, w)
    _wtag(w, o._unknown_tagged)


DescribeDelegationTokenRequest._DECODERS = {1: _d_DescribeDelegationTokenRequest_0, 2: _d_DescribeDelegationTokenRequest_1, 3: _d_DescribeDelegationTokenRequest_1}
DescribeDelegationTokenRequest._ENCODERS = {1: _e_DescribeDelegationTokenRequest_0, 2: _e_DescribeDelegationTokenRequest_1, 3: _e_DescribeDelegationTokenRequest_1}
