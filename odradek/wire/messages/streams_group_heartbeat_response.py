"""Generated from Kafka's StreamsGroupHeartbeatResponse.json by tools/gen_wire.py. Do not edit."""
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
_S1 = _struct.Struct('>iiii')
_S2 = _struct.Struct('>b')
_S3 = _struct.Struct('>i')
_S4 = _struct.Struct('>H')


class Status(Message):
    __slots__ = ('status_code', 'status_detail', '_unknown_tagged')
    _FIELDS = (('status_code', 'int8', 0, 32767, -1, -1, None, -1, None), ('status_detail', 'string', 0, 32767, -1, -1, None, -1, None))

    def __init__(self, *, status_code=0, status_detail='', _unknown_tagged=None):
        self.status_code = status_code
        self.status_detail = status_detail
        self._unknown_tagged = _unknown_tagged


class TaskIds(Message):
    __slots__ = ('subtopology_id', 'partitions', '_unknown_tagged')
    _FIELDS = (('subtopology_id', 'string', 0, 32767, -1, -1, None, -1, None), ('partitions', '[]int32', 0, 32767, -1, -1, None, -1, None))

    def __init__(self, *, subtopology_id='', partitions=DEFAULT, _unknown_tagged=None):
        self.subtopology_id = subtopology_id
        self.partitions = [] if partitions is DEFAULT else partitions
        self._unknown_tagged = _unknown_tagged


class Endpoint(Message):
    __slots__ = ('host', 'port', '_unknown_tagged')
    _FIELDS = (('host', 'string', 0, 32767, -1, -1, None, -1, None), ('port', 'uint16', 0, 32767, -1, -1, None, -1, None))

    def __init__(self, *, host='', port=0, _unknown_tagged=None):
        self.host = host
        self.port = port
        self._unknown_tagged = _unknown_tagged


class TopicPartition(Message):
    __slots__ = ('topic', 'partitions', '_unknown_tagged')
    _FIELDS = (('topic', 'string', 0, 32767, -1, -1, None, -1, None), ('partitions', '[]int32', 0, 32767, -1, -1, None, -1, None))

    def __init__(self, *, topic='', partitions=DEFAULT, _unknown_tagged=None):
        self.topic = topic
        self.partitions = [] if partitions is DEFAULT else partitions
        self._unknown_tagged = _unknown_tagged


class EndpointToPartitions(Message):
    __slots__ = ('user_endpoint', 'active_partitions', 'standby_partitions', '_unknown_tagged')
    _FIELDS = (('user_endpoint', 'Endpoint', 0, 32767, -1, -1, None, -1, 'Endpoint'), ('active_partitions', '[]TopicPartition', 0, 32767, -1, -1, None, -1, 'TopicPartition'), ('standby_partitions', '[]TopicPartition', 0, 32767, -1, -1, None, -1, 'TopicPartition'))

    def __init__(self, *, user_endpoint=DEFAULT, active_partitions=DEFAULT, standby_partitions=DEFAULT, _unknown_tagged=None):
        self.user_endpoint = Endpoint() if user_endpoint is DEFAULT else user_endpoint
        self.active_partitions = [] if active_partitions is DEFAULT else active_partitions
        self.standby_partitions = [] if standby_partitions is DEFAULT else standby_partitions
        self._unknown_tagged = _unknown_tagged


class StreamsGroupHeartbeatResponse(Message):
    __slots__ = ('throttle_time_ms', 'error_code', 'error_message', 'member_id', 'member_epoch', 'heartbeat_interval_ms', 'acceptable_recovery_lag', 'task_offset_interval_ms', 'status', 'active_tasks', 'standby_tasks', 'warmup_tasks', 'endpoint_information_epoch', 'partitions_by_user_endpoint', '_unknown_tagged')
    _FIELDS = (('throttle_time_ms', 'int32', 0, 32767, -1, -1, None, -1, None), ('error_code', 'int16', 0, 32767, -1, -1, None, -1, None), ('error_message', 'string', 0, 32767, 0, 32767, None, -1, None), ('member_id', 'string', 0, 32767, -1, -1, None, -1, None), ('member_epoch', 'int32', 0, 32767, -1, -1, None, -1, None), ('heartbeat_interval_ms', 'int32', 0, 32767, -1, -1, None, -1, None), ('acceptable_recovery_lag', 'int32', 0, 32767, -1, -1, None, -1, None), ('task_offset_interval_ms', 'int32', 0, 32767, -1, -1, None, -1, None), ('status', '[]Status', 0, 32767, 0, 32767, None, -1, 'Status'), ('active_tasks', '[]TaskIds', 0, 32767, 0, 32767, None, -1, 'TaskIds'), ('standby_tasks', '[]TaskIds', 0, 32767, 0, 32767, None, -1, 'TaskIds'), ('warmup_tasks', '[]TaskIds', 0, 32767, 0, 32767, None, -1, 'TaskIds'), ('endpoint_information_epoch', 'int32', 0, 32767, -1, -1, None, -1, None), ('partitions_by_user_endpoint', '[]EndpointToPartitions', 0, 32767, 0, 32767, None, -1, 'EndpointToPartitions'))
    API_KEY = 88
    VALID_VERSIONS = (0, 0)
    FLEXIBLE_MIN = 0

    def __init__(self, *, throttle_time_ms=0, error_code=0, error_message=None, member_id='', member_epoch=0, heartbeat_interval_ms=0, acceptable_recovery_lag=0, task_offset_interval_ms=0, status=DEFAULT, active_tasks=None, standby_tasks=None, warmup_tasks=None, endpoint_information_epoch=0, partitions_by_user_endpoint=None, _unknown_tagged=None):
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.error_message = error_message
        self.member_id = member_id
        self.member_epoch = member_epoch
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.acceptable_recovery_lag = acceptable_recovery_lag
        self.task_offset_interval_ms = task_offset_interval_ms
        self.status = [] if status is DEFAULT else status
        self.active_tasks = active_tasks
        self.standby_tasks = standby_tasks
        self.warmup_tasks = warmup_tasks
        self.endpoint_information_epoch = endpoint_information_epoch
        self.partitions_by_user_endpoint = partitions_by_user_endpoint
        self._unknown_tagged = _unknown_tagged



def _d_Status_0(b, p):
    o = _new(Status)
    o.status_code, = _S2.unpack_from(b, p)
    p += 1
    o.status_detail, p = _rcstr(b, p)
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_TaskIds_0(b, p):
    o = _new(TaskIds)
    o.subtopology_id, p = _rcstr(b, p)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 4)
    l = list((_ARR['i'][n] if n < 64 else _struct.Struct('>%di' % n)).unpack_from(b, p))
    p += 4 * n
    o.partitions = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_Endpoint_0(b, p):
    o = _new(Endpoint)
    o.host, p = _rcstr(b, p)
    o.port, = _S4.unpack_from(b, p)
    p += 2
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_TopicPartition_0(b, p):
    o = _new(TopicPartition)
    o.topic, p = _rcstr(b, p)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 4)
    l = list((_ARR['i'][n] if n < 64 else _struct.Struct('>%di' % n)).unpack_from(b, p))
    p += 4 * n
    o.partitions = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_EndpointToPartitions_0(b, p):
    o = _new(EndpointToPartitions)
    o.user_endpoint, p = _d_Endpoint_0(b, p)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 3)
    l = []
    for _ in range(n):
        e, p = _d_TopicPartition_0(b, p)
        l.append(e)
    o.active_partitions = l
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 3)
    l = []
    for _ in range(n):
        e, p = _d_TopicPartition_0(b, p)
        l.append(e)
    o.standby_partitions = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_StreamsGroupHeartbeatResponse_0(b, p):
    o = _new(StreamsGroupHeartbeatResponse)
    o.throttle_time_ms, o.error_code = _S0.unpack_from(b, p)
    p += 6
    o.error_message, p = _rcnstr(b, p)
    o.member_id, p = _rcstr(b, p)
    o.member_epoch, o.heartbeat_interval_ms, o.acceptable_recovery_lag, o.task_offset_interval_ms = _S1.unpack_from(b, p)
    p += 16
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcnal(b, p, 3)
    if n < 0:
        o.status = None
    else:
        l = []
        for _ in range(n):
            e, p = _d_Status_0(b, p)
            l.append(e)
        o.status = l
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcnal(b, p, 3)
    if n < 0:
        o.active_tasks = None
    else:
        l = []
        for _ in range(n):
            e, p = _d_TaskIds_0(b, p)
            l.append(e)
        o.active_tasks = l
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcnal(b, p, 3)
    if n < 0:
        o.standby_tasks = None
    else:
        l = []
        for _ in range(n):
            e, p = _d_TaskIds_0(b, p)
            l.append(e)
        o.standby_tasks = l
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcnal(b, p, 3)
    if n < 0:
        o.warmup_tasks = None
    else:
        l = []
        for _ in range(n):
            e, p = _d_TaskIds_0(b, p)
            l.append(e)
        o.warmup_tasks = l
    o.endpoint_information_epoch, = _S3.unpack_from(b, p)
    p += 4
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcnal(b, p, 7)
    if n < 0:
        o.partitions_by_user_endpoint = None
    else:
        l = []
        for _ in range(n):
            e, p = _d_EndpointToPartitions_0(b, p)
            l.append(e)
        o.partitions_by_user_endpoint = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_Status_0(o, w):
    w.append(_S2.pack(o.status_code))
    _wcstr(w, o.status_detail)
    _wtag(w, o._unknown_tagged)


def _e_TaskIds_0(o, w):
    _wcstr(w, o.subtopology_id)
    x = o.partitions
    w.append(_uv(len(x) + 1))
    w.append(_pack('>%di' % len(x), *x))
    _wtag(w, o._unknown_tagged)


def _e_Endpoint_0(o, w):
    _wcstr(w, o.host)
    w.append(_S4.pack(o.port))
    _wtag(w, o._unknown_tagged)


def _e_TopicPartition_0(o, w):
    _wcstr(w, o.topic)
    x = o.partitions
    w.append(_uv(len(x) + 1))
    w.append(_pack('>%di' % len(x), *x))
    _wtag(w, o._unknown_tagged)


def _e_EndpointToPartitions_0(o, w):
    _e_Endpoint_0(o.user_endpoint, w)
    x = o.active_partitions
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_TopicPartition_0(e, w)
    x = o.standby_partitions
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_TopicPartition_0(e, w)
    _wtag(w, o._unknown_tagged)


def _e_StreamsGroupHeartbeatResponse_0(o, w):
    w.append(_S0.pack(o.throttle_time_ms, o.error_code))
    _wcnstr(w, o.error_message)
    _wcstr(w, o.member_id)
    w.append(_S1.pack(o.member_epoch, o.heartbeat_interval_ms, o.acceptable_recovery_lag, o.task_offset_interval_ms))
    x = o.status
    if x is None:
        w.append(b'\x00')
    else:
        w.append(_uv(len(x) + 1))
        for e in x:
            _e_Status_0(e, w)
    x = o.active_tasks
    if x is None:
        w.append(b'\x00')
    else:
        w.append(_uv(len(x) + 1))
        for e in x:
            _e_TaskIds_0(e, w)
    x = o.standby_tasks
    if x is None:
        w.append(b'\x00')
    else:
        w.append(_uv(len(x) + 1))
        for e in x:
            _e_TaskIds_0(e, w)
    x = o.warmup_tasks
    if x is None:
        w.append(b'\x00')
    else:
        w.append(_uv(len(x) + 1))
        for e in x:
            _e_TaskIds_0(e, w)
    w.append(_S3.pack(o.endpoint_information_epoch))
    x = o.partitions_by_user_endpoint
    if x is None:
        w.append(b'\x00')
    else:
        w.append(_uv(len(x) + 1))
        for e in x:
            _e_EndpointToPartitions_0(e, w)
    _wtag(w, o._unknown_tagged)


StreamsGroupHeartbeatResponse._DECODERS = {0: _d_StreamsGroupHeartbeatResponse_0}
StreamsGroupHeartbeatResponse._ENCODERS = {0: _e_StreamsGroupHeartbeatResponse_0}
