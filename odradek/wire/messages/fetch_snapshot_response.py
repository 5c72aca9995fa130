"""Generated from Kafka's FetchSnapshotResponse.json by tools/gen_wire.py. Do not edit."""
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
_S1 = _struct.Struct('>qi')
_S2 = _struct.Struct('>qq')
_S3 = _struct.Struct('>ii')
_S4 = _struct.Struct('>i')
_S5 = _struct.Struct('>H')


class SnapshotId(Message):
    __slots__ = ('end_offset', 'epoch', '_unknown_tagged')
    _FIELDS = (('end_offset', 'int64', 0, 32767, -1, -1, None, -1, None), ('epoch', 'int32', 0, 32767, -1, -1, None, -1, None))

    def __init__(self, *, end_offset=0, epoch=0, _unknown_tagged=None):
        self.end_offset = end_offset
        self.epoch = epoch
        self._unknown_tagged = _unknown_tagged


class LeaderIdAndEpoch(Message):
    __slots__ = ('leader_id', 'leader_epoch', '_unknown_tagged')
    _FIELDS = (('leader_id', 'int32', 0, 32767, -1, -1, None, -1, None), ('leader_epoch', 'int32', 0, 32767, -1, -1, None, -1, None))

    def __init__(self, *, leader_id=0, leader_epoch=0, _unknown_tagged=None):
        self.leader_id = leader_id
        self.leader_epoch = leader_epoch
        self._unknown_tagged = _unknown_tagged


class PartitionSnapshot(Message):
    __slots__ = ('index', 'error_code', 'snapshot_id', 'current_leader', 'size', 'position', 'unaligned_records', '_unknown_tagged')
    _FIELDS = (('index', 'int32', 0, 32767, -1, -1, None, -1, None), ('error_code', 'int16', 0, 32767, -1, -1, None, -1, None), ('snapshot_id', 'SnapshotId', 0, 32767, -1, -1, None, -1, 'SnapshotId'), ('current_leader', 'LeaderIdAndEpoch', 0, 32767, -1, -1, 0, 0, 'LeaderIdAndEpoch'), ('size', 'int64', 0, 32767, -1, -1, None, -1, None), ('position', 'int64', 0, 32767, -1, -1, None, -1, None), ('unaligned_records', 'records', 0, 32767, -1, -1, None, -1, None))

    def __init__(self, *, index=0, error_code=0, snapshot_id=DEFAULT, current_leader=DEFAULT, size=0, position=0, unaligned_records=None, _unknown_tagged=None):
        self.index = index
        self.error_code = error_code
        self.snapshot_id = SnapshotId() if snapshot_id is DEFAULT else snapshot_id
        self.current_leader = LeaderIdAndEpoch() if current_leader is DEFAULT else current_leader
        self.size = size
        self.position = position
        self.unaligned_records = unaligned_records
        self._unknown_tagged = _unknown_tagged


class TopicSnapshot(Message):
    __slots__ = ('name', 'partitions', '_unknown_tagged')
    _FIELDS = (('name', 'string', 0, 32767, -1, -1, None, -1, None), ('partitions', '[]PartitionSnapshot', 0, 32767, -1, -1, None, -1, 'PartitionSnapshot'))

    def __init__(self, *, name='', partitions=DEFAULT, _unknown_tagged=None):
        self.name = name
        self.partitions = [] if partitions is DEFAULT else partitions
        self._unknown_tagged = _unknown_tagged


class NodeEndpoint(Message):
    __slots__ = ('node_id', 'host', 'port', '_unknown_tagged')
    _FIELDS = (('node_id', 'int32', 1, 32767, -1, -1, None, -1, None), ('host', 'string', 1, 32767, -1, -1, None, -1, None), ('port', 'uint16', 1, 32767, -1, -1, None, -1, None))

    def __init__(self, *, node_id=0, host='', port=0, _unknown_tagged=None):
        self.node_id = node_id
        self.host = host
        self.port = port
        self._unknown_tagged = _unknown_tagged


class FetchSnapshotResponse(Message):
    __slots__ = ('throttle_time_ms', 'error_code', 'topics', 'node_endpoints', '_unknown_tagged')
    _FIELDS = (('throttle_time_ms', 'int32', 0, 32767, -1, -1, None, -1, None), ('error_code', 'int16', 0, 32767, -1, -1, None, -1, None), ('topics', '[]TopicSnapshot', 0, 32767, -1, -1, None, -1, 'TopicSnapshot'), ('node_endpoints', '[]NodeEndpoint', 1, 32767, -1, -1, 0, 1, 'NodeEndpoint'))
    API_KEY = 59
    VALID_VERSIONS = (0, 1)
    FLEXIBLE_MIN = 0

    def __init__(self, *, throttle_time_ms=0, error_code=0, topics=DEFAULT, node_endpoints=DEFAULT, _unknown_tagged=None):
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.topics = [] if topics is DEFAULT else topics
        self.node_endpoints = [] if node_endpoints is DEFAULT else node_endpoints
        self._unknown_tagged = _unknown_tagged



def _d_SnapshotId_0(b, p):
    o = _new(SnapshotId)
    o.end_offset, o.epoch = _S1.unpack_from(b, p)
    p += 12
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


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


def _d_PartitionSnapshot_0(b, p):
    o = _new(PartitionSnapshot)
    o.index, o.error_code = _S0.unpack_from(b, p)
    p += 6
    o.snapshot_id, p = _d_SnapshotId_0(b, p)
    o.current_leader = LeaderIdAndEpoch()
    o.size, o.position = _S2.unpack_from(b, p)
    p += 16
    o.unaligned_records, p = _rcrec(b, p)
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


def _d_TopicSnapshot_0(b, p):
    o = _new(TopicSnapshot)
    o.name, p = _rcstr(b, p)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 37)
    l = []
    for _ in range(n):
        e, p = _d_PartitionSnapshot_0(b, p)
        l.append(e)
    o.partitions = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_FetchSnapshotResponse_0(b, p):
    o = _new(FetchSnapshotResponse)
    o.throttle_time_ms, o.error_code = _S0.unpack_from(b, p)
    p += 6
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 3)
    l = []
    for _ in range(n):
        e, p = _d_TopicSnapshot_0(b, p)
        l.append(e)
    o.topics = l
    o.node_endpoints = []
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_SnapshotId_0(o, w):
    w.append(_S1.pack(o.end_offset, o.epoch))
    _wtag(w, o._unknown_tagged)


def _e_LeaderIdAndEpoch_0(o, w):
    w.append(_S3.pack(o.leader_id, o.leader_epoch))
    _wtag(w, o._unknown_tagged)


def _e_PartitionSnapshot_0(o, w):
    w.append(_S0.pack(o.index, o.error_code))
    _e_SnapshotId_0(o.snapshot_id, w)
    w.append(_S2.pack(o.size, o.position))
    _wcnbyt(w, o.unaligned_records)
    tg = []
    x = o.current_leader
    if x != LeaderIdAndEpoch():
        tw = []
        _e_LeaderIdAndEpoch_0(x, tw)
        tg.append((0, b''.join(tw)))
    if o._unknown_tagged:
        tg = sorted(tg + o._unknown_tagged, key=_tagkey)
    _wtag(w, tg)


def _e_TopicSnapshot_0(o, w):
    _wcstr(w, o.name)
    x = o.partitions
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_PartitionSnapshot_0(e, w)
    _wtag(w, o._unknown_tagged)


def _e_FetchSnapshotResponse_0(o, w):
    w.append(_S0.pack(o.throttle_time_ms, o.error_code))
    x = o.topics
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_TopicSnapshot_0(e, w)
    _wtag(w, o._unknown_tagged)


def _d_NodeEndpoint_0(b, p):
    o = _new(NodeEndpoint)
    o.node_id, = _S4.unpack_from(b, p)
    p += 4
    o.host, p = _rcstr(b, p)
    o.port, = _S5.unpack_from(b, p)
    p += 2
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_FetchSnapshotResponse_1(b, p):
    o = _new(FetchSnapshotResponse)
    o.throttle_time_ms, o.error_code = _S0.unpack_from(b, p)
    p += 6
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 3)
    l = []
    for _ in range(n):
        e, p = _d_TopicSnapshot_0(b, p)
        l.append(e)
    o.topics = l
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
                    n, q = _rcal(raw, q, 8)
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


def _e_NodeEndpoint_0(o, w):
    w.append(_S4.pack(o.node_id))
    _wcstr(w, o.host)
    w.append(_S5.pack(o.port))
    _wtag(w, o._unknown_tagged)


def _e_FetchSnapshotResponse_1(o, w):
    w.append(_S0.pack(o.throttle_time_ms, o.error_code))
    x = o.topics
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_TopicSnapshot_0(e, w)
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


FetchSnapshotResponse._DECODERS = {0: _d_FetchSnapshotResponse_0, 1: _d_FetchSnapshotResponse_1}
FetchSnapshotResponse._ENCODERS = {0: _e_FetchSnapshotResponse_0, 1: _e_FetchSnapshotResponse_1}
