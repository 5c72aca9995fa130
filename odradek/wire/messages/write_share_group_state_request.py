"""Generated from Kafka's WriteShareGroupStateRequest.json by tools/gen_wire.py. Do not edit."""
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

_S0 = _struct.Struct('>16s')
_S1 = _struct.Struct('>iiiq')
_S2 = _struct.Struct('>qqbh')
_S3 = _struct.Struct('>iiiqi')


class StateBatch(Message):
    __slots__ = ('first_offset', 'last_offset', 'delivery_state', 'delivery_count', '_unknown_tagged')
    _FIELDS = (('first_offset', 'int64', 0, 32767, -1, -1, None, -1, None), ('last_offset', 'int64', 0, 32767, -1, -1, None, -1, None), ('delivery_state', 'int8', 0, 32767, -1, -1, None, -1, None), ('delivery_count', 'int16', 0, 32767, -1, -1, None, -1, None))

    def __init__(self, *, first_offset=0, last_offset=0, delivery_state=0, delivery_count=0, _unknown_tagged=None):
        self.first_offset = first_offset
        self.last_offset = last_offset
        self.delivery_state = delivery_state
        self.delivery_count = delivery_count
        self._unknown_tagged = _unknown_tagged


class PartitionData(Message):
    __slots__ = ('partition', 'state_epoch', 'leader_epoch', 'start_offset', 'delivery_complete_count', 'state_batches', '_unknown_tagged')
    _FIELDS = (('partition', 'int32', 0, 32767, -1, -1, None, -1, None), ('state_epoch', 'int32', 0, 32767, -1, -1, None, -1, None), ('leader_epoch', 'int32', 0, 32767, -1, -1, None, -1, None), ('start_offset', 'int64', 0, 32767, -1, -1, None, -1, None), ('delivery_complete_count', 'int32', 1, 32767, -1, -1, None, -1, None), ('state_batches', '[]StateBatch', 0, 32767, -1, -1, None, -1, 'StateBatch'))

    def __init__(self, *, partition=0, state_epoch=0, leader_epoch=0, start_offset=0, delivery_complete_count=-1, state_batches=DEFAULT, _unknown_tagged=None):
        self.partition = partition
        self.state_epoch = state_epoch
        self.leader_epoch = leader_epoch
        self.start_offset = start_offset
        self.delivery_complete_count = delivery_complete_count
        self.state_batches = [] if state_batches is DEFAULT else state_batches
        self._unknown_tagged = _unknown_tagged


class WriteStateData(Message):
    __slots__ = ('topic_id', 'partitions', '_unknown_tagged')
    _FIELDS = (('topic_id', 'uuid', 0, 32767, -1, -1, None, -1, None), ('partitions', '[]PartitionData', 0, 32767, -1, -1, None, -1, 'PartitionData'))

    def __init__(self, *, topic_id=ZERO_UUID, partitions=DEFAULT, _unknown_tagged=None):
        self.topic_id = topic_id
        self.partitions = [] if partitions is DEFAULT else partitions
        self._unknown_tagged = _unknown_tagged


class WriteShareGroupStateRequest(Message):
    __slots__ = ('group_id', 'topics', '_unknown_tagged')
    _FIELDS = (('group_id', 'string', 0, 32767, -1, -1, None, -1, None), ('topics', '[]WriteStateData', 0, 32767, -1, -1, None, -1, 'WriteStateData'))
    API_KEY = 85
    VALID_VERSIONS = (0, 1)
    FLEXIBLE_MIN = 0

    def __init__(self, *, group_id='', topics=DEFAULT, _unknown_tagged=None):
        self.group_id = group_id
        self.topics = [] if topics is DEFAULT else topics
        self._unknown_tagged = _unknown_tagged



def _d_StateBatch_0(b, p):
    o = _new(StateBatch)
    o.first_offset, o.last_offset, o.delivery_state, o.delivery_count = _S2.unpack_from(b, p)
    p += 19
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_PartitionData_0(b, p):
    o = _new(PartitionData)
    o.partition, o.state_epoch, o.leader_epoch, o.start_offset = _S1.unpack_from(b, p)
    p += 20
    o.delivery_complete_count = -1
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 20)
    l = []
    for _ in range(n):
        e, p = _d_StateBatch_0(b, p)
        l.append(e)
    o.state_batches = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_WriteStateData_0(b, p):
    o = _new(WriteStateData)
    o.topic_id, = _S0.unpack_from(b, p)
    p += 16
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 22)
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


def _d_WriteShareGroupStateRequest_0(b, p):
    o = _new(WriteShareGroupStateRequest)
    o.group_id, p = _rcstr(b, p)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 18)
    l = []
    for _ in range(n):
        e, p = _d_WriteStateData_0(b, p)
        l.append(e)
    o.topics = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_StateBatch_0(o, w):
    w.append(_S2.pack(o.first_offset, o.last_offset, o.delivery_state, o.delivery_count))
    _wtag(w, o._unknown_tagged)


def _e_PartitionData_0(o, w):
    w.append(_S1.pack(o.partition, o.state_epoch, o.leader_epoch, o.start_offset))
    x = o.state_batches
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_StateBatch_0(e, w)
    _wtag(w, o._unknown_tagged)


def _e_WriteStateData_0(o, w):
    w.append(_S0.pack(o.topic_id))
    x = o.partitions
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_PartitionData_0(e, w)
    _wtag(w, o._unknown_tagged)


def _e_WriteShareGroupStateRequest_0(o, w):
    _wcstr(w, o.group_id)
    x = o.topics
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_WriteStateData_0(e, w)
    _wtag(w, o._unknown_tagged)


def _d_PartitionData_1(b, p):
    o = _new(PartitionData)
    o.partition, o.state_epoch, o.leader_epoch, o.start_offset, o.delivery_complete_count = _S3.unpack_from(b, p)
    p += 24
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 20)
    l = []
    for _ in range(n):
        e, p = _d_StateBatch_0(b, p)
        l.append(e)
    o.state_batches = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_WriteStateData_1(b, p):
    o = _new(WriteStateData)
    o.topic_id, = _S0.unpack_from(b, p)
    p += 16
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 26)
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


def _d_WriteShareGroupStateRequest_1(b, p):
    o = _new(WriteShareGroupStateRequest)
    o.group_id, p = _rcstr(b, p)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 18)
    l = []
    for _ in range(n):
        e, p = _d_WriteStateData_1(b, p)
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
    w.append(_S3.pack(o.partition, o.state_epoch, o.leader_epoch, o.start_offset, o.delivery_complete_count))
    x = o.state_batches
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_StateBatch_0(e, w)
    _wtag(w, o._unknown_tagged)


def _e_WriteStateData_1(o, w):
    w.append(_S0.pack(o.topic_id))
    x = o.partitions
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_PartitionData_1(e, w)
    _wtag(w, o._unknown_tagged)


def _e_WriteShareGroupStateRequest_1(o, w):
    _wcstr(w, o.group_id)
    x = o.topics
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_WriteStateData_1(e, w)
    _wtag(w, o._unknown_tagged)


WriteShareGroupStateRequest._DECODERS = {0: _d_WriteShareGroupStateRequest_0, 1: _d_WriteShareGroupStateRequest_1}
WriteShareGroupStateRequest._ENCODERS = {0: _e_WriteShareGroupStateRequest_0, 1: _e_WriteShareGroupStateRequest_1}
