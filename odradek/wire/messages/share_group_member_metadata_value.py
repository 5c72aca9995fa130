"""Generated from Kafka's ShareGroupMemberMetadataValue.json by tools/gen_wire.py. Do not edit."""
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



class ShareGroupMemberMetadataValue(Message):
    __slots__ = ('rack_id', 'client_id', 'client_host', 'subscribed_topic_names', '_unknown_tagged')
    _FIELDS = (('rack_id', 'string', 0, 32767, 0, 32767, None, -1, None), ('client_id', 'string', 0, 32767, -1, -1, None, -1, None), ('client_host', 'string', 0, 32767, -1, -1, None, -1, None), ('subscribed_topic_names', '[]string', 0, 32767, -1, -1, None, -1, None))
    API_KEY = 10
    VALID_VERSIONS = (0, 0)
    FLEXIBLE_MIN = 0

    def __init__(self, *, rack_id='', client_id='', client_host='', subscribed_topic_names=DEFAULT, _unknown_tagged=None):
        self.rack_id = rack_id
        self.client_id = client_id
        self.client_host = client_host
        self.subscribed_topic_names = [] if subscribed_topic_names is DEFAULT else subscribed_topic_names
        self._unknown_tagged = _unknown_tagged



def _d_ShareGroupMemberMetadataValue_0(b, p):
    o = _new(ShareGroupMemberMetadataValue)
    o.rack_id, p = _rcnstr(b, p)
    o.client_id, p = _rcstr(b, p)
    o.client_host, p = _rcstr(b, p)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 1)
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


def _e_ShareGroupMemberMetadataValue_0(o, w):
    _wcnstr(w, o.rack_id)
    _wcstr(w, o.client_id)
    _wcstr(w, o.client_host)
    x = o.subscribed_topic_names
    w.append(_uv(len(x) + 1))
    for e in x:
        _wcstr(w, e)
    _wtag(w, o._unknown_tagged)


ShareGroupMemberMetadataValue._DECODERS = {0: _d_ShareGroupMemberMetadataValue_0}
ShareGroupMemberMetadataValue._ENCODERS = {0: _e_ShareGroupMemberMetadataValue_0}
