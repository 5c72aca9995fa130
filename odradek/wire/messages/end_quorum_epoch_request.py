"""Generated from Kafka's EndQuorumEpochRequest.json by tools/gen_wire.py. Do not edit."""
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
_S1 = _struct.Struct('>i16s')
_S2 = _struct.Struct('>H')


class ReplicaInfo(Message):
    __slots__ = ('candidate_id', 'candidate_directory_id', '_unknown_tagged')
    _FIELDS = (('candidate_id', 'int32', 1, 32767, -1, -1, None, -1, None), ('candidate_directory_id', 'uuid', 1, 32767, -1, -1, None, -1, None))

    def __init__(self, *, candidate_id=0, candidate_directory_id=ZERO_UUID, _unknown_tagged=None):
        self.candidate_id = candidate_id
        self.candidate_directory_id = candidate_directory_id
        self._unknown_tagged = _unknown_tagged


class PartitionData(Message):
    __slots__ = ('partition_index', 'leader_id', 'leader_epoch', 'preferred_successors', 'preferred_candidates', '_unknown_tagged')
    _FIELDS = (('partition_index', 'int32', 0, 32767, -1, -1, None, -1, None), ('leader_id', 'int32', 0, 32767, -1, -1, None, -1, None), ('leader_epoch', 'int32', 0, 32767, -1, -1, None, -1, None), ('preferred_successors', '[]int32', 0, 0, -1, -1, None, -1, None), ('preferred_candidates', '[]ReplicaInfo', 1, 32767, -1, -1, None, -1, 'ReplicaInfo'))

    def __init__(self, *, partition_index=0, leader_id=0, leader_epoch=0, preferred_successors=DEFAULT, preferred_candidates=DEFAULT, _unknown_tagged=None):
        self.partition_index = partition_index
        self.leader_id = leader_id
        self.leader_epoch = leader_epoch
        self.preferred_successors = [] if preferred_successors is DEFAULT else preferred_successors
        self.preferred_candidates = [] if preferred_candidates is DEFAULT else preferred_candidates
        self._unknown_tagged = _unknown_tagged


class TopicData(Message):
    __slots__ = ('topic_name', 'partitions', '_unknown_tagged')
    _FIELDS = (('topic_name', 'string', 0, 32767, -1, -1, None, -1, None), ('partitions', '[]PartitionData', 0, 32767, -1, -1, None, -1, 'PartitionData'))

    def __init__(self, *, topic_name='', partitions=DEFAULT, _unknown_tagged=None):
        self.topic_name = topic_name
        self.partitions = [] if partitions is DEFAULT else partitions
        self._unknown_tagged = _unknown_tagged


class LeaderEndpoint(Message):
    __slots__ = ('name', 'host', 'port', '_unknown_tagged')
    _FIELDS = (('name', 'string', 1, 32767, -1, -1, None, -1, None), ('host', 'string', 1, 32767, -1, -1, None, -1, None), ('port', 'uint16', 1, 32767, -1, -1, None, -1, None))

    def __init__(self, *, name='', host='', port=0, _unknown_tagged=None):
        self.name = name
        self.host = host
        self.port = port
        self._unknown_tagged = _unknown_tagged


class EndQuorumEpochRequest(Message):
    __slots__ = ('cluster_id', 'topics', 'leader_endpoints', '_unknown_tagged')
    _FIELDS = (('cluster_id', 'string', 0, 32767, 0, 32767, None, -1, None), ('topics', '[]TopicData', 0, 32767, -1, -1, None, -1, 'TopicData'), ('leader_endpoints', '[]LeaderEndpoint', 1, 32767, -1, -1, None, -1, 'LeaderEndpoint'))
    API_KEY = 54
    VALID_VERSIONS = (0, 1)
    FLEXIBLE_MIN = 1

    def __init__(self, *, cluster_id=None, topics=DEFAULT, leader_endpoints=DEFAULT, _unknown_tagged=None):
        self.cluster_id = cluster_id
        self.topics = [] if topics is DEFAULT else topics
        self.leader_endpoints = [] if leader_endpoints is DEFAULT else leader_endpoints
        self._unknown_tagged = _unknown_tagged



def _d_PartitionData_0(b, p):
    o = _new(PartitionData)
    o.partition_index, o.leader_id, o.leader_epoch = _S0.unpack_from(b, p)
    p += 12
    n, p = _ral(b, p, 4)
    l = list((_ARR['i'][n] if n < 64 else _struct.Struct('>%di' % n)).unpack_from(b, p))
    p += 4 * n
    o.preferred_successors = l
    o.preferred_candidates = []
    o._unknown_tagged = None
    return o, p


def _d_TopicData_0(b, p):
    o = _new(TopicData)
    o.topic_name, p = _rstr(b, p)
    n, p = _ral(b, p, 16)
    l = []
    for _ in range(n):
        e, p = _d_PartitionData_0(b, p)
        l.append(e)
    o.partitions = l
    o._unknown_tagged = None
    return o, p


def _d_EndQuorumEpochRequest_0(b, p):
    o = _new(EndQuorumEpochRequest)
    o.cluster_id, p = _rnstr(b, p)
    n, p = _ral(b, p, 6)
    l = []
    for _ in range(n):
        e, p = _d_TopicData_0(b, p)
        l.append(e)
    o.topics = l
    o.leader_endpoints = []
    o._unknown_tagged = None
    return o, p


def _e_PartitionData_0(o, w):
    w.append(_S0.pack(o.partition_index, o.leader_id, o.leader_epoch))
    x = o.preferred_successors
    w.append(_I(len(x)))
    w.append(_pack('>%di' % len(x), *x))


def _e_TopicData_0(o, w):
    _wstr(w, o.topic_name)
    x = o.partitions
    w.append(_I(len(x)))
    for e in x:
        _e_PartitionData_0(e, w)


def _e_EndQuorumEpochRequest_0(o, w):
    _wnstr(w, o.cluster_id)
    x = o.topics
    w.append(_I(len(x)))
    for e in x:
        _e_TopicData_0(e, w)


def _d_ReplicaInfo_0(b, p):
    o = _new(ReplicaInfo)
    o.candidate_id, o.candidate_directory_id = _S1.unpack_from(b, p)
    p += 20
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_PartitionData_1(b, p):
    o = _new(PartitionData)
    o.partition_index, o.leader_id, o.leader_epoch = _S0.unpack_from(b, p)
    p += 12
    o.preferred_successors = []
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 21)
    l = []
    for _ in range(n):
        e, p = _d_ReplicaInfo_0(b, p)
        l.append(e)
    o.preferred_candidates = l
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
        n, p = _rcal(b, p, 14)
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


def _d_LeaderEndpoint_0(b, p):
    o = _new(LeaderEndpoint)
    o.name, p = _rcstr(b, p)
    o.host, p = _rcstr(b, p)
    o.port, = _S2.unpack_from(b, p)
    p += 2
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_EndQuorumEpochRequest_1(b, p):
    o = _new(EndQuorumEpochRequest)
    o.cluster_id, p = _rcnstr(b, p)
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
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 5)
    l = []
    for _ in range(n):
        e, p = _d_LeaderEndpoint_0(b, p)
        l.append(e)
    o.leader_endpoints = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_ReplicaInfo_0(o, w):
    w.append(_S1.pack(o.candidate_id, o.candidate_directory_id))
    _wtag(w, o._unknown_tagged)


def _e_PartitionData_1(o, w):
    w.append(_S0.pack(o.partition_index, o.leader_id, o.leader_epoch))
    x = o.preferred_candidates
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_ReplicaInfo_0(e, w)
    _wtag(w, o._unknown_tagged)


def _e_TopicData_1(o, w):
    _wcstr(w, o.topic_name)
    x = o.partitions
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_PartitionData_1(e, w)
    _wtag(w, o._unknown_tagged)


def _e_LeaderEndpoint_0(o, w):
    _wcstr(w, o.name)
    _wcstr(w, o.host)
    w.append(_S2.pack(o.port))
    _wtag(w, o._unknown_tagged)


def _e_EndQuorumEpochRequest_1(o, w):
    _wcnstr(w, o.cluster_id)
    x = o.topics
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_TopicData_1(e, w)
    x = o.leader_endpoints
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_LeaderEndpoint_0(e, w)
    _wtag(w, o._unknown_tagged)


EndQuorumEpochRequest._DECODERS = {0: _d_EndQuorumEpochRequest_0, 1: _d_EndQuorumEpochRequest_1}
EndQuorumEpochRequest._ENCODERS = {0: _e_EndQuorumEpochRequest_0, 1: _e_EndQuorumEpochRequest_1}
