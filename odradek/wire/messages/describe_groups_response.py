"""Generated from Kafka's DescribeGroupsResponse.json by tools/gen_wire.py. Do not edit."""
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
_S1 = _struct.Struct('>i')


class DescribedGroupMember(Message):
    __slots__ = ('member_id', 'group_instance_id', 'client_id', 'client_host', 'member_metadata', 'member_assignment', '_unknown_tagged')
    _FIELDS = (('member_id', 'string', 0, 32767, -1, -1, None, -1, None), ('group_instance_id', 'string', 4, 32767, 4, 32767, None, -1, None), ('client_id', 'string', 0, 32767, -1, -1, None, -1, None), ('client_host', 'string', 0, 32767, -1, -1, None, -1, None), ('member_metadata', 'bytes', 0, 32767, -1, -1, None, -1, None), ('member_assignment', 'bytes', 0, 32767, -1, -1, None, -1, None))

    def __init__(self, *, member_id='', group_instance_id=None, client_id='', client_host='', member_metadata=b'', member_assignment=b'', _unknown_tagged=None):
        self.member_id = member_id
        self.group_instance_id = group_instance_id
        self.client_id = client_id
        self.client_host = client_host
        self.member_metadata = member_metadata
        self.member_assignment = member_assignment
        self._unknown_tagged = _unknown_tagged


class DescribedGroup(Message):
    __slots__ = ('error_code', 'error_message', 'group_id', 'group_state', 'protocol_type', 'protocol_data', 'members', 'authorized_operations', '_unknown_tagged')
    _FIELDS = (('error_code', 'int16', 0, 32767, -1, -1, None, -1, None), ('error_message', 'string', 6, 32767, 6, 32767, None, -1, None), ('group_id', 'string', 0, 32767, -1, -1, None, -1, None), ('group_state', 'string', 0, 32767, -1, -1, None, -1, None), ('protocol_type', 'string', 0, 32767, -1, -1, None, -1, None), ('protocol_data', 'string', 0, 32767, -1, -1, None, -1, None), ('members', '[]DescribedGroupMember', 0, 32767, -1, -1, None, -1, 'DescribedGroupMember'), ('authorized_operations', 'int32', 3, 32767, -1, -1, None, -1, None))

    def __init__(self, *, error_code=0, error_message=None, group_id='', group_state='', protocol_type='', protocol_data='', members=DEFAULT, authorized_operations=-2147483648, _unknown_tagged=None):
        self.error_code = error_code
        self.error_message = error_message
        self.group_id = group_id
        self.group_state = group_state
        self.protocol_type = protocol_type
        self.protocol_data = protocol_data
        self.members = [] if members is DEFAULT else members
        self.authorized_operations = authorized_operations
        self._unknown_tagged = _unknown_tagged


class DescribeGroupsResponse(Message):
    __slots__ = ('throttle_time_ms', 'groups', '_unknown_tagged')
    _FIELDS = (('throttle_time_ms', 'int32', 1, 32767, -1, -1, None, -1, None), ('groups', '[]DescribedGroup', 0, 32767, -1, -1, None, -1, 'DescribedGroup'))
    API_KEY = 15
    VALID_VERSIONS = (0, 6)
    FLEXIBLE_MIN = 5

    def __init__(self, *, throttle_time_ms=0, groups=DEFAULT, _unknown_tagged=None):
        self.throttle_time_ms = throttle_time_ms
        self.groups = [] if groups is DEFAULT else groups
        self._unknown_tagged = _unknown_tagged



def _d_DescribedGroupMember_0(b, p):
    o = _new(DescribedGroupMember)
    o.member_id, p = _rstr(b, p)
    o.group_instance_id = None
    o.client_id, p = _rstr(b, p)
    o.client_host, p = _rstr(b, p)
    o.member_metadata, p = _rbyt(b, p)
    o.member_assignment, p = _rbyt(b, p)
    o._unknown_tagged = None
    return o, p


def _d_DescribedGroup_0(b, p):
    o = _new(DescribedGroup)
    o.error_code, = _S0.unpack_from(b, p)
    p += 2
    o.error_message = None
    o.group_id, p = _rstr(b, p)
    o.group_state, p = _rstr(b, p)
    o.protocol_type, p = _rstr(b, p)
    o.protocol_data, p = _rstr(b, p)
    n, p = _ral(b, p, 14)
    l = []
    for _ in range(n):
        e, p = _d_DescribedGroupMember_0(b, p)
        l.append(e)
    o.members = l
    o.authorized_operations = -2147483648
    o._unknown_tagged = None
    return o, p


def _d_DescribeGroupsResponse_0(b, p):
    o = _new(DescribeGroupsResponse)
    o.throttle_time_ms = 0
    n, p = _ral(b, p, 14)
    l = []
    for _ in range(n):
        e, p = _d_DescribedGroup_0(b, p)
        l.append(e)
    o.groups = l
    o._unknown_tagged = None
    return o, p


def _e_DescribedGroupMember_0(o, w):
    _wstr(w, o.member_id)
    _wstr(w, o.client_id)
    _wstr(w, o.client_host)
    _wbyt(w, o.member_metadata)
    _wbyt(w, o.member_assignment)


def _e_DescribedGroup_0(o, w):
    w.append(_S0.pack(o.error_code))
    _wstr(w, o.group_id)
    _wstr(w, o.group_state)
    _wstr(w, o.protocol_type)
    _wstr(w, o.protocol_data)
    x = o.members
    w.append(_I(len(x)))
    for e in x:
        _e_DescribedGroupMember_0(e, w)


def _e_DescribeGroupsResponse_0(o, w):
    x = o.groups
    w.append(_I(len(x)))
    for e in x:
        _e_DescribedGroup_0(e, w)


def _u_DescribedGroup_0(o, w, c):
    w.append(_S0.pack(o.error_code))
    _wstr(w, o.group_id)
    _wstr(w, o.group_state)
    _wstr(w, o.protocol_type)
    _wstr(w, o.protocol_data)
    x = o.members
    w.append(_I(len(x)))
    for e in x:
        _e_DescribedGroupMember_0(e, w)
        c += 1
        if c >= 1000:
            c = 0
            yield
    return c


def _t_DescribeGroupsResponse_0(o, w):
    c = 0
    x = o.groups
    w.append(_I(len(x)))
    for e in x:
        c = yield from _u_DescribedGroup_0(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield


def _d_DescribeGroupsResponse_1(b, p):
    o = _new(DescribeGroupsResponse)
    o.throttle_time_ms, = _S1.unpack_from(b, p)
    p += 4
    n, p = _ral(b, p, 14)
    l = []
    for _ in range(n):
        e, p = _d_DescribedGroup_0(b, p)
        l.append(e)
    o.groups = l
    o._unknown_tagged = None
    return o, p


def _e_DescribeGroupsResponse_1(o, w):
    w.append(_S1.pack(o.throttle_time_ms))
    x = o.groups
    w.append(_I(len(x)))
    for e in x:
        _e_DescribedGroup_0(e, w)


def _t_DescribeGroupsResponse_1(o, w):
    c = 0
    w.append(_S1.pack(o.throttle_time_ms))
    x = o.groups
    w.append(_I(len(x)))
    for e in x:
        c = yield from _u_DescribedGroup_0(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield


def _d_DescribedGroup_1(b, p):
    o = _new(DescribedGroup)
    o.error_code, = _S0.unpack_from(b, p)
    p += 2
    o.error_message = None
    o.group_id, p = _rstr(b, p)
    o.group_state, p = _rstr(b, p)
    o.protocol_type, p = _rstr(b, p)
    o.protocol_data, p = _rstr(b, p)
    n, p = _ral(b, p, 14)
    l = []
    for _ in range(n):
        e, p = _d_DescribedGroupMember_0(b, p)
        l.append(e)
    o.members = l
    o.authorized_operations, = _S1.unpack_from(b, p)
    p += 4
    o._unknown_tagged = None
    return o, p


def _d_DescribeGroupsResponse_2(b, p):
    o = _new(DescribeGroupsResponse)
    o.throttle_time_ms, = _S1.unpack_from(b, p)
    p += 4
    n, p = _ral(b, p, 18)
    l = []
    for _ in range(n):
        e, p = _d_DescribedGroup_1(b, p)
        l.append(e)
    o.groups = l
    o._unknown_tagged = None
    return o, p


def _e_DescribedGroup_1(o, w):
    w.append(_S0.pack(o.error_code))
    _wstr(w, o.group_id)
    _wstr(w, o.group_state)
    _wstr(w, o.protocol_type)
    _wstr(w, o.protocol_data)
    x = o.members
    w.append(_I(len(x)))
    for e in x:
        _e_DescribedGroupMember_0(e, w)
    w.append(_S1.pack(o.authorized_operations))


def _e_DescribeGroupsResponse_2(o, w):
    w.append(_S1.pack(o.throttle_time_ms))
    x = o.groups
    w.append(_I(len(x)))
    for e in x:
        _e_DescribedGroup_1(e, w)


def _u_DescribedGroup_1(o, w, c):
    w.append(_S0.pack(o.error_code))
    _wstr(w, o.group_id)
    _wstr(w, o.group_state)
    _wstr(w, o.protocol_type)
    _wstr(w, o.protocol_data)
    x = o.members
    w.append(_I(len(x)))
    for e in x:
        _e_DescribedGroupMember_0(e, w)
        c += 1
        if c >= 1000:
            c = 0
            yield
    w.append(_S1.pack(o.authorized_operations))
    return c


def _t_DescribeGroupsResponse_2(o, w):
    c = 0
    w.append(_S1.pack(o.throttle_time_ms))
    x = o.groups
    w.append(_I(len(x)))
    for e in x:
        c = yield from _u_DescribedGroup_1(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield


def _d_DescribedGroupMember_1(b, p):
    o = _new(DescribedGroupMember)
    o.member_id, p = _rstr(b, p)
    o.group_instance_id, p = _rnstr(b, p)
    o.client_id, p = _rstr(b, p)
    o.client_host, p = _rstr(b, p)
    o.member_metadata, p = _rbyt(b, p)
    o.member_assignment, p = _rbyt(b, p)
    o._unknown_tagged = None
    return o, p


def _d_DescribedGroup_2(b, p):
    o = _new(DescribedGroup)
    o.error_code, = _S0.unpack_from(b, p)
    p += 2
    o.error_message = None
    o.group_id, p = _rstr(b, p)
    o.group_state, p = _rstr(b, p)
    o.protocol_type, p = _rstr(b, p)
    o.protocol_data, p = _rstr(b, p)
    n, p = _ral(b, p, 16)
    l = []
    for _ in range(n):
        e, p = _d_DescribedGroupMember_1(b, p)
        l.append(e)
    o.members = l
    o.authorized_operations, = _S1.unpack_from(b, p)
    p += 4
    o._unknown_tagged = None
    return o, p


def _d_DescribeGroupsResponse_3(b, p):
    o = _new(DescribeGroupsResponse)
    o.throttle_time_ms, = _S1.unpack_from(b, p)
    p += 4
    n, p = _ral(b, p, 18)
    l = []
    for _ in range(n):
        e, p = _d_DescribedGroup_2(b, p)
        l.append(e)
    o.groups = l
    o._unknown_tagged = None
    return o, p


def _e_DescribedGroupMember_1(o, w):
    _wstr(w, o.member_id)
    _wnstr(w, o.group_instance_id)
    _wstr(w, o.client_id)
    _wstr(w, o.client_host)
    _wbyt(w, o.member_metadata)
    _wbyt(w, o.member_assignment)


def _e_DescribedGroup_2(o, w):
    w.append(_S0.pack(o.error_code))
    _wstr(w, o.group_id)
    _wstr(w, o.group_state)
    _wstr(w, o.protocol_type)
    _wstr(w, o.protocol_data)
    x = o.members
    w.append(_I(len(x)))
    for e in x:
        _e_DescribedGroupMember_1(e, w)
    w.append(_S1.pack(o.authorized_operations))


def _e_DescribeGroupsResponse_3(o, w):
    w.append(_S1.pack(o.throttle_time_ms))
    x = o.groups
    w.append(_I(len(x)))
    for e in x:
        _e_DescribedGroup_2(e, w)


def _u_DescribedGroup_2(o, w, c):
    w.append(_S0.pack(o.error_code))
    _wstr(w, o.group_id)
    _wstr(w, o.group_state)
    _wstr(w, o.protocol_type)
    _wstr(w, o.protocol_data)
    x = o.members
    w.append(_I(len(x)))
    for e in x:
        _e_DescribedGroupMember_1(e, w)
        c += 1
        if c >= 1000:
            c = 0
            yield
    w.append(_S1.pack(o.authorized_operations))
    return c


def _t_DescribeGroupsResponse_3(o, w):
    c = 0
    w.append(_S1.pack(o.throttle_time_ms))
    x = o.groups
    w.append(_I(len(x)))
    for e in x:
        c = yield from _u_DescribedGroup_2(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield


def _d_DescribedGroupMember_2(b, p):
    o = _new(DescribedGroupMember)
    o.member_id, p = _rcstr(b, p)
    o.group_instance_id, p = _rcnstr(b, p)
    o.client_id, p = _rcstr(b, p)
    o.client_host, p = _rcstr(b, p)
    o.member_metadata, p = _rcbyt(b, p)
    o.member_assignment, p = _rcbyt(b, p)
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_DescribedGroup_3(b, p):
    o = _new(DescribedGroup)
    o.error_code, = _S0.unpack_from(b, p)
    p += 2
    o.error_message = None
    o.group_id, p = _rcstr(b, p)
    o.group_state, p = _rcstr(b, p)
    o.protocol_type, p = _rcstr(b, p)
    o.protocol_data, p = _rcstr(b, p)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 7)
    l = []
    for _ in range(n):
        e, p = _d_DescribedGroupMember_2(b, p)
        l.append(e)
    o.members = l
    o.authorized_operations, = _S1.unpack_from(b, p)
    p += 4
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_DescribeGroupsResponse_4(b, p):
    o = _new(DescribeGroupsResponse)
    o.throttle_time_ms, = _S1.unpack_from(b, p)
    p += 4
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 12)
    l = []
    for _ in range(n):
        e, p = _d_DescribedGroup_3(b, p)
        l.append(e)
    o.groups = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_DescribedGroupMember_2(o, w):
    _wcstr(w, o.member_id)
    _wcnstr(w, o.group_instance_id)
    _wcstr(w, o.client_id)
    _wcstr(w, o.client_host)
    _wcbyt(w, o.member_metadata)
    _wcbyt(w, o.member_assignment)
    _wtag(w, o._unknown_tagged)


def _e_DescribedGroup_3(o, w):
    w.append(_S0.pack(o.error_code))
    _wcstr(w, o.group_id)
    _wcstr(w, o.group_state)
    _wcstr(w, o.protocol_type)
    _wcstr(w, o.protocol_data)
    x = o.members
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_DescribedGroupMember_2(e, w)
    w.append(_S1.pack(o.authorized_operations))
    _wtag(w, o._unknown_tagged)


def _e_DescribeGroupsResponse_4(o, w):
    w.append(_S1.pack(o.throttle_time_ms))
    x = o.groups
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_DescribedGroup_3(e, w)
    _wtag(w, o._unknown_tagged)


def _u_DescribedGroup_3(o, w, c):
    w.append(_S0.pack(o.error_code))
    _wcstr(w, o.group_id)
    _wcstr(w, o.group_state)
    _wcstr(w, o.protocol_type)
    _wcstr(w, o.protocol_data)
    x = o.members
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_DescribedGroupMember_2(e, w)
        c += 1
        if c >= 1000:
            c = 0
            yield
    w.append(_S1.pack(o.authorized_operations))
    _wtag(w, o._unknown_tagged)
    return c


def _t_DescribeGroupsResponse_4(o, w):
    c = 0
    w.append(_S1.pack(o.throttle_time_ms))
    x = o.groups
    w.append(_uv(len(x) + 1))
    for e in x:
        c = yield from _u_DescribedGroup_3(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield
    _wtag(w, o._unknown_tagged)


def _d_DescribedGroup_4(b, p):
    o = _new(DescribedGroup)
    o.error_code, = _S0.unpack_from(b, p)
    p += 2
    o.error_message, p = _rcnstr(b, p)
    o.group_id, p = _rcstr(b, p)
    o.group_state, p = _rcstr(b, p)
    o.protocol_type, p = _rcstr(b, p)
    o.protocol_data, p = _rcstr(b, p)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 7)
    l = []
    for _ in range(n):
        e, p = _d_DescribedGroupMember_2(b, p)
        l.append(e)
    o.members = l
    o.authorized_operations, = _S1.unpack_from(b, p)
    p += 4
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_DescribeGroupsResponse_5(b, p):
    o = _new(DescribeGroupsResponse)
    o.throttle_time_ms, = _S1.unpack_from(b, p)
    p += 4
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 13)
    l = []
    for _ in range(n):
        e, p = _d_DescribedGroup_4(b, p)
        l.append(e)
    o.groups = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_DescribedGroup_4(o, w):
    w.append(_S0.pack(o.error_code))
    _wcnstr(w, o.error_message)
    _wcstr(w, o.group_id)
    _wcstr(w, o.group_state)
    _wcstr(w, o.protocol_type)
    _wcstr(w, o.protocol_data)
    x = o.members
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_DescribedGroupMember_2(e, w)
    w.append(_S1.pack(o.authorized_operations))
    _wtag(w, o._unknown_tagged)


def _e_DescribeGroupsResponse_5(o, w):
    w.append(_S1.pack(o.throttle_time_ms))
    x = o.groups
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_DescribedGroup_4(e, w)
    _wtag(w, o._unknown_tagged)


def _u_DescribedGroup_4(o, w, c):
    w.append(_S0.pack(o.error_code))
    _wcnstr(w, o.error_message)
    _wcstr(w, o.group_id)
    _wcstr(w, o.group_state)
    _wcstr(w, o.protocol_type)
    _wcstr(w, o.protocol_data)
    x = o.members
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_DescribedGroupMember_2(e, w)
        c += 1
        if c >= 1000:
            c = 0
            yield
    w.append(_S1.pack(o.authorized_operations))
    _wtag(w, o._unknown_tagged)
    return c


def _t_DescribeGroupsResponse_5(o, w):
    c = 0
    w.append(_S1.pack(o.throttle_time_ms))
    x = o.groups
    w.append(_uv(len(x) + 1))
    for e in x:
        c = yield from _u_DescribedGroup_4(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield
    _wtag(w, o._unknown_tagged)


DescribeGroupsResponse._DECODERS = {0: _d_DescribeGroupsResponse_0, 1: _d_DescribeGroupsResponse_1, 2: _d_DescribeGroupsResponse_1, 3: _d_DescribeGroupsResponse_2, 4: _d_DescribeGroupsResponse_3, 5: _d_DescribeGroupsResponse_4, 6: _d_DescribeGroupsResponse_5}
DescribeGroupsResponse._ENCODERS = {0: _e_DescribeGroupsResponse_0, 1: _e_DescribeGroupsResponse_1, 2: _e_DescribeGroupsResponse_1, 3: _e_DescribeGroupsResponse_2, 4: _e_DescribeGroupsResponse_3, 5: _e_DescribeGroupsResponse_4, 6: _e_DescribeGroupsResponse_5}
DescribeGroupsResponse._ENCODE_STEPS = {0: _t_DescribeGroupsResponse_0, 1: _t_DescribeGroupsResponse_1, 2: _t_DescribeGroupsResponse_1, 3: _t_DescribeGroupsResponse_2, 4: _t_DescribeGroupsResponse_3, 5: _t_DescribeGroupsResponse_4, 6: _t_DescribeGroupsResponse_5}
