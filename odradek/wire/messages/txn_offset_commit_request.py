"""Generated from Kafka's TxnOffsetCommitRequest.json by tools/gen_wire.py. Do not edit."""
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

_S0 = _struct.Struct('>qh')
_S1 = _struct.Struct('>iq')
_S2 = _struct.Struct('>iqi')
_S3 = _struct.Struct('>qhi')


class TxnOffsetCommitRequestPartition(Message):
    __slots__ = ('partition_index', 'committed_offset', 'committed_leader_epoch', 'committed_metadata', '_unknown_tagged')
    _FIELDS = (('partition_index', 'int32', 0, 32767, -1, -1, None, -1, None), ('committed_offset', 'int64', 0, 32767, -1, -1, None, -1, None), ('committed_leader_epoch', 'int32', 2, 32767, -1, -1, None, -1, None), ('committed_metadata', 'string', 0, 32767, 0, 32767, None, -1, None))

    def __init__(self, *, partition_index=0, committed_offset=0, committed_leader_epoch=-1, committed_metadata='', _unknown_tagged=None):
        self.partition_index = partition_index
        self.committed_offset = committed_offset
        self.committed_leader_epoch = committed_leader_epoch
        self.committed_metadata = committed_metadata
        self._unknown_tagged = _unknown_tagged


class TxnOffsetCommitRequestTopic(Message):
    __slots__ = ('name', 'partitions', '_unknown_tagged')
    _FIELDS = (('name', 'string', 0, 32767, -1, -1, None, -1, None), ('partitions', '[]TxnOffsetCommitRequestPartition', 0, 32767, -1, -1, None, -1, 'TxnOffsetCommitRequestPartition'))

    def __init__(self, *, name='', partitions=DEFAULT, _unknown_tagged=None):
        self.name = name
        self.partitions = [] if partitions is DEFAULT else partitions
        self._unknown_tagged = _unknown_tagged


class TxnOffsetCommitRequest(Message):
    __slots__ = ('transactional_id', 'group_id', 'producer_id', 'producer_epoch', 'generation_id', 'member_id', 'group_instance_id', 'topics', '_unknown_tagged')
    _FIELDS = (('transactional_id', 'string', 0, 32767, -1, -1, None, -1, None), ('group_id', 'string', 0, 32767, -1, -1, None, -1, None), ('producer_id', 'int64', 0, 32767, -1, -1, None, -1, None), ('producer_epoch', 'int16', 0, 32767, -1, -1, None, -1, None), ('generation_id', 'int32', 3, 32767, -1, -1, None, -1, None), ('member_id', 'string', 3, 32767, -1, -1, None, -1, None), ('group_instance_id', 'string', 3, 32767, 3, 32767, None, -1, None), ('topics', '[]TxnOffsetCommitRequestTopic', 0, 32767, -1, -1, None, -1, 'TxnOffsetCommitRequestTopic'))
    API_KEY = 28
    VALID_VERSIONS = (0, 5)
    FLEXIBLE_MIN = 3

    def __init__(self, *, transactional_id='', group_id='', producer_id=0, producer_epoch=0, generation_id=-1, member_id='', group_instance_id=None, topics=DEFAULT, _unknown_tagged=None):
        self.transactional_id = transactional_id
        self.group_id = group_id
        self.producer_id = producer_id
        self.producer_epoch = producer_epoch
        self.generation_id = generation_id
        self.member_id = member_id
        self.group_instance_id = group_instance_id
        self.topics = [] if topics is DEFAULT else topics
        self._unknown_tagged = _unknown_tagged



def _d_TxnOffsetCommitRequestPartition_0(b, p):
    o = _new(TxnOffsetCommitRequestPartition)
    o.partition_index, o.committed_offset = _S1.unpack_from(b, p)
    p += 12
    o.committed_leader_epoch = -1
    o.committed_metadata, p = _rnstr(b, p)
    o._unknown_tagged = None
    return o, p


def _n_TxnOffsetCommitRequestTopic_0(b, p, y):
    o = _new(TxnOffsetCommitRequestTopic)
    o.name, p = _rstr(b, p)
    n, p = _ral(b, p, 14)
    l = []
    for _ in range(n):
        e, p = _d_TxnOffsetCommitRequestPartition_0(b, p)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.partitions = l
    o._unknown_tagged = None
    return o, p, y


def _s_TxnOffsetCommitRequest_0(b, p):
    o = _new(TxnOffsetCommitRequest)
    o.transactional_id, p = _rstr(b, p)
    o.group_id, p = _rstr(b, p)
    o.producer_id, o.producer_epoch = _S0.unpack_from(b, p)
    p += 10
    o.generation_id = -1
    o.member_id = ''
    o.group_instance_id = None
    n, p = _ral(b, p, 6)
    y = p + 16384
    l = []
    for _ in range(n):
        e, p, y = yield from _n_TxnOffsetCommitRequestTopic_0(b, p, y)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.topics = l
    o._unknown_tagged = None
    return o, p


def _e_TxnOffsetCommitRequestPartition_0(o, w):
    w.append(_S1.pack(o.partition_index, o.committed_offset))
    _wnstr(w, o.committed_metadata)


def _e_TxnOffsetCommitRequestTopic_0(o, w):
    _wstr(w, o.name)
    x = o.partitions
    w.append(_I(len(x)))
    for e in x:
        _e_TxnOffsetCommitRequestPartition_0(e, w)


def _e_TxnOffsetCommitRequest_0(o, w):
    _wstr(w, o.transactional_id)
    _wstr(w, o.group_id)
    w.append(_S0.pack(o.producer_id, o.producer_epoch))
    x = o.topics
    w.append(_I(len(x)))
    for e in x:
        _e_TxnOffsetCommitRequestTopic_0(e, w)


def _d_TxnOffsetCommitRequestPartition_1(b, p):
    o = _new(TxnOffsetCommitRequestPartition)
    o.partition_index, o.committed_offset, o.committed_leader_epoch = _S2.unpack_from(b, p)
    p += 16
    o.committed_metadata, p = _rnstr(b, p)
    o._unknown_tagged = None
    return o, p


def _n_TxnOffsetCommitRequestTopic_1(b, p, y):
    o = _new(TxnOffsetCommitRequestTopic)
    o.name, p = _rstr(b, p)
    n, p = _ral(b, p, 18)
    l = []
    for _ in range(n):
        e, p = _d_TxnOffsetCommitRequestPartition_1(b, p)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.partitions = l
    o._unknown_tagged = None
    return o, p, y


def _s_TxnOffsetCommitRequest_1(b, p):
    o = _new(TxnOffsetCommitRequest)
    o.transactional_id, p = _rstr(b, p)
    o.group_id, p = _rstr(b, p)
    o.producer_id, o.producer_epoch = _S0.unpack_from(b, p)
    p += 10
    o.generation_id = -1
    o.member_id = ''
    o.group_instance_id = None
    n, p = _ral(b, p, 6)
    y = p + 16384
    l = []
    for _ in range(n):
        e, p, y = yield from _n_TxnOffsetCommitRequestTopic_1(b, p, y)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.topics = l
    o._unknown_tagged = None
    return o, p


def _e_TxnOffsetCommitRequestPartition_1(o, w):
    w.append(_S2.pack(o.partition_index, o.committed_offset, o.committed_leader_epoch))
    _wnstr(w, o.committed_metadata)


def _e_TxnOffsetCommitRequestTopic_1(o, w):
    _wstr(w, o.name)
    x = o.partitions
    w.append(_I(len(x)))
    for e in x:
        _e_TxnOffsetCommitRequestPartition_1(e, w)


def _e_TxnOffsetCommitRequest_1(o, w):
    _wstr(w, o.transactional_id)
    _wstr(w, o.group_id)
    w.append(_S0.pack(o.producer_id, o.producer_epoch))
    x = o.topics
    w.append(_I(len(x)))
    for e in x:
        _e_TxnOffsetCommitRequestTopic_1(e, w)


def _d_TxnOffsetCommitRequestPartition_2(b, p):
    o = _new(TxnOffsetCommitRequestPartition)
    o.partition_index, o.committed_offset, o.committed_leader_epoch = _S2.unpack_from(b, p)
    p += 16
    o.committed_metadata, p = _rcnstr(b, p)
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _n_TxnOffsetCommitRequestTopic_2(b, p, y):
    o = _new(TxnOffsetCommitRequestTopic)
    o.name, p = _rcstr(b, p)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 18)
    l = []
    for _ in range(n):
        e, p = _d_TxnOffsetCommitRequestPartition_2(b, p)
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


def _s_TxnOffsetCommitRequest_2(b, p):
    o = _new(TxnOffsetCommitRequest)
    o.transactional_id, p = _rcstr(b, p)
    o.group_id, p = _rcstr(b, p)
    o.producer_id, o.producer_epoch, o.generation_id = _S3.unpack_from(b, p)
    p += 14
    o.member_id, p = _rcstr(b, p)
    o.group_instance_id, p = _rcnstr(b, p)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 3)
    y = p + 16384
    l = []
    for _ in range(n):
        e, p, y = yield from _n_TxnOffsetCommitRequestTopic_2(b, p, y)
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


def _e_TxnOffsetCommitRequestPartition_2(o, w):
    w.append(_S2.pack(o.partition_index, o.committed_offset, o.committed_leader_epoch))
    _wcnstr(w, o.committed_metadata)
    _wtag(w, o._unknown_tagged)


def _e_TxnOffsetCommitRequestTopic_2(o, w):
    _wcstr(w, o.name)
    x = o.partitions
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_TxnOffsetCommitRequestPartition_2(e, w)
    _wtag(w, o._unknown_tagged)


def _e_TxnOffsetCommitRequest_2(o, w):
    _wcstr(w, o.transactional_id)
    _wcstr(w, o.group_id)
    w.append(_S3.pack(o.producer_id, o.producer_epoch, o.generation_id))
    _wcstr(w, o.member_id)
    _wcnstr(w, o.group_instance_id)
    x = o.topics
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_TxnOffsetCommitRequestTopic_2(e, w)
    _wtag(w, o._unknown_tagged)


_d_s_TxnOffsetCommitRequest_0 = _whole(_s_TxnOffsetCommitRequest_0)
_d_s_TxnOffsetCommitRequest_1 = _whole(_s_TxnOffsetCommitRequest_1)
_d_s_TxnOffsetCommitRequest_2 = _whole(_s_TxnOffsetCommitRequest_2)
TxnOffsetCommitRequest._STEPS = {0: _s_TxnOffsetCommitRequest_0, 1: _s_TxnOffsetCommitRequest_0, 2: _s_TxnOffsetCommitRequest_1, 3: _s_TxnOffsetCommitRequest_2, 4: _s_TxnOffsetCommitRequest_2, 5: _s_TxnOffsetCommitRequest_2}
TxnOffsetCommitRequest._DECODERS = {0: _d_s_TxnOffsetCommitRequest_0, 1: _d_s_TxnOffsetCommitRequest_0, 2: _d_s_TxnOffsetCommitRequest_1, 3: _d_s_TxnOffsetCommitRequest_2, 4: _d_s_TxnOffsetCommitRequest_2, 5: _d_s_TxnOffsetCommitRequest_2}
TxnOffsetCommitRequest._ENCODERS = {0: _e_TxnOffsetCommitRequest_0, 1: _e_TxnOffsetCommitRequest_0, 2: _e_TxnOffsetCommitRequest_1, 3: _e_TxnOffsetCommitRequest_2, 4: _e_TxnOffsetCommitRequest_2, 5: _e_TxnOffsetCommitRequest_2}
