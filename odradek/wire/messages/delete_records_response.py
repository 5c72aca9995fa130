"""Generated from Kafka's DeleteRecordsResponse.json by tools/gen_wire.py. Do not edit."""
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
_S1 = _struct.Struct('>iqh')


class DeleteRecordsPartitionResult(Message):
    __slots__ = ('partition_index', 'low_watermark', 'error_code', '_unknown_tagged')
    _FIELDS = (('partition_index', 'int32', 0, 32767, -1, -1, None, -1, None), ('low_watermark', 'int64', 0, 32767, -1, -1, None, -1, None), ('error_code', 'int16', 0, 32767, -1, -1, None, -1, None))

    def __init__(self, *, partition_index=0, low_watermark=0, error_code=0, _unknown_tagged=None):
        self.partition_index = partition_index
        self.low_watermark = low_watermark
        self.error_code = error_code
        self._unknown_tagged = _unknown_tagged


class DeleteRecordsTopicResult(Message):
    __slots__ = ('name', 'partitions', '_unknown_tagged')
    _FIELDS = (('name', 'string', 0, 32767, -1, -1, None, -1, None), ('partitions', '[]DeleteRecordsPartitionResult', 0, 32767, -1, -1, None, -1, 'DeleteRecordsPartitionResult'))

    def __init__(self, *, name='', partitions=DEFAULT, _unknown_tagged=None):
        self.name = name
        self.partitions = [] if partitions is DEFAULT else partitions
        self._unknown_tagged = _unknown_tagged


class DeleteRecordsResponse(Message):
    __slots__ = ('throttle_time_ms', 'topics', '_unknown_tagged')
    _FIELDS = (('throttle_time_ms', 'int32', 0, 32767, -1, -1, None, -1, None), ('topics', '[]DeleteRecordsTopicResult', 0, 32767, -1, -1, None, -1, 'DeleteRecordsTopicResult'))
    API_KEY = 21
    VALID_VERSIONS = (0, 2)
    FLEXIBLE_MIN = 2

    def __init__(self, *, throttle_time_ms=0, topics=DEFAULT, _unknown_tagged=None):
        self.throttle_time_ms = throttle_time_ms
        self.topics = [] if topics is DEFAULT else topics
        self._unknown_tagged = _unknown_tagged



def _d_DeleteRecordsPartitionResult_0(b, p):
    o = _new(DeleteRecordsPartitionResult)
    o.partition_index, o.low_watermark, o.error_code = _S1.unpack_from(b, p)
    p += 14
    o._unknown_tagged = None
    return o, p


def _d_DeleteRecordsTopicResult_0(b, p):
    o = _new(DeleteRecordsTopicResult)
    o.name, p = _rstr(b, p)
    n, p = _ral(b, p, 14)
    l = []
    for _ in range(n):
        e, p = _d_DeleteRecordsPartitionResult_0(b, p)
        l.append(e)
    o.partitions = l
    o._unknown_tagged = None
    return o, p


def _d_DeleteRecordsResponse_0(b, p):
    o = _new(DeleteRecordsResponse)
    o.throttle_time_ms, = _S0.unpack_from(b, p)
    p += 4
    n, p = _ral(b, p, 6)
    l = []
    for _ in range(n):
        e, p = _d_DeleteRecordsTopicResult_0(b, p)
        l.append(e)
    o.topics = l
    o._unknown_tagged = None
    return o, p


def _e_DeleteRecordsPartitionResult_0(o, w):
    w.append(_S1.pack(o.partition_index, o.low_watermark, o.error_code))


def _e_DeleteRecordsTopicResult_0(o, w):
    _wstr(w, o.name)
    x = o.partitions
    w.append(_I(len(x)))
    for e in x:
        _e_DeleteRecordsPartitionResult_0(e, w)


def _e_DeleteRecordsResponse_0(o, w):
    w.append(_S0.pack(o.throttle_time_ms))
    x = o.topics
    w.append(_I(len(x)))
    for e in x:
        _e_DeleteRecordsTopicResult_0(e, w)


def _u_DeleteRecordsTopicResult_0(o, w, c):
    _wstr(w, o.name)
    x = o.partitions
    w.append(_I(len(x)))
    for e in x:
        _e_DeleteRecordsPartitionResult_0(e, w)
        c += 1
        if c >= 1000:
            c = 0
            yield
    return c


def _t_DeleteRecordsResponse_0(o, w):
    c = 0
    w.append(_S0.pack(o.throttle_time_ms))
    x = o.topics
    w.append(_I(len(x)))
    for e in x:
        c = yield from _u_DeleteRecordsTopicResult_0(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield


def _d_DeleteRecordsPartitionResult_1(b, p):
    o = _new(DeleteRecordsPartitionResult)
    o.partition_index, o.low_watermark, o.error_code = _S1.unpack_from(b, p)
    p += 14
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_DeleteRecordsTopicResult_1(b, p):
    o = _new(DeleteRecordsTopicResult)
    o.name, p = _rcstr(b, p)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 15)
    l = []
    for _ in range(n):
        e, p = _d_DeleteRecordsPartitionResult_1(b, p)
        l.append(e)
    o.partitions = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_DeleteRecordsResponse_1(b, p):
    o = _new(DeleteRecordsResponse)
    o.throttle_time_ms, = _S0.unpack_from(b, p)
    p += 4
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 3)
    l = []
    for _ in range(n):
        e, p = _d_DeleteRecordsTopicResult_1(b, p)
        l.append(e)
    o.topics = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_DeleteRecordsPartitionResult_1(o, w):
    w.append(_S1.pack(o.partition_index, o.low_watermark, o.error_code))
    _wtag(w, o._unknown_tagged)


def _e_DeleteRecordsTopicResult_1(o, w):
    _wcstr(w, o.name)
    x = o.partitions
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_DeleteRecordsPartitionResult_1(e, w)
    _wtag(w, o._unknown_tagged)


def _e_DeleteRecordsResponse_1(o, w):
    w.append(_S0.pack(o.throttle_time_ms))
    x = o.topics
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_DeleteRecordsTopicResult_1(e, w)
    _wtag(w, o._unknown_tagged)


def _u_DeleteRecordsTopicResult_1(o, w, c):
    _wcstr(w, o.name)
    x = o.partitions
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_DeleteRecordsPartitionResult_1(e, w)
        c += 1
        if c >= 1000:
            c = 0
            yield
    _wtag(w, o._unknown_tagged)
    return c


def _t_DeleteRecordsResponse_1(o, w):
    c = 0
    w.append(_S0.pack(o.throttle_time_ms))
    x = o.topics
    w.append(_uv(len(x) + 1))
    for e in x:
        c = yield from _u_DeleteRecordsTopicResult_1(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield
    _wtag(w, o._unknown_tagged)


DeleteRecordsResponse._DECODERS = {0: _d_DeleteRecordsResponse_0, 1: _d_DeleteRecordsResponse_0, 2: _d_DeleteRecordsResponse_1}
DeleteRecordsResponse._ENCODERS = {0: _e_DeleteRecordsResponse_0, 1: _e_DeleteRecordsResponse_0, 2: _e_DeleteRecordsResponse_1}
DeleteRecordsResponse._ENCODE_STEPS = {0: _t_DeleteRecordsResponse_0, 1: _t_DeleteRecordsResponse_0, 2: _t_DeleteRecordsResponse_1}
