"""Generated from Kafka's CreatePartitionsRequest.json by tools/gen_wire.py. Do not edit."""
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


class CreatePartitionsAssignment(Message):
    __slots__ = ('broker_ids', '_unknown_tagged')
    _FIELDS = (('broker_ids', '[]int32', 0, 32767, -1, -1, None, -1, None),)

    def __init__(self, *, broker_ids=DEFAULT, _unknown_tagged=None):
        self.broker_ids = [] if broker_ids is DEFAULT else broker_ids
        self._unknown_tagged = _unknown_tagged


class CreatePartitionsTopic(Message):
    __slots__ = ('name', 'count', 'assignments', '_unknown_tagged')
    _FIELDS = (('name', 'string', 0, 32767, -1, -1, None, -1, None), ('count', 'int32', 0, 32767, -1, -1, None, -1, None), ('assignments', '[]CreatePartitionsAssignment', 0, 32767, 0, 32767, None, -1, 'CreatePartitionsAssignment'))

    def __init__(self, *, name='', count=0, assignments=DEFAULT, _unknown_tagged=None):
        self.name = name
        self.count = count
        self.assignments = [] if assignments is DEFAULT else assignments
        self._unknown_tagged = _unknown_tagged


class CreatePartitionsRequest(Message):
    __slots__ = ('topics', 'timeout_ms', 'validate_only', '_unknown_tagged')
    _FIELDS = (('topics', '[]CreatePartitionsTopic', 0, 32767, -1, -1, None, -1, 'CreatePartitionsTopic'), ('timeout_ms', 'int32', 0, 32767, -1, -1, None, -1, None), ('validate_only', 'bool', 0, 32767, -1, -1, None, -1, None))
    API_KEY = 37
    VALID_VERSIONS = (0, 3)
    FLEXIBLE_MIN = 2

    def __init__(self, *, topics=DEFAULT, timeout_ms=0, validate_only=False, _unknown_tagged=None):
        self.topics = [] if topics is DEFAULT else topics
        self.timeout_ms = timeout_ms
        self.validate_only = validate_only
        self._unknown_tagged = _unknown_tagged



def _d_CreatePartitionsAssignment_0(b, p):
    o = _new(CreatePartitionsAssignment)
    n, p = _ral(b, p, 4)
    l = list((_ARR['i'][n] if n < 64 else _struct.Struct('>%di' % n)).unpack_from(b, p))
    p += 4 * n
    o.broker_ids = l
    o._unknown_tagged = None
    return o, p


def _n_CreatePartitionsTopic_0(b, p, y):
    o = _new(CreatePartitionsTopic)
    o.name, p = _rstr(b, p)
    o.count, = _S0.unpack_from(b, p)
    p += 4
    n, p = _rnal(b, p, 4)
    if n < 0:
        o.assignments = None
    else:
        l = []
        for _ in range(n):
            e, p = _d_CreatePartitionsAssignment_0(b, p)
            l.append(e)
            if p >= y:
                y = p + 16384
                yield
        o.assignments = l
    o._unknown_tagged = None
    return o, p, y


def _s_CreatePartitionsRequest_0(b, p):
    o = _new(CreatePartitionsRequest)
    n, p = _ral(b, p, 10)
    y = p + 16384
    l = []
    for _ in range(n):
        e, p, y = yield from _n_CreatePartitionsTopic_0(b, p, y)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.topics = l
    o.timeout_ms, o.validate_only = _S1.unpack_from(b, p)
    p += 5
    o._unknown_tagged = None
    return o, p


def _e_CreatePartitionsAssignment_0(o, w):
    x = o.broker_ids
    w.append(_I(len(x)))
    w.append(_pack('>%di' % len(x), *x))


def _e_CreatePartitionsTopic_0(o, w):
    _wstr(w, o.name)
    w.append(_S0.pack(o.count))
    x = o.assignments
    if x is None:
        w.append(b'\xff\xff\xff\xff')
    else:
        w.append(_I(len(x)))
        for e in x:
            _e_CreatePartitionsAssignment_0(e, w)


def _e_CreatePartitionsRequest_0(o, w):
    x = o.topics
    w.append(_I(len(x)))
    for e in x:
        _e_CreatePartitionsTopic_0(e, w)
    w.append(_S1.pack(o.timeout_ms, o.validate_only))


def _d_CreatePartitionsAssignment_1(b, p):
    o = _new(CreatePartitionsAssignment)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 4)
    l = list((_ARR['i'][n] if n < 64 else _struct.Struct('>%di' % n)).unpack_from(b, p))
    p += 4 * n
    o.broker_ids = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _n_CreatePartitionsTopic_1(b, p, y):
    o = _new(CreatePartitionsTopic)
    o.name, p = _rcstr(b, p)
    o.count, = _S0.unpack_from(b, p)
    p += 4
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcnal(b, p, 2)
    if n < 0:
        o.assignments = None
    else:
        l = []
        for _ in range(n):
            e, p = _d_CreatePartitionsAssignment_1(b, p)
            l.append(e)
            if p >= y:
                y = p + 16384
                yield
        o.assignments = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p, y


def _s_CreatePartitionsRequest_1(b, p):
    o = _new(CreatePartitionsRequest)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 7)
    y = p + 16384
    l = []
    for _ in range(n):
        e, p, y = yield from _n_CreatePartitionsTopic_1(b, p, y)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.topics = l
    o.timeout_ms, o.validate_only = _S1.unpack_from(b, p)
    p += 5
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_CreatePartitionsAssignment_1(o, w):
    x = o.broker_ids
    w.append(_uv(len(x) + 1))
    w.append(_pack('>%di' % len(x), *x))
    _wtag(w, o._unknown_tagged)


def _e_CreatePartitionsTopic_1(o, w):
    _wcstr(w, o.name)
    w.append(_S0.pack(o.count))
    x = o.assignments
    if x is None:
        w.append(b'\x00')
    else:
        w.append(_uv(len(x) + 1))
        for e in x:
            _e_CreatePartitionsAssignment_1(e, w)
    _wtag(w, o._unknown_tagged)


def _e_CreatePartitionsRequest_1(o, w):
    x = o.topics
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_CreatePartitionsTopic_1(e, w)
    w.append(_S1.pack(o.timeout_ms, o.validate_only))
    _wtag(w, o._unknown_tagged)


_d_s_CreatePartitionsRequest_0 = _whole(_s_CreatePartitionsRequest_0)
_d_s_CreatePartitionsRequest_1 = _whole(_s_CreatePartitionsRequest_1)
CreatePartitionsRequest._STEPS = {0: _s_CreatePartitionsRequest_0, 1: _s_CreatePartitionsRequest_0, 2: _s_CreatePartitionsRequest_1, 3: _s_CreatePartitionsRequest_1}
CreatePartitionsRequest._DECODERS = {0: _d_s_CreatePartitionsRequest_0, 1: _d_s_CreatePartitionsRequest_0, 2: _d_s_CreatePartitionsRequest_1, 3: _d_s_CreatePartitionsRequest_1}
CreatePartitionsRequest._ENCODERS = {0: _e_CreatePartitionsRequest_0, 1: _e_CreatePartitionsRequest_0, 2: _e_CreatePartitionsRequest_1, 3: _e_CreatePartitionsRequest_1}
