"""Generated from Kafka's BeginQuorumEpochResponse.json by tools/gen_wire.py. Do not edit."""
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

_S0 = _struct.Struct('>h')
_S1 = _struct.Struct('>ihii')
_S2 = _struct.Struct('>i')
_S3 = _struct.Struct('>H')


class PartitionData(Message):
    __slots__ = ('partition_index', 'error_code', 'leader_id', 'leader_epoch', '_unknown_tagged')
    _FIELDS = (('partition_index', 'int32', 0, 32767, -1, -1, None, -1, None), ('error_code', 'int16', 0, 32767, -1, -1, None, -1, None), ('leader_id', 'int32', 0, 32767, -1, -1, None, -1, None), ('leader_epoch', 'int32', 0, 32767, -1, -1, None, -1, None))

    def __init__(self, *, partition_index=0, error_code=0, leader_id=0, leader_epoch=0, _unknown_tagged=None):
        self.partition_index = partition_index
        self.error_code = error_code
        self.leader_id = leader_id
        self.leader_epoch = leader_epoch
        self._unknown_tagged = _unknown_tagged


class TopicData(Message):
    __slots__ = ('topic_name', 'partitions', '_unknown_tagged')
    _FIELDS = (('topic_name', 'string', 0, 32767, -1, -1, None, -1, None), ('partitions', '[]PartitionData', 0, 32767, -1, -1, None, -1, 'PartitionData'))

    def __init__(self, *, topic_name='', partitions=DEFAULT, _unknown_tagged=None):
        self.topic_name = topic_name
        self.partitions = [] if partitions is DEFAULT else partitions
        self._unknown_tagged = _unknown_tagged


class NodeEndpoint(Message):
    __slots__ = ('node_id', 'host', 'port', '_unknown_tagged')
    _FIELDS = (('node_id', 'int32', 1, 32767, -1, -1, None, -1, None), ('host', 'string', 1, 32767, -1, -1, None, -1, None), ('port', 'uint16', 1, 32767, -1, -1, None, -1, None))

    def __init__(self, *, node_id=0, host='', port=0, _unknown_tagged=None):
        self.node_id = node_id
        self.host = host
        self.port = port
        self._unknown_tagged = _unknown_tagged


class BeginQuorumEpochResponse(Message):
    __slots__ = ('error_code', 'topics', 'node_endpoints', '_unknown_tagged')
    _FIELDS = (('error_code', 'int16', 0, 32767, -1, -1, None, -1, None), ('topics', '[]TopicData', 0, 32767, -1, -1, None, -1, 'TopicData'), ('node_endpoints', '[]NodeEndpoint', 1, 32767, -1, -1, 0, 1, 'NodeEndpoint'))
    API_KEY = 53
    VALID_VERSIONS = (0, 1)
    FLEXIBLE_MIN = 1

    def __init__(self, *, error_code=0, topics=DEFAULT, node_endpoints=DEFAULT, _unknown_tagged=None):
        self.error_code = error_code
        self.topics = [] if topics is DEFAULT else topics
        self.node_endpoints = [] if node_endpoints is DEFAULT else node_endpoints
        self._unknown_tagged = _unknown_tagged



def _d_PartitionData_0(b, p):
    o = _new(PartitionData)
    o.partition_index, o.error_code, o.leader_id, o.leader_epoch = _S1.unpack_from(b, p)
    p += 14
    o._unknown_tagged = None
    return o, p


def _d_TopicData_0(b, p):
    o = _new(TopicData)
    o.topic_name, p = _rstr(b, p)
    n, p = _ral(b, p, 14)
    l = []
    for _ in range(n):
        e, p = _d_PartitionData_0(b, p)
        l.append(e)
    o.partitions = l
    o._unknown_tagged = None
    return o, p


def _d_BeginQuorumEpochResponse_0(b, p):
    o = _new(BeginQuorumEpochResponse)
    o.error_code, = _S0.unpack_from(b, p)
    p += 2
    n, p = _ral(b, p, 6)
    l = []
    for _ in range(n):
        e, p = _d_TopicData_0(b, p)
        l.append(e)
    o.topics = l
    o.node_endpoints = []
    o._unknown_tagged = None
    return o, p


def _e_PartitionData_0(o, w):
    w.append(_S1.pack(o.partition_index, o.error_code, o.leader_id, o.leader_epoch))


def _e_TopicData_0(o, w):
    _wstr(w, o.topic_name)
    x = o.partitions
    w.append(_I(len(x)))
    for e in x:
        _e_PartitionData_0(e, w)


def _e_BeginQuorumEpochResponse_0(o, w):
    w.append(_S0.pack(o.error_code))
    x = o.topics
    w.append(_I(len(x)))
    for e in x:
        _e_TopicData_0(e, w)


def _d_PartitionData_1(b, p):
    o = _new(PartitionData)
    o.partition_index, o.error_code, o.leader_id, o.leader_epoch = _S1.unpack_from(b, p)
    p += 14
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
        n, p = _rcal(b, p, 15)
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


def _d_NodeEndpoint_0(b, p):
    o = _new(NodeEndpoint)
    o.node_id, = _S2.unpack_from(b, p)
    p += 4
    o.host, p = _rcstr(b, p)
    o.port, = _S3.unpack_from(b, p)
    p += 2
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_BeginQuorumEpochResponse_1(b, p):
    o = _new(BeginQuorumEpochResponse)
    o.error_code, = _S0.unpack_from(b, p)
    p += 2
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
    o.node_endpoints = []
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    u = None
    if t is not None:
        for tag, raw in t:
            if tag == 0:
                q = 0
                n = raw[q] - 1
                if 0 <= n < 127:
                    q += 1
                else:
                    n, q = _rcal(raw, q, 8)
                l = []
                for _ in range(n):
                    e, q = _d_NodeEndpoint_0(raw, q)
                    l.append(e)
                o.node_endpoints = l
            else:
                if u is None: u = []
                u.append((tag, bytes(raw)))
    o._unknown_tagged = u
    return o, p


def _e_PartitionData_1(o, w):
    w.append(_S1.pack(o.partition_index, o.error_code, o.leader_id, o.leader_epoch))
    _wtag(w, o._unknown_tagged)


def _e_TopicData_1(o, w):
    _wcstr(w, o.topic_name)
    x = o.partitions
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_PartitionData_1(e, w)
    _wtag(w, o._unknown_tagged)


def _e_NodeEndpoint_0(o, w):
    w.append(_S2.pack(o.node_id))
    _wcstr(w, o.host)
    w.append(_S3.pack(o.port))
    _wtag(w, o._unknown_tagged)


def _e_BeginQuorumEpochResponse_1(o, w):
    w.append(_S0.pack(o.error_code))
    x = o.topics
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_TopicData_1(e, w)
    tg = []
    x = o.node_endpoints
    if x:
        tw = []
        x = x
        tw.append(_uv(len(x) + 1))
        for e in x:
            _e_NodeEndpoint_0(e, tw)
        tg.append((0, b''.join(tw)))
    if o._unknown_tagged:
        tg = sorted(tg + o._unknown_tagged, key=_tagkey)
    _wtag(w, tg)


BeginQuorumEpochResponse._DECODERS = {0: _d_BeginQuorumEpochResponse_0, 1: _d_BeginQuorumEpochResponse_1}
BeginQuorumEpochResponse._ENCODERS = {0: _e_BeginQuorumEpochResponse_0, 1: _e_BeginQuorumEpochResponse_1}
