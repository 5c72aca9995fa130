"""Generated from Kafka's ShareAcknowledgeRequest.json by tools/gen_wire.py. Do not edit."""
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
_S1 = _struct.Struct('>16s')
_S2 = _struct.Struct('>qq')
_S3 = _struct.Struct('>i?')


class AcknowledgementBatch(Message):
    __slots__ = ('first_offset', 'last_offset', 'acknowledge_types', '_unknown_tagged')
    _FIELDS = (('first_offset', 'int64', 0, 32767, -1, -1, None, -1, None), ('last_offset', 'int64', 0, 32767, -1, -1, None, -1, None), ('acknowledge_types', '[]int8', 0, 32767, -1, -1, None, -1, None))

    def __init__(self, *, first_offset=0, last_offset=0, acknowledge_types=DEFAULT, _unknown_tagged=None):
        self.first_offset = first_offset
        self.last_offset = last_offset
        self.acknowledge_types = [] if acknowledge_types is DEFAULT else acknowledge_types
        self._unknown_tagged = _unknown_tagged


class AcknowledgePartition(Message):
    __slots__ = ('partition_index', 'acknowledgement_batches', '_unknown_tagged')
    _FIELDS = (('partition_index', 'int32', 0, 32767, -1, -1, None, -1, None), ('acknowledgement_batches', '[]AcknowledgementBatch', 0, 32767, -1, -1, None, -1, 'AcknowledgementBatch'))

    def __init__(self, *, partition_index=0, acknowledgement_batches=DEFAULT, _unknown_tagged=None):
        self.partition_index = partition_index
        self.acknowledgement_batches = [] if acknowledgement_batches is DEFAULT else acknowledgement_batches
        self._unknown_tagged = _unknown_tagged


class AcknowledgeTopic(Message):
    __slots__ = ('topic_id', 'partitions', '_unknown_tagged')
    _FIELDS = (('topic_id', 'uuid', 0, 32767, -1, -1, None, -1, None), ('partitions', '[]AcknowledgePartition', 0, 32767, -1, -1, None, -1, 'AcknowledgePartition'))

    def __init__(self, *, topic_id=ZERO_UUID, partitions=DEFAULT, _unknown_tagged=None):
        self.topic_id = topic_id
        self.partitions = [] if partitions is DEFAULT else partitions
        self._unknown_tagged = _unknown_tagged


class ShareAcknowledgeRequest(Message):
    __slots__ = ('group_id', 'member_id', 'share_session_epoch', 'is_renew_ack', 'topics', '_unknown_tagged')
    _FIELDS = (('group_id', 'string', 0, 32767, 0, 32767, None, -1, None), ('member_id', 'string', 0, 32767, 0, 32767, None, -1, None), ('share_session_epoch', 'int32', 0, 32767, -1, -1, None, -1, None), ('is_renew_ack', 'bool', 2, 32767, -1, -1, None, -1, None), ('topics', '[]AcknowledgeTopic', 0, 32767, -1, -1, None, -1, 'AcknowledgeTopic'))
    API_KEY = 79
    VALID_VERSIONS = (1, 2)
    FLEXIBLE_MIN = 0

    def __init__(self, *, group_id=None, member_id='', share_session_epoch=0, is_renew_ack=False, topics=DEFAULT, _unknown_tagged=None):
        self.group_id = group_id
        self.member_id = member_id
        self.share_session_epoch = share_session_epoch
        self.is_renew_ack = is_renew_ack
        self.topics = [] if topics is DEFAULT else topics
        self._unknown_tagged = _unknown_tagged



def _d_AcknowledgementBatch_0(b, p):
    o = _new(AcknowledgementBatch)
    o.first_offset, o.last_offset = _S2.unpack_from(b, p)
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


def _d_AcknowledgePartition_0(b, p):
    o = _new(AcknowledgePartition)
    o.partition_index, = _S0.unpack_from(b, p)
    p += 4
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


def _d_AcknowledgeTopic_0(b, p):
    o = _new(AcknowledgeTopic)
    o.topic_id, = _S1.unpack_from(b, p)
    p += 16
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 6)
    l = []
    for _ in range(n):
        e, p = _d_AcknowledgePartition_0(b, p)
        l.append(e)
    o.partitions = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_ShareAcknowledgeRequest_0(b, p):
    o = _new(ShareAcknowledgeRequest)
    o.group_id, p = _rcnstr(b, p)
    o.member_id, p = _rcnstr(b, p)
    o.share_session_epoch, = _S0.unpack_from(b, p)
    p += 4
    o.is_renew_ack = False
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 18)
    l = []
    for _ in range(n):
        e, p = _d_AcknowledgeTopic_0(b, p)
        l.append(e)
    o.topics = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_AcknowledgementBatch_0(o, w):
    w.append(_S2.pack(o.first_offset, o.last_offset))
    x = o.acknowledge_types
    w.append(_uv(len(x) + 1))
    w.append(_pack('>%db' % len(x), *x))
    _wtag(w, o._unknown_tagged)


def _e_AcknowledgePartition_0(o, w):
    w.append(_S0.pack(o.partition_index))
    x = o.acknowledgement_batches
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_AcknowledgementBatch_0(e, w)
    _wtag(w, o._unknown_tagged)


def _e_AcknowledgeTopic_0(o, w):
    w.append(_S1.pack(o.topic_id))
    x = o.partitions
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_AcknowledgePartition_0(e, w)
    _wtag(w, o._unknown_tagged)


def _e_ShareAcknowledgeRequest_0(o, w):
    _wcnstr(w, o.group_id)
    _wcnstr(w, o.member_id)
    w.append(_S0.pack(o.share_session_epoch))
    x = o.topics
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_AcknowledgeTopic_0(e, w)
    _wtag(w, o._unknown_tagged)


def _d_ShareAcknowledgeRequest_1(b, p):
    o = _new(ShareAcknowledgeRequest)
    o.group_id, p = _rcnstr(b, p)
    o.member_id, p = _rcnstr(b, p)
    o.share_session_epoch, o.is_renew_ack = _S3.unpack_from(b, p)
    p += 5
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 18)
    l = []
    for _ in range(n):
        e, p = _d_AcknowledgeTopic_0(b, p)
        l.append(e)
    o.topics = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_ShareAcknowledgeRequest_1(o, w):
    _wcnstr(w, o.group_id)
    _wcnstr(w, o.member_id)
    w.append(_S3.pack(o.share_session_epoch, o.is_renew_ack))
    x = o.topics
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_AcknowledgeTopic_0(e, w)
    _wtag(w, o._unknown_tagged)


ShareAcknowledgeRequest._DECODERS = {1: _d_ShareAcknowledgeRequest_0, 2: _d_ShareAcknowledgeRequest_1}
ShareAcknowledgeRequest._ENCODERS = {1: _e_ShareAcknowledgeRequest_0, 2: _e_ShareAcknowledgeRequest_1}
