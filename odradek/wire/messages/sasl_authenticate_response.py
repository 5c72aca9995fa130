"""Generated from Kafka's SaslAuthenticateResponse.json by tools/gen_wire.py. Do not edit."""
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
_S1 = _struct.Struct('>q')


class SaslAuthenticateResponse(Message):
    __slots__ = ('error_code', 'error_message', 'auth_bytes', 'session_lifetime_ms', '_unknown_tagged')
    _FIELDS = (('error_code', 'int16', 0, 32767, -1, -1, None, -1, None), ('error_message', 'string', 0, 32767, 0, 32767, None, -1, None), ('auth_bytes', 'bytes', 0, 32767, -1, -1, None, -1, None), ('session_lifetime_ms', 'int64', 1, 32767, -1, -1, None, -1, None))
    API_KEY = 36
    VALID_VERSIONS = (0, 2)
    FLEXIBLE_MIN = 2

    def __init__(self, *, error_code=0, error_message='', auth_bytes=b'', session_lifetime_ms=0, _unknown_tagged=None):
        self.error_code = error_code
        self.error_message = error_message
        self.auth_bytes = auth_bytes
        self.session_lifetime_ms = session_lifetime_ms
        self._unknown_tagged = _unknown_tagged



def _d_SaslAuthenticateResponse_0(b, p):
    o = _new(SaslAuthenticateResponse)
    o.error_code, = _S0.unpack_from(b, p)
    p += 2
    o.error_message, p = _rnstr(b, p)
    o.auth_bytes, p = _rbyt(b, p)
    o.session_lifetime_ms = 0
    o._unknown_tagged = None
    return o, p


def _e_SaslAuthenticateResponse_0(o, w):
    w.append(_S0.pack(o.error_code))
    _wnstr(w, o.error_message)
    _wbyt(w, o.auth_bytes)


def _d_SaslAuthenticateResponse_1(b, p):
    o = _new(SaslAuthenticateResponse)
    o.error_code, = _S0.unpack_from(b, p)
    p += 2
    o.error_message, p = _rnstr(b, p)
    o.auth_bytes, p = _rbyt(b, p)
    o.session_lifetime_ms, = _S1.unpack_from(b, p)
    p += 8
    o._unknown_tagged = None
    return o, p


def _e_SaslAuthenticateResponse_1(o, w):
    w.append(_S0.pack(o.error_code))
    _wnstr(w, o.error_message)
    _wbyt(w, o.auth_bytes)
    w.append(_S1.pack(o.session_lifetime_ms))


def _d_SaslAuthenticateResponse_2(b, p):
    o = _new(SaslAuthenticateResponse)
    o.error_code, = _S0.unpack_from(b, p)
    p += 2
    o.error_message, p = _rcnstr(b, p)
    o.auth_bytes, p = _rcbyt(b, p)
    o.session_lifetime_ms, = _S1.unpack_from(b, p)
    p += 8
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_SaslAuthenticateResponse_2(o, w):
    w.append(_S0.pack(o.error_code))
    _wcnstr(w, o.error_message)
    _wcbyt(w, o.auth_bytes)
    w.append(_S1.pack(o.session_lifetime_ms))
    _wtag(w, o._unknown_tagged)


SaslAuthenticateResponse._DECODERS = {0: _d_SaslAuthenticateResponse_0, 1: _d_SaslAuthenticateResponse_1, 2: _d_SaslAuthenticateResponse_2}
SaslAuthenticateResponse._ENCODERS = {0: _e_SaslAuthenticateResponse_0, 1: _e_SaslAuthenticateResponse_1, 2: _e_SaslAuthenticateResponse_2}
