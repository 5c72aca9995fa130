"""Generated from Kafka's RegisterControllerRecord.json by tools/gen_wire.py. Do not edit."""
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

_S0 = _struct.Struct('>i16s?')
_S1 = _struct.Struct('>Hh')
_S2 = _struct.Struct('>hh')


class ControllerEndpoint(Message):
    __slots__ = ('name', 'host', 'port', 'security_protocol', '_unknown_tagged')
    _FIELDS = (('name', 'string', 0, 32767, -1, -1, None, -1, None), ('host', 'string', 0, 32767, -1, -1, None, -1, None), ('port', 'uint16', 0, 32767, -1, -1, None, -1, None), ('security_protocol', 'int16', 0, 32767, -1, -1, None, -1, None))

    def __init__(self, *, name='', host='', port=0, security_protocol=0, _unknown_tagged=None):
        self.name = name
        self.host = host
        self.port = port
        self.security_protocol = security_protocol
        self._unknown_tagged = _unknown_tagged


class ControllerFeature(Message):
    __slots__ = ('name', 'min_supported_version', 'max_supported_version', '_unknown_tagged')
    _FIELDS = (('name', 'string', 0, 32767, -1, -1, None, -1, None), ('min_supported_version', 'int16', 0, 32767, -1, -1, None, -1, None), ('max_supported_version', 'int16', 0, 32767, -1, -1, None, -1, None))

    def __init__(self, *, name='', min_supported_version=0, max_supported_version=0, _unknown_tagged=None):
        self.name = name
        self.min_supported_version = min_supported_version
        self.max_supported_version = max_supported_version
        self._unknown_tagged = _unknown_tagged


class RegisterControllerRecord(Message):
    __slots__ = ('controller_id', 'incarnation_id', 'zk_migration_ready', 'end_points', 'features', '_unknown_tagged')
    _FIELDS = (('controller_id', 'int32', 0, 32767, -1, -1, None, -1, None), ('incarnation_id', 'uuid', 0, 32767, -1, -1, None, -1, None), ('zk_migration_ready', 'bool', 0, 32767, -1, -1, None, -1, None), ('end_points', '[]ControllerEndpoint', 0, 32767, -1, -1, None, -1, 'ControllerEndpoint'), ('features', '[]ControllerFeature', 0, 32767, -1, -1, None, -1, 'ControllerFeature'))
    API_KEY = 27
    VALID_VERSIONS = (0, 0)
    FLEXIBLE_MIN = 0

    def __init__(self, *, controller_id=0, incarnation_id=ZERO_UUID, zk_migration_ready=False, end_points=DEFAULT, features=DEFAULT, _unknown_tagged=None):
        self.controller_id = controller_id
        self.incarnation_id = incarnation_id
        self.zk_migration_ready = zk_migration_ready
        self.end_points = [] if end_points is DEFAULT else end_points
        self.features = [] if features is DEFAULT else features
        self._unknown_tagged = _unknown_tagged



def _d_ControllerEndpoint_0(b, p):
    o = _new(ControllerEndpoint)
    o.name, p = _rcstr(b, p)
    o.host, p = _rcstr(b, p)
    o.port, o.security_protocol = _S1.unpack_from(b, p)
    p += 4
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_ControllerFeature_0(b, p):
    o = _new(ControllerFeature)
    o.name, p = _rcstr(b, p)
    o.min_supported_version, o.max_supported_version = _S2.unpack_from(b, p)
    p += 4
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_RegisterControllerRecord_0(b, p):
    o = _new(RegisterControllerRecord)
    o.controller_id, o.incarnation_id, o.zk_migration_ready = _S0.unpack_from(b, p)
    p += 21
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 7)
    l = []
    for _ in range(n):
        e, p = _d_ControllerEndpoint_0(b, p)
        l.append(e)
    o.end_points = l
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 6)
    l = []
    for _ in range(n):
        e, p = _d_ControllerFeature_0(b, p)
        l.append(e)
    o.features = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_ControllerEndpoint_0(o, w):
    _wcstr(w, o.name)
    _wcstr(w, o.host)
    w.append(_S1.pack(o.port, o.security_protocol))
    _wtag(w, o._unknown_tagged)


def _e_ControllerFeature_0(o, w):
    _wcstr(w, o.name)
    w.append(_S2.pack(o.min_supported_version, o.max_supported_version))
    _wtag(w, o._unknown_tagged)


def _e_RegisterControllerRecord_0(o, w):
    w.append(_S0.pack(o.controller_id, o.incarnation_id, o.zk_migration_ready))
    x = o.end_points
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_ControllerEndpoint_0(e, w)
    x = o.features
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_ControllerFeature_0(e, w)
    _wtag(w, o._unknown_tagged)


RegisterControllerRecord._DECODERS = {0: _d_RegisterControllerRecord_0}
RegisterControllerRecord._ENCODERS = {0: _e_RegisterControllerRecord_0}
