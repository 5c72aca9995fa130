"""Generated from Kafka's ShareGroupStatePartitionMetadataValue.json by tools/gen_wire.py. Do not edit."""
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

_S0 = _struct.Struct('>16s')


class TopicPartitionsInfo(Message):
    __slots__ = ('topic_id', 'topic_name', 'partitions', '_unknown_tagged')
    _FIELDS = (('topic_id', 'uuid', 0, 32767, -1, -1, None, -1, None), ('topic_name', 'string', 0, 32767, -1, -1, None, -1, None), ('partitions', '[]int32', 0, 32767, -1, -1, None, -1, None))

    def __init__(self, *, topic_id=ZERO_UUID, topic_name='', partitions=DEFAULT, _unknown_tagged=None):
        self.topic_id = topic_id
        self.topic_name = topic_name
        self.partitions = [] if partitions is DEFAULT else partitions
        self._unknown_tagged = _unknown_tagged


class TopicInfo(Message):
    __slots__ = ('topic_id', 'topic_name', '_unknown_tagged')
    _FIELDS = (('topic_id', 'uuid', 0, 32767, -1, -1, None, -1, None), ('topic_name', 'string', 0, 32767, -1, -1, None, -1, None))

    def __init__(self, *, topic_id=ZERO_UUID, topic_name='', _unknown_tagged=None):
        self.topic_id = topic_id
        self.topic_name = topic_name
        self._unknown_tagged = _unknown_tagged


class ShareGroupStatePartitionMetadataValue(Message):
    __slots__ = ('initializing_topics', 'initialized_topics', 'deleting_topics', '_unknown_tagged')
    _FIELDS = (('initializing_topics', '[]TopicPartitionsInfo', 0, 32767, -1, -1, None, -1, 'TopicPartitionsInfo'), ('initialized_topics', '[]TopicPartitionsInfo', 0, 32767, -1, -1, None, -1, 'TopicPartitionsInfo'), ('deleting_topics', '[]TopicInfo', 0, 32767, -1, -1, None, -1, 'TopicInfo'))
    API_KEY = 15
    VALID_VERSIONS = (0, 0)
    FLEXIBLE_MIN = 0

    def __init__(self, *, initializing_topics=DEFAULT, initialized_topics=DEFAULT, deleting_topics=DEFAULT, _unknown_tagged=None):
        self.initializing_topics = [] if initializing_topics is DEFAULT else initializing_topics
        self.initialized_topics = [] if initialized_topics is DEFAULT else initialized_topics
        self.deleting_topics = [] if deleting_topics is DEFAULT else deleting_topics
        self._unknown_tagged = _unknown_tagged



def _d_TopicPartitionsInfo_0(b, p):
    o = _new(TopicPartitionsInfo)
    o.topic_id, = _S0.unpack_from(b, p)
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


def _d_TopicInfo_0(b, p):
    o = _new(TopicInfo)
    o.topic_id, = _S0.unpack_from(b, p)
    p += 16
    o.topic_name, p = _rcstr(b, p)
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_ShareGroupStatePartitionMetadataValue_0(b, p):
    o = _new(ShareGroupStatePartitionMetadataValue)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 19)
    l = []
    for _ in range(n):
        e, p = _d_TopicPartitionsInfo_0(b, p)
        l.append(e)
    o.initializing_topics = l
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 19)
    l = []
    for _ in range(n):
        e, p = _d_TopicPartitionsInfo_0(b, p)
        l.append(e)
    o.initialized_topics = l
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 18)
    l = []
    for _ in range(n):
        e, p = _d_TopicInfo_0(b, p)
        l.append(e)
    o.deleting_topics = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_TopicPartitionsInfo_0(o, w):
    w.append(_S0.pack(o.topic_id))
    _wcstr(w, o.topic_name)
    x = o.partitions
    w.append(_uv(len(x) + 1))
    w.append(_pack('>%di' % len(x), *x))
    _wtag(w, o._unknown_tagged)


def _e_TopicInfo_0(o, w):
    w.append(_S0.pack(o.topic_id))
    _wcstr(w, o.topic_name)
    _wtag(w, o._unknown_tagged)


def _e_ShareGroupStatePartitionMetadataValue_0(o, w):
    x = o.initializing_topics
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_TopicPartitionsInfo_0(e, w)
    x = o.initialized_topics
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_TopicPartitionsInfo_0(e, w)
    x = o.deleting_topics
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_TopicInfo_0(e, w)
    _wtag(w, o._unknown_tagged)


ShareGroupStatePartitionMetadataValue._DECODERS = {0: _d_ShareGroupStatePartitionMetadataValue_0}
ShareGroupStatePartitionMetadataValue._ENCODERS = {0: _e_ShareGroupStatePartitionMetadataValue_0}
