"""Generated from Kafka's UpdateRaftVoterRequest.json by tools/gen_wire.py. Do not edit."""
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

_S0 = _struct.Struct('>ii16s')
_S1 = _struct.Struct('>H')
_S2 = _struct.Struct('>hh')


class Listener(Message):
    __slots__ = ('name', 'host', 'port', '_unknown_tagged')
    _FIELDS = (('name', 'string', 0, 32767, -1, -1, None, -1, None), ('host', 'string', 0, 32767, -1, -1, None, -1, None), ('port', 'uint16', 0, 32767, -1, -1, None, -1, None))

    def __init__(self, *, name='', host='', port=0, _unknown_tagged=None):
        self.name = name
        self.host = host
        self.port = port
        self._unknown_tagged = _unknown_tagged


class KRaftVersionFeature(Message):
    __slots__ = ('min_supported_version', 'max_supported_version', '_unknown_tagged')
    _FIELDS = (('min_supported_version', 'int16', 0, 32767, -1, -1, None, -1, None), ('max_supported_version', 'int16', 0, 32767, -1, -1, None, -1, None))

    def __init__(self, *, min_supported_version=0, max_supported_version=0, _unknown_tagged=None):
        self.min_supported_version = min_supported_version
        self.max_supported_version = max_supported_version
        self._unknown_tagged = _unknown_tagged


class UpdateRaftVoterRequest(Message):
    __slots__ = ('cluster_id', 'current_leader_epoch', 'voter_id', 'voter_directory_id', 'listeners', 'k_raft_version_feature', '_unknown_tagged')
    _FIELDS = (('cluster_id', 'string', 0, 32767, 0, 32767, None, -1, None), ('current_leader_epoch', 'int32', 0, 32767, -1, -1, None, -1, None), ('voter_id', 'int32', 0, 32767, -1, -1, None, -1, None), ('voter_directory_id', 'uuid', 0, 32767, -1, -1, None, -1, None), ('listeners', '[]Listener', 0, 32767, -1, -1, None, -1, 'Listener'), ('k_raft_version_feature', 'KRaftVersionFeature', 0, 32767, -1, -1, None, -1, 'KRaftVersionFeature'))
    API_KEY = 82
    VALID_VERSIONS = (0, 0)
    FLEXIBLE_MIN = 0

    def __init__(self, *, cluster_id='', current_leader_epoch=0, voter_id=0, voter_directory_id=ZERO_UUID, listeners=DEFAULT, k_raft_version_feature=DEFAULT, _unknown_tagged=None):
        self.cluster_id = cluster_id
        self.current_leader_epoch = current_leader_epoch
        self.voter_id = voter_id
        self.voter_directory_id = voter_directory_id
        self.listeners = [] if listeners is DEFAULT else listeners
        self.k_raft_version_feature = KRaftVersionFeature() if k_raft_version_feature is DEFAULT else k_raft_version_feature
        self._unknown_tagged = _unknown_tagged



def _d_Listener_0(b, p):
    o = _new(Listener)
    o.name, p = _rcstr(b, p)
    o.host, p = _rcstr(b, p)
    o.port, = _S1.unpack_from(b, p)
    p += 2
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_KRaftVersionFeature_0(b, p):
    o = _new(KRaftVersionFeature)
    o.min_supported_version, o.max_supported_version = _S2.unpack_from(b, p)
    p += 4
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_UpdateRaftVoterRequest_0(b, p):
    o = _new(UpdateRaftVoterRequest)
    o.cluster_id, p = _rcnstr(b, p)
    o.current_leader_epoch, o.voter_id, o.voter_directory_id = _S0.unpack_from(b, p)
    p += 24
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 5)
    l = []
    for _ in range(n):
        e, p = _d_Listener_0(b, p)
        l.append(e)
    o.listeners = l
    o.k_raft_version_feature, p = _d_KRaftVersionFeature_0(b, p)
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_Listener_0(o, w):
    _wcstr(w, o.name)
    _wcstr(w, o.host)
    w.append(_S1.pack(o.port))
    _wtag(w, o._unknown_tagged)


def _e_KRaftVersionFeature_0(o, w):
    w.append(_S2.pack(o.min_supported_version, o.max_supported_version))
    _wtag(w, o._unknown_tagged)


def _e_UpdateRaftVoterRequest_0(o, w):
    _wcnstr(w, o.cluster_id)
    w.append(_S0.pack(o.current_leader_epoch, o.voter_id, o.voter_directory_id))
    x = o.listeners
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_Listener_0(e, w)
    _e_KRaftVersionFeature_0(o.k_raft_version_feature, w)
    _wtag(w, o._unknown_tagged)


UpdateRaftVoterRequest._DECODERS = {0: _d_UpdateRaftVoterRequest_0}
UpdateRaftVoterRequest._ENCODERS = {0: _e_UpdateRaftVoterRequest_0}
