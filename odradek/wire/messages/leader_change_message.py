"""Generated from Kafka's LeaderChangeMessage.json by tools/gen_wire.py. Do not edit."""
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
_S1 = _struct.Struct('>i')
_S2 = _struct.Struct('>i16s')


class Voter(Message):
    __slots__ = ('voter_id', 'voter_directory_id', '_unknown_tagged')
    _FIELDS = (('voter_id', 'int32', 0, 32767, -1, -1, None, -1, None), ('voter_directory_id', 'uuid', 1, 32767, -1, -1, None, -1, None))

    def __init__(self, *, voter_id=0, voter_directory_id=ZERO_UUID, _unknown_tagged=None):
        self.voter_id = voter_id
        self.voter_directory_id = voter_directory_id
        self._unknown_tagged = _unknown_tagged


class LeaderChangeMessage(Message):
    __slots__ = ('version', 'leader_id', 'voters', 'granting_voters', '_unknown_tagged')
    _FIELDS = (('version', 'int16', 0, 32767, -1, -1, None, -1, None), ('leader_id', 'int32', 0, 32767, -1, -1, None, -1, None), ('voters', '[]Voter', 0, 32767, -1, -1, None, -1, 'Voter'), ('granting_voters', '[]Voter', 0, 32767, -1, -1, None, -1, 'Voter'))
    API_KEY = None
    VALID_VERSIONS = (0, 1)
    FLEXIBLE_MIN = 0

    def __init__(self, *, version=0, leader_id=0, voters=DEFAULT, granting_voters=DEFAULT, _unknown_tagged=None):
        self.version = version
        self.leader_id = leader_id
        self.voters = [] if voters is DEFAULT else voters
        self.granting_voters = [] if granting_voters is DEFAULT else granting_voters
        self._unknown_tagged = _unknown_tagged



def _d_Voter_0(b, p):
    o = _new(Voter)
    o.voter_id, = _S1.unpack_from(b, p)
    p += 4
    o.voter_directory_id = ZERO_UUID
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_LeaderChangeMessage_0(b, p):
    o = _new(LeaderChangeMessage)
    o.version, o.leader_id = _S0.unpack_from(b, p)
    p += 6
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 5)
    l = []
    for _ in range(n):
        e, p = _d_Voter_0(b, p)
        l.append(e)
    o.voters = l
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 5)
    l = []
    for _ in range(n):
        e, p = _d_Voter_0(b, p)
        l.append(e)
    o.granting_voters = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_Voter_0(o, w):
    w.append(_S1.pack(o.voter_id))
    _wtag(w, o._unknown_tagged)


def _e_LeaderChangeMessage_0(o, w):
    w.append(_S0.pack(o.version, o.leader_id))
    x = o.voters
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_Voter_0(e, w)
    x = o.granting_voters
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_Voter_0(e, w)
    _wtag(w, o._unknown_tagged)


def _d_Voter_1(b, p):
    o = _new(Voter)
    o.voter_id, o.voter_directory_id = _S2.unpack_from(b, p)
    p += 20
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_LeaderChangeMessage_1(b, p):
    o = _new(LeaderChangeMessage)
    o.version, o.leader_id = _S0.unpack_from(b, p)
    p += 6
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 21)
    l = []
    for _ in range(n):
        e, p = _d_Voter_1(b, p)
        l.append(e)
    o.voters = l
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 21)
    l = []
    for _ in range(n):
        e, p = _d_Voter_1(b, p)
        l.append(e)
    o.granting_voters = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_Voter_1(o, w):
    w.append(_S2.pack(o.voter_id, o.voter_directory_id))
    _wtag(w, o._unknown_tagged)


def _e_LeaderChangeMessage_1(o, w):
    w.append(_S0.pack(o.version, o.leader_id))
    x = o.voters
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_Voter_1(e, w)
    x = o.granting_voters
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_Voter_1(e, w)
    _wtag(w, o._unknown_tagged)


LeaderChangeMessage._DECODERS = {0: _d_LeaderChangeMessage_0, 1: _d_LeaderChangeMessage_1}
LeaderChangeMessage._ENCODERS = {0: _e_LeaderChangeMessage_0, 1: _e_LeaderChangeMessage_1}
