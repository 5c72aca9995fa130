"""Generated from Kafka's TransactionLogValue.json by tools/gen_wire.py. Do not edit."""
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
_S1 = _struct.Struct('>h')
_S2 = _struct.Struct('>ib')
_S3 = _struct.Struct('>qq')
_S4 = _struct.Struct('>qhib')


class PartitionsSchema(Message):
    __slots__ = ('topic', 'partition_ids', '_unknown_tagged')
    _FIELDS = (('topic', 'string', 0, 32767, -1, -1, None, -1, None), ('partition_ids', '[]int32', 0, 32767, -1, -1, None, -1, None))

    def __init__(self, *, topic='', partition_ids=DEFAULT, _unknown_tagged=None):
        self.topic = topic
        self.partition_ids = [] if partition_ids is DEFAULT else partition_ids
        self._unknown_tagged = _unknown_tagged


class TransactionLogValue(Message):
    __slots__ = ('producer_id', 'previous_producer_id', 'next_producer_id', 'producer_epoch', 'next_producer_epoch', 'transaction_timeout_ms', 'transaction_status', 'transaction_partitions', 'transaction_last_update_timestamp_ms', 'transaction_start_timestamp_ms', 'client_transaction_version', '_unknown_tagged')
    _FIELDS = (('producer_id', 'int64', 0, 32767, -1, -1, None, -1, None), ('previous_producer_id', 'int64', 1, 32767, -1, -1, 0, 1, None), ('next_producer_id', 'int64', 1, 32767, -1, -1, 1, 1, None), ('producer_epoch', 'int16', 0, 32767, -1, -1, None, -1, None), ('next_producer_epoch', 'int16', 1, 32767, -1, -1, 3, 1, None), ('transaction_timeout_ms', 'int32', 0, 32767, -1, -1, None, -1, None), ('transaction_status', 'int8', 0, 32767, -1, -1, None, -1, None), ('transaction_partitions', '[]PartitionsSchema', 0, 32767, 0, 32767, None, -1, 'PartitionsSchema'), ('transaction_last_update_timestamp_ms', 'int64', 0, 32767, -1, -1, None, -1, None), ('transaction_start_timestamp_ms', 'int64', 0, 32767, -1, -1, None, -1, None), ('client_transaction_version', 'int16', 1, 32767, -1, -1, 2, 1, None))
    API_KEY = 0
    VALID_VERSIONS = (0, 1)
    FLEXIBLE_MIN = 1

    def __init__(self, *, producer_id=0, previous_producer_id=-1, next_producer_id=-1, producer_epoch=0, next_producer_epoch=-1, transaction_timeout_ms=0, transaction_status=0, transaction_partitions=DEFAULT, transaction_last_update_timestamp_ms=0, transaction_start_timestamp_ms=0, client_transaction_version=0, _unknown_tagged=None):
        self.producer_id = producer_id
        self.previous_producer_id = previous_producer_id
        self.next_producer_id = next_producer_id
        self.producer_epoch = producer_epoch
        self.next_producer_epoch = next_producer_epoch
        self.transaction_timeout_ms = transaction_timeout_ms
        self.transaction_status = transaction_status
        self.transaction_partitions = [] if transaction_partitions is DEFAULT else transaction_partitions
        self.transaction_last_update_timestamp_ms = transaction_last_update_timestamp_ms
        self.transaction_start_timestamp_ms = transaction_start_timestamp_ms
        self.client_transaction_version = client_transaction_version
        self._unknown_tagged = _unknown_tagged



def _d_PartitionsSchema_0(b, p):
    o = _new(PartitionsSchema)
    o.topic, p = _rstr(b, p)
    n, p = _ral(b, p, 4)
    l = list((_ARR['i'][n] if n < 64 else _struct.Struct('>%di' % n)).unpack_from(b, p))
    p += 4 * n
    o.partition_ids = l
    o._unknown_tagged = None
    return o, p


def _d_TransactionLogValue_0(b, p):
    o = _new(TransactionLogValue)
    o.producer_id, = _S0.unpack_from(b, p)
    p += 8
    o.previous_producer_id = -1
    o.next_producer_id = -1
    o.producer_epoch, = _S1.unpack_from(b, p)
    p += 2
    o.next_producer_epoch = -1
    o.transaction_timeout_ms, o.transaction_status = _S2.unpack_from(b, p)
    p += 5
    n, p = _rnal(b, p, 6)
    if n < 0:
        o.transaction_partitions = None
    else:
        l = []
        for _ in range(n):
            e, p = _d_PartitionsSchema_0(b, p)
            l.append(e)
        o.transaction_partitions = l
    o.transaction_last_update_timestamp_ms, o.transaction_start_timestamp_ms = _S3.unpack_from(b, p)
    p += 16
    o.client_transaction_version = 0
    o._unknown_tagged = None
    return o, p


def _e_PartitionsSchema_0(o, w):
    _wstr(w, o.topic)
    x = o.partition_ids
    w.append(_I(len(x)))
    w.append(_pack('>%di' % len(x), *x))


def _e_TransactionLogValue_0(o, w):
    w.append(_S4.pack(o.producer_id, o.producer_epoch, o.transaction_timeout_ms, o.transaction_status))
    x = o.transaction_partitions
    if x is None:
        w.append(b'\xff\xff\xff\xff')
    else:
        w.append(_I(len(x)))
        for e in x:
            _e_PartitionsSchema_0(e, w)
    w.append(_S3.pack(o.transaction_last_update_timestamp_ms, o.transaction_start_timestamp_ms))


def _d_PartitionsSchema_1(b, p):
    o = _new(PartitionsSchema)
    o.topic, p = _rcstr(b, p)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 4)
    l = list((_ARR['i'][n] if n < 64 else _struct.Struct('>%di' % n)).unpack_from(b, p))
    p += 4 * n
    o.partition_ids = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_TransactionLogValue_1(b, p):
    o = _new(TransactionLogValue)
    o.producer_id, = _S0.unpack_from(b, p)
    p += 8
    o.previous_producer_id = -1
    o.next_producer_id = -1
    o.producer_epoch, = _S1.unpack_from(b, p)
    p += 2
    o.next_producer_epoch = -1
    o.transaction_timeout_ms, o.transaction_status = _S2.unpack_from(b, p)
    p += 5
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcnal(b, p, 3)
    if n < 0:
        o.transaction_partitions = None
    else:
        l = []
        for _ in range(n):
            e, p = _d_PartitionsSchema_1(b, p)
            l.append(e)
        o.transaction_partitions = l
    o.transaction_last_update_timestamp_ms, o.transaction_start_timestamp_ms = _S3.unpack_from(b, p)
    p += 16
    o.client_transaction_version = 0
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    u = None
    if t is not None:
        for tag, raw in t:
            if tag == 0:
                q = 0
                o.previous_producer_id, = _S0.unpack_from(raw, q)
                q += 8
            elif tag == 1:
                q = 0
                o.next_producer_id, = _S0.unpack_from(raw, q)
                q += 8
            elif tag == 2:
                q = 0
                o.client_transaction_version, = _S1.unpack_from(raw, q)
                q += 2
            elif tag == 3:
                q = 0
                o.next_producer_epoch, = _S1.unpack_from(raw, q)
                q += 2
            else:
                if u is None: u = []
                u.append((tag, bytes(raw)))
    o._unknown_tagged = u
    return o, p


def _e_PartitionsSchema_1(o, w):
    _wcstr(w, o.topic)
    x = o.partition_ids
    w.append(_uv(len(x) + 1))
    w.append(_pack('>%di' % len(x), *x))
    _wtag(w, o._unknown_tagged)


def _e_TransactionLogValue_1(o, w):
    w.append(_S4.pack(o.producer_id, o.producer_epoch, o.transaction_timeout_ms, o.transaction_status))
    x = o.transaction_partitions
    if x is None:
        w.append(b'\x00')
    else:
        w.append(_uv(len(x) + 1))
        for e in x:
            _e_PartitionsSchema_1(e, w)
    w.append(_S3.pack(o.transaction_last_update_timestamp_ms, o.transaction_start_timestamp_ms))
    tg = []
    x = o.previous_producer_id
    if x != -1:
        tw = []
        tw.append(_S0.pack(x))
        tg.append((0, b''.join(tw)))
    x = o.next_producer_id
    if x != -1:
        tw = []
        tw.append(_S0.pack(x))
        tg.append((1, b''.join(tw)))
    x = o.client_transaction_version
    if x != 0:
        tw = []
        tw.append(_S1.pack(x))
        tg.append((2, b''.join(tw)))
    x = o.next_producer_epoch
    if x != -1:
        tw = []
        tw.append(_S1.pack(x))
        tg.append((3, b''.join(tw)))
    if o._unknown_tagged:
        tg = sorted(tg + o._unknown_tagged, key=_tagkey)
    _wtag(w, tg)


TransactionLogValue._DECODERS = {0: _d_TransactionLogValue_0, 1: _d_TransactionLogValue_1}
TransactionLogValue._ENCODERS = {0: _e_TransactionLogValue_0, 1: _e_TransactionLogValue_1}
