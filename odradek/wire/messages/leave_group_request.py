"""Generated from Kafka's LeaveGroupRequest.json by tools/gen_wire.py. Do not edit."""
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



class MemberIdentity(Message):
    __slots__ = ('member_id', 'group_instance_id', 'reason', '_unknown_tagged')
    _FIELDS = (('member_id', 'string', 3, 32767, -1, -1, None, -1, None), ('group_instance_id', 'string', 3, 32767, 3, 32767, None, -1, None), ('reason', 'string', 5, 32767, 5, 32767, None, -1, None))

    def __init__(self, *, member_id='', group_instance_id=None, reason=None, _unknown_tagged=None):
        self.member_id = member_id
        self.group_instance_id = group_instance_id
        self.reason = reason
        self._unknown_tagged = _unknown_tagged


class LeaveGroupRequest(Message):
    __slots__ = ('group_id', 'member_id', 'members', '_unknown_tagged')
    _FIELDS = (('group_id', 'string', 0, 32767, -1, -1, None, -1, None), ('member_id', 'string', 0, 2, -1, -1, None, -1, None), ('members', '[]MemberIdentity', 3, 32767, -1, -1, None, -1, 'MemberIdentity'))
    API_KEY = 13
    VALID_VERSIONS = (0, 5)
    FLEXIBLE_MIN = 4

    def __init__(self, *, group_id='', member_id='', members=DEFAULT, _unknown_tagged=None):
        self.group_id = group_id
        self.member_id = member_id
        self.members = [] if members is DEFAULT else members
        self._unknown_tagged = _unknown_tagged



def _d_LeaveGroupRequest_0(b, p):
    o = _new(LeaveGroupRequest)
    o.group_id, p = _rstr(b, p)
    o.member_id, p = _rstr(b, p)
    o.members = []
    o._unknown_tagged = None
    return o, p


def _e_LeaveGroupRequest_0(o, w):
    _wstr(w, o.group_id)
    _wstr(w, o.member_id)


def _d_MemberIdentity_0(b, p):
    o = _new(MemberIdentity)
    o.member_id, p = _rstr(b, p)
    o.group_instance_id, p = _rnstr(b, p)
    o.reason = None
    o._unknown_tagged = None
    return o, p


def _s_LeaveGroupRequest_0(b, p):
    o = _new(LeaveGroupRequest)
    o.group_id, p = _rstr(b, p)
    o.member_id = ''
    n, p = _ral(b, p, 4)
    y = p + 16384
    l = []
    for _ in range(n):
        e, p = _d_MemberIdentity_0(b, p)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.members = l
    o._unknown_tagged = None
    return o, p


def _e_MemberIdentity_0(o, w):
    _wstr(w, o.member_id)
    _wnstr(w, o.group_instance_id)


def _e_LeaveGroupRequest_1(o, w):
    _wstr(w, o.group_id)
    x = o.members
    w.append(_I(len(x)))
    for e in x:
        _e_MemberIdentity_0(e, w)


def _d_MemberIdentity_1(b, p):
    o = _new(MemberIdentity)
    o.member_id, p = _rcstr(b, p)
    o.group_instance_id, p = _rcnstr(b, p)
    o.reason = None
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _s_LeaveGroupRequest_1(b, p):
    o = _new(LeaveGroupRequest)
    o.group_id, p = _rcstr(b, p)
    o.member_id = ''
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 3)
    y = p + 16384
    l = []
    for _ in range(n):
        e, p = _d_MemberIdentity_1(b, p)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.members = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_MemberIdentity_1(o, w):
    _wcstr(w, o.member_id)
    _wcnstr(w, o.group_instance_id)
    _wtag(w, o._unknown_tagged)


def _e_LeaveGroupRequest_2(o, w):
    _wcstr(w, o.group_id)
    x = o.members
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_MemberIdentity_1(e, w)
    _wtag(w, o._unknown_tagged)


def _d_MemberIdentity_2(b, p):
    o = _new(MemberIdentity)
    o.member_id, p = _rcstr(b, p)
    o.group_instance_id, p = _rcnstr(b, p)
    o.reason, p = _rcnstr(b, p)
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _s_LeaveGroupRequest_2(b, p):
    o = _new(LeaveGroupRequest)
    o.group_id, p = _rcstr(b, p)
    o.member_id = ''
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 4)
    y = p + 16384
    l = []
    for _ in range(n):
        e, p = _d_MemberIdentity_2(b, p)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.members = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_MemberIdentity_2(o, w):
    _wcstr(w, o.member_id)
    _wcnstr(w, o.group_instance_id)
    _wcnstr(w, o.reason)
    _wtag(w, o._unknown_tagged)


def _e_LeaveGroupRequest_3(o, w):
    _wcstr(w, o.group_id)
    x = o.members
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_MemberIdentity_2(e, w)
    _wtag(w, o._unknown_tagged)


_d_s_LeaveGroupRequest_0 = _whole(_s_LeaveGroupRequest_0)
_d_s_LeaveGroupRequest_1 = _whole(_s_LeaveGroupRequest_1)
_d_s_LeaveGroupRequest_2 = _whole(_s_LeaveGroupRequest_2)
LeaveGroupRequest._STEPS = {3: _s_LeaveGroupRequest_0, 4: _s_LeaveGroupRequest_1, 5: _s_LeaveGroupRequest_2}
LeaveGroupRequest._DECODERS = {0: _d_LeaveGroupRequest_0, 1: _d_LeaveGroupRequest_0, 2: _d_LeaveGroupRequest_0, 3: _d_s_LeaveGroupRequest_0, 4: _d_s_LeaveGroupRequest_1, 5: _d_s_LeaveGroupRequest_2}
LeaveGroupRequest._ENCODERS = {0: _e_LeaveGroupRequest_0, 1: _e_LeaveGroupRequest_0, 2: _e_LeaveGroupRequest_0, 3: _e_LeaveGroupRequest_1, 4: _e_LeaveGroupRequest_2, 5: _e_LeaveGroupRequest_3}
