"""Generated from Kafka's UpdateRaftVoterResponse.json by tools/gen_wire.py. Do not edit."""
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

_S0 = _struct.Struct('>ih')
_S1 = _struct.Struct('>ii')
_S2 = _struct.Struct('>i')


class CurrentLeader(Message):
    __slots__ = ('leader_id', 'leader_epoch', 'host', 'port', '_unknown_tagged')
    _FIELDS = (('leader_id', 'int32', 0, 32767, -1, -1, None, -1, None), ('leader_epoch', 'int32', 0, 32767, -1, -1, None, -1, None), ('host', 'string', 0, 32767, -1, -1, None, -1, None), ('port', 'int32', 0, 32767, -1, -1, None, -1, None))

    def __init__(self, *, leader_id=-1, leader_epoch=-1, host='', port=0, _unknown_tagged=None):
        self.leader_id = leader_id
        self.leader_epoch = leader_epoch
        self.host = host
        self.port = port
        self._unknown_tagged = _unknown_tagged


class UpdateRaftVoterResponse(Message):
    __slots__ = ('throttle_time_ms', 'error_code', 'current_leader', '_unknown_tagged')
    _FIELDS = (('throttle_time_ms', 'int32', 0, 32767, -1, -1, None, -1, None), ('error_code', 'int16', 0, 32767, -1, -1, None, -1, None), ('current_leader', 'CurrentLeader', 0, 32767, -1, -1, 0, 0, 'CurrentLeader'))
    API_KEY = 82
    VALID_VERSIONS = (0, 0)
    FLEXIBLE_MIN = 0

    def __init__(self, *, throttle_time_ms=0, error_code=0, current_leader=DEFAULT, _unknown_tagged=None):
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.current_leader = CurrentLeader() if current_leader is DEFAULT else current_leader
        self._unknown_tagged = _unknown_tagged



def _d_CurrentLeader_0(b, p):
    o = _new(CurrentLeader)
    o.leader_id, o.leader_epoch = _S1.unpack_from(b, p)
    p += 8
    o.host, p = _rcstr(b, p)
    o.port, = _S2.unpack_from(b, p)
    p += 4
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_UpdateRaftVoterResponse_0(b, p):
    o = _new(UpdateRaftVoterResponse)
    o.throttle_time_ms, o.error_code = _S0.unpack_from(b, p)
    p += 6
    o.current_leader = CurrentLeader()
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    u = None
    if t is not None:
        for tag, raw in t:
            if tag == 0:
                q = 0
                o.current_leader, q = _d_CurrentLeader_0(raw, q)
            else:
                if u is None: u = []
                u.append((tag, bytes(raw)))
    o._unknown_tagged = u
    return o, p


def _e_CurrentLeader_0(o, w):
    w.append(_S1.pack(o.leader_id, o.leader_epoch))
    _wcstr(w, o.host)
    w.append(_S2.pack(o.port))
    _wtag(w, o._unknown_tagged)


def _e_UpdateRaftVoterResponse_0(o, w):
    w.append(_S0.pack(o.throttle_time_ms, o.error_code))
    tg = []
    x = o.current_leader
    if x != CurrentLeader():
        tw = []
        _e_CurrentLeader_0(x, tw)
        tg.append((0, b''.join(tw)))
    if o._unknown_tagged:
        tg = sorted(tg + o._unknown_tagged, key=_tagkey)
    _wtag(w, tg)


UpdateRaftVoterResponse._DECODERS = {0: _d_UpdateRaftVoterResponse_0}
UpdateRaftVoterResponse._ENCODERS = {0: _e_UpdateRaftVoterResponse_0}
