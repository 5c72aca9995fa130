"""Generated from Kafka's ShareGroupDescribeRequest.json by tools/gen_wire.py. Do not edit."""
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

_S0 = _struct.Struct('>?')


class ShareGroupDescribeRequest(Message):
    __slots__ = ('group_ids', 'include_authorized_operations', '_unknown_tagged')
    _FIELDS = (('group_ids', '[]string', 0, 32767, -1, -1, None, -1, None), ('include_authorized_operations', 'bool', 0, 32767, -1, -1, None, -1, None))
    API_KEY = 77
    VALID_VERSIONS = (1, 1)
    FLEXIBLE_MIN = 0

    def __init__(self, *, group_ids=DEFAULT, include_authorized_operations=False, _unknown_tagged=None):
        self.group_ids = [] if group_ids is DEFAULT else group_ids
        self.include_authorized_operations = include_authorized_operations
        self._unknown_tagged = _unknown_tagged



def _s_ShareGroupDescribeRequest_0(b, p):
    o = _new(ShareGroupDescribeRequest)
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
    o.group_ids = l
    o.include_authorized_operations, = _S0.unpack_from(b, p)
    p += 1
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_ShareGroupDescribeRequest_0(o, w):
    x = o.group_ids
    w.append(_uv(len(x) + 1))
    for e in x:
        _wcstr(w, e)
    w.append(_S0.pack(o.include_authorized_operations))
    _wtag(w, o._unknown_tagged)


_d_s_ShareGroupDescribeRequest_0 = _whole(_s_ShareGroupDescribeRequest_0)
ShareGroupDescribeRequest._STEPS = {1: _s_ShareGroupDescribeRequest_0}
ShareGroupDescribeRequest._DECODERS = {1: _d_s_ShareGroupDescribeRequest_0}
ShareGroupDescribeRequest._ENCODERS = {1: _e_ShareGroupDescribeRequest_0}
