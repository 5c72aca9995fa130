"""Generated from Kafka's JoinGroupResponse.json by tools/gen_wire.py. Do not edit."""
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

_S0 = _struct.Struct('>hi')
_S1 = _struct.Struct('>ihi')
_S2 = _struct.Struct('>?')


class JoinGroupResponseMember(Message):
    __slots__ = ('member_id', 'group_instance_id', 'metadata', '_unknown_tagged')
    _FIELDS = (('member_id', 'string', 0, 32767, -1, -1, None, -1, None), ('group_instance_id', 'string', 5, 32767, 5, 32767, None, -1, None), ('metadata', 'bytes', 0, 32767, -1, -1, None, -1, None))

    def __init__(self, *, member_id='', group_instance_id=None, metadata=b'', _unknown_tagged=None):
        self.member_id = member_id
        self.group_instance_id = group_instance_id
        self.metadata = metadata
        self._unknown_tagged = _unknown_tagged


class JoinGroupResponse(Message):
    __slots__ = ('throttle_time_ms', 'error_code', 'generation_id', 'protocol_type', 'protocol_name', 'leader', 'skip_assignment', 'member_id', 'members', '_unknown_tagged')
    _FIELDS = (('throttle_time_ms', 'int32', 2, 32767, -1, -1, None, -1, None), ('error_code', 'int16', 0, 32767, -1, -1, None, -1, None), ('generation_id', 'int32', 0, 32767, -1, -1, None, -1, None), ('protocol_type', 'string', 7, 32767, 7, 32767, None, -1, None), ('protocol_name', 'string', 0, 32767, 7, 32767, None, -1, None), ('leader', 'string', 0, 32767, -1, -1, None, -1, None), ('skip_assignment', 'bool', 9, 32767, -1, -1, None, -1, None), ('member_id', 'string', 0, 32767, -1, -1, None, -1, None), ('members', '[]JoinGroupResponseMember', 0, 32767, -1, -1, None, -1, 'JoinGroupResponseMember'))
    API_KEY = 11
    VALID_VERSIONS = (0, 9)
    FLEXIBLE_MIN = 6

    def __init__(self, *, throttle_time_ms=0, error_code=0, generation_id=-1, protocol_type=None, protocol_name='', leader='', skip_assignment=False, member_id='', members=DEFAULT, _unknown_tagged=None):
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.generation_id = generation_id
        self.protocol_type = protocol_type
        self.protocol_name = protocol_name
        self.leader = leader
        self.skip_assignment = skip_assignment
        self.member_id = member_id
        self.members = [] if members is DEFAULT else members
        self._unknown_tagged = _unknown_tagged



def _d_JoinGroupResponseMember_0(b, p):
    o = _new(JoinGroupResponseMember)
    o.member_id, p = _rstr(b, p)
    o.group_instance_id = None
    o.metadata, p = _rbyt(b, p)
    o._unknown_tagged = None
    return o, p


def _d_JoinGroupResponse_0(b, p):
    o = _new(JoinGroupResponse)
    o.throttle_time_ms = 0
    o.error_code, o.generation_id = _S0.unpack_from(b, p)
    p += 6
    o.protocol_type = None
    o.protocol_name, p = _rstr(b, p)
    o.leader, p = _rstr(b, p)
    o.skip_assignment = False
    o.member_id, p = _rstr(b, p)
    n, p = _ral(b, p, 6)
    l = []
    for _ in range(n):
        e, p = _d_JoinGroupResponseMember_0(b, p)
        l.append(e)
    o.members = l
    o._unknown_tagged = None
    return o, p


def _e_JoinGroupResponseMember_0(o, w):
    _wstr(w, o.member_id)
    _wbyt(w, o.metadata)


def _e_JoinGroupResponse_0(o, w):
    w.append(_S0.pack(o.error_code, o.generation_id))
    _wstr(w, o.protocol_name)
    _wstr(w, o.leader)
    _wstr(w, o.member_id)
    x = o.members
    w.append(_I(len(x)))
    for e in x:
        _e_JoinGroupResponseMember_0(e, w)


def _d_JoinGroupResponse_1(b, p):
    o = _new(JoinGroupResponse)
    o.throttle_time_ms, o.error_code, o.generation_id = _S1.unpack_from(b, p)
    p += 10
    o.protocol_type = None
    o.protocol_name, p = _rstr(b, p)
    o.leader, p = _rstr(b, p)
    o.skip_assignment = False
    o.member_id, p = _rstr(b, p)
    n, p = _ral(b, p, 6)
    l = []
    for _ in range(n):
        e, p = _d_JoinGroupResponseMember_0(b, p)
        l.append(e)
    o.members = l
    o._unknown_tagged = None
    return o, p


def _e_JoinGroupResponse_1(o, w):
    w.append(_S1.pack(o.throttle_time_ms, o.error_code, o.generation_id))
    _wstr(w, o.protocol_name)
    _wstr(w, o.leader)
    _wstr(w, o.member_id)
    x = o.members
    w.append(_I(len(x)))
    for e in x:
        _e_JoinGroupResponseMember_0(e, w)


def _d_JoinGroupResponseMember_1(b, p):
    o = _new(JoinGroupResponseMember)
    o.member_id, p = _rstr(b, p)
    o.group_instance_id, p = _rnstr(b, p)
    o.metadata, p = _rbyt(b, p)
    o._unknown_tagged = None
    return o, p


def _d_JoinGroupResponse_2(b, p):
    o = _new(JoinGroupResponse)
    o.throttle_time_ms, o.error_code, o.generation_id = _S1.unpack_from(b, p)
    p += 10
    o.protocol_type = None
    o.protocol_name, p = _rstr(b, p)
    o.leader, p = _rstr(b, p)
    o.skip_assignment = False
    o.member_id, p = _rstr(b, p)
    n, p = _ral(b, p, 8)
    l = []
    for _ in range(n):
        e, p = _d_JoinGroupResponseMember_1(b, p)
        l.append(e)
    o.members = l
    o._unknown_tagged = None
    return o, p


def _e_JoinGroupResponseMember_1(o, w):
    _wstr(w, o.member_id)
    _wnstr(w, o.group_instance_id)
    _wbyt(w, o.metadata)


def _e_JoinGroupResponse_2(o, w):
    w.append(_S1.pack(o.throttle_time_ms, o.error_code, o.generation_id))
    _wstr(w, o.protocol_name)
    _wstr(w, o.leader)
    _wstr(w, o.member_id)
    x = o.members
    w.append(_I(len(x)))
    for e in x:
        _e_JoinGroupResponseMember_1(e, w)


def _d_JoinGroupResponseMember_2(b, p):
    o = _new(JoinGroupResponseMember)
    o.member_id, p = _rcstr(b, p)
    o.group_instance_id, p = _rcnstr(b, p)
    o.metadata, p = _rcbyt(b, p)
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_JoinGroupResponse_3(b, p):
    o = _new(JoinGroupResponse)
    o.throttle_time_ms, o.error_code, o.generation_id = _S1.unpack_from(b, p)
    p += 10
    o.protocol_type = None
    o.protocol_name, p = _rcstr(b, p)
    o.leader, p = _rcstr(b, p)
    o.skip_assignment = False
    o.member_id, p = _rcstr(b, p)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 4)
    l = []
    for _ in range(n):
        e, p = _d_JoinGroupResponseMember_2(b, p)
        l.append(e)
    o.members = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_JoinGroupResponseMember_2(o, w):
    _wcstr(w, o.member_id)
    _wcnstr(w, o.group_instance_id)
    _wcbyt(w, o.metadata)
    _wtag(w, o._unknown_tagged)


def _e_JoinGroupResponse_3(o, w):
    w.append(_S1.pack(o.throttle_time_ms, o.error_code, o.generation_id))
    _wcstr(w, o.protocol_name)
    _wcstr(w, o.leader)
    _wcstr(w, o.member_id)
    x = o.members
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_JoinGroupResponseMember_2(e, w)
    _wtag(w, o._unknown_tagged)


def _d_JoinGroupResponse_4(b, p):
    o = _new(JoinGroupResponse)
    o.throttle_time_ms, o.error_code, o.generation_id = _S1.unpack_from(b, p)
    p += 10
    o.protocol_type, p = _rcnstr(b, p)
    o.protocol_name, p = _rcnstr(b, p)
    o.leader, p = _rcstr(b, p)
    o.skip_assignment = False
    o.member_id, p = _rcstr(b, p)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 4)
    l = []
    for _ in range(n):
        e, p = _d_JoinGroupResponseMember_2(b, p)
        l.append(e)
    o.members = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_JoinGroupResponse_4(o, w):
    w.append(_S1.pack(o.throttle_time_ms, o.error_code, o.generation_id))
    _wcnstr(w, o.protocol_type)
    _wcnstr(w, o.protocol_name)
    _wcstr(w, o.leader)
    _wcstr(w, o.member_id)
    x = o.members
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_JoinGroupResponseMember_2(e, w)
    _wtag(w, o._unknown_tagged)


def _d_JoinGroupResponse_5(b, p):
    o = _new(JoinGroupResponse)
    o.throttle_time_ms, o.error_code, o.generation_id = _S1.unpack_from(b, p)
    p += 10
    o.protocol_type, p = _rcnstr(b, p)
    o.protocol_name, p = _rcnstr(b, p)
    o.leader, p = _rcstr(b, p)
    o.skip_assignment, = _S2.unpack_from(b, p)
    p += 1
    o.member_id, p = _rcstr(b, p)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 4)
    l = []
    for _ in range(n):
        e, p = _d_JoinGroupResponseMember_2(b, p)
        l.append(e)
    o.members = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_JoinGroupResponse_5(o, w):
    w.append(_S1.pack(o.throttle_time_ms, o.error_code, o.generation_id))
    _wcnstr(w, o.protocol_type)
    _wcnstr(w, o.protocol_name)
    _wcstr(w, o.leader)
    w.append(_S2.pack(o.skip_assignment))
    _wcstr(w, o.member_id)
    x = o.members
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_JoinGroupResponseMember_2(e, w)
    _wtag(w, o._unknown_tagged)


JoinGroupResponse._DECODERS = {0: _d_JoinGroupResponse_0, 1: _d_JoinGroupResponse_0, 2: _d_JoinGroupResponse_1, 3: _d_JoinGroupResponse_1, 4: _d_JoinGroupResponse_1, 5: _d_JoinGroupResponse_2, 6: _d_JoinGroupResponse_3, 7: _d_JoinGroupResponse_4, 8: _d_JoinGroupResponse_4, 9: _d_JoinGroupResponse_5}
JoinGroupResponse._ENCODERS = {0: _e_JoinGroupResponse_0, 1: _e_JoinGroupResponse_0, 2: _e_JoinGroupResponse_1, 3: _e_JoinGroupResponse_1, 4: _e_JoinGroupResponse_1, 5: _e_JoinGroupResponse_2, 6: _e_JoinGroupResponse_3, 7: _e_JoinGroupResponse_4, 8: _e_JoinGroupResponse_4, 9: _e_JoinGroupResponse_5}
