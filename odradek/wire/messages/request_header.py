"""Generated from Kafka's RequestHeader.json by tools/gen_wire.py. Do not edit."""
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

_S0 = _struct.Struct('>hhi')


class RequestHeader(Message):
    __slots__ = ('request_api_key', 'request_api_version', 'correlation_id', 'client_id', '_unknown_tagged')
    _FIELDS = (('request_api_key', 'int16', 0, 32767, -1, -1, None, -1, None), ('request_api_version', 'int16', 0, 32767, -1, -1, None, -1, None), ('correlation_id', 'int32', 0, 32767, -1, -1, None, -1, None), ('client_id', 'string', 1, 32767, 1, 32767, None, -1, None))
    API_KEY = None
    VALID_VERSIONS = (1, 2)
    FLEXIBLE_MIN = 2

    def __init__(self, *, request_api_key=0, request_api_version=0, correlation_id=0, client_id='', _unknown_tagged=None):
        self.request_api_key = request_api_key
        self.request_api_version = request_api_version
        self.correlation_id = correlation_id
        self.client_id = client_id
        self._unknown_tagged = _unknown_tagged



def _d_RequestHeader_0(b, p):
    o = _new(RequestHeader)
    o.request_api_key, o.request_api_version, o.correlation_id = _S0.unpack_from(b, p)
    p += 8
    o.client_id, p = _rnstr(b, p)
    o._unknown_tagged = None
    return o, p


def _e_RequestHeader_0(o, w):
    w.append(_S0.pack(o.request_api_key, o.request_api_version, o.correlation_id))
    _wnstr(w, o.client_id)


def _d_RequestHeader_1(b, p):
    o = _new(RequestHeader)
    o.request_api_key, o.request_api_version, o.correlation_id = _S0.unpack_from(b, p)
    p += 8
    o.client_id, p = _rnstr(b, p)
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_RequestHeader_1(o, w):
    w.append(_S0.pack(o.request_api_key, o.request_api_version, o.correlation_id))
    _wnstr(w, o.client_id)
    _wtag(w, o._unknown_tagged)


RequestHeader._DECODERS = {1: _d_RequestHeader_0, 2: _d_RequestHeader_1}
RequestHeader._ENCODERS = {1: _e_RequestHeader_0, 2: _e_RequestHeader_1}
