"""Generated from Kafka's ConsumerProtocolSubscription.json by tools/gen_wire.py. Do not edit."""
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


class TopicPartition(Message):
    __slots__ = ('topic', 'partitions', '_unknown_tagged')
    _FIELDS = (('topic', 'string', 1, 32767, -1, -1, None, -1, None), ('partitions', '[]int32', 1, 32767, -1, -1, None, -1, None))

    def __init__(self, *, topic='', partitions=DEFAULT, _unknown_tagged=None):
        self.topic = topic
        self.partitions = [] if partitions is DEFAULT else partitions
        self._unknown_tagged = _unknown_tagged


class ConsumerProtocolSubscription(Message):
    __slots__ = ('topics', 'user_data', 'owned_partitions', 'generation_id', 'rack_id', '_unknown_tagged')
    _FIELDS = (('topics', '[]string', 0, 32767, -1, -1, None, -1, None), ('user_data', 'bytes', 0, 32767, 0, 32767, None, -1, None), ('owned_partitions', '[]TopicPartition', 1, 32767, -1, -1, None, -1, 'TopicPartition'), ('generation_id', 'int32', 2, 32767, -1, -1, None, -1, None), ('rack_id', 'string', 3, 32767, 3, 32767, None, -1, None))
    API_KEY = None
    VALID_VERSIONS = (0, 3)
    FLEXIBLE_MIN = None

    def __init__(self, *, topics=DEFAULT, user_data=None, owned_partitions=DEFAULT, generation_id=-1, rack_id=None, _unknown_tagged=None):
        self.topics = [] if topics is DEFAULT else topics
        self.user_data = user_data
        self.owned_partitions = [] if owned_partitions is DEFAULT else owned_partitions
        self.generation_id = generation_id
        self.rack_id = rack_id
        self._unknown_tagged = _unknown_tagged



def _d_ConsumerProtocolSubscription_0(b, p):
    o = _new(ConsumerProtocolSubscription)
    n, p = _ral(b, p, 2)
    l = []
    for _ in range(n):
        e, p = _rstr(b, p)
        l.append(e)
    o.topics = l
    o.user_data, p = _rnbyt(b, p)
    o.owned_partitions = []
    o.generation_id = -1
    o.rack_id = None
    o._unknown_tagged = None
    return o, p


def _e_ConsumerProtocolSubscription_0(o, w):
    x = o.topics
    w.append(_I(len(x)))
    for e in x:
        _wstr(w, e)
    _wnbyt(w, o.user_data)


def _d_TopicPartition_0(b, p):
    o = _new(TopicPartition)
    o.topic, p = _rstr(b, p)
    n, p = _ral(b, p, 4)
    l = list((_ARR['i'][n] if n < 64 else _struct.Struct('>%di' % n)).unpack_from(b, p))
    p += 4 * n
    o.partitions = l
    o._unknown_tagged = None
    return o, p


def _d_ConsumerProtocolSubscription_1(b, p):
    o = _new(ConsumerProtocolSubscription)
    n, p = _ral(b, p, 2)
    l = []
    for _ in range(n):
        e, p = _rstr(b, p)
        l.append(e)
    o.topics = l
    o.user_data, p = _rnbyt(b, p)
    n, p = _ral(b, p, 6)
    l = []
    for _ in range(n):
        e, p = _d_TopicPartition_0(b, p)
        l.append(e)
    o.owned_partitions = l
    o.generation_id = -1
    o.rack_id = None
    o._unknown_tagged = None
    return o, p


def _e_TopicPartition_0(o, w):
    _wstr(w, o.topic)
    x = o.partitions
    w.append(_I(len(x)))
    w.append(_pack('>%di' % len(x), *x))


def _e_ConsumerProtocolSubscription_1(o, w):
    x = o.topics
    w.append(_I(len(x)))
    for e in x:
        _wstr(w, e)
    _wnbyt(w, o.user_data)
    x = o.owned_partitions
    w.append(_I(len(x)))
    for e in x:
        _e_TopicPartition_0(e, w)


def _d_ConsumerProtocolSubscription_2(b, p):
    o = _new(ConsumerProtocolSubscription)
    n, p = _ral(b, p, 2)
    l = []
    for _ in range(n):
        e, p = _rstr(b, p)
        l.append(e)
    o.topics = l
    o.user_data, p = _rnbyt(b, p)
    n, p = _ral(b, p, 6)
    l = []
    for _ in range(n):
        e, p = _d_TopicPartition_0(b, p)
        l.append(e)
    o.owned_partitions = l
    o.generation_id, = _S0.unpack_from(b, p)
    p += 4
    o.rack_id = None
    o._unknown_tagged = None
    return o, p


def _e_ConsumerProtocolSubscription_2(o, w):
    x = o.topics
    w.append(_I(len(x)))
    for e in x:
        _wstr(w, e)
    _wnbyt(w, o.user_data)
    x = o.owned_partitions
    w.append(_I(len(x)))
    for e in x:
        _e_TopicPartition_0(e, w)
    w.append(_S0.pack(o.generation_id))


def _d_ConsumerProtocolSubscription_3(b, p):
    o = _new(ConsumerProtocolSubscription)
    n, p = _ral(b, p, 2)
    l = []
    for _ in range(n):
        e, p = _rstr(b, p)
        l.append(e)
    o.topics = l
    o.user_data, p = _rnbyt(b, p)
    n, p = _ral(b, p, 6)
    l = []
    for _ in range(n):
        e, p = _d_TopicPartition_0(b, p)
        l.append(e)
    o.owned_partitions = l
    o.generation_id, = _S0.unpack_from(b, p)
    p += 4
    o.rack_id, p = _rnstr(b, p)
    o._unknown_tagged = None
    return o, p


def _e_ConsumerProtocolSubscription_3(o, w):
    x = o.topics
    w.append(_I(len(x)))
    for e in x:
        _wstr(w, e)
    _wnbyt(w, o.user_data)
    x = o.owned_partitions
    w.append(_I(len(x)))
    for e in x:
        _e_TopicPartition_0(e, w)
    w.append(_S0.pack(o.generation_id))
    _wnstr(w, o.rack_id)


ConsumerProtocolSubscription._DECODERS = {0: _d_ConsumerProtocolSubscription_0, 1: _d_ConsumerProtocolSubscription_1, 2: _d_ConsumerProtocolSubscription_2, 3: _d_ConsumerProtocolSubscription_3}
ConsumerProtocolSubscription._ENCODERS = {0: _e_ConsumerProtocolSubscription_0, 1: _e_ConsumerProtocolSubscription_1, 2: _e_ConsumerProtocolSubscription_2, 3: _e_ConsumerProtocolSubscription_3}
