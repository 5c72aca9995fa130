"""Generated from Kafka's OffsetFetchResponse.json by tools/gen_wire.py. Do not edit."""
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

_S0 = _struct.Struct('>iq')
_S1 = _struct.Struct('>h')
_S2 = _struct.Struct('>i')
_S3 = _struct.Struct('>iqi')
_S4 = _struct.Struct('>16s')


class OffsetFetchResponsePartition(Message):
    __slots__ = ('partition_index', 'committed_offset', 'committed_leader_epoch', 'metadata', 'error_code', '_unknown_tagged')
    _FIELDS = (('partition_index', 'int32', 0, 7, -1, -1, None, -1, None), ('committed_offset', 'int64', 0, 7, -1, -1, None, -1, None), ('committed_leader_epoch', 'int32', 5, 7, -1, -1, None, -1, None), ('metadata', 'string', 0, 7, 0, 7, None, -1, None), ('error_code', 'int16', 0, 7, -1, -1, None, -1, None))

    def __init__(self, *, partition_index=0, committed_offset=0, committed_leader_epoch=-1, metadata='', error_code=0, _unknown_tagged=None):
        self.partition_index = partition_index
        self.committed_offset = committed_offset
        self.committed_leader_epoch = committed_leader_epoch
        self.metadata = metadata
        self.error_code = error_code
        self._unknown_tagged = _unknown_tagged


class OffsetFetchResponseTopic(Message):
    __slots__ = ('name', 'partitions', '_unknown_tagged')
    _FIELDS = (('name', 'string', 0, 7, -1, -1, None, -1, None), ('partitions', '[]OffsetFetchResponsePartition', 0, 7, -1, -1, None, -1, 'OffsetFetchResponsePartition'))

    def __init__(self, *, name='', partitions=DEFAULT, _unknown_tagged=None):
        self.name = name
        self.partitions = [] if partitions is DEFAULT else partitions
        self._unknown_tagged = _unknown_tagged


class OffsetFetchResponsePartitions(Message):
    __slots__ = ('partition_index', 'committed_offset', 'committed_leader_epoch', 'metadata', 'error_code', '_unknown_tagged')
    _FIELDS = (('partition_index', 'int32', 8, 32767, -1, -1, None, -1, None), ('committed_offset', 'int64', 8, 32767, -1, -1, None, -1, None), ('committed_leader_epoch', 'int32', 8, 32767, -1, -1, None, -1, None), ('metadata', 'string', 8, 32767, 8, 32767, None, -1, None), ('error_code', 'int16', 8, 32767, -1, -1, None, -1, None))

    def __init__(self, *, partition_index=0, committed_offset=0, committed_leader_epoch=-1, metadata='', error_code=0, _unknown_tagged=None):
        self.partition_index = partition_index
        self.committed_offset = committed_offset
        self.committed_leader_epoch = committed_leader_epoch
        self.metadata = metadata
        self.error_code = error_code
        self._unknown_tagged = _unknown_tagged


class OffsetFetchResponseTopics(Message):
    __slots__ = ('name', 'topic_id', 'partitions', '_unknown_tagged')
    _FIELDS = (('name', 'string', 8, 9, -1, -1, None, -1, None), ('topic_id', 'uuid', 10, 32767, -1, -1, None, -1, None), ('partitions', '[]OffsetFetchResponsePartitions', 8, 32767, -1, -1, None, -1, 'OffsetFetchResponsePartitions'))

    def __init__(self, *, name='', topic_id=ZERO_UUID, partitions=DEFAULT, _unknown_tagged=None):
        self.name = name
        self.topic_id = topic_id
        self.partitions = [] if partitions is DEFAULT else partitions
        self._unknown_tagged = _unknown_tagged


class OffsetFetchResponseGroup(Message):
    __slots__ = ('group_id', 'topics', 'error_code', '_unknown_tagged')
    _FIELDS = (('group_id', 'string', 8, 32767, -1, -1, None, -1, None), ('topics', '[]OffsetFetchResponseTopics', 8, 32767, -1, -1, None, -1, 'OffsetFetchResponseTopics'), ('error_code', 'int16', 8, 32767, -1, -1, None, -1, None))

    def __init__(self, *, group_id='', topics=DEFAULT, error_code=0, _unknown_tagged=None):
        self.group_id = group_id
        self.topics = [] if topics is DEFAULT else topics
        self.error_code = error_code
        self._unknown_tagged = _unknown_tagged


class OffsetFetchResponse(Message):
    __slots__ = ('throttle_time_ms', 'topics', 'error_code', 'groups', '_unknown_tagged')
    _FIELDS = (('throttle_time_ms', 'int32', 3, 32767, -1, -1, None, -1, None), ('topics', '[]OffsetFetchResponseTopic', 0, 7, -1, -1, None, -1, 'OffsetFetchResponseTopic'), ('error_code', 'int16', 2, 7, -1, -1, None, -1, None), ('groups', '[]OffsetFetchResponseGroup', 8, 32767, -1, -1, None, -1, 'OffsetFetchResponseGroup'))
    API_KEY = 9
    VALID_VERSIONS = (1, 10)
    FLEXIBLE_MIN = 6

    def __init__(self, *, throttle_time_ms=0, topics=DEFAULT, error_code=0, groups=DEFAULT, _unknown_tagged=None):
        self.throttle_time_ms = throttle_time_ms
        self.topics = [] if topics is DEFAULT else topics
        self.error_code = error_code
        self.groups = [] if groups is DEFAULT else groups
        self._unknown_tagged = _unknown_tagged



def _d_OffsetFetchResponsePartition_0(b, p):
    o = _new(OffsetFetchResponsePartition)
    o.partition_index, o.committed_offset = _S0.unpack_from(b, p)
    p += 12
    o.committed_leader_epoch = -1
    o.metadata, p = _rnstr(b, p)
    o.error_code, = _S1.unpack_from(b, p)
    p += 2
    o._unknown_tagged = None
    return o, p


def _d_OffsetFetchResponseTopic_0(b, p):
    o = _new(OffsetFetchResponseTopic)
    o.name, p = _rstr(b, p)
    n, p = _ral(b, p, 16)
    l = []
    for _ in range(n):
        e, p = _d_OffsetFetchResponsePartition_0(b, p)
        l.append(e)
    o.partitions = l
    o._unknown_tagged = None
    return o, p


def _d_OffsetFetchResponse_0(b, p):
    o = _new(OffsetFetchResponse)
    o.throttle_time_ms = 0
    n, p = _ral(b, p, 6)
    l = []
    for _ in range(n):
        e, p = _d_OffsetFetchResponseTopic_0(b, p)
        l.append(e)
    o.topics = l
    o.error_code = 0
    o.groups = []
    o._unknown_tagged = None
    return o, p


def _e_OffsetFetchResponsePartition_0(o, w):
    w.append(_S0.pack(o.partition_index, o.committed_offset))
    _wnstr(w, o.metadata)
    w.append(_S1.pack(o.error_code))


def _e_OffsetFetchResponseTopic_0(o, w):
    _wstr(w, o.name)
    x = o.partitions
    w.append(_I(len(x)))
    for e in x:
        _e_OffsetFetchResponsePartition_0(e, w)


def _e_OffsetFetchResponse_0(o, w):
    x = o.topics
    w.append(_I(len(x)))
    for e in x:
        _e_OffsetFetchResponseTopic_0(e, w)


def _u_OffsetFetchResponseTopic_0(o, w, c):
    _wstr(w, o.name)
    x = o.partitions
    w.append(_I(len(x)))
    for e in x:
        _e_OffsetFetchResponsePartition_0(e, w)
        c += 1
        if c >= 1000:
            c = 0
            yield
    return c


def _t_OffsetFetchResponse_0(o, w):
    c = 0
    x = o.topics
    w.append(_I(len(x)))
    for e in x:
        c = yield from _u_OffsetFetchResponseTopic_0(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield


def _d_OffsetFetchResponse_1(b, p):
    o = _new(OffsetFetchResponse)
    o.throttle_time_ms = 0
    n, p = _ral(b, p, 6)
    l = []
    for _ in range(n):
        e, p = _d_OffsetFetchResponseTopic_0(b, p)
        l.append(e)
    o.topics = l
    o.error_code, = _S1.unpack_from(b, p)
    p += 2
    o.groups = []
    o._unknown_tagged = None
    return o, p


def _e_OffsetFetchResponse_1(o, w):
    x = o.topics
    w.append(_I(len(x)))
    for e in x:
        _e_OffsetFetchResponseTopic_0(e, w)
    w.append(_S1.pack(o.error_code))


def _t_OffsetFetchResponse_1(o, w):
    c = 0
    x = o.topics
    w.append(_I(len(x)))
    for e in x:
        c = yield from _u_OffsetFetchResponseTopic_0(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield
    w.append(_S1.pack(o.error_code))


def _d_OffsetFetchResponse_2(b, p):
    o = _new(OffsetFetchResponse)
    o.throttle_time_ms, = _S2.unpack_from(b, p)
    p += 4
    n, p = _ral(b, p, 6)
    l = []
    for _ in range(n):
        e, p = _d_OffsetFetchResponseTopic_0(b, p)
        l.append(e)
    o.topics = l
    o.error_code, = _S1.unpack_from(b, p)
    p += 2
    o.groups = []
    o._unknown_tagged = None
    return o, p


def _e_OffsetFetchResponse_2(o, w):
    w.append(_S2.pack(o.throttle_time_ms))
    x = o.topics
    w.append(_I(len(x)))
    for e in x:
        _e_OffsetFetchResponseTopic_0(e, w)
    w.append(_S1.pack(o.error_code))


def _t_OffsetFetchResponse_2(o, w):
    c = 0
    w.append(_S2.pack(o.throttle_time_ms))
    x = o.topics
    w.append(_I(len(x)))
    for e in x:
        c = yield from _u_OffsetFetchResponseTopic_0(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield
    w.append(_S1.pack(o.error_code))


def _d_OffsetFetchResponsePartition_1(b, p):
    o = _new(OffsetFetchResponsePartition)
    o.partition_index, o.committed_offset, o.committed_leader_epoch = _S3.unpack_from(b, p)
    p += 16
    o.metadata, p = _rnstr(b, p)
    o.error_code, = _S1.unpack_from(b, p)
    p += 2
    o._unknown_tagged = None
    return o, p


def _d_OffsetFetchResponseTopic_1(b, p):
    o = _new(OffsetFetchResponseTopic)
    o.name, p = _rstr(b, p)
    n, p = _ral(b, p, 20)
    l = []
    for _ in range(n):
        e, p = _d_OffsetFetchResponsePartition_1(b, p)
        l.append(e)
    o.partitions = l
    o._unknown_tagged = None
    return o, p


def _d_OffsetFetchResponse_3(b, p):
    o = _new(OffsetFetchResponse)
    o.throttle_time_ms, = _S2.unpack_from(b, p)
    p += 4
    n, p = _ral(b, p, 6)
    l = []
    for _ in range(n):
        e, p = _d_OffsetFetchResponseTopic_1(b, p)
        l.append(e)
    o.topics = l
    o.error_code, = _S1.unpack_from(b, p)
    p += 2
    o.groups = []
    o._unknown_tagged = None
    return o, p


def _e_OffsetFetchResponsePartition_1(o, w):
    w.append(_S3.pack(o.partition_index, o.committed_offset, o.committed_leader_epoch))
    _wnstr(w, o.metadata)
    w.append(_S1.pack(o.error_code))


def _e_OffsetFetchResponseTopic_1(o, w):
    _wstr(w, o.name)
    x = o.partitions
    w.append(_I(len(x)))
    for e in x:
        _e_OffsetFetchResponsePartition_1(e, w)


def _e_OffsetFetchResponse_3(o, w):
    w.append(_S2.pack(o.throttle_time_ms))
    x = o.topics
    w.append(_I(len(x)))
    for e in x:
        _e_OffsetFetchResponseTopic_1(e, w)
    w.append(_S1.pack(o.error_code))


def _u_OffsetFetchResponseTopic_1(o, w, c):
    _wstr(w, o.name)
    x = o.partitions
    w.append(_I(len(x)))
    for e in x:
        _e_OffsetFetchResponsePartition_1(e, w)
        c += 1
        if c >= 1000:
            c = 0
            yield
    return c


def _t_OffsetFetchResponse_3(o, w):
    c = 0
    w.append(_S2.pack(o.throttle_time_ms))
    x = o.topics
    w.append(_I(len(x)))
    for e in x:
        c = yield from _u_OffsetFetchResponseTopic_1(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield
    w.append(_S1.pack(o.error_code))


def _d_OffsetFetchResponsePartition_2(b, p):
    o = _new(OffsetFetchResponsePartition)
    o.partition_index, o.committed_offset, o.committed_leader_epoch = _S3.unpack_from(b, p)
    p += 16
    o.metadata, p = _rcnstr(b, p)
    o.error_code, = _S1.unpack_from(b, p)
    p += 2
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_OffsetFetchResponseTopic_2(b, p):
    o = _new(OffsetFetchResponseTopic)
    o.name, p = _rcstr(b, p)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 20)
    l = []
    for _ in range(n):
        e, p = _d_OffsetFetchResponsePartition_2(b, p)
        l.append(e)
    o.partitions = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_OffsetFetchResponse_4(b, p):
    o = _new(OffsetFetchResponse)
    o.throttle_time_ms, = _S2.unpack_from(b, p)
    p += 4
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 3)
    l = []
    for _ in range(n):
        e, p = _d_OffsetFetchResponseTopic_2(b, p)
        l.append(e)
    o.topics = l
    o.error_code, = _S1.unpack_from(b, p)
    p += 2
    o.groups = []
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_OffsetFetchResponsePartition_2(o, w):
    w.append(_S3.pack(o.partition_index, o.committed_offset, o.committed_leader_epoch))
    _wcnstr(w, o.metadata)
    w.append(_S1.pack(o.error_code))
    _wtag(w, o._unknown_tagged)


def _e_OffsetFetchResponseTopic_2(o, w):
    _wcstr(w, o.name)
    x = o.partitions
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_OffsetFetchResponsePartition_2(e, w)
    _wtag(w, o._unknown_tagged)


def _e_OffsetFetchResponse_4(o, w):
    w.append(_S2.pack(o.throttle_time_ms))
    x = o.topics
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_OffsetFetchResponseTopic_2(e, w)
    w.append(_S1.pack(o.error_code))
    _wtag(w, o._unknown_tagged)


def _u_OffsetFetchResponseTopic_2(o, w, c):
    _wcstr(w, o.name)
    x = o.partitions
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_OffsetFetchResponsePartition_2(e, w)
        c += 1
        if c >= 1000:
            c = 0
            yield
    _wtag(w, o._unknown_tagged)
    return c


def _t_OffsetFetchResponse_4(o, w):
    c = 0
    w.append(_S2.pack(o.throttle_time_ms))
    x = o.topics
    w.append(_uv(len(x) + 1))
    for e in x:
        c = yield from _u_OffsetFetchResponseTopic_2(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield
    w.append(_S1.pack(o.error_code))
    _wtag(w, o._unknown_tagged)


def _d_OffsetFetchResponsePartitions_0(b, p):
    o = _new(OffsetFetchResponsePartitions)
    o.partition_index, o.committed_offset, o.committed_leader_epoch = _S3.unpack_from(b, p)
    p += 16
    o.metadata, p = _rcnstr(b, p)
    o.error_code, = _S1.unpack_from(b, p)
    p += 2
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_OffsetFetchResponseTopics_0(b, p):
    o = _new(OffsetFetchResponseTopics)
    o.name, p = _rcstr(b, p)
    o.topic_id = ZERO_UUID
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 20)
    l = []
    for _ in range(n):
        e, p = _d_OffsetFetchResponsePartitions_0(b, p)
        l.append(e)
    o.partitions = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_OffsetFetchResponseGroup_0(b, p):
    o = _new(OffsetFetchResponseGroup)
    o.group_id, p = _rcstr(b, p)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 3)
    l = []
    for _ in range(n):
        e, p = _d_OffsetFetchResponseTopics_0(b, p)
        l.append(e)
    o.topics = l
    o.error_code, = _S1.unpack_from(b, p)
    p += 2
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_OffsetFetchResponse_5(b, p):
    o = _new(OffsetFetchResponse)
    o.throttle_time_ms, = _S2.unpack_from(b, p)
    p += 4
    o.topics = []
    o.error_code = 0
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 5)
    l = []
    for _ in range(n):
        e, p = _d_OffsetFetchResponseGroup_0(b, p)
        l.append(e)
    o.groups = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_OffsetFetchResponsePartitions_0(o, w):
    w.append(_S3.pack(o.partition_index, o.committed_offset, o.committed_leader_epoch))
    _wcnstr(w, o.metadata)
    w.append(_S1.pack(o.error_code))
    _wtag(w, o._unknown_tagged)


def _e_OffsetFetchResponseTopics_0(o, w):
    _wcstr(w, o.name)
    x = o.partitions
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_OffsetFetchResponsePartitions_0(e, w)
    _wtag(w, o._unknown_tagged)


def _e_OffsetFetchResponseGroup_0(o, w):
    _wcstr(w, o.group_id)
    x = o.topics
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_OffsetFetchResponseTopics_0(e, w)
    w.append(_S1.pack(o.error_code))
    _wtag(w, o._unknown_tagged)


def _e_OffsetFetchResponse_5(o, w):
    w.append(_S2.pack(o.throttle_time_ms))
    x = o.groups
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_OffsetFetchResponseGroup_0(e, w)
    _wtag(w, o._unknown_tagged)


def _u_OffsetFetchResponseTopics_0(o, w, c):
    _wcstr(w, o.name)
    x = o.partitions
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_OffsetFetchResponsePartitions_0(e, w)
        c += 1
        if c >= 1000:
            c = 0
            yield
    _wtag(w, o._unknown_tagged)
    return c


def _u_OffsetFetchResponseGroup_0(o, w, c):
    _wcstr(w, o.group_id)
    x = o.topics
    w.append(_uv(len(x) + 1))
    for e in x:
        c = yield from _u_OffsetFetchResponseTopics_0(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield
    w.append(_S1.pack(o.error_code))
    _wtag(w, o._unknown_tagged)
    return c


def _t_OffsetFetchResponse_5(o, w):
    c = 0
    w.append(_S2.pack(o.throttle_time_ms))
    x = o.groups
    w.append(_uv(len(x) + 1))
    for e in x:
        c = yield from _u_OffsetFetchResponseGroup_0(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield
    _wtag(w, o._unknown_tagged)


def _d_OffsetFetchResponseTopics_1(b, p):
    o = _new(OffsetFetchResponseTopics)
    o.name = ''
    o.topic_id, = _S4.unpack_from(b, p)
    p += 16
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 20)
    l = []
    for _ in range(n):
        e, p = _d_OffsetFetchResponsePartitions_0(b, p)
        l.append(e)
    o.partitions = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_OffsetFetchResponseGroup_1(b, p):
    o = _new(OffsetFetchResponseGroup)
    o.group_id, p = _rcstr(b, p)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 18)
    l = []
    for _ in range(n):
        e, p = _d_OffsetFetchResponseTopics_1(b, p)
        l.append(e)
    o.topics = l
    o.error_code, = _S1.unpack_from(b, p)
    p += 2
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_OffsetFetchResponse_6(b, p):
    o = _new(OffsetFetchResponse)
    o.throttle_time_ms, = _S2.unpack_from(b, p)
    p += 4
    o.topics = []
    o.error_code = 0
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 5)
    l = []
    for _ in range(n):
        e, p = _d_OffsetFetchResponseGroup_1(b, p)
        l.append(e)
    o.groups = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_OffsetFetchResponseTopics_1(o, w):
    w.append(_S4.pack(o.topic_id))
    x = o.partitions
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_OffsetFetchResponsePartitions_0(e, w)
    _wtag(w, o._unknown_tagged)


def _e_OffsetFetchResponseGroup_1(o, w):
    _wcstr(w, o.group_id)
    x = o.topics
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_OffsetFetchResponseTopics_1(e, w)
    w.append(_S1.pack(o.error_code))
    _wtag(w, o._unknown_tagged)


def _e_OffsetFetchResponse_6(o, w):
    w.append(_S2.pack(o.throttle_time_ms))
    x = o.groups
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_OffsetFetchResponseGroup_1(e, w)
    _wtag(w, o._unknown_tagged)


def _u_OffsetFetchResponseTopics_1(o, w, c):
    w.append(_S4.pack(o.topic_id))
    x = o.partitions
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_OffsetFetchResponsePartitions_0(e, w)
        c += 1
        if c >= 1000:
            c = 0
            yield
    _wtag(w, o._unknown_tagged)
    return c


def _u_OffsetFetchResponseGroup_1(o, w, c):
    _wcstr(w, o.group_id)
    x = o.topics
    w.append(_uv(len(x) + 1))
    for e in x:
        c = yield from _u_OffsetFetchResponseTopics_1(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield
    w.append(_S1.pack(o.error_code))
    _wtag(w, o._unknown_tagged)
    return c


def _t_OffsetFetchResponse_6(o, w):
    c = 0
    w.append(_S2.pack(o.throttle_time_ms))
    x = o.groups
    w.append(_uv(len(x) + 1))
    for e in x:
        c = yield from _u_OffsetFetchResponseGroup_1(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield
    _wtag(w, o._unknown_tagged)


OffsetFetchResponse._DECODERS = {1: _d_OffsetFetchResponse_0, 2: _d_OffsetFetchResponse_1, 3: _d_OffsetFetchResponse_2, 4: _d_OffsetFetchResponse_2, 5: _d_OffsetFetchResponse_3, 6: _d_OffsetFetchResponse_4, 7: _d_OffsetFetchResponse_4, 8: _d_OffsetFetchResponse_5, 9: _d_OffsetFetchResponse_5, 10: _d_OffsetFetchResponse_6}
OffsetFetchResponse._ENCODERS = {1: _e_OffsetFetchResponse_0, 2: _e_OffsetFetchResponse_1, 3: _e_OffsetFetchResponse_2, 4: _e_OffsetFetchResponse_2, 5: _e_OffsetFetchResponse_3, 6: _e_OffsetFetchResponse_4, 7: _e_OffsetFetchResponse_4, 8: _e_OffsetFetchResponse_5, 9: _e_OffsetFetchResponse_5, 10: _e_OffsetFetchResponse_6}
OffsetFetchResponse._ENCODE_STEPS = {1: _t_OffsetFetchResponse_0, 2: _t_OffsetFetchResponse_1, 3: _t_OffsetFetchResponse_2, 4: _t_OffsetFetchResponse_2, 5: _t_OffsetFetchResponse_3, 6: _t_OffsetFetchResponse_4, 7: _t_OffsetFetchResponse_4, 8: _t_OffsetFetchResponse_5, 9: _t_OffsetFetchResponse_5, 10: _t_OffsetFetchResponse_6}
