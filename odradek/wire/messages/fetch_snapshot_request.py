"""Generated from Kafka's FetchSnapshotRequest.json by tools/gen_wire.py. Do not edit."""
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
_S1 = _struct.Struct('>qi')
_S2 = _struct.Struct('>q')
_S3 = _struct.Struct('>16s')


class SnapshotId(Message):
    __slots__ = ('end_offset', 'epoch', '_unknown_tagged')
    _FIELDS = (('end_offset', 'int64', 0, 32767, -1, -1, None, -1, None), ('epoch', 'int32', 0, 32767, -1, -1, None, -1, None))

    def __init__(self, *, end_offset=0, epoch=0, _unknown_tagged=None):
        self.end_offset = end_offset
        self.epoch = epoch
        self._unknown_tagged = _unknown_tagged


class PartitionSnapshot(Message):
    __slots__ = ('partition', 'current_leader_epoch', 'snapshot_id', 'position', 'replica_directory_id', '_unknown_tagged')
    _FIELDS = (('partition', 'int32', 0, 32767, -1, -1, None, -1, None), ('current_leader_epoch', 'int32', 0, 32767, -1, -1, None, -1, None), ('snapshot_id', 'SnapshotId', 0, 32767, -1, -1, None, -1, 'SnapshotId'), ('position', 'int64', 0, 32767, -1, -1, None, -1, None), ('replica_directory_id', 'uuid', 1, 32767, -1, -1, 0, 1, None))

    def __init__(self, *, partition=0, current_leader_epoch=0, snapshot_id=DEFAULT, position=0, replica_directory_id=ZERO_UUID, _unknown_tagged=None):
        self.partition = partition
        self.current_leader_epoch = current_leader_epoch
        self.snapshot_id = SnapshotId() if snapshot_id is DEFAULT else snapshot_id
        self.position = position
        self.replica_directory_id = replica_directory_id
        self._unknown_tagged = _unknown_tagged


class TopicSnapshot(Message):
    __slots__ = ('name', 'partitions', '_unknown_tagged')
    _FIELDS = (('name', 'string', 0, 32767, -1, -1, None, -1, None), ('partitions', '[]PartitionSnapshot', 0, 32767, -1, -1, None, -1, 'PartitionSnapshot'))

    def __init__(self, *, name='', partitions=DEFAULT, _unknown_tagged=None):
        self.name = name
        self.partitions = [] if partitions is DEFAULT else partitions
        self._unknown_tagged = _unknown_tagged


class FetchSnapshotRequest(Message):
    __slots__ = ('cluster_id', 'replica_id', 'max_bytes', 'topics', '_unknown_tagged')
    _FIELDS = (('cluster_id', 'string', 0, 32767, 0, 32767, 0, 0, None), ('replica_id', 'int32', 0, 32767, -1, -1, None, -1, None), ('max_bytes', 'int32', 0, 32767, -1, -1, None, -1, None), ('topics', '[]TopicSnapshot', 0, 32767, -1, -1, None, -1, 'TopicSnapshot'))
    API_KEY = 59
    VALID_VERSIONS = (0, 1)
    FLEXIBLE_MIN = 0

    def __init__(self, *, cluster_id=None, replica_id=-1, max_bytes=2147483647, topics=DEFAULT, _unknown_tagged=None):
        self.cluster_id = cluster_id
        self.replica_id = replica_id
        self.max_bytes = max_bytes
        self.topics = [] if topics is DEFAULT else topics
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


def _d_PartitionSnapshot_0(b, p):
    o = _new(PartitionSnapshot)
    o.partition, o.current_leader_epoch = _S0.unpack_from(b, p)
    p += 8
    o.snapshot_id, p = _d_SnapshotId_0(b, p)
    o.position, = _S2.unpack_from(b, p)
    p += 8
    o.replica_directory_id = ZERO_UUID
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_TopicSnapshot_0(b, p):
    o = _new(TopicSnapshot)
    o.name, p = _rcstr(b, p)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 30)
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


def _d_FetchSnapshotRequest_0(b, p):
    o = _new(FetchSnapshotRequest)
    o.cluster_id = None
    o.replica_id, o.max_bytes = _S0.unpack_from(b, p)
    p += 8
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
                o.cluster_id, q = _rcnstr(raw, q)
            else:
                if u is None: u = []
                u.append((tag, bytes(raw)))
    o._unknown_tagged = u
    return o, p


def _e_SnapshotId_0(o, w):
    w.append(_S1.pack(o.end_offset, o.epoch))
    _wtag(w, o._unknown_tagged)


def _e_PartitionSnapshot_0(o, w):
    w.append(_S0.pack(o.partition, o.current_leader_epoch))
    _e_SnapshotId_0(o.snapshot_id, w)
    w.append(_S2.pack(o.position))
    _wtag(w, o._unknown_tagged)


def _e_TopicSnapshot_0(o, w):
    _wcstr(w, o.name)
    x = o.partitions
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_PartitionSnapshot_0(e, w)
    _wtag(w, o._unknown_tagged)


def _e_FetchSnapshotRequest_0(o, w):
    w.append(_S0.pack(o.replica_id, o.max_bytes))
    x = o.topics
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_TopicSnapshot_0(e, w)
    tg = []
    x = o.cluster_id
    if x is not None:
        tw = []
        _wcnstr(tw, x)
        tg.append((0, b''.join(tw)))
    if o._unknown_tagged:
        tg = sorted(tg + o._unknown_tagged, key=_tagkey)
    _wtag(w, tg)


def _d_PartitionSnapshot_1(b, p):
    o = _new(PartitionSnapshot)
    o.partition, o.current_leader_epoch = _S0.unpack_from(b, p)
    p += 8
    o.snapshot_id, p = _d_SnapshotId_0(b, p)
    o.position, = _S2.unpack_from(b, p)
    p += 8
    o.replica_directory_id = ZERO_UUID
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
                o.replica_directory_id, = _S3.unpack_from(raw, q)
                q += 16
            else:
                if u is None: u = []
                u.append((tag, bytes(raw)))
    o._unknown_tagged = u
    return o, p


def _d_TopicSnapshot_1(b, p):
    o = _new(TopicSnapshot)
    o.name, p = _rcstr(b, p)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 30)
    l = []
    for _ in range(n):
        e, p = _d_PartitionSnapshot_1(b, p)
        l.append(e)
    o.partitions = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_FetchSnapshotRequest_1(b, p):
    o = _new(FetchSnapshotRequest)
    o.cluster_id = None
    o.replica_id, o.max_bytes = _S0.unpack_from(b, p)
    p += 8
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 3)
    l = []
    for _ in range(n):
        e, p = _d_TopicSnapshot_1(b, p)
        l.append(e)
    o.topics = l
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
                o.cluster_id, q = _rcnstr(raw, q)
            else:
                if u is None: u = []
                u.append((tag, bytes(raw)))
    o._unknown_tagged = u
    return o, p


def _e_PartitionSnapshot_1(o, w):
    w.append(_S0.pack(o.partition, o.current_leader_epoch))
    _e_SnapshotId_0(o.snapshot_id, w)
    w.append(_S2.pack(o.position))
    tg = []
    x = o.replica_directory_id
    if x != ZERO_UUID:
        tw = []
        tw.append(_S3.pack(x))
        tg.append((0, b''.join(tw)))
    if o._unknown_tagged:
        tg = sorted(tg + o._unknown_tagged, key=_tagkey)
    _wtag(w, tg)


def _e_TopicSnapshot_1(o, w):
    _wcstr(w, o.name)
    x = o.partitions
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_PartitionSnapshot_1(e, w)
    _wtag(w, o._unknown_tagged)


def _e_FetchSnapshotRequest_1(o, w):
    w.append(_S0.pack(o.replica_id, o.max_bytes))
    x = o.topics
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_TopicSnapshot_1(e, w)
    tg = []
    x = o.cluster_id
    if x is not None:
        tw = []
        _wcnstr(tw, x)
        tg.append((0, b''.join(tw)))
    if o._unknown_tagged:
        tg = sorted(tg + o._unknown_tagged, key=_tagkey)
    _wtag(w, tg)


FetchSnapshotRequest._DECODERS = {0: _d_FetchSnapshotRequest_0, 1: _d_FetchSnapshotRequest_1}
FetchSnapshotRequest._ENCODERS = {0: _e_FetchSnapshotRequest_0, 1: _e_FetchSnapshotRequest_1}
