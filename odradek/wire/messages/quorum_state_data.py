"""Generated from Kafka's QuorumStateData.json by tools/gen_wire.py. Do not edit."""
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

_S0 = _struct.Struct('>iii')
_S1 = _struct.Struct('>q')
_S2 = _struct.Struct('>i')
_S3 = _struct.Struct('>iiiq')
_S4 = _struct.Struct('>iii16s')


class Voter(Message):
    __slots__ = ('voter_id', '_unknown_tagged')
    _FIELDS = (('voter_id', 'int32', 0, 0, -1, -1, None, -1, None),)

    def __init__(self, *, voter_id=0, _unknown_tagged=None):
        self.voter_id = voter_id
        self._unknown_tagged = _unknown_tagged


class QuorumStateData(Message):
    __slots__ = ('cluster_id', 'leader_id', 'leader_epoch', 'voted_id', 'voted_directory_id', 'applied_offset', 'current_voters', '_unknown_tagged')
    _FIELDS = (('cluster_id', 'string', 0, 0, -1, -1, None, -1, None), ('leader_id', 'int32', 0, 32767, -1, -1, None, -1, None), ('leader_epoch', 'int32', 0, 32767, -1, -1, None, -1, None), ('voted_id', 'int32', 0, 32767, -1, -1, None, -1, None), ('voted_directory_id', 'uuid', 1, 32767, -1, -1, None, -1, None), ('applied_offset', 'int64', 0, 0, -1, -1, None, -1, None), ('current_voters', '[]Voter', 0, 0, 0, 0, None, -1, 'Voter'))
    API_KEY = None
    VALID_VERSIONS = (0, 1)
    FLEXIBLE_MIN = 0

    def __init__(self, *, cluster_id='', leader_id=-1, leader_epoch=-1, voted_id=-1, voted_directory_id=ZERO_UUID, applied_offset=0, current_voters=DEFAULT, _unknown_tagged=None):
        self.cluster_id = cluster_id
        self.leader_id = leader_id
        self.leader_epoch = leader_epoch
        self.voted_id = voted_id
        self.voted_directory_id = voted_directory_id
        self.applied_offset = applied_offset
        self.current_voters = [] if current_voters is DEFAULT else current_voters
        self._unknown_tagged = _unknown_tagged



def _d_Voter_0(b, p):
    o = _new(Voter)
    o.voter_id, = _S2.unpack_from(b, p)
    p += 4
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_QuorumStateData_0(b, p):
    o = _new(QuorumStateData)
    o.cluster_id, p = _rcstr(b, p)
    o.leader_id, o.leader_epoch, o.voted_id = _S0.unpack_from(b, p)
    p += 12
    o.voted_directory_id = ZERO_UUID
    o.applied_offset, = _S1.unpack_from(b, p)
    p += 8
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcnal(b, p, 5)
    if n < 0:
        o.current_voters = None
    else:
        l = []
        for _ in range(n):
            e, p = _d_Voter_0(b, p)
            l.append(e)
        o.current_voters = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_Voter_0(o, w):
    w.append(_S2.pack(o.voter_id))
    _wtag(w, o._unknown_tagged)


def _e_QuorumStateData_0(o, w):
    _wcstr(w, o.cluster_id)
    w.append(_S3.pack(o.leader_id, o.leader_epoch, o.voted_id, o.applied_offset))
    x = o.current_voters
    if x is None:
        w.append(b'\x00')
    else:
        w.append(_uv(len(x) + 1))
        for e in x:
            _e_Voter_0(e, w)
    _wtag(w, o._unknown_tagged)


def _d_QuorumStateData_1(b, p):
    o = _new(QuorumStateData)
    o.cluster_id = ''
    o.leader_id, o.leader_epoch, o.voted_id, o.voted_directory_id = _S4.unpack_from(b, p)
    p += 28
    o.applied_offset = 0
    o.current_voters = []
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_QuorumStateData_1(o, w):
    w.append(_S4.pack(o.leader_id, o.leader_epoch, o.voted_id, o.voted_directory_id))
    _wtag(w, o._unknown_tagged)


QuorumStateData._DECODERS = {0: _d_QuorumStateData_0, 1: _d_QuorumStateData_1}
QuorumStateData._ENCODERS = {0: _e_QuorumStateData_0, 1: _e_QuorumStateData_1}
