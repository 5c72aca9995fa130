"""Generated from Kafka's DescribeTopicPartitionsResponse.json by tools/gen_wire.py. Do not edit."""
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
_S1 = _struct.Struct('>h')
_S2 = _struct.Struct('>16s?')
_S3 = _struct.Struct('>hiii')


class DescribeTopicPartitionsResponsePartition(Message):
    __slots__ = ('error_code', 'partition_index', 'leader_id', 'leader_epoch', 'replica_nodes', 'isr_nodes', 'eligible_leader_replicas', 'last_known_elr', 'offline_replicas', '_unknown_tagged')
    _FIELDS = (('error_code', 'int16', 0, 32767, -1, -1, None, -1, None), ('partition_index', 'int32', 0, 32767, -1, -1, None, -1, None), ('leader_id', 'int32', 0, 32767, -1, -1, None, -1, None), ('leader_epoch', 'int32', 0, 32767, -1, -1, None, -1, None), ('replica_nodes', '[]int32', 0, 32767, -1, -1, None, -1, None), ('isr_nodes', '[]int32', 0, 32767, -1, -1, None, -1, None), ('eligible_leader_replicas', '[]int32', 0, 32767, 0, 32767, None, -1, None), ('last_known_elr', '[]int32', 0, 32767, 0, 32767, None, -1, None), ('offline_replicas', '[]int32', 0, 32767, -1, -1, None, -1, None))

    def __init__(self, *, error_code=0, partition_index=0, leader_id=0, leader_epoch=-1, replica_nodes=DEFAULT, isr_nodes=DEFAULT, eligible_leader_replicas=None, last_known_elr=None, offline_replicas=DEFAULT, _unknown_tagged=None):
        self.error_code = error_code
        self.partition_index = partition_index
        self.leader_id = leader_id
        self.leader_epoch = leader_epoch
        self.replica_nodes = [] if replica_nodes is DEFAULT else replica_nodes
        self.isr_nodes = [] if isr_nodes is DEFAULT else isr_nodes
        self.eligible_leader_replicas = eligible_leader_replicas
        self.last_known_elr = last_known_elr
        self.offline_replicas = [] if offline_replicas is DEFAULT else offline_replicas
        self._unknown_tagged = _unknown_tagged


class DescribeTopicPartitionsResponseTopic(Message):
    __slots__ = ('error_code', 'name', 'topic_id', 'is_internal', 'partitions', 'topic_authorized_operations', '_unknown_tagged')
    _FIELDS = (('error_code', 'int16', 0, 32767, -1, -1, None, -1, None), ('name', 'string', 0, 32767, 0, 32767, None, -1, None), ('topic_id', 'uuid', 0, 32767, -1, -1, None, -1, None), ('is_internal', 'bool', 0, 32767, -1, -1, None, -1, None), ('partitions', '[]DescribeTopicPartitionsResponsePartition', 0, 32767, -1, -1, None, -1, 'DescribeTopicPartitionsResponsePartition'), ('topic_authorized_operations', 'int32', 0, 32767, -1, -1, None, -1, None))

    def __init__(self, *, error_code=0, name='', topic_id=ZERO_UUID, is_internal=False, partitions=DEFAULT, topic_authorized_operations=-2147483648, _unknown_tagged=None):
        self.error_code = error_code
        self.name = name
        self.topic_id = topic_id
        self.is_internal = is_internal
        self.partitions = [] if partitions is DEFAULT else partitions
        self.topic_authorized_operations = topic_authorized_operations
        self._unknown_tagged = _unknown_tagged


class Cursor(Message):
    __slots__ = ('topic_name', 'partition_index', '_unknown_tagged')
    _FIELDS = (('topic_name', 'string', 0, 32767, -1, -1, None, -1, None), ('partition_index', 'int32', 0, 32767, -1, -1, None, -1, None))

    def __init__(self, *, topic_name='', partition_index=0, _unknown_tagged=None):
        self.topic_name = topic_name
        self.partition_index = partition_index
        self._unknown_tagged = _unknown_tagged


class DescribeTopicPartitionsResponse(Message):
    __slots__ = ('throttle_time_ms', 'topics', 'next_cursor', '_unknown_tagged')
    _FIELDS = (('throttle_time_ms', 'int32', 0, 32767, -1, -1, None, -1, None), ('topics', '[]DescribeTopicPartitionsResponseTopic', 0, 32767, -1, -1, None, -1, 'DescribeTopicPartitionsResponseTopic'), ('next_cursor', 'Cursor', 0, 32767, 0, 32767, None, -1, 'Cursor'))
    API_KEY = 75
    VALID_VERSIONS = (0, 0)
    FLEXIBLE_MIN = 0

    def __init__(self, *, throttle_time_ms=0, topics=DEFAULT, next_cursor=None, _unknown_tagged=None):
        self.throttle_time_ms = throttle_time_ms
        self.topics = [] if topics is DEFAULT else topics
        self.next_cursor = next_cursor
        self._unknown_tagged = _unknown_tagged



def _d_DescribeTopicPartitionsResponsePartition_0(b, p):
    o = _new(DescribeTopicPartitionsResponsePartition)
    o.error_code, o.partition_index, o.leader_id, o.leader_epoch = _S3.unpack_from(b, p)
    p += 14
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 4)
    l = list((_ARR['i'][n] if n < 64 else _struct.Struct('>%di' % n)).unpack_from(b, p))
    p += 4 * n
    o.replica_nodes = l
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 4)
    l = list((_ARR['i'][n] if n < 64 else _struct.Struct('>%di' % n)).unpack_from(b, p))
    p += 4 * n
    o.isr_nodes = l
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcnal(b, p, 4)
    if n < 0:
        o.eligible_leader_replicas = None
    else:
        l = list((_ARR['i'][n] if n < 64 else _struct.Struct('>%di' % n)).unpack_from(b, p))
        p += 4 * n
        o.eligible_leader_replicas = l
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcnal(b, p, 4)
    if n < 0:
        o.last_known_elr = None
    else:
        l = list((_ARR['i'][n] if n < 64 else _struct.Struct('>%di' % n)).unpack_from(b, p))
        p += 4 * n
        o.last_known_elr = l
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 4)
    l = list((_ARR['i'][n] if n < 64 else _struct.Struct('>%di' % n)).unpack_from(b, p))
    p += 4 * n
    o.offline_replicas = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_DescribeTopicPartitionsResponseTopic_0(b, p):
    o = _new(DescribeTopicPartitionsResponseTopic)
    o.error_code, = _S1.unpack_from(b, p)
    p += 2
    o.name, p = _rcnstr(b, p)
    o.topic_id, o.is_internal = _S2.unpack_from(b, p)
    p += 17
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 20)
    l = []
    for _ in range(n):
        e, p = _d_DescribeTopicPartitionsResponsePartition_0(b, p)
        l.append(e)
    o.partitions = l
    o.topic_authorized_operations, = _S0.unpack_from(b, p)
    p += 4
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_Cursor_0(b, p):
    o = _new(Cursor)
    o.topic_name, p = _rcstr(b, p)
    o.partition_index, = _S0.unpack_from(b, p)
    p += 4
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_DescribeTopicPartitionsResponse_0(b, p):
    o = _new(DescribeTopicPartitionsResponse)
    o.throttle_time_ms, = _S0.unpack_from(b, p)
    p += 4
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 26)
    l = []
    for _ in range(n):
        e, p = _d_DescribeTopicPartitionsResponseTopic_0(b, p)
        l.append(e)
    o.topics = l
    if b[p] >= 128:
        o.next_cursor = None
        p += 1
    else:
        o.next_cursor, p = _d_Cursor_0(b, p + 1)
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_DescribeTopicPartitionsResponsePartition_0(o, w):
    w.append(_S3.pack(o.error_code, o.partition_index, o.leader_id, o.leader_epoch))
    x = o.replica_nodes
    w.append(_uv(len(x) + 1))
    w.append(_pack('>%di' % len(x), *x))
    x = o.isr_nodes
    w.append(_uv(len(x) + 1))
    w.append(_pack('>%di' % len(x), *x))
    x = o.eligible_leader_replicas
    if x is None:
        w.append(b'\x00')
    else:
        w.append(_uv(len(x) + 1))
        w.append(_pack('>%di' % len(x), *x))
    x = o.last_known_elr
    if x is None:
        w.append(b'\x00')
    else:
        w.append(_uv(len(x) + 1))
        w.append(_pack('>%di' % len(x), *x))
    x = o.offline_replicas
    w.append(_uv(len(x) + 1))
    w.append(_pack('>%di' % len(x), *x))
    _wtag(w, o._unknown_tagged)


def _e_DescribeTopicPartitionsResponseTopic_0(o, w):
    w.append(_S1.pack(o.error_code))
    _wcnstr(w, o.name)
    w.append(_S2.pack(o.topic_id, o.is_internal))
    x = o.partitions
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_DescribeTopicPartitionsResponsePartition_0(e, w)
    w.append(_S0.pack(o.topic_authorized_operations))
    _wtag(w, o._unknown_tagged)


def _e_Cursor_0(o, w):
    _wcstr(w, o.topic_name)
    w.append(_S0.pack(o.partition_index))
    _wtag(w, o._unknown_tagged)


def _e_DescribeTopicPartitionsResponse_0(o, w):
    w.append(_S0.pack(o.throttle_time_ms))
    x = o.topics
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_DescribeTopicPartitionsResponseTopic_0(e, w)
    x = o.next_cursor
    if x is None:
        w.append(b'\xff')
    else:
        w.append(b'\x01')
        _e_Cursor_0(x, w)
    _wtag(w, o._unknown_tagged)


def _u_DescribeTopicPartitionsResponseTopic_0(o, w, c):
    w.append(_S1.pack(o.error_code))
    _wcnstr(w, o.name)
    w.append(_S2.pack(o.topic_id, o.is_internal))
    x = o.partitions
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_DescribeTopicPartitionsResponsePartition_0(e, w)
        c += 1
        if c >= 1000:
            c = 0
            yield
    w.append(_S0.pack(o.topic_authorized_operations))
    _wtag(w, o._unknown_tagged)
    return c


def _t_DescribeTopicPartitionsResponse_0(o, w):
    c = 0
    w.append(_S0.pack(o.throttle_time_ms))
    x = o.topics
    w.append(_uv(len(x) + 1))
    for e in x:
        c = yield from _u_DescribeTopicPartitionsResponseTopic_0(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield
    x = o.next_cursor
    if x is None:
        w.append(b'\xff')
    else:
        w.append(b'\x01')
        _e_Cursor_0(x, w)
    _wtag(w, o._unknown_tagged)


DescribeTopicPartitionsResponse._DECODERS = {0: _d_DescribeTopicPartitionsResponse_0}
DescribeTopicPartitionsResponse._ENCODERS = {0: _e_DescribeTopicPartitionsResponse_0}
DescribeTopicPartitionsResponse._ENCODE_STEPS = {0: _t_DescribeTopicPartitionsResponse_0}
