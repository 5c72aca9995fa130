"""Generated from Kafka's HeartbeatRequest.json by tools/gen_wire.py. Do not edit."""
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


class HeartbeatRequest(Message):
    __slots__ = ('group_id', 'generation_id', 'member_id', 'group_instance_id', '_unknown_tagged')
    _FIELDS = (('group_id', 'string', 0, 32767, -1, -1, None, -1, None), ('generation_id', 'int32', 0, 32767, -1, -1, None, -1, None), ('member_id', 'string', 0, 32767, -1, -1, None, -1, None), ('group_instance_id', 'string', 3, 32767, 3, 32767, None, -1, None))
    API_KEY = 12
    VALID_VERSIONS = (0, 4)
    FLEXIBLE_MIN = 4

    def __init__(self, *, group_id='', generation_id=0, member_id='', group_instance_id=None, _unknown_tagged=None):
        self.group_id = group_id
        self.generation_id = generation_id
        self.member_id = member_id
        self.group_instance_id = group_instance_id
        self._unknown_tagged = _unknown_tagged



def _d_HeartbeatRequest_0(b, p):
    o = _new(HeartbeatRequest)
    o.group_id, p = _rstr(b, p)
    o.generation_id, = _S0.unpack_from(b, p)
    p += 4
    o.member_id, p = _rstr(b, p)
    o.group_instance_id = None
    o._unknown_tagged = None
    return o, p


def _e_HeartbeatRequest_0(o, w):
    _wstr(w, o.group_id)
    w.append(_S0.pack(o.generation_id))
    _wstr(w, o.member_id)


def _d_HeartbeatRequest_1(b, p):
    o = _new(HeartbeatRequest)
    o.group_id, p = _rstr(b, p)
    o.generation_id, = _S0.unpack_from(b, p)
    p += 4
    o.member_id, p = _rstr(b, p)
    o.group_instance_id, p = _rnstr(b, p)
    o._unknown_tagged = None
    return o, p


def _e_HeartbeatRequest_1(o, w):
    _wstr(w, o.group_id)
    w.append(_S0.pack(o.generation_id))
    _wstr(w, o.member_id)
    _wnstr(w, o.group_instance_id)


def _d_HeartbeatRequest_2(b, p):
    o = _new(HeartbeatRequest)
    o.group_id, p = _rcstr(b, p)
    o.generation_id, = _S0.unpack_from(b, p)
    p += 4
    o.member_id, p = _rcstr(b, p)
    o.group_instance_id, p = _rcnstr(b, p)
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_HeartbeatRequest_2(o, w):
    _wcstr(w, o.group_id)
    w.append(_S0.pack(o.generation_id))
    _wcstr(w, o.member_id)
    _wcnstr(w, o.group_instance_id)
    _wtag(w, o._unknown_tagged)


HeartbeatRequest._DECODERS = {0: _d_HeartbeatRequest_0, 1: _d_HeartbeatRequest_0, 2: _d_HeartbeatRequest_0, 3: _d_HeartbeatRequest_1, 4: _d_HeartbeatRequest_2}
HeartbeatRequest._ENCODERS = {0: _e_HeartbeatRequest_0, 1: _e_HeartbeatRequest_0, 2: _e_HeartbeatRequest_0, 3: _e_HeartbeatRequest_1, 4: _e_HeartbeatRequest_2}
