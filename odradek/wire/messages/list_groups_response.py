"""Generated from Kafka's ListGroupsResponse.json by tools/gen_wire.py. Do not edit."""
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


class ListedGroup(Message):
    __slots__ = ('group_id', 'protocol_type', 'group_state', 'group_type', '_unknown_tagged')
    _FIELDS = (('group_id', 'string', 0, 32767, -1, -1, None, -1, None), ('protocol_type', 'string', 0, 32767, -1, -1, None, -1, None), ('group_state', 'string', 4, 32767, -1, -1, None, -1, None), ('group_type', 'string', 5, 32767, -1, -1, None, -1, None))

    def __init__(self, *, group_id='', protocol_type='', group_state='', group_type='', _unknown_tagged=None):
        self.group_id = group_id
        self.protocol_type = protocol_type
        self.group_state = group_state
        self.group_type = group_type
        self._unknown_tagged = _unknown_tagged


class ListGroupsResponse(Message):
    __slots__ = ('throttle_time_ms', 'error_code', 'groups', '_unknown_tagged')
    _FIELDS = (('throttle_time_ms', 'int32', 1, 32767, -1, -1, None, -1, None), ('error_code', 'int16', 0, 32767, -1, -1, None, -1, None), ('groups', '[]ListedGroup', 0, 32767, -1, -1, None, -1, 'ListedGroup'))
    API_KEY = 16
    VALID_VERSIONS = (0, 5)
    FLEXIBLE_MIN = 3

    def __init__(self, *, throttle_time_ms=0, error_code=0, groups=DEFAULT, _unknown_tagged=None):
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.groups = [] if groups is DEFAULT else groups
        self._unknown_tagged = _unknown_tagged



def _d_ListedGroup_0(b, p):
    o = _new(ListedGroup)
    o.group_id, p = _rstr(b, p)
    o.protocol_type, p = _rstr(b, p)
    o.group_state = ''
    o.group_type = ''
    o._unknown_tagged = None
    return o, p


def _d_ListGroupsResponse_0(b, p):
    o = _new(ListGroupsResponse)
    o.throttle_time_ms = 0
    o.error_code, = _S0.unpack_from(b, p)
    p += 2
    n, p = _ral(b, p, 4)
    l = []
    for _ in range(n):
        e, p = _d_ListedGroup_0(b, p)
        l.append(e)
    o.groups = l
    o._unknown_tagged = None
    return o, p


def _e_ListedGroup_0(o, w):
    _wstr(w, o.group_id)
    _wstr(w, o.protocol_type)


def _e_ListGroupsResponse_0(o, w):
    w.append(_S0.pack(o.error_code))
    x = o.groups
    w.append(_I(len(x)))
    for e in x:
        _e_ListedGroup_0(e, w)


def _t_ListGroupsResponse_0(o, w):
    c = 0
    w.append(_S0.pack(o.error_code))
    x = o.groups
    w.append(_I(len(x)))
    for e in x:
        _e_ListedGroup_0(e, w)
        c += 1
        if c >= 1000:
            c = 0
            yield


def _d_ListGroupsResponse_1(b, p):
    o = _new(ListGroupsResponse)
    o.throttle_time_ms, o.error_code = _S1.unpack_from(b, p)
    p += 6
    n, p = _ral(b, p, 4)
    l = []
    for _ in range(n):
        e, p = _d_ListedGroup_0(b, p)
        l.append(e)
    o.groups = l
    o._unknown_tagged = None
    return o, p


def _e_ListGroupsResponse_1(o, w):
    w.append(_S1.pack(o.throttle_time_ms, o.error_code))
    x = o.groups
    w.append(_I(len(x)))
    for e in x:
        _e_ListedGroup_0(e, w)


def _t_ListGroupsResponse_1(o, w):
    c = 0
    w.append(_S1.pack(o.throttle_time_ms, o.error_code))
    x = o.groups
    w.append(_I(len(x)))
    for e in x:
        _e_ListedGroup_0(e, w)
        c += 1
        if c >= 1000:
            c = 0
            yield


def _d_ListedGroup_1(b, p):
    o = _new(ListedGroup)
    o.group_id, p = _rcstr(b, p)
    o.protocol_type, p = _rcstr(b, p)
    o.group_state = ''
    o.group_type = ''
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_ListGroupsResponse_2(b, p):
    o = _new(ListGroupsResponse)
    o.throttle_time_ms, o.error_code = _S1.unpack_from(b, p)
    p += 6
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 3)
    l = []
    for _ in range(n):
        e, p = _d_ListedGroup_1(b, p)
        l.append(e)
    o.groups = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_ListedGroup_1(o, w):
    _wcstr(w, o.group_id)
    _wcstr(w, o.protocol_type)
    _wtag(w, o._unknown_tagged)


def _e_ListGroupsResponse_2(o, w):
    w.append(_S1.pack(o.throttle_time_ms, o.error_code))
    x = o.groups
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_ListedGroup_1(e, w)
    _wtag(w, o._unknown_tagged)


def _t_ListGroupsResponse_2(o, w):
    c = 0
    w.append(_S1.pack(o.throttle_time_ms, o.error_code))
    x = o.groups
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_ListedGroup_1(e, w)
        c += 1
        if c >= 1000:
            c = 0
            yield
    _wtag(w, o._unknown_tagged)


def _d_ListedGroup_2(b, p):
    o = _new(ListedGroup)
    o.group_id, p = _rcstr(b, p)
    o.protocol_type, p = _rcstr(b, p)
    o.group_state, p = _rcstr(b, p)
    o.group_type = ''
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_ListGroupsResponse_3(b, p):
    o = _new(ListGroupsResponse)
    o.throttle_time_ms, o.error_code = _S1.unpack_from(b, p)
    p += 6
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 4)
    l = []
    for _ in range(n):
        e, p = _d_ListedGroup_2(b, p)
        l.append(e)
    o.groups = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_ListedGroup_2(o, w):
    _wcstr(w, o.group_id)
    _wcstr(w, o.protocol_type)
    _wcstr(w, o.group_state)
    _wtag(w, o._unknown_tagged)


def _e_ListGroupsResponse_3(o, w):
    w.append(_S1.pack(o.throttle_time_ms, o.error_code))
    x = o.groups
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_ListedGroup_2(e, w)
    _wtag(w, o._unknown_tagged)


def _t_ListGroupsResponse_3(o, w):
    c = 0
    w.append(_S1.pack(o.throttle_time_ms, o.error_code))
    x = o.groups
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_ListedGroup_2(e, w)
        c += 1
        if c >= 1000:
            c = 0
            yield
    _wtag(w, o._unknown_tagged)


def _d_ListedGroup_3(b, p):
    o = _new(ListedGroup)
    o.group_id, p = _rcstr(b, p)
    o.protocol_type, p = _rcstr(b, p)
    o.group_state, p = _rcstr(b, p)
    o.group_type, p = _rcstr(b, p)
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_ListGroupsResponse_4(b, p):
    o = _new(ListGroupsResponse)
    o.throttle_time_ms, o.error_code = _S1.unpack_from(b, p)
    p += 6
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 5)
    l = []
    for _ in range(n):
        e, p = _d_ListedGroup_3(b, p)
        l.append(e)
    o.groups = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_ListedGroup_3(o, w):
    _wcstr(w, o.group_id)
    _wcstr(w, o.protocol_type)
    _wcstr(w, o.group_state)
    _wcstr(w, o.group_type)
    _wtag(w, o._unknown_tagged)


def _e_ListGroupsResponse_4(o, w):
    w.append(_S1.pack(o.throttle_time_ms, o.error_code))
    x = o.groups
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_ListedGroup_3(e, w)
    _wtag(w, o._unknown_tagged)


def _t_ListGroupsResponse_4(o, w):
    c = 0
    w.append(_S1.pack(o.throttle_time_ms, o.error_code))
    x = o.groups
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_ListedGroup_3(e, w)
        c += 1
        if c >= 1000:
            c = 0
            yield
    _wtag(w, o._unknown_tagged)


ListGroupsResponse._DECODERS = {0: _d_ListGroupsResponse_0, 1: _d_ListGroupsResponse_1, 2: _d_ListGroupsResponse_1, 3: _d_ListGroupsResponse_2, 4: _d_ListGroupsResponse_3, 5: _d_ListGroupsResponse_4}
ListGroupsResponse._ENCODERS = {0: _e_ListGroupsResponse_0, 1: _e_ListGroupsResponse_1, 2: _e_ListGroupsResponse_1, 3: _e_ListGroupsResponse_2, 4: _e_ListGroupsResponse_3, 5: _e_ListGroupsResponse_4}
ListGroupsResponse._ENCODE_STEPS = {0: _t_ListGroupsResponse_0, 1: _t_ListGroupsResponse_1, 2: _t_ListGroupsResponse_1, 3: _t_ListGroupsResponse_2, 4: _t_ListGroupsResponse_3, 5: _t_ListGroupsResponse_4}
