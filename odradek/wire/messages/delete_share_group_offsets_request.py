"""Generated from Kafka's DeleteShareGroupOffsetsRequest.json by tools/gen_wire.py. Do not edit."""
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



class DeleteShareGroupOffsetsRequestTopic(Message):
    __slots__ = ('topic_name', '_unknown_tagged')
    _FIELDS = (('topic_name', 'string', 0, 32767, -1, -1, None, -1, None),)

    def __init__(self, *, topic_name='', _unknown_tagged=None):
        self.topic_name = topic_name
        self._unknown_tagged = _unknown_tagged


class DeleteShareGroupOffsetsRequest(Message):
    __slots__ = ('group_id', 'topics', '_unknown_tagged')
    _FIELDS = (('group_id', 'string', 0, 32767, -1, -1, None, -1, None), ('topics', '[]DeleteShareGroupOffsetsRequestTopic', 0, 32767, -1, -1, None, -1, 'DeleteShareGroupOffsetsRequestTopic'))
    API_KEY = 92
    VALID_VERSIONS = (0, 0)
    FLEXIBLE_MIN = 0

    def __init__(self, *, group_id='', topics=DEFAULT, _unknown_tagged=None):
        self.group_id = group_id
        self.topics = [] if topics is DEFAULT else topics
        self._unknown_tagged = _unknown_tagged



def _d_DeleteShareGroupOffsetsRequestTopic_0(b, p):
    o = _new(DeleteShareGroupOffsetsRequestTopic)
    o.topic_name, p = _rcstr(b, p)
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_DeleteShareGroupOffsetsRequest_0(b, p):
    o = _new(DeleteShareGroupOffsetsRequest)
    o.group_id, p = _rcstr(b, p)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 2)
    l = []
    for _ in range(n):
        e, p = _d_DeleteShareGroupOffsetsRequestTopic_0(b, p)
        l.append(e)
    o.topics = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_DeleteShareGroupOffsetsRequestTopic_0(o, w):
    _wcstr(w, o.topic_name)
    _wtag(w, o._unknown_tagged)


def _e_DeleteShareGroupOffsetsRequest_0(o, w):
    _wcstr(w, o.group_id)
    x = o.topics
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_DeleteShareGroupOffsetsRequestTopic_0(e, w)
    _wtag(w, o._unknown_tagged)


DeleteShareGroupOffsetsRequest._DECODERS = {0: _d_DeleteShareGroupOffsetsRequest_0}
DeleteShareGroupOffsetsRequest._ENCODERS = {0: _e_DeleteShareGroupOffsetsRequest_0}
