"""Generated from Kafka's StreamsGroupTargetAssignmentMetadataValue.json by tools/gen_wire.py. Do not edit."""
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
_S1 = _struct.Struct('>q')


class StreamsGroupTargetAssignmentMetadataValue(Message):
    __slots__ = ('assignment_epoch', 'assignment_timestamp', '_unknown_tagged')
    _FIELDS = (('assignment_epoch', 'int32', 0, 32767, -1, -1, None, -1, None), ('assignment_timestamp', 'int64', 0, 32767, -1, -1, 0, 0, None))
    API_KEY = 20
    VALID_VERSIONS = (0, 0)
    FLEXIBLE_MIN = 0

    def __init__(self, *, assignment_epoch=0, assignment_timestamp=0, _unknown_tagged=None):
        self.assignment_epoch = assignment_epoch
        self.assignment_timestamp = assignment_timestamp
        self._unknown_tagged = _unknown_tagged



def _d_StreamsGroupTargetAssignmentMetadataValue_0(b, p):
    o = _new(StreamsGroupTargetAssignmentMetadataValue)
    o.assignment_epoch, = _S0.unpack_from(b, p)
    p += 4
    o.assignment_timestamp = 0
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
                o.assignment_timestamp, = _S1.unpack_from(raw, q)
                q += 8
            else:
                if u is None: u = []
                u.append((tag, bytes(raw)))
    o._unknown_tagged = u
    return o, p


def _e_StreamsGroupTargetAssignmentMetadataValue_0(o, w):
    w.append(_S0.pack(o.assignment_epoch))
    tg = []
    x = o.assignment_timestamp
    if x != 0:
        tw = []
        tw.append(_S1.pack(x))
        tg.append((0, b''.join(tw)))
    if o._unknown_tagged:
        tg = sorted(tg + o._unknown_tagged, key=_tagkey)
    _wtag(w, tg)


StreamsGroupTargetAssignmentMetadataValue._DECODERS = {0: _d_StreamsGroupTargetAssignmentMetadataValue_0}
StreamsGroupTargetAssignmentMetadataValue._ENCODERS = {0: _e_StreamsGroupTargetAssignmentMetadataValue_0}
