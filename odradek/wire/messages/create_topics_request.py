"""Generated from Kafka's CreateTopicsRequest.json by tools/gen_wire.py. Do not edit."""
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

_S0 = _struct.Struct('>ih')
_S1 = _struct.Struct('>i')
_S2 = _struct.Struct('>i?')


class CreatableReplicaAssignment(Message):
    __slots__ = ('partition_index', 'broker_ids', '_unknown_tagged')
    _FIELDS = (('partition_index', 'int32', 0, 32767, -1, -1, None, -1, None), ('broker_ids', '[]int32', 0, 32767, -1, -1, None, -1, None))

    def __init__(self, *, partition_index=0, broker_ids=DEFAULT, _unknown_tagged=None):
        self.partition_index = partition_index
        self.broker_ids = [] if broker_ids is DEFAULT else broker_ids
        self._unknown_tagged = _unknown_tagged


class CreatableTopicConfig(Message):
    __slots__ = ('name', 'value', '_unknown_tagged')
    _FIELDS = (('name', 'string', 0, 32767, -1, -1, None, -1, None), ('value', 'string', 0, 32767, 0, 32767, None, -1, None))

    def __init__(self, *, name='', value='', _unknown_tagged=None):
        self.name = name
        self.value = value
        self._unknown_tagged = _unknown_tagged


class CreatableTopic(Message):
    __slots__ = ('name', 'num_partitions', 'replication_factor', 'assignments', 'configs', '_unknown_tagged')
    _FIELDS = (('name', 'string', 0, 32767, -1, -1, None, -1, None), ('num_partitions', 'int32', 0, 32767, -1, -1, None, -1, None), ('replication_factor', 'int16', 0, 32767, -1, -1, None, -1, None), ('assignments', '[]CreatableReplicaAssignment', 0, 32767, -1, -1, None, -1, 'CreatableReplicaAssignment'), ('configs', '[]CreatableTopicConfig', 0, 32767, -1, -1, None, -1, 'CreatableTopicConfig'))

    def __init__(self, *, name='', num_partitions=0, replication_factor=0, assignments=DEFAULT, configs=DEFAULT, _unknown_tagged=None):
        self.name = name
        self.num_partitions = num_partitions
        self.replication_factor = replication_factor
        self.assignments = [] if assignments is DEFAULT else assignments
        self.configs = [] if configs is DEFAULT else configs
        self._unknown_tagged = _unknown_tagged


class CreateTopicsRequest(Message):
    __slots__ = ('topics', 'timeout_ms', 'validate_only', '_unknown_tagged')
    _FIELDS = (('topics', '[]CreatableTopic', 0, 32767, -1, -1, None, -1, 'CreatableTopic'), ('timeout_ms', 'int32', 0, 32767, -1, -1, None, -1, None), ('validate_only', 'bool', 1, 32767, -1, -1, None, -1, None))
    API_KEY = 19
    VALID_VERSIONS = (2, 7)
    FLEXIBLE_MIN = 5

    def __init__(self, *, topics=DEFAULT, timeout_ms=60000, validate_only=False, _unknown_tagged=None):
        self.topics = [] if topics is DEFAULT else topics
        self.timeout_ms = timeout_ms
        self.validate_only = validate_only
        self._unknown_tagged = _unknown_tagged



def _d_CreatableReplicaAssignment_0(b, p):
    o = _new(CreatableReplicaAssignment)
    o.partition_index, = _S1.unpack_from(b, p)
    p += 4
    n, p = _ral(b, p, 4)
    l = list((_ARR['i'][n] if n < 64 else _struct.Struct('>%di' % n)).unpack_from(b, p))
    p += 4 * n
    o.broker_ids = l
    o._unknown_tagged = None
    return o, p


def _d_CreatableTopicConfig_0(b, p):
    o = _new(CreatableTopicConfig)
    o.name, p = _rstr(b, p)
    o.value, p = _rnstr(b, p)
    o._unknown_tagged = None
    return o, p


def _n_CreatableTopic_0(b, p, y):
    o = _new(CreatableTopic)
    o.name, p = _rstr(b, p)
    o.num_partitions, o.replication_factor = _S0.unpack_from(b, p)
    p += 6
    n, p = _ral(b, p, 8)
    l = []
    for _ in range(n):
        e, p = _d_CreatableReplicaAssignment_0(b, p)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.assignments = l
    n, p = _ral(b, p, 4)
    l = []
    for _ in range(n):
        e, p = _d_CreatableTopicConfig_0(b, p)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.configs = l
    o._unknown_tagged = None
    return o, p, y


def _s_CreateTopicsRequest_0(b, p):
    o = _new(CreateTopicsRequest)
    n, p = _ral(b, p, 16)
    y = p + 16384
    l = []
    for _ in range(n):
        e, p, y = yield from _n_CreatableTopic_0(b, p, y)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.topics = l
    o.timeout_ms, o.validate_only = _S2.unpack_from(b, p)
    p += 5
    o._unknown_tagged = None
    return o, p


def _e_CreatableReplicaAssignment_0(o, w):
    w.append(_S1.pack(o.partition_index))
    x = o.broker_ids
    w.append(_I(len(x)))
    w.append(_pack('>%di' % len(x), *x))


def _e_CreatableTopicConfig_0(o, w):
    _wstr(w, o.name)
    _wnstr(w, o.value)


def _e_CreatableTopic_0(o, w):
    _wstr(w, o.name)
    w.append(_S0.pack(o.num_partitions, o.replication_factor))
    x = o.assignments
    w.append(_I(len(x)))
    for e in x:
        _e_CreatableReplicaAssignment_0(e, w)
    x = o.configs
    w.append(_I(len(x)))
    for e in x:
        _e_CreatableTopicConfig_0(e, w)


def _e_CreateTopicsRequest_0(o, w):
    x = o.topics
    w.append(_I(len(x)))
    for e in x:
        _e_CreatableTopic_0(e, w)
    w.append(_S2.pack(o.timeout_ms, o.validate_only))


def _d_CreatableReplicaAssignment_1(b, p):
    o = _new(CreatableReplicaAssignment)
    o.partition_index, = _S1.unpack_from(b, p)
    p += 4
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


def _d_CreatableTopicConfig_1(b, p):
    o = _new(CreatableTopicConfig)
    o.name, p = _rcstr(b, p)
    o.value, p = _rcnstr(b, p)
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _n_CreatableTopic_1(b, p, y):
    o = _new(CreatableTopic)
    o.name, p = _rcstr(b, p)
    o.num_partitions, o.replication_factor = _S0.unpack_from(b, p)
    p += 6
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 6)
    l = []
    for _ in range(n):
        e, p = _d_CreatableReplicaAssignment_1(b, p)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.assignments = l
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 3)
    l = []
    for _ in range(n):
        e, p = _d_CreatableTopicConfig_1(b, p)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.configs = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p, y


def _s_CreateTopicsRequest_1(b, p):
    o = _new(CreateTopicsRequest)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 10)
    y = p + 16384
    l = []
    for _ in range(n):
        e, p, y = yield from _n_CreatableTopic_1(b, p, y)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.topics = l
    o.timeout_ms, o.validate_only = _S2.unpack_from(b, p)
    p += 5
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_CreatableReplicaAssignment_1(o, w):
    w.append(_S1.pack(o.partition_index))
    x = o.broker_ids
    w.append(_uv(len(x) + 1))
    w.append(_pack('>%di' % len(x), *x))
    _wtag(w, o._unknown_tagged)


def _e_CreatableTopicConfig_1(o, w):
    _wcstr(w, o.name)
    _wcnstr(w, o.value)
    _wtag(w, o._unknown_tagged)


def _e_CreatableTopic_1(o, w):
    _wcstr(w, o.name)
    w.append(_S0.pack(o.num_partitions, o.replication_factor))
    x = o.assignments
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_CreatableReplicaAssignment_1(e, w)
    x = o.configs
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_CreatableTopicConfig_1(e, w)
    _wtag(w, o._unknown_tagged)


def _e_CreateTopicsRequest_1(o, w):
    x = o.topics
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_CreatableTopic_1(e, w)
    w.append(_S2.pack(o.timeout_ms, o.validate_only))
    _wtag(w, o._unknown_tagged)


_d_s_CreateTopicsRequest_0 = _whole(_s_CreateTopicsRequest_0)
_d_s_CreateTopicsRequest_1 = _whole(_s_CreateTopicsRequest_1)
CreateTopicsRequest._STEPS = {2: _s_CreateTopicsRequest_0, 3: _s_CreateTopicsRequest_0, 4: _s_CreateTopicsRequest_0, 5: _s_CreateTopicsRequest_1, 6: _s_CreateTopicsRequest_1, 7: _s_CreateTopicsRequest_1}
CreateTopicsRequest._DECODERS = {2: _d_s_CreateTopicsRequest_0, 3: _d_s_CreateTopicsRequest_0, 4: _d_s_CreateTopicsRequest_0, 5: _d_s_CreateTopicsRequest_1, 6: _d_s_CreateTopicsRequest_1, 7: _d_s_CreateTopicsRequest_1}
CreateTopicsRequest._ENCODERS = {2: _e_CreateTopicsRequest_0, 3: _e_CreateTopicsRequest_0, 4: _e_CreateTopicsRequest_0, 5: _e_CreateTopicsRequest_1, 6: _e_CreateTopicsRequest_1, 7: _e_CreateTopicsRequest_1}
