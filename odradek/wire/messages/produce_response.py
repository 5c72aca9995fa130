"""Generated from Kafka's ProduceResponse.json by tools/gen_wire.py. Do not edit."""
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

_S0 = _struct.Struct('>ihqq')
_S1 = _struct.Struct('>i')
_S2 = _struct.Struct('>ihqqq')
_S3 = _struct.Struct('>ii')
_S4 = _struct.Struct('>16s')


class BatchIndexAndErrorMessage(Message):
    __slots__ = ('batch_index', 'batch_index_error_message', '_unknown_tagged')
    _FIELDS = (('batch_index', 'int32', 8, 32767, -1, -1, None, -1, None), ('batch_index_error_message', 'string', 8, 32767, 8, 32767, None, -1, None))

    def __init__(self, *, batch_index=0, batch_index_error_message=None, _unknown_tagged=None):
        self.batch_index = batch_index
        self.batch_index_error_message = batch_index_error_message
        self._unknown_tagged = _unknown_tagged


class LeaderIdAndEpoch(Message):
    __slots__ = ('leader_id', 'leader_epoch', '_unknown_tagged')
    _FIELDS = (('leader_id', 'int32', 10, 32767, -1, -1, None, -1, None), ('leader_epoch', 'int32', 10, 32767, -1, -1, None, -1, None))

    def __init__(self, *, leader_id=-1, leader_epoch=-1, _unknown_tagged=None):
        self.leader_id = leader_id
        self.leader_epoch = leader_epoch
        self._unknown_tagged = _unknown_tagged


class PartitionProduceResponse(Message):
    __slots__ = ('index', 'error_code', 'base_offset', 'log_append_time_ms', 'log_start_offset', 'record_errors', 'error_message', 'current_leader', '_unknown_tagged')
    _FIELDS = (('index', 'int32', 0, 32767, -1, -1, None, -1, None), ('error_code', 'int16', 0, 32767, -1, -1, None, -1, None), ('base_offset', 'int64', 0, 32767, -1, -1, None, -1, None), ('log_append_time_ms', 'int64', 2, 32767, -1, -1, None, -1, None), ('log_start_offset', 'int64', 5, 32767, -1, -1, None, -1, None), ('record_errors', '[]BatchIndexAndErrorMessage', 8, 32767, -1, -1, None, -1, 'BatchIndexAndErrorMessage'), ('error_message', 'string', 8, 32767, 8, 32767, None, -1, None), ('current_leader', 'LeaderIdAndEpoch', 10, 32767, -1, -1, 0, 10, 'LeaderIdAndEpoch'))

    def __init__(self, *, index=0, error_code=0, base_offset=0, log_append_time_ms=-1, log_start_offset=-1, record_errors=DEFAULT, error_message=None, current_leader=DEFAULT, _unknown_tagged=None):
        self.index = index
        self.error_code = error_code
        self.base_offset = base_offset
        self.log_append_time_ms = log_append_time_ms
        self.log_start_offset = log_start_offset
        self.record_errors = [] if record_errors is DEFAULT else record_errors
        self.error_message = error_message
        self.current_leader = LeaderIdAndEpoch() if current_leader is DEFAULT else current_leader
        self._unknown_tagged = _unknown_tagged


class TopicProduceResponse(Message):
    __slots__ = ('name', 'topic_id', 'partition_responses', '_unknown_tagged')
    _FIELDS = (('name', 'string', 0, 12, -1, -1, None, -1, None), ('topic_id', 'uuid', 13, 32767, -1, -1, None, -1, None), ('partition_responses', '[]PartitionProduceResponse', 0, 32767, -1, -1, None, -1, 'PartitionProduceResponse'))

    def __init__(self, *, name='', topic_id=ZERO_UUID, partition_responses=DEFAULT, _unknown_tagged=None):
        self.name = name
        self.topic_id = topic_id
        self.partition_responses = [] if partition_responses is DEFAULT else partition_responses
        self._unknown_tagged = _unknown_tagged


class NodeEndpoint(Message):
    __slots__ = ('node_id', 'host', 'port', 'rack', '_unknown_tagged')
    _FIELDS = (('node_id', 'int32', 10, 32767, -1, -1, None, -1, None), ('host', 'string', 10, 32767, -1, -1, None, -1, None), ('port', 'int32', 10, 32767, -1, -1, None, -1, None), ('rack', 'string', 10, 32767, 10, 32767, None, -1, None))

    def __init__(self, *, node_id=0, host='', port=0, rack=None, _unknown_tagged=None):
        self.node_id = node_id
        self.host = host
        self.port = port
        self.rack = rack
        self._unknown_tagged = _unknown_tagged


class ProduceResponse(Message):
    __slots__ = ('responses', 'throttle_time_ms', 'node_endpoints', '_unknown_tagged')
    _FIELDS = (('responses', '[]TopicProduceResponse', 0, 32767, -1, -1, None, -1, 'TopicProduceResponse'), ('throttle_time_ms', 'int32', 1, 32767, -1, -1, None, -1, None), ('node_endpoints', '[]NodeEndpoint', 10, 32767, -1, -1, 0, 10, 'NodeEndpoint'))
    API_KEY = 0
    VALID_VERSIONS = (3, 13)
    FLEXIBLE_MIN = 9

    def __init__(self, *, responses=DEFAULT, throttle_time_ms=0, node_endpoints=DEFAULT, _unknown_tagged=None):
        self.responses = [] if responses is DEFAULT else responses
        self.throttle_time_ms = throttle_time_ms
        self.node_endpoints = [] if node_endpoints is DEFAULT else node_endpoints
        self._unknown_tagged = _unknown_tagged



def _d_PartitionProduceResponse_0(b, p):
    o = _new(PartitionProduceResponse)
    o.index, o.error_code, o.base_offset, o.log_append_time_ms = _S0.unpack_from(b, p)
    p += 22
    o.log_start_offset = -1
    o.record_errors = []
    o.error_message = None
    o.current_leader = LeaderIdAndEpoch()
    o._unknown_tagged = None
    return o, p


def _d_TopicProduceResponse_0(b, p):
    o = _new(TopicProduceResponse)
    o.name, p = _rstr(b, p)
    o.topic_id = ZERO_UUID
    n, p = _ral(b, p, 22)
    l = []
    for _ in range(n):
        e, p = _d_PartitionProduceResponse_0(b, p)
        l.append(e)
    o.partition_responses = l
    o._unknown_tagged = None
    return o, p


def _d_ProduceResponse_0(b, p):
    o = _new(ProduceResponse)
    n, p = _ral(b, p, 6)
    l = []
    for _ in range(n):
        e, p = _d_TopicProduceResponse_0(b, p)
        l.append(e)
    o.responses = l
    o.throttle_time_ms, = _S1.unpack_from(b, p)
    p += 4
    o.node_endpoints = []
    o._unknown_tagged = None
    return o, p


def _e_PartitionProduceResponse_0(o, w):
    w.append(_S0.pack(o.index, o.error_code, o.base_offset, o.log_append_time_ms))


def _e_TopicProduceResponse_0(o, w):
    _wstr(w, o.name)
    x = o.partition_responses
    w.append(_I(len(x)))
    for e in x:
        _e_PartitionProduceResponse_0(e, w)


def _e_ProduceResponse_0(o, w):
    x = o.responses
    w.append(_I(len(x)))
    for e in x:
        _e_TopicProduceResponse_0(e, w)
    w.append(_S1.pack(o.throttle_time_ms))


def _u_TopicProduceResponse_0(o, w, c):
    _wstr(w, o.name)
    x = o.partition_responses
    w.append(_I(len(x)))
    for e in x:
        _e_PartitionProduceResponse_0(e, w)
        c += 1
        if c >= 1000:
            c = 0
            yield
    return c


def _t_ProduceResponse_0(o, w):
    c = 0
    x = o.responses
    w.append(_I(len(x)))
    for e in x:
        c = yield from _u_TopicProduceResponse_0(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield
    w.append(_S1.pack(o.throttle_time_ms))


def _d_PartitionProduceResponse_1(b, p):
    o = _new(PartitionProduceResponse)
    o.index, o.error_code, o.base_offset, o.log_append_time_ms, o.log_start_offset = _S2.unpack_from(b, p)
    p += 30
    o.record_errors = []
    o.error_message = None
    o.current_leader = LeaderIdAndEpoch()
    o._unknown_tagged = None
    return o, p


def _d_TopicProduceResponse_1(b, p):
    o = _new(TopicProduceResponse)
    o.name, p = _rstr(b, p)
    o.topic_id = ZERO_UUID
    n, p = _ral(b, p, 30)
    l = []
    for _ in range(n):
        e, p = _d_PartitionProduceResponse_1(b, p)
        l.append(e)
    o.partition_responses = l
    o._unknown_tagged = None
    return o, p


def _d_ProduceResponse_1(b, p):
    o = _new(ProduceResponse)
    n, p = _ral(b, p, 6)
    l = []
    for _ in range(n):
        e, p = _d_TopicProduceResponse_1(b, p)
        l.append(e)
    o.responses = l
    o.throttle_time_ms, = _S1.unpack_from(b, p)
    p += 4
    o.node_endpoints = []
    o._unknown_tagged = None
    return o, p


def _e_PartitionProduceResponse_1(o, w):
    w.append(_S2.pack(o.index, o.error_code, o.base_offset, o.log_append_time_ms, o.log_start_offset))


def _e_TopicProduceResponse_1(o, w):
    _wstr(w, o.name)
    x = o.partition_responses
    w.append(_I(len(x)))
    for e in x:
        _e_PartitionProduceResponse_1(e, w)


def _e_ProduceResponse_1(o, w):
    x = o.responses
    w.append(_I(len(x)))
    for e in x:
        _e_TopicProduceResponse_1(e, w)
    w.append(_S1.pack(o.throttle_time_ms))


def _u_TopicProduceResponse_1(o, w, c):
    _wstr(w, o.name)
    x = o.partition_responses
    w.append(_I(len(x)))
    for e in x:
        _e_PartitionProduceResponse_1(e, w)
        c += 1
        if c >= 1000:
            c = 0
            yield
    return c


def _t_ProduceResponse_1(o, w):
    c = 0
    x = o.responses
    w.append(_I(len(x)))
    for e in x:
        c = yield from _u_TopicProduceResponse_1(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield
    w.append(_S1.pack(o.throttle_time_ms))


def _d_BatchIndexAndErrorMessage_0(b, p):
    o = _new(BatchIndexAndErrorMessage)
    o.batch_index, = _S1.unpack_from(b, p)
    p += 4
    o.batch_index_error_message, p = _rnstr(b, p)
    o._unknown_tagged = None
    return o, p


def _d_PartitionProduceResponse_2(b, p):
    o = _new(PartitionProduceResponse)
    o.index, o.error_code, o.base_offset, o.log_append_time_ms, o.log_start_offset = _S2.unpack_from(b, p)
    p += 30
    n, p = _ral(b, p, 6)
    l = []
    for _ in range(n):
        e, p = _d_BatchIndexAndErrorMessage_0(b, p)
        l.append(e)
    o.record_errors = l
    o.error_message, p = _rnstr(b, p)
    o.current_leader = LeaderIdAndEpoch()
    o._unknown_tagged = None
    return o, p


def _d_TopicProduceResponse_2(b, p):
    o = _new(TopicProduceResponse)
    o.name, p = _rstr(b, p)
    o.topic_id = ZERO_UUID
    n, p = _ral(b, p, 36)
    l = []
    for _ in range(n):
        e, p = _d_PartitionProduceResponse_2(b, p)
        l.append(e)
    o.partition_responses = l
    o._unknown_tagged = None
    return o, p


def _d_ProduceResponse_2(b, p):
    o = _new(ProduceResponse)
    n, p = _ral(b, p, 6)
    l = []
    for _ in range(n):
        e, p = _d_TopicProduceResponse_2(b, p)
        l.append(e)
    o.responses = l
    o.throttle_time_ms, = _S1.unpack_from(b, p)
    p += 4
    o.node_endpoints = []
    o._unknown_tagged = None
    return o, p


def _e_BatchIndexAndErrorMessage_0(o, w):
    w.append(_S1.pack(o.batch_index))
    _wnstr(w, o.batch_index_error_message)


def _e_PartitionProduceResponse_2(o, w):
    w.append(_S2.pack(o.index, o.error_code, o.base_offset, o.log_append_time_ms, o.log_start_offset))
    x = o.record_errors
    w.append(_I(len(x)))
    for e in x:
        _e_BatchIndexAndErrorMessage_0(e, w)
    _wnstr(w, o.error_message)


def _e_TopicProduceResponse_2(o, w):
    _wstr(w, o.name)
    x = o.partition_responses
    w.append(_I(len(x)))
    for e in x:
        _e_PartitionProduceResponse_2(e, w)


def _e_ProduceResponse_2(o, w):
    x = o.responses
    w.append(_I(len(x)))
    for e in x:
        _e_TopicProduceResponse_2(e, w)
    w.append(_S1.pack(o.throttle_time_ms))


def _u_PartitionProduceResponse_0(o, w, c):
    w.append(_S2.pack(o.index, o.error_code, o.base_offset, o.log_append_time_ms, o.log_start_offset))
    x = o.record_errors
    w.append(_I(len(x)))
    for e in x:
        _e_BatchIndexAndErrorMessage_0(e, w)
        c += 1
        if c >= 1000:
            c = 0
            yield
    _wnstr(w, o.error_message)
    return c


def _u_TopicProduceResponse_2(o, w, c):
    _wstr(w, o.name)
    x = o.partition_responses
    w.append(_I(len(x)))
    for e in x:
        c = yield from _u_PartitionProduceResponse_0(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield
    return c


def _t_ProduceResponse_2(o, w):
    c = 0
    x = o.responses
    w.append(_I(len(x)))
    for e in x:
        c = yield from _u_TopicProduceResponse_2(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield
    w.append(_S1.pack(o.throttle_time_ms))


def _d_BatchIndexAndErrorMessage_1(b, p):
    o = _new(BatchIndexAndErrorMessage)
    o.batch_index, = _S1.unpack_from(b, p)
    p += 4
    o.batch_index_error_message, p = _rcnstr(b, p)
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_PartitionProduceResponse_3(b, p):
    o = _new(PartitionProduceResponse)
    o.index, o.error_code, o.base_offset, o.log_append_time_ms, o.log_start_offset = _S2.unpack_from(b, p)
    p += 30
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 6)
    l = []
    for _ in range(n):
        e, p = _d_BatchIndexAndErrorMessage_1(b, p)
        l.append(e)
    o.record_errors = l
    o.error_message, p = _rcnstr(b, p)
    o.current_leader = LeaderIdAndEpoch()
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_TopicProduceResponse_3(b, p):
    o = _new(TopicProduceResponse)
    o.name, p = _rcstr(b, p)
    o.topic_id = ZERO_UUID
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 33)
    l = []
    for _ in range(n):
        e, p = _d_PartitionProduceResponse_3(b, p)
        l.append(e)
    o.partition_responses = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_ProduceResponse_3(b, p):
    o = _new(ProduceResponse)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 3)
    l = []
    for _ in range(n):
        e, p = _d_TopicProduceResponse_3(b, p)
        l.append(e)
    o.responses = l
    o.throttle_time_ms, = _S1.unpack_from(b, p)
    p += 4
    o.node_endpoints = []
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_BatchIndexAndErrorMessage_1(o, w):
    w.append(_S1.pack(o.batch_index))
    _wcnstr(w, o.batch_index_error_message)
    _wtag(w, o._unknown_tagged)


def _e_PartitionProduceResponse_3(o, w):
    w.append(_S2.pack(o.index, o.error_code, o.base_offset, o.log_append_time_ms, o.log_start_offset))
    x = o.record_errors
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_BatchIndexAndErrorMessage_1(e, w)
    _wcnstr(w, o.error_message)
    _wtag(w, o._unknown_tagged)


def _e_TopicProduceResponse_3(o, w):
    _wcstr(w, o.name)
    x = o.partition_responses
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_PartitionProduceResponse_3(e, w)
    _wtag(w, o._unknown_tagged)


def _e_ProduceResponse_3(o, w):
    x = o.responses
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_TopicProduceResponse_3(e, w)
    w.append(_S1.pack(o.throttle_time_ms))
    _wtag(w, o._unknown_tagged)


def _u_PartitionProduceResponse_1(o, w, c):
    w.append(_S2.pack(o.index, o.error_code, o.base_offset, o.log_append_time_ms, o.log_start_offset))
    x = o.record_errors
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_BatchIndexAndErrorMessage_1(e, w)
        c += 1
        if c >= 1000:
            c = 0
            yield
    _wcnstr(w, o.error_message)
    _wtag(w, o._unknown_tagged)
    return c


def _u_TopicProduceResponse_3(o, w, c):
    _wcstr(w, o.name)
    x = o.partition_responses
    w.append(_uv(len(x) + 1))
    for e in x:
        c = yield from _u_PartitionProduceResponse_1(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield
    _wtag(w, o._unknown_tagged)
    return c


def _t_ProduceResponse_3(o, w):
    c = 0
    x = o.responses
    w.append(_uv(len(x) + 1))
    for e in x:
        c = yield from _u_TopicProduceResponse_3(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield
    w.append(_S1.pack(o.throttle_time_ms))
    _wtag(w, o._unknown_tagged)


def _d_LeaderIdAndEpoch_0(b, p):
    o = _new(LeaderIdAndEpoch)
    o.leader_id, o.leader_epoch = _S3.unpack_from(b, p)
    p += 8
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_PartitionProduceResponse_4(b, p):
    o = _new(PartitionProduceResponse)
    o.index, o.error_code, o.base_offset, o.log_append_time_ms, o.log_start_offset = _S2.unpack_from(b, p)
    p += 30
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 6)
    l = []
    for _ in range(n):
        e, p = _d_BatchIndexAndErrorMessage_1(b, p)
        l.append(e)
    o.record_errors = l
    o.error_message, p = _rcnstr(b, p)
    o.current_leader = LeaderIdAndEpoch()
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    u = None
    if t is not None:
        for tag, raw in t:
            if tag == 0:
                q = 0
                o.current_leader, q = _d_LeaderIdAndEpoch_0(raw, q)
            else:
                if u is None: u = []
                u.append((tag, bytes(raw)))
    o._unknown_tagged = u
    return o, p


def _d_TopicProduceResponse_4(b, p):
    o = _new(TopicProduceResponse)
    o.name, p = _rcstr(b, p)
    o.topic_id = ZERO_UUID
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 33)
    l = []
    for _ in range(n):
        e, p = _d_PartitionProduceResponse_4(b, p)
        l.append(e)
    o.partition_responses = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_NodeEndpoint_0(b, p):
    o = _new(NodeEndpoint)
    o.node_id, = _S1.unpack_from(b, p)
    p += 4
    o.host, p = _rcstr(b, p)
    o.port, = _S1.unpack_from(b, p)
    p += 4
    o.rack, p = _rcnstr(b, p)
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_ProduceResponse_4(b, p):
    o = _new(ProduceResponse)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 3)
    l = []
    for _ in range(n):
        e, p = _d_TopicProduceResponse_4(b, p)
        l.append(e)
    o.responses = l
    o.throttle_time_ms, = _S1.unpack_from(b, p)
    p += 4
    o.node_endpoints = []
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    u = None
    if t is not None:
        for tag, raw in t:
            if tag == 0:
                q = 0
                n = raw[q] - 1
                if 0 <= n < 127:
                    q += 1
                else:
                    n, q = _rcal(raw, q, 11)
                l = []
                for _ in range(n):
                    e, q = _d_NodeEndpoint_0(raw, q)
                    l.append(e)
                o.node_endpoints = l
            else:
                if u is None: u = []
                u.append((tag, bytes(raw)))
    o._unknown_tagged = u
    return o, p


def _e_LeaderIdAndEpoch_0(o, w):
    w.append(_S3.pack(o.leader_id, o.leader_epoch))
    _wtag(w, o._unknown_tagged)


def _e_PartitionProduceResponse_4(o, w):
    w.append(_S2.pack(o.index, o.error_code, o.base_offset, o.log_append_time_ms, o.log_start_offset))
    x = o.record_errors
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_BatchIndexAndErrorMessage_1(e, w)
    _wcnstr(w, o.error_message)
    tg = []
    x = o.current_leader
    if x != LeaderIdAndEpoch():
        tw = []
        _e_LeaderIdAndEpoch_0(x, tw)
        tg.append((0, b''.join(tw)))
    if o._unknown_tagged:
        tg = sorted(tg + o._unknown_tagged, key=_tagkey)
    _wtag(w, tg)


def _e_TopicProduceResponse_4(o, w):
    _wcstr(w, o.name)
    x = o.partition_responses
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_PartitionProduceResponse_4(e, w)
    _wtag(w, o._unknown_tagged)


def _e_NodeEndpoint_0(o, w):
    w.append(_S1.pack(o.node_id))
    _wcstr(w, o.host)
    w.append(_S1.pack(o.port))
    _wcnstr(w, o.rack)
    _wtag(w, o._unknown_tagged)


def _e_ProduceResponse_4(o, w):
    x = o.responses
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_TopicProduceResponse_4(e, w)
    w.append(_S1.pack(o.throttle_time_ms))
    tg = []
    x = o.node_endpoints
    if x:
        tw = []
        x = x
        tw.append(_uv(len(x) + 1))
        for e in x:
            _e_NodeEndpoint_0(e, tw)
        tg.append((0, b''.join(tw)))
    if o._unknown_tagged:
        tg = sorted(tg + o._unknown_tagged, key=_tagkey)
    _wtag(w, tg)


def _u_PartitionProduceResponse_2(o, w, c):
    w.append(_S2.pack(o.index, o.error_code, o.base_offset, o.log_append_time_ms, o.log_start_offset))
    x = o.record_errors
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_BatchIndexAndErrorMessage_1(e, w)
        c += 1
        if c >= 1000:
            c = 0
            yield
    _wcnstr(w, o.error_message)
    tg = []
    x = o.current_leader
    if x != LeaderIdAndEpoch():
        tw = []
        _e_LeaderIdAndEpoch_0(x, tw)
        tg.append((0, b''.join(tw)))
    if o._unknown_tagged:
        tg = sorted(tg + o._unknown_tagged, key=_tagkey)
    _wtag(w, tg)
    return c


def _u_TopicProduceResponse_4(o, w, c):
    _wcstr(w, o.name)
    x = o.partition_responses
    w.append(_uv(len(x) + 1))
    for e in x:
        c = yield from _u_PartitionProduceResponse_2(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield
    _wtag(w, o._unknown_tagged)
    return c


def _t_ProduceResponse_4(o, w):
    c = 0
    x = o.responses
    w.append(_uv(len(x) + 1))
    for e in x:
        c = yield from _u_TopicProduceResponse_4(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield
    w.append(_S1.pack(o.throttle_time_ms))
    tg = []
    x = o.node_endpoints
    if x:
        tw = []
        x = x
        tw.append(_uv(len(x) + 1))
        for e in x:
            _e_NodeEndpoint_0(e, tw)
        tg.append((0, b''.join(tw)))
    if o._unknown_tagged:
        tg = sorted(tg + o._unknown_tagged, key=_tagkey)
    _wtag(w, tg)


def _d_TopicProduceResponse_5(b, p):
    o = _new(TopicProduceResponse)
    o.name = ''
    o.topic_id, = _S4.unpack_from(b, p)
    p += 16
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 33)
    l = []
    for _ in range(n):
        e, p = _d_PartitionProduceResponse_4(b, p)
        l.append(e)
    o.partition_responses = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_ProduceResponse_5(b, p):
    o = _new(ProduceResponse)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 18)
    l = []
    for _ in range(n):
        e, p = _d_TopicProduceResponse_5(b, p)
        l.append(e)
    o.responses = l
    o.throttle_time_ms, = _S1.unpack_from(b, p)
    p += 4
    o.node_endpoints = []
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    u = None
    if t is not None:
        for tag, raw in t:
            if tag == 0:
                q = 0
                n = raw[q] - 1
                if 0 <= n < 127:
                    q += 1
                else:
                    n, q = _rcal(raw, q, 11)
                l = []
                for _ in range(n):
                    e, q = _d_NodeEndpoint_0(raw, q)
                    l.append(e)
                o.node_endpoints = l
            else:
                if u is None: u = []
                u.append((tag, bytes(raw)))
    o._unknown_tagged = u
    return o, p


def _e_TopicProduceResponse_5(o, w):
    w.append(_S4.pack(o.topic_id))
    x = o.partition_responses
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_PartitionProduceResponse_4(e, w)
    _wtag(w, o._unknown_tagged)


def _e_ProduceResponse_5(o, w):
    x = o.responses
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_TopicProduceResponse_5(e, w)
    w.append(_S1.pack(o.throttle_time_ms))
    tg = []
    x = o.node_endpoints
    if x:
        tw = []
        x = x
        tw.append(_uv(len(x) + 1))
        for e in x:
            _e_NodeEndpoint_0(e, tw)
        tg.append((0, b''.join(tw)))
    if o._unknown_tagged:
        tg = sorted(tg + o._unknown_tagged, key=_tagkey)
    _wtag(w, tg)


def _u_TopicProduceResponse_5(o, w, c):
    w.append(_S4.pack(o.topic_id))
    x = o.partition_responses
    w.append(_uv(len(x) + 1))
    for e in x:
        c = yield from _u_PartitionProduceResponse_2(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield
    _wtag(w, o._unknown_tagged)
    return c


def _t_ProduceResponse_5(o, w):
    c = 0
    x = o.responses
    w.append(_uv(len(x) + 1))
    for e in x:
        c = yield from _u_TopicProduceResponse_5(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield
    w.append(_S1.pack(o.throttle_time_ms))
    tg = []
    x = o.node_endpoints
    if x:
        tw = []
        x = x
        tw.append(_uv(len(x) + 1))
        for e in x:
            _e_NodeEndpoint_0(e, tw)
        tg.append((0, b''.join(tw)))
    if o._unknown_tagged:
        tg = sorted(tg + o._unknown_tagged, key=_tagkey)
    _wtag(w, tg)


ProduceResponse._DECODERS = {3: _d_ProduceResponse_0, 4: _d_ProduceResponse_0, 5: _d_ProduceResponse_1, 6: _d_ProduceResponse_1, 7: _d_ProduceResponse_1, 8: _d_ProduceResponse_2, 9: _d_ProduceResponse_3, 10: _d_ProduceResponse_4, 11: _d_ProduceResponse_4, 12: _d_ProduceResponse_4, 13: _d_ProduceResponse_5}
ProduceResponse._ENCODERS = {3: _e_ProduceResponse_0, 4: _e_ProduceResponse_0, 5: _e_ProduceResponse_1, 6: _e_ProduceResponse_1, 7: _e_ProduceResponse_1, 8: _e_ProduceResponse_2, 9: _e_ProduceResponse_3, 10: _e_ProduceResponse_4, 11: _e_ProduceResponse_4, 12: _e_ProduceResponse_4, 13: _e_ProduceResponse_5}
ProduceResponse._ENCODE_STEPS = {3: _t_ProduceResponse_0, 4: _t_ProduceResponse_0, 5: _t_ProduceResponse_1, 6: _t_ProduceResponse_1, 7: _t_ProduceResponse_1, 8: _t_ProduceResponse_2, 9: _t_ProduceResponse_3, 10: _t_ProduceResponse_4, 11: _t_ProduceResponse_4, 12: _t_ProduceResponse_4, 13: _t_ProduceResponse_5}
