"""Generated from Kafka's ConsumerProtocolAssignment.json by tools/gen_wire.py. Do not edit."""
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



class TopicPartition(Message):
    __slots__ = ('topic', 'partitions', '_unknown_tagged')
    _FIELDS = (('topic', 'string', 0, 32767, -1, -1, None, -1, None), ('partitions', '[]int32', 0, 32767, -1, -1, None, -1, None))

    def __init__(self, *, topic='', partitions=DEFAULT, _unknown_tagged=None):
        self.topic = topic
        self.partitions = [] if partitions is DEFAULT else partitions
        self._unknown_tagged = _unknown_tagged


class ConsumerProtocolAssignment(Message):
    __slots__ = ('assigned_partitions', 'user_data', '_unknown_tagged')
    _FIELDS = (('assigned_partitions', '[]TopicPartition', 0, 32767, -1, -1, None, -1, 'TopicPartition'), ('user_data', 'bytes', 0, 32767, 0, 32767, None, -1, None))
    API_KEY = None
    VALID_VERSIONS = (0, 3)
    FLEXIBLE_MIN = None

    def __init__(self, *, assigned_partitions=DEFAULT, user_data=None, _unknown_tagged=None):
        self.assigned_partitions = [] if assigned_partitions is DEFAULT else assigned_partitions
        self.user_data = user_data
        self._unknown_tagged = _unknown_tagged



def _d_TopicPartition_0(b, p):
    o = _new(TopicPartition)
    o.topic, p = _rstr(b, p)
    n, p = _ral(b, p, 4)
    l = list((_ARR['i'][n] if n < 64 else _struct.Struct('>%di' % n)).unpack_from(b, p))
    p += 4 * n
    o.partitions = l
    o._unknown_tagged = None
    return o, p


def _d_ConsumerProtocolAssignment_0(b, p):
    o = _new(ConsumerProtocolAssignment)
    n, p = _ral(b, p, 6)
    l = []
    for _ in range(n):
        e, p = _d_TopicPartition_0(b, p)
        l.append(e)
    o.assigned_partitions = l
    o.user_data, p = _rnbyt(b, p)
    o._unknown_tagged = None
    return o, p


def _e_TopicPartition_0(o, w):
    _wstr(w, o.topic)
    x = o.partitions
    w.append(_I(len(x)))
    w.append(_pack('>%di' % len(x), *x))


def _e_ConsumerProtocolAssignment_0(o, w):
    x = o.assigned_partitions
    w.append(_I(len(x)))
    for e in x:
        _e_TopicPartition_0(e, w)
    _wnbyt(w, o.user_data)


ConsumerProtocolAssignment._DECODERS = {0: _d_ConsumerProtocolAssignment_0, 1: _d_ConsumerProtocolAssignment_0, 2: _d_ConsumerProtocolAssignment_0, 3: _d_ConsumerProtocolAssignment_0}
ConsumerProtocolAssignment._ENCODERS = {0: _e_ConsumerProtocolAssignment_0, 1: _e_ConsumerProtocolAssignment_0, 2: _e_ConsumerProtocolAssignment_0, 3: _e_ConsumerProtocolAssignment_0}
