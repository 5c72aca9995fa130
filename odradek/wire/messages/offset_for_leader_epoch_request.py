"""Generated from Kafka's OffsetForLeaderEpochRequest.json by tools/gen_wire.py. Do not edit."""
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

_S0 = _struct.Struct('>iii')
_S1 = _struct.Struct('>i')


class OffsetForLeaderPartition(Message):
    __slots__ = ('partition', 'current_leader_epoch', 'leader_epoch', '_unknown_tagged')
    _FIELDS = (('partition', 'int32', 0, 32767, -1, -1, None, -1, None), ('current_leader_epoch', 'int32', 2, 32767, -1, -1, None, -1, None), ('leader_epoch', 'int32', 0, 32767, -1, -1, None, -1, None))

    def __init__(self, *, partition=0, current_leader_epoch=-1, leader_epoch=0, _unknown_tagged=None):
        self.partition = partition
        self.current_leader_epoch = current_leader_epoch
        self.leader_epoch = leader_epoch
        self._unknown_tagged = _unknown_tagged


class OffsetForLeaderTopic(Message):
    __slots__ = ('topic', 'partitions', '_unknown_tagged')
    _FIELDS = (('topic', 'string', 0, 32767, -1, -1, None, -1, None), ('partitions', '[]OffsetForLeaderPartition', 0, 32767, -1, -1, None, -1, 'OffsetForLeaderPartition'))

    def __init__(self, *, topic='', partitions=DEFAULT, _unknown_tagged=None):
        self.topic = topic
        self.partitions = [] if partitions is DEFAULT else partitions
        self._unknown_tagged = _unknown_tagged


class OffsetForLeaderEpochRequest(Message):
    __slots__ = ('replica_id', 'topics', '_unknown_tagged')
    _FIELDS = (('replica_id', 'int32', 3, 32767, -1, -1, None, -1, None), ('topics', '[]OffsetForLeaderTopic', 0, 32767, -1, -1, None, -1, 'OffsetForLeaderTopic'))
    API_KEY = 23
    VALID_VERSIONS = (2, 4)
    FLEXIBLE_MIN = 4

    def __init__(self, *, replica_id=-2, topics=DEFAULT, _unknown_tagged=None):
        self.replica_id = replica_id
        self.topics = [] if topics is DEFAULT else topics
        self._unknown_tagged = _unknown_tagged



def _d_OffsetForLeaderPartition_0(b, p):
    o = _new(OffsetForLeaderPartition)
    o.partition, o.current_leader_epoch, o.leader_epoch = _S0.unpack_from(b, p)
    p += 12
    o._unknown_tagged = None
    return o, p


def _n_OffsetForLeaderTopic_0(b, p, y):
    o = _new(OffsetForLeaderTopic)
    o.topic, p = _rstr(b, p)
    n, p = _ral(b, p, 12)
    l = []
    for _ in range(n):
        e, p = _d_OffsetForLeaderPartition_0(b, p)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.partitions = l
    o._unknown_tagged = None
    return o, p, y


def _s_OffsetForLeaderEpochRequest_0(b, p):
    o = _new(OffsetForLeaderEpochRequest)
    o.replica_id = -2
    n, p = _ral(b, p, 6)
    y = p + 16384
    l = []
    for _ in range(n):
        e, p, y = yield from _n_OffsetForLeaderTopic_0(b, p, y)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.topics = l
    o._unknown_tagged = None
    return o, p


def _e_OffsetForLeaderPartition_0(o, w):
    w.append(_S0.pack(o.partition, o.current_leader_epoch, o.leader_epoch))


def _e_OffsetForLeaderTopic_0(o, w):
    _wstr(w, o.topic)
    x = o.partitions
    w.append(_I(len(x)))
    for e in x:
        _e_OffsetForLeaderPartition_0(e, w)


def _e_OffsetForLeaderEpochRequest_0(o, w):
    x = o.topics
    w.append(_I(len(x)))
    for e in x:
        _e_OffsetForLeaderTopic_0(e, w)


def _s_OffsetForLeaderEpochRequest_1(b, p):
    o = _new(OffsetForLeaderEpochRequest)
    o.replica_id, = _S1.unpack_from(b, p)
    p += 4
    n, p = _ral(b, p, 6)
    y = p + 16384
    l = []
    for _ in range(n):
        e, p, y = yield from _n_OffsetForLeaderTopic_0(b, p, y)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.topics = l
    o._unknown_tagged = None
    return o, p


def _e_OffsetForLeaderEpochRequest_1(o, w):
    w.append(_S1.pack(o.replica_id))
    x = o.topics
    w.append(_I(len(x)))
    for e in x:
        _e_OffsetForLeaderTopic_0(e, w)


def _d_OffsetForLeaderPartition_1(b, p):
    o = _new(OffsetForLeaderPartition)
    o.partition, o.current_leader_epoch, o.leader_epoch = _S0.unpack_from(b, p)
    p += 12
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _n_OffsetForLeaderTopic_1(b, p, y):
    o = _new(OffsetForLeaderTopic)
    o.topic, p = _rcstr(b, p)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 13)
    l = []
    for _ in range(n):
        e, p = _d_OffsetForLeaderPartition_1(b, p)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.partitions = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p, y


def _s_OffsetForLeaderEpochRequest_2(b, p):
    o = _new(OffsetForLeaderEpochRequest)
    o.replica_id, = _S1.unpack_from(b, p)
    p += 4
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 3)
    y = p + 16384
    l = []
    for _ in range(n):
        e, p, y = yield from _n_OffsetForLeaderTopic_1(b, p, y)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.topics = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_OffsetForLeaderPartition_1(o, w):
    w.append(_S0.pack(o.partition, o.current_leader_epoch, o.leader_epoch))
    _wtag(w, o._unknown_tagged)


def _e_OffsetForLeaderTopic_1(o, w):
    _wcstr(w, o.topic)
    x = o.partitions
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_OffsetForLeaderPartition_1(e, w)
    _wtag(w, o._unknown_tagged)


def _e_OffsetForLeaderEpochRequest_2(o, w):
    w.append(_S1.pack(o.replica_id))
    x = o.topics
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_OffsetForLeaderTopic_1(e, w)
    _wtag(w, o._unknown_tagged)


_d_s_OffsetForLeaderEpochRequest_0 = _whole(_s_OffsetForLeaderEpochRequest_0)
_d_s_OffsetForLeaderEpochRequest_1 = _whole(_s_OffsetForLeaderEpochRequest_1)
_d_s_OffsetForLeaderEpochRequest_2 = _whole(_s_OffsetForLeaderEpochRequest_2)
OffsetForLeaderEpochRequest._STEPS = {2: _s_OffsetForLeaderEpochRequest_0, 3: _s_OffsetForLeaderEpochRequest_1, 4: _s_OffsetForLeaderEpochRequest_2}
OffsetForLeaderEpochRequest._DECODERS = {2: _d_s_OffsetForLeaderEpochRequest_0, 3: _d_s_OffsetForLeaderEpochRequest_1, 4: _d_s_OffsetForLeaderEpochRequest_2}
OffsetForLeaderEpochRequest._ENCODERS = {2: _e_OffsetForLeaderEpochRequest_0, 3: _e_OffsetForLeaderEpochRequest_1, 4: _e_OffsetForLeaderEpochRequest_2}
