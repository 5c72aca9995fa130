"""Generated from Kafka's ElectLeadersRequest.json by tools/gen_wire.py. Do not edit."""
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
_S1 = _struct.Struct('>b')


class TopicPartitions(Message):
    __slots__ = ('topic', 'partitions', '_unknown_tagged')
    _FIELDS = (('topic', 'string', 0, 32767, -1, -1, None, -1, None), ('partitions', '[]int32', 0, 32767, -1, -1, None, -1, None))

    def __init__(self, *, topic='', partitions=DEFAULT, _unknown_tagged=None):
        self.topic = topic
        self.partitions = [] if partitions is DEFAULT else partitions
        self._unknown_tagged = _unknown_tagged


class ElectLeadersRequest(Message):
    __slots__ = ('election_type', 'topic_partitions', 'timeout_ms', '_unknown_tagged')
    _FIELDS = (('election_type', 'int8', 1, 32767, -1, -1, None, -1, None), ('topic_partitions', '[]TopicPartitions', 0, 32767, 0, 32767, None, -1, 'TopicPartitions'), ('timeout_ms', 'int32', 0, 32767, -1, -1, None, -1, None))
    API_KEY = 43
    VALID_VERSIONS = (0, 2)
    FLEXIBLE_MIN = 2

    def __init__(self, *, election_type=0, topic_partitions=DEFAULT, timeout_ms=60000, _unknown_tagged=None):
        self.election_type = election_type
        self.topic_partitions = [] if topic_partitions is DEFAULT else topic_partitions
        self.timeout_ms = timeout_ms
        self._unknown_tagged = _unknown_tagged



def _d_TopicPartitions_0(b, p):
    o = _new(TopicPartitions)
    o.topic, p = _rstr(b, p)
    n, p = _ral(b, p, 4)
    l = list((_ARR['i'][n] if n < 64 else _struct.Struct('>%di' % n)).unpack_from(b, p))
    p += 4 * n
    o.partitions = l
    o._unknown_tagged = None
    return o, p


def _s_ElectLeadersRequest_0(b, p):
    o = _new(ElectLeadersRequest)
    o.election_type = 0
    n, p = _rnal(b, p, 6)
    if n < 0:
        o.topic_partitions = None
    else:
        y = p + 16384
        l = []
        for _ in range(n):
            e, p = _d_TopicPartitions_0(b, p)
            l.append(e)
            if p >= y:
                y = p + 16384
                yield
        o.topic_partitions = l
    o.timeout_ms, = _S0.unpack_from(b, p)
    p += 4
    o._unknown_tagged = None
    return o, p


def _e_TopicPartitions_0(o, w):
    _wstr(w, o.topic)
    x = o.partitions
    w.append(_I(len(x)))
    w.append(_pack('>%di' % len(x), *x))


def _e_ElectLeadersRequest_0(o, w):
    x = o.topic_partitions
    if x is None:
        w.append(b'\xff\xff\xff\xff')
    else:
        w.append(_I(len(x)))
        for e in x:
            _e_TopicPartitions_0(e, w)
    w.append(_S0.pack(o.timeout_ms))


def _s_ElectLeadersRequest_1(b, p):
    o = _new(ElectLeadersRequest)
    o.election_type, = _S1.unpack_from(b, p)
    p += 1
    n, p = _rnal(b, p, 6)
    if n < 0:
        o.topic_partitions = None
    else:
        y = p + 16384
        l = []
        for _ in range(n):
            e, p = _d_TopicPartitions_0(b, p)
            l.append(e)
            if p >= y:
                y = p + 16384
                yield
        o.topic_partitions = l
    o.timeout_ms, = _S0.unpack_from(b, p)
    p += 4
    o._unknown_tagged = None
    return o, p


def _e_ElectLeadersRequest_1(o, w):
    w.append(_S1.pack(o.election_type))
    x = o.topic_partitions
    if x is None:
        w.append(b'\xff\xff\xff\xff')
    else:
        w.append(_I(len(x)))
        for e in x:
            _e_TopicPartitions_0(e, w)
    w.append(_S0.pack(o.timeout_ms))


def _d_TopicPartitions_1(b, p):
    o = _new(TopicPartitions)
    o.topic, p = _rcstr(b, p)
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


def _s_ElectLeadersRequest_2(b, p):
    o = _new(ElectLeadersRequest)
    o.election_type, = _S1.unpack_from(b, p)
    p += 1
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcnal(b, p, 3)
    if n < 0:
        o.topic_partitions = None
    else:
        y = p + 16384
        l = []
        for _ in range(n):
            e, p = _d_TopicPartitions_1(b, p)
            l.append(e)
            if p >= y:
                y = p + 16384
                yield
        o.topic_partitions = l
    o.timeout_ms, = _S0.unpack_from(b, p)
    p += 4
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_TopicPartitions_1(o, w):
    _wcstr(w, o.topic)
    x = o.partitions
    w.append(_uv(len(x) + 1))
    w.append(_pack('>%di' % len(x), *x))
    _wtag(w, o._unknown_tagged)


def _e_ElectLeadersRequest_2(o, w):
    w.append(_S1.pack(o.election_type))
    x = o.topic_partitions
    if x is None:
        w.append(b'\x00')
    else:
        w.append(_uv(len(x) + 1))
        for e in x:
            _e_TopicPartitions_1(e, w)
    w.append(_S0.pack(o.timeout_ms))
    _wtag(w, o._unknown_tagged)


_d_s_ElectLeadersRequest_0 = _whole(_s_ElectLeadersRequest_0)
_d_s_ElectLeadersRequest_1 = _whole(_s_ElectLeadersRequest_1)
_d_s_ElectLeadersRequest_2 = _whole(_s_ElectLeadersRequest_2)
ElectLeadersRequest._STEPS = {0: _s_ElectLeadersRequest_0, 1: _s_ElectLeadersRequest_1, 2: _s_ElectLeadersRequest_2}
ElectLeadersRequest._DECODERS = {0: _d_s_ElectLeadersRequest_0, 1: _d_s_ElectLeadersRequest_1, 2: _d_s_ElectLeadersRequest_2}
ElectLeadersRequest._ENCODERS = {0: _e_ElectLeadersRequest_0, 1: _e_ElectLeadersRequest_1, 2: _e_ElectLeadersRequest_2}
