"""Generated from Kafka's DescribeLogDirsResponse.json by tools/gen_wire.py. Do not edit."""
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
_S2 = _struct.Struct('>iqq?')
_S3 = _struct.Struct('>ih')
_S4 = _struct.Struct('>qq')
_S5 = _struct.Struct('>qq?')


class DescribeLogDirsPartition(Message):
    __slots__ = ('partition_index', 'partition_size', 'offset_lag', 'is_future_key', '_unknown_tagged')
    _FIELDS = (('partition_index', 'int32', 0, 32767, -1, -1, None, -1, None), ('partition_size', 'int64', 0, 32767, -1, -1, None, -1, None), ('offset_lag', 'int64', 0, 32767, -1, -1, None, -1, None), ('is_future_key', 'bool', 0, 32767, -1, -1, None, -1, None))

    def __init__(self, *, partition_index=0, partition_size=0, offset_lag=0, is_future_key=False, _unknown_tagged=None):
        self.partition_index = partition_index
        self.partition_size = partition_size
        self.offset_lag = offset_lag
        self.is_future_key = is_future_key
        self._unknown_tagged = _unknown_tagged


class DescribeLogDirsTopic(Message):
    __slots__ = ('name', 'partitions', '_unknown_tagged')
    _FIELDS = (('name', 'string', 0, 32767, -1, -1, None, -1, None), ('partitions', '[]DescribeLogDirsPartition', 0, 32767, -1, -1, None, -1, 'DescribeLogDirsPartition'))

    def __init__(self, *, name='', partitions=DEFAULT, _unknown_tagged=None):
        self.name = name
        self.partitions = [] if partitions is DEFAULT else partitions
        self._unknown_tagged = _unknown_tagged


class DescribeLogDirsResult(Message):
    __slots__ = ('error_code', 'log_dir', 'topics', 'total_bytes', 'usable_bytes', 'is_cordoned', '_unknown_tagged')
    _FIELDS = (('error_code', 'int16', 0, 32767, -1, -1, None, -1, None), ('log_dir', 'string', 0, 32767, -1, -1, None, -1, None), ('topics', '[]DescribeLogDirsTopic', 0, 32767, -1, -1, None, -1, 'DescribeLogDirsTopic'), ('total_bytes', 'int64', 4, 32767, -1, -1, None, -1, None), ('usable_bytes', 'int64', 4, 32767, -1, -1, None, -1, None), ('is_cordoned', 'bool', 5, 32767, -1, -1, None, -1, None))

    def __init__(self, *, error_code=0, log_dir='', topics=DEFAULT, total_bytes=-1, usable_bytes=-1, is_cordoned=False, _unknown_tagged=None):
        self.error_code = error_code
        self.log_dir = log_dir
        self.topics = [] if topics is DEFAULT else topics
        self.total_bytes = total_bytes
        self.usable_bytes = usable_bytes
        self.is_cordoned = is_cordoned
        self._unknown_tagged = _unknown_tagged


class DescribeLogDirsResponse(Message):
    __slots__ = ('throttle_time_ms', 'error_code', 'results', '_unknown_tagged')
    _FIELDS = (('throttle_time_ms', 'int32', 0, 32767, -1, -1, None, -1, None), ('error_code', 'int16', 3, 32767, -1, -1, None, -1, None), ('results', '[]DescribeLogDirsResult', 0, 32767, -1, -1, None, -1, 'DescribeLogDirsResult'))
    API_KEY = 35
    VALID_VERSIONS = (1, 5)
    FLEXIBLE_MIN = 2

    def __init__(self, *, throttle_time_ms=0, error_code=0, results=DEFAULT, _unknown_tagged=None):
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.results = [] if results is DEFAULT else results
        self._unknown_tagged = _unknown_tagged



def _d_DescribeLogDirsPartition_0(b, p):
    o = _new(DescribeLogDirsPartition)
    o.partition_index, o.partition_size, o.offset_lag, o.is_future_key = _S2.unpack_from(b, p)
    p += 21
    o._unknown_tagged = None
    return o, p


def _d_DescribeLogDirsTopic_0(b, p):
    o = _new(DescribeLogDirsTopic)
    o.name, p = _rstr(b, p)
    n, p = _ral(b, p, 21)
    l = []
    for _ in range(n):
        e, p = _d_DescribeLogDirsPartition_0(b, p)
        l.append(e)
    o.partitions = l
    o._unknown_tagged = None
    return o, p


def _d_DescribeLogDirsResult_0(b, p):
    o = _new(DescribeLogDirsResult)
    o.error_code, = _S1.unpack_from(b, p)
    p += 2
    o.log_dir, p = _rstr(b, p)
    n, p = _ral(b, p, 6)
    l = []
    for _ in range(n):
        e, p = _d_DescribeLogDirsTopic_0(b, p)
        l.append(e)
    o.topics = l
    o.total_bytes = -1
    o.usable_bytes = -1
    o.is_cordoned = False
    o._unknown_tagged = None
    return o, p


def _d_DescribeLogDirsResponse_0(b, p):
    o = _new(DescribeLogDirsResponse)
    o.throttle_time_ms, = _S0.unpack_from(b, p)
    p += 4
    o.error_code = 0
    n, p = _ral(b, p, 8)
    l = []
    for _ in range(n):
        e, p = _d_DescribeLogDirsResult_0(b, p)
        l.append(e)
    o.results = l
    o._unknown_tagged = None
    return o, p


def _e_DescribeLogDirsPartition_0(o, w):
    w.append(_S2.pack(o.partition_index, o.partition_size, o.offset_lag, o.is_future_key))


def _e_DescribeLogDirsTopic_0(o, w):
    _wstr(w, o.name)
    x = o.partitions
    w.append(_I(len(x)))
    for e in x:
        _e_DescribeLogDirsPartition_0(e, w)


def _e_DescribeLogDirsResult_0(o, w):
    w.append(_S1.pack(o.error_code))
    _wstr(w, o.log_dir)
    x = o.topics
    w.append(_I(len(x)))
    for e in x:
        _e_DescribeLogDirsTopic_0(e, w)


def _e_DescribeLogDirsResponse_0(o, w):
    w.append(_S0.pack(o.throttle_time_ms))
    x = o.results
    w.append(_I(len(x)))
    for e in x:
        _e_DescribeLogDirsResult_0(e, w)


def _u_DescribeLogDirsTopic_0(o, w, c):
    _wstr(w, o.name)
    x = o.partitions
    w.append(_I(len(x)))
    for e in x:
        _e_DescribeLogDirsPartition_0(e, w)
        c += 1
        if c >= 1000:
            c = 0
            yield
    return c


def _u_DescribeLogDirsResult_0(o, w, c):
    w.append(_S1.pack(o.error_code))
    _wstr(w, o.log_dir)
    x = o.topics
    w.append(_I(len(x)))
    for e in x:
        c = yield from _u_DescribeLogDirsTopic_0(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield
    return c


def _t_DescribeLogDirsResponse_0(o, w):
    c = 0
    w.append(_S0.pack(o.throttle_time_ms))
    x = o.results
    w.append(_I(len(x)))
    for e in x:
        c = yield from _u_DescribeLogDirsResult_0(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield


def _d_DescribeLogDirsPartition_1(b, p):
    o = _new(DescribeLogDirsPartition)
    o.partition_index, o.partition_size, o.offset_lag, o.is_future_key = _S2.unpack_from(b, p)
    p += 21
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_DescribeLogDirsTopic_1(b, p):
    o = _new(DescribeLogDirsTopic)
    o.name, p = _rcstr(b, p)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 22)
    l = []
    for _ in range(n):
        e, p = _d_DescribeLogDirsPartition_1(b, p)
        l.append(e)
    o.partitions = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_DescribeLogDirsResult_1(b, p):
    o = _new(DescribeLogDirsResult)
    o.error_code, = _S1.unpack_from(b, p)
    p += 2
    o.log_dir, p = _rcstr(b, p)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 3)
    l = []
    for _ in range(n):
        e, p = _d_DescribeLogDirsTopic_1(b, p)
        l.append(e)
    o.topics = l
    o.total_bytes = -1
    o.usable_bytes = -1
    o.is_cordoned = False
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_DescribeLogDirsResponse_1(b, p):
    o = _new(DescribeLogDirsResponse)
    o.throttle_time_ms, = _S0.unpack_from(b, p)
    p += 4
    o.error_code = 0
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 5)
    l = []
    for _ in range(n):
        e, p = _d_DescribeLogDirsResult_1(b, p)
        l.append(e)
    o.results = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_DescribeLogDirsPartition_1(o, w):
    w.append(_S2.pack(o.partition_index, o.partition_size, o.offset_lag, o.is_future_key))
    _wtag(w, o._unknown_tagged)


def _e_DescribeLogDirsTopic_1(o, w):
    _wcstr(w, o.name)
    x = o.partitions
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_DescribeLogDirsPartition_1(e, w)
    _wtag(w, o._unknown_tagged)


def _e_DescribeLogDirsResult_1(o, w):
    w.append(_S1.pack(o.error_code))
    _wcstr(w, o.log_dir)
    x = o.topics
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_DescribeLogDirsTopic_1(e, w)
    _wtag(w, o._unknown_tagged)


def _e_DescribeLogDirsResponse_1(o, w):
    w.append(_S0.pack(o.throttle_time_ms))
    x = o.results
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_DescribeLogDirsResult_1(e, w)
    _wtag(w, o._unknown_tagged)


def _u_DescribeLogDirsTopic_1(o, w, c):
    _wcstr(w, o.name)
    x = o.partitions
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_DescribeLogDirsPartition_1(e, w)
        c += 1
        if c >= 1000:
            c = 0
            yield
    _wtag(w, o._unknown_tagged)
    return c


def _u_DescribeLogDirsResult_1(o, w, c):
    w.append(_S1.pack(o.error_code))
    _wcstr(w, o.log_dir)
    x = o.topics
    w.append(_uv(len(x) + 1))
    for e in x:
        c = yield from _u_DescribeLogDirsTopic_1(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield
    _wtag(w, o._unknown_tagged)
    return c


def _t_DescribeLogDirsResponse_1(o, w):
    c = 0
    w.append(_S0.pack(o.throttle_time_ms))
    x = o.results
    w.append(_uv(len(x) + 1))
    for e in x:
        c = yield from _u_DescribeLogDirsResult_1(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield
    _wtag(w, o._unknown_tagged)


def _d_DescribeLogDirsResponse_2(b, p):
    o = _new(DescribeLogDirsResponse)
    o.throttle_time_ms, o.error_code = _S3.unpack_from(b, p)
    p += 6
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 5)
    l = []
    for _ in range(n):
        e, p = _d_DescribeLogDirsResult_1(b, p)
        l.append(e)
    o.results = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_DescribeLogDirsResponse_2(o, w):
    w.append(_S3.pack(o.throttle_time_ms, o.error_code))
    x = o.results
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_DescribeLogDirsResult_1(e, w)
    _wtag(w, o._unknown_tagged)


def _t_DescribeLogDirsResponse_2(o, w):
    c = 0
    w.append(_S3.pack(o.throttle_time_ms, o.error_code))
    x = o.results
    w.append(_uv(len(x) + 1))
    for e in x:
        c = yield from _u_DescribeLogDirsResult_1(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield
    _wtag(w, o._unknown_tagged)


def _d_DescribeLogDirsResult_2(b, p):
    o = _new(DescribeLogDirsResult)
    o.error_code, = _S1.unpack_from(b, p)
    p += 2
    o.log_dir, p = _rcstr(b, p)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 3)
    l = []
    for _ in range(n):
        e, p = _d_DescribeLogDirsTopic_1(b, p)
        l.append(e)
    o.topics = l
    o.total_bytes, o.usable_bytes = _S4.unpack_from(b, p)
    p += 16
    o.is_cordoned = False
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_DescribeLogDirsResponse_3(b, p):
    o = _new(DescribeLogDirsResponse)
    o.throttle_time_ms, o.error_code = _S3.unpack_from(b, p)
    p += 6
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 21)
    l = []
    for _ in range(n):
        e, p = _d_DescribeLogDirsResult_2(b, p)
        l.append(e)
    o.results = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_DescribeLogDirsResult_2(o, w):
    w.append(_S1.pack(o.error_code))
    _wcstr(w, o.log_dir)
    x = o.topics
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_DescribeLogDirsTopic_1(e, w)
    w.append(_S4.pack(o.total_bytes, o.usable_bytes))
    _wtag(w, o._unknown_tagged)


def _e_DescribeLogDirsResponse_3(o, w):
    w.append(_S3.pack(o.throttle_time_ms, o.error_code))
    x = o.results
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_DescribeLogDirsResult_2(e, w)
    _wtag(w, o._unknown_tagged)


def _u_DescribeLogDirsResult_2(o, w, c):
    w.append(_S1.pack(o.error_code))
    _wcstr(w, o.log_dir)
    x = o.topics
    w.append(_uv(len(x) + 1))
    for e in x:
        c = yield from _u_DescribeLogDirsTopic_1(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield
    w.append(_S4.pack(o.total_bytes, o.usable_bytes))
    _wtag(w, o._unknown_tagged)
    return c


def _t_DescribeLogDirsResponse_3(o, w):
    c = 0
    w.append(_S3.pack(o.throttle_time_ms, o.error_code))
    x = o.results
    w.append(_uv(len(x) + 1))
    for e in x:
        c = yield from _u_DescribeLogDirsResult_2(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield
    _wtag(w, o._unknown_tagged)


def _d_DescribeLogDirsResult_3(b, p):
    o = _new(DescribeLogDirsResult)
    o.error_code, = _S1.unpack_from(b, p)
    p += 2
    o.log_dir, p = _rcstr(b, p)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 3)
    l = []
    for _ in range(n):
        e, p = _d_DescribeLogDirsTopic_1(b, p)
        l.append(e)
    o.topics = l
    o.total_bytes, o.usable_bytes, o.is_cordoned = _S5.unpack_from(b, p)
    p += 17
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_DescribeLogDirsResponse_4(b, p):
    o = _new(DescribeLogDirsResponse)
    o.throttle_time_ms, o.error_code = _S3.unpack_from(b, p)
    p += 6
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 22)
    l = []
    for _ in range(n):
        e, p = _d_DescribeLogDirsResult_3(b, p)
        l.append(e)
    o.results = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_DescribeLogDirsResult_3(o, w):
    w.append(_S1.pack(o.error_code))
    _wcstr(w, o.log_dir)
    x = o.topics
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_DescribeLogDirsTopic_1(e, w)
    w.append(_S5.pack(o.total_bytes, o.usable_bytes, o.is_cordoned))
    _wtag(w, o._unknown_tagged)


def _e_DescribeLogDirsResponse_4(o, w):
    w.append(_S3.pack(o.throttle_time_ms, o.error_code))
    x = o.results
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_DescribeLogDirsResult_3(e, w)
    _wtag(w, o._unknown_tagged)


def _u_DescribeLogDirsResult_3(o, w, c):
    w.append(_S1.pack(o.error_code))
    _wcstr(w, o.log_dir)
    x = o.topics
    w.append(_uv(len(x) + 1))
    for e in x:
        c = yield from _u_DescribeLogDirsTopic_1(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield
    w.append(_S5.pack(o.total_bytes, o.usable_bytes, o.is_cordoned))
    _wtag(w, o._unknown_tagged)
    return c


def _t_DescribeLogDirsResponse_4(o, w):
    c = 0
    w.append(_S3.pack(o.throttle_time_ms, o.error_code))
    x = o.results
    w.append(_uv(len(x) + 1))
    for e in x:
        c = yield from _u_DescribeLogDirsResult_3(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield
    _wtag(w, o._unknown_tagged)


DescribeLogDirsResponse._DECODERS = {1: _d_DescribeLogDirsResponse_0, 2: _d_DescribeLogDirsResponse_1, 3: _d_DescribeLogDirsResponse_2, 4: _d_DescribeLogDirsResponse_3, 5: _d_DescribeLogDirsResponse_4}
DescribeLogDirsResponse._ENCODERS = {1: _e_DescribeLogDirsResponse_0, 2: _e_DescribeLogDirsResponse_1, 3: _e_DescribeLogDirsResponse_2, 4: _e_DescribeLogDirsResponse_3, 5: _e_DescribeLogDirsResponse_4}
DescribeLogDirsResponse._ENCODE_STEPS = {1: _t_DescribeLogDirsResponse_0, 2: _t_DescribeLogDirsResponse_1, 3: _t_DescribeLogDirsResponse_2, 4: _t_DescribeLogDirsResponse_3, 5: _t_DescribeLogDirsResponse_4}
