"""Generated from Kafka's ListOffsetsResponse.json by tools/gen_wire.py. Do not edit."""
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

_S0 = _struct.Struct('>ihqq')
_S1 = _struct.Struct('>i')
_S2 = _struct.Struct('>ihqqi')


class ListOffsetsPartitionResponse(Message):
    __slots__ = ('partition_index', 'error_code', 'timestamp', 'offset', 'leader_epoch', '_unknown_tagged')
    _FIELDS = (('partition_index', 'int32', 0, 32767, -1, -1, None, -1, None), ('error_code', 'int16', 0, 32767, -1, -1, None, -1, None), ('timestamp', 'int64', 1, 32767, -1, -1, None, -1, None), ('offset', 'int64', 1, 32767, -1, -1, None, -1, None), ('leader_epoch', 'int32', 4, 32767, -1, -1, None, -1, None))

    def __init__(self, *, partition_index=0, error_code=0, timestamp=-1, offset=-1, leader_epoch=-1, _unknown_tagged=None):
        self.partition_index = partition_index
        self.error_code = error_code
        self.timestamp = timestamp
        self.offset = offset
        self.leader_epoch = leader_epoch
        self._unknown_tagged = _unknown_tagged


class ListOffsetsTopicResponse(Message):
    __slots__ = ('name', 'partitions', '_unknown_tagged')
    _FIELDS = (('name', 'string', 0, 32767, -1, -1, None, -1, None), ('partitions', '[]ListOffsetsPartitionResponse', 0, 32767, -1, -1, None, -1, 'ListOffsetsPartitionResponse'))

    def __init__(self, *, name='', partitions=DEFAULT, _unknown_tagged=None):
        self.name = name
        self.partitions = [] if partitions is DEFAULT else partitions
        self._unknown_tagged = _unknown_tagged


class ListOffsetsResponse(Message):
    __slots__ = ('throttle_time_ms', 'topics', '_unknown_tagged')
    _FIELDS = (('throttle_time_ms', 'int32', 2, 32767, -1, -1, None, -1, None), ('topics', '[]ListOffsetsTopicResponse', 0, 32767, -1, -1, None, -1, 'ListOffsetsTopicResponse'))
    API_KEY = 2
    VALID_VERSIONS = (1, 11)
    FLEXIBLE_MIN = 6

    def __init__(self, *, throttle_time_ms=0, topics=DEFAULT, _unknown_tagged=None):
        self.throttle_time_ms = throttle_time_ms
        self.topics = [] if topics is DEFAULT else topics
        self._unknown_tagged = _unknown_tagged



def _d_ListOffsetsPartitionResponse_0(b, p):
    o = _new(ListOffsetsPartitionResponse)
    o.partition_index, o.error_code, o.timestamp, o.offset = _S0.unpack_from(b, p)
    p += 22
    o.leader_epoch = -1
    o._unknown_tagged = None
    return o, p


def _d_ListOffsetsTopicResponse_0(b, p):
    o = _new(ListOffsetsTopicResponse)
    o.name, p = _rstr(b, p)
    n, p = _ral(b, p, 22)
    l = []
    for _ in range(n):
        e, p = _d_ListOffsetsPartitionResponse_0(b, p)
        l.append(e)
    o.partitions = l
    o._unknown_tagged = None
    return o, p


def _d_ListOffsetsResponse_0(b, p):
    o = _new(ListOffsetsResponse)
    o.throttle_time_ms = 0
    n, p = _ral(b, p, 6)
    l = []
    for _ in range(n):
        e, p = _d_ListOffsetsTopicResponse_0(b, p)
        l.append(e)
    o.topics = l
    o._unknown_tagged = None
    return o, p


def _e_ListOffsetsPartitionResponse_0(o, w):
    w.append(_S0.pack(o.partition_index, o.error_code, o.timestamp, o.offset))


def _e_ListOffsetsTopicResponse_0(o, w):
    _wstr(w, o.name)
    x = o.partitions
    w.append(_I(len(x)))
    for e in x:
        _e_ListOffsetsPartitionResponse_0(e, w)


def _e_ListOffsetsResponse_0(o, w):
    x = o.topics
    w.append(_I(len(x)))
    for e in x:
        _e_ListOffsetsTopicResponse_0(e, w)


def _u_ListOffsetsTopicResponse_0(o, w, c):
    _wstr(w, o.name)
    x = o.partitions
    w.append(_I(len(x)))
    for e in x:
        _e_ListOffsetsPartitionResponse_0(e, w)
        c += 1
        if c >= 1000:
            c = 0
            yield
    return c


def _t_ListOffsetsResponse_0(o, w):
    c = 0
    x = o.topics
    w.append(_I(len(x)))
    for e in x:
        c = yield from _u_ListOffsetsTopicResponse_0(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield


def _d_ListOffsetsResponse_1(b, p):
    o = _new(ListOffsetsResponse)
    o.throttle_time_ms, = _S1.unpack_from(b, p)
    p += 4
    n, p = _ral(b, p, 6)
    l = []
    for _ in range(n):
        e, p = _d_ListOffsetsTopicResponse_0(b, p)
        l.append(e)
    o.topics = l
    o._unknown_tagged = None
    return o, p


def _e_ListOffsetsResponse_1(o, w):
    w.append(_S1.pack(o.throttle_time_ms))
    x = o.topics
    w.append(_I(len(x)))
    for e in x:
        _e_ListOffsetsTopicResponse_0(e, w)


def _t_ListOffsetsResponse_1(o, w):
    c = 0
    w.append(_S1.pack(o.throttle_time_ms))
    x = o.topics
    w.append(_I(len(x)))
    for e in x:
        c = yield from _u_ListOffsetsTopicResponse_0(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield


def _d_ListOffsetsPartitionResponse_1(b, p):
    o = _new(ListOffsetsPartitionResponse)
    o.partition_index, o.error_code, o.timestamp, o.offset, o.leader_epoch = _S2.unpack_from(b, p)
    p += 26
    o._unknown_tagged = None
    return o, p


def _d_ListOffsetsTopicResponse_1(b, p):
    o = _new(ListOffsetsTopicResponse)
    o.name, p = _rstr(b, p)
    n, p = _ral(b, p, 26)
    l = []
    for _ in range(n):
        e, p = _d_ListOffsetsPartitionResponse_1(b, p)
        l.append(e)
    o.partitions = l
    o._unknown_tagged = None
    return o, p


def _d_ListOffsetsResponse_2(b, p):
    o = _new(ListOffsetsResponse)
    o.throttle_time_ms, = _S1.unpack_from(b, p)
    p += 4
    n, p = _ral(b, p, 6)
    l = []
    for _ in range(n):
        e, p = _d_ListOffsetsTopicResponse_1(b, p)
        l.append(e)
    o.topics = l
    o._unknown_tagged = None
    return o, p


def _e_ListOffsetsPartitionResponse_1(o, w):
    w.append(_S2.pack(o.partition_index, o.error_code, o.timestamp, o.offset, o.leader_epoch))


def _e_ListOffsetsTopicResponse_1(o, w):
    _wstr(w, o.name)
    x = o.partitions
    w.append(_I(len(x)))
    for e in x:
        _e_ListOffsetsPartitionResponse_1(e, w)


def _e_ListOffsetsResponse_2(o, w):
    w.append(_S1.pack(o.throttle_time_ms))
    x = o.topics
    w.append(_I(len(x)))
    for e in x:
        _e_ListOffsetsTopicResponse_1(e, w)


def _u_ListOffsetsTopicResponse_1(o, w, c):
    _wstr(w, o.name)
    x = o.partitions
    w.append(_I(len(x)))
    for e in x:
        _e_ListOffsetsPartitionResponse_1(e, w)
        c += 1
        if c >= 1000:
            c = 0
            yield
    return c


def _t_ListOffsetsResponse_2(o, w):
    c = 0
    w.append(_S1.pack(o.throttle_time_ms))
    x = o.topics
    w.append(_I(len(x)))
    for e in x:
        c = yield from _u_ListOffsetsTopicResponse_1(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield


def _d_ListOffsetsPartitionResponse_2(b, p):
    o = _new(ListOffsetsPartitionResponse)
    o.partition_index, o.error_code, o.timestamp, o.offset, o.leader_epoch = _S2.unpack_from(b, p)
    p += 26
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_ListOffsetsTopicResponse_2(b, p):
    o = _new(ListOffsetsTopicResponse)
    o.name, p = _rcstr(b, p)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 27)
    l = []
    for _ in range(n):
        e, p = _d_ListOffsetsPartitionResponse_2(b, p)
        l.append(e)
    o.partitions = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_ListOffsetsResponse_3(b, p):
    o = _new(ListOffsetsResponse)
    o.throttle_time_ms, = _S1.unpack_from(b, p)
    p += 4
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 3)
    l = []
    for _ in range(n):
        e, p = _d_ListOffsetsTopicResponse_2(b, p)
        l.append(e)
    o.topics = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_ListOffsetsPartitionResponse_2(o, w):
    w.append(_S2.pack(o.partition_index, o.error_code, o.timestamp, o.offset, o.leader_epoch))
    _wtag(w, o._unknown_tagged)


def _e_ListOffsetsTopicResponse_2(o, w):
    _wcstr(w, o.name)
    x = o.partitions
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_ListOffsetsPartitionResponse_2(e, w)
    _wtag(w, o._unknown_tagged)


def _e_ListOffsetsResponse_3(o, w):
    w.append(_S1.pack(o.throttle_time_ms))
    x = o.topics
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_ListOffsetsTopicResponse_2(e, w)
    _wtag(w, o._unknown_tagged)


def _u_ListOffsetsTopicResponse_2(o, w, c):
    _wcstr(w, o.name)
    x = o.partitions
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_ListOffsetsPartitionResponse_2(e, w)
        c += 1
        if c >= 1000:
            c = 0
            yield
    _wtag(w, o._unknown_tagged)
    return c


def _t_ListOffsetsResponse_3(o, w):
    c = 0
    w.append(_S1.pack(o.throttle_time_ms))
    x = o.topics
    w.append(_uv(len(x) + 1))
    for e in x:
        c = yield from _u_ListOffsetsTopicResponse_2(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield
    _wtag(w, o._unknown_tagged)


ListOffsetsResponse._DECODERS = {1: _d_ListOffsetsResponse_0, 2: _d_ListOffsetsResponse_1, 3: _d_ListOffsetsResponse_1, 4: _d_ListOffsetsResponse_2, 5: _d_ListOffsetsResponse_2, 6: _d_ListOffsetsResponse_3, 7: _d_ListOffsetsResponse_3, 8: _d_ListOffsetsResponse_3, 9: _d_ListOffsetsResponse_3, 10: _d_ListOffsetsResponse_3, 11: _d_ListOffsetsResponse_3}
ListOffsetsResponse._ENCODERS = {1: _e_ListOffsetsResponse_0, 2: _e_ListOffsetsResponse_1, 3: _e_ListOffsetsResponse_1, 4: _e_ListOffsetsResponse_2, 5: _e_ListOffsetsResponse_2, 6: _e_ListOffsetsResponse_3, 7: _e_ListOffsetsResponse_3, 8: _e_ListOffsetsResponse_3, 9: _e_ListOffsetsResponse_3, 10: _e_ListOffsetsResponse_3, 11: _e_ListOffsetsResponse_3}
ListOffsetsResponse._ENCODE_STEPS = {1: _t_ListOffsetsResponse_0, 2: _t_ListOffsetsResponse_1, 3: _t_ListOffsetsResponse_1, 4: _t_ListOffsetsResponse_2, 5: _t_ListOffsetsResponse_2, 6: _t_ListOffsetsResponse_3, 7: _t_ListOffsetsResponse_3, 8: _t_ListOffsetsResponse_3, 9: _t_ListOffsetsResponse_3, 10: _t_ListOffsetsResponse_3, 11: _t_ListOffsetsResponse_3}
