"""Generated from Kafka's ShareFetchRequest.json by tools/gen_wire.py. Do not edit."""
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

_S0 = _struct.Struct('>iiiiii')
_S1 = _struct.Struct('>16s')
_S2 = _struct.Struct('>i')
_S3 = _struct.Struct('>qq')
_S4 = _struct.Struct('>iiiiiib?')


class AcknowledgementBatch(Message):
    __slots__ = ('first_offset', 'last_offset', 'acknowledge_types', '_unknown_tagged')
    _FIELDS = (('first_offset', 'int64', 0, 32767, -1, -1, None, -1, None), ('last_offset', 'int64', 0, 32767, -1, -1, None, -1, None), ('acknowledge_types', '[]int8', 0, 32767, -1, -1, None, -1, None))

    def __init__(self, *, first_offset=0, last_offset=0, acknowledge_types=DEFAULT, _unknown_tagged=None):
        self.first_offset = first_offset
        self.last_offset = last_offset
        self.acknowledge_types = [] if acknowledge_types is DEFAULT else acknowledge_types
        self._unknown_tagged = _unknown_tagged


class FetchPartition(Message):
    __slots__ = ('partition_index', 'partition_max_bytes', 'acknowledgement_batches', '_unknown_tagged')
    _FIELDS = (('partition_index', 'int32', 0, 32767, -1, -1, None, -1, None), ('partition_max_bytes', 'int32', 0, 0, -1, -1, None, -1, None), ('acknowledgement_batches', '[]AcknowledgementBatch', 0, 32767, -1, -1, None, -1, 'AcknowledgementBatch'))

    def __init__(self, *, partition_index=0, partition_max_bytes=0, acknowledgement_batches=DEFAULT, _unknown_tagged=None):
        self.partition_index = partition_index
        self.partition_max_bytes = partition_max_bytes
        self.acknowledgement_batches = [] if acknowledgement_batches is DEFAULT else acknowledgement_batches
        self._unknown_tagged = _unknown_tagged


class FetchTopic(Message):
    __slots__ = ('topic_id', 'partitions', '_unknown_tagged')
    _FIELDS = (('topic_id', 'uuid', 0, 32767, -1, -1, None, -1, None), ('partitions', '[]FetchPartition', 0, 32767, -1, -1, None, -1, 'FetchPartition'))

    def __init__(self, *, topic_id=ZERO_UUID, partitions=DEFAULT, _unknown_tagged=None):
        self.topic_id = topic_id
        self.partitions = [] if partitions is DEFAULT else partitions
        self._unknown_tagged = _unknown_tagged


class ForgottenTopic(Message):
    __slots__ = ('topic_id', 'partitions', '_unknown_tagged')
    _FIELDS = (('topic_id', 'uuid', 0, 32767, -1, -1, None, -1, None), ('partitions', '[]int32', 0, 32767, -1, -1, None, -1, None))

    def __init__(self, *, topic_id=ZERO_UUID, partitions=DEFAULT, _unknown_tagged=None):
        self.topic_id = topic_id
        self.partitions = [] if partitions is DEFAULT else partitions
        self._unknown_tagged = _unknown_tagged


class ShareFetchRequest(Message):
    __slots__ = ('group_id', 'member_id', 'share_session_epoch', 'max_wait_ms', 'min_bytes', 'max_bytes', 'max_records', 'batch_size', 'share_acquire_mode', 'is_renew_ack', 'topics', 'forgotten_topics_data', '_unknown_tagged')
    _FIELDS = (('group_id', 'string', 0, 32767, 0, 32767, None, -1, None), ('member_id', 'string', 0, 32767, 0, 32767, None, -1, None), ('share_session_epoch', 'int32', 0, 32767, -1, -1, None, -1, None), ('max_wait_ms', 'int32', 0, 32767, -1, -1, None, -1, None), ('min_bytes', 'int32', 0, 32767, -1, -1, None, -1, None), ('max_bytes', 'int32', 0, 32767, -1, -1, None, -1, None), ('max_records', 'int32', 1, 32767, -1, -1, None, -1, None), ('batch_size', 'int32', 1, 32767, -1, -1, None, -1, None), ('share_acquire_mode', 'int8', 2, 32767, -1, -1, None, -1, None), ('is_renew_ack', 'bool', 2, 32767, -1, -1, None, -1, None), ('topics', '[]FetchTopic', 0, 32767, -1, -1, None, -1, 'FetchTopic'), ('forgotten_topics_data', '[]ForgottenTopic', 0, 32767, -1, -1, None, -1, 'ForgottenTopic'))
    API_KEY = 78
    VALID_VERSIONS = (1, 2)
    FLEXIBLE_MIN = 0

    def __init__(self, *, group_id=None, member_id='', share_session_epoch=0, max_wait_ms=0, min_bytes=0, max_bytes=2147483647, max_records=0, batch_size=0, share_acquire_mode=0, is_renew_ack=False, topics=DEFAULT, forgotten_topics_data=DEFAULT, _unknown_tagged=None):
        self.group_id = group_id
        self.member_id = member_id
        self.share_session_epoch = share_session_epoch
        self.max_wait_ms = max_wait_ms
        self.min_bytes = min_bytes
        self.max_bytes = max_bytes
        self.max_records = max_records
        self.batch_size = batch_size
        self.share_acquire_mode = share_acquire_mode
        self.is_renew_ack = is_renew_ack
        self.topics = [] if topics is DEFAULT else topics
        self.forgotten_topics_data = [] if forgotten_topics_data is DEFAULT else forgotten_topics_data
        self._unknown_tagged = _unknown_tagged



def _d_AcknowledgementBatch_0(b, p):
    o = _new(AcknowledgementBatch)
    o.first_offset, o.last_offset = _S3.unpack_from(b, p)
    p += 16
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 1)
    l = list((_ARR['b'][n] if n < 64 else _struct.Struct('>%db' % n)).unpack_from(b, p))
    p += 1 * n
    o.acknowledge_types = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_FetchPartition_0(b, p):
    o = _new(FetchPartition)
    o.partition_index, = _S2.unpack_from(b, p)
    p += 4
    o.partition_max_bytes = 0
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 18)
    l = []
    for _ in range(n):
        e, p = _d_AcknowledgementBatch_0(b, p)
        l.append(e)
    o.acknowledgement_batches = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_FetchTopic_0(b, p):
    o = _new(FetchTopic)
    o.topic_id, = _S1.unpack_from(b, p)
    p += 16
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 6)
    l = []
    for _ in range(n):
        e, p = _d_FetchPartition_0(b, p)
        l.append(e)
    o.partitions = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_ForgottenTopic_0(b, p):
    o = _new(ForgottenTopic)
    o.topic_id, = _S1.unpack_from(b, p)
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


def _d_ShareFetchRequest_0(b, p):
    o = _new(ShareFetchRequest)
    o.group_id, p = _rcnstr(b, p)
    o.member_id, p = _rcnstr(b, p)
    o.share_session_epoch, o.max_wait_ms, o.min_bytes, o.max_bytes, o.max_records, o.batch_size = _S0.unpack_from(b, p)
    p += 24
    o.share_acquire_mode = 0
    o.is_renew_ack = False
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 18)
    l = []
    for _ in range(n):
        e, p = _d_FetchTopic_0(b, p)
        l.append(e)
    o.topics = l
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 18)
    l = []
    for _ in range(n):
        e, p = _d_ForgottenTopic_0(b, p)
        l.append(e)
    o.forgotten_topics_data = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_AcknowledgementBatch_0(o, w):
    w.append(_S3.pack(o.first_offset, o.last_offset))
    x = o.acknowledge_types
    w.append(_uv(len(x) + 1))
    w.append(_pack('>%db' % len(x), *x))
    _wtag(w, o._unknown_tagged)


def _e_FetchPartition_0(o, w):
    w.append(_S2.pack(o.partition_index))
    x = o.acknowledgement_batches
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_AcknowledgementBatch_0(e, w)
    _wtag(w, o._unknown_tagged)


def _e_FetchTopic_0(o, w):
    w.append(_S1.pack(o.topic_id))
    x = o.partitions
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_FetchPartition_0(e, w)
    _wtag(w, o._unknown_tagged)


def _e_ForgottenTopic_0(o, w):
    w.append(_S1.pack(o.topic_id))
    x = o.partitions
    w.append(_uv(len(x) + 1))
    w.append(_pack('>%di' % len(x), *x))
    _wtag(w, o._unknown_tagged)


def _e_ShareFetchRequest_0(o, w):
    _wcnstr(w, o.group_id)
    _wcnstr(w, o.member_id)
    w.append(_S0.pack(o.share_session_epoch, o.max_wait_ms, o.min_bytes, o.max_bytes, o.max_records, o.batch_size))
    x = o.topics
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_FetchTopic_0(e, w)
    x = o.forgotten_topics_data
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_ForgottenTopic_0(e, w)
    _wtag(w, o._unknown_tagged)


def _d_ShareFetchRequest_1(b, p):
    o = _new(ShareFetchRequest)
    o.group_id, p = _rcnstr(b, p)
    o.member_id, p = _rcnstr(b, p)
    o.share_session_epoch, o.max_wait_ms, o.min_bytes, o.max_bytes, o.max_records, o.batch_size, o.share_acquire_mode, o.is_renew_ack = _S4.unpack_from(b, p)
    p += 26
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 18)
    l = []
    for _ in range(n):
        e, p = _d_FetchTopic_0(b, p)
        l.append(e)
    o.topics = l
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 18)
    l = []
    for _ in range(n):
        e, p = _d_ForgottenTopic_0(b, p)
        l.append(e)
    o.forgotten_topics_data = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_ShareFetchRequest_1(o, w):
    _wcnstr(w, o.group_id)
    _wcnstr(w, o.member_id)
    w.append(_S4.pack(o.share_session_epoch, o.max_wait_ms, o.min_bytes, o.max_bytes, o.max_records, o.batch_size, o.share_acquire_mode, o.is_renew_ack))
    x = o.topics
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_FetchTopic_0(e, w)
    x = o.forgotten_topics_data
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_ForgottenTopic_0(e, w)
    _wtag(w, o._unknown_tagged)


ShareFetchRequest._DECODERS = {1: _d_ShareFetchRequest_0, 2: _d_ShareFetchRequest_1}
ShareFetchRequest._ENCODERS = {1: _e_ShareFetchRequest_0, 2: _e_ShareFetchRequest_1}
