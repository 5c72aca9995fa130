"""Generated from Kafka's EndTxnMarker.json by tools/gen_wire.py. Do not edit."""
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


class EndTxnMarker(Message):
    __slots__ = ('coordinator_epoch', '_unknown_tagged')
    _FIELDS = (('coordinator_epoch', 'int32', 0, 32767, -1, -1, None, -1, None),)
    API_KEY = None
    VALID_VERSIONS = (0, 0)
    FLEXIBLE_MIN = None

    def __init__(self, *, coordinator_epoch=0, _unknown_tagged=None):
        self.coordinator_epoch = coordinator_epoch
        self._unknown_tagged = _unknown_tagged



def _d_EndTxnMarker_0(b, p):
    o = _new(EndTxnMarker)
    o.coordinator_epoch, = _S0.unpack_from(b, p)
    p += 4
    o._unknown_tagged = None
    return o, p


def _e_EndTxnMarker_0(o, w):
    w.append(_S0.pack(o.coordinator_epoch))


EndTxnMarker._DECODERS = {0: _d_EndTxnMarker_0}
EndTxnMarker._ENCODERS = {0: _e_EndTxnMarker_0}
