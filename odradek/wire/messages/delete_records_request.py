"""Generated from Kafka's DeleteRecordsRequest.json by tools/gen_wire.py. Do not edit."""
# flake8: noqa
import struct as _struct

from ..base import DEFAULT, Message, whole as _whole
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
_S1 = _struct.Struct('>i')


class DeleteRecordsPartition(Message):
    __slots__ = ('partition_index', 'offset', '_unknown_tagged')
    _FIELDS = (('partition_index', 'int32', 0, 32767, -1, -1, None, -1, None), ('offset', 'int64', 0, 32767, -1, -1, None, -1, None))

    def __init__(self, *, partition_index=0, offset=0, _unknown_tagged=None):
        self.partition_index = partition_index
        self.offset = offset
        self._unknown_tagged = _unknown_tagged


class DeleteRecordsTopic(Message):
    __slots__ = ('name', 'partitions', '_unknown_tagged')
    _FIELDS = (('name', 'string', 0, 32767, -1, -1, None, -1, None), ('partitions', '[]DeleteRecordsPartition', 0, 32767, -1, -1, None, -1, 'DeleteRecordsPartition'))

    def __init__(self, *, name='', partitions=DEFAULT, _unknown_tagged=None):
        self.name = name
        self.partitions = [] if partitions is DEFAULT else partitions
        self._unknown_tagged = _unknown_tagged


class DeleteRecordsRequest(Message):
    __slots__ = ('topics', 'timeout_ms', '_unknown_tagged')
    _FIELDS = (('topics', '[]DeleteRecordsTopic', 0, 32767, -1, -1, None, -1, 'DeleteRecordsTopic'), ('timeout_ms', 'int32', 0, 32767, -1, -1, None, -1, None))
    API_KEY = 21
    VALID_VERSIONS = (0, 2)
    FLEXIBLE_MIN = 2

    def __init__(self, *, topics=DEFAULT, timeout_ms=0, _unknown_tagged=None):
        self.topics = [] if topics is DEFAULT else topics
        self.timeout_ms = timeout_ms
        self._unknown_tagged = _unknown_tagged



def _d_DeleteRecordsPartition_0(b, p):
    o = _new(DeleteRecordsPartition)
    o.partition_index, o.offset = _S0.unpack_from(b, p)
    p += 12
    o._unknown_tagged = None
    return o, p


def _n_DeleteRecordsTopic_0(b, p, y):
    o = _new(DeleteRecordsTopic)
    o.name, p = _rstr(b, p)
    n, p = _ral(b, p, 12)
    l = []
    for _ in range(n):
        e, p = _d_DeleteRecordsPartition_0(b, p)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.partitions = l
    o._unknown_tagged = None
    return o, p, y


def _s_DeleteRecordsRequest_0(b, p):
    o = _new(DeleteRecordsRequest)
    n, p = _ral(b, p, 6)
    y = p + 16384
    l = []
    for _ in range(n):
        e, p, y = yield from _n_DeleteRecordsTopic_0(b, p, y)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.topics = l
    o.timeout_ms, = _S1.unpack_from(b, p)
    p += 4
    o._unknown_tagged = None
    return o, p


def _e_DeleteRecordsPartition_0(o, w):
    w.append(_S0.pack(o.partition_index, o.offset))


def _e_DeleteRecordsTopic_0(o, w):
    _wstr(w, o.name)
    x = o.partitions
    w.append(_I(len(x)))
    for e in x:
        _e_DeleteRecordsPartition_0(e, w)


def _e_DeleteRecordsRequest_0(o, w):
    x = o.topics
    w.append(_I(len(x)))
    for e in x:
        _e_DeleteRecordsTopic_0(e, w)
    w.append(_S1.pack(o.timeout_ms))


def _d_DeleteRecordsPartition_1(b, p):
    o = _new(DeleteRecordsPartition)
    o.partition_index, o.offset = _S0.unpack_from(b, p)
    p += 12
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _n_DeleteRecordsTopic_1(b, p, y):
    o = _new(DeleteRecordsTopic)
    o.name, p = _rcstr(b, p)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 13)
    l = []
    for _ in range(n):
        e, p = _d_DeleteRecordsPartition_1(b, p)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.partitions = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p, y


def _s_DeleteRecordsRequest_1(b, p):
    o = _new(DeleteRecordsRequest)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 3)
    y = p + 16384
    l = []
    for _ in range(n):
        e, p, y = yield from _n_DeleteRecordsTopic_1(b, p, y)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.topics = l
    o.timeout_ms, = _S1.unpack_from(b, p)
    p += 4
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_DeleteRecordsPartition_1(o, w):
    w.append(_S0.pack(o.partition_index, o.offset))
    _wtag(w, o._unknown_tagged)


def _e_DeleteRecordsTopic_1(o, w):
    _wcstr(w, o.name)
    x = o.partitions
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_DeleteRecordsPartition_1(e, w)
    _wtag(w, o._unknown_tagged)


def _e_DeleteRecordsRequest_1(o, w):
    x = o.topics
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_DeleteRecordsTopic_1(e, w)
    w.append(_S1.pack(o.timeout_ms))
    _wtag(w, o._unknown_tagged)


_d_s_DeleteRecordsRequest_0 = _whole(_s_DeleteRecordsRequest_0)
_d_s_DeleteRecordsRequest_1 = _whole(_s_DeleteRecordsRequest_1)
DeleteRecordsRequest._STEPS = {0: _s_DeleteRecordsRequest_0, 1: _s_DeleteRecordsRequest_0, 2: _s_DeleteRecordsRequest_1}
DeleteRecordsRequest._DECODERS = {0: _d_s_DeleteRecordsRequest_0, 1: _d_s_DeleteRecordsRequest_0, 2: _d_s_DeleteRecordsRequest_1}
DeleteRecordsRequest._ENCODERS = {0: _e_DeleteRecordsRequest_0, 1: _e_DeleteRecordsRequest_0, 2: _e_DeleteRecordsRequest_1}
