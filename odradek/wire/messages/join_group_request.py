"""Generated from Kafka's JoinGroupRequest.json by tools/gen_wire.py. Do not edit."""
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
_S1 = _struct.Struct('>ii')


class JoinGroupRequestProtocol(Message):
    __slots__ = ('name', 'metadata', '_unknown_tagged')
    _FIELDS = (('name', 'string', 0, 32767, -1, -1, None, -1, None), ('metadata', 'bytes', 0, 32767, -1, -1, None, -1, None))

    def __init__(self, *, name='', metadata=b'', _unknown_tagged=None):
        self.name = name
        self.metadata = metadata
        self._unknown_tagged = _unknown_tagged


class JoinGroupRequest(Message):
    __slots__ = ('group_id', 'session_timeout_ms', 'rebalance_timeout_ms', 'member_id', 'group_instance_id', 'protocol_type', 'protocols', 'reason', '_unknown_tagged')
    _FIELDS = (('group_id', 'string', 0, 32767, -1, -1, None, -1, None), ('session_timeout_ms', 'int32', 0, 32767, -1, -1, None, -1, None), ('rebalance_timeout_ms', 'int32', 1, 32767, -1, -1, None, -1, None), ('member_id', 'string', 0, 32767, -1, -1, None, -1, None), ('group_instance_id', 'string', 5, 32767, 5, 32767, None, -1, None), ('protocol_type', 'string', 0, 32767, -1, -1, None, -1, None), ('protocols', '[]JoinGroupRequestProtocol', 0, 32767, -1, -1, None, -1, 'JoinGroupRequestProtocol'), ('reason', 'string', 8, 32767, 8, 32767, None, -1, None))
    API_KEY = 11
    VALID_VERSIONS = (0, 9)
    FLEXIBLE_MIN = 6

    def __init__(self, *, group_id='', session_timeout_ms=0, rebalance_timeout_ms=-1, member_id='', group_instance_id=None, protocol_type='', protocols=DEFAULT, reason=None, _unknown_tagged=None):
        self.group_id = group_id
        self.session_timeout_ms = session_timeout_ms
        self.rebalance_timeout_ms = rebalance_timeout_ms
        self.member_id = member_id
        self.group_instance_id = group_instance_id
        self.protocol_type = protocol_type
        self.protocols = [] if protocols is DEFAULT else protocols
        self.reason = reason
        self._unknown_tagged = _unknown_tagged



def _d_JoinGroupRequestProtocol_0(b, p):
    o = _new(JoinGroupRequestProtocol)
    o.name, p = _rstr(b, p)
    o.metadata, p = _rbyt(b, p)
    o._unknown_tagged = None
    return o, p


def _d_JoinGroupRequest_0(b, p):
    o = _new(JoinGroupRequest)
    o.group_id, p = _rstr(b, p)
    o.session_timeout_ms, = _S0.unpack_from(b, p)
    p += 4
    o.rebalance_timeout_ms = -1
    o.member_id, p = _rstr(b, p)
    o.group_instance_id = None
    o.protocol_type, p = _rstr(b, p)
    n, p = _ral(b, p, 6)
    l = []
    for _ in range(n):
        e, p = _d_JoinGroupRequestProtocol_0(b, p)
        l.append(e)
    o.protocols = l
    o.reason = None
    o._unknown_tagged = None
    return o, p


def _e_JoinGroupRequestProtocol_0(o, w):
    _wstr(w, o.name)
    _wbyt(w, o.metadata)


def _e_JoinGroupRequest_0(o, w):
    _wstr(w, o.group_id)
    w.append(_S0.pack(o.session_timeout_ms))
    _wstr(w, o.member_id)
    _wstr(w, o.protocol_type)
    x = o.protocols
    w.append(_I(len(x)))
    for e in x:
        _e_JoinGroupRequestProtocol_0(e, w)


def _d_JoinGroupRequest_1(b, p):
    o = _new(JoinGroupRequest)
    o.group_id, p = _rstr(b, p)
    o.session_timeout_ms, o.rebalance_timeout_ms = _S1.unpack_from(b, p)
    p += 8
    o.member_id, p = _rstr(b, p)
    o.group_instance_id = None
    o.protocol_type, p = _rstr(b, p)
    n, p = _ral(b, p, 6)
    l = []
    for _ in range(n):
        e, p = _d_JoinGroupRequestProtocol_0(b, p)
        l.append(e)
    o.protocols = l
    o.reason = None
    o._unknown_tagged = None
    return o, p


def _e_JoinGroupRequest_1(o, w):
    _wstr(w, o.group_id)
    w.append(_S1.pack(o.session_timeout_ms, o.rebalance_timeout_ms))
    _wstr(w, o.member_id)
    _wstr(w, o.protocol_type)
    x = o.protocols
    w.append(_I(len(x)))
    for e in x:
        _e_JoinGroupRequestProtocol_0(e, w)


def _d_JoinGroupRequest_2(b, p):
    o = _new(JoinGroupRequest)
    o.group_id, p = _rstr(b, p)
    o.session_timeout_ms, o.rebalance_timeout_ms = _S1.unpack_from(b, p)
    p += 8
    o.member_id, p = _rstr(b, p)
    o.group_instance_id, p = _rnstr(b, p)
    o.protocol_type, p = _rstr(b, p)
    n, p = _ral(b, p, 6)
    l = []
    for _ in range(n):
        e, p = _d_JoinGroupRequestProtocol_0(b, p)
        l.append(e)
    o.protocols = l
    o.reason = None
    o._unknown_tagged = None
    return o, p


def _e_JoinGroupRequest_2(o, w):
    _wstr(w, o.group_id)
    w.append(_S1.pack(o.session_timeout_ms, o.rebalance_timeout_ms))
    _wstr(w, o.member_id)
    _wnstr(w, o.group_instance_id)
    _wstr(w, o.protocol_type)
    x = o.protocols
    w.append(_I(len(x)))
    for e in x:
        _e_JoinGroupRequestProtocol_0(e, w)


def _d_JoinGroupRequestProtocol_1(b, p):
    o = _new(JoinGroupRequestProtocol)
    o.name, p = _rcstr(b, p)
    o.metadata, p = _rcbyt(b, p)
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_JoinGroupRequest_3(b, p):
    o = _new(JoinGroupRequest)
    o.group_id, p = _rcstr(b, p)
    o.session_timeout_ms, o.rebalance_timeout_ms = _S1.unpack_from(b, p)
    p += 8
    o.member_id, p = _rcstr(b, p)
    o.group_instance_id, p = _rcnstr(b, p)
    o.protocol_type, p = _rcstr(b, p)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 3)
    l = []
    for _ in range(n):
        e, p = _d_JoinGroupRequestProtocol_1(b, p)
        l.append(e)
    o.protocols = l
    o.reason = None
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_JoinGroupRequestProtocol_1(o, w):
    _wcstr(w, o.name)
    _wcbyt(w, o.metadata)
    _wtag(w, o._unknown_tagged)


def _e_JoinGroupRequest_3(o, w):
    _wcstr(w, o.group_id)
    w.append(_S1.pack(o.session_timeout_ms, o.rebalance_timeout_ms))
    _wcstr(w, o.member_id)
    _wcnstr(w, o.group_instance_id)
    _wcstr(w, o.protocol_type)
    x = o.protocols
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_JoinGroupRequestProtocol_1(e, w)
    _wtag(w, o._unknown_tagged)


def _d_JoinGroupRequest_4(b, p):
    o = _new(JoinGroupRequest)
    o.group_id, p = _rcstr(b, p)
    o.session_timeout_ms, o.rebalance_timeout_ms = _S1.unpack_from(b, p)
    p += 8
    o.member_id, p = _rcstr(b, p)
    o.group_instance_id, p = _rcnstr(b, p)
    o.protocol_type, p = _rcstr(b, p)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 3)
    l = []
    for _ in range(n):
        e, p = _d_JoinGroupRequestProtocol_1(b, p)
        l.append(e)
    o.protocols = l
    o.reason, p = _rcnstr(b, p)
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_JoinGroupRequest_4(o, w):
    _wcstr(w, o.group_id)
    w.append(_S1.pack(o.session_timeout_ms, o.rebalance_timeout_ms))
    _wcstr(w, o.member_id)
    _wcnstr(w, o.group_instance_id)
    _wcstr(w, o.protocol_type)
    x = o.protocols
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_JoinGroupRequestProtocol_1(e, w)
    _wcnstr(w, o.reason)
    _wtag(w, o._unknown_tagged)


JoinGroupRequest._DECODERS = {0: _d_JoinGroupRequest_0, 1: _d_JoinGroupRequest_1, 2: _d_JoinGroupRequest_1, 3: _d_JoinGroupRequest_1, 4: _d_JoinGroupRequest_1, 5: _d_JoinGroupRequest_2, 6: _d_JoinGroupRequest_3, 7: _d_JoinGroupRequest_3, 8: _d_JoinGroupRequest_4, 9: _d_JoinGroupRequest_4}
JoinGroupRequest._ENCODERS = {0: _e_JoinGroupRequest_0, 1: _e_JoinGroupRequest_1, 2: _e_JoinGroupRequest_1, 3: _e_JoinGroupRequest_1, 4: _e_JoinGroupRequest_1, 5: _e_JoinGroupRequest_2, 6: _e_JoinGroupRequest_3, 7: _e_JoinGroupRequest_3, 8: _e_JoinGroupRequest_4, 9: _e_JoinGroupRequest_4}
