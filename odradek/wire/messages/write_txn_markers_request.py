"""Generated from Kafka's WriteTxnMarkersRequest.json by tools/gen_wire.py. Do not edit."""
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

_S0 = _struct.Struct('>qh?')
_S1 = _struct.Struct('>i')
_S2 = _struct.Struct('>ib')


class WritableTxnMarkerTopic(Message):
    __slots__ = ('name', 'partition_indexes', '_unknown_tagged')
    _FIELDS = (('name', 'string', 0, 32767, -1, -1, None, -1, None), ('partition_indexes', '[]int32', 0, 32767, -1, -1, None, -1, None))

    def __init__(self, *, name='', partition_indexes=DEFAULT, _unknown_tagged=None):
        self.name = name
        self.partition_indexes = [] if partition_indexes is DEFAULT else partition_indexes
        self._unknown_tagged = _unknown_tagged


class WritableTxnMarker(Message):
    __slots__ = ('producer_id', 'producer_epoch', 'transaction_result', 'topics', 'coordinator_epoch', 'transaction_version', '_unknown_tagged')
    _FIELDS = (('producer_id', 'int64', 0, 32767, -1, -1, None, -1, None), ('producer_epoch', 'int16', 0, 32767, -1, -1, None, -1, None), ('transaction_result', 'bool', 0, 32767, -1, -1, None, -1, None), ('topics', '[]WritableTxnMarkerTopic', 0, 32767, -1, -1, None, -1, 'WritableTxnMarkerTopic'), ('coordinator_epoch', 'int32', 0, 32767, -1, -1, None, -1, None), ('transaction_version', 'int8', 2, 32767, -1, -1, None, -1, None))

    def __init__(self, *, producer_id=0, producer_epoch=0, transaction_result=False, topics=DEFAULT, coordinator_epoch=0, transaction_version=0, _unknown_tagged=None):
        self.producer_id = producer_id
        self.producer_epoch = producer_epoch
        self.transaction_result = transaction_result
        self.topics = [] if topics is DEFAULT else topics
        self.coordinator_epoch = coordinator_epoch
        self.transaction_version = transaction_version
        self._unknown_tagged = _unknown_tagged


class WriteTxnMarkersRequest(Message):
    __slots__ = ('markers', '_unknown_tagged')
    _FIELDS = (('markers', '[]WritableTxnMarker', 0, 32767, -1, -1, None, -1, 'WritableTxnMarker'),)
    API_KEY = 27
    VALID_VERSIONS = (1, 2)
    FLEXIBLE_MIN = 1

    def __init__(self, *, markers=DEFAULT, _unknown_tagged=None):
        self.markers = [] if markers is DEFAULT else markers
        self._unknown_tagged = _unknown_tagged



def _d_WritableTxnMarkerTopic_0(b, p):
    o = _new(WritableTxnMarkerTopic)
    o.name, p = _rcstr(b, p)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 4)
    l = list((_ARR['i'][n] if n < 64 else _struct.Struct('>%di' % n)).unpack_from(b, p))
    p += 4 * n
    o.partition_indexes = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_WritableTxnMarker_0(b, p):
    o = _new(WritableTxnMarker)
    o.producer_id, o.producer_epoch, o.transaction_result = _S0.unpack_from(b, p)
    p += 11
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 3)
    l = []
    for _ in range(n):
        e, p = _d_WritableTxnMarkerTopic_0(b, p)
        l.append(e)
    o.topics = l
    o.coordinator_epoch, = _S1.unpack_from(b, p)
    p += 4
    o.transaction_version = 0
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_WriteTxnMarkersRequest_0(b, p):
    o = _new(WriteTxnMarkersRequest)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 17)
    l = []
    for _ in range(n):
        e, p = _d_WritableTxnMarker_0(b, p)
        l.append(e)
    o.markers = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_WritableTxnMarkerTopic_0(o, w):
    _wcstr(w, o.name)
    x = o.partition_indexes
    w.append(_uv(len(x) + 1))
    w.append(_pack('>%di' % len(x), *x))
    _wtag(w, o._unknown_tagged)


def _e_WritableTxnMarker_0(o, w):
    w.append(_S0.pack(o.producer_id, o.producer_epoch, o.transaction_result))
    x = o.topics
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_WritableTxnMarkerTopic_0(e, w)
    w.append(_S1.pack(o.coordinator_epoch))
    _wtag(w, o._unknown_tagged)


def _e_WriteTxnMarkersRequest_0(o, w):
    x = o.markers
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_WritableTxnMarker_0(e, w)
    _wtag(w, o._unknown_tagged)


def _d_WritableTxnMarker_1(b, p):
    o = _new(WritableTxnMarker)
    o.producer_id, o.producer_epoch, o.transaction_result = _S0.unpack_from(b, p)
    p += 11
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 3)
    l = []
    for _ in range(n):
        e, p = _d_WritableTxnMarkerTopic_0(b, p)
        l.append(e)
    o.topics = l
    o.coordinator_epoch, o.transaction_version = _S2.unpack_from(b, p)
    p += 5
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_WriteTxnMarkersRequest_1(b, p):
    o = _new(WriteTxnMarkersRequest)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 18)
    l = []
    for _ in range(n):
        e, p = _d_WritableTxnMarker_1(b, p)
        l.append(e)
    o.markers = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_WritableTxnMarker_1(o, w):
    w.append(_S0.pack(o.producer_id, o.producer_epoch, o.transaction_result))
    x = o.topics
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_WritableTxnMarkerTopic_0(e, w)
    w.append(_S2.pack(o.coordinator_epoch, o.transaction_version))
    _wtag(w, o._unknown_tagged)


def _e_WriteTxnMarkersRequest_1(o, w):
    x = o.markers
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_WritableTxnMarker_1(e, w)
    _wtag(w, o._unknown_tagged)


WriteTxnMarkersRequest._DECODERS = {1: _d_WriteTxnMarkersRequest_0, 2: _d_WriteTxnMarkersRequest_1}
WriteTxnMarkersRequest._ENCODERS = {1: _e_WriteTxnMarkersRequest_0, 2: _e_WriteTxnMarkersRequest_1}
