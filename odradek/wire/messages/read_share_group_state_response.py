"""Generated from Kafka's ReadShareGroupStateResponse.json by tools/gen_wire.py. Do not edit."""
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
_S2 = _struct.Struct('>iq')
_S3 = _struct.Struct('>qqbh')


class StateBatch(Message):
    __slots__ = ('first_offset', 'last_offset', 'delivery_state', 'delivery_count', '_unknown_tagged')
    _FIELDS = (('first_offset', 'int64', 0, 32767, -1, -1, None, -1, None), ('last_offset', 'int64', 0, 32767, -1, -1, None, -1, None), ('delivery_state', 'int8', 0, 32767, -1, -1, None, -1, None), ('delivery_count', 'int16', 0, 32767, -1, -1, None, -1, None))

    def __init__(self, *, first_offset=0, last_offset=0, delivery_state=0, delivery_count=0, _unknown_tagged=None):
        self.first_offset = first_offset
        self.last_offset = last_offset
        self.delivery_state = delivery_state
        self.delivery_count = delivery_count
        self._unknown_tagged = _unknown_tagged


class PartitionResult(Message):
    __slots__ = ('partition', 'error_code', 'error_message', 'state_epoch', 'start_offset', 'state_batches', '_unknown_tagged')
    _FIELDS = (('partition', 'int32', 0, 32767, -1, -1, None, -1, None), ('error_code', 'int16', 0, 32767, -1, -1, None, -1, None), ('error_message', 'string', 0, 32767, 0, 32767, None, -1, None), ('state_epoch', 'int32', 0, 32767, -1, -1, None, -1, None), ('start_offset', 'int64', 0, 32767, -1, -1, None, -1, None), ('state_batches', '[]StateBatch', 0, 32767, -1, -1, None, -1, 'StateBatch'))

    def __init__(self, *, partition=0, error_code=0, error_message=None, state_epoch=0, start_offset=0, state_batches=DEFAULT, _unknown_tagged=None):
        self.partition = partition
        self.error_code = error_code
        self.error_message = error_message
        self.state_epoch = state_epoch
        self.start_offset = start_offset
        self.state_batches = [] if state_batches is DEFAULT else state_batches
        self._unknown_tagged = _unknown_tagged


class ReadStateResult(Message):
    __slots__ = ('topic_id', 'partitions', '_unknown_tagged')
    _FIELDS = (('topic_id', 'uuid', 0, 32767, -1, -1, None, -1, None), ('partitions', '[]PartitionResult', 0, 32767, -1, -1, None, -1, 'PartitionResult'))

    def __init__(self, *, topic_id=ZERO_UUID, partitions=DEFAULT, _unknown_tagged=None):
        self.topic_id = topic_id
        self.partitions = [] if partitions is DEFAULT else partitions
        self._unknown_tagged = _unknown_tagged


class ReadShareGroupStateResponse(Message):
    __slots__ = ('results', '_unknown_tagged')
    _FIELDS = (('results', '[]ReadStateResult', 0, 32767, -1, -1, None, -1, 'ReadStateResult'),)
    API_KEY = 84
    VALID_VERSIONS = (0, 0)
    FLEXIBLE_MIN = 0

    def __init__(self, *, results=DEFAULT, _unknown_tagged=None):
        self.results = [] if results is DEFAULT else results
        self._unknown_tagged = _unknown_tagged



def _d_StateBatch_0(b, p):
    o = _new(StateBatch)
    o.first_offset, o.last_offset, o.delivery_state, o.delivery_count = _S3.unpack_from(b, p)
    p += 19
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_PartitionResult_0(b, p):
    o = _new(PartitionResult)
    o.partition, o.error_code = _S1.unpack_from(b, p)
    p += 6
    o.error_message, p = _rcnstr(b, p)
    o.state_epoch, o.start_offset = _S2.unpack_from(b, p)
    p += 12
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


def _d_ReadStateResult_0(b, p):
    o = _new(ReadStateResult)
    o.topic_id, = _S0.unpack_from(b, p)
    p += 16
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 21)
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


def _d_ReadShareGroupStateResponse_0(b, p):
    o = _new(ReadShareGroupStateResponse)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 18)
    l = []
    for _ in range(n):
        e, p = _d_ReadStateResult_0(b, p)
        l.append(e)
    o.results = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_StateBatch_0(o, w):
    w.append(_S3.pack(o.first_offset, o.last_offset, o.delivery_state, o.delivery_count))
    _wtag(w, o._unknown_tagged)


def _e_PartitionResult_0(o, w):
    w.append(_S1.pack(o.partition, o.error_code))
    _wcnstr(w, o.error_message)
    w.append(_S2.pack(o.state_epoch, o.start_offset))
    x = o.state_batches
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_StateBatch_0(e, w)
    _wtag(w, o._unknown_tagged)


def _e_ReadStateResult_0(o, w):
    w.append(_S0.pack(o.topic_id))
    x = o.partitions
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_PartitionResult_0(e, w)
    _wtag(w, o._unknown_tagged)


def _e_ReadShareGroupStateResponse_0(o, w):
    x = o.results
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_ReadStateResult_0(e, w)
    _wtag(w, o._unknown_tagged)


ReadShareGroupStateResponse._DECODERS = {0: _d_ReadShareGroupStateResponse_0}
ReadShareGroupStateResponse._ENCODERS = {0: _e_ReadShareGroupStateResponse_0}
