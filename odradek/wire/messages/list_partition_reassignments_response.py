"""Generated from Kafka's ListPartitionReassignmentsResponse.json by tools/gen_wire.py. Do not edit."""
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

_S0 = _struct.Struct('>ih')
_S1 = _struct.Struct('>i')


class OngoingPartitionReassignment(Message):
    __slots__ = ('partition_index', 'replicas', 'adding_replicas', 'removing_replicas', '_unknown_tagged')
    _FIELDS = (('partition_index', 'int32', 0, 32767, -1, -1, None, -1, None), ('replicas', '[]int32', 0, 32767, -1, -1, None, -1, None), ('adding_replicas', '[]int32', 0, 32767, -1, -1, None, -1, None), ('removing_replicas', '[]int32', 0, 32767, -1, -1, None, -1, None))

    def __init__(self, *, partition_index=0, replicas=DEFAULT, adding_replicas=DEFAULT, removing_replicas=DEFAULT, _unknown_tagged=None):
        self.partition_index = partition_index
        self.replicas = [] if replicas is DEFAULT else replicas
        self.adding_replicas = [] if adding_replicas is DEFAULT else adding_replicas
        self.removing_replicas = [] if removing_replicas is DEFAULT else removing_replicas
        self._unknown_tagged = _unknown_tagged


class OngoingTopicReassignment(Message):
    __slots__ = ('name', 'partitions', '_unknown_tagged')
    _FIELDS = (('name', 'string', 0, 32767, -1, -1, None, -1, None), ('partitions', '[]OngoingPartitionReassignment', 0, 32767, -1, -1, None, -1, 'OngoingPartitionReassignment'))

    def __init__(self, *, name='', partitions=DEFAULT, _unknown_tagged=None):
        self.name = name
        self.partitions = [] if partitions is DEFAULT else partitions
        self._unknown_tagged = _unknown_tagged


class ListPartitionReassignmentsResponse(Message):
    __slots__ = ('throttle_time_ms', 'error_code', 'error_message', 'topics', '_unknown_tagged')
    _FIELDS = (('throttle_time_ms', 'int32', 0, 32767, -1, -1, None, -1, None), ('error_code', 'int16', 0, 32767, -1, -1, None, -1, None), ('error_message', 'string', 0, 32767, 0, 32767, None, -1, None), ('topics', '[]OngoingTopicReassignment', 0, 32767, -1, -1, None, -1, 'OngoingTopicReassignment'))
    API_KEY = 46
    VALID_VERSIONS = (0, 0)
    FLEXIBLE_MIN = 0

    def __init__(self, *, throttle_time_ms=0, error_code=0, error_message='', topics=DEFAULT, _unknown_tagged=None):
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.error_message = error_message
        self.topics = [] if topics is DEFAULT else topics
        self._unknown_tagged = _unknown_tagged



def _d_OngoingPartitionReassignment_0(b, p):
    o = _new(OngoingPartitionReassignment)
    o.partition_index, = _S1.unpack_from(b, p)
    p += 4
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 4)
    l = list((_ARR['i'][n] if n < 64 else _struct.Struct('>%di' % n)).unpack_from(b, p))
    p += 4 * n
    o.replicas = l
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 4)
    l = list((_ARR['i'][n] if n < 64 else _struct.Struct('>%di' % n)).unpack_from(b, p))
    p += 4 * n
    o.adding_replicas = l
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 4)
    l = list((_ARR['i'][n] if n < 64 else _struct.Struct('>%di' % n)).unpack_from(b, p))
    p += 4 * n
    o.removing_replicas = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_OngoingTopicReassignment_0(b, p):
    o = _new(OngoingTopicReassignment)
    o.name, p = _rcstr(b, p)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 8)
    l = []
    for _ in range(n):
        e, p = _d_OngoingPartitionReassignment_0(b, p)
        l.append(e)
    o.partitions = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_ListPartitionReassignmentsResponse_0(b, p):
    o = _new(ListPartitionReassignmentsResponse)
    o.throttle_time_ms, o.error_code = _S0.unpack_from(b, p)
    p += 6
    o.error_message, p = _rcnstr(b, p)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 3)
    l = []
    for _ in range(n):
        e, p = _d_OngoingTopicReassignment_0(b, p)
        l.append(e)
    o.topics = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_OngoingPartitionReassignment_0(o, w):
    w.append(_S1.pack(o.partition_index))
    x = o.replicas
    w.append(_uv(len(x) + 1))
    w.append(_pack('>%di' % len(x), *x))
    x = o.adding_replicas
    w.append(_uv(len(x) + 1))
    w.append(_pack('>%di' % len(x), *x))
    x = o.removing_replicas
    w.append(_uv(len(x) + 1))
    w.append(_pack('>%di' % len(x), *x))
    _wtag(w, o._unknown_tagged)


def _e_OngoingTopicReassignment_0(o, w):
    _wcstr(w, o.name)
    x = o.partitions
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_OngoingPartitionReassignment_0(e, w)
    _wtag(w, o._unknown_tagged)


def _e_ListPartitionReassignmentsResponse_0(o, w):
    w.append(_S0.pack(o.throttle_time_ms, o.error_code))
    _wcnstr(w, o.error_message)
    x = o.topics
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_OngoingTopicReassignment_0(e, w)
    _wtag(w, o._unknown_tagged)


def _u_OngoingTopicReassignment_0(o, w, c):
    _wcstr(w, o.name)
    x = o.partitions
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_OngoingPartitionReassignment_0(e, w)
        c += 1
        if c >= 1000:
            c = 0
            yield
    _wtag(w, o._unknown_tagged)
    return c


def _t_ListPartitionReassignmentsResponse_0(o, w):
    c = 0
    w.append(_S0.pack(o.throttle_time_ms, o.error_code))
    _wcnstr(w, o.error_message)
    x = o.topics
    w.append(_uv(len(x) + 1))
    for e in x:
        c = yield from _u_OngoingTopicReassignment_0(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield
    _wtag(w, o._unknown_tagged)


ListPartitionReassignmentsResponse._DECODERS = {0: _d_ListPartitionReassignmentsResponse_0}
ListPartitionReassignmentsResponse._ENCODERS = {0: _e_ListPartitionReassignmentsResponse_0}
ListPartitionReassignmentsResponse._ENCODE_STEPS = {0: _t_ListPartitionReassignmentsResponse_0}
