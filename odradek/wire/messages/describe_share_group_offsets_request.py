"""Generated from Kafka's DescribeShareGroupOffsetsRequest.json by tools/gen_wire.py. Do not edit."""
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



class DescribeShareGroupOffsetsRequestTopic(Message):
    __slots__ = ('topic_name', 'partitions', '_unknown_tagged')
    _FIELDS = (('topic_name', 'string', 0, 32767, -1, -1, None, -1, None), ('partitions', '[]int32', 0, 32767, -1, -1, None, -1, None))

    def __init__(self, *, topic_name='', partitions=DEFAULT, _unknown_tagged=None):
        self.topic_name = topic_name
        self.partitions = [] if partitions is DEFAULT else partitions
        self._unknown_tagged = _unknown_tagged


class DescribeShareGroupOffsetsRequestGroup(Message):
    __slots__ = ('group_id', 'topics', '_unknown_tagged')
    _FIELDS = (('group_id', 'string', 0, 32767, -1, -1, None, -1, None), ('topics', '[]DescribeShareGroupOffsetsRequestTopic', 0, 32767, 0, 32767, None, -1, 'DescribeShareGroupOffsetsRequestTopic'))

    def __init__(self, *, group_id='', topics=DEFAULT, _unknown_tagged=None):
        self.group_id = group_id
        self.topics = [] if topics is DEFAULT else topics
        self._unknown_tagged = _unknown_tagged


class DescribeShareGroupOffsetsRequest(Message):
    __slots__ = ('groups', '_unknown_tagged')
    _FIELDS = (('groups', '[]DescribeShareGroupOffsetsRequestGroup', 0, 32767, -1, -1, None, -1, 'DescribeShareGroupOffsetsRequestGroup'),)
    API_KEY = 90
    VALID_VERSIONS = (0, 1)
    FLEXIBLE_MIN = 0

    def __init__(self, *, groups=DEFAULT, _unknown_tagged=None):
        self.groups = [] if groups is DEFAULT else groups
        self._unknown_tagged = _unknown_tagged



def _d_DescribeShareGroupOffsetsRequestTopic_0(b, p):
    o = _new(DescribeShareGroupOffsetsRequestTopic)
    o.topic_name, p = _rcstr(b, p)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 4)
    l = list((_ARR['i'][n] if n < 64 else _struct.Struct('>%di' % n)).unpack_from(b, p))
    p += 4 * n
    o.partitions = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_DescribeShareGroupOffsetsRequestGroup_0(b, p):
    o = _new(DescribeShareGroupOffsetsRequestGroup)
    o.group_id, p = _rcstr(b, p)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcnal(b, p, 3)
    if n < 0:
        o.topics = None
    else:
        l = []
        for _ in range(n):
            e, p = _d_DescribeShareGroupOffsetsRequestTopic_0(b, p)
            l.append(e)
        o.topics = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_DescribeShareGroupOffsetsRequest_0(b, p):
    o = _new(DescribeShareGroupOffsetsRequest)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 3)
    l = []
    for _ in range(n):
        e, p = _d_DescribeShareGroupOffsetsRequestGroup_0(b, p)
        l.append(e)
    o.groups = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_DescribeShareGroupOffsetsRequestTopic_0(o, w):
    _wcstr(w, o.topic_name)
    x = o.partitions
    w.append(_uv(len(x) + 1))
    w.append(_pack('>%di' % len(x), *x))
    _wtag(w, o._unknown_tagged)


def _e_DescribeShareGroupOffsetsRequestGroup_0(o, w):
    _wcstr(w, o.group_id)
    x = o.topics
    if x is None:
        w.append(b'\x00')
    else:
        w.append(_uv(len(x) + 1))
        for e in x:
            _e_DescribeShareGroupOffsetsRequestTopic_0(e, w)
    _wtag(w, o._unknown_tagged)


def _e_DescribeShareGroupOffsetsRequest_0(o, w):
    x = o.groups
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_DescribeShareGroupOffsetsRequestGroup_0(e, w)
    _wtag(w, o._unknown_tagged)


DescribeShareGroupOffsetsRequest._DECODERS = {0: _d_DescribeShareGroupOffsetsRequest_0, 1: _d_DescribeShareGroupOffsetsRequest_0}
DescribeShareGroupOffsetsRequest._ENCODERS = {0: _e_DescribeShareGroupOffsetsRequest_0, 1: _e_DescribeShareGroupOffsetsRequest_0}
