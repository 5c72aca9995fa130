"""Generated from Kafka's DescribeTopicPartitionsRequest.json by tools/gen_wire.py. Do not edit."""
# flake8: noqa
import struct as _struct

from ..base import DEFAULT, Message, whole as _whole
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


class TopicRequest(Message):
    __slots__ = ('name', '_unknown_tagged')
    _FIELDS = (('name', 'string', 0, 32767, -1, -1, None, -1, None),)

    def __init__(self, *, name='', _unknown_tagged=None):
        self.name = name
        self._unknown_tagged = _unknown_tagged


class Cursor(Message):
    __slots__ = ('topic_name', 'partition_index', '_unknown_tagged')
    _FIELDS = (('topic_name', 'string', 0, 32767, -1, -1, None, -1, None), ('partition_index', 'int32', 0, 32767, -1, -1, None, -1, None))

    def __init__(self, *, topic_name='', partition_index=0, _unknown_tagged=None):
        self.topic_name = topic_name
        self.partition_index = partition_index
        self._unknown_tagged = _unknown_tagged


class DescribeTopicPartitionsRequest(Message):
    __slots__ = ('topics', 'response_partition_limit', 'cursor', '_unknown_tagged')
    _FIELDS = (('topics', '[]TopicRequest', 0, 32767, -1, -1, None, -1, 'TopicRequest'), ('response_partition_limit', 'int32', 0, 32767, -1, -1, None, -1, None), ('cursor', 'Cursor', 0, 32767, 0, 32767, None, -1, 'Cursor'))
    API_KEY = 75
    VALID_VERSIONS = (0, 0)
    FLEXIBLE_MIN = 0

    def __init__(self, *, topics=DEFAULT, response_partition_limit=2000, cursor=None, _unknown_tagged=None):
        self.topics = [] if topics is DEFAULT else topics
        self.response_partition_limit = response_partition_limit
        self.cursor = cursor
        self._unknown_tagged = _unknown_tagged



def _d_TopicRequest_0(b, p):
    o = _new(TopicRequest)
    o.name, p = _rcstr(b, p)
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_Cursor_0(b, p):
    o = _new(Cursor)
    o.topic_name, p = _rcstr(b, p)
    o.partition_index, = _S0.unpack_from(b, p)
    p += 4
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _s_DescribeTopicPartitionsRequest_0(b, p):
    o = _new(DescribeTopicPartitionsRequest)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 2)
    y = p + 16384
    l = []
    for _ in range(n):
        e, p = _d_TopicRequest_0(b, p)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.topics = l
    o.response_partition_limit, = _S0.unpack_from(b, p)
    p += 4
    if b[p] >= 128:
        o.cursor = None
        p += 1
    else:
        o.cursor, p = _d_Cursor_0(b, p + 1)
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_TopicRequest_0(o, w):
    _wcstr(w, o.name)
    _wtag(w, o._unknown_tagged)


def _e_Cursor_0(o, w):
    _wcstr(w, o.topic_name)
    w.append(_S0.pack(o.partition_index))
    _wtag(w, o._unknown_tagged)


def _e_DescribeTopicPartitionsRequest_0(o, w):
    x = o.topics
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_TopicRequest_0(e, w)
    w.append(_S0.pack(o.response_partition_limit))
    x = o.cursor
    if x is None:
        w.append(b'\xff')
    else:
        w.append(b'\x01')
        _e_Cursor_0(x, w)
    _wtag(w, o._unknown_tagged)


_d_s_DescribeTopicPartitionsRequest_0 = _whole(_s_DescribeTopicPartitionsRequest_0)
DescribeTopicPartitionsRequest._STEPS = {0: _s_DescribeTopicPartitionsRequest_0}
DescribeTopicPartitionsRequest._DECODERS = {0: _d_s_DescribeTopicPartitionsRequest_0}
DescribeTopicPartitionsRequest._ENCODERS = {0: _e_DescribeTopicPartitionsRequest_0}
