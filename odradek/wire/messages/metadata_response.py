"""Generated from Kafka's MetadataResponse.json by tools/gen_wire.py. Do not edit."""
# flake8: noqa
import struct as _struct

from ..base import DEFAULT, Encoded as _Encoded, Message
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
_S2 = _struct.Struct('>hii')
_S3 = _struct.Struct('>?')
_S4 = _struct.Struct('>hiii')
_S5 = _struct.Struct('>16s?')


class MetadataResponseBroker(Message):
    __slots__ = ('node_id', 'host', 'port', 'rack', '_unknown_tagged')
    _FIELDS = (('node_id', 'int32', 0, 32767, -1, -1, None, -1, None), ('host', 'string', 0, 32767, -1, -1, None, -1, None), ('port', 'int32', 0, 32767, -1, -1, None, -1, None), ('rack', 'string', 1, 32767, 1, 32767, None, -1, None))

    def __init__(self, *, node_id=0, host='', port=0, rack=None, _unknown_tagged=None):
        self.node_id = node_id
        self.host = host
        self.port = port
        self.rack = rack
        self._unknown_tagged = _unknown_tagged


class MetadataResponsePartition(Message):
    __slots__ = ('error_code', 'partition_index', 'leader_id', 'leader_epoch', 'replica_nodes', 'isr_nodes', 'offline_replicas', '_unknown_tagged')
    _FIELDS = (('error_code', 'int16', 0, 32767, -1, -1, None, -1, None), ('partition_index', 'int32', 0, 32767, -1, -1, None, -1, None), ('leader_id', 'int32', 0, 32767, -1, -1, None, -1, None), ('leader_epoch', 'int32', 7, 32767, -1, -1, None, -1, None), ('replica_nodes', '[]int32', 0, 32767, -1, -1, None, -1, None), ('isr_nodes', '[]int32', 0, 32767, -1, -1, None, -1, None), ('offline_replicas', '[]int32', 5, 32767, -1, -1, None, -1, None))

    def __init__(self, *, error_code=0, partition_index=0, leader_id=0, leader_epoch=-1, replica_nodes=DEFAULT, isr_nodes=DEFAULT, offline_replicas=DEFAULT, _unknown_tagged=None):
        self.error_code = error_code
        self.partition_index = partition_index
        self.leader_id = leader_id
        self.leader_epoch = leader_epoch
        self.replica_nodes = [] if replica_nodes is DEFAULT else replica_nodes
        self.isr_nodes = [] if isr_nodes is DEFAULT else isr_nodes
        self.offline_replicas = [] if offline_replicas is DEFAULT else offline_replicas
        self._unknown_tagged = _unknown_tagged


class MetadataResponseTopic(Message):
    __slots__ = ('error_code', 'name', 'topic_id', 'is_internal', 'partitions', 'topic_authorized_operations', '_unknown_tagged')
    _FIELDS = (('error_code', 'int16', 0, 32767, -1, -1, None, -1, None), ('name', 'string', 0, 32767, 12, 32767, None, -1, None), ('topic_id', 'uuid', 10, 32767, -1, -1, None, -1, None), ('is_internal', 'bool', 1, 32767, -1, -1, None, -1, None), ('partitions', '[]MetadataResponsePartition', 0, 32767, -1, -1, None, -1, 'MetadataResponsePartition'), ('topic_authorized_operations', 'int32', 8, 32767, -1, -1, None, -1, None))

    def __init__(self, *, error_code=0, name='', topic_id=ZERO_UUID, is_internal=False, partitions=DEFAULT, topic_authorized_operations=-2147483648, _unknown_tagged=None):
        self.error_code = error_code
        self.name = name
        self.topic_id = topic_id
        self.is_internal = is_internal
        self.partitions = [] if partitions is DEFAULT else partitions
        self.topic_authorized_operations = topic_authorized_operations
        self._unknown_tagged = _unknown_tagged


class MetadataResponse(Message):
    __slots__ = ('throttle_time_ms', 'brokers', 'cluster_id', 'controller_id', 'topics', 'cluster_authorized_operations', 'error_code', '_unknown_tagged')
    _FIELDS = (('throttle_time_ms', 'int32', 3, 32767, -1, -1, None, -1, None), ('brokers', '[]MetadataResponseBroker', 0, 32767, -1, -1, None, -1, 'MetadataResponseBroker'), ('cluster_id', 'string', 2, 32767, 2, 32767, None, -1, None), ('controller_id', 'int32', 1, 32767, -1, -1, None, -1, None), ('topics', '[]MetadataResponseTopic', 0, 32767, -1, -1, None, -1, 'MetadataResponseTopic'), ('cluster_authorized_operations', 'int32', 8, 10, -1, -1, None, -1, None), ('error_code', 'int16', 13, 32767, -1, -1, None, -1, None))
    API_KEY = 3
    VALID_VERSIONS = (0, 13)
    FLEXIBLE_MIN = 9

    def __init__(self, *, throttle_time_ms=0, brokers=DEFAULT, cluster_id=None, controller_id=-1, topics=DEFAULT, cluster_authorized_operations=-2147483648, error_code=0, _unknown_tagged=None):
        self.throttle_time_ms = throttle_time_ms
        self.brokers = [] if brokers is DEFAULT else brokers
        self.cluster_id = cluster_id
        self.controller_id = controller_id
        self.topics = [] if topics is DEFAULT else topics
        self.cluster_authorized_operations = cluster_authorized_operations
        self.error_code = error_code
        self._unknown_tagged = _unknown_tagged



def _d_MetadataResponseBroker_0(b, p):
    o = _new(MetadataResponseBroker)
    o.node_id, = _S0.unpack_from(b, p)
    p += 4
    o.host, p = _rstr(b, p)
    o.port, = _S0.unpack_from(b, p)
    p += 4
    o.rack = None
    o._unknown_tagged = None
    return o, p


def _d_MetadataResponsePartition_0(b, p):
    o = _new(MetadataResponsePartition)
    o.error_code, o.partition_index, o.leader_id = _S2.unpack_from(b, p)
    p += 10
    o.leader_epoch = -1
    n, p = _ral(b, p, 4)
    l = list((_ARR['i'][n] if n < 64 else _struct.Struct('>%di' % n)).unpack_from(b, p))
    p += 4 * n
    o.replica_nodes = l
    n, p = _ral(b, p, 4)
    l = list((_ARR['i'][n] if n < 64 else _struct.Struct('>%di' % n)).unpack_from(b, p))
    p += 4 * n
    o.isr_nodes = l
    o.offline_replicas = []
    o._unknown_tagged = None
    return o, p


def _d_MetadataResponseTopic_0(b, p):
    o = _new(MetadataResponseTopic)
    o.error_code, = _S1.unpack_from(b, p)
    p += 2
    o.name, p = _rstr(b, p)
    o.topic_id = ZERO_UUID
    o.is_internal = False
    n, p = _ral(b, p, 18)
    l = []
    for _ in range(n):
        e, p = _d_MetadataResponsePartition_0(b, p)
        l.append(e)
    o.partitions = l
    o.topic_authorized_operations = -2147483648
    o._unknown_tagged = None
    return o, p


def _d_MetadataResponse_0(b, p):
    o = _new(MetadataResponse)
    o.throttle_time_ms = 0
    n, p = _ral(b, p, 10)
    l = []
    for _ in range(n):
        e, p = _d_MetadataResponseBroker_0(b, p)
        l.append(e)
    o.brokers = l
    o.cluster_id = None
    o.controller_id = -1
    n, p = _ral(b, p, 8)
    l = []
    for _ in range(n):
        e, p = _d_MetadataResponseTopic_0(b, p)
        l.append(e)
    o.topics = l
    o.cluster_authorized_operations = -2147483648
    o.error_code = 0
    o._unknown_tagged = None
    return o, p


def _e_MetadataResponseBroker_0(o, w):
    w.append(_S0.pack(o.node_id))
    _wstr(w, o.host)
    w.append(_S0.pack(o.port))


def _e_MetadataResponsePartition_0(o, w):
    w.append(_S2.pack(o.error_code, o.partition_index, o.leader_id))
    x = o.replica_nodes
    w.append(_I(len(x)))
    w.append(_pack('>%di' % len(x), *x))
    x = o.isr_nodes
    w.append(_I(len(x)))
    w.append(_pack('>%di' % len(x), *x))


def _e_MetadataResponseTopic_0(o, w):
    w.append(_S1.pack(o.error_code))
    _wstr(w, o.name)
    x = o.partitions
    w.append(_I(len(x)))
    for e in x:
        _e_MetadataResponsePartition_0(e, w)


def _e_MetadataResponse_0(o, w):
    x = o.brokers
    w.append(_I(len(x)))
    for e in x:
        _e_MetadataResponseBroker_0(e, w)
    x = o.topics
    w.append(_I(len(x)))
    for e in x:
        if e.__class__ is _Encoded:
            if e.encoder is not _e_MetadataResponseTopic_0:
                raise TypeError('MetadataResponseTopic encoded for another version')
            w.append(e.data)
        else:
            _e_MetadataResponseTopic_0(e, w)


def _u_MetadataResponseTopic_0(o, w, c):
    w.append(_S1.pack(o.error_code))
    _wstr(w, o.name)
    x = o.partitions
    w.append(_I(len(x)))
    for e in x:
        _e_MetadataResponsePartition_0(e, w)
        c += 1
        if c >= 1000:
            c = 0
            yield
    return c


def _t_MetadataResponse_0(o, w):
    c = 0
    x = o.brokers
    w.append(_I(len(x)))
    for e in x:
        _e_MetadataResponseBroker_0(e, w)
        c += 1
        if c >= 1000:
            c = 0
            yield
    x = o.topics
    w.append(_I(len(x)))
    for e in x:
        if e.__class__ is _Encoded:
            if e.encoder is not _e_MetadataResponseTopic_0:
                raise TypeError('MetadataResponseTopic encoded for another version')
            w.append(e.data)
        else:
            c = yield from _u_MetadataResponseTopic_0(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield


def _d_MetadataResponseBroker_1(b, p):
    o = _new(MetadataResponseBroker)
    o.node_id, = _S0.unpack_from(b, p)
    p += 4
    o.host, p = _rstr(b, p)
    o.port, = _S0.unpack_from(b, p)
    p += 4
    o.rack, p = _rnstr(b, p)
    o._unknown_tagged = None
    return o, p


def _d_MetadataResponseTopic_1(b, p):
    o = _new(MetadataResponseTopic)
    o.error_code, = _S1.unpack_from(b, p)
    p += 2
    o.name, p = _rstr(b, p)
    o.topic_id = ZERO_UUID
    o.is_internal, = _S3.unpack_from(b, p)
    p += 1
    n, p = _ral(b, p, 18)
    l = []
    for _ in range(n):
        e, p = _d_MetadataResponsePartition_0(b, p)
        l.append(e)
    o.partitions = l
    o.topic_authorized_operations = -2147483648
    o._unknown_tagged = None
    return o, p


def _d_MetadataResponse_1(b, p):
    o = _new(MetadataResponse)
    o.throttle_time_ms = 0
    n, p = _ral(b, p, 12)
    l = []
    for _ in range(n):
        e, p = _d_MetadataResponseBroker_1(b, p)
        l.append(e)
    o.brokers = l
    o.cluster_id = None
    o.controller_id, = _S0.unpack_from(b, p)
    p += 4
    n, p = _ral(b, p, 9)
    l = []
    for _ in range(n):
        e, p = _d_MetadataResponseTopic_1(b, p)
        l.append(e)
    o.topics = l
    o.cluster_authorized_operations = -2147483648
    o.error_code = 0
    o._unknown_tagged = None
    return o, p


def _e_MetadataResponseBroker_1(o, w):
    w.append(_S0.pack(o.node_id))
    _wstr(w, o.host)
    w.append(_S0.pack(o.port))
    _wnstr(w, o.rack)


def _e_MetadataResponseTopic_1(o, w):
    w.append(_S1.pack(o.error_code))
    _wstr(w, o.name)
    w.append(_S3.pack(o.is_internal))
    x = o.partitions
    w.append(_I(len(x)))
    for e in x:
        _e_MetadataResponsePartition_0(e, w)


def _e_MetadataResponse_1(o, w):
    x = o.brokers
    w.append(_I(len(x)))
    for e in x:
        _e_MetadataResponseBroker_1(e, w)
    w.append(_S0.pack(o.controller_id))
    x = o.topics
    w.append(_I(len(x)))
    for e in x:
        if e.__class__ is _Encoded:
            if e.encoder is not _e_MetadataResponseTopic_1:
                raise TypeError('MetadataResponseTopic encoded for another version')
            w.append(e.data)
        else:
            _e_MetadataResponseTopic_1(e, w)


def _u_MetadataResponseTopic_1(o, w, c):
    w.append(_S1.pack(o.error_code))
    _wstr(w, o.name)
    w.append(_S3.pack(o.is_internal))
    x = o.partitions
    w.append(_I(len(x)))
    for e in x:
        _e_MetadataResponsePartition_0(e, w)
        c += 1
        if c >= 1000:
            c = 0
            yield
    return c


def _t_MetadataResponse_1(o, w):
    c = 0
    x = o.brokers
    w.append(_I(len(x)))
    for e in x:
        _e_MetadataResponseBroker_1(e, w)
        c += 1
        if c >= 1000:
            c = 0
            yield
    w.append(_S0.pack(o.controller_id))
    x = o.topics
    w.append(_I(len(x)))
    for e in x:
        if e.__class__ is _Encoded:
            if e.encoder is not _e_MetadataResponseTopic_1:
                raise TypeError('MetadataResponseTopic encoded for another version')
            w.append(e.data)
        else:
            c = yield from _u_MetadataResponseTopic_1(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield


def _d_MetadataResponse_2(b, p):
    o = _new(MetadataResponse)
    o.throttle_time_ms = 0
    n, p = _ral(b, p, 12)
    l = []
    for _ in range(n):
        e, p = _d_MetadataResponseBroker_1(b, p)
        l.append(e)
    o.brokers = l
    o.cluster_id, p = _rnstr(b, p)
    o.controller_id, = _S0.unpack_from(b, p)
    p += 4
    n, p = _ral(b, p, 9)
    l = []
    for _ in range(n):
        e, p = _d_MetadataResponseTopic_1(b, p)
        l.append(e)
    o.topics = l
    o.cluster_authorized_operations = -2147483648
    o.error_code = 0
    o._unknown_tagged = None
    return o, p


def _e_MetadataResponse_2(o, w):
    x = o.brokers
    w.append(_I(len(x)))
    for e in x:
        _e_MetadataResponseBroker_1(e, w)
    _wnstr(w, o.cluster_id)
    w.append(_S0.pack(o.controller_id))
    x = o.topics
    w.append(_I(len(x)))
    for e in x:
        if e.__class__ is _Encoded:
            if e.encoder is not _e_MetadataResponseTopic_1:
                raise TypeError('MetadataResponseTopic encoded for another version')
            w.append(e.data)
        else:
            _e_MetadataResponseTopic_1(e, w)


def _t_MetadataResponse_2(o, w):
    c = 0
    x = o.brokers
    w.append(_I(len(x)))
    for e in x:
        _e_MetadataResponseBroker_1(e, w)
        c += 1
        if c >= 1000:
            c = 0
            yield
    _wnstr(w, o.cluster_id)
    w.append(_S0.pack(o.controller_id))
    x = o.topics
    w.append(_I(len(x)))
    for e in x:
        if e.__class__ is _Encoded:
            if e.encoder is not _e_MetadataResponseTopic_1:
                raise TypeError('MetadataResponseTopic encoded for another version')
            w.append(e.data)
        else:
            c = yield from _u_MetadataResponseTopic_1(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield


def _d_MetadataResponse_3(b, p):
    o = _new(MetadataResponse)
    o.throttle_time_ms, = _S0.unpack_from(b, p)
    p += 4
    n, p = _ral(b, p, 12)
    l = []
    for _ in range(n):
        e, p = _d_MetadataResponseBroker_1(b, p)
        l.append(e)
    o.brokers = l
    o.cluster_id, p = _rnstr(b, p)
    o.controller_id, = _S0.unpack_from(b, p)
    p += 4
    n, p = _ral(b, p, 9)
    l = []
    for _ in range(n):
        e, p = _d_MetadataResponseTopic_1(b, p)
        l.append(e)
    o.topics = l
    o.cluster_authorized_operations = -2147483648
    o.error_code = 0
    o._unknown_tagged = None
    return o, p


def _e_MetadataResponse_3(o, w):
    w.append(_S0.pack(o.throttle_time_ms))
    x = o.brokers
    w.append(_I(len(x)))
    for e in x:
        _e_MetadataResponseBroker_1(e, w)
    _wnstr(w, o.cluster_id)
    w.append(_S0.pack(o.controller_id))
    x = o.topics
    w.append(_I(len(x)))
    for e in x:
        if e.__class__ is _Encoded:
            if e.encoder is not _e_MetadataResponseTopic_1:
                raise TypeError('MetadataResponseTopic encoded for another version')
            w.append(e.data)
        else:
            _e_MetadataResponseTopic_1(e, w)


def _t_MetadataResponse_3(o, w):
    c = 0
    w.append(_S0.pack(o.throttle_time_ms))
    x = o.brokers
    w.append(_I(len(x)))
    for e in x:
        _e_MetadataResponseBroker_1(e, w)
        c += 1
        if c >= 1000:
            c = 0
            yield
    _wnstr(w, o.cluster_id)
    w.append(_S0.pack(o.controller_id))
    x = o.topics
    w.append(_I(len(x)))
    for e in x:
        if e.__class__ is _Encoded:
            if e.encoder is not _e_MetadataResponseTopic_1:
                raise TypeError('MetadataResponseTopic encoded for another version')
            w.append(e.data)
        else:
            c = yield from _u_MetadataResponseTopic_1(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield


def _d_MetadataResponsePartition_1(b, p):
    o = _new(MetadataResponsePartition)
    o.error_code, o.partition_index, o.leader_id = _S2.unpack_from(b, p)
    p += 10
    o.leader_epoch = -1
    n, p = _ral(b, p, 4)
    l = list((_ARR['i'][n] if n < 64 else _struct.Struct('>%di' % n)).unpack_from(b, p))
    p += 4 * n
    o.replica_nodes = l
    n, p = _ral(b, p, 4)
    l = list((_ARR['i'][n] if n < 64 else _struct.Struct('>%di' % n)).unpack_from(b, p))
    p += 4 * n
    o.isr_nodes = l
    n, p = _ral(b, p, 4)
    l = list((_ARR['i'][n] if n < 64 else _struct.Struct('>%di' % n)).unpack_from(b, p))
    p += 4 * n
    o.offline_replicas = l
    o._unknown_tagged = None
    return o, p


def _d_MetadataResponseTopic_2(b, p):
    o = _new(MetadataResponseTopic)
    o.error_code, = _S1.unpack_from(b, p)
    p += 2
    o.name, p = _rstr(b, p)
    o.topic_id = ZERO_UUID
    o.is_internal, = _S3.unpack_from(b, p)
    p += 1
    n, p = _ral(b, p, 22)
    l = []
    for _ in range(n):
        e, p = _d_MetadataResponsePartition_1(b, p)
        l.append(e)
    o.partitions = l
    o.topic_authorized_operations = -2147483648
    o._unknown_tagged = None
    return o, p


def _d_MetadataResponse_4(b, p):
    o = _new(MetadataResponse)
    o.throttle_time_ms, = _S0.unpack_from(b, p)
    p += 4
    n, p = _ral(b, p, 12)
    l = []
    for _ in range(n):
        e, p = _d_MetadataResponseBroker_1(b, p)
        l.append(e)
    o.brokers = l
    o.cluster_id, p = _rnstr(b, p)
    o.controller_id, = _S0.unpack_from(b, p)
    p += 4
    n, p = _ral(b, p, 9)
    l = []
    for _ in range(n):
        e, p = _d_MetadataResponseTopic_2(b, p)
        l.append(e)
    o.topics = l
    o.cluster_authorized_operations = -2147483648
    o.error_code = 0
    o._unknown_tagged = None
    return o, p


def _e_MetadataResponsePartition_1(o, w):
    w.append(_S2.pack(o.error_code, o.partition_index, o.leader_id))
    x = o.replica_nodes
    w.append(_I(len(x)))
    w.append(_pack('>%di' % len(x), *x))
    x = o.isr_nodes
    w.append(_I(len(x)))
    w.append(_pack('>%di' % len(x), *x))
    x = o.offline_replicas
    w.append(_I(len(x)))
    w.append(_pack('>%di' % len(x), *x))


def _e_MetadataResponseTopic_2(o, w):
    w.append(_S1.pack(o.error_code))
    _wstr(w, o.name)
    w.append(_S3.pack(o.is_internal))
    x = o.partitions
    w.append(_I(len(x)))
    for e in x:
        _e_MetadataResponsePartition_1(e, w)


def _e_MetadataResponse_4(o, w):
    w.append(_S0.pack(o.throttle_time_ms))
    x = o.brokers
    w.append(_I(len(x)))
    for e in x:
        _e_MetadataResponseBroker_1(e, w)
    _wnstr(w, o.cluster_id)
    w.append(_S0.pack(o.controller_id))
    x = o.topics
    w.append(_I(len(x)))
    for e in x:
        if e.__class__ is _Encoded:
            if e.encoder is not _e_MetadataResponseTopic_2:
                raise TypeError('MetadataResponseTopic encoded for another version')
            w.append(e.data)
        else:
            _e_MetadataResponseTopic_2(e, w)


def _u_MetadataResponseTopic_2(o, w, c):
    w.append(_S1.pack(o.error_code))
    _wstr(w, o.name)
    w.append(_S3.pack(o.is_internal))
    x = o.partitions
    w.append(_I(len(x)))
    for e in x:
        _e_MetadataResponsePartition_1(e, w)
        c += 1
        if c >= 1000:
            c = 0
            yield
    return c


def _t_MetadataResponse_4(o, w):
    c = 0
    w.append(_S0.pack(o.throttle_time_ms))
    x = o.brokers
    w.append(_I(len(x)))
    for e in x:
        _e_MetadataResponseBroker_1(e, w)
        c += 1
        if c >= 1000:
            c = 0
            yield
    _wnstr(w, o.cluster_id)
    w.append(_S0.pack(o.controller_id))
    x = o.topics
    w.append(_I(len(x)))
    for e in x:
        if e.__class__ is _Encoded:
            if e.encoder is not _e_MetadataResponseTopic_2:
                raise TypeError('MetadataResponseTopic encoded for another version')
            w.append(e.data)
        else:
            c = yield from _u_MetadataResponseTopic_2(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield


def _d_MetadataResponsePartition_2(b, p):
    o = _new(MetadataResponsePartition)
    o.error_code, o.partition_index, o.leader_id, o.leader_epoch = _S4.unpack_from(b, p)
    p += 14
    n, p = _ral(b, p, 4)
    l = list((_ARR['i'][n] if n < 64 else _struct.Struct('>%di' % n)).unpack_from(b, p))
    p += 4 * n
    o.replica_nodes = l
    n, p = _ral(b, p, 4)
    l = list((_ARR['i'][n] if n < 64 else _struct.Struct('>%di' % n)).unpack_from(b, p))
    p += 4 * n
    o.isr_nodes = l
    n, p = _ral(b, p, 4)
    l = list((_ARR['i'][n] if n < 64 else _struct.Struct('>%di' % n)).unpack_from(b, p))
    p += 4 * n
    o.offline_replicas = l
    o._unknown_tagged = None
    return o, p


def _d_MetadataResponseTopic_3(b, p):
    o = _new(MetadataResponseTopic)
    o.error_code, = _S1.unpack_from(b, p)
    p += 2
    o.name, p = _rstr(b, p)
    o.topic_id = ZERO_UUID
    o.is_internal, = _S3.unpack_from(b, p)
    p += 1
    n, p = _ral(b, p, 26)
    l = []
    for _ in range(n):
        e, p = _d_MetadataResponsePartition_2(b, p)
        l.append(e)
    o.partitions = l
    o.topic_authorized_operations = -2147483648
    o._unknown_tagged = None
    return o, p


def _d_MetadataResponse_5(b, p):
    o = _new(MetadataResponse)
    o.throttle_time_ms, = _S0.unpack_from(b, p)
    p += 4
    n, p = _ral(b, p, 12)
    l = []
    for _ in range(n):
        e, p = _d_MetadataResponseBroker_1(b, p)
        l.append(e)
    o.brokers = l
    o.cluster_id, p = _rnstr(b, p)
    o.controller_id, = _S0.unpack_from(b, p)
    p += 4
    n, p = _ral(b, p, 9)
    l = []
    for _ in range(n):
        e, p = _d_MetadataResponseTopic_3(b, p)
        l.append(e)
    o.topics = l
    o.cluster_authorized_operations = -2147483648
    o.error_code = 0
    o._unknown_tagged = None
    return o, p


def _e_MetadataResponsePartition_2(o, w):
    w.append(_S4.pack(o.error_code, o.partition_index, o.leader_id, o.leader_epoch))
    x = o.replica_nodes
    w.append(_I(len(x)))
    w.append(_pack('>%di' % len(x), *x))
    x = o.isr_nodes
    w.append(_I(len(x)))
    w.append(_pack('>%di' % len(x), *x))
    x = o.offline_replicas
    w.append(_I(len(x)))
    w.append(_pack('>%di' % len(x), *x))


def _e_MetadataResponseTopic_3(o, w):
    w.append(_S1.pack(o.error_code))
    _wstr(w, o.name)
    w.append(_S3.pack(o.is_internal))
    x = o.partitions
    w.append(_I(len(x)))
    for e in x:
        _e_MetadataResponsePartition_2(e, w)


def _e_MetadataResponse_5(o, w):
    w.append(_S0.pack(o.throttle_time_ms))
    x = o.brokers
    w.append(_I(len(x)))
    for e in x:
        _e_MetadataResponseBroker_1(e, w)
    _wnstr(w, o.cluster_id)
    w.append(_S0.pack(o.controller_id))
    x = o.topics
    w.append(_I(len(x)))
    for e in x:
        if e.__class__ is _Encoded:
            if e.encoder is not _e_MetadataResponseTopic_3:
                raise TypeError('MetadataResponseTopic encoded for another version')
            w.append(e.data)
        else:
            _e_MetadataResponseTopic_3(e, w)


def _u_MetadataResponseTopic_3(o, w, c):
    w.append(_S1.pack(o.error_code))
    _wstr(w, o.name)
    w.append(_S3.pack(o.is_internal))
    x = o.partitions
    w.append(_I(len(x)))
    for e in x:
        _e_MetadataResponsePartition_2(e, w)
        c += 1
        if c >= 1000:
            c = 0
            yield
    return c


def _t_MetadataResponse_5(o, w):
    c = 0
    w.append(_S0.pack(o.throttle_time_ms))
    x = o.brokers
    w.append(_I(len(x)))
    for e in x:
        _e_MetadataResponseBroker_1(e, w)
        c += 1
        if c >= 1000:
            c = 0
            yield
    _wnstr(w, o.cluster_id)
    w.append(_S0.pack(o.controller_id))
    x = o.topics
    w.append(_I(len(x)))
    for e in x:
        if e.__class__ is _Encoded:
            if e.encoder is not _e_MetadataResponseTopic_3:
                raise TypeError('MetadataResponseTopic encoded for another version')
            w.append(e.data)
        else:
            c = yield from _u_MetadataResponseTopic_3(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield


def _d_MetadataResponseTopic_4(b, p):
    o = _new(MetadataResponseTopic)
    o.error_code, = _S1.unpack_from(b, p)
    p += 2
    o.name, p = _rstr(b, p)
    o.topic_id = ZERO_UUID
    o.is_internal, = _S3.unpack_from(b, p)
    p += 1
    n, p = _ral(b, p, 26)
    l = []
    for _ in range(n):
        e, p = _d_MetadataResponsePartition_2(b, p)
        l.append(e)
    o.partitions = l
    o.topic_authorized_operations, = _S0.unpack_from(b, p)
    p += 4
    o._unknown_tagged = None
    return o, p


def _d_MetadataResponse_6(b, p):
    o = _new(MetadataResponse)
    o.throttle_time_ms, = _S0.unpack_from(b, p)
    p += 4
    n, p = _ral(b, p, 12)
    l = []
    for _ in range(n):
        e, p = _d_MetadataResponseBroker_1(b, p)
        l.append(e)
    o.brokers = l
    o.cluster_id, p = _rnstr(b, p)
    o.controller_id, = _S0.unpack_from(b, p)
    p += 4
    n, p = _ral(b, p, 13)
    l = []
    for _ in range(n):
        e, p = _d_MetadataResponseTopic_4(b, p)
        l.append(e)
    o.topics = l
    o.cluster_authorized_operations, = _S0.unpack_from(b, p)
    p += 4
    o.error_code = 0
    o._unknown_tagged = None
    return o, p


def _e_MetadataResponseTopic_4(o, w):
    w.append(_S1.pack(o.error_code))
    _wstr(w, o.name)
    w.append(_S3.pack(o.is_internal))
    x = o.partitions
    w.append(_I(len(x)))
    for e in x:
        _e_MetadataResponsePartition_2(e, w)
    w.append(_S0.pack(o.topic_authorized_operations))


def _e_MetadataResponse_6(o, w):
    w.append(_S0.pack(o.throttle_time_ms))
    x = o.brokers
    w.append(_I(len(x)))
    for e in x:
        _e_MetadataResponseBroker_1(e, w)
    _wnstr(w, o.cluster_id)
    w.append(_S0.pack(o.controller_id))
    x = o.topics
    w.append(_I(len(x)))
    for e in x:
        if e.__class__ is _Encoded:
            if e.encoder is not _e_MetadataResponseTopic_4:
                raise TypeError('MetadataResponseTopic encoded for another version')
            w.append(e.data)
        else:
            _e_MetadataResponseTopic_4(e, w)
    w.append(_S0.pack(o.cluster_authorized_operations))


def _u_MetadataResponseTopic_4(o, w, c):
    w.append(_S1.pack(o.error_code))
    _wstr(w, o.name)
    w.append(_S3.pack(o.is_internal))
    x = o.partitions
    w.append(_I(len(x)))
    for e in x:
        _e_MetadataResponsePartition_2(e, w)
        c += 1
        if c >= 1000:
            c = 0
            yield
    w.append(_S0.pack(o.topic_authorized_operations))
    return c


def _t_MetadataResponse_6(o, w):
    c = 0
    w.append(_S0.pack(o.throttle_time_ms))
    x = o.brokers
    w.append(_I(len(x)))
    for e in x:
        _e_MetadataResponseBroker_1(e, w)
        c += 1
        if c >= 1000:
            c = 0
            yield
    _wnstr(w, o.cluster_id)
    w.append(_S0.pack(o.controller_id))
    x = o.topics
    w.append(_I(len(x)))
    for e in x:
        if e.__class__ is _Encoded:
            if e.encoder is not _e_MetadataResponseTopic_4:
                raise TypeError('MetadataResponseTopic encoded for another version')
            w.append(e.data)
        else:
            c = yield from _u_MetadataResponseTopic_4(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield
    w.append(_S0.pack(o.cluster_authorized_operations))


def _d_MetadataResponseBroker_2(b, p):
    o = _new(MetadataResponseBroker)
    o.node_id, = _S0.unpack_from(b, p)
    p += 4
    o.host, p = _rcstr(b, p)
    o.port, = _S0.unpack_from(b, p)
    p += 4
    o.rack, p = _rcnstr(b, p)
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_MetadataResponsePartition_3(b, p):
    o = _new(MetadataResponsePartition)
    o.error_code, o.partition_index, o.leader_id, o.leader_epoch = _S4.unpack_from(b, p)
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


def _d_MetadataResponseTopic_5(b, p):
    o = _new(MetadataResponseTopic)
    o.error_code, = _S1.unpack_from(b, p)
    p += 2
    o.name, p = _rcstr(b, p)
    o.topic_id = ZERO_UUID
    o.is_internal, = _S3.unpack_from(b, p)
    p += 1
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 18)
    l = []
    for _ in range(n):
        e, p = _d_MetadataResponsePartition_3(b, p)
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


def _d_MetadataResponse_7(b, p):
    o = _new(MetadataResponse)
    o.throttle_time_ms, = _S0.unpack_from(b, p)
    p += 4
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 11)
    l = []
    for _ in range(n):
        e, p = _d_MetadataResponseBroker_2(b, p)
        l.append(e)
    o.brokers = l
    o.cluster_id, p = _rcnstr(b, p)
    o.controller_id, = _S0.unpack_from(b, p)
    p += 4
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 10)
    l = []
    for _ in range(n):
        e, p = _d_MetadataResponseTopic_5(b, p)
        l.append(e)
    o.topics = l
    o.cluster_authorized_operations, = _S0.unpack_from(b, p)
    p += 4
    o.error_code = 0
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_MetadataResponseBroker_2(o, w):
    w.append(_S0.pack(o.node_id))
    _wcstr(w, o.host)
    w.append(_S0.pack(o.port))
    _wcnstr(w, o.rack)
    _wtag(w, o._unknown_tagged)


def _e_MetadataResponsePartition_3(o, w):
    w.append(_S4.pack(o.error_code, o.partition_index, o.leader_id, o.leader_epoch))
    x = o.replica_nodes
    w.append(_uv(len(x) + 1))
    w.append(_pack('>%di' % len(x), *x))
    x = o.isr_nodes
    w.append(_uv(len(x) + 1))
    w.append(_pack('>%di' % len(x), *x))
    x = o.offline_replicas
    w.append(_uv(len(x) + 1))
    w.append(_pack('>%di' % len(x), *x))
    _wtag(w, o._unknown_tagged)


def _e_MetadataResponseTopic_5(o, w):
    w.append(_S1.pack(o.error_code))
    _wcstr(w, o.name)
    w.append(_S3.pack(o.is_internal))
    x = o.partitions
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_MetadataResponsePartition_3(e, w)
    w.append(_S0.pack(o.topic_authorized_operations))
    _wtag(w, o._unknown_tagged)


def _e_MetadataResponse_7(o, w):
    w.append(_S0.pack(o.throttle_time_ms))
    x = o.brokers
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_MetadataResponseBroker_2(e, w)
    _wcnstr(w, o.cluster_id)
    w.append(_S0.pack(o.controller_id))
    x = o.topics
    w.append(_uv(len(x) + 1))
    for e in x:
        if e.__class__ is _Encoded:
            if e.encoder is not _e_MetadataResponseTopic_5:
                raise TypeError('MetadataResponseTopic encoded for another version')
            w.append(e.data)
        else:
            _e_MetadataResponseTopic_5(e, w)
    w.append(_S0.pack(o.cluster_authorized_operations))
    _wtag(w, o._unknown_tagged)


def _u_MetadataResponseTopic_5(o, w, c):
    w.append(_S1.pack(o.error_code))
    _wcstr(w, o.name)
    w.append(_S3.pack(o.is_internal))
    x = o.partitions
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_MetadataResponsePartition_3(e, w)
        c += 1
        if c >= 1000:
            c = 0
            yield
    w.append(_S0.pack(o.topic_authorized_operations))
    _wtag(w, o._unknown_tagged)
    return c


def _t_MetadataResponse_7(o, w):
    c = 0
    w.append(_S0.pack(o.throttle_time_ms))
    x = o.brokers
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_MetadataResponseBroker_2(e, w)
        c += 1
        if c >= 1000:
            c = 0
            yield
    _wcnstr(w, o.cluster_id)
    w.append(_S0.pack(o.controller_id))
    x = o.topics
    w.append(_uv(len(x) + 1))
    for e in x:
        if e.__class__ is _Encoded:
            if e.encoder is not _e_MetadataResponseTopic_5:
                raise TypeError('MetadataResponseTopic encoded for another version')
            w.append(e.data)
        else:
            c = yield from _u_MetadataResponseTopic_5(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield
    w.append(_S0.pack(o.cluster_authorized_operations))
    _wtag(w, o._unknown_tagged)


def _d_MetadataResponseTopic_6(b, p):
    o = _new(MetadataResponseTopic)
    o.error_code, = _S1.unpack_from(b, p)
    p += 2
    o.name, p = _rcstr(b, p)
    o.topic_id, o.is_internal = _S5.unpack_from(b, p)
    p += 17
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 18)
    l = []
    for _ in range(n):
        e, p = _d_MetadataResponsePartition_3(b, p)
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


def _d_MetadataResponse_8(b, p):
    o = _new(MetadataResponse)
    o.throttle_time_ms, = _S0.unpack_from(b, p)
    p += 4
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 11)
    l = []
    for _ in range(n):
        e, p = _d_MetadataResponseBroker_2(b, p)
        l.append(e)
    o.brokers = l
    o.cluster_id, p = _rcnstr(b, p)
    o.controller_id, = _S0.unpack_from(b, p)
    p += 4
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 26)
    l = []
    for _ in range(n):
        e, p = _d_MetadataResponseTopic_6(b, p)
        l.append(e)
    o.topics = l
    o.cluster_authorized_operations, = _S0.unpack_from(b, p)
    p += 4
    o.error_code = 0
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_MetadataResponseTopic_6(o, w):
    w.append(_S1.pack(o.error_code))
    _wcstr(w, o.name)
    w.append(_S5.pack(o.topic_id, o.is_internal))
    x = o.partitions
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_MetadataResponsePartition_3(e, w)
    w.append(_S0.pack(o.topic_authorized_operations))
    _wtag(w, o._unknown_tagged)


def _e_MetadataResponse_8(o, w):
    w.append(_S0.pack(o.throttle_time_ms))
    x = o.brokers
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_MetadataResponseBroker_2(e, w)
    _wcnstr(w, o.cluster_id)
    w.append(_S0.pack(o.controller_id))
    x = o.topics
    w.append(_uv(len(x) + 1))
    for e in x:
        if e.__class__ is _Encoded:
            if e.encoder is not _e_MetadataResponseTopic_6:
                raise TypeError('MetadataResponseTopic encoded for another version')
            w.append(e.data)
        else:
            _e_MetadataResponseTopic_6(e, w)
    w.append(_S0.pack(o.cluster_authorized_operations))
    _wtag(w, o._unknown_tagged)


def _u_MetadataResponseTopic_6(o, w, c):
    w.append(_S1.pack(o.error_code))
    _wcstr(w, o.name)
    w.append(_S5.pack(o.topic_id, o.is_internal))
    x = o.partitions
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_MetadataResponsePartition_3(e, w)
        c += 1
        if c >= 1000:
            c = 0
            yield
    w.append(_S0.pack(o.topic_authorized_operations))
    _wtag(w, o._unknown_tagged)
    return c


def _t_MetadataResponse_8(o, w):
    c = 0
    w.append(_S0.pack(o.throttle_time_ms))
    x = o.brokers
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_MetadataResponseBroker_2(e, w)
        c += 1
        if c >= 1000:
            c = 0
            yield
    _wcnstr(w, o.cluster_id)
    w.append(_S0.pack(o.controller_id))
    x = o.topics
    w.append(_uv(len(x) + 1))
    for e in x:
        if e.__class__ is _Encoded:
            if e.encoder is not _e_MetadataResponseTopic_6:
                raise TypeError('MetadataResponseTopic encoded for another version')
            w.append(e.data)
        else:
            c = yield from _u_MetadataResponseTopic_6(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield
    w.append(_S0.pack(o.cluster_authorized_operations))
    _wtag(w, o._unknown_tagged)


def _d_MetadataResponse_9(b, p):
    o = _new(MetadataResponse)
    o.throttle_time_ms, = _S0.unpack_from(b, p)
    p += 4
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 11)
    l = []
    for _ in range(n):
        e, p = _d_MetadataResponseBroker_2(b, p)
        l.append(e)
    o.brokers = l
    o.cluster_id, p = _rcnstr(b, p)
    o.controller_id, = _S0.unpack_from(b, p)
    p += 4
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 26)
    l = []
    for _ in range(n):
        e, p = _d_MetadataResponseTopic_6(b, p)
        l.append(e)
    o.topics = l
    o.cluster_authorized_operations = -2147483648
    o.error_code = 0
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_MetadataResponse_9(o, w):
    w.append(_S0.pack(o.throttle_time_ms))
    x = o.brokers
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_MetadataResponseBroker_2(e, w)
    _wcnstr(w, o.cluster_id)
    w.append(_S0.pack(o.controller_id))
    x = o.topics
    w.append(_uv(len(x) + 1))
    for e in x:
        if e.__class__ is _Encoded:
            if e.encoder is not _e_MetadataResponseTopic_6:
                raise TypeError('MetadataResponseTopic encoded for another version')
            w.append(e.data)
        else:
            _e_MetadataResponseTopic_6(e, w)
    _wtag(w, o._unknown_tagged)


def _t_MetadataResponse_9(o, w):
    c = 0
    w.append(_S0.pack(o.throttle_time_ms))
    x = o.brokers
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_MetadataResponseBroker_2(e, w)
        c += 1
        if c >= 1000:
            c = 0
            yield
    _wcnstr(w, o.cluster_id)
    w.append(_S0.pack(o.controller_id))
    x = o.topics
    w.append(_uv(len(x) + 1))
    for e in x:
        if e.__class__ is _Encoded:
            if e.encoder is not _e_MetadataResponseTopic_6:
                raise TypeError('MetadataResponseTopic encoded for another version')
            w.append(e.data)
        else:
            c = yield from _u_MetadataResponseTopic_6(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield
    _wtag(w, o._unknown_tagged)


def _d_MetadataResponseTopic_7(b, p):
    o = _new(MetadataResponseTopic)
    o.error_code, = _S1.unpack_from(b, p)
    p += 2
    o.name, p = _rcnstr(b, p)
    o.topic_id, o.is_internal = _S5.unpack_from(b, p)
    p += 17
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 18)
    l = []
    for _ in range(n):
        e, p = _d_MetadataResponsePartition_3(b, p)
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


def _d_MetadataResponse_10(b, p):
    o = _new(MetadataResponse)
    o.throttle_time_ms, = _S0.unpack_from(b, p)
    p += 4
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 11)
    l = []
    for _ in range(n):
        e, p = _d_MetadataResponseBroker_2(b, p)
        l.append(e)
    o.brokers = l
    o.cluster_id, p = _rcnstr(b, p)
    o.controller_id, = _S0.unpack_from(b, p)
    p += 4
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 26)
    l = []
    for _ in range(n):
        e, p = _d_MetadataResponseTopic_7(b, p)
        l.append(e)
    o.topics = l
    o.cluster_authorized_operations = -2147483648
    o.error_code = 0
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_MetadataResponseTopic_7(o, w):
    w.append(_S1.pack(o.error_code))
    _wcnstr(w, o.name)
    w.append(_S5.pack(o.topic_id, o.is_internal))
    x = o.partitions
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_MetadataResponsePartition_3(e, w)
    w.append(_S0.pack(o.topic_authorized_operations))
    _wtag(w, o._unknown_tagged)


def _e_MetadataResponse_10(o, w):
    w.append(_S0.pack(o.throttle_time_ms))
    x = o.brokers
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_MetadataResponseBroker_2(e, w)
    _wcnstr(w, o.cluster_id)
    w.append(_S0.pack(o.controller_id))
    x = o.topics
    w.append(_uv(len(x) + 1))
    for e in x:
        if e.__class__ is _Encoded:
            if e.encoder is not _e_MetadataResponseTopic_7:
                raise TypeError('MetadataResponseTopic encoded for another version')
            w.append(e.data)
        else:
            _e_MetadataResponseTopic_7(e, w)
    _wtag(w, o._unknown_tagged)


def _u_MetadataResponseTopic_7(o, w, c):
    w.append(_S1.pack(o.error_code))
    _wcnstr(w, o.name)
    w.append(_S5.pack(o.topic_id, o.is_internal))
    x = o.partitions
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_MetadataResponsePartition_3(e, w)
        c += 1
        if c >= 1000:
            c = 0
            yield
    w.append(_S0.pack(o.topic_authorized_operations))
    _wtag(w, o._unknown_tagged)
    return c


def _t_MetadataResponse_10(o, w):
    c = 0
    w.append(_S0.pack(o.throttle_time_ms))
    x = o.brokers
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_MetadataResponseBroker_2(e, w)
        c += 1
        if c >= 1000:
            c = 0
            yield
    _wcnstr(w, o.cluster_id)
    w.append(_S0.pack(o.controller_id))
    x = o.topics
    w.append(_uv(len(x) + 1))
    for e in x:
        if e.__class__ is _Encoded:
            if e.encoder is not _e_MetadataResponseTopic_7:
                raise TypeError('MetadataResponseTopic encoded for another version')
            w.append(e.data)
        else:
            c = yield from _u_MetadataResponseTopic_7(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield
    _wtag(w, o._unknown_tagged)


def _d_MetadataResponse_11(b, p):
    o = _new(MetadataResponse)
    o.throttle_time_ms, = _S0.unpack_from(b, p)
    p += 4
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 11)
    l = []
    for _ in range(n):
        e, p = _d_MetadataResponseBroker_2(b, p)
        l.append(e)
    o.brokers = l
    o.cluster_id, p = _rcnstr(b, p)
    o.controller_id, = _S0.unpack_from(b, p)
    p += 4
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 26)
    l = []
    for _ in range(n):
        e, p = _d_MetadataResponseTopic_7(b, p)
        l.append(e)
    o.topics = l
    o.cluster_authorized_operations = -2147483648
    o.error_code, = _S1.unpack_from(b, p)
    p += 2
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_MetadataResponse_11(o, w):
    w.append(_S0.pack(o.throttle_time_ms))
    x = o.brokers
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_MetadataResponseBroker_2(e, w)
    _wcnstr(w, o.cluster_id)
    w.append(_S0.pack(o.controller_id))
    x = o.topics
    w.append(_uv(len(x) + 1))
    for e in x:
        if e.__class__ is _Encoded:
            if e.encoder is not _e_MetadataResponseTopic_7:
                raise TypeError('MetadataResponseTopic encoded for another version')
            w.append(e.data)
        else:
            _e_MetadataResponseTopic_7(e, w)
    w.append(_S1.pack(o.error_code))
    _wtag(w, o._unknown_tagged)


def _t_MetadataResponse_11(o, w):
    c = 0
    w.append(_S0.pack(o.throttle_time_ms))
    x = o.brokers
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_MetadataResponseBroker_2(e, w)
        c += 1
        if c >= 1000:
            c = 0
            yield
    _wcnstr(w, o.cluster_id)
    w.append(_S0.pack(o.controller_id))
    x = o.topics
    w.append(_uv(len(x) + 1))
    for e in x:
        if e.__class__ is _Encoded:
            if e.encoder is not _e_MetadataResponseTopic_7:
                raise TypeError('MetadataResponseTopic encoded for another version')
            w.append(e.data)
        else:
            c = yield from _u_MetadataResponseTopic_7(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield
    w.append(_S1.pack(o.error_code))
    _wtag(w, o._unknown_tagged)


MetadataResponse._DECODERS = {0: _d_MetadataResponse_0, 1: _d_MetadataResponse_1, 2: _d_MetadataResponse_2, 3: _d_MetadataResponse_3, 4: _d_MetadataResponse_3, 5: _d_MetadataResponse_4, 6: _d_MetadataResponse_4, 7: _d_MetadataResponse_5, 8: _d_MetadataResponse_6, 9: _d_MetadataResponse_7, 10: _d_MetadataResponse_8, 11: _d_MetadataResponse_9, 12: _d_MetadataResponse_10, 13: _d_MetadataResponse_11}
MetadataResponse._ENCODERS = {0: _e_MetadataResponse_0, 1: _e_MetadataResponse_1, 2: _e_MetadataResponse_2, 3: _e_MetadataResponse_3, 4: _e_MetadataResponse_3, 5: _e_MetadataResponse_4, 6: _e_MetadataResponse_4, 7: _e_MetadataResponse_5, 8: _e_MetadataResponse_6, 9: _e_MetadataResponse_7, 10: _e_MetadataResponse_8, 11: _e_MetadataResponse_9, 12: _e_MetadataResponse_10, 13: _e_MetadataResponse_11}
MetadataResponse._ENCODE_STEPS = {0: _t_MetadataResponse_0, 1: _t_MetadataResponse_1, 2: _t_MetadataResponse_2, 3: _t_MetadataResponse_3, 4: _t_MetadataResponse_3, 5: _t_MetadataResponse_4, 6: _t_MetadataResponse_4, 7: _t_MetadataResponse_5, 8: _t_MetadataResponse_6, 9: _t_MetadataResponse_7, 10: _t_MetadataResponse_8, 11: _t_MetadataResponse_9, 12: _t_MetadataResponse_10, 13: _t_MetadataResponse_11}
MetadataResponseTopic._ENCODERS = {0: _e_MetadataResponseTopic_0, 1: _e_MetadataResponseTopic_1, 2: _e_MetadataResponseTopic_1, 3: _e_MetadataResponseTopic_1, 4: _e_MetadataResponseTopic_1, 5: _e_MetadataResponseTopic_2, 6: _e_MetadataResponseTopic_2, 7: _e_MetadataResponseTopic_3, 8: _e_MetadataResponseTopic_4, 9: _e_MetadataResponseTopic_5, 10: _e_MetadataResponseTopic_6, 11: _e_MetadataResponseTopic_6, 12: _e_MetadataResponseTopic_7, 13: _e_MetadataResponseTopic_7}
