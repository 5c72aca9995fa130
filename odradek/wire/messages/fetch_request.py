"""Generated from Kafka's FetchRequest.json by tools/gen_wire.py. Do not edit."""
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

_S0 = _struct.Struct('>i')
_S1 = _struct.Struct('>iiib')
_S2 = _struct.Struct('>q')
_S3 = _struct.Struct('>iiiib')
_S4 = _struct.Struct('>iqi')
_S5 = _struct.Struct('>qi')
_S6 = _struct.Struct('>iqqi')
_S7 = _struct.Struct('>iiibii')
_S8 = _struct.Struct('>iiiibii')
_S9 = _struct.Struct('>iiq')
_S10 = _struct.Struct('>iiqqi')
_S11 = _struct.Struct('>iiqiqi')
_S12 = _struct.Struct('>16s')
_S13 = _struct.Struct('>iq')


class ReplicaState(Message):
    __slots__ = ('replica_id', 'replica_epoch', '_unknown_tagged')
    _FIELDS = (('replica_id', 'int32', 15, 32767, -1, -1, None, -1, None), ('replica_epoch', 'int64', 15, 32767, -1, -1, None, -1, None))

    def __init__(self, *, replica_id=-1, replica_epoch=-1, _unknown_tagged=None):
        self.replica_id = replica_id
        self.replica_epoch = replica_epoch
        self._unknown_tagged = _unknown_tagged


class FetchPartition(Message):
    __slots__ = ('partition', 'current_leader_epoch', 'fetch_offset', 'last_fetched_epoch', 'log_start_offset', 'partition_max_bytes', 'replica_directory_id', 'high_watermark', '_unknown_tagged')
    _FIELDS = (('partition', 'int32', 0, 32767, -1, -1, None, -1, None), ('current_leader_epoch', 'int32', 9, 32767, -1, -1, None, -1, None), ('fetch_offset', 'int64', 0, 32767, -1, -1, None, -1, None), ('last_fetched_epoch', 'int32', 12, 32767, -1, -1, None, -1, None), ('log_start_offset', 'int64', 5, 32767, -1, -1, None, -1, None), ('partition_max_bytes', 'int32', 0, 32767, -1, -1, None, -1, None), ('replica_directory_id', 'uuid', 17, 32767, -1, -1, 0, 17, None), ('high_watermark', 'int64', 18, 32767, -1, -1, 1, 18, None))

    def __init__(self, *, partition=0, current_leader_epoch=-1, fetch_offset=0, last_fetched_epoch=-1, log_start_offset=-1, partition_max_bytes=0, replica_directory_id=ZERO_UUID, high_watermark=9223372036854775807, _unknown_tagged=None):
        self.partition = partition
        self.current_leader_epoch = current_leader_epoch
        self.fetch_offset = fetch_offset
        self.last_fetched_epoch = last_fetched_epoch
        self.log_start_offset = log_start_offset
        self.partition_max_bytes = partition_max_bytes
        self.replica_directory_id = replica_directory_id
        self.high_watermark = high_watermark
        self._unknown_tagged = _unknown_tagged


class FetchTopic(Message):
    __slots__ = ('topic', 'topic_id', 'partitions', '_unknown_tagged')
    _FIELDS = (('topic', 'string', 0, 12, -1, -1, None, -1, None), ('topic_id', 'uuid', 13, 32767, -1, -1, None, -1, None), ('partitions', '[]FetchPartition', 0, 32767, -1, -1, None, -1, 'FetchPartition'))

    def __init__(self, *, topic='', topic_id=ZERO_UUID, partitions=DEFAULT, _unknown_tagged=None):
        self.topic = topic
        self.topic_id = topic_id
        self.partitions = [] if partitions is DEFAULT else partitions
        self._unknown_tagged = _unknown_tagged


class ForgottenTopic(Message):
    __slots__ = ('topic', 'topic_id', 'partitions', '_unknown_tagged')
    _FIELDS = (('topic', 'string', 7, 12, -1, -1, None, -1, None), ('topic_id', 'uuid', 13, 32767, -1, -1, None, -1, None), ('partitions', '[]int32', 7, 32767, -1, -1, None, -1, None))

    def __init__(self, *, topic='', topic_id=ZERO_UUID, partitions=DEFAULT, _unknown_tagged=None):
        self.topic = topic
        self.topic_id = topic_id
        self.partitions = [] if partitions is DEFAULT else partitions
        self._unknown_tagged = _unknown_tagged


class FetchRequest(Message):
    __slots__ = ('cluster_id', 'replica_id', 'replica_state', 'max_wait_ms', 'min_bytes', 'max_bytes', 'isolation_level', 'session_id', 'session_epoch', 'topics', 'forgotten_topics_data', 'rack_id', '_unknown_tagged')
    _FIELDS = (('cluster_id', 'string', 12, 32767, 12, 32767, 0, 12, None), ('replica_id', 'int32', 0, 14, -1, -1, None, -1, None), ('replica_state', 'ReplicaState', 15, 32767, -1, -1, 1, 15, 'ReplicaState'), ('max_wait_ms', 'int32', 0, 32767, -1, -1, None, -1, None), ('min_bytes', 'int32', 0, 32767, -1, -1, None, -1, None), ('max_bytes', 'int32', 3, 32767, -1, -1, None, -1, None), ('isolation_level', 'int8', 4, 32767, -1, -1, None, -1, None), ('session_id', 'int32', 7, 32767, -1, -1, None, -1, None), ('session_epoch', 'int32', 7, 32767, -1, -1, None, -1, None), ('topics', '[]FetchTopic', 0, 32767, -1, -1, None, -1, 'FetchTopic'), ('forgotten_topics_data', '[]ForgottenTopic', 7, 32767, -1, -1, None, -1, 'ForgottenTopic'), ('rack_id', 'string', 11, 32767, -1, -1, None, -1, None))
    API_KEY = 1
    VALID_VERSIONS = (4, 18)
    FLEXIBLE_MIN = 12

    def __init__(self, *, cluster_id=None, replica_id=-1, replica_state=DEFAULT, max_wait_ms=0, min_bytes=0, max_bytes=2147483647, isolation_level=0, session_id=0, session_epoch=-1, topics=DEFAULT, forgotten_topics_data=DEFAULT, rack_id='', _unknown_tagged=None):
        self.cluster_id = cluster_id
        self.replica_id = replica_id
        self.replica_state = ReplicaState() if replica_state is DEFAULT else replica_state
        self.max_wait_ms = max_wait_ms
        self.min_bytes = min_bytes
        self.max_bytes = max_bytes
        self.isolation_level = isolation_level
        self.session_id = session_id
        self.session_epoch = session_epoch
        self.topics = [] if topics is DEFAULT else topics
        self.forgotten_topics_data = [] if forgotten_topics_data is DEFAULT else forgotten_topics_data
        self.rack_id = rack_id
        self._unknown_tagged = _unknown_tagged



def _d_FetchPartition_0(b, p):
    o = _new(FetchPartition)
    o.partition, = _S0.unpack_from(b, p)
    p += 4
    o.current_leader_epoch = -1
    o.fetch_offset, = _S2.unpack_from(b, p)
    p += 8
    o.last_fetched_epoch = -1
    o.log_start_offset = -1
    o.partition_max_bytes, = _S0.unpack_from(b, p)
    p += 4
    o.replica_directory_id = ZERO_UUID
    o.high_watermark = 9223372036854775807
    o._unknown_tagged = None
    return o, p


def _n_FetchTopic_0(b, p, y):
    o = _new(FetchTopic)
    o.topic, p = _rstr(b, p)
    o.topic_id = ZERO_UUID
    n, p = _ral(b, p, 16)
    l = []
    for _ in range(n):
        e, p = _d_FetchPartition_0(b, p)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.partitions = l
    o._unknown_tagged = None
    return o, p, y


def _s_FetchRequest_0(b, p):
    o = _new(FetchRequest)
    o.cluster_id = None
    o.replica_id, = _S0.unpack_from(b, p)
    p += 4
    o.replica_state = ReplicaState()
    o.max_wait_ms, o.min_bytes, o.max_bytes, o.isolation_level = _S1.unpack_from(b, p)
    p += 13
    o.session_id = 0
    o.session_epoch = -1
    n, p = _ral(b, p, 6)
    y = p + 16384
    l = []
    for _ in range(n):
        e, p, y = yield from _n_FetchTopic_0(b, p, y)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.topics = l
    o.forgotten_topics_data = []
    o.rack_id = ''
    o._unknown_tagged = None
    return o, p


def _e_FetchPartition_0(o, w):
    w.append(_S4.pack(o.partition, o.fetch_offset, o.partition_max_bytes))


def _e_FetchTopic_0(o, w):
    _wstr(w, o.topic)
    x = o.partitions
    w.append(_I(len(x)))
    for e in x:
        _e_FetchPartition_0(e, w)


def _e_FetchRequest_0(o, w):
    w.append(_S3.pack(o.replica_id, o.max_wait_ms, o.min_bytes, o.max_bytes, o.isolation_level))
    x = o.topics
    w.append(_I(len(x)))
    for e in x:
        _e_FetchTopic_0(e, w)


def _d_FetchPartition_1(b, p):
    o = _new(FetchPartition)
    o.partition, = _S0.unpack_from(b, p)
    p += 4
    o.current_leader_epoch = -1
    o.fetch_offset, = _S2.unpack_from(b, p)
    p += 8
    o.last_fetched_epoch = -1
    o.log_start_offset, o.partition_max_bytes = _S5.unpack_from(b, p)
    p += 12
    o.replica_directory_id = ZERO_UUID
    o.high_watermark = 9223372036854775807
    o._unknown_tagged = None
    return o, p


def _n_FetchTopic_1(b, p, y):
    o = _new(FetchTopic)
    o.topic, p = _rstr(b, p)
    o.topic_id = ZERO_UUID
    n, p = _ral(b, p, 24)
    l = []
    for _ in range(n):
        e, p = _d_FetchPartition_1(b, p)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.partitions = l
    o._unknown_tagged = None
    return o, p, y


def _s_FetchRequest_1(b, p):
    o = _new(FetchRequest)
    o.cluster_id = None
    o.replica_id, = _S0.unpack_from(b, p)
    p += 4
    o.replica_state = ReplicaState()
    o.max_wait_ms, o.min_bytes, o.max_bytes, o.isolation_level = _S1.unpack_from(b, p)
    p += 13
    o.session_id = 0
    o.session_epoch = -1
    n, p = _ral(b, p, 6)
    y = p + 16384
    l = []
    for _ in range(n):
        e, p, y = yield from _n_FetchTopic_1(b, p, y)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.topics = l
    o.forgotten_topics_data = []
    o.rack_id = ''
    o._unknown_tagged = None
    return o, p


def _e_FetchPartition_1(o, w):
    w.append(_S6.pack(o.partition, o.fetch_offset, o.log_start_offset, o.partition_max_bytes))


def _e_FetchTopic_1(o, w):
    _wstr(w, o.topic)
    x = o.partitions
    w.append(_I(len(x)))
    for e in x:
        _e_FetchPartition_1(e, w)


def _e_FetchRequest_1(o, w):
    w.append(_S3.pack(o.replica_id, o.max_wait_ms, o.min_bytes, o.max_bytes, o.isolation_level))
    x = o.topics
    w.append(_I(len(x)))
    for e in x:
        _e_FetchTopic_1(e, w)


def _d_ForgottenTopic_0(b, p):
    o = _new(ForgottenTopic)
    o.topic, p = _rstr(b, p)
    o.topic_id = ZERO_UUID
    n, p = _ral(b, p, 4)
    l = list((_ARR['i'][n] if n < 64 else _struct.Struct('>%di' % n)).unpack_from(b, p))
    p += 4 * n
    o.partitions = l
    o._unknown_tagged = None
    return o, p


def _s_FetchRequest_2(b, p):
    o = _new(FetchRequest)
    o.cluster_id = None
    o.replica_id, = _S0.unpack_from(b, p)
    p += 4
    o.replica_state = ReplicaState()
    o.max_wait_ms, o.min_bytes, o.max_bytes, o.isolation_level, o.session_id, o.session_epoch = _S7.unpack_from(b, p)
    p += 21
    n, p = _ral(b, p, 6)
    y = p + 16384
    l = []
    for _ in range(n):
        e, p, y = yield from _n_FetchTopic_1(b, p, y)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.topics = l
    n, p = _ral(b, p, 6)
    y = p + 16384
    l = []
    for _ in range(n):
        e, p = _d_ForgottenTopic_0(b, p)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.forgotten_topics_data = l
    o.rack_id = ''
    o._unknown_tagged = None
    return o, p


def _e_ForgottenTopic_0(o, w):
    _wstr(w, o.topic)
    x = o.partitions
    w.append(_I(len(x)))
    w.append(_pack('>%di' % len(x), *x))


def _e_FetchRequest_2(o, w):
    w.append(_S8.pack(o.replica_id, o.max_wait_ms, o.min_bytes, o.max_bytes, o.isolation_level, o.session_id, o.session_epoch))
    x = o.topics
    w.append(_I(len(x)))
    for e in x:
        _e_FetchTopic_1(e, w)
    x = o.forgotten_topics_data
    w.append(_I(len(x)))
    for e in x:
        _e_ForgottenTopic_0(e, w)


def _d_FetchPartition_2(b, p):
    o = _new(FetchPartition)
    o.partition, o.current_leader_epoch, o.fetch_offset = _S9.unpack_from(b, p)
    p += 16
    o.last_fetched_epoch = -1
    o.log_start_offset, o.partition_max_bytes = _S5.unpack_from(b, p)
    p += 12
    o.replica_directory_id = ZERO_UUID
    o.high_watermark = 9223372036854775807
    o._unknown_tagged = None
    return o, p


def _n_FetchTopic_2(b, p, y):
    o = _new(FetchTopic)
    o.topic, p = _rstr(b, p)
    o.topic_id = ZERO_UUID
    n, p = _ral(b, p, 28)
    l = []
    for _ in range(n):
        e, p = _d_FetchPartition_2(b, p)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.partitions = l
    o._unknown_tagged = None
    return o, p, y


def _s_FetchRequest_3(b, p):
    o = _new(FetchRequest)
    o.cluster_id = None
    o.replica_id, = _S0.unpack_from(b, p)
    p += 4
    o.replica_state = ReplicaState()
    o.max_wait_ms, o.min_bytes, o.max_bytes, o.isolation_level, o.session_id, o.session_epoch = _S7.unpack_from(b, p)
    p += 21
    n, p = _ral(b, p, 6)
    y = p + 16384
    l = []
    for _ in range(n):
        e, p, y = yield from _n_FetchTopic_2(b, p, y)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.topics = l
    n, p = _ral(b, p, 6)
    y = p + 16384
    l = []
    for _ in range(n):
        e, p = _d_ForgottenTopic_0(b, p)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.forgotten_topics_data = l
    o.rack_id = ''
    o._unknown_tagged = None
    return o, p


def _e_FetchPartition_2(o, w):
    w.append(_S10.pack(o.partition, o.current_leader_epoch, o.fetch_offset, o.log_start_offset, o.partition_max_bytes))


def _e_FetchTopic_2(o, w):
    _wstr(w, o.topic)
    x = o.partitions
    w.append(_I(len(x)))
    for e in x:
        _e_FetchPartition_2(e, w)


def _e_FetchRequest_3(o, w):
    w.append(_S8.pack(o.replica_id, o.max_wait_ms, o.min_bytes, o.max_bytes, o.isolation_level, o.session_id, o.session_epoch))
    x = o.topics
    w.append(_I(len(x)))
    for e in x:
        _e_FetchTopic_2(e, w)
    x = o.forgotten_topics_data
    w.append(_I(len(x)))
    for e in x:
        _e_ForgottenTopic_0(e, w)


def _s_FetchRequest_4(b, p):
    o = _new(FetchRequest)
    o.cluster_id = None
    o.replica_id, = _S0.unpack_from(b, p)
    p += 4
    o.replica_state = ReplicaState()
    o.max_wait_ms, o.min_bytes, o.max_bytes, o.isolation_level, o.session_id, o.session_epoch = _S7.unpack_from(b, p)
    p += 21
    n, p = _ral(b, p, 6)
    y = p + 16384
    l = []
    for _ in range(n):
        e, p, y = yield from _n_FetchTopic_2(b, p, y)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.topics = l
    n, p = _ral(b, p, 6)
    y = p + 16384
    l = []
    for _ in range(n):
        e, p = _d_ForgottenTopic_0(b, p)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.forgotten_topics_data = l
    o.rack_id, p = _rstr(b, p)
    o._unknown_tagged = None
    return o, p


def _e_FetchRequest_4(o, w):
    w.append(_S8.pack(o.replica_id, o.max_wait_ms, o.min_bytes, o.max_bytes, o.isolation_level, o.session_id, o.session_epoch))
    x = o.topics
    w.append(_I(len(x)))
    for e in x:
        _e_FetchTopic_2(e, w)
    x = o.forgotten_topics_data
    w.append(_I(len(x)))
    for e in x:
        _e_ForgottenTopic_0(e, w)
    _wstr(w, o.rack_id)


def _d_FetchPartition_3(b, p):
    o = _new(FetchPartition)
    o.partition, o.current_leader_epoch, o.fetch_offset, o.last_fetched_epoch, o.log_start_offset, o.partition_max_bytes = _S11.unpack_from(b, p)
    p += 32
    o.replica_directory_id = ZERO_UUID
    o.high_watermark = 9223372036854775807
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _n_FetchTopic_3(b, p, y):
    o = _new(FetchTopic)
    o.topic, p = _rcstr(b, p)
    o.topic_id = ZERO_UUID
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 33)
    l = []
    for _ in range(n):
        e, p = _d_FetchPartition_3(b, p)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.partitions = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p, y


def _d_ForgottenTopic_1(b, p):
    o = _new(ForgottenTopic)
    o.topic, p = _rcstr(b, p)
    o.topic_id = ZERO_UUID
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


def _s_FetchRequest_5(b, p):
    o = _new(FetchRequest)
    o.cluster_id = None
    o.replica_id, = _S0.unpack_from(b, p)
    p += 4
    o.replica_state = ReplicaState()
    o.max_wait_ms, o.min_bytes, o.max_bytes, o.isolation_level, o.session_id, o.session_epoch = _S7.unpack_from(b, p)
    p += 21
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 3)
    y = p + 16384
    l = []
    for _ in range(n):
        e, p, y = yield from _n_FetchTopic_3(b, p, y)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.topics = l
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 3)
    y = p + 16384
    l = []
    for _ in range(n):
        e, p = _d_ForgottenTopic_1(b, p)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.forgotten_topics_data = l
    o.rack_id, p = _rcstr(b, p)
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


def _e_FetchPartition_3(o, w):
    w.append(_S11.pack(o.partition, o.current_leader_epoch, o.fetch_offset, o.last_fetched_epoch, o.log_start_offset, o.partition_max_bytes))
    _wtag(w, o._unknown_tagged)


def _e_FetchTopic_3(o, w):
    _wcstr(w, o.topic)
    x = o.partitions
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_FetchPartition_3(e, w)
    _wtag(w, o._unknown_tagged)


def _e_ForgottenTopic_1(o, w):
    _wcstr(w, o.topic)
    x = o.partitions
    w.append(_uv(len(x) + 1))
    w.append(_pack('>%di' % len(x), *x))
    _wtag(w, o._unknown_tagged)


def _e_FetchRequest_5(o, w):
    w.append(_S8.pack(o.replica_id, o.max_wait_ms, o.min_bytes, o.max_bytes, o.isolation_level, o.session_id, o.session_epoch))
    x = o.topics
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_FetchTopic_3(e, w)
    x = o.forgotten_topics_data
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_ForgottenTopic_1(e, w)
    _wcstr(w, o.rack_id)
    tg = []
    x = o.cluster_id
    if x is not None:
        tw = []
        _wcnstr(tw, x)
        tg.append((0, b''.join(tw)))
    if o._unknown_tagged:
        tg = sorted(tg + o._unknown_tagged, key=_tagkey)
    _wtag(w, tg)


def _n_FetchTopic_4(b, p, y):
    o = _new(FetchTopic)
    o.topic = ''
    o.topic_id, = _S12.unpack_from(b, p)
    p += 16
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 33)
    l = []
    for _ in range(n):
        e, p = _d_FetchPartition_3(b, p)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.partitions = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p, y


def _d_ForgottenTopic_2(b, p):
    o = _new(ForgottenTopic)
    o.topic = ''
    o.topic_id, = _S12.unpack_from(b, p)
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


def _s_FetchRequest_6(b, p):
    o = _new(FetchRequest)
    o.cluster_id = None
    o.replica_id, = _S0.unpack_from(b, p)
    p += 4
    o.replica_state = ReplicaState()
    o.max_wait_ms, o.min_bytes, o.max_bytes, o.isolation_level, o.session_id, o.session_epoch = _S7.unpack_from(b, p)
    p += 21
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 18)
    y = p + 16384
    l = []
    for _ in range(n):
        e, p, y = yield from _n_FetchTopic_4(b, p, y)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.topics = l
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 18)
    y = p + 16384
    l = []
    for _ in range(n):
        e, p = _d_ForgottenTopic_2(b, p)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.forgotten_topics_data = l
    o.rack_id, p = _rcstr(b, p)
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


def _e_FetchTopic_4(o, w):
    w.append(_S12.pack(o.topic_id))
    x = o.partitions
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_FetchPartition_3(e, w)
    _wtag(w, o._unknown_tagged)


def _e_ForgottenTopic_2(o, w):
    w.append(_S12.pack(o.topic_id))
    x = o.partitions
    w.append(_uv(len(x) + 1))
    w.append(_pack('>%di' % len(x), *x))
    _wtag(w, o._unknown_tagged)


def _e_FetchRequest_6(o, w):
    w.append(_S8.pack(o.replica_id, o.max_wait_ms, o.min_bytes, o.max_bytes, o.isolation_level, o.session_id, o.session_epoch))
    x = o.topics
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_FetchTopic_4(e, w)
    x = o.forgotten_topics_data
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_ForgottenTopic_2(e, w)
    _wcstr(w, o.rack_id)
    tg = []
    x = o.cluster_id
    if x is not None:
        tw = []
        _wcnstr(tw, x)
        tg.append((0, b''.join(tw)))
    if o._unknown_tagged:
        tg = sorted(tg + o._unknown_tagged, key=_tagkey)
    _wtag(w, tg)


def _d_ReplicaState_0(b, p):
    o = _new(ReplicaState)
    o.replica_id, o.replica_epoch = _S13.unpack_from(b, p)
    p += 12
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _s_FetchRequest_7(b, p):
    o = _new(FetchRequest)
    o.cluster_id = None
    o.replica_id = -1
    o.replica_state = ReplicaState()
    o.max_wait_ms, o.min_bytes, o.max_bytes, o.isolation_level, o.session_id, o.session_epoch = _S7.unpack_from(b, p)
    p += 21
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 18)
    y = p + 16384
    l = []
    for _ in range(n):
        e, p, y = yield from _n_FetchTopic_4(b, p, y)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.topics = l
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 18)
    y = p + 16384
    l = []
    for _ in range(n):
        e, p = _d_ForgottenTopic_2(b, p)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.forgotten_topics_data = l
    o.rack_id, p = _rcstr(b, p)
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
            elif tag == 1:
                q = 0
                o.replica_state, q = _d_ReplicaState_0(raw, q)
            else:
                if u is None: u = []
                u.append((tag, bytes(raw)))
    o._unknown_tagged = u
    return o, p


def _e_ReplicaState_0(o, w):
    w.append(_S13.pack(o.replica_id, o.replica_epoch))
    _wtag(w, o._unknown_tagged)


def _e_FetchRequest_7(o, w):
    w.append(_S7.pack(o.max_wait_ms, o.min_bytes, o.max_bytes, o.isolation_level, o.session_id, o.session_epoch))
    x = o.topics
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_FetchTopic_4(e, w)
    x = o.forgotten_topics_data
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_ForgottenTopic_2(e, w)
    _wcstr(w, o.rack_id)
    tg = []
    x = o.cluster_id
    if x is not None:
        tw = []
        _wcnstr(tw, x)
        tg.append((0, b''.join(tw)))
    x = o.replica_state
    if x != ReplicaState():
        tw = []
        _e_ReplicaState_0(x, tw)
        tg.append((1, b''.join(tw)))
    if o._unknown_tagged:
        tg = sorted(tg + o._unknown_tagged, key=_tagkey)
    _wtag(w, tg)


def _d_FetchPartition_4(b, p):
    o = _new(FetchPartition)
    o.partition, o.current_leader_epoch, o.fetch_offset, o.last_fetched_epoch, o.log_start_offset, o.partition_max_bytes = _S11.unpack_from(b, p)
    p += 32
    o.replica_directory_id = ZERO_UUID
    o.high_watermark = 9223372036854775807
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
                o.replica_directory_id, = _S12.unpack_from(raw, q)
                q += 16
            else:
                if u is None: u = []
                u.append((tag, bytes(raw)))
    o._unknown_tagged = u
    return o, p


def _n_FetchTopic_5(b, p, y):
    o = _new(FetchTopic)
    o.topic = ''
    o.topic_id, = _S12.unpack_from(b, p)
    p += 16
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 33)
    l = []
    for _ in range(n):
        e, p = _d_FetchPartition_4(b, p)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.partitions = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p, y


def _s_FetchRequest_8(b, p):
    o = _new(FetchRequest)
    o.cluster_id = None
    o.replica_id = -1
    o.replica_state = ReplicaState()
    o.max_wait_ms, o.min_bytes, o.max_bytes, o.isolation_level, o.session_id, o.session_epoch = _S7.unpack_from(b, p)
    p += 21
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 18)
    y = p + 16384
    l = []
    for _ in range(n):
        e, p, y = yield from _n_FetchTopic_5(b, p, y)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.topics = l
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 18)
    y = p + 16384
    l = []
    for _ in range(n):
        e, p = _d_ForgottenTopic_2(b, p)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.forgotten_topics_data = l
    o.rack_id, p = _rcstr(b, p)
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
            elif tag == 1:
                q = 0
                o.replica_state, q = _d_ReplicaState_0(raw, q)
            else:
                if u is None: u = []
                u.append((tag, bytes(raw)))
    o._unknown_tagged = u
    return o, p


def _e_FetchPartition_4(o, w):
    w.append(_S11.pack(o.partition, o.current_leader_epoch, o.fetch_offset, o.last_fetched_epoch, o.log_start_offset, o.partition_max_bytes))
    tg = []
    x = o.replica_directory_id
    if x != ZERO_UUID:
        tw = []
        tw.append(_S12.pack(x))
        tg.append((0, b''.join(tw)))
    if o._unknown_tagged:
        tg = sorted(tg + o._unknown_tagged, key=_tagkey)
    _wtag(w, tg)


def _e_FetchTopic_5(o, w):
    w.append(_S12.pack(o.topic_id))
    x = o.partitions
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_FetchPartition_4(e, w)
    _wtag(w, o._unknown_tagged)


def _e_FetchRequest_8(o, w):
    w.append(_S7.pack(o.max_wait_ms, o.min_bytes, o.max_bytes, o.isolation_level, o.session_id, o.session_epoch))
    x = o.topics
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_FetchTopic_5(e, w)
    x = o.forgotten_topics_data
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_ForgottenTopic_2(e, w)
    _wcstr(w, o.rack_id)
    tg = []
    x = o.cluster_id
    if x is not None:
        tw = []
        _wcnstr(tw, x)
        tg.append((0, b''.join(tw)))
    x = o.replica_state
    if x != ReplicaState():
        tw = []
        _e_ReplicaState_0(x, tw)
        tg.append((1, b''.join(tw)))
    if o._unknown_tagged:
        tg = sorted(tg + o._unknown_tagged, key=_tagkey)
    _wtag(w, tg)


def _d_FetchPartition_5(b, p):
    o = _new(FetchPartition)
    o.partition, o.current_leader_epoch, o.fetch_offset, o.last_fetched_epoch, o.log_start_offset, o.partition_max_bytes = _S11.unpack_from(b, p)
    p += 32
    o.replica_directory_id = ZERO_UUID
    o.high_watermark = 9223372036854775807
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
                o.replica_directory_id, = _S12.unpack_from(raw, q)
                q += 16
            elif tag == 1:
                q = 0
                o.high_watermark, = _S2.unpack_from(raw, q)
                q += 8
            else:
                if u is None: u = []
                u.append((tag, bytes(raw)))
    o._unknown_tagged = u
    return o, p


def _n_FetchTopic_6(b, p, y):
    o = _new(FetchTopic)
    o.topic = ''
    o.topic_id, = _S12.unpack_from(b, p)
    p += 16
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 33)
    l = []
    for _ in range(n):
        e, p = _d_FetchPartition_5(b, p)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.partitions = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p, y


def _s_FetchRequest_9(b, p):
    o = _new(FetchRequest)
    o.cluster_id = None
    o.replica_id = -1
    o.replica_state = ReplicaState()
    o.max_wait_ms, o.min_bytes, o.max_bytes, o.isolation_level, o.session_id, o.session_epoch = _S7.unpack_from(b, p)
    p += 21
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 18)
    y = p + 16384
    l = []
    for _ in range(n):
        e, p, y = yield from _n_FetchTopic_6(b, p, y)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.topics = l
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 18)
    y = p + 16384
    l = []
    for _ in range(n):
        e, p = _d_ForgottenTopic_2(b, p)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.forgotten_topics_data = l
    o.rack_id, p = _rcstr(b, p)
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
            elif tag == 1:
                q = 0
                o.replica_state, q = _d_ReplicaState_0(raw, q)
            else:
                if u is None: u = []
                u.append((tag, bytes(raw)))
    o._unknown_tagged = u
    return o, p


def _e_FetchPartition_5(o, w):
    w.append(_S11.pack(o.partition, o.current_leader_epoch, o.fetch_offset, o.last_fetched_epoch, o.log_start_offset, o.partition_max_bytes))
    tg = []
    x = o.replica_directory_id
    if x != ZERO_UUID:
        tw = []
        tw.append(_S12.pack(x))
        tg.append((0, b''.join(tw)))
    x = o.high_watermark
    if x != 9223372036854775807:
        tw = []
        tw.append(_S2.pack(x))
        tg.append((1, b''.join(tw)))
    if o._unknown_tagged:
        tg = sorted(tg + o._unknown_tagged, key=_tagkey)
    _wtag(w, tg)


def _e_FetchTopic_6(o, w):
    w.append(_S12.pack(o.topic_id))
    x = o.partitions
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_FetchPartition_5(e, w)
    _wtag(w, o._unknown_tagged)


def _e_FetchRequest_9(o, w):
    w.append(_S7.pack(o.max_wait_ms, o.min_bytes, o.max_bytes, o.isolation_level, o.session_id, o.session_epoch))
    x = o.topics
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_FetchTopic_6(e, w)
    x = o.forgotten_topics_data
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_ForgottenTopic_2(e, w)
    _wcstr(w, o.rack_id)
    tg = []
    x = o.cluster_id
    if x is not None:
        tw = []
        _wcnstr(tw, x)
        tg.append((0, b''.join(tw)))
    x = o.replica_state
    if x != ReplicaState():
        tw = []
        _e_ReplicaState_0(x, tw)
        tg.append((1, b''.join(tw)))
    if o._unknown_tagged:
        tg = sorted(tg + o._unknown_tagged, key=_tagkey)
    _wtag(w, tg)


_d_s_FetchRequest_0 = _whole(_s_FetchRequest_0)
_d_s_FetchRequest_1 = _whole(_s_FetchRequest_1)
_d_s_FetchRequest_2 = _whole(_s_FetchRequest_2)
_d_s_FetchRequest_3 = _whole(_s_FetchRequest_3)
_d_s_FetchRequest_4 = _whole(_s_FetchRequest_4)
_d_s_FetchRequest_5 = _whole(_s_FetchRequest_5)
_d_s_FetchRequest_6 = _whole(_s_FetchRequest_6)
_d_s_FetchRequest_7 = _whole(_s_FetchRequest_7)
_d_s_FetchRequest_8 = _whole(_s_FetchRequest_8)
_d_s_FetchRequest_9 = _whole(_s_FetchRequest_9)
FetchRequest._STEPS = {4: _s_FetchRequest_0, 5: _s_FetchRequest_1, 6: _s_FetchRequest_1, 7: _s_FetchRequest_2, 8: _s_FetchRequest_2, 9: _s_FetchRequest_3, 10: _s_FetchRequest_3, 11: _s_FetchRequest_4, 12: _s_FetchRequest_5, 13: _s_FetchRequest_6, 14: _s_FetchRequest_6, 15: _s_FetchRequest_7, 16: _s_FetchRequest_7, 17: _s_FetchRequest_8, 18: _s_FetchRequest_9}
FetchRequest._DECODERS = {4: _d_s_FetchRequest_0, 5: _d_s_FetchRequest_1, 6: _d_s_FetchRequest_1, 7: _d_s_FetchRequest_2, 8: _d_s_FetchRequest_2, 9: _d_s_FetchRequest_3, 10: _d_s_FetchRequest_3, 11: _d_s_FetchRequest_4, 12: _d_s_FetchRequest_5, 13: _d_s_FetchRequest_6, 14: _d_s_FetchRequest_6, 15: _d_s_FetchRequest_7, 16: _d_s_FetchRequest_7, 17: _d_s_FetchRequest_8, 18: _d_s_FetchRequest_9}
FetchRequest._ENCODERS = {4: _e_FetchRequest_0, 5: _e_FetchRequest_1, 6: _e_FetchRequest_1, 7: _e_FetchRequest_2, 8: _e_FetchRequest_2, 9: _e_FetchRequest_3, 10: _e_FetchRequest_3, 11: _e_FetchRequest_4, 12: _e_FetchRequest_5, 13: _e_FetchRequest_6, 14: _e_FetchRequest_6, 15: _e_FetchRequest_7, 16: _e_FetchRequest_7, 17: _e_FetchRequest_8, 18: _e_FetchRequest_9}
