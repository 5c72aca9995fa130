"""Generated from Kafka's OffsetDeleteResponse.json by tools/gen_wire.py. Do not edit."""
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
_S1 = _struct.Struct('>ih')


class OffsetDeleteResponsePartition(Message):
    __slots__ = ('partition_index', 'error_code', '_unknown_tagged')
    _FIELDS = (('partition_index', 'int32', 0, 32767, -1, -1, None, -1, None), ('error_code', 'int16', 0, 32767, -1, -1, None, -1, None))

    def __init__(self, *, partition_index=0, error_code=0, _unknown_tagged=None):
        self.partition_index = partition_index
        self.error_code = error_code
        self._unknown_tagged = _unknown_tagged


class OffsetDeleteResponseTopic(Message):
    __slots__ = ('name', 'partitions', '_unknown_tagged')
    _FIELDS = (('name', 'string', 0, 32767, -1, -1, None, -1, None), ('partitions', '[]OffsetDeleteResponsePartition', 0, 32767, -1, -1, None, -1, 'OffsetDeleteResponsePartition'))

    def __init__(self, *, name='', partitions=DEFAULT, _unknown_tagged=None):
        self.name = name
        self.partitions = [] if partitions is DEFAULT else partitions
        self._unknown_tagged = _unknown_tagged


class OffsetDeleteResponse(Message):
    __slots__ = ('error_code', 'throttle_time_ms', 'topics', '_unknown_tagged')
    _FIELDS = (('error_code', 'int16', 0, 32767, -1, -1, None, -1, None), ('throttle_time_ms', 'int32', 0, 32767, -1, -1, None, -1, None), ('topics', '[]OffsetDeleteResponseTopic', 0, 32767, -1, -1, None, -1, 'OffsetDeleteResponseTopic'))
    API_KEY = 47
    VALID_VERSIONS = (0, 0)
    FLEXIBLE_MIN = None

    def __init__(self, *, error_code=0, throttle_time_ms=0, topics=DEFAULT, _unknown_tagged=None):
        self.error_code = error_code
        self.throttle_time_ms = throttle_time_ms
        self.topics = [] if topics is DEFAULT else topics
        self._unknown_tagged = _unknown_tagged



def _d_OffsetDeleteResponsePartition_0(b, p):
    o = _new(OffsetDeleteResponsePartition)
    o.partition_index, o.error_code = _S1.unpack_from(b, p)
    p += 6
    o._unknown_tagged = None
    return o, p


def _d_OffsetDeleteResponseTopic_0(b, p):
    o = _new(OffsetDeleteResponseTopic)
    o.name, p = _rstr(b, p)
    n, p = _ral(b, p, 6)
    l = []
    for _ in range(n):
        e, p = _d_OffsetDeleteResponsePartition_0(b, p)
        l.append(e)
    o.partitions = l
    o._unknown_tagged = None
    return o, p


def _d_OffsetDeleteResponse_0(b, p):
    o = _new(OffsetDeleteResponse)
    o.error_code, o.throttle_time_ms = _S0.unpack_from(b, p)
    p += 6
    n, p = _ral(b, p, 6)
    l = []
    for _ in range(n):
        e, p = _d_OffsetDeleteResponseTopic_0(b, p)
        l.append(e)
    o.topics = l
    o._unknown_tagged = None
    return o, p


def _e_OffsetDeleteResponsePartition_0(o, w):
    w.append(_S1.pack(o.partition_index, o.error_code))


def _e_OffsetDeleteResponseTopic_0(o, w):
    _wstr(w, o.name)
    x = o.partitions
    w.append(_I(len(x)))
    for e in x:
        _e_OffsetDeleteResponsePartition_0(e, w)


def _e_OffsetDeleteResponse_0(o, w):
    w.append(_S0.pack(o.error_code, o.throttle_time_ms))
    x = o.topics
    w.append(_I(len(x)))
    for e in x:
        _e_OffsetDeleteResponseTopic_0(e, w)


def _u_OffsetDeleteResponseTopic_0(o, w, c):
    _wstr(w, o.name)
    x = o.partitions
    w.append(_I(len(x)))
    for e in x:
        _e_OffsetDeleteResponsePartition_0(e, w)
        c += 1
        if c >= 1000:
            c = 0
            yield
    return c


def _t_OffsetDeleteResponse_0(o, w):
    c = 0
    w.append(_S0.pack(o.error_code, o.throttle_time_ms))
    x = o.topics
    w.append(_I(len(x)))
    for e in x:
        c = yield from _u_OffsetDeleteResponseTopic_0(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield


OffsetDeleteResponse._DECODERS = {0: _d_OffsetDeleteResponse_0}
OffsetDeleteResponse._ENCODERS = {0: _e_OffsetDeleteResponse_0}
OffsetDeleteResponse._ENCODE_STEPS = {0: _t_OffsetDeleteResponse_0}
