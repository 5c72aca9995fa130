"""Generated from Kafka's AddPartitionsToTxnRequest.json by tools/gen_wire.py. Do not edit."""
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

_S0 = _struct.Struct('>qh')
_S1 = _struct.Struct('>qh?')


class AddPartitionsToTxnTopic(Message):
    __slots__ = ('name', 'partitions', '_unknown_tagged')
    _FIELDS = (('name', 'string', 0, 32767, -1, -1, None, -1, None), ('partitions', '[]int32', 0, 32767, -1, -1, None, -1, None))

    def __init__(self, *, name='', partitions=DEFAULT, _unknown_tagged=None):
        self.name = name
        self.partitions = [] if partitions is DEFAULT else partitions
        self._unknown_tagged = _unknown_tagged


class AddPartitionsToTxnTransaction(Message):
    __slots__ = ('transactional_id', 'producer_id', 'producer_epoch', 'verify_only', 'topics', '_unknown_tagged')
    _FIELDS = (('transactional_id', 'string', 4, 32767, -1, -1, None, -1, None), ('producer_id', 'int64', 4, 32767, -1, -1, None, -1, None), ('producer_epoch', 'int16', 4, 32767, -1, -1, None, -1, None), ('verify_only', 'bool', 4, 32767, -1, -1, None, -1, None), ('topics', '[]AddPartitionsToTxnTopic', 4, 32767, -1, -1, None, -1, 'AddPartitionsToTxnTopic'))

    def __init__(self, *, transactional_id='', producer_id=0, producer_epoch=0, verify_only=False, topics=DEFAULT, _unknown_tagged=None):
        self.transactional_id = transactional_id
        self.producer_id = producer_id
        self.producer_epoch = producer_epoch
        self.verify_only = verify_only
        self.topics = [] if topics is DEFAULT else topics
        self._unknown_tagged = _unknown_tagged


class AddPartitionsToTxnRequest(Message):
    __slots__ = ('transactions', 'v3_and_below_transactional_id', 'v3_and_below_producer_id', 'v3_and_below_producer_epoch', 'v3_and_below_topics', '_unknown_tagged')
    _FIELDS = (('transactions', '[]AddPartitionsToTxnTransaction', 4, 32767, -1, -1, None, -1, 'AddPartitionsToTxnTransaction'), ('v3_and_below_transactional_id', 'string', 0, 3, -1, -1, None, -1, None), ('v3_and_below_producer_id', 'int64', 0, 3, -1, -1, None, -1, None), ('v3_and_below_producer_epoch', 'int16', 0, 3, -1, -1, None, -1, None), ('v3_and_below_topics', '[]AddPartitionsToTxnTopic', 0, 3, -1, -1, None, -1, 'AddPartitionsToTxnTopic'))
    API_KEY = 24
    VALID_VERSIONS = (0, 5)
    FLEXIBLE_MIN = 3

    def __init__(self, *, transactions=DEFAULT, v3_and_below_transactional_id='', v3_and_below_producer_id=0, v3_and_below_producer_epoch=0, v3_and_below_topics=DEFAULT, _unknown_tagged=None):
        self.transactions = [] if transactions is DEFAULT else transactions
        self.v3_and_below_transactional_id = v3_and_below_transactional_id
        self.v3_and_below_producer_id = v3_and_below_producer_id
        self.v3_and_below_producer_epoch = v3_and_below_producer_epoch
        self.v3_and_below_topics = [] if v3_and_below_topics is DEFAULT else v3_and_below_topics
        self._unknown_tagged = _unknown_tagged



def _d_AddPartitionsToTxnTopic_0(b, p):
    o = _new(AddPartitionsToTxnTopic)
    o.name, p = _rstr(b, p)
    n, p = _ral(b, p, 4)
    l = list((_ARR['i'][n] if n < 64 else _struct.Struct('>%di' % n)).unpack_from(b, p))
    p += 4 * n
    o.partitions = l
    o._unknown_tagged = None
    return o, p


def _s_AddPartitionsToTxnRequest_0(b, p):
    o = _new(AddPartitionsToTxnRequest)
    o.transactions = []
    o.v3_and_below_transactional_id, p = _rstr(b, p)
    o.v3_and_below_producer_id, o.v3_and_below_producer_epoch = _S0.unpack_from(b, p)
    p += 10
    n, p = _ral(b, p, 6)
    y = p + 16384
    l = []
    for _ in range(n):
        e, p = _d_AddPartitionsToTxnTopic_0(b, p)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.v3_and_below_topics = l
    o._unknown_tagged = None
    return o, p


def _e_AddPartitionsToTxnTopic_0(o, w):
    _wstr(w, o.name)
    x = o.partitions
    w.append(_I(len(x)))
    w.append(_pack('>%di' % len(x), *x))


def _e_AddPartitionsToTxnRequest_0(o, w):
    _wstr(w, o.v3_and_below_transactional_id)
    w.append(_S0.pack(o.v3_and_below_producer_id, o.v3_and_below_producer_epoch))
    x = o.v3_and_below_topics
    w.append(_I(len(x)))
    for e in x:
        _e_AddPartitionsToTxnTopic_0(e, w)


def _d_AddPartitionsToTxnTopic_1(b, p):
    o = _new(AddPartitionsToTxnTopic)
    o.name, p = _rcstr(b, p)
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


def _s_AddPartitionsToTxnRequest_1(b, p):
    o = _new(AddPartitionsToTxnRequest)
    o.transactions = []
    o.v3_and_below_transactional_id, p = _rcstr(b, p)
    o.v3_and_below_producer_id, o.v3_and_below_producer_epoch = _S0.unpack_from(b, p)
    p += 10
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 3)
    y = p + 16384
    l = []
    for _ in range(n):
        e, p = _d_AddPartitionsToTxnTopic_1(b, p)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.v3_and_below_topics = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_AddPartitionsToTxnTopic_1(o, w):
    _wcstr(w, o.name)
    x = o.partitions
    w.append(_uv(len(x) + 1))
    w.append(_pack('>%di' % len(x), *x))
    _wtag(w, o._unknown_tagged)


def _e_AddPartitionsToTxnRequest_1(o, w):
    _wcstr(w, o.v3_and_below_transactional_id)
    w.append(_S0.pack(o.v3_and_below_producer_id, o.v3_and_below_producer_epoch))
    x = o.v3_and_below_topics
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_AddPartitionsToTxnTopic_1(e, w)
    _wtag(w, o._unknown_tagged)


def _n_AddPartitionsToTxnTransaction_0(b, p, y):
    o = _new(AddPartitionsToTxnTransaction)
    o.transactional_id, p = _rcstr(b, p)
    o.producer_id, o.producer_epoch, o.verify_only = _S1.unpack_from(b, p)
    p += 11
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 3)
    l = []
    for _ in range(n):
        e, p = _d_AddPartitionsToTxnTopic_1(b, p)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.topics = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p, y


def _s_AddPartitionsToTxnRequest_2(b, p):
    o = _new(AddPartitionsToTxnRequest)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 14)
    y = p + 16384
    l = []
    for _ in range(n):
        e, p, y = yield from _n_AddPartitionsToTxnTransaction_0(b, p, y)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.transactions = l
    o.v3_and_below_transactional_id = ''
    o.v3_and_below_producer_id = 0
    o.v3_and_below_producer_epoch = 0
    o.v3_and_below_topics = []
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_AddPartitionsToTxnTransaction_0(o, w):
    _wcstr(w, o.transactional_id)
    w.append(_S1.pack(o.producer_id, o.producer_epoch, o.verify_only))
    x = o.topics
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_AddPartitionsToTxnTopic_1(e, w)
    _wtag(w, o._unknown_tagged)


def _e_AddPartitionsToTxnRequest_2(o, w):
    x = o.transactions
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_AddPartitionsToTxnTransaction_0(e, w)
    _wtag(w, o._unknown_tagged)


_d_s_AddPartitionsToTxnRequest_0 = _whole(_s_AddPartitionsToTxnRequest_0)
_d_s_AddPartitionsToTxnRequest_1 = _whole(_s_AddPartitionsToTxnRequest_1)
_d_s_AddPartitionsToTxnRequest_2 = _whole(_s_AddPartitionsToTxnRequest_2)
AddPartitionsToTxnRequest._STEPS = {0: _s_AddPartitionsToTxnRequest_0, 1: _s_AddPartitionsToTxnRequest_0, 2: _s_AddPartitionsToTxnRequest_0, 3: _s_AddPartitionsToTxnRequest_1, 4: _s_AddPartitionsToTxnRequest_2, 5: _s_AddPartitionsToTxnRequest_2}
AddPartitionsToTxnRequest._DECODERS = {0: _d_s_AddPartitionsToTxnRequest_0, 1: _d_s_AddPartitionsToTxnRequest_0, 2: _d_s_AddPartitionsToTxnRequest_0, 3: _d_s_AddPartitionsToTxnRequest_1, 4: _d_s_AddPartitionsToTxnRequest_2, 5: _d_s_AddPartitionsToTxnRequest_2}
AddPartitionsToTxnRequest._ENCODERS = {0: _e_AddPartitionsToTxnRequest_0, 1: _e_AddPartitionsToTxnRequest_0, 2: _e_AddPartitionsToTxnRequest_0, 3: _e_AddPartitionsToTxnRequest_1, 4: _e_AddPartitionsToTxnRequest_2, 5: _e_AddPartitionsToTxnRequest_2}
