"""Generated from Kafka's UserScramCredentialRecord.json by tools/gen_wire.py. Do not edit."""
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
_S1 = _struct.Struct('>i')


class UserScramCredentialRecord(Message):
    __slots__ = ('name', 'mechanism', 'salt', 'stored_key', 'server_key', 'iterations', '_unknown_tagged')
    _FIELDS = (('name', 'string', 0, 32767, -1, -1, None, -1, None), ('mechanism', 'int8', 0, 32767, -1, -1, None, -1, None), ('salt', 'bytes', 0, 32767, -1, -1, None, -1, None), ('stored_key', 'bytes', 0, 32767, -1, -1, None, -1, None), ('server_key', 'bytes', 0, 32767, -1, -1, None, -1, None), ('iterations', 'int32', 0, 32767, -1, -1, None, -1, None))
    API_KEY = 11
    VALID_VERSIONS = (0, 0)
    FLEXIBLE_MIN = 0

    def __init__(self, *, name='', mechanism=0, salt=b'', stored_key=b'', server_key=b'', iterations=0, _unknown_tagged=None):
        self.name = name
        self.mechanism = mechanism
        self.salt = salt
        self.stored_key = stored_key
        self.server_key = server_key
        self.iterations = iterations
        self._unknown_tagged = _unknown_tagged



def _d_UserScramCredentialRecord_0(b, p):
    o = _new(UserScramCredentialRecord)
    o.name, p = _rcstr(b, p)
    o.mechanism, = _S0.unpack_from(b, p)
    p += 1
    o.salt, p = _rcbyt(b, p)
    o.stored_key, p = _rcbyt(b, p)
    o.server_key, p = _rcbyt(b, p)
    o.iterations, = _S1.unpack_from(b, p)
    p += 4
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_UserScramCredentialRecord_0(o, w):
    _wcstr(w, o.name)
    w.append(_S0.pack(o.mechanism))
    _wcbyt(w, o.salt)
    _wcbyt(w, o.stored_key)
    _wcbyt(w, o.server_key)
    w.append(_S1.pack(o.iterations))
    _wtag(w, o._unknown_tagged)


UserScramCredentialRecord._DECODERS = {0: _d_UserScramCredentialRecord_0}
UserScramCredentialRecord._ENCODERS = {0: _e_UserScramCredentialRecord_0}
