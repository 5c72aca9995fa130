"""Generated from Kafka's AccessControlEntryRecord.json by tools/gen_wire.py. Do not edit."""
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

_S0 = _struct.Struct('>16sb')
_S1 = _struct.Struct('>b')
_S2 = _struct.Struct('>bb')


class AccessControlEntryRecord(Message):
    __slots__ = ('id', 'resource_type', 'resource_name', 'pattern_type', 'principal', 'host', 'operation', 'permission_type', '_unknown_tagged')
    _FIELDS = (('id', 'uuid', 0, 32767, -1, -1, None, -1, None), ('resource_type', 'int8', 0, 32767, -1, -1, None, -1, None), ('resource_name', 'string', 0, 32767, -1, -1, None, -1, None), ('pattern_type', 'int8', 0, 32767, -1, -1, None, -1, None), ('principal', 'string', 0, 32767, -1, -1, None, -1, None), ('host', 'string', 0, 32767, -1, -1, None, -1, None), ('operation', 'int8', 0, 32767, -1, -1, None, -1, None), ('permission_type', 'int8', 0, 32767, -1, -1, None, -1, None))
    API_KEY = 18
    VALID_VERSIONS = (0, 0)
    FLEXIBLE_MIN = 0

    def __init__(self, *, id=ZERO_UUID, resource_type=0, resource_name='', pattern_type=0, principal='', host='', operation=0, permission_type=0, _unknown_tagged=None):
        self.id = id
        self.resource_type = resource_type
        self.resource_name = resource_name
        self.pattern_type = pattern_type
        self.principal = principal
        self.host = host
        self.operation = operation
        self.permission_type = permission_type
        self._unknown_tagged = _unknown_tagged



def _d_AccessControlEntryRecord_0(b, p):
    o = _new(AccessControlEntryRecord)
    o.id, o.resource_type = _S0.unpack_from(b, p)
    p += 17
    o.resource_name, p = _rcstr(b, p)
    o.pattern_type, = _S1.unpack_from(b, p)
    p += 1
    o.principal, p = _rcstr(b, p)
    o.host, p = _rcstr(b, p)
    o.operation, o.permission_type = _S2.unpack_from(b, p)
    p += 2
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_AccessControlEntryRecord_0(o, w):
    w.append(_S0.pack(o.id, o.resource_type))
    _wcstr(w, o.resource_name)
    w.append(_S1.pack(o.pattern_type))
    _wcstr(w, o.principal)
    _wcstr(w, o.host)
    w.append(_S2.pack(o.operation, o.permission_type))
    _wtag(w, o._unknown_tagged)


AccessControlEntryRecord._DECODERS = {0: _d_AccessControlEntryRecord_0}
AccessControlEntryRecord._ENCODERS = {0: _e_AccessControlEntryRecord_0}
