"""Generated from Kafka's ProduceRequest.json by tools/gen_wire.py. Do not edit."""
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

_S0 = _struct.Struct('>hi')
_S1 = _struct.Struct('>i')
_S2 = _struct.Struct('>16s')


class PartitionProduceData(Message):
    __slots__ = ('index', 'records', '_unknown_tagged')
    _FIELDS = (('index', 'int32', 0, 32767, -1, -1, None, -1, None), ('records', 'records', 0, 32767, 0, 32767, None, -1, None))

    def __init__(self, *, index=0, records=None, _unknown_tagged=None):
        self.index = index
        self.records = records
        self._unknown_tagged = _unknown_tagged


class TopicProduceData(Message):
    __slots__ = ('name', 'topic_id', 'partition_data', '_unknown_tagged')
    _FIELDS = (('name', 'string', 0, 12, -1, -1, None, -1, None), ('topic_id', 'uuid', 13, 32767, -1, -1, None, -1, None), ('partition_data', '[]PartitionProduceData', 0, 32767, -1, -1, None, -1, 'PartitionProduceData'))

    def __init__(self, *, name='', topic_id=ZERO_UUID, partition_data=DEFAULT, _unknown_tagged=None):
        self.name = name
        self.topic_id = topic_id
        self.partition_data = [] if partition_data is DEFAULT else partition_data
        self._unknown_tagged = _unknown_tagged


class ProduceRequest(Message):
    __slots__ = ('transactional_id', 'acks', 'timeout_ms', 'topic_data', '_unknown_tagged')
    _FIELDS = (('transactional_id', 'string', 3, 32767, 3, 32767, None, -1, None), ('acks', 'int16', 0, 32767, -1, -1, None, -1, None), ('timeout_ms', 'int32', 0, 32767, -1, -1, None, -1, None), ('topic_data', '[]TopicProduceData', 0, 32767, -1, -1, None, -1, 'TopicProduceData'))
    API_KEY = 0
    VALID_VERSIONS = (3, 13)
    FLEXIBLE_MIN = 9

    def __init__(self, *, transactional_id=None, acks=0, timeout_ms=0, topic_data=DEFAULT, _unknown_tagged=None):
        self.transactional_id = transactional_id
        self.acks = acks
        self.timeout_ms = timeout_ms
        self.topic_data = [] if topic_data is DEFAULT else topic_data
        self._unknown_tagged = _unknown_tagged



def _d_PartitionProduceData_0(b, p):
    o = _new(PartitionProduceData)
    o.index, = _S1.unpack_from(b, p)
    p += 4
    o.records, p = _rrec(b, p)
    o._unknown_tagged = None
    return o, p


def _d_TopicProduceData_0(b, p):
    o = _new(TopicProduceData)
    o.name, p = _rstr(b, p)
    o.topic_id = ZERO_UUID
    n, p = _ral(b, p, 8)
    l = []
    for _ in range(n):
        e, p = _d_PartitionProduceData_0(b, p)
        l.append(e)
    o.partition_data = l
    o._unknown_tagged = None
    return o, p


def _d_ProduceRequest_0(b, p):
    o = _new(ProduceRequest)
    o.transactional_id, p = _rnstr(b, p)
    o.acks, o.timeout_ms = _S0.unpack_from(b, p)
    p += 6
    n, p = _ral(b, p, 6)
    l = []
    for _ in range(n):
        e, p = _d_TopicProduceData_0(b, p)
        l.append(e)
    o.topic_data = l
    o._unknown_tagged = None
    return o, p


def _e_PartitionProduceData_0(o, w):
    w.append(_S1.pack(o.index))
    _wnbyt(w, o.records)


def _e_TopicProduceData_0(o, w):
    _wstr(w, o.name)
    x = o.partition_data
    w.append(_I(len(x)))
    for e in x:
        _e_PartitionProduceData_0(e, w)


def _e_ProduceRequest_0(o, w):
    _wnstr(w, o.transactional_id)
    w.append(_S0.pack(o.acks, o.timeout_ms))
    x = o.topic_data
    w.append(_I(len(x)))
    for e in x:
        _e_TopicProduceData_0(e, w)


def _d_PartitionProduceData_1(b, p):
    o = _new(PartitionProduceData)
    o.index, = _S1.unpack_from(b, p)
    p += 4
    o.records, p = _rcrec(b, p)
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_TopicProduceData_1(b, p):
    o = _new(TopicProduceData)
    o.name, p = _rcstr(b, p)
    o.topic_id = ZERO_UUID
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 6)
    l = []
    for _ in range(n):
        e, p = _d_PartitionProduceData_1(b, p)
        l.append(e)
    o.partition_data = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_ProduceRequest_1(b, p):
    o = _new(ProduceRequest)
    o.transactional_id, p = _rcnstr(b, p)
    o.acks, o.timeout_ms = _S0.unpack_from(b, p)
    p += 6
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 3)
    l = []
    for _ in range(n):
        e, p = _d_TopicProduceData_1(b, p)
        l.append(e)
    o.topic_data = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_PartitionProduceData_1(o, w):
    w.append(_S1.pack(o.index))
    _wcnbyt(w, o.records)
    _wtag(w, o._unknown_tagged)


def _e_TopicProduceData_1(o, w):
    _wcstr(w, o.name)
    x = o.partition_data
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_PartitionProduceData_1(e, w)
    _wtag(w, o._unknown_tagged)


def _e_ProduceRequest_1(o, w):
    _wcnstr(w, o.transactional_id)
    w.append(_S0.pack(o.acks, o.timeout_ms))
    x = o.topic_data
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_TopicProduceData_1(e, w)
    _wtag(w, o._unknown_tagged)


def _d_TopicProduceData_2(b, p):
    o = _new(TopicProduceData)
    o.name = ''
    o.topic_id, = _S2.unpack_from(b, p)
    p += 16
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 6)
    l = []
    for _ in range(n):
        e, p = _d_PartitionProduceData_1(b, p)
        l.append(e)
    o.partition_data = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_ProduceRequest_2(b, p):
    o = _new(ProduceRequest)
    o.transactional_id, p = _rcnstr(b, p)
    o.acks, o.timeout_ms = _S0.unpack_from(b, p)
    p += 6
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 18)
    l = []
    for _ in range(n):
        e, p = _d_TopicProduceData_2(b, p)
        l.append(e)
    o.topic_data = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_TopicProduceData_2(o, w):
    w.append(_S2.pack(o.topic_id))
    x = o.partition_data
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_PartitionProduceData_1(e, w)
    _wtag(w, o._unknown_tagged)


def _e_ProduceRequest_2(o, w):
    _wcnstr(w, o.transactional_id)
    w.append(_S0.pack(o.acks, o.timeout_ms))
    x = o.topic_data
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_TopicProduceData_2(e, w)
    _wtag(w, o._unknown_tagged)


ProduceRequest._DECODERS = {3: _d_ProduceRequest_0, 4: _d_ProduceRequest_0, 5: _d_ProduceRequest_0, 6: _d_ProduceRequest_0, 7: _d_ProduceRequest_0, 8: _d_ProduceRequest_0, 9: _d_ProduceRequest_1, 10: _d_ProduceRequest_1, 11: _d_ProduceRequest_1, 12: _d_ProduceRequest_1, 13: _d_ProduceRequest_2}
ProduceRequest._ENCODERS = {3: _e_ProduceRequest_0, 4: _e_ProduceRequest_0, 5: _e_ProduceRequest_0, 6: _e_ProduceRequest_0, 7: _e_ProduceRequest_0, 8: _e_ProduceRequest_0, 9: _e_ProduceRequest_1, 10: _e_ProduceRequest_1, 11: _e_ProduceRequest_1, 12: _e_ProduceRequest_1, 13: _e_ProduceRequest_2}
