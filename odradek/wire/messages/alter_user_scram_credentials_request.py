"""Generated from Kafka's AlterUserScramCredentialsRequest.json by tools/gen_wire.py. Do not edit."""
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

_S0 = _struct.Struct('>b')
_S1 = _struct.Struct('>bi')


class ScramCredentialDeletion(Message):
    __slots__ = ('name', 'mechanism', '_unknown_tagged')
    _FIELDS = (('name', 'string', 0, 32767, -1, -1, None, -1, None), ('mechanism', 'int8', 0, 32767, -1, -1, None, -1, None))

    def __init__(self, *, name='', mechanism=0, _unknown_tagged=None):
        self.name = name
        self.mechanism = mechanism
        self._unknown_tagged = _unknown_tagged


class ScramCredentialUpsertion(Message):
    __slots__ = ('name', 'mechanism', 'iterations', 'salt', 'salted_password', '_unknown_tagged')
    _FIELDS = (('name', 'string', 0, 32767, -1, -1, None, -1, None), ('mechanism', 'int8', 0, 32767, -1, -1, None, -1, None), ('iterations', 'int32', 0, 32767, -1, -1, None, -1, None), ('salt', 'bytes', 0, 32767, -1, -1, None, -1, None), ('salted_password', 'bytes', 0, 32767, -1, -1, None, -1, None))

    def __init__(self, *, name='', mechanism=0, iterations=0, salt=b'', salted_password=b'', _unknown_tagged=None):
        self.name = name
        self.mechanism = mechanism
        self.iterations = iterations
        self.salt = salt
        self.salted_password = salted_password
        self._unknown_tagged = _unknown_tagged


class AlterUserScramCredentialsRequest(Message):
    __slots__ = ('deletions', 'upsertions', '_unknown_tagged')
    _FIELDS = (('deletions', '[]ScramCredentialDeletion', 0, 32767, -1, -1, None, -1, 'ScramCredentialDeletion'), ('upsertions', '[]ScramCredentialUpsertion', 0, 32767, -1, -1, None, -1, 'ScramCredentialUpsertion'))
    API_KEY = 51
    VALID_VERSIONS = (0, 0)
    FLEXIBLE_MIN = 0

    def __init__(self, *, deletions=DEFAULT, upsertions=DEFAULT, _unknown_tagged=None):
        self.deletions = [] if deletions is DEFAULT else deletions
        self.upsertions = [] if upsertions is DEFAULT else upsertions
        self._unknown_tagged = _unknown_tagged



def _d_ScramCredentialDeletion_0(b, p):
    o = _new(ScramCredentialDeletion)
    o.name, p = _rcstr(b, p)
    o.mechanism, = _S0.unpack_from(b, p)
    p += 1
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_ScramCredentialUpsertion_0(b, p):
    o = _new(ScramCredentialUpsertion)
    o.name, p = _rcstr(b, p)
    o.mechanism, o.iterations = _S1.unpack_from(b, p)
    p += 5
    o.salt, p = _rcbyt(b, p)
    o.salted_password, p = _rcbyt(b, p)
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_AlterUserScramCredentialsRequest_0(b, p):
    o = _new(AlterUserScramCredentialsRequest)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 3)
    l = []
    for _ in range(n):
        e, p = _d_ScramCredentialDeletion_0(b, p)
        l.append(e)
    o.deletions = l
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 9)
    l = []
    for _ in range(n):
        e, p = _d_ScramCredentialUpsertion_0(b, p)
        l.append(e)
    o.upsertions = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_ScramCredentialDeletion_0(o, w):
    _wcstr(w, o.name)
    w.append(_S0.pack(o.mechanism))
    _wtag(w, o._unknown_tagged)


def _e_ScramCredentialUpsertion_0(o, w):
    _wcstr(w, o.name)
    w.append(_S1.pack(o.mechanism, o.iterations))
    _wcbyt(w, o.salt)
    _wcbyt(w, o.salted_password)
    _wtag(w, o._unknown_tagged)


def _e_AlterUserScramCredentialsRequest_0(o, w):
    x = o.deletions
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_ScramCredentialDeletion_0(e, w)
    x = o.upsertions
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_ScramCredentialUpsertion_0(e, w)
    _wtag(w, o._unknown_tagged)


AlterUserScramCredentialsRequest._DECODERS = {0: _d_AlterUserScramCredentialsRequest_0}
AlterUserScramCredentialsRequest._ENCODERS = {0: _e_AlterUserScramCredentialsRequest_0}
