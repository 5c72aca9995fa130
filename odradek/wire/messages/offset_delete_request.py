"""Generated from Kafka's OffsetDeleteRequest.json by tools/gen_wire.py. Do not edit."""
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


class OffsetDeleteRequestPartition(Message):
    __slots__ = ('partition_index', '_unknown_tagged')
    _FIELDS = (('partition_index', 'int32', 0, 32767, -1, -1, None, -1, None),)

    def __init__(self, *, partition_index=0, _unknown_tagged=None):
        self.partition_index = partition_index
        self._unknown_tagged = _unknown_tagged


class OffsetDeleteRequestTopic(Message):
    __slots__ = ('name', 'partitions', '_unknown_tagged')
    _FIELDS = (('name', 'string', 0, 32767, -1, -1, None, -1, None), ('partitions', '[]OffsetDeleteRequestPartition', 0, 32767, -1, -1, None, -1, 'OffsetDeleteRequestPartition'))

    def __init__(self, *, name='', partitions=DEFAULT, _unknown_tagged=None):
        self.name = name
        self.partitions = [] if partitions is DEFAULT else partitions
        self._unknown_tagged = _unknown_tagged


class OffsetDeleteRequest(Message):
    __slots__ = ('group_id', 'topics', '_unknown_tagged')
    _FIELDS = (('group_id', 'string', 0, 32767, -1, -1, None, -1, None), ('topics', '[]OffsetDeleteRequestTopic', 0, 32767, -1, -1, None, -1, 'OffsetDeleteRequestTopic'))
    API_KEY = 47
    VALID_VERSIONS = (0, 0)
    FLEXIBLE_MIN = None

    def __init__(self, *, group_id='', topics=DEFAULT, _unknown_tagged=None):
        self.group_id = group_id
        self.topics = [] if topics is DEFAULT else topics
        self._unknown_tagged = _unknown_tagged



def _d_OffsetDeleteRequestPartition_0(b, p):
    o = _new(OffsetDeleteRequestPartition)
    o.partition_index, = _S0.unpack_from(b, p)
    p += 4
    o._unknown_tagged = None
    return o, p


def _n_OffsetDeleteRequestTopic_0(b, p, y):
    o = _new(OffsetDeleteRequestTopic)
    o.name, p = _rstr(b, p)
    n, p = _ral(b, p, 4)
    l = []
    for _ in range(n):
        e, p = _d_OffsetDeleteRequestPartition_0(b, p)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.partitions = l
    o._unknown_tagged = None
    return o, p, y


def _s_OffsetDeleteRequest_0(b, p):
    o = _new(OffsetDeleteRequest)
    o.group_id, p = _rstr(b, p)
    n, p = _ral(b, p, 6)
    y = p + 16384
    l = []
    for _ in range(n):
        e, p, y = yield from _n_OffsetDeleteRequestTopic_0(b, p, y)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.topics = l
    o._unknown_tagged = None
    return o, p


def _e_OffsetDeleteRequestPartition_0(o, w):
    w.append(_S0.pack(o.partition_index))


def _e_OffsetDeleteRequestTopic_0(o, w):
    _wstr(w, o.name)
    x = o.partitions
    w.append(_I(len(x)))
    for e in x:
        _e_OffsetDeleteRequestPartition_0(e, w)


def _e_OffsetDeleteRequest_0(o, w):
    _wstr(w, o.group_id)
    x = o.topics
    w.append(_I(len(x)))
    for e in x:
        _e_OffsetDeleteRequestTopic_0(e, w)


_d_s_OffsetDeleteRequest_0 = _whole(_s_OffsetDeleteRequest_0)
OffsetDeleteRequest._STEPS = {0: _s_OffsetDeleteRequest_0}
OffsetDeleteRequest._DECODERS = {0: _d_s_OffsetDeleteRequest_0}
OffsetDeleteRequest._ENCODERS = {0: _e_OffsetDeleteRequest_0}
