"""Generated from Kafka's StreamsGroupHeartbeatRequest.json by tools/gen_wire.py. Do not edit."""
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

_S0 = _struct.Struct('>ii')
_S1 = _struct.Struct('>i')
_S2 = _struct.Struct('>ih')
_S3 = _struct.Struct('>H')
_S4 = _struct.Struct('>iq')
_S5 = _struct.Struct('>?')


class KeyValue(Message):
    __slots__ = ('key', 'value', '_unknown_tagged')
    _FIELDS = (('key', 'string', 0, 32767, -1, -1, None, -1, None), ('value', 'string', 0, 32767, -1, -1, None, -1, None))

    def __init__(self, *, key='', value='', _unknown_tagged=None):
        self.key = key
        self.value = value
        self._unknown_tagged = _unknown_tagged


class TopicInfo(Message):
    __slots__ = ('name', 'partitions', 'replication_factor', 'topic_configs', '_unknown_tagged')
    _FIELDS = (('name', 'string', 0, 32767, -1, -1, None, -1, None), ('partitions', 'int32', 0, 32767, -1, -1, None, -1, None), ('replication_factor', 'int16', 0, 32767, -1, -1, None, -1, None), ('topic_configs', '[]KeyValue', 0, 32767, -1, -1, None, -1, 'KeyValue'))

    def __init__(self, *, name='', partitions=0, replication_factor=0, topic_configs=DEFAULT, _unknown_tagged=None):
        self.name = name
        self.partitions = partitions
        self.replication_factor = replication_factor
        self.topic_configs = [] if topic_configs is DEFAULT else topic_configs
        self._unknown_tagged = _unknown_tagged


class CopartitionGroup(Message):
    __slots__ = ('source_topics', 'source_topic_regex', 'repartition_source_topics', '_unknown_tagged')
    _FIELDS = (('source_topics', '[]int16', 0, 32767, -1, -1, None, -1, None), ('source_topic_regex', '[]int16', 0, 32767, -1, -1, None, -1, None), ('repartition_source_topics', '[]int16', 0, 32767, -1, -1, None, -1, None))

    def __init__(self, *, source_topics=DEFAULT, source_topic_regex=DEFAULT, repartition_source_topics=DEFAULT, _unknown_tagged=None):
        self.source_topics = [] if source_topics is DEFAULT else source_topics
        self.source_topic_regex = [] if source_topic_regex is DEFAULT else source_topic_regex
        self.repartition_source_topics = [] if repartition_source_topics is DEFAULT else repartition_source_topics
        self._unknown_tagged = _unknown_tagged


class Subtopology(Message):
    __slots__ = ('subtopology_id', 'source_topics', 'source_topic_regex', 'state_changelog_topics', 'repartition_sink_topics', 'repartition_source_topics', 'copartition_groups', '_unknown_tagged')
    _FIELDS = (('subtopology_id', 'string', 0, 32767, -1, -1, None, -1, None), ('source_topics', '[]string', 0, 32767, -1, -1, None, -1, None), ('source_topic_regex', '[]string', 0, 32767, -1, -1, None, -1, None), ('state_changelog_topics', '[]TopicInfo', 0, 32767, -1, -1, None, -1, 'TopicInfo'), ('repartition_sink_topics', '[]string', 0, 32767, -1, -1, None, -1, None), ('repartition_source_topics', '[]TopicInfo', 0, 32767, -1, -1, None, -1, 'TopicInfo'), ('copartition_groups', '[]CopartitionGroup', 0, 32767, -1, -1, None, -1, 'CopartitionGroup'))

    def __init__(self, *, subtopology_id='', source_topics=DEFAULT, source_topic_regex=DEFAULT, state_changelog_topics=DEFAULT, repartition_sink_topics=DEFAULT, repartition_source_topics=DEFAULT, copartition_groups=DEFAULT, _unknown_tagged=None):
        self.subtopology_id = subtopology_id
        self.source_topics = [] if source_topics is DEFAULT else source_topics
        self.source_topic_regex = [] if source_topic_regex is DEFAULT else source_topic_regex
        self.state_changelog_topics = [] if state_changelog_topics is DEFAULT else state_changelog_topics
        self.repartition_sink_topics = [] if repartition_sink_topics is DEFAULT else repartition_sink_topics
        self.repartition_source_topics = [] if repartition_source_topics is DEFAULT else repartition_source_topics
        self.copartition_groups = [] if copartition_groups is DEFAULT else copartition_groups
        self._unknown_tagged = _unknown_tagged


class Topology(Message):
    __slots__ = ('epoch', 'subtopologies', '_unknown_tagged')
    _FIELDS = (('epoch', 'int32', 0, 32767, -1, -1, None, -1, None), ('subtopologies', '[]Subtopology', 0, 32767, -1, -1, None, -1, 'Subtopology'))

    def __init__(self, *, epoch=0, subtopologies=DEFAULT, _unknown_tagged=None):
        self.epoch = epoch
        self.subtopologies = [] if subtopologies is DEFAULT else subtopologies
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


class TaskOffset(Message):
    __slots__ = ('subtopology_id', 'partition', 'offset', '_unknown_tagged')
    _FIELDS = (('subtopology_id', 'string', 0, 32767, -1, -1, None, -1, None), ('partition', 'int32', 0, 32767, -1, -1, None, -1, None), ('offset', 'int64', 0, 32767, -1, -1, None, -1, None))

    def __init__(self, *, subtopology_id='', partition=0, offset=0, _unknown_tagged=None):
        self.subtopology_id = subtopology_id
        self.partition = partition
        self.offset = offset
        self._unknown_tagged = _unknown_tagged


class StreamsGroupHeartbeatRequest(Message):
    __slots__ = ('group_id', 'member_id', 'member_epoch', 'endpoint_information_epoch', 'instance_id', 'rack_id', 'rebalance_timeout_ms', 'topology', 'active_tasks', 'standby_tasks', 'warmup_tasks', 'process_id', 'user_endpoint', 'client_tags', 'task_offsets', 'task_end_offsets', 'shutdown_application', '_unknown_tagged')
    _FIELDS = (('group_id', 'string', 0, 32767, -1, -1, None, -1, None), ('member_id', 'string', 0, 32767, -1, -1, None, -1, None), ('member_epoch', 'int32', 0, 32767, -1, -1, None, -1, None), ('endpoint_information_epoch', 'int32', 0, 32767, -1, -1, None, -1, None), ('instance_id', 'string', 0, 32767, 0, 32767, None, -1, None), ('rack_id', 'string', 0, 32767, 0, 32767, None, -1, None), ('rebalance_timeout_ms', 'int32', 0, 32767, -1, -1, None, -1, None), ('topology', 'Topology', 0, 32767, 0, 32767, None, -1, 'Topology'), ('active_tasks', '[]TaskIds', 0, 32767, 0, 32767, None, -1, 'TaskIds'), ('standby_tasks', '[]TaskIds', 0, 32767, 0, 32767, None, -1, 'TaskIds'), ('warmup_tasks', '[]TaskIds', 0, 32767, 0, 32767, None, -1, 'TaskIds'), ('process_id', 'string', 0, 32767, 0, 32767, None, -1, None), ('user_endpoint', 'Endpoint', 0, 32767, 0, 32767, None, -1, 'Endpoint'), ('client_tags', '[]KeyValue', 0, 32767, 0, 32767, None, -1, 'KeyValue'), ('task_offsets', '[]TaskOffset', 0, 32767, 0, 32767, None, -1, 'TaskOffset'), ('task_end_offsets', '[]TaskOffset', 0, 32767, 0, 32767, None, -1, 'TaskOffset'), ('shutdown_application', 'bool', 0, 32767, -1, -1, None, -1, None))
    API_KEY = 88
    VALID_VERSIONS = (0, 0)
    FLEXIBLE_MIN = 0

    def __init__(self, *, group_id='', member_id='', member_epoch=0, endpoint_information_epoch=0, instance_id=None, rack_id=None, rebalance_timeout_ms=-1, topology=None, active_tasks=None, standby_tasks=None, warmup_tasks=None, process_id=None, user_endpoint=None, client_tags=None, task_offsets=None, task_end_offsets=None, shutdown_application=False, _unknown_tagged=None):
        self.group_id = group_id
        self.member_id = member_id
        self.member_epoch = member_epoch
        self.endpoint_information_epoch = endpoint_information_epoch
        self.instance_id = instance_id
        self.rack_id = rack_id
        self.rebalance_timeout_ms = rebalance_timeout_ms
        self.topology = topology
        self.active_tasks = active_tasks
        self.standby_tasks = standby_tasks
        self.warmup_tasks = warmup_tasks
        self.process_id = process_id
        self.user_endpoint = user_endpoint
        self.client_tags = client_tags
        self.task_offsets = task_offsets
        self.task_end_offsets = task_end_offsets
        self.shutdown_application = shutdown_application
        self._unknown_tagged = _unknown_tagged



def _d_KeyValue_0(b, p):
    o = _new(KeyValue)
    o.key, p = _rcstr(b, p)
    o.value, p = _rcstr(b, p)
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_TopicInfo_0(b, p):
    o = _new(TopicInfo)
    o.name, p = _rcstr(b, p)
    o.partitions, o.replication_factor = _S2.unpack_from(b, p)
    p += 6
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 3)
    l = []
    for _ in range(n):
        e, p = _d_KeyValue_0(b, p)
        l.append(e)
    o.topic_configs = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_CopartitionGroup_0(b, p):
    o = _new(CopartitionGroup)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 2)
    l = list((_ARR['h'][n] if n < 64 else _struct.Struct('>%dh' % n)).unpack_from(b, p))
    p += 2 * n
    o.source_topics = l
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 2)
    l = list((_ARR['h'][n] if n < 64 else _struct.Struct('>%dh' % n)).unpack_from(b, p))
    p += 2 * n
    o.source_topic_regex = l
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 2)
    l = list((_ARR['h'][n] if n < 64 else _struct.Struct('>%dh' % n)).unpack_from(b, p))
    p += 2 * n
    o.repartition_source_topics = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_Subtopology_0(b, p):
    o = _new(Subtopology)
    o.subtopology_id, p = _rcstr(b, p)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 1)
    l = []
    for _ in range(n):
        e, p = _rcstr(b, p)
        l.append(e)
    o.source_topics = l
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 1)
    l = []
    for _ in range(n):
        e, p = _rcstr(b, p)
        l.append(e)
    o.source_topic_regex = l
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 9)
    l = []
    for _ in range(n):
        e, p = _d_TopicInfo_0(b, p)
        l.append(e)
    o.state_changelog_topics = l
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 1)
    l = []
    for _ in range(n):
        e, p = _rcstr(b, p)
        l.append(e)
    o.repartition_sink_topics = l
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 9)
    l = []
    for _ in range(n):
        e, p = _d_TopicInfo_0(b, p)
        l.append(e)
    o.repartition_source_topics = l
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 4)
    l = []
    for _ in range(n):
        e, p = _d_CopartitionGroup_0(b, p)
        l.append(e)
    o.copartition_groups = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_Topology_0(b, p):
    o = _new(Topology)
    o.epoch, = _S1.unpack_from(b, p)
    p += 4
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 8)
    l = []
    for _ in range(n):
        e, p = _d_Subtopology_0(b, p)
        l.append(e)
    o.subtopologies = l
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
    o.port, = _S3.unpack_from(b, p)
    p += 2
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_TaskOffset_0(b, p):
    o = _new(TaskOffset)
    o.subtopology_id, p = _rcstr(b, p)
    o.partition, o.offset = _S4.unpack_from(b, p)
    p += 12
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_StreamsGroupHeartbeatRequest_0(b, p):
    o = _new(StreamsGroupHeartbeatRequest)
    o.group_id, p = _rcstr(b, p)
    o.member_id, p = _rcstr(b, p)
    o.member_epoch, o.endpoint_information_epoch = _S0.unpack_from(b, p)
    p += 8
    o.instance_id, p = _rcnstr(b, p)
    o.rack_id, p = _rcnstr(b, p)
    o.rebalance_timeout_ms, = _S1.unpack_from(b, p)
    p += 4
    if b[p] >= 128:
        o.topology = None
        p += 1
    else:
        o.topology, p = _d_Topology_0(b, p + 1)
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
    o.process_id, p = _rcnstr(b, p)
    if b[p] >= 128:
        o.user_endpoint = None
        p += 1
    else:
        o.user_endpoint, p = _d_Endpoint_0(b, p + 1)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcnal(b, p, 3)
    if n < 0:
        o.client_tags = None
    else:
        l = []
        for _ in range(n):
            e, p = _d_KeyValue_0(b, p)
            l.append(e)
        o.client_tags = l
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcnal(b, p, 14)
    if n < 0:
        o.task_offsets = None
    else:
        l = []
        for _ in range(n):
            e, p = _d_TaskOffset_0(b, p)
            l.append(e)
        o.task_offsets = l
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcnal(b, p, 14)
    if n < 0:
        o.task_end_offsets = None
    else:
        l = []
        for _ in range(n):
            e, p = _d_TaskOffset_0(b, p)
            l.append(e)
        o.task_end_offsets = l
    o.shutdown_application, = _S5.unpack_from(b, p)
    p += 1
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_KeyValue_0(o, w):
    _wcstr(w, o.key)
    _wcstr(w, o.value)
    _wtag(w, o._unknown_tagged)


def _e_TopicInfo_0(o, w):
    _wcstr(w, o.name)
    w.append(_S2.pack(o.partitions, o.replication_factor))
    x = o.topic_configs
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_KeyValue_0(e, w)
    _wtag(w, o._unknown_tagged)


def _e_CopartitionGroup_0(o, w):
    x = o.source_topics
    w.append(_uv(len(x) + 1))
    w.append(_pack('>%dh' % len(x), *x))
    x = o.source_topic_regex
    w.append(_uv(len(x) + 1))
    w.append(_pack('>%dh' % len(x), *x))
    x = o.repartition_source_topics
    w.append(_uv(len(x) + 1))
    w.append(_pack('>%dh' % len(x), *x))
    _wtag(w, o._unknown_tagged)


def _e_Subtopology_0(o, w):
    _wcstr(w, o.subtopology_id)
    x = o.source_topics
    w.append(_uv(len(x) + 1))
    for e in x:
        _wcstr(w, e)
    x = o.source_topic_regex
    w.append(_uv(len(x) + 1))
    for e in x:
        _wcstr(w, e)
    x = o.state_changelog_topics
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_TopicInfo_0(e, w)
    x = o.repartition_sink_topics
    w.append(_uv(len(x) + 1))
    for e in x:
        _wcstr(w, e)
    x = o.repartition_source_topics
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_TopicInfo_0(e, w)
    x = o.copartition_groups
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_CopartitionGroup_0(e, w)
    _wtag(w, o._unknown_tagged)


def _e_Topology_0(o, w):
    w.append(_S1.pack(o.epoch))
    x = o.subtopologies
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_Subtopology_0(e, w)
    _wtag(w, o._unknown_tagged)


def _e_TaskIds_0(o, w):
    _wcstr(w, o.subtopology_id)
    x = o.partitions
    w.append(_uv(len(x) + 1))
    w.append(_pack('>%di' % len(x), *x))
    _wtag(w, o._unknown_tagged)


def _e_Endpoint_0(o, w):
    _wcstr(w, o.host)
    w.append(_S3.pack(o.port))
    _wtag(w, o._unknown_tagged)


def _e_TaskOffset_0(o, w):
    _wcstr(w, o.subtopology_id)
    w.append(_S4.pack(o.partition, o.offset))
    _wtag(w, o._unknown_tagged)


def _e_StreamsGroupHeartbeatRequest_0(o, w):
    _wcstr(w, o.group_id)
    _wcstr(w, o.member_id)
    w.append(_S0.pack(o.member_epoch, o.endpoint_information_epoch))
    _wcnstr(w, o.instance_id)
    _wcnstr(w, o.rack_id)
    w.append(_S1.pack(o.rebalance_timeout_ms))
    x = o.topology
    if x is None:
        w.append(b'\xff')
    else:
        w.append(b'\x01')
        _e_Topology_0(x, w)
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
    _wcnstr(w, o.process_id)
    x = o.user_endpoint
    if x is None:
        w.append(b'\xff')
    else:
        w.append(b'\x01')
        _e_Endpoint_0(x, w)
    x = o.client_tags
    if x is None:
        w.append(b'\x00')
    else:
        w.append(_uv(len(x) + 1))
        for e in x:
            _e_KeyValue_0(e, w)
    x = o.task_offsets
    if x is None:
        w.append(b'\x00')
    else:
        w.append(_uv(len(x) + 1))
        for e in x:
            _e_TaskOffset_0(e, w)
    x = o.task_end_offsets
    if x is None:
        w.append(b'\x00')
    else:
        w.append(_uv(len(x) + 1))
        for e in x:
            _e_TaskOffset_0(e, w)
    w.append(_S5.pack(o.shutdown_application))
    _wtag(w, o._unknown_tagged)


StreamsGroupHeartbeatRequest._DECODERS = {0: _d_StreamsGroupHeartbeatRequest_0}
StreamsGroupHeartbeatRequest._ENCODERS = {0: _e_StreamsGroupHeartbeatRequest_0}
