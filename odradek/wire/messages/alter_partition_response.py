"""Generated from Kafka's AlterPartitionResponse.json by tools/gen_wire.py. Do not edit."""
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

_S0 = _struct.Struct('>ih')
_S1 = _struct.Struct('>16s')
_S2 = _struct.Struct('>ihii')
_S3 = _struct.Struct('>bi')


class PartitionData(Message):
    __slots__ = ('partition_index', 'error_code', 'leader_id', 'leader_epoch', 'isr', 'leader_recovery_state', 'partition_epoch', '_unknown_tagged')
    _FIELDS = (('partition_index', 'int32', 0, 32767, -1, -1, None, -1, None), ('error_code', 'int16', 0, 32767, -1, -1, None, -1, None), ('leader_id', 'int32', 0, 32767, -1, -1, None, -1, None), ('leader_epoch', 'int32', 0, 32767, -1, -1, None, -1, None), ('isr', '[]int32', 0, 32767, -1, -1, None, -1, None), ('leader_recovery_state', 'int8', 1, 32767, -1, -1, None, -1, None), ('partition_epoch', 'int32', 0, 32767, -1, -1, None, -1, None))

    def __init__(self, *, partition_index=0, error_code=0, leader_id=0, leader_epoch=0, isr=DEFAULT, leader_recovery_state=0, partition_epoch=0, _unknown_tagged=None):
        self.partition_index = partition_index
        self.error_code = error_code
        self.leader_id = leader_id
        self.leader_epoch = leader_epoch
        self.isr = [] if isr is DEFAULT else isr
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


class AlterPartitionResponse(Message):
    __slots__ = ('throttle_time_ms', 'error_code', 'topics', '_unknown_tagged')
    _FIELDS = (('throttle_time_ms', 'int32', 0, 32767, -1, -1, None, -1, None), ('error_code', 'int16', 0, 32767, -1, -1, None, -1, None), ('topics', '[]TopicData', 0, 32767, -1, -1, None, -1, 'TopicData'))
    API_KEY = 56
    VALID_VERSIONS = (2, 3)
    FLEXIBLE_MIN = 0

    def __init__(self, *, throttle_time_ms=0, error_code=0, topics=DEFAULT, _unknown_tagged=None):
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.topics = [] if topics is DEFAULT else topics
        self._unknown_tagged = _unknown_tagged



def _d_PartitionData_0(b, p):
    o = _new(PartitionData)
    o.partition_index, o.error_code, o.leader_id, o.leader_epoch = _S2.unpack_from(b, p)
    p += 14
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 4)
    l = list((_ARR['i'][n] if n < 64 else _struct.Struct('>%di' % n)).unpack_from(b, p))
    p += 4 * n
    o.isr = l
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
        n, p = _rcal(b, p, 21)
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


def _d_AlterPartitionResponse_0(b, p):
    o = _new(AlterPartitionResponse)
    o.throttle_time_ms, o.error_code = _S0.unpack_from(b, p)
    p += 6
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
    w.append(_S2.pack(o.partition_index, o.error_code, o.leader_id, o.leader_epoch))
    x = o.isr
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


def _e_AlterPartitionResponse_0(o, w):
    w.append(_S0.pack(o.throttle_time_ms, o.error_code))
    x = o.topics
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_TopicData_0(e, w)
    _wtag(w, o._unknown_tagged)


AlterPartitionResponse._DECODERS = {2: _d_AlterPartitionResponse_0, 3: _d_AlterPartitionResponse_0}
AlterPartitionResponse._ENCODERS = {2: _e_AlterPartitionResponse_0, 3: _e_AlterPartitionResponse_0}
