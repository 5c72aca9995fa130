"""Generated from Kafka's DescribeProducersResponse.json by tools/gen_wire.py. Do not edit."""
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
_S1 = _struct.Struct('>ih')
_S2 = _struct.Struct('>qiiqiq')


class ProducerState(Message):
    __slots__ = ('producer_id', 'producer_epoch', 'last_sequence', 'last_timestamp', 'coordinator_epoch', 'current_txn_start_offset', '_unknown_tagged')
    _FIELDS = (('producer_id', 'int64', 0, 32767, -1, -1, None, -1, None), ('producer_epoch', 'int32', 0, 32767, -1, -1, None, -1, None), ('last_sequence', 'int32', 0, 32767, -1, -1, None, -1, None), ('last_timestamp', 'int64', 0, 32767, -1, -1, None, -1, None), ('coordinator_epoch', 'int32', 0, 32767, -1, -1, None, -1, None), ('current_txn_start_offset', 'int64', 0, 32767, -1, -1, None, -1, None))

    def __init__(self, *, producer_id=0, producer_epoch=0, last_sequence=-1, last_timestamp=-1, coordinator_epoch=0, current_txn_start_offset=-1, _unknown_tagged=None):
        self.producer_id = producer_id
        self.producer_epoch = producer_epoch
        self.last_sequence = last_sequence
        self.last_timestamp = last_timestamp
        self.coordinator_epoch = coordinator_epoch
        self.current_txn_start_offset = current_txn_start_offset
        self._unknown_tagged = _unknown_tagged


class PartitionResponse(Message):
    __slots__ = ('partition_index', 'error_code', 'error_message', 'active_producers', '_unknown_tagged')
    _FIELDS = (('partition_index', 'int32', 0, 32767, -1, -1, None, -1, None), ('error_code', 'int16', 0, 32767, -1, -1, None, -1, None), ('error_message', 'string', 0, 32767, 0, 32767, None, -1, None), ('active_producers', '[]ProducerState', 0, 32767, -1, -1, None, -1, 'ProducerState'))

    def __init__(self, *, partition_index=0, error_code=0, error_message=None, active_producers=DEFAULT, _unknown_tagged=None):
        self.partition_index = partition_index
        self.error_code = error_code
        self.error_message = error_message
        self.active_producers = [] if active_producers is DEFAULT else active_producers
        self._unknown_tagged = _unknown_tagged


class TopicResponse(Message):
    __slots__ = ('name', 'partitions', '_unknown_tagged')
    _FIELDS = (('name', 'string', 0, 32767, -1, -1, None, -1, None), ('partitions', '[]PartitionResponse', 0, 32767, -1, -1, None, -1, 'PartitionResponse'))

    def __init__(self, *, name='', partitions=DEFAULT, _unknown_tagged=None):
        self.name = name
        self.partitions = [] if partitions is DEFAULT else partitions
        self._unknown_tagged = _unknown_tagged


class DescribeProducersResponse(Message):
    __slots__ = ('throttle_time_ms', 'topics', '_unknown_tagged')
    _FIELDS = (('throttle_time_ms', 'int32', 0, 32767, -1, -1, None, -1, None), ('topics', '[]TopicResponse', 0, 32767, -1, -1, None, -1, 'TopicResponse'))
    API_KEY = 61
    VALID_VERSIONS = (0, 0)
    FLEXIBLE_MIN = 0

    def __init__(self, *, throttle_time_ms=0, topics=DEFAULT, _unknown_tagged=None):
        self.throttle_time_ms = throttle_time_ms
        self.topics = [] if topics is DEFAULT else topics
        self._unknown_tagged = _unknown_tagged



def _d_ProducerState_0(b, p):
    o = _new(ProducerState)
    o.producer_id, o.producer_epoch, o.last_sequence, o.last_timestamp, o.coordinator_epoch, o.current_txn_start_offset = _S2.unpack_from(b, p)
    p += 36
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_PartitionResponse_0(b, p):
    o = _new(PartitionResponse)
    o.partition_index, o.error_code = _S1.unpack_from(b, p)
    p += 6
    o.error_message, p = _rcnstr(b, p)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 37)
    l = []
    for _ in range(n):
        e, p = _d_ProducerState_0(b, p)
        l.append(e)
    o.active_producers = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_TopicResponse_0(b, p):
    o = _new(TopicResponse)
    o.name, p = _rcstr(b, p)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 9)
    l = []
    for _ in range(n):
        e, p = _d_PartitionResponse_0(b, p)
        l.append(e)
    o.partitions = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_DescribeProducersResponse_0(b, p):
    o = _new(DescribeProducersResponse)
    o.throttle_time_ms, = _S0.unpack_from(b, p)
    p += 4
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 3)
    l = []
    for _ in range(n):
        e, p = _d_TopicResponse_0(b, p)
        l.append(e)
    o.topics = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_ProducerState_0(o, w):
    w.append(_S2.pack(o.producer_id, o.producer_epoch, o.last_sequence, o.last_timestamp, o.coordinator_epoch, o.current_txn_start_offset))
    _wtag(w, o._unknown_tagged)


def _e_PartitionResponse_0(o, w):
    w.append(_S1.pack(o.partition_index, o.error_code))
    _wcnstr(w, o.error_message)
    x = o.active_producers
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_ProducerState_0(e, w)
    _wtag(w, o._unknown_tagged)


def _e_TopicResponse_0(o, w):
    _wcstr(w, o.name)
    x = o.partitions
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_PartitionResponse_0(e, w)
    _wtag(w, o._unknown_tagged)


def _e_DescribeProducersResponse_0(o, w):
    w.append(_S0.pack(o.throttle_time_ms))
    x = o.topics
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_TopicResponse_0(e, w)
    _wtag(w, o._unknown_tagged)


def _u_PartitionResponse_0(o, w, c):
    w.append(_S1.pack(o.partition_index, o.error_code))
    _wcnstr(w, o.error_message)
    x = o.active_producers
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_ProducerState_0(e, w)
        c += 1
        if c >= 1000:
            c = 0
            yield
    _wtag(w, o._unknown_tagged)
    return c


def _u_TopicResponse_0(o, w, c):
    _wcstr(w, o.name)
    x = o.partitions
    w.append(_uv(len(x) + 1))
    for e in x:
        c = yield from _u_PartitionResponse_0(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield
    _wtag(w, o._unknown_tagged)
    return c


def _t_DescribeProducersResponse_0(o, w):
    c = 0
    w.append(_S0.pack(o.throttle_time_ms))
    x = o.topics
    w.append(_uv(len(x) + 1))
    for e in x:
        c = yield from _u_TopicResponse_0(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield
    _wtag(w, o._unknown_tagged)


DescribeProducersResponse._DECODERS = {0: _d_DescribeProducersResponse_0}
DescribeProducersResponse._ENCODERS = {0: _e_DescribeProducersResponse_0}
DescribeProducersResponse._ENCODE_STEPS = {0: _t_DescribeProducersResponse_0}
