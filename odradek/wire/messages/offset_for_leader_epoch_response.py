"""Generated from Kafka's OffsetForLeaderEpochResponse.json by tools/gen_wire.py. Do not edit."""
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
_S1 = _struct.Struct('>hiiq')


class EpochEndOffset(Message):
    __slots__ = ('error_code', 'partition', 'leader_epoch', 'end_offset', '_unknown_tagged')
    _FIELDS = (('error_code', 'int16', 0, 32767, -1, -1, None, -1, None), ('partition', 'int32', 0, 32767, -1, -1, None, -1, None), ('leader_epoch', 'int32', 1, 32767, -1, -1, None, -1, None), ('end_offset', 'int64', 0, 32767, -1, -1, None, -1, None))

    def __init__(self, *, error_code=0, partition=0, leader_epoch=-1, end_offset=-1, _unknown_tagged=None):
        self.error_code = error_code
        self.partition = partition
        self.leader_epoch = leader_epoch
        self.end_offset = end_offset
        self._unknown_tagged = _unknown_tagged


class OffsetForLeaderTopicResult(Message):
    __slots__ = ('topic', 'partitions', '_unknown_tagged')
    _FIELDS = (('topic', 'string', 0, 32767, -1, -1, None, -1, None), ('partitions', '[]EpochEndOffset', 0, 32767, -1, -1, None, -1, 'EpochEndOffset'))

    def __init__(self, *, topic='', partitions=DEFAULT, _unknown_tagged=None):
        self.topic = topic
        self.partitions = [] if partitions is DEFAULT else partitions
        self._unknown_tagged = _unknown_tagged


class OffsetForLeaderEpochResponse(Message):
    __slots__ = ('throttle_time_ms', 'topics', '_unknown_tagged')
    _FIELDS = (('throttle_time_ms', 'int32', 2, 32767, -1, -1, None, -1, None), ('topics', '[]OffsetForLeaderTopicResult', 0, 32767, -1, -1, None, -1, 'OffsetForLeaderTopicResult'))
    API_KEY = 23
    VALID_VERSIONS = (2, 4)
    FLEXIBLE_MIN = 4

    def __init__(self, *, throttle_time_ms=0, topics=DEFAULT, _unknown_tagged=None):
        self.throttle_time_ms = throttle_time_ms
        self.topics = [] if topics is DEFAULT else topics
        self._unknown_tagged = _unknown_tagged



def _d_EpochEndOffset_0(b, p):
    o = _new(EpochEndOffset)
    o.error_code, o.partition, o.leader_epoch, o.end_offset = _S1.unpack_from(b, p)
    p += 18
    o._unknown_tagged = None
    return o, p


def _d_OffsetForLeaderTopicResult_0(b, p):
    o = _new(OffsetForLeaderTopicResult)
    o.topic, p = _rstr(b, p)
    n, p = _ral(b, p, 18)
    l = []
    for _ in range(n):
        e, p = _d_EpochEndOffset_0(b, p)
        l.append(e)
    o.partitions = l
    o._unknown_tagged = None
    return o, p


def _d_OffsetForLeaderEpochResponse_0(b, p):
    o = _new(OffsetForLeaderEpochResponse)
    o.throttle_time_ms, = _S0.unpack_from(b, p)
    p += 4
    n, p = _ral(b, p, 6)
    l = []
    for _ in range(n):
        e, p = _d_OffsetForLeaderTopicResult_0(b, p)
        l.append(e)
    o.topics = l
    o._unknown_tagged = None
    return o, p


def _e_EpochEndOffset_0(o, w):
    w.append(_S1.pack(o.error_code, o.partition, o.leader_epoch, o.end_offset))


def _e_OffsetForLeaderTopicResult_0(o, w):
    _wstr(w, o.topic)
    x = o.partitions
    w.append(_I(len(x)))
    for e in x:
        _e_EpochEndOffset_0(e, w)


def _e_OffsetForLeaderEpochResponse_0(o, w):
    w.append(_S0.pack(o.throttle_time_ms))
    x = o.topics
    w.append(_I(len(x)))
    for e in x:
        _e_OffsetForLeaderTopicResult_0(e, w)


def _u_OffsetForLeaderTopicResult_0(o, w, c):
    _wstr(w, o.topic)
    x = o.partitions
    w.append(_I(len(x)))
    for e in x:
        _e_EpochEndOffset_0(e, w)
        c += 1
        if c >= 1000:
            c = 0
            yield
    return c


def _t_OffsetForLeaderEpochResponse_0(o, w):
    c = 0
    w.append(_S0.pack(o.throttle_time_ms))
    x = o.topics
    w.append(_I(len(x)))
    for e in x:
        c = yield from _u_OffsetForLeaderTopicResult_0(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield


def _d_EpochEndOffset_1(b, p):
    o = _new(EpochEndOffset)
    o.error_code, o.partition, o.leader_epoch, o.end_offset = _S1.unpack_from(b, p)
    p += 18
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_OffsetForLeaderTopicResult_1(b, p):
    o = _new(OffsetForLeaderTopicResult)
    o.topic, p = _rcstr(b, p)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 19)
    l = []
    for _ in range(n):
        e, p = _d_EpochEndOffset_1(b, p)
        l.append(e)
    o.partitions = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_OffsetForLeaderEpochResponse_1(b, p):
    o = _new(OffsetForLeaderEpochResponse)
    o.throttle_time_ms, = _S0.unpack_from(b, p)
    p += 4
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 3)
    l = []
    for _ in range(n):
        e, p = _d_OffsetForLeaderTopicResult_1(b, p)
        l.append(e)
    o.topics = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_EpochEndOffset_1(o, w):
    w.append(_S1.pack(o.error_code, o.partition, o.leader_epoch, o.end_offset))
    _wtag(w, o._unknown_tagged)


def _e_OffsetForLeaderTopicResult_1(o, w):
    _wcstr(w, o.topic)
    x = o.partitions
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_EpochEndOffset_1(e, w)
    _wtag(w, o._unknown_tagged)


def _e_OffsetForLeaderEpochResponse_1(o, w):
    w.append(_S0.pack(o.throttle_time_ms))
    x = o.topics
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_OffsetForLeaderTopicResult_1(e, w)
    _wtag(w, o._unknown_tagged)


def _u_OffsetForLeaderTopicResult_1(o, w, c):
    _wcstr(w, o.topic)
    x = o.partitions
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_EpochEndOffset_1(e, w)
        c += 1
        if c >= 1000:
            c = 0
            yield
    _wtag(w, o._unknown_tagged)
    return c


def _t_OffsetForLeaderEpochResponse_1(o, w):
    c = 0
    w.append(_S0.pack(o.throttle_time_ms))
    x = o.topics
    w.append(_uv(len(x) + 1))
    for e in x:
        c = yield from _u_OffsetForLeaderTopicResult_1(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield
    _wtag(w, o._unknown_tagged)


OffsetForLeaderEpochResponse._DECODERS = {2: _d_OffsetForLeaderEpochResponse_0, 3: _d_OffsetForLeaderEpochResponse_0, 4: _d_OffsetForLeaderEpochResponse_1}
OffsetForLeaderEpochResponse._ENCODERS = {2: _e_OffsetForLeaderEpochResponse_0, 3: _e_OffsetForLeaderEpochResponse_0, 4: _e_OffsetForLeaderEpochResponse_1}
OffsetForLeaderEpochResponse._ENCODE_STEPS = {2: _t_OffsetForLeaderEpochResponse_0, 3: _t_OffsetForLeaderEpochResponse_0, 4: _t_OffsetForLeaderEpochResponse_1}
