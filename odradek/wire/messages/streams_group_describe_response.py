"""Generated from Kafka's StreamsGroupDescribeResponse.json by tools/gen_wire.py. Do not edit."""
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
_S2 = _struct.Struct('>ii')
_S3 = _struct.Struct('>ih')
_S4 = _struct.Struct('>H')
_S5 = _struct.Struct('>iq')
_S6 = _struct.Struct('>?')


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


class Subtopology(Message):
    __slots__ = ('subtopology_id', 'source_topics', 'repartition_sink_topics', 'state_changelog_topics', 'repartition_source_topics', '_unknown_tagged')
    _FIELDS = (('subtopology_id', 'string', 0, 32767, -1, -1, None, -1, None), ('source_topics', '[]string', 0, 32767, -1, -1, None, -1, None), ('repartition_sink_topics', '[]string', 0, 32767, -1, -1, None, -1, None), ('state_changelog_topics', '[]TopicInfo', 0, 32767, -1, -1, None, -1, 'TopicInfo'), ('repartition_source_topics', '[]TopicInfo', 0, 32767, -1, -1, None, -1, 'TopicInfo'))

    def __init__(self, *, subtopology_id='', source_topics=DEFAULT, repartition_sink_topics=DEFAULT, state_changelog_topics=DEFAULT, repartition_source_topics=DEFAULT, _unknown_tagged=None):
        self.subtopology_id = subtopology_id
        self.source_topics = [] if source_topics is DEFAULT else source_topics
        self.repartition_sink_topics = [] if repartition_sink_topics is DEFAULT else repartition_sink_topics
        self.state_changelog_topics = [] if state_changelog_topics is DEFAULT else state_changelog_topics
        self.repartition_source_topics = [] if repartition_source_topics is DEFAULT else repartition_source_topics
        self._unknown_tagged = _unknown_tagged


class Topology(Message):
    __slots__ = ('epoch', 'subtopologies', '_unknown_tagged')
    _FIELDS = (('epoch', 'int32', 0, 32767, -1, -1, None, -1, None), ('subtopologies', '[]Subtopology', 0, 32767, 0, 32767, None, -1, 'Subtopology'))

    def __init__(self, *, epoch=0, subtopologies=None, _unknown_tagged=None):
        self.epoch = epoch
        self.subtopologies = subtopologies
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


class TaskIds(Message):
    __slots__ = ('subtopology_id', 'partitions', '_unknown_tagged')
    _FIELDS = (('subtopology_id', 'string', 0, 32767, -1, -1, None, -1, None), ('partitions', '[]int32', 0, 32767, -1, -1, None, -1, None))

    def __init__(self, *, subtopology_id='', partitions=DEFAULT, _unknown_tagged=None):
        self.subtopology_id = subtopology_id
        self.partitions = [] if partitions is DEFAULT else partitions
        self._unknown_tagged = _unknown_tagged


class Assignment(Message):
    __slots__ = ('active_tasks', 'standby_tasks', 'warmup_tasks', '_unknown_tagged')
    _FIELDS = (('active_tasks', '[]TaskIds', 0, 32767, -1, -1, None, -1, 'TaskIds'), ('standby_tasks', '[]TaskIds', 0, 32767, -1, -1, None, -1, 'TaskIds'), ('warmup_tasks', '[]TaskIds', 0, 32767, -1, -1, None, -1, 'TaskIds'))

    def __init__(self, *, active_tasks=DEFAULT, standby_tasks=DEFAULT, warmup_tasks=DEFAULT, _unknown_tagged=None):
        self.active_tasks = [] if active_tasks is DEFAULT else active_tasks
        self.standby_tasks = [] if standby_tasks is DEFAULT else standby_tasks
        self.warmup_tasks = [] if warmup_tasks is DEFAULT else warmup_tasks
        self._unknown_tagged = _unknown_tagged


class Member(Message):
    __slots__ = ('member_id', 'member_epoch', 'instance_id', 'rack_id', 'client_id', 'client_host', 'topology_epoch', 'process_id', 'user_endpoint', 'client_tags', 'task_offsets', 'task_end_offsets', 'assignment', 'target_assignment', 'is_classic', '_unknown_tagged')
    _FIELDS = (('member_id', 'string', 0, 32767, -1, -1, None, -1, None), ('member_epoch', 'int32', 0, 32767, -1, -1, None, -1, None), ('instance_id', 'string', 0, 32767, 0, 32767, None, -1, None), ('rack_id', 'string', 0, 32767, 0, 32767, None, -1, None), ('client_id', 'string', 0, 32767, -1, -1, None, -1, None), ('client_host', 'string', 0, 32767, -1, -1, None, -1, None), ('topology_epoch', 'int32', 0, 32767, -1, -1, None, -1, None), ('process_id', 'string', 0, 32767, -1, -1, None, -1, None), ('user_endpoint', 'Endpoint', 0, 32767, 0, 32767, None, -1, 'Endpoint'), ('client_tags', '[]KeyValue', 0, 32767, -1, -1, None, -1, 'KeyValue'), ('task_offsets', '[]TaskOffset', 0, 32767, -1, -1, None, -1, 'TaskOffset'), ('task_end_offsets', '[]TaskOffset', 0, 32767, -1, -1, None, -1, 'TaskOffset'), ('assignment', 'Assignment', 0, 32767, -1, -1, None, -1, 'Assignment'), ('target_assignment', 'Assignment', 0, 32767, -1, -1, None, -1, 'Assignment'), ('is_classic', 'bool', 0, 32767, -1, -1, None, -1, None))

    def __init__(self, *, member_id='', member_epoch=0, instance_id=None, rack_id=None, client_id='', client_host='', topology_epoch=0, process_id='', user_endpoint=None, client_tags=DEFAULT, task_offsets=DEFAULT, task_end_offsets=DEFAULT, assignment=DEFAULT, target_assignment=DEFAULT, is_classic=False, _unknown_tagged=None):
        self.member_id = member_id
        self.member_epoch = member_epoch
        self.instance_id = instance_id
        self.rack_id = rack_id
        self.client_id = client_id
        self.client_host = client_host
        self.topology_epoch = topology_epoch
        self.process_id = process_id
        self.user_endpoint = user_endpoint
        self.client_tags = [] if client_tags is DEFAULT else client_tags
        self.task_offsets = [] if task_offsets is DEFAULT else task_offsets
        self.task_end_offsets = [] if task_end_offsets is DEFAULT else task_end_offsets
        self.assignment = Assignment() if assignment is DEFAULT else assignment
        self.target_assignment = Assignment() if target_assignment is DEFAULT else target_assignment
        self.is_classic = is_classic
        self._unknown_tagged = _unknown_tagged


class DescribedGroup(Message):
    __slots__ = ('error_code', 'error_message', 'group_id', 'group_state', 'group_epoch', 'assignment_epoch', 'topology', 'members', 'authorized_operations', '_unknown_tagged')
    _FIELDS = (('error_code', 'int16', 0, 32767, -1, -1, None, -1, None), ('error_message', 'string', 0, 32767, 0, 32767, None, -1, None), ('group_id', 'string', 0, 32767, -1, -1, None, -1, None), ('group_state', 'string', 0, 32767, -1, -1, None, -1, None), ('group_epoch', 'int32', 0, 32767, -1, -1, None, -1, None), ('assignment_epoch', 'int32', 0, 32767, -1, -1, None, -1, None), ('topology', 'Topology', 0, 32767, 0, 32767, None, -1, 'Topology'), ('members', '[]Member', 0, 32767, -1, -1, None, -1, 'Member'), ('authorized_operations', 'int32', 0, 32767, -1, -1, None, -1, None))

    def __init__(self, *, error_code=0, error_message=None, group_id='', group_state='', group_epoch=0, assignment_epoch=0, topology=None, members=DEFAULT, authorized_operations=-2147483648, _unknown_tagged=None):
        self.error_code = error_code
        self.error_message = error_message
        self.group_id = group_id
        self.group_state = group_state
        self.group_epoch = group_epoch
        self.assignment_epoch = assignment_epoch
        self.topology = topology
        self.members = [] if members is DEFAULT else members
        self.authorized_operations = authorized_operations
        self._unknown_tagged = _unknown_tagged


class StreamsGroupDescribeResponse(Message):
    __slots__ = ('throttle_time_ms', 'groups', '_unknown_tagged')
    _FIELDS = (('throttle_time_ms', 'int32', 0, 32767, -1, -1, None, -1, None), ('groups', '[]DescribedGroup', 0, 32767, -1, -1, None, -1, 'DescribedGroup'))
    API_KEY = 89
    VALID_VERSIONS = (0, 0)
    FLEXIBLE_MIN = 0

    def __init__(self, *, throttle_time_ms=0, groups=DEFAULT, _unknown_tagged=None):
        self.throttle_time_ms = throttle_time_ms
        self.groups = [] if groups is DEFAULT else groups
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
    o.partitions, o.replication_factor = _S3.unpack_from(b, p)
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
    o.state_changelog_topics = l
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
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_Topology_0(b, p):
    o = _new(Topology)
    o.epoch, = _S0.unpack_from(b, p)
    p += 4
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcnal(b, p, 6)
    if n < 0:
        o.subtopologies = None
    else:
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


def _d_TaskOffset_0(b, p):
    o = _new(TaskOffset)
    o.subtopology_id, p = _rcstr(b, p)
    o.partition, o.offset = _S5.unpack_from(b, p)
    p += 12
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


def _d_Assignment_0(b, p):
    o = _new(Assignment)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 3)
    l = []
    for _ in range(n):
        e, p = _d_TaskIds_0(b, p)
        l.append(e)
    o.active_tasks = l
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 3)
    l = []
    for _ in range(n):
        e, p = _d_TaskIds_0(b, p)
        l.append(e)
    o.standby_tasks = l
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 3)
    l = []
    for _ in range(n):
        e, p = _d_TaskIds_0(b, p)
        l.append(e)
    o.warmup_tasks = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_Member_0(b, p):
    o = _new(Member)
    o.member_id, p = _rcstr(b, p)
    o.member_epoch, = _S0.unpack_from(b, p)
    p += 4
    o.instance_id, p = _rcnstr(b, p)
    o.rack_id, p = _rcnstr(b, p)
    o.client_id, p = _rcstr(b, p)
    o.client_host, p = _rcstr(b, p)
    o.topology_epoch, = _S0.unpack_from(b, p)
    p += 4
    o.process_id, p = _rcstr(b, p)
    if b[p] >= 128:
        o.user_endpoint = None
        p += 1
    else:
        o.user_endpoint, p = _d_Endpoint_0(b, p + 1)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 3)
    l = []
    for _ in range(n):
        e, p = _d_KeyValue_0(b, p)
        l.append(e)
    o.client_tags = l
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 14)
    l = []
    for _ in range(n):
        e, p = _d_TaskOffset_0(b, p)
        l.append(e)
    o.task_offsets = l
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 14)
    l = []
    for _ in range(n):
        e, p = _d_TaskOffset_0(b, p)
        l.append(e)
    o.task_end_offsets = l
    o.assignment, p = _d_Assignment_0(b, p)
    o.target_assignment, p = _d_Assignment_0(b, p)
    o.is_classic, = _S6.unpack_from(b, p)
    p += 1
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_DescribedGroup_0(b, p):
    o = _new(DescribedGroup)
    o.error_code, = _S1.unpack_from(b, p)
    p += 2
    o.error_message, p = _rcnstr(b, p)
    o.group_id, p = _rcstr(b, p)
    o.group_state, p = _rcstr(b, p)
    o.group_epoch, o.assignment_epoch = _S2.unpack_from(b, p)
    p += 8
    if b[p] >= 128:
        o.topology = None
        p += 1
    else:
        o.topology, p = _d_Topology_0(b, p + 1)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 28)
    l = []
    for _ in range(n):
        e, p = _d_Member_0(b, p)
        l.append(e)
    o.members = l
    o.authorized_operations, = _S0.unpack_from(b, p)
    p += 4
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_StreamsGroupDescribeResponse_0(b, p):
    o = _new(StreamsGroupDescribeResponse)
    o.throttle_time_ms, = _S0.unpack_from(b, p)
    p += 4
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 20)
    l = []
    for _ in range(n):
        e, p = _d_DescribedGroup_0(b, p)
        l.append(e)
    o.groups = l
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
    w.append(_S3.pack(o.partitions, o.replication_factor))
    x = o.topic_configs
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_KeyValue_0(e, w)
    _wtag(w, o._unknown_tagged)


def _e_Subtopology_0(o, w):
    _wcstr(w, o.subtopology_id)
    x = o.source_topics
    w.append(_uv(len(x) + 1))
    for e in x:
        _wcstr(w, e)
    x = o.repartition_sink_topics
    w.append(_uv(len(x) + 1))
    for e in x:
        _wcstr(w, e)
    x = o.state_changelog_topics
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_TopicInfo_0(e, w)
    x = o.repartition_source_topics
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_TopicInfo_0(e, w)
    _wtag(w, o._unknown_tagged)


def _e_Topology_0(o, w):
    w.append(_S0.pack(o.epoch))
    x = o.subtopologies
    if x is None:
        w.append(b'\x00')
    else:
        w.append(_uv(len(x) + 1))
        for e in x:
            _e_Subtopology_0(e, w)
    _wtag(w, o._unknown_tagged)


def _e_Endpoint_0(o, w):
    _wcstr(w, o.host)
    w.append(_S4.pack(o.port))
    _wtag(w, o._unknown_tagged)


def _e_TaskOffset_0(o, w):
    _wcstr(w, o.subtopology_id)
    w.append(_S5.pack(o.partition, o.offset))
    _wtag(w, o._unknown_tagged)


def _e_TaskIds_0(o, w):
    _wcstr(w, o.subtopology_id)
    x = o.partitions
    w.append(_uv(len(x) + 1))
    w.append(_pack('>%di' % len(x), *x))
    _wtag(w, o._unknown_tagged)


def _e_Assignment_0(o, w):
    x = o.active_tasks
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_TaskIds_0(e, w)
    x = o.standby_tasks
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_TaskIds_0(e, w)
    x = o.warmup_tasks
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_TaskIds_0(e, w)
    _wtag(w, o._unknown_tagged)


def _e_Member_0(o, w):
    _wcstr(w, o.member_id)
    w.append(_S0.pack(o.member_epoch))
    _wcnstr(w, o.instance_id)
    _wcnstr(w, o.rack_id)
    _wcstr(w, o.client_id)
    _wcstr(w, o.client_host)
    w.append(_S0.pack(o.topology_epoch))
    _wcstr(w, o.process_id)
    x = o.user_endpoint
    if x is None:
        w.append(b'\xff')
    else:
        w.append(b'\x01')
        _e_Endpoint_0(x, w)
    x = o.client_tags
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_KeyValue_0(e, w)
    x = o.task_offsets
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_TaskOffset_0(e, w)
    x = o.task_end_offsets
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_TaskOffset_0(e, w)
    _e_Assignment_0(o.assignment, w)
    _e_Assignment_0(o.target_assignment, w)
    w.append(_S6.pack(o.is_classic))
    _wtag(w, o._unknown_tagged)


def _e_DescribedGroup_0(o, w):
    w.append(_S1.pack(o.error_code))
    _wcnstr(w, o.error_message)
    _wcstr(w, o.group_id)
    _wcstr(w, o.group_state)
    w.append(_S2.pack(o.group_epoch, o.assignment_epoch))
    x = o.topology
    if x is None:
        w.append(b'\xff')
    else:
        w.append(b'\x01')
        _e_Topology_0(x, w)
    x = o.members
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_Member_0(e, w)
    w.append(_S0.pack(o.authorized_operations))
    _wtag(w, o._unknown_tagged)


def _e_StreamsGroupDescribeResponse_0(o, w):
    w.append(_S0.pack(o.throttle_time_ms))
    x = o.groups
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_DescribedGroup_0(e, w)
    _wtag(w, o._unknown_tagged)


def _u_Member_0(o, w, c):
    _wcstr(w, o.member_id)
    w.append(_S0.pack(o.member_epoch))
    _wcnstr(w, o.instance_id)
    _wcnstr(w, o.rack_id)
    _wcstr(w, o.client_id)
    _wcstr(w, o.client_host)
    w.append(_S0.pack(o.topology_epoch))
    _wcstr(w, o.process_id)
    x = o.user_endpoint
    if x is None:
        w.append(b'\xff')
    else:
        w.append(b'\x01')
        _e_Endpoint_0(x, w)
    x = o.client_tags
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_KeyValue_0(e, w)
        c += 1
        if c >= 1000:
            c = 0
            yield
    x = o.task_offsets
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_TaskOffset_0(e, w)
        c += 1
        if c >= 1000:
            c = 0
            yield
    x = o.task_end_offsets
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_TaskOffset_0(e, w)
        c += 1
        if c >= 1000:
            c = 0
            yield
    _e_Assignment_0(o.assignment, w)
    _e_Assignment_0(o.target_assignment, w)
    w.append(_S6.pack(o.is_classic))
    _wtag(w, o._unknown_tagged)
    return c


def _u_DescribedGroup_0(o, w, c):
    w.append(_S1.pack(o.error_code))
    _wcnstr(w, o.error_message)
    _wcstr(w, o.group_id)
    _wcstr(w, o.group_state)
    w.append(_S2.pack(o.group_epoch, o.assignment_epoch))
    x = o.topology
    if x is None:
        w.append(b'\xff')
    else:
        w.append(b'\x01')
        _e_Topology_0(x, w)
    x = o.members
    w.append(_uv(len(x) + 1))
    for e in x:
        c = yield from _u_Member_0(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield
    w.append(_S0.pack(o.authorized_operations))
    _wtag(w, o._unknown_tagged)
    return c


def _t_StreamsGroupDescribeResponse_0(o, w):
    c = 0
    w.append(_S0.pack(o.throttle_time_ms))
    x = o.groups
    w.append(_uv(len(x) + 1))
    for e in x:
        c = yield from _u_DescribedGroup_0(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield
    _wtag(w, o._unknown_tagged)


StreamsGroupDescribeResponse._DECODERS = {0: _d_StreamsGroupDescribeResponse_0}
StreamsGroupDescribeResponse._ENCODERS = {0: _e_StreamsGroupDescribeResponse_0}
StreamsGroupDescribeResponse._ENCODE_STEPS = {0: _t_StreamsGroupDescribeResponse_0}
