"""Generated from Kafka's DescribeTransactionsResponse.json by tools/gen_wire.py. Do not edit."""
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
_S1 = _struct.Struct('>h')
_S2 = _struct.Struct('>iqqh')


class TopicData(Message):
    __slots__ = ('topic', 'partitions', '_unknown_tagged')
    _FIELDS = (('topic', 'string', 0, 32767, -1, -1, None, -1, None), ('partitions', '[]int32', 0, 32767, -1, -1, None, -1, None))

    def __init__(self, *, topic='', partitions=DEFAULT, _unknown_tagged=None):
        self.topic = topic
        self.partitions = [] if partitions is DEFAULT else partitions
        self._unknown_tagged = _unknown_tagged


class TransactionState(Message):
    __slots__ = ('error_code', 'transactional_id', 'transaction_state', 'transaction_timeout_ms', 'transaction_start_time_ms', 'producer_id', 'producer_epoch', 'topics', '_unknown_tagged')
    _FIELDS = (('error_code', 'int16', 0, 32767, -1, -1, None, -1, None), ('transactional_id', 'string', 0, 32767, -1, -1, None, -1, None), ('transaction_state', 'string', 0, 32767, -1, -1, None, -1, None), ('transaction_timeout_ms', 'int32', 0, 32767, -1, -1, None, -1, None), ('transaction_start_time_ms', 'int64', 0, 32767, -1, -1, None, -1, None), ('producer_id', 'int64', 0, 32767, -1, -1, None, -1, None), ('producer_epoch', 'int16', 0, 32767, -1, -1, None, -1, None), ('topics', '[]TopicData', 0, 32767, -1, -1, None, -1, 'TopicData'))

    def __init__(self, *, error_code=0, transactional_id='', transaction_state='', transaction_timeout_ms=0, transaction_start_time_ms=0, producer_id=0, producer_epoch=0, topics=DEFAULT, _unknown_tagged=None):
        self.error_code = error_code
        self.transactional_id = transactional_id
        self.transaction_state = transaction_state
        self.transaction_timeout_ms = transaction_timeout_ms
        self.transaction_start_time_ms = transaction_start_time_ms
        self.producer_id = producer_id
        self.producer_epoch = producer_epoch
        self.topics = [] if topics is DEFAULT else topics
        self._unknown_tagged = _unknown_tagged


class DescribeTransactionsResponse(Message):
    __slots__ = ('throttle_time_ms', 'transaction_states', '_unknown_tagged')
    _FIELDS = (('throttle_time_ms', 'int32', 0, 32767, -1, -1, None, -1, None), ('transaction_states', '[]TransactionState', 0, 32767, -1, -1, None, -1, 'TransactionState'))
    API_KEY = 65
    VALID_VERSIONS = (0, 0)
    FLEXIBLE_MIN = 0

    def __init__(self, *, throttle_time_ms=0, transaction_states=DEFAULT, _unknown_tagged=None):
        self.throttle_time_ms = throttle_time_ms
        self.transaction_states = [] if transaction_states is DEFAULT else transaction_states
        self._unknown_tagged = _unknown_tagged



def _d_TopicData_0(b, p):
    o = _new(TopicData)
    o.topic, p = _rcstr(b, p)
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


def _d_TransactionState_0(b, p):
    o = _new(TransactionState)
    o.error_code, = _S1.unpack_from(b, p)
    p += 2
    o.transactional_id, p = _rcstr(b, p)
    o.transaction_state, p = _rcstr(b, p)
    o.transaction_timeout_ms, o.transaction_start_time_ms, o.producer_id, o.producer_epoch = _S2.unpack_from(b, p)
    p += 22
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 3)
    l = []
    for _ in range(n):
        e, p = _d_TopicData_0(b, p)
        l.append(e)
    o.topics = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_DescribeTransactionsResponse_0(b, p):
    o = _new(DescribeTransactionsResponse)
    o.throttle_time_ms, = _S0.unpack_from(b, p)
    p += 4
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 28)
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


def _e_TopicData_0(o, w):
    _wcstr(w, o.topic)
    x = o.partitions
    w.append(_uv(len(x) + 1))
    w.append(_pack('>%di' % len(x), *x))
    _wtag(w, o._unknown_tagged)


def _e_TransactionState_0(o, w):
    w.append(_S1.pack(o.error_code))
    _wcstr(w, o.transactional_id)
    _wcstr(w, o.transaction_state)
    w.append(_S2.pack(o.transaction_timeout_ms, o.transaction_start_time_ms, o.producer_id, o.producer_epoch))
    x = o.topics
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_TopicData_0(e, w)
    _wtag(w, o._unknown_tagged)


def _e_DescribeTransactionsResponse_0(o, w):
    w.append(_S0.pack(o.throttle_time_ms))
    x = o.transaction_states
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_TransactionState_0(e, w)
    _wtag(w, o._unknown_tagged)


def _u_TransactionState_0(o, w, c):
    w.append(_S1.pack(o.error_code))
    _wcstr(w, o.transactional_id)
    _wcstr(w, o.transaction_state)
    w.append(_S2.pack(o.transaction_timeout_ms, o.transaction_start_time_ms, o.producer_id, o.producer_epoch))
    x = o.topics
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_TopicData_0(e, w)
        c += 1
        if c >= 1000:
            c = 0
            yield
    _wtag(w, o._unknown_tagged)
    return c


def _t_DescribeTransactionsResponse_0(o, w):
    c = 0
    w.append(_S0.pack(o.throttle_time_ms))
    x = o.transaction_states
    w.append(_uv(len(x) + 1))
    for e in x:
        c = yield from _u_TransactionState_0(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield
    _wtag(w, o._unknown_tagged)


DescribeTransactionsResponse._DECODERS = {0: _d_DescribeTransactionsResponse_0}
DescribeTransactionsResponse._ENCODERS = {0: _e_DescribeTransactionsResponse_0}
DescribeTransactionsResponse._ENCODE_STEPS = {0: _t_DescribeTransactionsResponse_0}
