"""Generated from Kafka's AddPartitionsToTxnResponse.json by tools/gen_wire.py. Do not edit."""
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
_S1 = _struct.Struct('>ih')


class AddPartitionsToTxnPartitionResult(Message):
    __slots__ = ('partition_index', 'partition_error_code', '_unknown_tagged')
    _FIELDS = (('partition_index', 'int32', 0, 32767, -1, -1, None, -1, None), ('partition_error_code', 'int16', 0, 32767, -1, -1, None, -1, None))

    def __init__(self, *, partition_index=0, partition_error_code=0, _unknown_tagged=None):
        self.partition_index = partition_index
        self.partition_error_code = partition_error_code
        self._unknown_tagged = _unknown_tagged


class AddPartitionsToTxnTopicResult(Message):
    __slots__ = ('name', 'results_by_partition', '_unknown_tagged')
    _FIELDS = (('name', 'string', 0, 32767, -1, -1, None, -1, None), ('results_by_partition', '[]AddPartitionsToTxnPartitionResult', 0, 32767, -1, -1, None, -1, 'AddPartitionsToTxnPartitionResult'))

    def __init__(self, *, name='', results_by_partition=DEFAULT, _unknown_tagged=None):
        self.name = name
        self.results_by_partition = [] if results_by_partition is DEFAULT else results_by_partition
        self._unknown_tagged = _unknown_tagged


class AddPartitionsToTxnResult(Message):
    __slots__ = ('transactional_id', 'topic_results', '_unknown_tagged')
    _FIELDS = (('transactional_id', 'string', 4, 32767, -1, -1, None, -1, None), ('topic_results', '[]AddPartitionsToTxnTopicResult', 4, 32767, -1, -1, None, -1, 'AddPartitionsToTxnTopicResult'))

    def __init__(self, *, transactional_id='', topic_results=DEFAULT, _unknown_tagged=None):
        self.transactional_id = transactional_id
        self.topic_results = [] if topic_results is DEFAULT else topic_results
        self._unknown_tagged = _unknown_tagged


class AddPartitionsToTxnResponse(Message):
    __slots__ = ('throttle_time_ms', 'error_code', 'results_by_transaction', 'results_by_topic_v3_and_below', '_unknown_tagged')
    _FIELDS = (('throttle_time_ms', 'int32', 0, 32767, -1, -1, None, -1, None), ('error_code', 'int16', 4, 32767, -1, -1, None, -1, None), ('results_by_transaction', '[]AddPartitionsToTxnResult', 4, 32767, -1, -1, None, -1, 'AddPartitionsToTxnResult'), ('results_by_topic_v3_and_below', '[]AddPartitionsToTxnTopicResult', 0, 3, -1, -1, None, -1, 'AddPartitionsToTxnTopicResult'))
    API_KEY = 24
    VALID_VERSIONS = (0, 5)
    FLEXIBLE_MIN = 3

    def __init__(self, *, throttle_time_ms=0, error_code=0, results_by_transaction=DEFAULT, results_by_topic_v3_and_below=DEFAULT, _unknown_tagged=None):
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.results_by_transaction = [] if results_by_transaction is DEFAULT else results_by_transaction
        self.results_by_topic_v3_and_below = [] if results_by_topic_v3_and_below is DEFAULT else results_by_topic_v3_and_below
        self._unknown_tagged = _unknown_tagged



def _d_AddPartitionsToTxnPartitionResult_0(b, p):
    o = _new(AddPartitionsToTxnPartitionResult)
    o.partition_index, o.partition_error_code = _S1.unpack_from(b, p)
    p += 6
    o._unknown_tagged = None
    return o, p


def _d_AddPartitionsToTxnTopicResult_0(b, p):
    o = _new(AddPartitionsToTxnTopicResult)
    o.name, p = _rstr(b, p)
    n, p = _ral(b, p, 6)
    l = []
    for _ in range(n):
        e, p = _d_AddPartitionsToTxnPartitionResult_0(b, p)
        l.append(e)
    o.results_by_partition = l
    o._unknown_tagged = None
    return o, p


def _d_AddPartitionsToTxnResponse_0(b, p):
    o = _new(AddPartitionsToTxnResponse)
    o.throttle_time_ms, = _S0.unpack_from(b, p)
    p += 4
    o.error_code = 0
    o.results_by_transaction = []
    n, p = _ral(b, p, 6)
    l = []
    for _ in range(n):
        e, p = _d_AddPartitionsToTxnTopicResult_0(b, p)
        l.append(e)
    o.results_by_topic_v3_and_below = l
    o._unknown_tagged = None
    return o, p


def _e_AddPartitionsToTxnPartitionResult_0(o, w):
    w.append(_S1.pack(o.partition_index, o.partition_error_code))


def _e_AddPartitionsToTxnTopicResult_0(o, w):
    _wstr(w, o.name)
    x = o.results_by_partition
    w.append(_I(len(x)))
    for e in x:
        _e_AddPartitionsToTxnPartitionResult_0(e, w)


def _e_AddPartitionsToTxnResponse_0(o, w):
    w.append(_S0.pack(o.throttle_time_ms))
    x = o.results_by_topic_v3_and_below
    w.append(_I(len(x)))
    for e in x:
        _e_AddPartitionsToTxnTopicResult_0(e, w)


def _u_AddPartitionsToTxnTopicResult_0(o, w, c):
    _wstr(w, o.name)
    x = o.results_by_partition
    w.append(_I(len(x)))
    for e in x:
        _e_AddPartitionsToTxnPartitionResult_0(e, w)
        c += 1
        if c >= 1000:
            c = 0
            yield
    return c


def _t_AddPartitionsToTxnResponse_0(o, w):
    c = 0
    w.append(_S0.pack(o.throttle_time_ms))
    x = o.results_by_topic_v3_and_below
    w.append(_I(len(x)))
    for e in x:
        c = yield from _u_AddPartitionsToTxnTopicResult_0(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield


def _d_AddPartitionsToTxnPartitionResult_1(b, p):
    o = _new(AddPartitionsToTxnPartitionResult)
    o.partition_index, o.partition_error_code = _S1.unpack_from(b, p)
    p += 6
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_AddPartitionsToTxnTopicResult_1(b, p):
    o = _new(AddPartitionsToTxnTopicResult)
    o.name, p = _rcstr(b, p)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 7)
    l = []
    for _ in range(n):
        e, p = _d_AddPartitionsToTxnPartitionResult_1(b, p)
        l.append(e)
    o.results_by_partition = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_AddPartitionsToTxnResponse_1(b, p):
    o = _new(AddPartitionsToTxnResponse)
    o.throttle_time_ms, = _S0.unpack_from(b, p)
    p += 4
    o.error_code = 0
    o.results_by_transaction = []
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 3)
    l = []
    for _ in range(n):
        e, p = _d_AddPartitionsToTxnTopicResult_1(b, p)
        l.append(e)
    o.results_by_topic_v3_and_below = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_AddPartitionsToTxnPartitionResult_1(o, w):
    w.append(_S1.pack(o.partition_index, o.partition_error_code))
    _wtag(w, o._unknown_tagged)


def _e_AddPartitionsToTxnTopicResult_1(o, w):
    _wcstr(w, o.name)
    x = o.results_by_partition
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_AddPartitionsToTxnPartitionResult_1(e, w)
    _wtag(w, o._unknown_tagged)


def _e_AddPartitionsToTxnResponse_1(o, w):
    w.append(_S0.pack(o.throttle_time_ms))
    x = o.results_by_topic_v3_and_below
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_AddPartitionsToTxnTopicResult_1(e, w)
    _wtag(w, o._unknown_tagged)


def _u_AddPartitionsToTxnTopicResult_1(o, w, c):
    _wcstr(w, o.name)
    x = o.results_by_partition
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_AddPartitionsToTxnPartitionResult_1(e, w)
        c += 1
        if c >= 1000:
            c = 0
            yield
    _wtag(w, o._unknown_tagged)
    return c


def _t_AddPartitionsToTxnResponse_1(o, w):
    c = 0
    w.append(_S0.pack(o.throttle_time_ms))
    x = o.results_by_topic_v3_and_below
    w.append(_uv(len(x) + 1))
    for e in x:
        c = yield from _u_AddPartitionsToTxnTopicResult_1(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield
    _wtag(w, o._unknown_tagged)


def _d_AddPartitionsToTxnResult_0(b, p):
    o = _new(AddPartitionsToTxnResult)
    o.transactional_id, p = _rcstr(b, p)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 3)
    l = []
    for _ in range(n):
        e, p = _d_AddPartitionsToTxnTopicResult_1(b, p)
        l.append(e)
    o.topic_results = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_AddPartitionsToTxnResponse_2(b, p):
    o = _new(AddPartitionsToTxnResponse)
    o.throttle_time_ms, o.error_code = _S1.unpack_from(b, p)
    p += 6
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 3)
    l = []
    for _ in range(n):
        e, p = _d_AddPartitionsToTxnResult_0(b, p)
        l.append(e)
    o.results_by_transaction = l
    o.results_by_topic_v3_and_below = []
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_AddPartitionsToTxnResult_0(o, w):
    _wcstr(w, o.transactional_id)
    x = o.topic_results
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_AddPartitionsToTxnTopicResult_1(e, w)
    _wtag(w, o._unknown_tagged)


def _e_AddPartitionsToTxnResponse_2(o, w):
    w.append(_S1.pack(o.throttle_time_ms, o.error_code))
    x = o.results_by_transaction
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_AddPartitionsToTxnResult_0(e, w)
    _wtag(w, o._unknown_tagged)


def _u_AddPartitionsToTxnResult_0(o, w, c):
    _wcstr(w, o.transactional_id)
    x = o.topic_results
    w.append(_uv(len(x) + 1))
    for e in x:
        c = yield from _u_AddPartitionsToTxnTopicResult_1(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield
    _wtag(w, o._unknown_tagged)
    return c


def _t_AddPartitionsToTxnResponse_2(o, w):
    c = 0
    w.append(_S1.pack(o.throttle_time_ms, o.error_code))
    x = o.results_by_transaction
    w.append(_uv(len(x) + 1))
    for e in x:
        c = yield from _u_AddPartitionsToTxnResult_0(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield
    _wtag(w, o._unknown_tagged)


AddPartitionsToTxnResponse._DECODERS = {0: _d_AddPartitionsToTxnResponse_0, 1: _d_AddPartitionsToTxnResponse_0, 2: _d_AddPartitionsToTxnResponse_0, 3: _d_AddPartitionsToTxnResponse_1, 4: _d_AddPartitionsToTxnResponse_2, 5: _d_AddPartitionsToTxnResponse_2}
AddPartitionsToTxnResponse._ENCODERS = {0: _e_AddPartitionsToTxnResponse_0, 1: _e_AddPartitionsToTxnResponse_0, 2: _e_AddPartitionsToTxnResponse_0, 3: _e_AddPartitionsToTxnResponse_1, 4: _e_AddPartitionsToTxnResponse_2, 5: _e_AddPartitionsToTxnResponse_2}
AddPartitionsToTxnResponse._ENCODE_STEPS = {0: _t_AddPartitionsToTxnResponse_0, 1: _t_AddPartitionsToTxnResponse_0, 2: _t_AddPartitionsToTxnResponse_0, 3: _t_AddPartitionsToTxnResponse_1, 4: _t_AddPartitionsToTxnResponse_2, 5: _t_AddPartitionsToTxnResponse_2}
