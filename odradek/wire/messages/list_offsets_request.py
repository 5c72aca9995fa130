"""Generated from Kafka's ListOffsetsRequest.json by tools/gen_wire.py. Do not edit."""
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
_S1 = _struct.Struct('>q')
_S2 = _struct.Struct('>iq')
_S3 = _struct.Struct('>ib')
_S4 = _struct.Struct('>iiq')


class ListOffsetsPartition(Message):
    __slots__ = ('partition_index', 'current_leader_epoch', 'timestamp', '_unknown_tagged')
    _FIELDS = (('partition_index', 'int32', 0, 32767, -1, -1, None, -1, None), ('current_leader_epoch', 'int32', 4, 32767, -1, -1, None, -1, None), ('timestamp', 'int64', 0, 32767, -1, -1, None, -1, None))

    def __init__(self, *, partition_index=0, current_leader_epoch=-1, timestamp=0, _unknown_tagged=None):
        self.partition_index = partition_index
        self.current_leader_epoch = current_leader_epoch
        self.timestamp = timestamp
        self._unknown_tagged = _unknown_tagged


class ListOffsetsTopic(Message):
    __slots__ = ('name', 'partitions', '_unknown_tagged')
    _FIELDS = (('name', 'string', 0, 32767, -1, -1, None, -1, None), ('partitions', '[]ListOffsetsPartition', 0, 32767, -1, -1, None, -1, 'ListOffsetsPartition'))

    def __init__(self, *, name='', partitions=DEFAULT, _unknown_tagged=None):
        self.name = name
        self.partitions = [] if partitions is DEFAULT else partitions
        self._unknown_tagged = _unknown_tagged


class ListOffsetsRequest(Message):
    __slots__ = ('replica_id', 'isolation_level', 'topics', 'timeout_ms', '_unknown_tagged')
    _FIELDS = (('replica_id', 'int32', 0, 32767, -1, -1, None, -1, None), ('isolation_level', 'int8', 2, 32767, -1, -1, None, -1, None), ('topics', '[]ListOffsetsTopic', 0, 32767, -1, -1, None, -1, 'ListOffsetsTopic'), ('timeout_ms', 'int32', 10, 32767, -1, -1, None, -1, None))
    API_KEY = 2
    VALID_VERSIONS = (1, 11)
    FLEXIBLE_MIN = 6

    def __init__(self, *, replica_id=0, isolation_level=0, topics=DEFAULT, timeout_ms=0, _unknown_tagged=None):
        self.replica_id = replica_id
        self.isolation_level = isolation_level
        self.topics = [] if topics is DEFAULT else topics
        self.timeout_ms = timeout_ms
        self._unknown_tagged = _unknown_tagged



def _d_ListOffsetsPartition_0(b, p):
    o = _new(ListOffsetsPartition)
    o.partition_index, = _S0.unpack_from(b, p)
    p += 4
    o.current_leader_epoch = -1
    o.timestamp, = _S1.unpack_from(b, p)
    p += 8
    o._unknown_tagged = None
    return o, p


def _n_ListOffsetsTopic_0(b, p, y):
    o = _new(ListOffsetsTopic)
    o.name, p = _rstr(b, p)
    n, p = _ral(b, p, 12)
    l = []
    for _ in range(n):
        e, p = _d_ListOffsetsPartition_0(b, p)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.partitions = l
    o._unknown_tagged = None
    return o, p, y


def _s_ListOffsetsRequest_0(b, p):
    o = _new(ListOffsetsRequest)
    o.replica_id, = _S0.unpack_from(b, p)
    p += 4
    o.isolation_level = 0
    n, p = _ral(b, p, 6)
    y = p + 16384
    l = []
    for _ in range(n):
        e, p, y = yield from _n_ListOffsetsTopic_0(b, p, y)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.topics = l
    o.timeout_ms = 0
    o._unknown_tagged = None
    return o, p


def _e_ListOffsetsPartition_0(o, w):
    w.append(_S2.pack(o.partition_index, o.timestamp))


def _e_ListOffsetsTopic_0(o, w):
    _wstr(w, o.name)
    x = o.partitions
    w.append(_I(len(x)))
    for e in x:
        _e_ListOffsetsPartition_0(e, w)


def _e_ListOffsetsRequest_0(o, w):
    w.append(_S0.pack(o.replica_id))
    x = o.topics
    w.append(_I(len(x)))
    for e in x:
        _e_ListOffsetsTopic_0(e, w)


def _s_ListOffsetsRequest_1(b, p):
    o = _new(ListOffsetsRequest)
    o.replica_id, o.isolation_level = _S3.unpack_from(b, p)
    p += 5
    n, p = _ral(b, p, 6)
    y = p + 16384
    l = []
    for _ in range(n):
        e, p, y = yield from _n_ListOffsetsTopic_0(b, p, y)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.topics = l
    o.timeout_ms = 0
    o._unknown_tagged = None
    return o, p


def _e_ListOffsetsRequest_1(o, w):
    w.append(_S3.pack(o.replica_id, o.isolation_level))
    x = o.topics
    w.append(_I(len(x)))
    for e in x:
        _e_ListOffsetsTopic_0(e, w)


def _d_ListOffsetsPartition_1(b, p):
    o = _new(ListOffsetsPartition)
    o.partition_index, o.current_leader_epoch, o.timestamp = _S4.unpack_from(b, p)
    p += 16
    o._unknown_tagged = None
    return o, p


def _n_ListOffsetsTopic_1(b, p, y):
    o = _new(ListOffsetsTopic)
    o.name, p = _rstr(b, p)
    n, p = _ral(b, p, 16)
    l = []
    for _ in range(n):
        e, p = _d_ListOffsetsPartition_1(b, p)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.partitions = l
    o._unknown_tagged = None
    return o, p, y


def _s_ListOffsetsRequest_2(b, p):
    o = _new(ListOffsetsRequest)
    o.replica_id, o.isolation_level = _S3.unpack_from(b, p)
    p += 5
    n, p = _ral(b, p, 6)
    y = p + 16384
    l = []
    for _ in range(n):
        e, p, y = yield from _n_ListOffsetsTopic_1(b, p, y)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.topics = l
    o.timeout_ms = 0
    o._unknown_tagged = None
    return o, p


def _e_ListOffsetsPartition_1(o, w):
    w.append(_S4.pack(o.partition_index, o.current_leader_epoch, o.timestamp))


def _e_ListOffsetsTopic_1(o, w):
    _wstr(w, o.name)
    x = o.partitions
    w.append(_I(len(x)))
    for e in x:
        _e_ListOffsetsPartition_1(e, w)


def _e_ListOffsetsRequest_2(o, w):
    w.append(_S3.pack(o.replica_id, o.isolation_level))
    x = o.topics
    w.append(_I(len(x)))
    for e in x:
        _e_ListOffsetsTopic_1(e, w)


def _d_ListOffsetsPartition_2(b, p):
    o = _new(ListOffsetsPartition)
    o.partition_index, o.current_leader_epoch, o.timestamp = _S4.unpack_from(b, p)
    p += 16
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _n_ListOffsetsTopic_2(b, p, y):
    o = _new(ListOffsetsTopic)
    o.name, p = _rcstr(b, p)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 17)
    l = []
    for _ in range(n):
        e, p = _d_ListOffsetsPartition_2(b, p)
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


def _s_ListOffsetsRequest_3(b, p):
    o = _new(ListOffsetsRequest)
    o.replica_id, o.isolation_level = _S3.unpack_from(b, p)
    p += 5
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 3)
    y = p + 16384
    l = []
    for _ in range(n):
        e, p, y = yield from _n_ListOffsetsTopic_2(b, p, y)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.topics = l
    o.timeout_ms = 0
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_ListOffsetsPartition_2(o, w):
    w.append(_S4.pack(o.partition_index, o.current_leader_epoch, o.timestamp))
    _wtag(w, o._unknown_tagged)


def _e_ListOffsetsTopic_2(o, w):
    _wcstr(w, o.name)
    x = o.partitions
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_ListOffsetsPartition_2(e, w)
    _wtag(w, o._unknown_tagged)


def _e_ListOffsetsRequest_3(o, w):
    w.append(_S3.pack(o.replica_id, o.isolation_level))
    x = o.topics
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_ListOffsetsTopic_2(e, w)
    _wtag(w, o._unknown_tagged)


def _s_ListOffsetsRequest_4(b, p):
    o = _new(ListOffsetsRequest)
    o.replica_id, o.isolation_level = _S3.unpack_from(b, p)
    p += 5
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 3)
    y = p + 16384
    l = []
    for _ in range(n):
        e, p, y = yield from _n_ListOffsetsTopic_2(b, p, y)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.topics = l
    o.timeout_ms, = _S0.unpack_from(b, p)
    p += 4
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_ListOffsetsRequest_4(o, w):
    w.append(_S3.pack(o.replica_id, o.isolation_level))
    x = o.topics
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_ListOffsetsTopic_2(e, w)
    w.append(_S0.pack(o.timeout_ms))
    _wtag(w, o._unknown_tagged)


_d_s_ListOffsetsRequest_0 = _whole(_s_ListOffsetsRequest_0)
_d_s_ListOffsetsRequest_1 = _whole(_s_ListOffsetsRequest_1)
_d_s_ListOffsetsRequest_2 = _whole(_s_ListOffsetsRequest_2)
_d_s_ListOffsetsRequest_3 = _whole(_s_ListOffsetsRequest_3)
_d_s_ListOffsetsRequest_4 = _whole(_s_ListOffsetsRequest_4)
ListOffsetsRequest._STEPS = {1: _s_ListOffsetsRequest_0, 2: _s_ListOffsetsRequest_1, 3: _s_ListOffsetsRequest_1, 4: _s_ListOffsetsRequest_2, 5: _s_ListOffsetsRequest_2, 6: _s_ListOffsetsRequest_3, 7: _s_ListOffsetsRequest_3, 8: _s_ListOffsetsRequest_3, 9: _s_ListOffsetsRequest_3, 10: _s_ListOffsetsRequest_4, 11: _s_ListOffsetsRequest_4}
ListOffsetsRequest._DECODERS = {1: _d_s_ListOffsetsRequest_0, 2: _d_s_ListOffsetsRequest_1, 3: _d_s_ListOffsetsRequest_1, 4: _d_s_ListOffsetsRequest_2, 5: _d_s_ListOffsetsRequest_2, 6: _d_s_ListOffsetsRequest_3, 7: _d_s_ListOffsetsRequest_3, 8: _d_s_ListOffsetsRequest_3, 9: _d_s_ListOffsetsRequest_3, 10: _d_s_ListOffsetsRequest_4, 11: _d_s_ListOffsetsRequest_4}
ListOffsetsRequest._ENCODERS = {1: _e_ListOffsetsRequest_0, 2: _e_ListOffsetsRequest_1, 3: _e_ListOffsetsRequest_1, 4: _e_ListOffsetsRequest_2, 5: _e_ListOffsetsRequest_2, 6: _e_ListOffsetsRequest_3, 7: _e_ListOffsetsRequest_3, 8: _e_ListOffsetsRequest_3, 9: _e_ListOffsetsRequest_3, 10: _e_ListOffsetsRequest_4, 11: _e_ListOffsetsRequest_4}
