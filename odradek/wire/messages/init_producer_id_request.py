"""Generated from Kafka's InitProducerIdRequest.json by tools/gen_wire.py. Do not edit."""
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
_S1 = _struct.Struct('>iqh')
_S2 = _struct.Struct('>iqh??')


class InitProducerIdRequest(Message):
    __slots__ = ('transactional_id', 'transaction_timeout_ms', 'producer_id', 'producer_epoch', 'enable2_pc', 'keep_prepared_txn', '_unknown_tagged')
    _FIELDS = (('transactional_id', 'string', 0, 32767, 0, 32767, None, -1, None), ('transaction_timeout_ms', 'int32', 0, 32767, -1, -1, None, -1, None), ('producer_id', 'int64', 3, 32767, -1, -1, None, -1, None), ('producer_epoch', 'int16', 3, 32767, -1, -1, None, -1, None), ('enable2_pc', 'bool', 6, 32767, -1, -1, None, -1, None), ('keep_prepared_txn', 'bool', 6, 32767, -1, -1, None, -1, None))
    API_KEY = 22
    VALID_VERSIONS = (0, 6)
    FLEXIBLE_MIN = 2

    def __init__(self, *, transactional_id='', transaction_timeout_ms=0, producer_id=-1, producer_epoch=-1, enable2_pc=False, keep_prepared_txn=False, _unknown_tagged=None):
        self.transactional_id = transactional_id
        self.transaction_timeout_ms = transaction_timeout_ms
        self.producer_id = producer_id
        self.producer_epoch = producer_epoch
        self.enable2_pc = enable2_pc
        self.keep_prepared_txn = keep_prepared_txn
        self._unknown_tagged = _unknown_tagged



def _d_InitProducerIdRequest_0(b, p):
    o = _new(InitProducerIdRequest)
    o.transactional_id, p = _rnstr(b, p)
    o.transaction_timeout_ms, = _S0.unpack_from(b, p)
    p += 4
    o.producer_id = -1
    o.producer_epoch = -1
    o.enable2_pc = False
    o.keep_prepared_txn = False
    o._unknown_tagged = None
    return o, p


def _e_InitProducerIdRequest_0(o, w):
    _wnstr(w, o.transactional_id)
    w.append(_S0.pack(o.transaction_timeout_ms))


def _d_InitProducerIdRequest_1(b, p):
    o = _new(InitProducerIdRequest)
    o.transactional_id, p = _rcnstr(b, p)
    o.transaction_timeout_ms, = _S0.unpack_from(b, p)
    p += 4
    o.producer_id = -1
    o.producer_epoch = -1
    o.enable2_pc = False
    o.keep_prepared_txn = False
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_InitProducerIdRequest_1(o, w):
    _wcnstr(w, o.transactional_id)
    w.append(_S0.pack(o.transaction_timeout_ms))
    _wtag(w, o._unknown_tagged)


def _d_InitProducerIdRequest_2(b, p):
    o = _new(InitProducerIdRequest)
    o.transactional_id, p = _rcnstr(b, p)
    o.transaction_timeout_ms, o.producer_id, o.producer_epoch = _S1.unpack_from(b, p)
    p += 14
    o.enable2_pc = False
    o.keep_prepared_txn = False
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_InitProducerIdRequest_2(o, w):
    _wcnstr(w, o.transactional_id)
    w.append(_S1.pack(o.transaction_timeout_ms, o.producer_id, o.producer_epoch))
    _wtag(w, o._unknown_tagged)


def _d_InitProducerIdRequest_3(b, p):
    o = _new(InitProducerIdRequest)
    o.transactional_id, p = _rcnstr(b, p)
    o.transaction_timeout_ms, o.producer_id, o.producer_epoch, o.enable2_pc, o.keep_prepared_txn = _S2.unpack_from(b, p)
    p += 16
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_InitProducerIdRequest_3(o, w):
    _wcnstr(w, o.transactional_id)
    w.append(_S2.pack(o.transaction_timeout_ms, o.producer_id, o.producer_epoch, o.enable2_pc, o.keep_prepared_txn))
    _wtag(w, o._unknown_tagged)


InitProducerIdRequest._DECODERS = {0: _d_InitProducerIdRequest_0, 1: _d_InitProducerIdRequest_0, 2: _d_InitProducerIdRequest_1, 3: _d_InitProducerIdRequest_2, 4: _d_InitProducerIdRequest_2, 5: _d_InitProducerIdRequest_2, 6: _d_InitProducerIdRequest_3}
InitProducerIdRequest._ENCODERS = {0: _e_InitProducerIdRequest_0, 1: _e_InitProducerIdRequest_0, 2: _e_InitProducerIdRequest_1, 3: _e_InitProducerIdRequest_2, 4: _e_InitProducerIdRequest_2, 5: _e_InitProducerIdRequest_2, 6: _e_InitProducerIdRequest_3}
