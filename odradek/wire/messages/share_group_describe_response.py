"""Generated from Kafka's ShareGroupDescribeResponse.json by tools/gen_wire.py. Do not edit."""
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
_S3 = _struct.Struct('>16s')


class TopicPartitions(Message):
    __slots__ = ('topic_id', 'topic_name', 'partitions', '_unknown_tagged')
    _FIELDS = (('topic_id', 'uuid', 0, 32767, -1, -1, None, -1, None), ('topic_name', 'string', 0, 32767, -1, -1, None, -1, None), ('partitions', '[]int32', 0, 32767, -1, -1, None, -1, None))

    def __init__(self, *, topic_id=ZERO_UUID, topic_name='', partitions=DEFAULT, _unknown_tagged=None):
        self.topic_id = topic_id
        self.topic_name = topic_name
        self.partitions = [] if partitions is DEFAULT else partitions
        self._unknown_tagged = _unknown_tagged


class Assignment(Message):
    __slots__ = ('topic_partitions', '_unknown_tagged')
    _FIELDS = (('topic_partitions', '[]TopicPartitions', 0, 32767, -1, -1, None, -1, 'TopicPartitions'),)

    def __init__(self, *, topic_partitions=DEFAULT, _unknown_tagged=None):
        self.topic_partitions = [] if topic_partitions is DEFAULT else topic_partitions
        self._unknown_tagged = _unknown_tagged


class Member(Message):
    __slots__ = ('member_id', 'rack_id', 'member_epoch', 'client_id', 'client_host', 'subscribed_topic_names', 'assignment', '_unknown_tagged')
    _FIELDS = (('member_id', 'string', 0, 32767, -1, -1, None, -1, None), ('rack_id', 'string', 0, 32767, 0, 32767, None, -1, None), ('member_epoch', 'int32', 0, 32767, -1, -1, None, -1, None), ('client_id', 'string', 0, 32767, -1, -1, None, -1, None), ('client_host', 'string', 0, 32767, -1, -1, None, -1, None), ('subscribed_topic_names', '[]string', 0, 32767, -1, -1, None, -1, None), ('assignment', 'Assignment', 0, 32767, -1, -1, None, -1, 'Assignment'))

    def __init__(self, *, member_id='', rack_id=None, member_epoch=0, client_id='', client_host='', subscribed_topic_names=DEFAULT, assignment=DEFAULT, _unknown_tagged=None):
        self.member_id = member_id
        self.rack_id = rack_id
        self.member_epoch = member_epoch
        self.client_id = client_id
        self.client_host = client_host
        self.subscribed_topic_names = [] if subscribed_topic_names is DEFAULT else subscribed_topic_names
        self.assignment = Assignment() if assignment is DEFAULT else assignment
        self._unknown_tagged = _unknown_tagged


class DescribedGroup(Message):
    __slots__ = ('error_code', 'error_message', 'group_id', 'group_state', 'group_epoch', 'assignment_epoch', 'assignor_name', 'members', 'authorized_operations', '_unknown_tagged')
    _FIELDS = (('error_code', 'int16', 0, 32767, -1, -1, None, -1, None), ('error_message', 'string', 0, 32767, 0, 32767, None, -1, None), ('group_id', 'string', 0, 32767, -1, -1, None, -1, None), ('group_state', 'string', 0, 32767, -1, -1, None, -1, None), ('group_epoch', 'int32', 0, 32767, -1, -1, None, -1, None), ('assignment_epoch', 'int32', 0, 32767, -1, -1, None, -1, None), ('assignor_name', 'string', 0, 32767, -1, -1, None, -1, None), ('members', '[]Member', 0, 32767, -1, -1, None, -1, 'Member'), ('authorized_operations', 'int32', 0, 32767, -1, -1, None, -1, None))

    def __init__(self, *, error_code=0, error_message=None, group_id='', group_state='', group_epoch=0, assignment_epoch=0, assignor_name='', members=DEFAULT, authorized_operations=-2147483648, _unknown_tagged=None):
        self.error_code = error_code
        self.error_message = error_message
        self.group_id = group_id
        self.group_state = group_state
        self.group_epoch = group_epoch
        self.assignment_epoch = assignment_epoch
        self.assignor_name = assignor_name
        self.members = [] if members is DEFAULT else members
        self.authorized_operations = authorized_operations
        self._unknown_tagged = _unknown_tagged


class ShareGroupDescribeResponse(Message):
    __slots__ = ('throttle_time_ms', 'groups', '_unknown_tagged')
    _FIELDS = (('throttle_time_ms', 'int32', 0, 32767, -1, -1, None, -1, None), ('groups', '[]DescribedGroup', 0, 32767, -1, -1, None, -1, 'DescribedGroup'))
    API_KEY = 77
    VALID_VERSIONS = (1, 1)
    FLEXIBLE_MIN = 0

    def __init__(self, *, throttle_time_ms=0, groups=DEFAULT, _unknown_tagged=None):
        self.throttle_time_ms = throttle_time_ms
        self.groups = [] if groups is DEFAULT else groups
        self._unknown_tagged = _unknown_tagged



def _d_TopicPartitions_0(b, p):
    o = _new(TopicPartitions)
    o.topic_id, = _S3.unpack_from(b, p)
    p += 16
    o.topic_name, p = _rcstr(b, p)
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
        n, p = _rcal(b, p, 19)
    l = []
    for _ in range(n):
        e, p = _d_TopicPartitions_0(b, p)
        l.append(e)
    o.topic_partitions = l
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
    o.rack_id, p = _rcnstr(b, p)
    o.member_epoch, = _S0.unpack_from(b, p)
    p += 4
    o.client_id, p = _rcstr(b, p)
    o.client_host, p = _rcstr(b, p)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 1)
    l = []
    for _ in range(n):
        e, p = _rcstr(b, p)
        l.append(e)
    o.subscribed_topic_names = l
    o.assignment, p = _d_Assignment_0(b, p)
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
    o.assignor_name, p = _rcstr(b, p)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 12)
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


def _d_ShareGroupDescribeResponse_0(b, p):
    o = _new(ShareGroupDescribeResponse)
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


def _e_TopicPartitions_0(o, w):
    w.append(_S3.pack(o.topic_id))
    _wcstr(w, o.topic_name)
    x = o.partitions
    w.append(_uv(len(x) + 1))
    w.append(_pack('>%di' % len(x), *x))
    _wtag(w, o._unknown_tagged)


def _e_Assignment_0(o, w):
    x = o.topic_partitions
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_TopicPartitions_0(e, w)
    _wtag(w, o._unknown_tagged)


def _e_Member_0(o, w):
    _wcstr(w, o.member_id)
    _wcnstr(w, o.rack_id)
    w.append(_S0.pack(o.member_epoch))
    _wcstr(w, o.client_id)
    _wcstr(w, o.client_host)
    x = o.subscribed_topic_names
    w.append(_uv(len(x) + 1))
    for e in x:
        _wcstr(w, e)
    _e_Assignment_0(o.assignment, w)
    _wtag(w, o._unknown_tagged)


def _e_DescribedGroup_0(o, w):
    w.append(_S1.pack(o.error_code))
    _wcnstr(w, o.error_message)
    _wcstr(w, o.group_id)
    _wcstr(w, o.group_state)
    w.append(_S2.pack(o.group_epoch, o.assignment_epoch))
    _wcstr(w, o.assignor_name)
    x = o.members
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_Member_0(e, w)
    w.append(_S0.pack(o.authorized_operations))
    _wtag(w, o._unknown_tagged)


def _e_ShareGroupDescribeResponse_0(o, w):
    w.append(_S0.pack(o.throttle_time_ms))
    x = o.groups
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_DescribedGroup_0(e, w)
    _wtag(w, o._unknown_tagged)


def _u_DescribedGroup_0(o, w, c):
    w.append(_S1.pack(o.error_code))
    _wcnstr(w, o.error_message)
    _wcstr(w, o.group_id)
    _wcstr(w, o.group_state)
    w.append(_S2.pack(o.group_epoch, o.assignment_epoch))
    _wcstr(w, o.assignor_name)
    x = o.members
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_Member_0(e, w)
        c += 1
        if c >= 1000:
            c = 0
            yield
    w.append(_S0.pack(o.authorized_operations))
    _wtag(w, o._unknown_tagged)
    return c


def _t_ShareGroupDescribeResponse_0(o, w):
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


ShareGroupDescribeResponse._DECODERS = {1: _d_ShareGroupDescribeResponse_0}
ShareGroupDescribeResponse._ENCODERS = {1: _e_ShareGroupDescribeResponse_0}
ShareGroupDescribeResponse._ENCODE_STEPS = {1: _t_ShareGroupDescribeResponse_0}
