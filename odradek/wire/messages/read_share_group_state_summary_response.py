"""Generated from Kafka's ReadShareGroupStateSummaryResponse.json by tools/gen_wire.py. Do not edit."""
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
_S1 = _struct.Struct('>ih')
_S2 = _struct.Struct('>iiq')
_S3 = _struct.Struct('>iiqi')


class PartitionResult(Message):
    __slots__ = ('partition', 'error_code', 'error_message', 'state_epoch', 'leader_epoch', 'start_offset', 'delivery_complete_count', '_unknown_tagged')
    _FIELDS = (('partition', 'int32', 0, 32767, -1, -1, None, -1, None), ('error_code', 'int16', 0, 32767, -1, -1, None, -1, None), ('error_message', 'string', 0, 32767, 0, 32767, None, -1, None), ('state_epoch', 'int32', 0, 32767, -1, -1, None, -1, None), ('leader_epoch', 'int32', 0, 32767, -1, -1, None, -1, None), ('start_offset', 'int64', 0, 32767, -1, -1, None, -1, None), ('delivery_complete_count', 'int32', 1, 32767, -1, -1, None, -1, None))

    def __init__(self, *, partition=0, error_code=0, error_message=None, state_epoch=0, leader_epoch=0, start_offset=0, delivery_complete_count=-1, _unknown_tagged=None):
        self.partition = partition
        self.error_code = error_code
        self.error_message = error_message
        self.state_epoch = state_epoch
        self.leader_epoch = leader_epoch
        self.start_offset = start_offset
        self.delivery_complete_count = delivery_complete_count
        self._unknown_tagged = _unknown_tagged


class ReadStateSummaryResult(Message):
    __slots__ = ('topic_id', 'partitions', '_unknown_tagged')
    _FIELDS = (('topic_id', 'uuid', 0, 32767, -1, -1, None, -1, None), ('partitions', '[]PartitionResult', 0, 32767, -1, -1, None, -1, 'PartitionResult'))

    def __init__(self, *, topic_id=ZERO_UUID, partitions=DEFAULT, _unknown_tagged=None):
        self.topic_id = topic_id
        self.partitions = [] if partitions is DEFAULT else partitions
        self._unknown_tagged = _unknown_tagged


class ReadShareGroupStateSummaryResponse(Message):
    __slots__ = ('results', '_unknown_tagged')
    _FIELDS = (('results', '[]ReadStateSummaryResult', 0, 32767, -1, -1, None, -1, 'ReadStateSummaryResult'),)
    API_KEY = 87
    VALID_VERSIONS = (0, 1)
    FLEXIBLE_MIN = 0

    def __init__(self, *, results=DEFAULT, _unknown_tagged=None):
        self.results = [] if results is DEFAULT else results
        self._unknown_tagged = _unknown_tagged



def _d_PartitionResult_0(b, p):
    o = _new(PartitionResult)
    o.partition, o.error_code = _S1.unpack_from(b, p)
    p += 6
    o.error_message, p = _rcnstr(b, p)
    o.state_epoch, o.leader_epoch, o.start_offset = _S2.unpack_from(b, p)
    p += 16
    o.delivery_complete_count = -1
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_ReadStateSummaryResult_0(b, p):
    o = _new(ReadStateSummaryResult)
    o.topic_id, = _S0.unpack_from(b, p)
    p += 16
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 24)
    l = []
    for _ in range(n):
        e, p = _d_PartitionResult_0(b, p)
        l.append(e)
    o.partitions = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_ReadShareGroupStateSummaryResponse_0(b, p):
    o = _new(ReadShareGroupStateSummaryResponse)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 18)
    l = []
    for _ in range(n):
        e, p = _d_ReadStateSummaryResult_0(b, p)
        l.append(e)
    o.results = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_PartitionResult_0(o, w):
    w.append(_S1.pack(o.partition, o.error_code))
    _wcnstr(w, o.error_message)
    w.append(_S2.pack(o.state_epoch, o.leader_epoch, o.start_offset))
    _wtag(w, o._unknown_tagged)


def _e_ReadStateSummaryResult_0(o, w):
    w.append(_S0.pack(o.topic_id))
    x = o.partitions
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_PartitionResult_0(e, w)
    _wtag(w, o._unknown_tagged)


def _e_ReadShareGroupStateSummaryResponse_0(o, w):
    x = o.results
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_ReadStateSummaryResult_0(e, w)
    _wtag(w, o._unknown_tagged)


def _d_PartitionResult_1(b, p):
    o = _new(PartitionResult)
    o.partition, o.error_code = _S1.unpack_from(b, p)
    p += 6
    o.error_message, p = _rcnstr(b, p)
    o.state_epoch, o.leader_epoch, o.start_offset, o.delivery_complete_count = _S3.unpack_from(b, p)
    p += 20
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_ReadStateSummaryResult_1(b, p):
    o = _new(ReadStateSummaryResult)
    o.topic_id, = _S0.unpack_from(b, p)
    p += 16
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 28)
    l = []
    for _ in range(n):
        e, p = _d_PartitionResult_1(b, p)
        l.append(e)
    o.partitions = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_ReadShareGroupStateSummaryResponse_1(b, p):
    o = _new(ReadShareGroupStateSummaryResponse)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 18)
    l = []
    for _ in range(n):
        e, p = _d_ReadStateSummaryResult_1(b, p)
        l.append(e)
    o.results = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_PartitionResult_1(o, w):
    w.append(_S1.pack(o.partition, o.error_code))
    _wcnstr(w, o.error_message)
    w.append(_S3.pack(o.state_epoch, o.leader_epoch, o.start_offset, o.delivery_complete_count))
    _wtag(w, o._unknown_tagged)


def _e_ReadStateSummaryResult_1(o, w):
    w.append(_S0.pack(o.topic_id))
    x = o.partitions
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_PartitionResult_1(e, w)
    _wtag(w, o._unknown_tagged)


def _e_ReadShareGroupStateSummaryResponse_1(o, w):
    x = o.results
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_ReadStateSummaryResult_1(e, w)
    _wtag(w, o._unknown_tagged)


ReadShareGroupStateSummaryResponse._DECODERS = {0: _d_ReadShareGroupStateSummaryResponse_0, 1: _d_ReadShareGroupStateSummaryResponse_1}
ReadShareGroupStateSummaryResponse._ENCODERS = {0: _e_ReadShareGroupStateSummaryResponse_0, 1: _e_ReadShareGroupStateSummaryResponse_1}
