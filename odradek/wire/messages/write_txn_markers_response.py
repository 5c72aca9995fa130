"""Generated from Kafka's WriteTxnMarkersResponse.json by tools/gen_wire.py. Do not edit."""
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

_S0 = _struct.Struct('>q')
_S1 = _struct.Struct('>ih')


class WritableTxnMarkerPartitionResult(Message):
    __slots__ = ('partition_index', 'error_code', '_unknown_tagged')
    _FIELDS = (('partition_index', 'int32', 0, 32767, -1, -1, None, -1, None), ('error_code', 'int16', 0, 32767, -1, -1, None, -1, None))

    def __init__(self, *, partition_index=0, error_code=0, _unknown_tagged=None):
        self.partition_index = partition_index
        self.error_code = error_code
        self._unknown_tagged = _unknown_tagged


class WritableTxnMarkerTopicResult(Message):
    __slots__ = ('name', 'partitions', '_unknown_tagged')
    _FIELDS = (('name', 'string', 0, 32767, -1, -1, None, -1, None), ('partitions', '[]WritableTxnMarkerPartitionResult', 0, 32767, -1, -1, None, -1, 'WritableTxnMarkerPartitionResult'))

    def __init__(self, *, name='', partitions=DEFAULT, _unknown_tagged=None):
        self.name = name
        self.partitions = [] if partitions is DEFAULT else partitions
        self._unknown_tagged = _unknown_tagged


class WritableTxnMarkerResult(Message):
    __slots__ = ('producer_id', 'topics', '_unknown_tagged')
    _FIELDS = (('producer_id', 'int64', 0, 32767, -1, -1, None, -1, None), ('topics', '[]WritableTxnMarkerTopicResult', 0, 32767, -1, -1, None, -1, 'WritableTxnMarkerTopicResult'))

    def __init__(self, *, producer_id=0, topics=DEFAULT, _unknown_tagged=None):
        self.producer_id = producer_id
        self.topics = [] if topics is DEFAULT else topics
        self._unknown_tagged = _unknown_tagged


class WriteTxnMarkersResponse(Message):
    __slots__ = ('markers', '_unknown_tagged')
    _FIELDS = (('markers', '[]WritableTxnMarkerResult', 0, 32767, -1, -1, None, -1, 'WritableTxnMarkerResult'),)
    API_KEY = 27
    VALID_VERSIONS = (1, 2)
    FLEXIBLE_MIN = 1

    def __init__(self, *, markers=DEFAULT, _unknown_tagged=None):
        self.markers = [] if markers is DEFAULT else markers
        self._unknown_tagged = _unknown_tagged



def _d_WritableTxnMarkerPartitionResult_0(b, p):
    o = _new(WritableTxnMarkerPartitionResult)
    o.partition_index, o.error_code = _S1.unpack_from(b, p)
    p += 6
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_WritableTxnMarkerTopicResult_0(b, p):
    o = _new(WritableTxnMarkerTopicResult)
    o.name, p = _rcstr(b, p)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 7)
    l = []
    for _ in range(n):
        e, p = _d_WritableTxnMarkerPartitionResult_0(b, p)
        l.append(e)
    o.partitions = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_WritableTxnMarkerResult_0(b, p):
    o = _new(WritableTxnMarkerResult)
    o.producer_id, = _S0.unpack_from(b, p)
    p += 8
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 3)
    l = []
    for _ in range(n):
        e, p = _d_WritableTxnMarkerTopicResult_0(b, p)
        l.append(e)
    o.topics = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_WriteTxnMarkersResponse_0(b, p):
    o = _new(WriteTxnMarkersResponse)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 10)
    l = []
    for _ in range(n):
        e, p = _d_WritableTxnMarkerResult_0(b, p)
        l.append(e)
    o.markers = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_WritableTxnMarkerPartitionResult_0(o, w):
    w.append(_S1.pack(o.partition_index, o.error_code))
    _wtag(w, o._unknown_tagged)


def _e_WritableTxnMarkerTopicResult_0(o, w):
    _wcstr(w, o.name)
    x = o.partitions
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_WritableTxnMarkerPartitionResult_0(e, w)
    _wtag(w, o._unknown_tagged)


def _e_WritableTxnMarkerResult_0(o, w):
    w.append(_S0.pack(o.producer_id))
    x = o.topics
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_WritableTxnMarkerTopicResult_0(e, w)
    _wtag(w, o._unknown_tagged)


def _e_WriteTxnMarkersResponse_0(o, w):
    x = o.markers
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_WritableTxnMarkerResult_0(e, w)
    _wtag(w, o._unknown_tagged)


WriteTxnMarkersResponse._DECODERS = {1: _d_WriteTxnMarkersResponse_0, 2: _d_WriteTxnMarkersResponse_0}
WriteTxnMarkersResponse._ENCODERS = {1: _e_WriteTxnMarkersResponse_0, 2: _e_WriteTxnMarkersResponse_0}
