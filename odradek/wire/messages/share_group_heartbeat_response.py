"""Generated from Kafka's ShareGroupHeartbeatResponse.json by tools/gen_wire.py. Do not edit."""
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
_S1 = _struct.Struct('>ii')
_S2 = _struct.Struct('>16s')


class TopicPartitions(Message):
    __slots__ = ('topic_id', 'partitions', '_unknown_tagged')
    _FIELDS = (('topic_id', 'uuid', 0, 32767, -1, -1, None, -1, None), ('partitions', '[]int32', 0, 32767, -1, -1, None, -1, None))

    def __init__(self, *, topic_id=ZERO_UUID, partitions=DEFAULT, _unknown_tagged=None):
        self.topic_id = topic_id
        self.partitions = [] if partitions is DEFAULT else partitions
        self._unknown_tagged = _unknown_tagged


class Assignment(Message):
    __slots__ = ('topic_partitions', '_unknown_tagged')
    _FIELDS = (('topic_partitions', '[]TopicPartitions', 0, 32767, -1, -1, None, -1, 'TopicPartitions'),)

    def __init__(self, *, topic_partitions=DEFAULT, _unknown_tagged=None):
        self.topic_partitions = [] if topic_partitions is DEFAULT else topic_partitions
        self._unknown_tagged = _unknown_tagged


class ShareGroupHeartbeatResponse(Message):
    __slots__ = ('throttle_time_ms', 'error_code', 'error_message', 'member_id', 'member_epoch', 'heartbeat_interval_ms', 'assignment', '_unknown_tagged')
    _FIELDS = (('throttle_time_ms', 'int32', 0, 32767, -1, -1, None, -1, None), ('error_code', 'int16', 0, 32767, -1, -1, None, -1, None), ('error_message', 'string', 0, 32767, 0, 32767, None, -1, None), ('member_id', 'string', 0, 32767, 0, 32767, None, -1, None), ('member_epoch', 'int32', 0, 32767, -1, -1, None, -1, None), ('heartbeat_interval_ms', 'int32', 0, 32767, -1, -1, None, -1, None), ('assignment', 'Assignment', 0, 32767, 0, 32767, None, -1, 'Assignment'))
    API_KEY = 76
    VALID_VERSIONS = (1, 1)
    FLEXIBLE_MIN = 0

    def __init__(self, *, throttle_time_ms=0, error_code=0, error_message=None, member_id=None, member_epoch=0, heartbeat_interval_ms=0, assignment=None, _unknown_tagged=None):
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.error_message = error_message
        self.member_id = member_id
        self.member_epoch = member_epoch
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.assignment = assignment
        self._unknown_tagged = _unknown_tagged



def _d_TopicPartitions_0(b, p):
    o = _new(TopicPartitions)
    o.topic_id, = _S2.unpack_from(b, p)
    p += 16
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
        n, p = _rcal(b, p, 18)
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


def _d_ShareGroupHeartbeatResponse_0(b, p):
    o = _new(ShareGroupHeartbeatResponse)
    o.throttle_time_ms, o.error_code = _S0.unpack_from(b, p)
    p += 6
    o.error_message, p = _rcnstr(b, p)
    o.member_id, p = _rcnstr(b, p)
    o.member_epoch, o.heartbeat_interval_ms = _S1.unpack_from(b, p)
    p += 8
    if b[p] >= 128:
        o.assignment = None
        p += 1
    else:
        o.assignment, p = _d_Assignment_0(b, p + 1)
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_TopicPartitions_0(o, w):
    w.append(_S2.pack(o.topic_id))
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


def _e_ShareGroupHeartbeatResponse_0(o, w):
    w.append(_S0.pack(o.throttle_time_ms, o.error_code))
    _wcnstr(w, o.error_message)
    _wcnstr(w, o.member_id)
    w.append(_S1.pack(o.member_epoch, o.heartbeat_interval_ms))
    x = o.assignment
    if x is None:
        w.append(b'\xff')
    else:
        w.append(b'\x01')
        _e_Assignment_0(x, w)
    _wtag(w, o._unknown_tagged)


ShareGroupHeartbeatResponse._DECODERS = {1: _d_ShareGroupHeartbeatResponse_0}
ShareGroupHeartbeatResponse._ENCODERS = {1: _e_ShareGroupHeartbeatResponse_0}
