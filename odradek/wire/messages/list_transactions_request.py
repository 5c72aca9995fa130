"""Generated from Kafka's ListTransactionsRequest.json by tools/gen_wire.py. Do not edit."""
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

_S0 = _struct.Struct('>q')


class ListTransactionsRequest(Message):
    __slots__ = ('state_filters', 'producer_id_filters', 'duration_filter', 'transactional_id_pattern', '_unknown_tagged')
    _FIELDS = (('state_filters', '[]string', 0, 32767, -1, -1, None, -1, None), ('producer_id_filters', '[]int64', 0, 32767, -1, -1, None, -1, None), ('duration_filter', 'int64', 1, 32767, -1, -1, None, -1, None), ('transactional_id_pattern', 'string', 2, 32767, 2, 32767, None, -1, None))
    API_KEY = 66
    VALID_VERSIONS = (0, 2)
    FLEXIBLE_MIN = 0

    def __init__(self, *, state_filters=DEFAULT, producer_id_filters=DEFAULT, duration_filter=-1, transactional_id_pattern=None, _unknown_tagged=None):
        self.state_filters = [] if state_filters is DEFAULT else state_filters
        self.producer_id_filters = [] if producer_id_filters is DEFAULT else producer_id_filters
        self.duration_filter = duration_filter
        self.transactional_id_pattern = transactional_id_pattern
        self._unknown_tagged = _unknown_tagged



def _s_ListTransactionsRequest_0(b, p):
    o = _new(ListTransactionsRequest)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 1)
    y = p + 16384
    l = []
    for _ in range(n):
        e, p = _rcstr(b, p)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.state_filters = l
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 8)
    y = p + 16384
    l = list((_ARR['q'][n] if n < 64 else _struct.Struct('>%dq' % n)).unpack_from(b, p))
    p += 8 * n
    o.producer_id_filters = l
    o.duration_filter = -1
    o.transactional_id_pattern = None
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_ListTransactionsRequest_0(o, w):
    x = o.state_filters
    w.append(_uv(len(x) + 1))
    for e in x:
        _wcstr(w, e)
    x = o.producer_id_filters
    w.append(_uv(len(x) + 1))
    w.append(_pack('>%dq' % len(x), *x))
    _wtag(w, o._unknown_tagged)


def _s_ListTransactionsRequest_1(b, p):
    o = _new(ListTransactionsRequest)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 1)
    y = p + 16384
    l = []
    for _ in range(n):
        e, p = _rcstr(b, p)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.state_filters = l
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 8)
    y = p + 16384
    l = list((_ARR['q'][n] if n < 64 else _struct.Struct('>%dq' % n)).unpack_from(b, p))
    p += 8 * n
    o.producer_id_filters = l
    o.duration_filter, = _S0.unpack_from(b, p)
    p += 8
    o.transactional_id_pattern = None
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_ListTransactionsRequest_1(o, w):
    x = o.state_filters
    w.append(_uv(len(x) + 1))
    for e in x:
        _wcstr(w, e)
    x = o.producer_id_filters
    w.append(_uv(len(x) + 1))
    w.append(_pack('>%dq' % len(x), *x))
    w.append(_S0.pack(o.duration_filter))
    _wtag(w, o._unknown_tagged)


def _s_ListTransactionsRequest_2(b, p):
    o = _new(ListTransactionsRequest)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 1)
    y = p + 16384
    l = []
    for _ in range(n):
        e, p = _rcstr(b, p)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.state_filters = l
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 8)
    y = p + 16384
    l = list((_ARR['q'][n] if n < 64 else _struct.Struct('>%dq' % n)).unpack_from(b, p))
    p += 8 * n
    o.producer_id_filters = l
    o.duration_filter, = _S0.unpack_from(b, p)
    p += 8
    o.transactional_id_pattern, p = _rcnstr(b, p)
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_ListTransactionsRequest_2(o, w):
    x = o.state_filters
    w.append(_uv(len(x) + 1))
    for e in x:
        _wcstr(w, e)
    x = o.producer_id_filters
    w.append(_uv(len(x) + 1))
    w.append(_pack('>%dq' % len(x), *x))
    w.append(_S0.pack(o.duration_filter))
    _wcnstr(w, o.transactional_id_pattern)
    _wtag(w, o._unknown_tagged)


_d_s_ListTransactionsRequest_0 = _whole(_s_ListTransactionsRequest_0)
_d_s_ListTransactionsRequest_1 = _whole(_s_ListTransactionsRequest_1)
_d_s_ListTransactionsRequest_2 = _whole(_s_ListTransactionsRequest_2)
ListTransactionsRequest._STEPS = {0: _s_ListTransactionsRequest_0, 1: _s_ListTransactionsRequest_1, 2: _s_ListTransactionsRequest_2}
ListTransactionsRequest._DECODERS = {0: _d_s_ListTransactionsRequest_0, 1: _d_s_ListTransactionsRequest_1, 2: _d_s_ListTransactionsRequest_2}
ListTransactionsRequest._ENCODERS = {0: _e_ListTransactionsRequest_0, 1: _e_ListTransactionsRequest_1, 2: _e_ListTransactionsRequest_2}
