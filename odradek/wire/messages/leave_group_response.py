"""Generated from Kafka's LeaveGroupResponse.json by tools/gen_wire.py. Do not edit."""
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

_S0 = _struct.Struct('>h')
_S1 = _struct.Struct('>ih')


class MemberResponse(Message):
    __slots__ = ('member_id', 'group_instance_id', 'error_code', '_unknown_tagged')
    _FIELDS = (('member_id', 'string', 3, 32767, -1, -1, None, -1, None), ('group_instance_id', 'string', 3, 32767, 3, 32767, None, -1, None), ('error_code', 'int16', 3, 32767, -1, -1, None, -1, None))

    def __init__(self, *, member_id='', group_instance_id='', error_code=0, _unknown_tagged=None):
        self.member_id = member_id
        self.group_instance_id = group_instance_id
        self.error_code = error_code
        self._unknown_tagged = _unknown_tagged


class LeaveGroupResponse(Message):
    __slots__ = ('throttle_time_ms', 'error_code', 'members', '_unknown_tagged')
    _FIELDS = (('throttle_time_ms', 'int32', 1, 32767, -1, -1, None, -1, None), ('error_code', 'int16', 0, 32767, -1, -1, None, -1, None), ('members', '[]MemberResponse', 3, 32767, -1, -1, None, -1, 'MemberResponse'))
    API_KEY = 13
    VALID_VERSIONS = (0, 5)
    FLEXIBLE_MIN = 4

    def __init__(self, *, throttle_time_ms=0, error_code=0, members=DEFAULT, _unknown_tagged=None):
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.members = [] if members is DEFAULT else members
        self._unknown_tagged = _unknown_tagged



def _d_LeaveGroupResponse_0(b, p):
    o = _new(LeaveGroupResponse)
    o.throttle_time_ms = 0
    o.error_code, = _S0.unpack_from(b, p)
    p += 2
    o.members = []
    o._unknown_tagged = None
    return o, p


def _e_LeaveGroupResponse_0(o, w):
    w.append(_S0.pack(o.error_code))


def _d_LeaveGroupResponse_1(b, p):
    o = _new(LeaveGroupResponse)
    o.throttle_time_ms, o.error_code = _S1.unpack_from(b, p)
    p += 6
    o.members = []
    o._unknown_tagged = None
    return o, p


def _e_LeaveGroupResponse_1(o, w):
    w.append(_S1.pack(o.throttle_time_ms, o.error_code))


def _d_MemberResponse_0(b, p):
    o = _new(MemberResponse)
    o.member_id, p = _rstr(b, p)
    o.group_instance_id, p = _rnstr(b, p)
    o.error_code, = _S0.unpack_from(b, p)
    p += 2
    o._unknown_tagged = None
    return o, p


def _d_LeaveGroupResponse_2(b, p):
    o = _new(LeaveGroupResponse)
    o.throttle_time_ms, o.error_code = _S1.unpack_from(b, p)
    p += 6
    n, p = _ral(b, p, 6)
    l = []
    for _ in range(n):
        e, p = _d_MemberResponse_0(b, p)
        l.append(e)
    o.members = l
    o._unknown_tagged = None
    return o, p


def _e_MemberResponse_0(o, w):
    _wstr(w, o.member_id)
    _wnstr(w, o.group_instance_id)
    w.append(_S0.pack(o.error_code))


def _e_LeaveGroupResponse_2(o, w):
    w.append(_S1.pack(o.throttle_time_ms, o.error_code))
    x = o.members
    w.append(_I(len(x)))
    for e in x:
        _e_MemberResponse_0(e, w)


def _t_LeaveGroupResponse_0(o, w):
    c = 0
    w.append(_S1.pack(o.throttle_time_ms, o.error_code))
    x = o.members
    w.append(_I(len(x)))
    for e in x:
        _e_MemberResponse_0(e, w)
        c += 1
        if c >= 1000:
            c = 0
            yield


def _d_MemberResponse_1(b, p):
    o = _new(MemberResponse)
    o.member_id, p = _rcstr(b, p)
    o.group_instance_id, p = _rcnstr(b, p)
    o.error_code, = _S0.unpack_from(b, p)
    p += 2
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_LeaveGroupResponse_3(b, p):
    o = _new(LeaveGroupResponse)
    o.throttle_time_ms, o.error_code = _S1.unpack_from(b, p)
    p += 6
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 5)
    l = []
    for _ in range(n):
        e, p = _d_MemberResponse_1(b, p)
        l.append(e)
    o.members = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_MemberResponse_1(o, w):
    _wcstr(w, o.member_id)
    _wcnstr(w, o.group_instance_id)
    w.append(_S0.pack(o.error_code))
    _wtag(w, o._unknown_tagged)


def _e_LeaveGroupResponse_3(o, w):
    w.append(_S1.pack(o.throttle_time_ms, o.error_code))
    x = o.members
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_MemberResponse_1(e, w)
    _wtag(w, o._unknown_tagged)


def _t_LeaveGroupResponse_1(o, w):
    c = 0
    w.append(_S1.pack(o.throttle_time_ms, o.error_code))
    x = o.members
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_MemberResponse_1(e, w)
        c += 1
        if c >= 1000:
            c = 0
            yield
    _wtag(w, o._unknown_tagged)


LeaveGroupResponse._DECODERS = {0: _d_LeaveGroupResponse_0, 1: _d_LeaveGroupResponse_1, 2: _d_LeaveGroupResponse_1, 3: _d_LeaveGroupResponse_2, 4: _d_LeaveGroupResponse_3, 5: _d_LeaveGroupResponse_3}
LeaveGroupResponse._ENCODERS = {0: _e_LeaveGroupResponse_0, 1: _e_LeaveGroupResponse_1, 2: _e_LeaveGroupResponse_1, 3: _e_LeaveGroupResponse_2, 4: _e_LeaveGroupResponse_3, 5: _e_LeaveGroupResponse_3}
LeaveGroupResponse._ENCODE_STEPS = {3: _t_LeaveGroupResponse_0, 4: _t_LeaveGroupResponse_1, 5: _t_LeaveGroupResponse_1}
