"""Generated from Kafka's AlterPartitionRequest.json by tools/gen_wire.py. Do not edit."""
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
_S1 = _struct.Struct('>16s')
_S2 = _struct.Struct('>ii')
_S3 = _struct.Struct('>bi')


class BrokerState(Message):
    __slots__ = ('broker_id', 'broker_epoch', '_unknown_tagged')
    _FIELDS = (('broker_id', 'int32', 3, 32767, -1, -1, None, -1, None), ('broker_epoch', 'int64', 3, 32767, -1, -1, None, -1, None))

    def __init__(self, *, broker_id=0, broker_epoch=-1, _unknown_tagged=None):
        self.broker_id = broker_id
        self.broker_epoch = broker_epoch
        self._unknown_tagged = _unknown_tagged


class PartitionData(Message):
    __slots__ = ('partition_index', 'leader_epoch', 'new_isr', 'new_isr_with_epochs', 'leader_recovery_state', 'partition_epoch', '_unknown_tagged')
    _FIELDS = (('partition_index', 'int32', 0, 32767, -1, -1, None, -1, None), ('leader_epoch', 'int32', 0, 32767, -1, -1, None, -1, None), ('new_isr', '[]int32', 0, 2, -1, -1, None, -1, None), ('new_isr_with_epochs', '[]BrokerState', 3, 32767, -1, -1, None, -1, 'BrokerState'), ('leader_recovery_state', 'int8', 1, 32767, -1, -1, None, -1, None), ('partition_epoch', 'int32', 0, 32767, -1, -1, None, -1, None))

    def __init__(self, *, partition_index=0, leader_epoch=0, new_isr=DEFAULT, new_isr_with_epochs=DEFAULT, leader_recovery_state=0, partition_epoch=0, _unknown_tagged=None):
        self.partition_index = partition_index
        self.leader_epoch = leader_epoch
        self.new_isr = [] if new_isr is DEFAULT else new_isr
        self.new_isr_with_epochs = [] if new_isr_with_epochs is DEFAULT else new_isr_with_epochs
        self.leader_recovery_state = leader_recovery_state
        self.partition_epoch = partition_epoch
        self._unknown_tagged = _unknown_tagged


class TopicData(Message):
    __slots__ = ('topic_id', 'partitions', '_unknown_tagged')
    _FIELDS = (('topic_id', 'uuid', 2, 32767, -1, -1, None, -1, None), ('partitions', '[]PartitionData', 0, 32767, -1, -1, None, -1, 'PartitionData'))

    def __init__(self, *, topic_id=ZERO_UUID, partitions=DEFAULT, _unknown_tagged=None):
        self.topic_id = topic_id
        self.partitions = [] if partitions is DEFAULT else partitions
        self._unknown_tagged = _unknown_tagged


class AlterPartitionRequest(Message):
    __slots__ = ('broker_id', 'broker_epoch', 'topics', '_unknown_tagged')
    _FIELDS = (('broker_id', 'int32', 0, 32767, -1, -1, None, -1, None), ('broker_epoch', 'int64', 0, 32767, -1, -1, None, -1, None), ('topics', '[]TopicData', 0, 32767, -1, -1, None, -1, 'TopicData'))
    API_KEY = 56
    VALID_VERSIONS = (2, 3)
    FLEXIBLE_MIN = 0

    def __init__(self, *, broker_id=0, broker_epoch=-1, topics=DEFAULT, _unknown_tagged=None):
        self.broker_id = broker_id
        self.broker_epoch = broker_epoch
        self.topics = [] if topics is DEFAULT else topics
        self._unknown_tagged = _unknown_tagged



def _d_PartitionData_0(b, p):
    o = _new(PartitionData)
    o.partition_index, o.leader_epoch = _S2.unpack_from(b, p)
    p += 8
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 4)
    l = list((_ARR['i'][n] if n < 64 else _struct.Struct('>%di' % n)).unpack_from(b, p))
    p += 4 * n
    o.new_isr = l
    o.new_isr_with_epochs = []
    o.leader_recovery_state, o.partition_epoch = _S3.unpack_from(b, p)
    p += 5
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_TopicData_0(b, p):
    o = _new(TopicData)
    o.topic_id, = _S1.unpack_from(b, p)
    p += 16
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 15)
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


def _d_AlterPartitionRequest_0(b, p):
    o = _new(AlterPartitionRequest)
    o.broker_id, o.broker_epoch = _S0.unpack_from(b, p)
    p += 12
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 18)
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
    w.append(_S2.pack(o.partition_index, o.leader_epoch))
    x = o.new_isr
    w.append(_uv(len(x) + 1))
    w.append(_pack('>%di' % len(x), *x))
    w.append(_S3.pack(o.leader_recovery_state, o.partition_epoch))
    _wtag(w, o._unknown_tagged)


def _e_TopicData_0(o, w):
    w.append(_S1.pack(o.topic_id))
    x = o.partitions
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_PartitionData_0(e, w)
    _wtag(w, o._unknown_tagged)


def _e_AlterPartitionRequest_0(o, w):
    w.append(_S0.pack(o.broker_id, o.broker_epoch))
    x = o.topics
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_TopicData_0(e, w)
    _wtag(w, o._unknown_tagged)


def _d_BrokerState_0(b, p):
    o = _new(BrokerState)
    o.broker_id, o.broker_epoch = _S0.unpack_from(b, p)
    p += 12
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_PartitionData_1(b, p):
    o = _new(PartitionData)
    o.partition_index, o.leader_epoch = _S2.unpack_from(b, p)
    p += 8
    o.new_isr = []
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 13)
    l = []
    for _ in range(n):
        e, p = _d_BrokerState_0(b, p)
        l.append(e)
    o.new_isr_with_epochs = l
    o.leader_recovery_state, o.partition_epoch = _S3.unpack_from(b, p)
    p += 5
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_TopicData_1(b, p):
    o = _new(TopicData)
    o.topic_id, = _S1.unpack_from(b, p)
    p += 16
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


def _d_AlterPartitionRequest_1(b, p):
    o = _new(AlterPartitionRequest)
    o.broker_id, o.broker_epoch = _S0.unpack_from(b, p)
    p += 12
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 18)
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


def _e_BrokerState_0(o, w):
    w.append(_S0.pack(o.broker_id, o.broker_epoch))
    _wtag(w, o._unknown_tagged)


def _e_PartitionData_1(o, w):
    w.append(_S2.pack(o.partition_index, o.leader_epoch))
    x = o.new_isr_with_epochs
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_BrokerState_0(e, w)
    w.append(_S3.pack(o.leader_recovery_state, o.partition_epoch))
    _wtag(w, o._unknown_tagged)


def _e_TopicData_1(o, w):
    w.append(_S1.pack(o.topic_id))
    x = o.partitions
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_PartitionData_1(e, w)
    _wtag(w, o._unknown_tagged)


def _e_AlterPartitionRequest_1(o, w):
    w.append(_S0.pack(o.broker_id, o.broker_epoch))
    x = o.topics
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_TopicData_1(e, w)
    _wtag(w, o._unknown_tagged)


AlterPartitionRequest._DECODERS = {2: _d_AlterPartitionRequest_0, 3: _d_AlterPartitionRequest_1}
AlterPartitionRequest._ENCODERS = {2: _e_AlterPartitionRequest_0, 3: _e_AlterPartitionRequest_1}
