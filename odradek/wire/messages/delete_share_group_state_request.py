"""Generated from Kafka's DeleteShareGroupStateRequest.json by tools/gen_wire.py. Do not edit."""
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


class PartitionData(Message):
    __slots__ = ('partition', '_unknown_tagged')
    _FIELDS = (('partition', 'int32', 0, 32767, -1, -1, None, -1, None),)

    def __init__(self, *, partition=0, _unknown_tagged=None):
        self.partition = partition
        self._unknown_tagged = _unknown_tagged


class DeleteStateData(Message):
    __slots__ = ('topic_id', 'partitions', '_unknown_tagged')
    _FIELDS = (('topic_id', 'uuid', 0, 32767, -1, -1, None, -1, None), ('partitions', '[]PartitionData', 0, 32767, -1, -1, None, -1, 'PartitionData'))

    def __init__(self, *, topic_id=ZERO_UUID, partitions=DEFAULT, _unknown_tagged=None):
        self.topic_id = topic_id
        self.partitions = [] if partitions is DEFAULT else partitions
        self._unknown_tagged = _unknown_tagged


class DeleteShareGroupStateRequest(Message):
    __slots__ = ('group_id', 'topics', '_unknown_tagged')
    _FIELDS = (('group_id', 'string', 0, 32767, -1, -1, None, -1, None), ('topics', '[]DeleteStateData', 0, 32767, -1, -1, None, -1, 'DeleteStateData'))
    API_KEY = 86
    VALID_VERSIONS = (0, 0)
    FLEXIBLE_MIN = 0

    def __init__(self, *, group_id='', topics=DEFAULT, _unknown_tagged=None):
        self.group_id = group_id
        self.topics = [] if topics is DEFAULT else topics
        self._unknown_tagged = _unknown_tagged



def _d_PartitionData_0(b, p):
    o = _new(PartitionData)
    o.partition, = _S1.unpack_from(b, p)
    p += 4
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_DeleteStateData_0(b, p):
    o = _new(DeleteStateData)
    o.topic_id, = _S0.unpack_from(b, p)
    p += 16
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 5)
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


def _d_DeleteShareGroupStateRequest_0(b, p):
    o = _new(DeleteShareGroupStateRequest)
    o.group_id, p = _rcstr(b, p)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 18)
    l = []
    for _ in range(n):
        e, p = _d_DeleteStateData_0(b, p)
        l.append(e)
    o.topics = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_PartitionData_0(o, w):
    w.append(_S1.pack(o.partition))
    _wtag(w, o._unknown_tagged)


def _e_DeleteStateData_0(o, w):
    w.append(_S0.pack(o.topic_id))
    x = o.partitions
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_PartitionData_0(e, w)
    _wtag(w, o._unknown_tagged)


def _e_DeleteShareGroupStateRequest_0(o, w):
    _wcstr(w, o.group_id)
    x = o.topics
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_DeleteStateData_0(e, w)
    _wtag(w, o._unknown_tagged)


DeleteShareGroupStateRequest._DECODERS = {0: _d_DeleteShareGroupStateRequest_0}
DeleteShareGroupStateRequest._ENCODERS = {0: _e_DeleteShareGroupStateRequest_0}
