"""Generated from Kafka's DeleteGroupsRequest.json by tools/gen_wire.py. Do not edit."""
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



class DeleteGroupsRequest(Message):
    __slots__ = ('groups_names', '_unknown_tagged')
    _FIELDS = (('groups_names', '[]string', 0, 32767, -1, -1, None, -1, None),)
    API_KEY = 42
    VALID_VERSIONS = (0, 2)
    FLEXIBLE_MIN = 2

    def __init__(self, *, groups_names=DEFAULT, _unknown_tagged=None):
        self.groups_names = [] if groups_names is DEFAULT else groups_names
        self._unknown_tagged = _unknown_tagged



def _s_DeleteGroupsRequest_0(b, p):
    o = _new(DeleteGroupsRequest)
    n, p = _ral(b, p, 2)
    y = p + 16384
    l = []
    for _ in range(n):
        e, p = _rstr(b, p)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.groups_names = l
    o._unknown_tagged = None
    return o, p


def _e_DeleteGroupsRequest_0(o, w):
    x = o.groups_names
    w.append(_I(len(x)))
    for e in x:
        _wstr(w, e)


def _s_DeleteGroupsRequest_1(b, p):
    o = _new(DeleteGroupsRequest)
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
    o.groups_names = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_DeleteGroupsRequest_1(o, w):
    x = o.groups_names
    w.append(_uv(len(x) + 1))
    for e in x:
        _wcstr(w, e)
    _wtag(w, o._unknown_tagged)


_d_s_DeleteGroupsRequest_0 = _whole(_s_DeleteGroupsRequest_0)
_d_s_DeleteGroupsRequest_1 = _whole(_s_DeleteGroupsRequest_1)
DeleteGroupsRequest._STEPS = {0: _s_DeleteGroupsRequest_0, 1: _s_DeleteGroupsRequest_0, 2: _s_DeleteGroupsRequest_1}
DeleteGroupsRequest._DECODERS = {0: _d_s_DeleteGroupsRequest_0, 1: _d_s_DeleteGroupsRequest_0, 2: _d_s_DeleteGroupsRequest_1}
DeleteGroupsRequest._ENCODERS = {0: _e_DeleteGroupsRequest_0, 1: _e_DeleteGroupsRequest_0, 2: _e_DeleteGroupsRequest_1}
