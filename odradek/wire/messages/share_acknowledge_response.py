"""Generated from Kafka's ShareAcknowledgeResponse.json by tools/gen_wire.py. Do not edit."""
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
_S1 = _struct.Struct('>16s')
_S2 = _struct.Struct('>ii')
_S3 = _struct.Struct('>i')


class LeaderIdAndEpoch(Message):
    __slots__ = ('leader_id', 'leader_epoch', '_unknown_tagged')
    _FIELDS = (('leader_id', 'int32', 0, 32767, -1, -1, None, -1, None), ('leader_epoch', 'int32', 0, 32767, -1, -1, None, -1, None))

    def __init__(self, *, leader_id=0, leader_epoch=0, _unknown_tagged=None):
        self.leader_id = leader_id
        self.leader_epoch = leader_epoch
        self._unknown_tagged = _unknown_tagged


class PartitionData(Message):
    __slots__ = ('partition_index', 'error_code', 'error_message', 'current_leader', '_unknown_tagged')
    _FIELDS = (('partition_index', 'int32', 0, 32767, -1, -1, None, -1, None), ('error_code', 'int16', 0, 32767, -1, -1, None, -1, None), ('error_message', 'string', 0, 32767, 0, 32767, None, -1, None), ('current_leader', 'LeaderIdAndEpoch', 0, 32767, -1, -1, None, -1, 'LeaderIdAndEpoch'))

    def __init__(self, *, partition_index=0, error_code=0, error_message=None, current_leader=DEFAULT, _unknown_tagged=None):
        self.partition_index = partition_index
        self.error_code = error_code
        self.error_message = error_message
        self.current_leader = LeaderIdAndEpoch() if current_leader is DEFAULT else current_leader
        self._unknown_tagged = _unknown_tagged


class ShareAcknowledgeTopicResponse(Message):
    __slots__ = ('topic_id', 'partitions', '_unknown_tagged')
    _FIELDS = (('topic_id', 'uuid', 0, 32767, -1, -1, None, -1, None), ('partitions', '[]PartitionData', 0, 32767, -1, -1, None, -1, 'PartitionData'))

    def __init__(self, *, topic_id=ZERO_UUID, partitions=DEFAULT, _unknown_tagged=None):
        self.topic_id = topic_id
        self.partitions = [] if partitions is DEFAULT else partitions
        self._unknown_tagged = _unknown_tagged


class NodeEndpoint(Message):
    __slots__ = ('node_id', 'host', 'port', 'rack', '_unknown_tagged')
    _FIELDS = (('node_id', 'int32', 0, 32767, -1, -1, None, -1, None), ('host', 'string', 0, 32767, -1, -1, None, -1, None), ('port', 'int32', 0, 32767, -1, -1, None, -1, None), ('rack', 'string', 0, 32767, 0, 32767, None, -1, None))

    def __init__(self, *, node_id=0, host='', port=0, rack=None, _unknown_tagged=None):
        self.node_id = node_id
        self.host = host
        self.port = port
        self.rack = rack
        self._unknown_tagged = _unknown_tagged


class ShareAcknowledgeResponse(Message):
    __slots__ = ('throttle_time_ms', 'error_code', 'error_message', 'acquisition_lock_timeout_ms', 'responses', 'node_endpoints', '_unknown_tagged')
    _FIELDS = (('throttle_time_ms', 'int32', 0, 32767, -1, -1, None, -1, None), ('error_code', 'int16', 0, 32767, -1, -1, None, -1, None), ('error_message', 'string', 0, 32767, 0, 32767, None, -1, None), ('acquisition_lock_timeout_ms', 'int32', 2, 32767, -1, -1, None, -1, None), ('responses', '[]ShareAcknowledgeTopicResponse', 0, 32767, -1, -1, None, -1, 'ShareAcknowledgeTopicResponse'), ('node_endpoints', '[]NodeEndpoint', 0, 32767, -1, -1, None, -1, 'NodeEndpoint'))
    API_KEY = 79
    VALID_VERSIONS = (1, 2)
    FLEXIBLE_MIN = 0

    def __init__(self, *, throttle_time_ms=0, error_code=0, error_message=None, acquisition_lock_timeout_ms=0, responses=DEFAULT, node_endpoints=DEFAULT, _unknown_tagged=None):
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.error_message = error_message
        self.acquisition_lock_timeout_ms = acquisition_lock_timeout_ms
        self.responses = [] if responses is DEFAULT else responses
        self.node_endpoints = [] if node_endpoints is DEFAULT else node_endpoints
        self._unknown_tagged = _unknown_tagged



def _d_LeaderIdAndEpoch_0(b, p):
    o = _new(LeaderIdAndEpoch)
    o.leader_id, o.leader_epoch = _S2.unpack_from(b, p)
    p += 8
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_PartitionData_0(b, p):
    o = _new(PartitionData)
    o.partition_index, o.error_code = _S0.unpack_from(b, p)
    p += 6
    o.error_message, p = _rcnstr(b, p)
    o.current_leader, p = _d_LeaderIdAndEpoch_0(b, p)
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_ShareAcknowledgeTopicResponse_0(b, p):
    o = _new(ShareAcknowledgeTopicResponse)
    o.topic_id, = _S1.unpack_from(b, p)
    p += 16
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 17)
    l = []
    for _ in range(n):
        e, p = _d_PartitionData_0(b, p)
        l.append(e)
    o.partitions = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_NodeEndpoint_0(b, p):
    o = _new(NodeEndpoint)
    o.node_id, = _S3.unpack_from(b, p)
    p += 4
    o.host, p = _rcstr(b, p)
    o.port, = _S3.unpack_from(b, p)
    p += 4
    o.rack, p = _rcnstr(b, p)
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_ShareAcknowledgeResponse_0(b, p):
    o = _new(ShareAcknowledgeResponse)
    o.throttle_time_ms, o.error_code = _S0.unpack_from(b, p)
    p += 6
    o.error_message, p = _rcnstr(b, p)
    o.acquisition_lock_timeout_ms = 0
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 18)
    l = []
    for _ in range(n):
        e, p = _d_ShareAcknowledgeTopicResponse_0(b, p)
        l.append(e)
    o.responses = l
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 11)
    l = []
    for _ in range(n):
        e, p = _d_NodeEndpoint_0(b, p)
        l.append(e)
    o.node_endpoints = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_LeaderIdAndEpoch_0(o, w):
    w.append(_S2.pack(o.leader_id, o.leader_epoch))
    _wtag(w, o._unknown_tagged)


def _e_PartitionData_0(o, w):
    w.append(_S0.pack(o.partition_index, o.error_code))
    _wcnstr(w, o.error_message)
    _e_LeaderIdAndEpoch_0(o.current_leader, w)
    _wtag(w, o._unknown_tagged)


def _e_ShareAcknowledgeTopicResponse_0(o, w):
    w.append(_S1.pack(o.topic_id))
    x = o.partitions
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_PartitionData_0(e, w)
    _wtag(w, o._unknown_tagged)


def _e_NodeEndpoint_0(o, w):
    w.append(_S3.pack(o.node_id))
    _wcstr(w, o.host)
    w.append(_S3.pack(o.port))
    _wcnstr(w, o.rack)
    _wtag(w, o._unknown_tagged)


def _e_ShareAcknowledgeResponse_0(o, w):
    w.append(_S0.pack(o.throttle_time_ms, o.error_code))
    _wcnstr(w, o.error_message)
    x = o.responses
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_ShareAcknowledgeTopicResponse_0(e, w)
    x = o.node_endpoints
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_NodeEndpoint_0(e, w)
    _wtag(w, o._unknown_tagged)


def _d_ShareAcknowledgeResponse_1(b, p):
    o = _new(ShareAcknowledgeResponse)
    o.throttle_time_ms, o.error_code = _S0.unpack_from(b, p)
    p += 6
    o.error_message, p = _rcnstr(b, p)
    o.acquisition_lock_timeout_ms, = _S3.unpack_from(b, p)
    p += 4
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 18)
    l = []
    for _ in range(n):
        e, p = _d_ShareAcknowledgeTopicResponse_0(b, p)
        l.append(e)
    o.responses = l
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 11)
    l = []
    for _ in range(n):
        e, p = _d_NodeEndpoint_0(b, p)
        l.append(e)
    o.node_endpoints = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_ShareAcknowledgeResponse_1(o, w):
    w.append(_S0.pack(o.throttle_time_ms, o.error_code))
    _wcnstr(w, o.error_message)
    w.append(_S3.pack(o.acquisition_lock_timeout_ms))
    x = o.responses
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_ShareAcknowledgeTopicResponse_0(e, w)
    x = o.node_endpoints
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_NodeEndpoint_0(e, w)
    _wtag(w, o._unknown_tagged)


ShareAcknowledgeResponse._DECODERS = {1: _d_ShareAcknowledgeResponse_0, 2: _d_ShareAcknowledgeResponse_1}
ShareAcknowledgeResponse._ENCODERS = {1: _e_ShareAcknowledgeResponse_0, 2: _e_ShareAcknowledgeResponse_1}
