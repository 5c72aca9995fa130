"""Generated from Kafka's DescribeQuorumResponse.json by tools/gen_wire.py. Do not edit."""
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
_S1 = _struct.Struct('>ih')
_S2 = _struct.Struct('>iiq')
_S3 = _struct.Struct('>i')
_S4 = _struct.Struct('>q')
_S5 = _struct.Struct('>ihiiq')
_S6 = _struct.Struct('>iq')
_S7 = _struct.Struct('>qqq')
_S8 = _struct.Struct('>iqqq')
_S9 = _struct.Struct('>i16sqqq')
_S10 = _struct.Struct('>H')


class ReplicaState(Message):
    __slots__ = ('replica_id', 'replica_directory_id', 'log_end_offset', 'last_fetch_timestamp', 'last_caught_up_timestamp', '_unknown_tagged')
    _FIELDS = (('replica_id', 'int32', 0, 32767, -1, -1, None, -1, None), ('replica_directory_id', 'uuid', 2, 32767, -1, -1, None, -1, None), ('log_end_offset', 'int64', 0, 32767, -1, -1, None, -1, None), ('last_fetch_timestamp', 'int64', 1, 32767, -1, -1, None, -1, None), ('last_caught_up_timestamp', 'int64', 1, 32767, -1, -1, None, -1, None))

    def __init__(self, *, replica_id=0, replica_directory_id=ZERO_UUID, log_end_offset=0, last_fetch_timestamp=-1, last_caught_up_timestamp=-1, _unknown_tagged=None):
        self.replica_id = replica_id
        self.replica_directory_id = replica_directory_id
        self.log_end_offset = log_end_offset
        self.last_fetch_timestamp = last_fetch_timestamp
        self.last_caught_up_timestamp = last_caught_up_timestamp
        self._unknown_tagged = _unknown_tagged


class PartitionData(Message):
    __slots__ = ('partition_index', 'error_code', 'error_message', 'leader_id', 'leader_epoch', 'high_watermark', 'current_voters', 'observers', '_unknown_tagged')
    _FIELDS = (('partition_index', 'int32', 0, 32767, -1, -1, None, -1, None), ('error_code', 'int16', 0, 32767, -1, -1, None, -1, None), ('error_message', 'string', 2, 32767, 2, 32767, None, -1, None), ('leader_id', 'int32', 0, 32767, -1, -1, None, -1, None), ('leader_epoch', 'int32', 0, 32767, -1, -1, None, -1, None), ('high_watermark', 'int64', 0, 32767, -1, -1, None, -1, None), ('current_voters', '[]ReplicaState', 0, 32767, -1, -1, None, -1, 'ReplicaState'), ('observers', '[]ReplicaState', 0, 32767, -1, -1, None, -1, 'ReplicaState'))

    def __init__(self, *, partition_index=0, error_code=0, error_message='', leader_id=0, leader_epoch=0, high_watermark=0, current_voters=DEFAULT, observers=DEFAULT, _unknown_tagged=None):
        self.partition_index = partition_index
        self.error_code = error_code
        self.error_message = error_message
        self.leader_id = leader_id
        self.leader_epoch = leader_epoch
        self.high_watermark = high_watermark
        self.current_voters = [] if current_voters is DEFAULT else current_voters
        self.observers = [] if observers is DEFAULT else observers
        self._unknown_tagged = _unknown_tagged


class TopicData(Message):
    __slots__ = ('topic_name', 'partitions', '_unknown_tagged')
    _FIELDS = (('topic_name', 'string', 0, 32767, -1, -1, None, -1, None), ('partitions', '[]PartitionData', 0, 32767, -1, -1, None, -1, 'PartitionData'))

    def __init__(self, *, topic_name='', partitions=DEFAULT, _unknown_tagged=None):
        self.topic_name = topic_name
        self.partitions = [] if partitions is DEFAULT else partitions
        self._unknown_tagged = _unknown_tagged


class Listener(Message):
    __slots__ = ('name', 'host', 'port', '_unknown_tagged')
    _FIELDS = (('name', 'string', 2, 32767, -1, -1, None, -1, None), ('host', 'string', 2, 32767, -1, -1, None, -1, None), ('port', 'uint16', 2, 32767, -1, -1, None, -1, None))

    def __init__(self, *, name='', host='', port=0, _unknown_tagged=None):
        self.name = name
        self.host = host
        self.port = port
        self._unknown_tagged = _unknown_tagged


class Node(Message):
    __slots__ = ('node_id', 'listeners', '_unknown_tagged')
    _FIELDS = (('node_id', 'int32', 2, 32767, -1, -1, None, -1, None), ('listeners', '[]Listener', 2, 32767, -1, -1, None, -1, 'Listener'))

    def __init__(self, *, node_id=0, listeners=DEFAULT, _unknown_tagged=None):
        self.node_id = node_id
        self.listeners = [] if listeners is DEFAULT else listeners
        self._unknown_tagged = _unknown_tagged


class DescribeQuorumResponse(Message):
    __slots__ = ('error_code', 'error_message', 'topics', 'nodes', '_unknown_tagged')
    _FIELDS = (('error_code', 'int16', 0, 32767, -1, -1, None, -1, None), ('error_message', 'string', 2, 32767, 2, 32767, None, -1, None), ('topics', '[]TopicData', 0, 32767, -1, -1, None, -1, 'TopicData'), ('nodes', '[]Node', 2, 32767, -1, -1, None, -1, 'Node'))
    API_KEY = 55
    VALID_VERSIONS = (0, 2)
    FLEXIBLE_MIN = 0

    def __init__(self, *, error_code=0, error_message='', topics=DEFAULT, nodes=DEFAULT, _unknown_tagged=None):
        self.error_code = error_code
        self.error_message = error_message
        self.topics = [] if topics is DEFAULT else topics
        self.nodes = [] if nodes is DEFAULT else nodes
        self._unknown_tagged = _unknown_tagged



def _d_ReplicaState_0(b, p):
    o = _new(ReplicaState)
    o.replica_id, = _S3.unpack_from(b, p)
    p += 4
    o.replica_directory_id = ZERO_UUID
    o.log_end_offset, = _S4.unpack_from(b, p)
    p += 8
    o.last_fetch_timestamp = -1
    o.last_caught_up_timestamp = -1
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_PartitionData_0(b, p):
    o = _new(PartitionData)
    o.partition_index, o.error_code = _S1.unpack_from(b, p)
    p += 6
    o.error_message = ''
    o.leader_id, o.leader_epoch, o.high_watermark = _S2.unpack_from(b, p)
    p += 16
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 13)
    l = []
    for _ in range(n):
        e, p = _d_ReplicaState_0(b, p)
        l.append(e)
    o.current_voters = l
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 13)
    l = []
    for _ in range(n):
        e, p = _d_ReplicaState_0(b, p)
        l.append(e)
    o.observers = l
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


def _d_DescribeQuorumResponse_0(b, p):
    o = _new(DescribeQuorumResponse)
    o.error_code, = _S0.unpack_from(b, p)
    p += 2
    o.error_message = ''
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
    o.nodes = []
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_ReplicaState_0(o, w):
    w.append(_S6.pack(o.replica_id, o.log_end_offset))
    _wtag(w, o._unknown_tagged)


def _e_PartitionData_0(o, w):
    w.append(_S5.pack(o.partition_index, o.error_code, o.leader_id, o.leader_epoch, o.high_watermark))
    x = o.current_voters
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_ReplicaState_0(e, w)
    x = o.observers
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_ReplicaState_0(e, w)
    _wtag(w, o._unknown_tagged)


def _e_TopicData_0(o, w):
    _wcstr(w, o.topic_name)
    x = o.partitions
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_PartitionData_0(e, w)
    _wtag(w, o._unknown_tagged)


def _e_DescribeQuorumResponse_0(o, w):
    w.append(_S0.pack(o.error_code))
    x = o.topics
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_TopicData_0(e, w)
    _wtag(w, o._unknown_tagged)


def _d_ReplicaState_1(b, p):
    o = _new(ReplicaState)
    o.replica_id, = _S3.unpack_from(b, p)
    p += 4
    o.replica_directory_id = ZERO_UUID
    o.log_end_offset, o.last_fetch_timestamp, o.last_caught_up_timestamp = _S7.unpack_from(b, p)
    p += 24
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_PartitionData_1(b, p):
    o = _new(PartitionData)
    o.partition_index, o.error_code = _S1.unpack_from(b, p)
    p += 6
    o.error_message = ''
    o.leader_id, o.leader_epoch, o.high_watermark = _S2.unpack_from(b, p)
    p += 16
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 29)
    l = []
    for _ in range(n):
        e, p = _d_ReplicaState_1(b, p)
        l.append(e)
    o.current_voters = l
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 29)
    l = []
    for _ in range(n):
        e, p = _d_ReplicaState_1(b, p)
        l.append(e)
    o.observers = l
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
        n, p = _rcal(b, p, 25)
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


def _d_DescribeQuorumResponse_1(b, p):
    o = _new(DescribeQuorumResponse)
    o.error_code, = _S0.unpack_from(b, p)
    p += 2
    o.error_message = ''
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
    o.nodes = []
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_ReplicaState_1(o, w):
    w.append(_S8.pack(o.replica_id, o.log_end_offset, o.last_fetch_timestamp, o.last_caught_up_timestamp))
    _wtag(w, o._unknown_tagged)


def _e_PartitionData_1(o, w):
    w.append(_S5.pack(o.partition_index, o.error_code, o.leader_id, o.leader_epoch, o.high_watermark))
    x = o.current_voters
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_ReplicaState_1(e, w)
    x = o.observers
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_ReplicaState_1(e, w)
    _wtag(w, o._unknown_tagged)


def _e_TopicData_1(o, w):
    _wcstr(w, o.topic_name)
    x = o.partitions
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_PartitionData_1(e, w)
    _wtag(w, o._unknown_tagged)


def _e_DescribeQuorumResponse_1(o, w):
    w.append(_S0.pack(o.error_code))
    x = o.topics
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_TopicData_1(e, w)
    _wtag(w, o._unknown_tagged)


def _d_ReplicaState_2(b, p):
    o = _new(ReplicaState)
    o.replica_id, o.replica_directory_id, o.log_end_offset, o.last_fetch_timestamp, o.last_caught_up_timestamp = _S9.unpack_from(b, p)
    p += 44
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_PartitionData_2(b, p):
    o = _new(PartitionData)
    o.partition_index, o.error_code = _S1.unpack_from(b, p)
    p += 6
    o.error_message, p = _rcnstr(b, p)
    o.leader_id, o.leader_epoch, o.high_watermark = _S2.unpack_from(b, p)
    p += 16
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 45)
    l = []
    for _ in range(n):
        e, p = _d_ReplicaState_2(b, p)
        l.append(e)
    o.current_voters = l
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 45)
    l = []
    for _ in range(n):
        e, p = _d_ReplicaState_2(b, p)
        l.append(e)
    o.observers = l
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
        n, p = _rcal(b, p, 26)
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


def _d_Listener_0(b, p):
    o = _new(Listener)
    o.name, p = _rcstr(b, p)
    o.host, p = _rcstr(b, p)
    o.port, = _S10.unpack_from(b, p)
    p += 2
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_Node_0(b, p):
    o = _new(Node)
    o.node_id, = _S3.unpack_from(b, p)
    p += 4
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 5)
    l = []
    for _ in range(n):
        e, p = _d_Listener_0(b, p)
        l.append(e)
    o.listeners = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_DescribeQuorumResponse_2(b, p):
    o = _new(DescribeQuorumResponse)
    o.error_code, = _S0.unpack_from(b, p)
    p += 2
    o.error_message, p = _rcnstr(b, p)
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
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 6)
    l = []
    for _ in range(n):
        e, p = _d_Node_0(b, p)
        l.append(e)
    o.nodes = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_ReplicaState_2(o, w):
    w.append(_S9.pack(o.replica_id, o.replica_directory_id, o.log_end_offset, o.last_fetch_timestamp, o.last_caught_up_timestamp))
    _wtag(w, o._unknown_tagged)


def _e_PartitionData_2(o, w):
    w.append(_S1.pack(o.partition_index, o.error_code))
    _wcnstr(w, o.error_message)
    w.append(_S2.pack(o.leader_id, o.leader_epoch, o.high_watermark))
    x = o.current_voters
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_ReplicaState_2(e, w)
    x = o.observers
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_ReplicaState_2(e, w)
    _wtag(w, o._unknown_tagged)


def _e_TopicData_2(o, w):
    _wcstr(w, o.topic_name)
    x = o.partitions
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_PartitionData_2(e, w)
    _wtag(w, o._unknown_tagged)


def _e_Listener_0(o, w):
    _wcstr(w, o.name)
    _wcstr(w, o.host)
    w.append(_S10.pack(o.port))
    _wtag(w, o._unknown_tagged)


def _e_Node_0(o, w):
    w.append(_S3.pack(o.node_id))
    x = o.listeners
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_Listener_0(e, w)
    _wtag(w, o._unknown_tagged)


def _e_DescribeQuorumResponse_2(o, w):
    w.append(_S0.pack(o.error_code))
    _wcnstr(w, o.error_message)
    x = o.topics
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_TopicData_2(e, w)
    x = o.nodes
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_Node_0(e, w)
    _wtag(w, o._unknown_tagged)


DescribeQuorumResponse._DECODERS = {0: _d_DescribeQuorumResponse_0, 1: _d_DescribeQuorumResponse_1, 2: _d_DescribeQuorumResponse_2}
DescribeQuorumResponse._ENCODERS = {0: _e_DescribeQuorumResponse_0, 1: _e_DescribeQuorumResponse_1, 2: _e_DescribeQuorumResponse_2}
