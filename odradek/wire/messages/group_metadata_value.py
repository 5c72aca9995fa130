"""Generated from Kafka's GroupMetadataValue.json by tools/gen_wire.py. Do not edit."""
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
_S2 = _struct.Struct('>q')


class MemberMetadata(Message):
    __slots__ = ('member_id', 'group_instance_id', 'client_id', 'client_host', 'rebalance_timeout', 'session_timeout', 'subscription', 'assignment', '_unknown_tagged')
    _FIELDS = (('member_id', 'string', 0, 32767, -1, -1, None, -1, None), ('group_instance_id', 'string', 3, 32767, 3, 32767, None, -1, None), ('client_id', 'string', 0, 32767, -1, -1, None, -1, None), ('client_host', 'string', 0, 32767, -1, -1, None, -1, None), ('rebalance_timeout', 'int32', 1, 32767, -1, -1, None, -1, None), ('session_timeout', 'int32', 0, 32767, -1, -1, None, -1, None), ('subscription', 'bytes', 0, 32767, -1, -1, None, -1, None), ('assignment', 'bytes', 0, 32767, -1, -1, None, -1, None))

    def __init__(self, *, member_id='', group_instance_id=None, client_id='', client_host='', rebalance_timeout=-1, session_timeout=0, subscription=b'', assignment=b'', _unknown_tagged=None):
        self.member_id = member_id
        self.group_instance_id = group_instance_id
        self.client_id = client_id
        self.client_host = client_host
        self.rebalance_timeout = rebalance_timeout
        self.session_timeout = session_timeout
        self.subscription = subscription
        self.assignment = assignment
        self._unknown_tagged = _unknown_tagged


class GroupMetadataValue(Message):
    __slots__ = ('protocol_type', 'generation', 'protocol', 'leader', 'current_state_timestamp', 'members', '_unknown_tagged')
    _FIELDS = (('protocol_type', 'string', 0, 32767, -1, -1, None, -1, None), ('generation', 'int32', 0, 32767, -1, -1, None, -1, None), ('protocol', 'string', 0, 32767, 0, 32767, None, -1, None), ('leader', 'string', 0, 32767, 0, 32767, None, -1, None), ('current_state_timestamp', 'int64', 2, 32767, -1, -1, None, -1, None), ('members', '[]MemberMetadata', 0, 32767, -1, -1, None, -1, 'MemberMetadata'))
    API_KEY = 2
    VALID_VERSIONS = (0, 4)
    FLEXIBLE_MIN = 4

    def __init__(self, *, protocol_type='', generation=0, protocol='', leader='', current_state_timestamp=-1, members=DEFAULT, _unknown_tagged=None):
        self.protocol_type = protocol_type
        self.generation = generation
        self.protocol = protocol
        self.leader = leader
        self.current_state_timestamp = current_state_timestamp
        self.members = [] if members is DEFAULT else members
        self._unknown_tagged = _unknown_tagged



def _d_MemberMetadata_0(b, p):
    o = _new(MemberMetadata)
    o.member_id, p = _rstr(b, p)
    o.group_instance_id = None
    o.client_id, p = _rstr(b, p)
    o.client_host, p = _rstr(b, p)
    o.rebalance_timeout = -1
    o.session_timeout, = _S0.unpack_from(b, p)
    p += 4
    o.subscription, p = _rbyt(b, p)
    o.assignment, p = _rbyt(b, p)
    o._unknown_tagged = None
    return o, p


def _d_GroupMetadataValue_0(b, p):
    o = _new(GroupMetadataValue)
    o.protocol_type, p = _rstr(b, p)
    o.generation, = _S0.unpack_from(b, p)
    p += 4
    o.protocol, p = _rnstr(b, p)
    o.leader, p = _rnstr(b, p)
    o.current_state_timestamp = -1
    n, p = _ral(b, p, 18)
    l = []
    for _ in range(n):
        e, p = _d_MemberMetadata_0(b, p)
        l.append(e)
    o.members = l
    o._unknown_tagged = None
    return o, p


def _e_MemberMetadata_0(o, w):
    _wstr(w, o.member_id)
    _wstr(w, o.client_id)
    _wstr(w, o.client_host)
    w.append(_S0.pack(o.session_timeout))
    _wbyt(w, o.subscription)
    _wbyt(w, o.assignment)


def _e_GroupMetadataValue_0(o, w):
    _wstr(w, o.protocol_type)
    w.append(_S0.pack(o.generation))
    _wnstr(w, o.protocol)
    _wnstr(w, o.leader)
    x = o.members
    w.append(_I(len(x)))
    for e in x:
        _e_MemberMetadata_0(e, w)


def _d_MemberMetadata_1(b, p):
    o = _new(MemberMetadata)
    o.member_id, p = _rstr(b, p)
    o.group_instance_id = None
    o.client_id, p = _rstr(b, p)
    o.client_host, p = _rstr(b, p)
    o.rebalance_timeout, o.session_timeout = _S1.unpack_from(b, p)
    p += 8
    o.subscription, p = _rbyt(b, p)
    o.assignment, p = _rbyt(b, p)
    o._unknown_tagged = None
    return o, p


def _d_GroupMetadataValue_1(b, p):
    o = _new(GroupMetadataValue)
    o.protocol_type, p = _rstr(b, p)
    o.generation, = _S0.unpack_from(b, p)
    p += 4
    o.protocol, p = _rnstr(b, p)
    o.leader, p = _rnstr(b, p)
    o.current_state_timestamp = -1
    n, p = _ral(b, p, 22)
    l = []
    for _ in range(n):
        e, p = _d_MemberMetadata_1(b, p)
        l.append(e)
    o.members = l
    o._unknown_tagged = None
    return o, p


def _e_MemberMetadata_1(o, w):
    _wstr(w, o.member_id)
    _wstr(w, o.client_id)
    _wstr(w, o.client_host)
    w.append(_S1.pack(o.rebalance_timeout, o.session_timeout))
    _wbyt(w, o.subscription)
    _wbyt(w, o.assignment)


def _e_GroupMetadataValue_1(o, w):
    _wstr(w, o.protocol_type)
    w.append(_S0.pack(o.generation))
    _wnstr(w, o.protocol)
    _wnstr(w, o.leader)
    x = o.members
    w.append(_I(len(x)))
    for e in x:
        _e_MemberMetadata_1(e, w)


def _d_GroupMetadataValue_2(b, p):
    o = _new(GroupMetadataValue)
    o.protocol_type, p = _rstr(b, p)
    o.generation, = _S0.unpack_from(b, p)
    p += 4
    o.protocol, p = _rnstr(b, p)
    o.leader, p = _rnstr(b, p)
    o.current_state_timestamp, = _S2.unpack_from(b, p)
    p += 8
    n, p = _ral(b, p, 22)
    l = []
    for _ in range(n):
        e, p = _d_MemberMetadata_1(b, p)
        l.append(e)
    o.members = l
    o._unknown_tagged = None
    return o, p


def _e_GroupMetadataValue_2(o, w):
    _wstr(w, o.protocol_type)
    w.append(_S0.pack(o.generation))
    _wnstr(w, o.protocol)
    _wnstr(w, o.leader)
    w.append(_S2.pack(o.current_state_timestamp))
    x = o.members
    w.append(_I(len(x)))
    for e in x:
        _e_MemberMetadata_1(e, w)


def _d_MemberMetadata_2(b, p):
    o = _new(MemberMetadata)
    o.member_id, p = _rstr(b, p)
    o.group_instance_id, p = _rnstr(b, p)
    o.client_id, p = _rstr(b, p)
    o.client_host, p = _rstr(b, p)
    o.rebalance_timeout, o.session_timeout = _S1.unpack_from(b, p)
    p += 8
    o.subscription, p = _rbyt(b, p)
    o.assignment, p = _rbyt(b, p)
    o._unknown_tagged = None
    return o, p


def _d_GroupMetadataValue_3(b, p):
    o = _new(GroupMetadataValue)
    o.protocol_type, p = _rstr(b, p)
    o.generation, = _S0.unpack_from(b, p)
    p += 4
    o.protocol, p = _rnstr(b, p)
    o.leader, p = _rnstr(b, p)
    o.current_state_timestamp, = _S2.unpack_from(b, p)
    p += 8
    n, p = _ral(b, p, 24)
    l = []
    for _ in range(n):
        e, p = _d_MemberMetadata_2(b, p)
        l.append(e)
    o.members = l
    o._unknown_tagged = None
    return o, p


def _e_MemberMetadata_2(o, w):
    _wstr(w, o.member_id)
    _wnstr(w, o.group_instance_id)
    _wstr(w, o.client_id)
    _wstr(w, o.client_host)
    w.append(_S1.pack(o.rebalance_timeout, o.session_timeout))
    _wbyt(w, o.subscription)
    _wbyt(w, o.assignment)


def _e_GroupMetadataValue_3(o, w):
    _wstr(w, o.protocol_type)
    w.append(_S0.pack(o.generation))
    _wnstr(w, o.protocol)
    _wnstr(w, o.leader)
    w.append(_S2.pack(o.current_state_timestamp))
    x = o.members
    w.append(_I(len(x)))
    for e in x:
        _e_MemberMetadata_2(e, w)


def _d_MemberMetadata_3(b, p):
    o = _new(MemberMetadata)
    o.member_id, p = _rcstr(b, p)
    o.group_instance_id, p = _rcnstr(b, p)
    o.client_id, p = _rcstr(b, p)
    o.client_host, p = _rcstr(b, p)
    o.rebalance_timeout, o.session_timeout = _S1.unpack_from(b, p)
    p += 8
    o.subscription, p = _rcbyt(b, p)
    o.assignment, p = _rcbyt(b, p)
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_GroupMetadataValue_4(b, p):
    o = _new(GroupMetadataValue)
    o.protocol_type, p = _rcstr(b, p)
    o.generation, = _S0.unpack_from(b, p)
    p += 4
    o.protocol, p = _rcnstr(b, p)
    o.leader, p = _rcnstr(b, p)
    o.current_state_timestamp, = _S2.unpack_from(b, p)
    p += 8
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 15)
    l = []
    for _ in range(n):
        e, p = _d_MemberMetadata_3(b, p)
        l.append(e)
    o.members = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_MemberMetadata_3(o, w):
    _wcstr(w, o.member_id)
    _wcnstr(w, o.group_instance_id)
    _wcstr(w, o.client_id)
    _wcstr(w, o.client_host)
    w.append(_S1.pack(o.rebalance_timeout, o.session_timeout))
    _wcbyt(w, o.subscription)
    _wcbyt(w, o.assignment)
    _wtag(w, o._unknown_tagged)


def _e_GroupMetadataValue_4(o, w):
    _wcstr(w, o.protocol_type)
    w.append(_S0.pack(o.generation))
    _wcnstr(w, o.protocol)
    _wcnstr(w, o.leader)
    w.append(_S2.pack(o.current_state_timestamp))
    x = o.members
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_MemberMetadata_3(e, w)
    _wtag(w, o._unknown_tagged)


GroupMetadataValue._DECODERS = {0: _d_GroupMetadataValue_0, 1: _d_GroupMetadataValue_1, 2: _d_GroupMetadataValue_2, 3: _d_GroupMetadataValue_3, 4: _d_GroupMetadataValue_4}
GroupMetadataValue._ENCODERS = {0: _e_GroupMetadataValue_0, 1: _e_GroupMetadataValue_1, 2: _e_GroupMetadataValue_2, 3: _e_GroupMetadataValue_3, 4: _e_GroupMetadataValue_4}
