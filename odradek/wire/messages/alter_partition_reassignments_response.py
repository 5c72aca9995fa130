"""Generated from Kafka's AlterPartitionReassignmentsResponse.json by tools/gen_wire.py. Do not edit."""
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
_S2 = _struct.Struct('>ih')
_S3 = _struct.Struct('>i?h')


class ReassignablePartitionResponse(Message):
    __slots__ = ('partition_index', 'error_code', 'error_message', '_unknown_tagged')
    _FIELDS = (('partition_index', 'int32', 0, 32767, -1, -1, None, -1, None), ('error_code', 'int16', 0, 32767, -1, -1, None, -1, None), ('error_message', 'string', 0, 32767, 0, 32767, None, -1, None))

    def __init__(self, *, partition_index=0, error_code=0, error_message='', _unknown_tagged=None):
        self.partition_index = partition_index
        self.error_code = error_code
        self.error_message = error_message
        self._unknown_tagged = _unknown_tagged


class ReassignableTopicResponse(Message):
    __slots__ = ('name', 'partitions', '_unknown_tagged')
    _FIELDS = (('name', 'string', 0, 32767, -1, -1, None, -1, None), ('partitions', '[]ReassignablePartitionResponse', 0, 32767, -1, -1, None, -1, 'ReassignablePartitionResponse'))

    def __init__(self, *, name='', partitions=DEFAULT, _unknown_tagged=None):
        self.name = name
        self.partitions = [] if partitions is DEFAULT else partitions
        self._unknown_tagged = _unknown_tagged


class AlterPartitionReassignmentsResponse(Message):
    __slots__ = ('throttle_time_ms', 'allow_replication_factor_change', 'error_code', 'error_message', 'responses', '_unknown_tagged')
    _FIELDS = (('throttle_time_ms', 'int32', 0, 32767, -1, -1, None, -1, None), ('allow_replication_factor_change', 'bool', 1, 32767, -1, -1, None, -1, None), ('error_code', 'int16', 0, 32767, -1, -1, None, -1, None), ('error_message', 'string', 0, 32767, 0, 32767, None, -1, None), ('responses', '[]ReassignableTopicResponse', 0, 32767, -1, -1, None, -1, 'ReassignableTopicResponse'))
    API_KEY = 45
    VALID_VERSIONS = (0, 1)
    FLEXIBLE_MIN = 0

    def __init__(self, *, throttle_time_ms=0, allow_replication_factor_change=True, error_code=0, error_message='', responses=DEFAULT, _unknown_tagged=None):
        self.throttle_time_ms = throttle_time_ms
        self.allow_replication_factor_change = allow_replication_factor_change
        self.error_code = error_code
        self.error_message = error_message
        self.responses = [] if responses is DEFAULT else responses
        self._unknown_tagged = _unknown_tagged



def _d_ReassignablePartitionResponse_0(b, p):
    o = _new(ReassignablePartitionResponse)
    o.partition_index, o.error_code = _S2.unpack_from(b, p)
    p += 6
    o.error_message, p = _rcnstr(b, p)
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_ReassignableTopicResponse_0(b, p):
    o = _new(ReassignableTopicResponse)
    o.name, p = _rcstr(b, p)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 8)
    l = []
    for _ in range(n):
        e, p = _d_ReassignablePartitionResponse_0(b, p)
        l.append(e)
    o.partitions = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_AlterPartitionReassignmentsResponse_0(b, p):
    o = _new(AlterPartitionReassignmentsResponse)
    o.throttle_time_ms, = _S0.unpack_from(b, p)
    p += 4
    o.allow_replication_factor_change = True
    o.error_code, = _S1.unpack_from(b, p)
    p += 2
    o.error_message, p = _rcnstr(b, p)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 3)
    l = []
    for _ in range(n):
        e, p = _d_ReassignableTopicResponse_0(b, p)
        l.append(e)
    o.responses = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_ReassignablePartitionResponse_0(o, w):
    w.append(_S2.pack(o.partition_index, o.error_code))
    _wcnstr(w, o.error_message)
    _wtag(w, o._unknown_tagged)


def _e_ReassignableTopicResponse_0(o, w):
    _wcstr(w, o.name)
    x = o.partitions
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_ReassignablePartitionResponse_0(e, w)
    _wtag(w, o._unknown_tagged)


def _e_AlterPartitionReassignmentsResponse_0(o, w):
    w.append(_S2.pack(o.throttle_time_ms, o.error_code))
    _wcnstr(w, o.error_message)
    x = o.responses
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_ReassignableTopicResponse_0(e, w)
    _wtag(w, o._unknown_tagged)


def _u_ReassignableTopicResponse_0(o, w, c):
    _wcstr(w, o.name)
    x = o.partitions
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_ReassignablePartitionResponse_0(e, w)
        c += 1
        if c >= 1000:
            c = 0
            yield
    _wtag(w, o._unknown_tagged)
    return c


def _t_AlterPartitionReassignmentsResponse_0(o, w):
    c = 0
    w.append(_S2.pack(o.throttle_time_ms, o.error_code))
    _wcnstr(w, o.error_message)
    x = o.responses
    w.append(_uv(len(x) + 1))
    for e in x:
        c = yield from _u_ReassignableTopicResponse_0(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield
    _wtag(w, o._unknown_tagged)


def _d_AlterPartitionReassignmentsResponse_1(b, p):
    o = _new(AlterPartitionReassignmentsResponse)
    o.throttle_time_ms, o.allow_replication_factor_change, o.error_code = _S3.unpack_from(b, p)
    p += 7
    o.error_message, p = _rcnstr(b, p)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 3)
    l = []
    for _ in range(n):
        e, p = _d_ReassignableTopicResponse_0(b, p)
        l.append(e)
    o.responses = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_AlterPartitionReassignmentsResponse_1(o, w):
    w.append(_S3.pack(o.throttle_time_ms, o.allow_replication_factor_change, o.error_code))
    _wcnstr(w, o.error_message)
    x = o.responses
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_ReassignableTopicResponse_0(e, w)
    _wtag(w, o._unknown_tagged)


def _t_AlterPartitionReassignmentsResponse_1(o, w):
    c = 0
    w.append(_S3.pack(o.throttle_time_ms, o.allow_replication_factor_change, o.error_code))
    _wcnstr(w, o.error_message)
    x = o.responses
    w.append(_uv(len(x) + 1))
    for e in x:
        c = yield from _u_ReassignableTopicResponse_0(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield
    _wtag(w, o._unknown_tagged)


AlterPartitionReassignmentsResponse._DECODERS = {0: _d_AlterPartitionReassignmentsResponse_0, 1: _d_AlterPartitionReassignmentsResponse_1}
AlterPartitionReassignmentsResponse._ENCODERS = {0: _e_AlterPartitionReassignmentsResponse_0, 1: _e_AlterPartitionReassignmentsResponse_1}
AlterPartitionReassignmentsResponse._ENCODE_STEPS = {0: _t_AlterPartitionReassignmentsResponse_0, 1: _t_AlterPartitionReassignmentsResponse_1}
