"""Generated from Kafka's ConsumerGroupPartitionMetadataValue.json by tools/gen_wire.py. Do not edit."""
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
_S1 = _struct.Struct('>i')


class PartitionMetadata(Message):
    __slots__ = ('partition', 'racks', '_unknown_tagged')
    _FIELDS = (('partition', 'int32', 0, 32767, -1, -1, None, -1, None), ('racks', '[]string', 0, 32767, -1, -1, None, -1, None))

    def __init__(self, *, partition=0, racks=DEFAULT, _unknown_tagged=None):
        self.partition = partition
        self.racks = [] if racks is DEFAULT else racks
        self._unknown_tagged = _unknown_tagged


class TopicMetadata(Message):
    __slots__ = ('topic_id', 'topic_name', 'num_partitions', 'partition_metadata', '_unknown_tagged')
    _FIELDS = (('topic_id', 'uuid', 0, 32767, -1, -1, None, -1, None), ('topic_name', 'string', 0, 32767, -1, -1, None, -1, None), ('num_partitions', 'int32', 0, 32767, -1, -1, None, -1, None), ('partition_metadata', '[]PartitionMetadata', 0, 32767, -1, -1, None, -1, 'PartitionMetadata'))

    def __init__(self, *, topic_id=ZERO_UUID, topic_name='', num_partitions=0, partition_metadata=DEFAULT, _unknown_tagged=None):
        self.topic_id = topic_id
        self.topic_name = topic_name
        self.num_partitions = num_partitions
        self.partition_metadata = [] if partition_metadata is DEFAULT else partition_metadata
        self._unknown_tagged = _unknown_tagged


class ConsumerGroupPartitionMetadataValue(Message):
    __slots__ = ('topics', '_unknown_tagged')
    _FIELDS = (('topics', '[]TopicMetadata', 0, 32767, -1, -1, None, -1, 'TopicMetadata'),)
    API_KEY = 4
    VALID_VERSIONS = (0, 0)
    FLEXIBLE_MIN = 0

    def __init__(self, *, topics=DEFAULT, _unknown_tagged=None):
        self.topics = [] if topics is DEFAULT else topics
        self._unknown_tagged = _unknown_tagged



def _d_PartitionMetadata_0(b, p):
    o = _new(PartitionMetadata)
    o.partition, = _S1.unpack_from(b, p)
    p += 4
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 1)
    l = []
    for _ in range(n):
        e, p = _rcstr(b, p)
        l.append(e)
    o.racks = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_TopicMetadata_0(b, p):
    o = _new(TopicMetadata)
    o.topic_id, = _S0.unpack_from(b, p)
    p += 16
    o.topic_name, p = _rcstr(b, p)
    o.num_partitions, = _S1.unpack_from(b, p)
    p += 4
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 6)
    l = []
    for _ in range(n):
        e, p = _d_PartitionMetadata_0(b, p)
        l.append(e)
    o.partition_metadata = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_ConsumerGroupPartitionMetadataValue_0(b, p):
    o = _new(ConsumerGroupPartitionMetadataValue)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 23)
    l = []
    for _ in range(n):
        e, p = _d_TopicMetadata_0(b, p)
        l.append(e)
    o.topics = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_PartitionMetadata_0(o, w):
    w.append(_S1.pack(o.partition))
    x = o.racks
    w.append(_uv(len(x) + 1))
    for e in x:
        _wcstr(w, e)
    _wtag(w, o._unknown_tagged)


def _e_TopicMetadata_0(o, w):
    w.append(_S0.pack(o.topic_id))
    _wcstr(w, o.topic_name)
    w.append(_S1.pack(o.num_partitions))
    x = o.partition_metadata
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_PartitionMetadata_0(e, w)
    _wtag(w, o._unknown_tagged)


def _e_ConsumerGroupPartitionMetadataValue_0(o, w):
    x = o.topics
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_TopicMetadata_0(e, w)
    _wtag(w, o._unknown_tagged)


ConsumerGroupPartitionMetadataValue._DECODERS = {0: _d_ConsumerGroupPartitionMetadataValue_0}
ConsumerGroupPartitionMetadataValue._ENCODERS = {0: _e_ConsumerGroupPartitionMetadataValue_0}
