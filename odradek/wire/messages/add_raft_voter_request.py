"""Generated from Kafka's AddRaftVoterRequest.json by tools/gen_wire.py. Do not edit."""
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
_S2 = _struct.Struct('>?')


class Listener(Message):
    __slots__ = ('name', 'host', 'port', '_unknown_tagged')
    _FIELDS = (('name', 'string', 0, 32767, -1, -1, None, -1, None), ('host', 'string', 0, 32767, -1, -1, None, -1, None), ('port', 'uint16', 0, 32767, -1, -1, None, -1, None))

    def __init__(self, *, name='', host='', port=0, _unknown_tagged=None):
        self.name = name
        self.host = host
        self.port = port
        self._unknown_tagged = _unknown_tagged


class AddRaftVoterRequest(Message):
    __slots__ = ('cluster_id', 'timeout_ms', 'voter_id', 'voter_directory_id', 'listeners', 'ack_when_committed', '_unknown_tagged')
    _FIELDS = (('cluster_id', 'string', 0, 32767, 0, 32767, None, -1, None), ('timeout_ms', 'int32', 0, 32767, -1, -1, None, -1, None), ('voter_id', 'int32', 0, 32767, -1, -1, None, -1, None), ('voter_directory_id', 'uuid', 0, 32767, -1, -1, None, -1, None), ('listeners', '[]Listener', 0, 32767, -1, -1, None, -1, 'Listener'), ('ack_when_committed', 'bool', 1, 32767, -1, -1, None, -1, None))
    API_KEY = 80
    VALID_VERSIONS = (0, 1)
    FLEXIBLE_MIN = 0

    def __init__(self, *, cluster_id='', timeout_ms=0, voter_id=0, voter_directory_id=ZERO_UUID, listeners=DEFAULT, ack_when_committed=True, _unknown_tagged=None):
        self.cluster_id = cluster_id
        self.timeout_ms = timeout_ms
        self.voter_id = voter_id
        self.voter_directory_id = voter_directory_id
        self.listeners = [] if listeners is DEFAULT else listeners
        self.ack_when_committed = ack_when_committed
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


def _d_AddRaftVoterRequest_0(b, p):
    o = _new(AddRaftVoterRequest)
    o.cluster_id, p = _rcnstr(b, p)
    o.timeout_ms, o.voter_id, o.voter_directory_id = _S0.unpack_from(b, p)
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
    o.ack_when_committed = True
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


def _e_AddRaftVoterRequest_0(o, w):
    _wcnstr(w, o.cluster_id)
    w.append(_S0.pack(o.timeout_ms, o.voter_id, o.voter_directory_id))
    x = o.listeners
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_Listener_0(e, w)
    _wtag(w, o._unknown_tagged)


def _d_AddRaftVoterRequest_1(b, p):
    o = _new(AddRaftVoterRequest)
    o.cluster_id, p = _rcnstr(b, p)
    o.timeout_ms, o.voter_id, o.voter_directory_id = _S0.unpack_from(b, p)
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
    o.ack_when_committed, = _S2.unpack_from(b, p)
    p += 1
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_AddRaftVoterRequest_1(o, w):
    _wcnstr(w, o.cluster_id)
    w.append(_S0.pack(o.timeout_ms, o.voter_id, o.voter_directory_id))
    x = o.listeners
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_Listener_0(e, w)
    w.append(_S2.pack(o.ack_when_committed))
    _wtag(w, o._unknown_tagged)


AddRaftVoterRequest._DECODERS = {0: _d_AddRaftVoterRequest_0, 1: _d_AddRaftVoterRequest_1}
AddRaftVoterRequest._ENCODERS = {0: _e_AddRaftVoterRequest_0, 1: _e_AddRaftVoterRequest_1}
