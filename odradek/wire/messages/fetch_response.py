"""Generated from Kafka's FetchResponse.json by tools/gen_wire.py. Do not edit."""
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
_S1 = _struct.Struct('>ihqq')
_S2 = _struct.Struct('>qq')
_S3 = _struct.Struct('>ihqqq')
_S4 = _struct.Struct('>ihi')
_S5 = _struct.Struct('>iq')
_S6 = _struct.Struct('>ii')
_S7 = _struct.Struct('>qi')
_S8 = _struct.Struct('>16s')


class EpochEndOffset(Message):
    __slots__ = ('epoch', 'end_offset', '_unknown_tagged')
    _FIELDS = (('epoch', 'int32', 12, 32767, -1, -1, None, -1, None), ('end_offset', 'int64', 12, 32767, -1, -1, None, -1, None))

    def __init__(self, *, epoch=-1, end_offset=-1, _unknown_tagged=None):
        self.epoch = epoch
        self.end_offset = end_offset
        self._unknown_tagged = _unknown_tagged


class LeaderIdAndEpoch(Message):
    __slots__ = ('leader_id', 'leader_epoch', '_unknown_tagged')
    _FIELDS = (('leader_id', 'int32', 12, 32767, -1, -1, None, -1, None), ('leader_epoch', 'int32', 12, 32767, -1, -1, None, -1, None))

    def __init__(self, *, leader_id=-1, leader_epoch=-1, _unknown_tagged=None):
        self.leader_id = leader_id
        self.leader_epoch = leader_epoch
        self._unknown_tagged = _unknown_tagged


class SnapshotId(Message):
    __slots__ = ('end_offset', 'epoch', '_unknown_tagged')
    _FIELDS = (('end_offset', 'int64', 0, 32767, -1, -1, None, -1, None), ('epoch', 'int32', 0, 32767, -1, -1, None, -1, None))

    def __init__(self, *, end_offset=-1, epoch=-1, _unknown_tagged=None):
        self.end_offset = end_offset
        self.epoch = epoch
        self._unknown_tagged = _unknown_tagged


class AbortedTransaction(Message):
    __slots__ = ('producer_id', 'first_offset', '_unknown_tagged')
    _FIELDS = (('producer_id', 'int64', 4, 32767, -1, -1, None, -1, None), ('first_offset', 'int64', 4, 32767, -1, -1, None, -1, None))

    def __init__(self, *, producer_id=0, first_offset=0, _unknown_tagged=None):
        self.producer_id = producer_id
        self.first_offset = first_offset
        self._unknown_tagged = _unknown_tagged


class PartitionData(Message):
    __slots__ = ('partition_index', 'error_code', 'high_watermark', 'last_stable_offset', 'log_start_offset', 'diverging_epoch', 'current_leader', 'snapshot_id', 'aborted_transactions', 'preferred_read_replica', 'records', '_unknown_tagged')
    _FIELDS = (('partition_index', 'int32', 0, 32767, -1, -1, None, -1, None), ('error_code', 'int16', 0, 32767, -1, -1, None, -1, None), ('high_watermark', 'int64', 0, 32767, -1, -1, None, -1, None), ('last_stable_offset', 'int64', 4, 32767, -1, -1, None, -1, None), ('log_start_offset', 'int64', 5, 32767, -1, -1, None, -1, None), ('diverging_epoch', 'EpochEndOffset', 12, 32767, -1, -1, 0, 12, 'EpochEndOffset'), ('current_leader', 'LeaderIdAndEpoch', 12, 32767, -1, -1, 1, 12, 'LeaderIdAndEpoch'), ('snapshot_id', 'SnapshotId', 12, 32767, -1, -1, 2, 12, 'SnapshotId'), ('aborted_transactions', '[]AbortedTransaction', 4, 32767, 4, 32767, None, -1, 'AbortedTransaction'), ('preferred_read_replica', 'int32', 11, 32767, -1, -1, None, -1, None), ('records', 'records', 0, 32767, 0, 32767, None, -1, None))

    def __init__(self, *, partition_index=0, error_code=0, high_watermark=0, last_stable_offset=-1, log_start_offset=-1, diverging_epoch=DEFAULT, current_leader=DEFAULT, snapshot_id=DEFAULT, aborted_transactions=DEFAULT, preferred_read_replica=-1, records=None, _unknown_tagged=None):
        self.partition_index = partition_index
        self.error_code = error_code
        self.high_watermark = high_watermark
        self.last_stable_offset = last_stable_offset
        self.log_start_offset = log_start_offset
        self.diverging_epoch = EpochEndOffset() if diverging_epoch is DEFAULT else diverging_epoch
        self.current_leader = LeaderIdAndEpoch() if current_leader is DEFAULT else current_leader
        self.snapshot_id = SnapshotId() if snapshot_id is DEFAULT else snapshot_id
        self.aborted_transactions = [] if aborted_transactions is DEFAULT else aborted_transactions
        self.preferred_read_replica = preferred_read_replica
        self.records = records
        self._unknown_tagged = _unknown_tagged


class FetchableTopicResponse(Message):
    __slots__ = ('topic', 'topic_id', 'partitions', '_unknown_tagged')
    _FIELDS = (('topic', 'string', 0, 12, -1, -1, None, -1, None), ('topic_id', 'uuid', 13, 32767, -1, -1, None, -1, None), ('partitions', '[]PartitionData', 0, 32767, -1, -1, None, -1, 'PartitionData'))

    def __init__(self, *, topic='', topic_id=ZERO_UUID, partitions=DEFAULT, _unknown_tagged=None):
        self.topic = topic
        self.topic_id = topic_id
        self.partitions = [] if partitions is DEFAULT else partitions
        self._unknown_tagged = _unknown_tagged


class NodeEndpoint(Message):
    __slots__ = ('node_id', 'host', 'port', 'rack', '_unknown_tagged')
    _FIELDS = (('node_id', 'int32', 16, 32767, -1, -1, None, -1, None), ('host', 'string', 16, 32767, -1, -1, None, -1, None), ('port', 'int32', 16, 32767, -1, -1, None, -1, None), ('rack', 'string', 16, 32767, 16, 32767, None, -1, None))

    def __init__(self, *, node_id=0, host='', port=0, rack=None, _unknown_tagged=None):
        self.node_id = node_id
        self.host = host
        self.port = port
        self.rack = rack
        self._unknown_tagged = _unknown_tagged


class FetchResponse(Message):
    __slots__ = ('throttle_time_ms', 'error_code', 'session_id', 'responses', 'node_endpoints', '_unknown_tagged')
    _FIELDS = (('throttle_time_ms', 'int32', 1, 32767, -1, -1, None, -1, None), ('error_code', 'int16', 7, 32767, -1, -1, None, -1, None), ('session_id', 'int32', 7, 32767, -1, -1, None, -1, None), ('responses', '[]FetchableTopicResponse', 0, 32767, -1, -1, None, -1, 'FetchableTopicResponse'), ('node_endpoints', '[]NodeEndpoint', 16, 32767, -1, -1, 0, 16, 'NodeEndpoint'))
    API_KEY = 1
    VALID_VERSIONS = (4, 18)
    FLEXIBLE_MIN = 12

    def __init__(self, *, throttle_time_ms=0, error_code=0, session_id=0, responses=DEFAULT, node_endpoints=DEFAULT, _unknown_tagged=None):
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.session_id = session_id
        self.responses = [] if responses is DEFAULT else responses
        self.node_endpoints = [] if node_endpoints is DEFAULT else node_endpoints
        self._unknown_tagged = _unknown_tagged



def _d_AbortedTransaction_0(b, p):
    o = _new(AbortedTransaction)
    o.producer_id, o.first_offset = _S2.unpack_from(b, p)
    p += 16
    o._unknown_tagged = None
    return o, p


def _d_PartitionData_0(b, p):
    o = _new(PartitionData)
    o.partition_index, o.error_code, o.high_watermark, o.last_stable_offset = _S1.unpack_from(b, p)
    p += 22
    o.log_start_offset = -1
    o.diverging_epoch = EpochEndOffset()
    o.current_leader = LeaderIdAndEpoch()
    o.snapshot_id = SnapshotId()
    n, p = _rnal(b, p, 16)
    if n < 0:
        o.aborted_transactions = None
    else:
        l = []
        for _ in range(n):
            e, p = _d_AbortedTransaction_0(b, p)
            l.append(e)
        o.aborted_transactions = l
    o.preferred_read_replica = -1
    o.records, p = _rrec(b, p)
    o._unknown_tagged = None
    return o, p


def _d_FetchableTopicResponse_0(b, p):
    o = _new(FetchableTopicResponse)
    o.topic, p = _rstr(b, p)
    o.topic_id = ZERO_UUID
    n, p = _ral(b, p, 30)
    l = []
    for _ in range(n):
        e, p = _d_PartitionData_0(b, p)
        l.append(e)
    o.partitions = l
    o._unknown_tagged = None
    return o, p


def _d_FetchResponse_0(b, p):
    o = _new(FetchResponse)
    o.throttle_time_ms, = _S0.unpack_from(b, p)
    p += 4
    o.error_code = 0
    o.session_id = 0
    n, p = _ral(b, p, 6)
    l = []
    for _ in range(n):
        e, p = _d_FetchableTopicResponse_0(b, p)
        l.append(e)
    o.responses = l
    o.node_endpoints = []
    o._unknown_tagged = None
    return o, p


def _e_AbortedTransaction_0(o, w):
    w.append(_S2.pack(o.producer_id, o.first_offset))


def _e_PartitionData_0(o, w):
    w.append(_S1.pack(o.partition_index, o.error_code, o.high_watermark, o.last_stable_offset))
    x = o.aborted_transactions
    if x is None:
        w.append(b'\xff\xff\xff\xff')
    else:
        w.append(_I(len(x)))
        for e in x:
            _e_AbortedTransaction_0(e, w)
    _wnbyt(w, o.records)


def _e_FetchableTopicResponse_0(o, w):
    _wstr(w, o.topic)
    x = o.partitions
    w.append(_I(len(x)))
    for e in x:
        _e_PartitionData_0(e, w)


def _e_FetchResponse_0(o, w):
    w.append(_S0.pack(o.throttle_time_ms))
    x = o.responses
    w.append(_I(len(x)))
    for e in x:
        _e_FetchableTopicResponse_0(e, w)


def _u_PartitionData_0(o, w, c):
    w.append(_S1.pack(o.partition_index, o.error_code, o.high_watermark, o.last_stable_offset))
    x = o.aborted_transactions
    if x is None:
        w.append(b'\xff\xff\xff\xff')
    else:
        w.append(_I(len(x)))
        for e in x:
            _e_AbortedTransaction_0(e, w)
            c += 1
            if c >= 1000:
                c = 0
                yield
    _wnbyt(w, o.records)
    return c


def _u_FetchableTopicResponse_0(o, w, c):
    _wstr(w, o.topic)
    x = o.partitions
    w.append(_I(len(x)))
    for e in x:
        c = yield from _u_PartitionData_0(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield
    return c


def _t_FetchResponse_0(o, w):
    c = 0
    w.append(_S0.pack(o.throttle_time_ms))
    x = o.responses
    w.append(_I(len(x)))
    for e in x:
        c = yield from _u_FetchableTopicResponse_0(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield


def _d_PartitionData_1(b, p):
    o = _new(PartitionData)
    o.partition_index, o.error_code, o.high_watermark, o.last_stable_offset, o.log_start_offset = _S3.unpack_from(b, p)
    p += 30
    o.diverging_epoch = EpochEndOffset()
    o.current_leader = LeaderIdAndEpoch()
    o.snapshot_id = SnapshotId()
    n, p = _rnal(b, p, 16)
    if n < 0:
        o.aborted_transactions = None
    else:
        l = []
        for _ in range(n):
            e, p = _d_AbortedTransaction_0(b, p)
            l.append(e)
        o.aborted_transactions = l
    o.preferred_read_replica = -1
    o.records, p = _rrec(b, p)
    o._unknown_tagged = None
    return o, p


def _d_FetchableTopicResponse_1(b, p):
    o = _new(FetchableTopicResponse)
    o.topic, p = _rstr(b, p)
    o.topic_id = ZERO_UUID
    n, p = _ral(b, p, 38)
    l = []
    for _ in range(n):
        e, p = _d_PartitionData_1(b, p)
        l.append(e)
    o.partitions = l
    o._unknown_tagged = None
    return o, p


def _d_FetchResponse_1(b, p):
    o = _new(FetchResponse)
    o.throttle_time_ms, = _S0.unpack_from(b, p)
    p += 4
    o.error_code = 0
    o.session_id = 0
    n, p = _ral(b, p, 6)
    l = []
    for _ in range(n):
        e, p = _d_FetchableTopicResponse_1(b, p)
        l.append(e)
    o.responses = l
    o.node_endpoints = []
    o._unknown_tagged = None
    return o, p


def _e_PartitionData_1(o, w):
    w.append(_S3.pack(o.partition_index, o.error_code, o.high_watermark, o.last_stable_offset, o.log_start_offset))
    x = o.aborted_transactions
    if x is None:
        w.append(b'\xff\xff\xff\xff')
    else:
        w.append(_I(len(x)))
        for e in x:
            _e_AbortedTransaction_0(e, w)
    _wnbyt(w, o.records)


def _e_FetchableTopicResponse_1(o, w):
    _wstr(w, o.topic)
    x = o.partitions
    w.append(_I(len(x)))
    for e in x:
        _e_PartitionData_1(e, w)


def _e_FetchResponse_1(o, w):
    w.append(_S0.pack(o.throttle_time_ms))
    x = o.responses
    w.append(_I(len(x)))
    for e in x:
        _e_FetchableTopicResponse_1(e, w)


def _u_PartitionData_1(o, w, c):
    w.append(_S3.pack(o.partition_index, o.error_code, o.high_watermark, o.last_stable_offset, o.log_start_offset))
    x = o.aborted_transactions
    if x is None:
        w.append(b'\xff\xff\xff\xff')
    else:
        w.append(_I(len(x)))
        for e in x:
            _e_AbortedTransaction_0(e, w)
            c += 1
            if c >= 1000:
                c = 0
                yield
    _wnbyt(w, o.records)
    return c


def _u_FetchableTopicResponse_1(o, w, c):
    _wstr(w, o.topic)
    x = o.partitions
    w.append(_I(len(x)))
    for e in x:
        c = yield from _u_PartitionData_1(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield
    return c


def _t_FetchResponse_1(o, w):
    c = 0
    w.append(_S0.pack(o.throttle_time_ms))
    x = o.responses
    w.append(_I(len(x)))
    for e in x:
        c = yield from _u_FetchableTopicResponse_1(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield


def _d_FetchResponse_2(b, p):
    o = _new(FetchResponse)
    o.throttle_time_ms, o.error_code, o.session_id = _S4.unpack_from(b, p)
    p += 10
    n, p = _ral(b, p, 6)
    l = []
    for _ in range(n):
        e, p = _d_FetchableTopicResponse_1(b, p)
        l.append(e)
    o.responses = l
    o.node_endpoints = []
    o._unknown_tagged = None
    return o, p


def _e_FetchResponse_2(o, w):
    w.append(_S4.pack(o.throttle_time_ms, o.error_code, o.session_id))
    x = o.responses
    w.append(_I(len(x)))
    for e in x:
        _e_FetchableTopicResponse_1(e, w)


def _t_FetchResponse_2(o, w):
    c = 0
    w.append(_S4.pack(o.throttle_time_ms, o.error_code, o.session_id))
    x = o.responses
    w.append(_I(len(x)))
    for e in x:
        c = yield from _u_FetchableTopicResponse_1(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield


def _d_PartitionData_2(b, p):
    o = _new(PartitionData)
    o.partition_index, o.error_code, o.high_watermark, o.last_stable_offset, o.log_start_offset = _S3.unpack_from(b, p)
    p += 30
    o.diverging_epoch = EpochEndOffset()
    o.current_leader = LeaderIdAndEpoch()
    o.snapshot_id = SnapshotId()
    n, p = _rnal(b, p, 16)
    if n < 0:
        o.aborted_transactions = None
    else:
        l = []
        for _ in range(n):
            e, p = _d_AbortedTransaction_0(b, p)
            l.append(e)
        o.aborted_transactions = l
    o.preferred_read_replica, = _S0.unpack_from(b, p)
    p += 4
    o.records, p = _rrec(b, p)
    o._unknown_tagged = None
    return o, p


def _d_FetchableTopicResponse_2(b, p):
    o = _new(FetchableTopicResponse)
    o.topic, p = _rstr(b, p)
    o.topic_id = ZERO_UUID
    n, p = _ral(b, p, 42)
    l = []
    for _ in range(n):
        e, p = _d_PartitionData_2(b, p)
        l.append(e)
    o.partitions = l
    o._unknown_tagged = None
    return o, p


def _d_FetchResponse_3(b, p):
    o = _new(FetchResponse)
    o.throttle_time_ms, o.error_code, o.session_id = _S4.unpack_from(b, p)
    p += 10
    n, p = _ral(b, p, 6)
    l = []
    for _ in range(n):
        e, p = _d_FetchableTopicResponse_2(b, p)
        l.append(e)
    o.responses = l
    o.node_endpoints = []
    o._unknown_tagged = None
    return o, p


def _e_PartitionData_2(o, w):
    w.append(_S3.pack(o.partition_index, o.error_code, o.high_watermark, o.last_stable_offset, o.log_start_offset))
    x = o.aborted_transactions
    if x is None:
        w.append(b'\xff\xff\xff\xff')
    else:
        w.append(_I(len(x)))
        for e in x:
            _e_AbortedTransaction_0(e, w)
    w.append(_S0.pack(o.preferred_read_replica))
    _wnbyt(w, o.records)


def _e_FetchableTopicResponse_2(o, w):
    _wstr(w, o.topic)
    x = o.partitions
    w.append(_I(len(x)))
    for e in x:
        _e_PartitionData_2(e, w)


def _e_FetchResponse_3(o, w):
    w.append(_S4.pack(o.throttle_time_ms, o.error_code, o.session_id))
    x = o.responses
    w.append(_I(len(x)))
    for e in x:
        _e_FetchableTopicResponse_2(e, w)


def _u_PartitionData_2(o, w, c):
    w.append(_S3.pack(o.partition_index, o.error_code, o.high_watermark, o.last_stable_offset, o.log_start_offset))
    x = o.aborted_transactions
    if x is None:
        w.append(b'\xff\xff\xff\xff')
    else:
        w.append(_I(len(x)))
        for e in x:
            _e_AbortedTransaction_0(e, w)
            c += 1
            if c >= 1000:
                c = 0
                yield
    w.append(_S0.pack(o.preferred_read_replica))
    _wnbyt(w, o.records)
    return c


def _u_FetchableTopicResponse_2(o, w, c):
    _wstr(w, o.topic)
    x = o.partitions
    w.append(_I(len(x)))
    for e in x:
        c = yield from _u_PartitionData_2(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield
    return c


def _t_FetchResponse_3(o, w):
    c = 0
    w.append(_S4.pack(o.throttle_time_ms, o.error_code, o.session_id))
    x = o.responses
    w.append(_I(len(x)))
    for e in x:
        c = yield from _u_FetchableTopicResponse_2(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield


def _d_AbortedTransaction_1(b, p):
    o = _new(AbortedTransaction)
    o.producer_id, o.first_offset = _S2.unpack_from(b, p)
    p += 16
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_EpochEndOffset_0(b, p):
    o = _new(EpochEndOffset)
    o.epoch, o.end_offset = _S5.unpack_from(b, p)
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
    o.leader_id, o.leader_epoch = _S6.unpack_from(b, p)
    p += 8
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_SnapshotId_0(b, p):
    o = _new(SnapshotId)
    o.end_offset, o.epoch = _S7.unpack_from(b, p)
    p += 12
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_PartitionData_3(b, p):
    o = _new(PartitionData)
    o.partition_index, o.error_code, o.high_watermark, o.last_stable_offset, o.log_start_offset = _S3.unpack_from(b, p)
    p += 30
    o.diverging_epoch = EpochEndOffset()
    o.current_leader = LeaderIdAndEpoch()
    o.snapshot_id = SnapshotId()
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcnal(b, p, 17)
    if n < 0:
        o.aborted_transactions = None
    else:
        l = []
        for _ in range(n):
            e, p = _d_AbortedTransaction_1(b, p)
            l.append(e)
        o.aborted_transactions = l
    o.preferred_read_replica, = _S0.unpack_from(b, p)
    p += 4
    o.records, p = _rcrec(b, p)
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
                o.diverging_epoch, q = _d_EpochEndOffset_0(raw, q)
            elif tag == 1:
                q = 0
                o.current_leader, q = _d_LeaderIdAndEpoch_0(raw, q)
            elif tag == 2:
                q = 0
                o.snapshot_id, q = _d_SnapshotId_0(raw, q)
            else:
                if u is None: u = []
                u.append((tag, bytes(raw)))
    o._unknown_tagged = u
    return o, p


def _d_FetchableTopicResponse_3(b, p):
    o = _new(FetchableTopicResponse)
    o.topic, p = _rcstr(b, p)
    o.topic_id = ZERO_UUID
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 37)
    l = []
    for _ in range(n):
        e, p = _d_PartitionData_3(b, p)
        l.append(e)
    o.partitions = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_FetchResponse_4(b, p):
    o = _new(FetchResponse)
    o.throttle_time_ms, o.error_code, o.session_id = _S4.unpack_from(b, p)
    p += 10
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 3)
    l = []
    for _ in range(n):
        e, p = _d_FetchableTopicResponse_3(b, p)
        l.append(e)
    o.responses = l
    o.node_endpoints = []
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_AbortedTransaction_1(o, w):
    w.append(_S2.pack(o.producer_id, o.first_offset))
    _wtag(w, o._unknown_tagged)


def _e_EpochEndOffset_0(o, w):
    w.append(_S5.pack(o.epoch, o.end_offset))
    _wtag(w, o._unknown_tagged)


def _e_LeaderIdAndEpoch_0(o, w):
    w.append(_S6.pack(o.leader_id, o.leader_epoch))
    _wtag(w, o._unknown_tagged)


def _e_SnapshotId_0(o, w):
    w.append(_S7.pack(o.end_offset, o.epoch))
    _wtag(w, o._unknown_tagged)


def _e_PartitionData_3(o, w):
    w.append(_S3.pack(o.partition_index, o.error_code, o.high_watermark, o.last_stable_offset, o.log_start_offset))
    x = o.aborted_transactions
    if x is None:
        w.append(b'\x00')
    else:
        w.append(_uv(len(x) + 1))
        for e in x:
            _e_AbortedTransaction_1(e, w)
    w.append(_S0.pack(o.preferred_read_replica))
    _wcnbyt(w, o.records)
    tg = []
    x = o.diverging_epoch
    if x != EpochEndOffset():
        tw = []
        _e_EpochEndOffset_0(x, tw)
        tg.append((0, b''.join(tw)))
    x = o.current_leader
    if x != LeaderIdAndEpoch():
        tw = []
        _e_LeaderIdAndEpoch_0(x, tw)
        tg.append((1, b''.join(tw)))
    x = o.snapshot_id
    if x != SnapshotId():
        tw = []
        _e_SnapshotId_0(x, tw)
        tg.append((2, b''.join(tw)))
    if o._unknown_tagged:
        tg = sorted(tg + o._unknown_tagged, key=_tagkey)
    _wtag(w, tg)


def _e_FetchableTopicResponse_3(o, w):
    _wcstr(w, o.topic)
    x = o.partitions
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_PartitionData_3(e, w)
    _wtag(w, o._unknown_tagged)


def _e_FetchResponse_4(o, w):
    w.append(_S4.pack(o.throttle_time_ms, o.error_code, o.session_id))
    x = o.responses
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_FetchableTopicResponse_3(e, w)
    _wtag(w, o._unknown_tagged)


def _u_PartitionData_3(o, w, c):
    w.append(_S3.pack(o.partition_index, o.error_code, o.high_watermark, o.last_stable_offset, o.log_start_offset))
    x = o.aborted_transactions
    if x is None:
        w.append(b'\x00')
    else:
        w.append(_uv(len(x) + 1))
        for e in x:
            _e_AbortedTransaction_1(e, w)
            c += 1
            if c >= 1000:
                c = 0
                yield
    w.append(_S0.pack(o.preferred_read_replica))
    _wcnbyt(w, o.records)
    tg = []
    x = o.diverging_epoch
    if x != EpochEndOffset():
        tw = []
        _e_EpochEndOffset_0(x, tw)
        tg.append((0, b''.join(tw)))
    x = o.current_leader
    if x != LeaderIdAndEpoch():
        tw = []
        _e_LeaderIdAndEpoch_0(x, tw)
        tg.append((1, b''.join(tw)))
    x = o.snapshot_id
    if x != SnapshotId():
        tw = []
        _e_SnapshotId_0(x, tw)
        tg.append((2, b''.join(tw)))
    if o._unknown_tagged:
        tg = sorted(tg + o._unknown_tagged, key=_tagkey)
    _wtag(w, tg)
    return c


def _u_FetchableTopicResponse_3(o, w, c):
    _wcstr(w, o.topic)
    x = o.partitions
    w.append(_uv(len(x) + 1))
    for e in x:
        c = yield from _u_PartitionData_3(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield
    _wtag(w, o._unknown_tagged)
    return c


def _t_FetchResponse_4(o, w):
    c = 0
    w.append(_S4.pack(o.throttle_time_ms, o.error_code, o.session_id))
    x = o.responses
    w.append(_uv(len(x) + 1))
    for e in x:
        c = yield from _u_FetchableTopicResponse_3(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield
    _wtag(w, o._unknown_tagged)


def _d_FetchableTopicResponse_4(b, p):
    o = _new(FetchableTopicResponse)
    o.topic = ''
    o.topic_id, = _S8.unpack_from(b, p)
    p += 16
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 37)
    l = []
    for _ in range(n):
        e, p = _d_PartitionData_3(b, p)
        l.append(e)
    o.partitions = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_FetchResponse_5(b, p):
    o = _new(FetchResponse)
    o.throttle_time_ms, o.error_code, o.session_id = _S4.unpack_from(b, p)
    p += 10
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 18)
    l = []
    for _ in range(n):
        e, p = _d_FetchableTopicResponse_4(b, p)
        l.append(e)
    o.responses = l
    o.node_endpoints = []
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_FetchableTopicResponse_4(o, w):
    w.append(_S8.pack(o.topic_id))
    x = o.partitions
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_PartitionData_3(e, w)
    _wtag(w, o._unknown_tagged)


def _e_FetchResponse_5(o, w):
    w.append(_S4.pack(o.throttle_time_ms, o.error_code, o.session_id))
    x = o.responses
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_FetchableTopicResponse_4(e, w)
    _wtag(w, o._unknown_tagged)


def _u_FetchableTopicResponse_4(o, w, c):
    w.append(_S8.pack(o.topic_id))
    x = o.partitions
    w.append(_uv(len(x) + 1))
    for e in x:
        c = yield from _u_PartitionData_3(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield
    _wtag(w, o._unknown_tagged)
    return c


def _t_FetchResponse_5(o, w):
    c = 0
    w.append(_S4.pack(o.throttle_time_ms, o.error_code, o.session_id))
    x = o.responses
    w.append(_uv(len(x) + 1))
    for e in x:
        c = yield from _u_FetchableTopicResponse_4(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield
    _wtag(w, o._unknown_tagged)


def _d_NodeEndpoint_0(b, p):
    o = _new(NodeEndpoint)
    o.node_id, = _S0.unpack_from(b, p)
    p += 4
    o.host, p = _rcstr(b, p)
    o.port, = _S0.unpack_from(b, p)
    p += 4
    o.rack, p = _rcnstr(b, p)
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_FetchResponse_6(b, p):
    o = _new(FetchResponse)
    o.throttle_time_ms, o.error_code, o.session_id = _S4.unpack_from(b, p)
    p += 10
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 18)
    l = []
    for _ in range(n):
        e, p = _d_FetchableTopicResponse_4(b, p)
        l.append(e)
    o.responses = l
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


def _e_NodeEndpoint_0(o, w):
    w.append(_S0.pack(o.node_id))
    _wcstr(w, o.host)
    w.append(_S0.pack(o.port))
    _wcnstr(w, o.rack)
    _wtag(w, o._unknown_tagged)


def _e_FetchResponse_6(o, w):
    w.append(_S4.pack(o.throttle_time_ms, o.error_code, o.session_id))
    x = o.responses
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_FetchableTopicResponse_4(e, w)
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


def _t_FetchResponse_6(o, w):
    c = 0
    w.append(_S4.pack(o.throttle_time_ms, o.error_code, o.session_id))
    x = o.responses
    w.append(_uv(len(x) + 1))
    for e in x:
        c = yield from _u_FetchableTopicResponse_4(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield
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


FetchResponse._DECODERS = {4: _d_FetchResponse_0, 5: _d_FetchResponse_1, 6: _d_FetchResponse_1, 7: _d_FetchResponse_2, 8: _d_FetchResponse_2, 9: _d_FetchResponse_2, 10: _d_FetchResponse_2, 11: _d_FetchResponse_3, 12: _d_FetchResponse_4, 13: _d_FetchResponse_5, 14: _d_FetchResponse_5, 15: _d_FetchResponse_5, 16: _d_FetchResponse_6, 17: _d_FetchResponse_6, 18: _d_FetchResponse_6}
FetchResponse._ENCODERS = {4: _e_FetchResponse_0, 5: _e_FetchResponse_1, 6: _e_FetchResponse_1, 7: _e_FetchResponse_2, 8: _e_FetchResponse_2, 9: _e_FetchResponse_2, 10: _e_FetchResponse_2, 11: _e_FetchResponse_3, 12: _e_FetchResponse_4, 13: _e_FetchResponse_5, 14: _e_FetchResponse_5, 15: _e_FetchResponse_5, 16: _e_FetchResponse_6, 17: _e_FetchResponse_6, 18: _e_FetchResponse_6}
FetchResponse._ENCODE_STEPS = {4: _t_FetchResponse_0, 5: _t_FetchResponse_1, 6: _t_FetchResponse_1, 7: _t_FetchResponse_2, 8: _t_FetchResponse_2, 9: _t_FetchResponse_2, 10: _t_FetchResponse_2, 11: _t_FetchResponse_3, 12: _t_FetchResponse_4, 13: _t_FetchResponse_5, 14: _t_FetchResponse_5, 15: _t_FetchResponse_5, 16: _t_FetchResponse_6, 17: _t_FetchResponse_6, 18: _t_FetchResponse_6}
