"""Generated from Kafka's VoteRequest.json by tools/gen_wire.py. Do not edit."""
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

_S0 = _struct.Struct('>iii')
_S1 = _struct.Struct('>iq')
_S2 = _struct.Struct('>iiiiq')
_S3 = _struct.Struct('>i')
_S4 = _struct.Struct('>iii16s16siq')
_S5 = _struct.Struct('>iii16s16siq?')


class PartitionData(Message):
    __slots__ = ('partition_index', 'replica_epoch', 'replica_id', 'replica_directory_id', 'voter_directory_id', 'last_offset_epoch', 'last_offset', 'pre_vote', '_unknown_tagged')
    _FIELDS = (('partition_index', 'int32', 0, 32767, -1, -1, None, -1, None), ('replica_epoch', 'int32', 0, 32767, -1, -1, None, -1, None), ('replica_id', 'int32', 0, 32767, -1, -1, None, -1, None), ('replica_directory_id', 'uuid', 1, 32767, -1, -1, None, -1, None), ('voter_directory_id', 'uuid', 1, 32767, -1, -1, None, -1, None), ('last_offset_epoch', 'int32', 0, 32767, -1, -1, None, -1, None), ('last_offset', 'int64', 0, 32767, -1, -1, None, -1, None), ('pre_vote', 'bool', 2, 32767, -1, -1, None, -1, None))

    def __init__(self, *, partition_index=0, replica_epoch=0, replica_id=0, replica_directory_id=ZERO_UUID, voter_directory_id=ZERO_UUID, last_offset_epoch=0, last_offset=0, pre_vote=False, _unknown_tagged=None):
        self.partition_index = partition_index
        self.replica_epoch = replica_epoch
        self.replica_id = replica_id
        self.replica_directory_id = replica_directory_id
        self.voter_directory_id = voter_directory_id
        self.last_offset_epoch = last_offset_epoch
        self.last_offset = last_offset
        self.pre_vote = pre_vote
        self._unknown_tagged = _unknown_tagged


class TopicData(Message):
    __slots__ = ('topic_name', 'partitions', '_unknown_tagged')
    _FIELDS = (('topic_name', 'string', 0, 32767, -1, -1, None, -1, None), ('partitions', '[]PartitionData', 0, 32767, -1, -1, None, -1, 'PartitionData'))

    def __init__(self, *, topic_name='', partitions=DEFAULT, _unknown_tagged=None):
        self.topic_name = topic_name
        self.partitions = [] if partitions is DEFAULT else partitions
        self._unknown_tagged = _unknown_tagged


class VoteRequest(Message):
    __slots__ = ('cluster_id', 'voter_id', 'topics', '_unknown_tagged')
    _FIELDS = (('cluster_id', 'string', 0, 32767, 0, 32767, None, -1, None), ('voter_id', 'int32', 1, 32767, -1, -1, None, -1, None), ('topics', '[]TopicData', 0, 32767, -1, -1, None, -1, 'TopicData'))
    API_KEY = 52
    VALID_VERSIONS = (0, 2)
    FLEXIBLE_MIN = 0

    def __init__(self, *, cluster_id=None, voter_id=-1, topics=DEFAULT, _unknown_tagged=None):
        self.cluster_id = cluster_id
        self.voter_id = voter_id
        self.topics = [] if topics is DEFAULT else topics
        self._unknown_tagged = _unknown_tagged



def _d_PartitionData_0(b, p):
    o = _new(PartitionData)
    o.partition_index, o.replica_epoch, o.replica_id = _S0.unpack_from(b, p)
    p += 12
    o.replica_directory_id = ZERO_UUID
    o.voter_directory_id = ZERO_UUID
    o.last_offset_epoch, o.last_offset = _S1.unpack_from(b, p)
    p += 12
    o.pre_vote = False
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_TopicData_0(b, p):
    o = _new(TopicData)
    o.topic_name, p = _rcstr(b, p)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 25)
    l = []
    for _ in range(n):
        e, p = _d_PartitionData_0(b, p)
        l.append(e)
    o.partitions = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_VoteRequest_0(b, p):
    o = _new(VoteRequest)
    o.cluster_id, p = _rcnstr(b, p)
    o.voter_id = -1
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 3)
    l = []
    for _ in range(n):
        e, p = _d_TopicData_0(b, p)
        l.append(e)
    o.topics = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_PartitionData_0(o, w):
    w.append(_S2.pack(o.partition_index, o.replica_epoch, o.replica_id, o.last_offset_epoch, o.last_offset))
    _wtag(w, o._unknown_tagged)


def _e_TopicData_0(o, w):
    _wcstr(w, o.topic_name)
    x = o.partitions
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_PartitionData_0(e, w)
    _wtag(w, o._unknown_tagged)


def _e_VoteRequest_0(o, w):
    _wcnstr(w, o.cluster_id)
    x = o.topics
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_TopicData_0(e, w)
    _wtag(w, o._unknown_tagged)


def _d_PartitionData_1(b, p):
    o = _new(PartitionData)
    o.partition_index, o.replica_epoch, o.replica_id, o.replica_directory_id, o.voter_directory_id, o.last_offset_epoch, o.last_offset = _S4.unpack_from(b, p)
    p += 56
    o.pre_vote = False
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_TopicData_1(b, p):
    o = _new(TopicData)
    o.topic_name, p = _rcstr(b, p)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 57)
    l = []
    for _ in range(n):
        e, p = _d_PartitionData_1(b, p)
        l.append(e)
    o.partitions = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_VoteRequest_1(b, p):
    o = _new(VoteRequest)
    o.cluster_id, p = _rcnstr(b, p)
    o.voter_id, = _S3.unpack_from(b, p)
    p += 4
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 3)
    l = []
    for _ in range(n):
        e, p = _d_TopicData_1(b, p)
        l.append(e)
    o.topics = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_PartitionData_1(o, w):
    w.append(_S4.pack(o.partition_index, o.replica_epoch, o.replica_id, o.replica_directory_id, o.voter_directory_id, o.last_offset_epoch, o.last_offset))
    _wtag(w, o._unknown_tagged)


def _e_TopicData_1(o, w):
    _wcstr(w, o.topic_name)
    x = o.partitions
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_PartitionData_1(e, w)
    _wtag(w, o._unknown_tagged)


def _e_VoteRequest_1(o, w):
    _wcnstr(w, o.cluster_id)
    w.append(_S3.pack(o.voter_id))
    x = o.topics
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_TopicData_1(e, w)
    _wtag(w, o._unknown_tagged)


def _d_PartitionData_2(b, p):
    o = _new(PartitionData)
    o.partition_index, o.replica_epoch, o.replica_id, o.replica_directory_id, o.voter_directory_id, o.last_offset_epoch, o.last_offset, o.pre_vote = _S5.unpack_from(b, p)
    p += 57
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_TopicData_2(b, p):
    o = _new(TopicData)
    o.topic_name, p = _rcstr(b, p)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 58)
    l = []
    for _ in range(n):
        e, p = _d_PartitionData_2(b, p)
        l.append(e)
    o.partitions = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_VoteRequest_2(b, p):
    o = _new(VoteRequest)
    o.cluster_id, p = _rcnstr(b, p)
    o.voter_id, = _S3.unpack_from(b, p)
    p += 4
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 3)
    l = []
    for _ in range(n):
        e, p = _d_TopicData_2(b, p)
        l.append(e)
    o.topics = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_PartitionData_2(o, w):
    w.append(_S5.pack(o.partition_index, o.replica_epoch, o.replica_id, o.replica_directory_id, o.voter_directory_id, o.last_offset_epoch, o.last_offset, o.pre_vote))
    _wtag(w, o._unknown_tagged)


def _e_TopicData_2(o, w):
    _wcstr(w, o.topic_name)
    x = o.partitions
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_PartitionData_2(e, w)
    _wtag(w, o._unknown_tagged)


def _e_VoteRequest_2(o, w):
    _wcnstr(w, o.cluster_id)
    w.append(_S3.pack(o.voter_id))
    x = o.topics
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_TopicData_2(e, w)
    _wtag(w, o._unknown_tagged)


VoteRequest._DECODERS = {0: _d_VoteRequest_0, 1: _d_VoteRequest_1, 2: _d_VoteRequest_2}
VoteRequest._ENCODERS = {0: _e_VoteRequest_0, 1: _e_VoteRequest_1, 2: _e_VoteRequest_2}
