"""Generated from Kafka's SyncGroupRequest.json by tools/gen_wire.py. Do not edit."""
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


class SyncGroupRequestAssignment(Message):
    __slots__ = ('member_id', 'assignment', '_unknown_tagged')
    _FIELDS = (('member_id', 'string', 0, 32767, -1, -1, None, -1, None), ('assignment', 'bytes', 0, 32767, -1, -1, None, -1, None))

    def __init__(self, *, member_id='', assignment=b'', _unknown_tagged=None):
        self.member_id = member_id
        self.assignment = assignment
        self._unknown_tagged = _unknown_tagged


class SyncGroupRequest(Message):
    __slots__ = ('group_id', 'generation_id', 'member_id', 'group_instance_id', 'protocol_type', 'protocol_name', 'assignments', '_unknown_tagged')
    _FIELDS = (('group_id', 'string', 0, 32767, -1, -1, None, -1, None), ('generation_id', 'int32', 0, 32767, -1, -1, None, -1, None), ('member_id', 'string', 0, 32767, -1, -1, None, -1, None), ('group_instance_id', 'string', 3, 32767, 3, 32767, None, -1, None), ('protocol_type', 'string', 5, 32767, 5, 32767, None, -1, None), ('protocol_name', 'string', 5, 32767, 5, 32767, None, -1, None), ('assignments', '[]SyncGroupRequestAssignment', 0, 32767, -1, -1, None, -1, 'SyncGroupRequestAssignment'))
    API_KEY = 14
    VALID_VERSIONS = (0, 5)
    FLEXIBLE_MIN = 4

    def __init__(self, *, group_id='', generation_id=0, member_id='', group_instance_id=None, protocol_type=None, protocol_name=None, assignments=DEFAULT, _unknown_tagged=None):
        self.group_id = group_id
        self.generation_id = generation_id
        self.member_id = member_id
        self.group_instance_id = group_instance_id
        self.protocol_type = protocol_type
        self.protocol_name = protocol_name
        self.assignments = [] if assignments is DEFAULT else assignments
        self._unknown_tagged = _unknown_tagged



def _d_SyncGroupRequestAssignment_0(b, p):
    o = _new(SyncGroupRequestAssignment)
    o.member_id, p = _rstr(b, p)
    o.assignment, p = _rbyt(b, p)
    o._unknown_tagged = None
    return o, p


def _d_SyncGroupRequest_0(b, p):
    o = _new(SyncGroupRequest)
    o.group_id, p = _rstr(b, p)
    o.generation_id, = _S0.unpack_from(b, p)
    p += 4
    o.member_id, p = _rstr(b, p)
    o.group_instance_id = None
    o.protocol_type = None
    o.protocol_name = None
    n, p = _ral(b, p, 6)
    l = []
    for _ in range(n):
        e, p = _d_SyncGroupRequestAssignment_0(b, p)
        l.append(e)
    o.assignments = l
    o._unknown_tagged = None
    return o, p


def _e_SyncGroupRequestAssignment_0(o, w):
    _wstr(w, o.member_id)
    _wbyt(w, o.assignment)


def _e_SyncGroupRequest_0(o, w):
    _wstr(w, o.group_id)
    w.append(_S0.pack(o.generation_id))
    _wstr(w, o.member_id)
    x = o.assignments
    w.append(_I(len(x)))
    for e in x:
        _e_SyncGroupRequestAssignment_0(e, w)


def _d_SyncGroupRequest_1(b, p):
    o = _new(SyncGroupRequest)
    o.group_id, p = _rstr(b, p)
    o.generation_id, = _S0.unpack_from(b, p)
    p += 4
    o.member_id, p = _rstr(b, p)
    o.group_instance_id, p = _rnstr(b, p)
    o.protocol_type = None
    o.protocol_name = None
    n, p = _ral(b, p, 6)
    l = []
    for _ in range(n):
        e, p = _d_SyncGroupRequestAssignment_0(b, p)
        l.append(e)
    o.assignments = l
    o._unknown_tagged = None
    return o, p


def _e_SyncGroupRequest_1(o, w):
    _wstr(w, o.group_id)
    w.append(_S0.pack(o.generation_id))
    _wstr(w, o.member_id)
    _wnstr(w, o.group_instance_id)
    x = o.assignments
    w.append(_I(len(x)))
    for e in x:
        _e_SyncGroupRequestAssignment_0(e, w)


def _d_SyncGroupRequestAssignment_1(b, p):
    o = _new(SyncGroupRequestAssignment)
    o.member_id, p = _rcstr(b, p)
    o.assignment, p = _rcbyt(b, p)
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_SyncGroupRequest_2(b, p):
    o = _new(SyncGroupRequest)
    o.group_id, p = _rcstr(b, p)
    o.generation_id, = _S0.unpack_from(b, p)
    p += 4
    o.member_id, p = _rcstr(b, p)
    o.group_instance_id, p = _rcnstr(b, p)
    o.protocol_type = None
    o.protocol_name = None
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 3)
    l = []
    for _ in range(n):
        e, p = _d_SyncGroupRequestAssignment_1(b, p)
        l.append(e)
    o.assignments = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_SyncGroupRequestAssignment_1(o, w):
    _wcstr(w, o.member_id)
    _wcbyt(w, o.assignment)
    _wtag(w, o._unknown_tagged)


def _e_SyncGroupRequest_2(o, w):
    _wcstr(w, o.group_id)
    w.append(_S0.pack(o.generation_id))
    _wcstr(w, o.member_id)
    _wcnstr(w, o.group_instance_id)
    x = o.assignments
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_SyncGroupRequestAssignment_1(e, w)
    _wtag(w, o._unknown_tagged)


def _d_SyncGroupRequest_3(b, p):
    o = _new(SyncGroupRequest)
    o.group_id, p = _rcstr(b, p)
    o.generation_id, = _S0.unpack_from(b, p)
    p += 4
    o.member_id, p = _rcstr(b, p)
    o.group_instance_id, p = _rcnstr(b, p)
    o.protocol_type, p = _rcnstr(b, p)
    o.protocol_name, p = _rcnstr(b, p)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 3)
    l = []
    for _ in range(n):
        e, p = _d_SyncGroupRequestAssignment_1(b, p)
        l.append(e)
    o.assignments = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_SyncGroupRequest_3(o, w):
    _wcstr(w, o.group_id)
    w.append(_S0.pack(o.generation_id))
    _wcstr(w, o.member_id)
    _wcnstr(w, o.group_instance_id)
    _wcnstr(w, o.protocol_type)
    _wcnstr(w, o.protocol_name)
    x = o.assignments
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_SyncGroupRequestAssignment_1(e, w)
    _wtag(w, o._unknown_tagged)


SyncGroupRequest._DECODERS = {0: _d_SyncGroupRequest_0, 1: _d_SyncGroupRequest_0, 2: _d_SyncGroupRequest_0, 3: _d_SyncGroupRequest_1, 4: _d_SyncGroupRequest_2, 5: _d_SyncGroupRequest_3}
SyncGroupRequest._ENCODERS = {0: _e_SyncGroupRequest_0, 1: _e_SyncGroupRequest_0, 2: _e_SyncGroupRequest_0, 3: _e_SyncGroupRequest_1, 4: _e_SyncGroupRequest_2, 5: _e_SyncGroupRequest_3}
