"""Generated from Kafka's OffsetCommitRequest.json by tools/gen_wire.py. Do not edit."""
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
_S3 = _struct.Struct('>iqi')
_S4 = _struct.Struct('>16s')


class OffsetCommitRequestPartition(Message):
    __slots__ = ('partition_index', 'committed_offset', 'committed_leader_epoch', 'committed_metadata', '_unknown_tagged')
    _FIELDS = (('partition_index', 'int32', 0, 32767, -1, -1, None, -1, None), ('committed_offset', 'int64', 0, 32767, -1, -1, None, -1, None), ('committed_leader_epoch', 'int32', 6, 32767, -1, -1, None, -1, None), ('committed_metadata', 'string', 0, 32767, 0, 32767, None, -1, None))

    def __init__(self, *, partition_index=0, committed_offset=0, committed_leader_epoch=-1, committed_metadata='', _unknown_tagged=None):
        self.partition_index = partition_index
        self.committed_offset = committed_offset
        self.committed_leader_epoch = committed_leader_epoch
        self.committed_metadata = committed_metadata
        self._unknown_tagged = _unknown_tagged


class OffsetCommitRequestTopic(Message):
    __slots__ = ('name', 'topic_id', 'partitions', '_unknown_tagged')
    _FIELDS = (('name', 'string', 0, 9, -1, -1, None, -1, None), ('topic_id', 'uuid', 10, 32767, -1, -1, None, -1, None), ('partitions', '[]OffsetCommitRequestPartition', 0, 32767, -1, -1, None, -1, 'OffsetCommitRequestPartition'))

    def __init__(self, *, name='', topic_id=ZERO_UUID, partitions=DEFAULT, _unknown_tagged=None):
        self.name = name
        self.topic_id = topic_id
        self.partitions = [] if partitions is DEFAULT else partitions
        self._unknown_tagged = _unknown_tagged


class OffsetCommitRequest(Message):
    __slots__ = ('group_id', 'generation_id_or_member_epoch', 'member_id', 'group_instance_id', 'retention_time_ms', 'topics', '_unknown_tagged')
    _FIELDS = (('group_id', 'string', 0, 32767, -1, -1, None, -1, None), ('generation_id_or_member_epoch', 'int32', 1, 32767, -1, -1, None, -1, None), ('member_id', 'string', 1, 32767, -1, -1, None, -1, None), ('group_instance_id', 'string', 7, 32767, 7, 32767, None, -1, None), ('retention_time_ms', 'int64', 2, 4, -1, -1, None, -1, None), ('topics', '[]OffsetCommitRequestTopic', 0, 32767, -1, -1, None, -1, 'OffsetCommitRequestTopic'))
    API_KEY = 8
    VALID_VERSIONS = (2, 10)
    FLEXIBLE_MIN = 8

    def __init__(self, *, group_id='', generation_id_or_member_epoch=-1, member_id='', group_instance_id=None, retention_time_ms=-1, topics=DEFAULT, _unknown_tagged=None):
        self.group_id = group_id
        self.generation_id_or_member_epoch = generation_id_or_member_epoch
        self.member_id = member_id
        self.group_instance_id = group_instance_id
        self.retention_time_ms = retention_time_ms
        self.topics = [] if topics is DEFAULT else topics
        self._unknown_tagged = _unknown_tagged



def _d_OffsetCommitRequestPartition_0(b, p):
    o = _new(OffsetCommitRequestPartition)
    o.partition_index, o.committed_offset = _S2.unpack_from(b, p)
    p += 12
    o.committed_leader_epoch = -1
    o.committed_metadata, p = _rnstr(b, p)
    o._unknown_tagged = None
    return o, p


def _n_OffsetCommitRequestTopic_0(b, p, y):
    o = _new(OffsetCommitRequestTopic)
    o.name, p = _rstr(b, p)
    o.topic_id = ZERO_UUID
    n, p = _ral(b, p, 14)
    l = []
    for _ in range(n):
        e, p = _d_OffsetCommitRequestPartition_0(b, p)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.partitions = l
    o._unknown_tagged = None
    return o, p, y


def _s_OffsetCommitRequest_0(b, p):
    o = _new(OffsetCommitRequest)
    o.group_id, p = _rstr(b, p)
    o.generation_id_or_member_epoch, = _S0.unpack_from(b, p)
    p += 4
    o.member_id, p = _rstr(b, p)
    o.group_instance_id = None
    o.retention_time_ms, = _S1.unpack_from(b, p)
    p += 8
    n, p = _ral(b, p, 6)
    y = p + 16384
    l = []
    for _ in range(n):
        e, p, y = yield from _n_OffsetCommitRequestTopic_0(b, p, y)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.topics = l
    o._unknown_tagged = None
    return o, p


def _e_OffsetCommitRequestPartition_0(o, w):
    w.append(_S2.pack(o.partition_index, o.committed_offset))
    _wnstr(w, o.committed_metadata)


def _e_OffsetCommitRequestTopic_0(o, w):
    _wstr(w, o.name)
    x = o.partitions
    w.append(_I(len(x)))
    for e in x:
        _e_OffsetCommitRequestPartition_0(e, w)


def _e_OffsetCommitRequest_0(o, w):
    _wstr(w, o.group_id)
    w.append(_S0.pack(o.generation_id_or_member_epoch))
    _wstr(w, o.member_id)
    w.append(_S1.pack(o.retention_time_ms))
    x = o.topics
    w.append(_I(len(x)))
    for e in x:
        _e_OffsetCommitRequestTopic_0(e, w)


def _s_OffsetCommitRequest_1(b, p):
    o = _new(OffsetCommitRequest)
    o.group_id, p = _rstr(b, p)
    o.generation_id_or_member_epoch, = _S0.unpack_from(b, p)
    p += 4
    o.member_id, p = _rstr(b, p)
    o.group_instance_id = None
    o.retention_time_ms = -1
    n, p = _ral(b, p, 6)
    y = p + 16384
    l = []
    for _ in range(n):
        e, p, y = yield from _n_OffsetCommitRequestTopic_0(b, p, y)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.topics = l
    o._unknown_tagged = None
    return o, p


def _e_OffsetCommitRequest_1(o, w):
    _wstr(w, o.group_id)
    w.append(_S0.pack(o.generation_id_or_member_epoch))
    _wstr(w, o.member_id)
    x = o.topics
    w.append(_I(len(x)))
    for e in x:
        _e_OffsetCommitRequestTopic_0(e, w)


def _d_OffsetCommitRequestPartition_1(b, p):
    o = _new(OffsetCommitRequestPartition)
    o.partition_index, o.committed_offset, o.committed_leader_epoch = _S3.unpack_from(b, p)
    p += 16
    o.committed_metadata, p = _rnstr(b, p)
    o._unknown_tagged = None
    return o, p


def _n_OffsetCommitRequestTopic_1(b, p, y):
    o = _new(OffsetCommitRequestTopic)
    o.name, p = _rstr(b, p)
    o.topic_id = ZERO_UUID
    n, p = _ral(b, p, 18)
    l = []
    for _ in range(n):
        e, p = _d_OffsetCommitRequestPartition_1(b, p)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.partitions = l
    o._unknown_tagged = None
    return o, p, y


def _s_OffsetCommitRequest_2(b, p):
    o = _new(OffsetCommitRequest)
    o.group_id, p = _rstr(b, p)
    o.generation_id_or_member_epoch, = _S0.unpack_from(b, p)
    p += 4
    o.member_id, p = _rstr(b, p)
    o.group_instance_id = None
    o.retention_time_ms = -1
    n, p = _ral(b, p, 6)
    y = p + 16384
    l = []
    for _ in range(n):
        e, p, y = yield from _n_OffsetCommitRequestTopic_1(b, p, y)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.topics = l
    o._unknown_tagged = None
    return o, p


def _e_OffsetCommitRequestPartition_1(o, w):
    w.append(_S3.pack(o.partition_index, o.committed_offset, o.committed_leader_epoch))
    _wnstr(w, o.committed_metadata)


def _e_OffsetCommitRequestTopic_1(o, w):
    _wstr(w, o.name)
    x = o.partitions
    w.append(_I(len(x)))
    for e in x:
        _e_OffsetCommitRequestPartition_1(e, w)


def _e_OffsetCommitRequest_2(o, w):
    _wstr(w, o.group_id)
    w.append(_S0.pack(o.generation_id_or_member_epoch))
    _wstr(w, o.member_id)
    x = o.topics
    w.append(_I(len(x)))
    for e in x:
        _e_OffsetCommitRequestTopic_1(e, w)


def _s_OffsetCommitRequest_3(b, p):
    o = _new(OffsetCommitRequest)
    o.group_id, p = _rstr(b, p)
    o.generation_id_or_member_epoch, = _S0.unpack_from(b, p)
    p += 4
    o.member_id, p = _rstr(b, p)
    o.group_instance_id, p = _rnstr(b, p)
    o.retention_time_ms = -1
    n, p = _ral(b, p, 6)
    y = p + 16384
    l = []
    for _ in range(n):
        e, p, y = yield from _n_OffsetCommitRequestTopic_1(b, p, y)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.topics = l
    o._unknown_tagged = None
    return o, p


def _e_OffsetCommitRequest_3(o, w):
    _wstr(w, o.group_id)
    w.append(_S0.pack(o.generation_id_or_member_epoch))
    _wstr(w, o.member_id)
    _wnstr(w, o.group_instance_id)
    x = o.topics
    w.append(_I(len(x)))
    for e in x:
        _e_OffsetCommitRequestTopic_1(e, w)


def _d_OffsetCommitRequestPartition_2(b, p):
    o = _new(OffsetCommitRequestPartition)
    o.partition_index, o.committed_offset, o.committed_leader_epoch = _S3.unpack_from(b, p)
    p += 16
    o.committed_metadata, p = _rcnstr(b, p)
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _n_OffsetCommitRequestTopic_2(b, p, y):
    o = _new(OffsetCommitRequestTopic)
    o.name, p = _rcstr(b, p)
    o.topic_id = ZERO_UUID
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 18)
    l = []
    for _ in range(n):
        e, p = _d_OffsetCommitRequestPartition_2(b, p)
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


def _s_OffsetCommitRequest_4(b, p):
    o = _new(OffsetCommitRequest)
    o.group_id, p = _rcstr(b, p)
    o.generation_id_or_member_epoch, = _S0.unpack_from(b, p)
    p += 4
    o.member_id, p = _rcstr(b, p)
    o.group_instance_id, p = _rcnstr(b, p)
    o.retention_time_ms = -1
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 3)
    y = p + 16384
    l = []
    for _ in range(n):
        e, p, y = yield from _n_OffsetCommitRequestTopic_2(b, p, y)
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


def _e_OffsetCommitRequestPartition_2(o, w):
    w.append(_S3.pack(o.partition_index, o.committed_offset, o.committed_leader_epoch))
    _wcnstr(w, o.committed_metadata)
    _wtag(w, o._unknown_tagged)


def _e_OffsetCommitRequestTopic_2(o, w):
    _wcstr(w, o.name)
    x = o.partitions
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_OffsetCommitRequestPartition_2(e, w)
    _wtag(w, o._unknown_tagged)


def _e_OffsetCommitRequest_4(o, w):
    _wcstr(w, o.group_id)
    w.append(_S0.pack(o.generation_id_or_member_epoch))
    _wcstr(w, o.member_id)
    _wcnstr(w, o.group_instance_id)
    x = o.topics
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_OffsetCommitRequestTopic_2(e, w)
    _wtag(w, o._unknown_tagged)


def _n_OffsetCommitRequestTopic_3(b, p, y):
    o = _new(OffsetCommitRequestTopic)
    o.name = ''
    o.topic_id, = _S4.unpack_from(b, p)
    p += 16
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 18)
    l = []
    for _ in range(n):
        e, p = _d_OffsetCommitRequestPartition_2(b, p)
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


def _s_OffsetCommitRequest_5(b, p):
    o = _new(OffsetCommitRequest)
    o.group_id, p = _rcstr(b, p)
    o.generation_id_or_member_epoch, = _S0.unpack_from(b, p)
    p += 4
    o.member_id, p = _rcstr(b, p)
    o.group_instance_id, p = _rcnstr(b, p)
    o.retention_time_ms = -1
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 18)
    y = p + 16384
    l = []
    for _ in range(n):
        e, p, y = yield from _n_OffsetCommitRequestTopic_3(b, p, y)
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


def _e_OffsetCommitRequestTopic_3(o, w):
    w.append(_S4.pack(o.topic_id))
    x = o.partitions
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_OffsetCommitRequestPartition_2(e, w)
    _wtag(w, o._unknown_tagged)


def _e_OffsetCommitRequest_5(o, w):
    _wcstr(w, o.group_id)
    w.append(_S0.pack(o.generation_id_or_member_epoch))
    _wcstr(w, o.member_id)
    _wcnstr(w, o.group_instance_id)
    x = o.topics
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_OffsetCommitRequestTopic_3(e, w)
    _wtag(w, o._unknown_tagged)


_d_s_OffsetCommitRequest_0 = _whole(_s_OffsetCommitRequest_0)
_d_s_OffsetCommitRequest_1 = _whole(_s_OffsetCommitRequest_1)
_d_s_OffsetCommitRequest_2 = _whole(_s_OffsetCommitRequest_2)
_d_s_OffsetCommitRequest_3 = _whole(_s_OffsetCommitRequest_3)
_d_s_OffsetCommitRequest_4 = _whole(_s_OffsetCommitRequest_4)
_d_s_OffsetCommitRequest_5 = _whole(_s_OffsetCommitRequest_5)
OffsetCommitRequest._STEPS = {2: _s_OffsetCommitRequest_0, 3: _s_OffsetCommitRequest_0, 4: _s_OffsetCommitRequest_0, 5: _s_OffsetCommitRequest_1, 6: _s_OffsetCommitRequest_2, 7: _s_OffsetCommitRequest_3, 8: _s_OffsetCommitRequest_4, 9: _s_OffsetCommitRequest_4, 10: _s_OffsetCommitRequest_5}
OffsetCommitRequest._DECODERS = {2: _d_s_OffsetCommitRequest_0, 3: _d_s_OffsetCommitRequest_0, 4: _d_s_OffsetCommitRequest_0, 5: _d_s_OffsetCommitRequest_1, 6: _d_s_OffsetCommitRequest_2, 7: _d_s_OffsetCommitRequest_3, 8: _d_s_OffsetCommitRequest_4, 9: _d_s_OffsetCommitRequest_4, 10: _d_s_OffsetCommitRequest_5}
OffsetCommitRequest._ENCODERS = {2: _e_OffsetCommitRequest_0, 3: _e_OffsetCommitRequest_0, 4: _e_OffsetCommitRequest_0, 5: _e_OffsetCommitRequest_1, 6: _e_OffsetCommitRequest_2, 7: _e_OffsetCommitRequest_3, 8: _e_OffsetCommitRequest_4, 9: _e_OffsetCommitRequest_4, 10: _e_OffsetCommitRequest_5}
