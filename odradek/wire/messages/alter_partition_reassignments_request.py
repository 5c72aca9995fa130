"""Generated from Kafka's AlterPartitionReassignmentsRequest.json by tools/gen_wire.py. Do not edit."""
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

_S0 = _struct.Struct('>i')
_S1 = _struct.Struct('>i?')


class ReassignablePartition(Message):
    __slots__ = ('partition_index', 'replicas', '_unknown_tagged')
    _FIELDS = (('partition_index', 'int32', 0, 32767, -1, -1, None, -1, None), ('replicas', '[]int32', 0, 32767, 0, 32767, None, -1, None))

    def __init__(self, *, partition_index=0, replicas=None, _unknown_tagged=None):
        self.partition_index = partition_index
        self.replicas = replicas
        self._unknown_tagged = _unknown_tagged


class ReassignableTopic(Message):
    __slots__ = ('name', 'partitions', '_unknown_tagged')
    _FIELDS = (('name', 'string', 0, 32767, -1, -1, None, -1, None), ('partitions', '[]ReassignablePartition', 0, 32767, -1, -1, None, -1, 'ReassignablePartition'))

    def __init__(self, *, name='', partitions=DEFAULT, _unknown_tagged=None):
        self.name = name
        self.partitions = [] if partitions is DEFAULT else partitions
        self._unknown_tagged = _unknown_tagged


class AlterPartitionReassignmentsRequest(Message):
    __slots__ = ('timeout_ms', 'allow_replication_factor_change', 'topics', '_unknown_tagged')
    _FIELDS = (('timeout_ms', 'int32', 0, 32767, -1, -1, None, -1, None), ('allow_replication_factor_change', 'bool', 1, 32767, -1, -1, None, -1, None), ('topics', '[]ReassignableTopic', 0, 32767, -1, -1, None, -1, 'ReassignableTopic'))
    API_KEY = 45
    VALID_VERSIONS = (0, 1)
    FLEXIBLE_MIN = 0

    def __init__(self, *, timeout_ms=60000, allow_replication_factor_change=True, topics=DEFAULT, _unknown_tagged=None):
        self.timeout_ms = timeout_ms
        self.allow_replication_factor_change = allow_replication_factor_change
        self.topics = [] if topics is DEFAULT else topics
        self._unknown_tagged = _unknown_tagged



def _d_ReassignablePartition_0(b, p):
    o = _new(ReassignablePartition)
    o.partition_index, = _S0.unpack_from(b, p)
    p += 4
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcnal(b, p, 4)
    if n < 0:
        o.replicas = None
    else:
        l = list((_ARR['i'][n] if n < 64 else _struct.Struct('>%di' % n)).unpack_from(b, p))
        p += 4 * n
        o.replicas = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _n_ReassignableTopic_0(b, p, y):
    o = _new(ReassignableTopic)
    o.name, p = _rcstr(b, p)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 6)
    l = []
    for _ in range(n):
        e, p = _d_ReassignablePartition_0(b, p)
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


def _s_AlterPartitionReassignmentsRequest_0(b, p):
    o = _new(AlterPartitionReassignmentsRequest)
    o.timeout_ms, = _S0.unpack_from(b, p)
    p += 4
    o.allow_replication_factor_change = True
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 3)
    y = p + 16384
    l = []
    for _ in range(n):
        e, p, y = yield from _n_ReassignableTopic_0(b, p, y)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.topics = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_ReassignablePartition_0(o, w):
    w.append(_S0.pack(o.partition_index))
    x = o.replicas
    if x is None:
        w.append(b'\x00')
    else:
        w.append(_uv(len(x) + 1))
        w.append(_pack('>%di' % len(x), *x))
    _wtag(w, o._unknown_tagged)


def _e_ReassignableTopic_0(o, w):
    _wcstr(w, o.name)
    x = o.partitions
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_ReassignablePartition_0(e, w)
    _wtag(w, o._unknown_tagged)


def _e_AlterPartitionReassignmentsRequest_0(o, w):
    w.append(_S0.pack(o.timeout_ms))
    x = o.topics
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_ReassignableTopic_0(e, w)
    _wtag(w, o._unknown_tagged)


def _s_AlterPartitionReassignmentsRequest_1(b, p):
    o = _new(AlterPartitionReassignmentsRequest)
    o.timeout_ms, o.allow_replication_factor_change = _S1.unpack_from(b, p)
    p += 5
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 3)
    y = p + 16384
    l = []
    for _ in range(n):
        e, p, y = yield from _n_ReassignableTopic_0(b, p, y)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.topics = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_AlterPartitionReassignmentsRequest_1(o, w):
    w.append(_S1.pack(o.timeout_ms, o.allow_replication_factor_change))
    x = o.topics
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_ReassignableTopic_0(e, w)
    _wtag(w, o._unknown_tagged)


_d_s_AlterPartitionReassignmentsRequest_0 = _whole(_s_AlterPartitionReassignmentsRequest_0)
_d_s_AlterPartitionReassignmentsRequest_1 = _whole(_s_AlterPartitionReassignmentsRequest_1)
AlterPartitionReassignmentsRequest._STEPS = {0: _s_AlterPartitionReassignmentsRequest_0, 1: _s_AlterPartitionReassignmentsRequest_1}
AlterPartitionReassignmentsRequest._DECODERS = {0: _d_s_AlterPartitionReassignmentsRequest_0, 1: _d_s_AlterPartitionReassignmentsRequest_1}
AlterPartitionReassignmentsRequest._ENCODERS = {0: _e_AlterPartitionReassignmentsRequest_0, 1: _e_AlterPartitionReassignmentsRequest_1}
