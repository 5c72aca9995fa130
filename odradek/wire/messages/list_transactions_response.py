"""Generated from Kafka's ListTransactionsResponse.json by tools/gen_wire.py. Do not edit."""
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

_S0 = _struct.Struct('>ih')
_S1 = _struct.Struct('>q')


class TransactionState(Message):
    __slots__ = ('transactional_id', 'producer_id', 'transaction_state', '_unknown_tagged')
    _FIELDS = (('transactional_id', 'string', 0, 32767, -1, -1, None, -1, None), ('producer_id', 'int64', 0, 32767, -1, -1, None, -1, None), ('transaction_state', 'string', 0, 32767, -1, -1, None, -1, None))

    def __init__(self, *, transactional_id='', producer_id=0, transaction_state='', _unknown_tagged=None):
        self.transactional_id = transactional_id
        self.producer_id = producer_id
        self.transaction_state = transaction_state
        self._unknown_tagged = _unknown_tagged


class ListTransactionsResponse(Message):
    __slots__ = ('throttle_time_ms', 'error_code', 'unknown_state_filters', 'transaction_states', '_unknown_tagged')
    _FIELDS = (('throttle_time_ms', 'int32', 0, 32767, -1, -1, None, -1, None), ('error_code', 'int16', 0, 32767, -1, -1, None, -1, None), ('unknown_state_filters', '[]string', 0, 32767, -1, -1, None, -1, None), ('transaction_states', '[]TransactionState', 0, 32767, -1, -1, None, -1, 'TransactionState'))
    API_KEY = 66
    VALID_VERSIONS = (0, 2)
    FLEXIBLE_MIN = 0

    def __init__(self, *, throttle_time_ms=0, error_code=0, unknown_state_filters=DEFAULT, transaction_states=DEFAULT, _unknown_tagged=None):
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.unknown_state_filters = [] if unknown_state_filters is DEFAULT else unknown_state_filters
        self.transaction_states = [] if transaction_states is DEFAULT else transaction_states
        self._unknown_tagged = _unknown_tagged



def _d_TransactionState_0(b, p):
    o = _new(TransactionState)
    o.transactional_id, p = _rcstr(b, p)
    o.producer_id, = _S1.unpack_from(b, p)
    p += 8
    o.transaction_state, p = _rcstr(b, p)
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_ListTransactionsResponse_0(b, p):
    o = _new(ListTransactionsResponse)
    o.throttle_time_ms, o.error_code = _S0.unpack_from(b, p)
    p += 6
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 1)
    l = []
    for _ in range(n):
        e, p = _rcstr(b, p)
        l.append(e)
    o.unknown_state_filters = l
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 11)
    l = []
    for _ in range(n):
        e, p = _d_TransactionState_0(b, p)
        l.append(e)
    o.transaction_states = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_TransactionState_0(o, w):
    _wcstr(w, o.transactional_id)
    w.append(_S1.pack(o.producer_id))
    _wcstr(w, o.transaction_state)
    _wtag(w, o._unknown_tagged)


def _e_ListTransactionsResponse_0(o, w):
    w.append(_S0.pack(o.throttle_time_ms, o.error_code))
    x = o.unknown_state_filters
    w.append(_uv(len(x) + 1))
    for e in x:
        _wcstr(w, e)
    x = o.transaction_states
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_TransactionState_0(e, w)
    _wtag(w, o._unknown_tagged)


def _t_ListTransactionsResponse_0(o, w):
    c = 0
    w.append(_S0.pack(o.throttle_time_ms, o.error_code))
    x = o.unknown_state_filters
    w.append(_uv(len(x) + 1))
    for e in x:
        _wcstr(w, e)
    x = o.transaction_states
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_TransactionState_0(e, w)
        c += 1
        if c >= 1000:
            c = 0
            yield
    _wtag(w, o._unknown_tagged)


ListTransactionsResponse._DECODERS = {0: _d_ListTransactionsResponse_0, 1: _d_ListTransactionsResponse_0, 2: _d_ListTransactionsResponse_0}
ListTransactionsResponse._ENCODERS = {0: _e_ListTransactionsResponse_0, 1: _e_ListTransactionsResponse_0, 2: _e_ListTransactionsResponse_0}
ListTransactionsResponse._ENCODE_STEPS = {0: _t_ListTransactionsResponse_0, 1: _t_ListTransactionsResponse_0, 2: _t_ListTransactionsResponse_0}
