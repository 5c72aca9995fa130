"""Generated from Kafka's DescribeShareGroupOffsetsResponse.json by tools/gen_wire.py. Do not edit."""
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
_S1 = _struct.Struct('>16s')
_S2 = _struct.Struct('>iqi')
_S3 = _struct.Struct('>h')
_S4 = _struct.Struct('>iqih')
_S5 = _struct.Struct('>iqiqh')


class DescribeShareGroupOffsetsResponsePartition(Message):
    __slots__ = ('partition_index', 'start_offset', 'leader_epoch', 'lag', 'error_code', 'error_message', '_unknown_tagged')
    _FIELDS = (('partition_index', 'int32', 0, 32767, -1, -1, None, -1, None), ('start_offset', 'int64', 0, 32767, -1, -1, None, -1, None), ('leader_epoch', 'int32', 0, 32767, -1, -1, None, -1, None), ('lag', 'int64', 1, 32767, -1, -1, None, -1, None), ('error_code', 'int16', 0, 32767, -1, -1, None, -1, None), ('error_message', 'string', 0, 32767, 0, 32767, None, -1, None))

    def __init__(self, *, partition_index=0, start_offset=0, leader_epoch=0, lag=-1, error_code=0, error_message=None, _unknown_tagged=None):
        self.partition_index = partition_index
        self.start_offset = start_offset
        self.leader_epoch = leader_epoch
        self.lag = lag
        self.error_code = error_code
        self.error_message = error_message
        self._unknown_tagged = _unknown_tagged


class DescribeShareGroupOffsetsResponseTopic(Message):
    __slots__ = ('topic_name', 'topic_id', 'partitions', '_unknown_tagged')
    _FIELDS = (('topic_name', 'string', 0, 32767, -1, -1, None, -1, None), ('topic_id', 'uuid', 0, 32767, -1, -1, None, -1, None), ('partitions', '[]DescribeShareGroupOffsetsResponsePartition', 0, 32767, -1, -1, None, -1, 'DescribeShareGroupOffsetsResponsePartition'))

    def __init__(self, *, topic_name='', topic_id=ZERO_UUID, partitions=DEFAULT, _unknown_tagged=None):
        self.topic_name = topic_name
        self.topic_id = topic_id
        self.partitions = [] if partitions is DEFAULT else partitions
        self._unknown_tagged = _unknown_tagged


class DescribeShareGroupOffsetsResponseGroup(Message):
    __slots__ = ('group_id', 'topics', 'error_code', 'error_message', '_unknown_tagged')
    _FIELDS = (('group_id', 'string', 0, 32767, -1, -1, None, -1, None), ('topics', '[]DescribeShareGroupOffsetsResponseTopic', 0, 32767, -1, -1, None, -1, 'DescribeShareGroupOffsetsResponseTopic'), ('error_code', 'int16', 0, 32767, -1, -1, None, -1, None), ('error_message', 'string', 0, 32767, 0, 32767, None, -1, None))

    def __init__(self, *, group_id='', topics=DEFAULT, error_code=0, error_message=None, _unknown_tagged=None):
        self.group_id = group_id
        self.topics = [] if topics is DEFAULT else topics
        self.error_code = error_code
        self.error_message = error_message
        self._unknown_tagged = _unknown_tagged


class DescribeShareGroupOffsetsResponse(Message):
    __slots__ = ('throttle_time_ms', 'groups', '_unknown_tagged')
    _FIELDS = (('throttle_time_ms', 'int32', 0, 32767, -1, -1, None, -1, None), ('groups', '[]DescribeShareGroupOffsetsResponseGroup', 0, 32767, -1, -1, None, -1, 'DescribeShareGroupOffsetsResponseGroup'))
    API_KEY = 90
    VALID_VERSIONS = (0, 1)
    FLEXIBLE_MIN = 0

    def __init__(self, *, throttle_time_ms=0, groups=DEFAULT, _unknown_tagged=None):
        self.throttle_time_ms = throttle_time_ms
        self.groups = [] if groups is DEFAULT else groups
        self._unknown_tagged = _unknown_tagged



def _d_DescribeShareGroupOffsetsResponsePartition_0(b, p):
    o = _new(DescribeShareGroupOffsetsResponsePartition)
    o.partition_index, o.start_offset, o.leader_epoch = _S2.unpack_from(b, p)
    p += 16
    o.lag = -1
    o.error_code, = _S3.unpack_from(b, p)
    p += 2
    o.error_message, p = _rcnstr(b, p)
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_DescribeShareGroupOffsetsResponseTopic_0(b, p):
    o = _new(DescribeShareGroupOffsetsResponseTopic)
    o.topic_name, p = _rcstr(b, p)
    o.topic_id, = _S1.unpack_from(b, p)
    p += 16
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 20)
    l = []
    for _ in range(n):
        e, p = _d_DescribeShareGroupOffsetsResponsePartition_0(b, p)
        l.append(e)
    o.partitions = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_DescribeShareGroupOffsetsResponseGroup_0(b, p):
    o = _new(DescribeShareGroupOffsetsResponseGroup)
    o.group_id, p = _rcstr(b, p)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 19)
    l = []
    for _ in range(n):
        e, p = _d_DescribeShareGroupOffsetsResponseTopic_0(b, p)
        l.append(e)
    o.topics = l
    o.error_code, = _S3.unpack_from(b, p)
    p += 2
    o.error_message, p = _rcnstr(b, p)
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_DescribeShareGroupOffsetsResponse_0(b, p):
    o = _new(DescribeShareGroupOffsetsResponse)
    o.throttle_time_ms, = _S0.unpack_from(b, p)
    p += 4
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 6)
    l = []
    for _ in range(n):
        e, p = _d_DescribeShareGroupOffsetsResponseGroup_0(b, p)
        l.append(e)
    o.groups = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_DescribeShareGroupOffsetsResponsePartition_0(o, w):
    w.append(_S4.pack(o.partition_index, o.start_offset, o.leader_epoch, o.error_code))
    _wcnstr(w, o.error_message)
    _wtag(w, o._unknown_tagged)


def _e_DescribeShareGroupOffsetsResponseTopic_0(o, w):
    _wcstr(w, o.topic_name)
    w.append(_S1.pack(o.topic_id))
    x = o.partitions
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_DescribeShareGroupOffsetsResponsePartition_0(e, w)
    _wtag(w, o._unknown_tagged)


def _e_DescribeShareGroupOffsetsResponseGroup_0(o, w):
    _wcstr(w, o.group_id)
    x = o.topics
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_DescribeShareGroupOffsetsResponseTopic_0(e, w)
    w.append(_S3.pack(o.error_code))
    _wcnstr(w, o.error_message)
    _wtag(w, o._unknown_tagged)


def _e_DescribeShareGroupOffsetsResponse_0(o, w):
    w.append(_S0.pack(o.throttle_time_ms))
    x = o.groups
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_DescribeShareGroupOffsetsResponseGroup_0(e, w)
    _wtag(w, o._unknown_tagged)


def _d_DescribeShareGroupOffsetsResponsePartition_1(b, p):
    o = _new(DescribeShareGroupOffsetsResponsePartition)
    o.partition_index, o.start_offset, o.leader_epoch, o.lag, o.error_code = _S5.unpack_from(b, p)
    p += 26
    o.error_message, p = _rcnstr(b, p)
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_DescribeShareGroupOffsetsResponseTopic_1(b, p):
    o = _new(DescribeShareGroupOffsetsResponseTopic)
    o.topic_name, p = _rcstr(b, p)
    o.topic_id, = _S1.unpack_from(b, p)
    p += 16
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 28)
    l = []
    for _ in range(n):
        e, p = _d_DescribeShareGroupOffsetsResponsePartition_1(b, p)
        l.append(e)
    o.partitions = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_DescribeShareGroupOffsetsResponseGroup_1(b, p):
    o = _new(DescribeShareGroupOffsetsResponseGroup)
    o.group_id, p = _rcstr(b, p)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 19)
    l = []
    for _ in range(n):
        e, p = _d_DescribeShareGroupOffsetsResponseTopic_1(b, p)
        l.append(e)
    o.topics = l
    o.error_code, = _S3.unpack_from(b, p)
    p += 2
    o.error_message, p = _rcnstr(b, p)
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_DescribeShareGroupOffsetsResponse_1(b, p):
    o = _new(DescribeShareGroupOffsetsResponse)
    o.throttle_time_ms, = _S0.unpack_from(b, p)
    p += 4
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 6)
    l = []
    for _ in range(n):
        e, p = _d_DescribeShareGroupOffsetsResponseGroup_1(b, p)
        l.append(e)
    o.groups = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_DescribeShareGroupOffsetsResponsePartition_1(o, w):
    w.append(_S5.pack(o.partition_index, o.start_offset, o.leader_epoch, o.lag, o.error_code))
    _wcnstr(w, o.error_message)
    _wtag(w, o._unknown_tagged)


def _e_DescribeShareGroupOffsetsResponseTopic_1(o, w):
    _wcstr(w, o.topic_name)
    w.append(_S1.pack(o.topic_id))
    x = o.partitions
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_DescribeShareGroupOffsetsResponsePartition_1(e, w)
    _wtag(w, o._unknown_tagged)


def _e_DescribeShareGroupOffsetsResponseGroup_1(o, w):
    _wcstr(w, o.group_id)
    x = o.topics
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_DescribeShareGroupOffsetsResponseTopic_1(e, w)
    w.append(_S3.pack(o.error_code))
    _wcnstr(w, o.error_message)
    _wtag(w, o._unknown_tagged)


def _e_DescribeShareGroupOffsetsResponse_1(o, w):
    w.append(_S0.pack(o.throttle_time_ms))
    x = o.groups
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_DescribeShareGroupOffsetsResponseGroup_1(e, w)
    _wtag(w, o._unknown_tagged)


DescribeShareGroupOffsetsResponse._DECODERS = {0: _d_DescribeShareGroupOffsetsResponse_0, 1: _d_DescribeShareGroupOffsetsResponse_1}
DescribeShareGroupOffsetsResponse._ENCODERS = {0: _e_DescribeShareGroupOffsetsResponse_0, 1: _e_DescribeShareGroupOffsetsResponse_1}
