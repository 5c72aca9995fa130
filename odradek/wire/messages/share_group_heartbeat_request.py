"""Generated from Kafka's ShareGroupHeartbeatRequest.json by tools/gen_wire.py. Do not edit."""
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


class ShareGroupHeartbeatRequest(Message):
    __slots__ = ('group_id', 'member_id', 'member_epoch', 'rack_id', 'subscribed_topic_names', '_unknown_tagged')
    _FIELDS = (('group_id', 'string', 0, 32767, -1, -1, None, -1, None), ('member_id', 'string', 0, 32767, -1, -1, None, -1, None), ('member_epoch', 'int32', 0, 32767, -1, -1, None, -1, None), ('rack_id', 'string', 0, 32767, 0, 32767, None, -1, None), ('subscribed_topic_names', '[]string', 0, 32767, 0, 32767, None, -1, None))
    API_KEY = 76
    VALID_VERSIONS = (1, 1)
    FLEXIBLE_MIN = 0

    def __init__(self, *, group_id='', member_id='', member_epoch=0, rack_id=None, subscribed_topic_names=None, _unknown_tagged=None):
        self.group_id = group_id
        self.member_id = member_id
        self.member_epoch = member_epoch
        self.rack_id = rack_id
        self.subscribed_topic_names = subscribed_topic_names
        self._unknown_tagged = _unknown_tagged



def _d_ShareGroupHeartbeatRequest_0(b, p):
    o = _new(ShareGroupHeartbeatRequest)
    o.group_id, p = _rcstr(b, p)
    o.member_id, p = _rcstr(b, p)
    o.member_epoch, = _S0.unpack_from(b, p)
    p += 4
    o.rack_id, p = _rcnstr(b, p)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcnal(b, p, 1)
    if n < 0:
        o.subscribed_topic_names = None
    else:
        l = []
        for _ in range(n):
            e, p = _rcstr(b, p)
            l.append(e)
        o.subscribed_topic_names = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_ShareGroupHeartbeatRequest_0(o, w):
    _wcstr(w, o.group_id)
    _wcstr(w, o.member_id)
    w.append(_S0.pack(o.member_epoch))
    _wcnstr(w, o.rack_id)
    x = o.subscribed_topic_names
    if x is None:
        w.append(b'\x00')
    else:
        w.append(_uv(len(x) + 1))
        for e in x:
            _wcstr(w, e)
    _wtag(w, o._unknown_tagged)


ShareGroupHeartbeatRequest._DECODERS = {1: _d_ShareGroupHeartbeatRequest_0}
ShareGroupHeartbeatRequest._ENCODERS = {1: _e_ShareGroupHeartbeatRequest_0}
