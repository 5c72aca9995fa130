"""Generated from Kafka's AddOffsetsToTxnRequest.json by tools/gen_wire.py. Do not edit."""
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

_S0 = _struct.Struct('>qh')


class AddOffsetsToTxnRequest(Message):
    __slots__ = ('transactional_id', 'producer_id', 'producer_epoch', 'group_id', '_unknown_tagged')
    _FIELDS = (('transactional_id', 'string', 0, 32767, -1, -1, None, -1, None), ('producer_id', 'int64', 0, 32767, -1, -1, None, -1, None), ('producer_epoch', 'int16', 0, 32767, -1, -1, None, -1, None), ('group_id', 'string', 0, 32767, -1, -1, None, -1, None))
    API_KEY = 25
    VALID_VERSIONS = (0, 4)
    FLEXIBLE_MIN = 3

    def __init__(self, *, transactional_id='', producer_id=0, producer_epoch=0, group_id='', _unknown_tagged=None):
        self.transactional_id = transactional_id
        self.producer_id = producer_id
        self.producer_epoch = producer_epoch
        self.group_id = group_id
        self._unknown_tagged = _unknown_tagged



def _d_AddOffsetsToTxnRequest_0(b, p):
    o = _new(AddOffsetsToTxnRequest)
    o.transactional_id, p = _rstr(b, p)
    o.producer_id, o.producer_epoch = _S0.unpack_from(b, p)
    p += 10
    o.group_id, p = _rstr(b, p)
    o._unknown_tagged = None
    return o, p


def _e_AddOffsetsToTxnRequest_0(o, w):
    _wstr(w, o.transactional_id)
    w.append(_S0.pack(o.producer_id, o.producer_epoch))
    _wstr(w, o.group_id)


def _d_AddOffsetsToTxnRequest_1(b, p):
    o = _new(AddOffsetsToTxnRequest)
    o.transactional_id, p = _rcstr(b, p)
    o.producer_id, o.producer_epoch = _S0.unpack_from(b, p)
    p += 10
    o.group_id, p = _rcstr(b, p)
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_AddOffsetsToTxnRequest_1(o, w):
    _wcstr(w, o.transactional_id)
    w.append(_S0.pack(o.producer_id, o.producer_epoch))
    _wcstr(w, o.group_id)
    _wtag(w, o._unknown_tagged)


AddOffsetsToTxnRequest._DECODERS = {0: _d_AddOffsetsToTxnRequest_0, 1: _d_AddOffsetsToTxnRequest_0, 2: _d_AddOffsetsToTxnRequest_0, 3: _d_AddOffsetsToTxnRequest_1, 4: _d_AddOffsetsToTxnRequest_1}
AddOffsetsToTxnRequest._ENCODERS = {0: _e_AddOffsetsToTxnRequest_0, 1: _e_AddOffsetsToTxnRequest_0, 2: _e_AddOffsetsToTxnRequest_0, 3: _e_AddOffsetsToTxnRequest_1, 4: _e_AddOffsetsToTxnRequest_1}
