"""Generated from Kafka's RegisterBrokerRecord.json by tools/gen_wire.py. Do not edit."""
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
_S1 = _struct.Struct('>16sq')
_S2 = _struct.Struct('>Hh')
_S3 = _struct.Struct('>hh')
_S4 = _struct.Struct('>?')
_S5 = _struct.Struct('>i16sq')
_S6 = _struct.Struct('>??')
_S7 = _struct.Struct('>i?16sq')


class BrokerEndpoint(Message):
    __slots__ = ('name', 'host', 'port', 'security_protocol', '_unknown_tagged')
    _FIELDS = (('name', 'string', 0, 32767, -1, -1, None, -1, None), ('host', 'string', 0, 32767, -1, -1, None, -1, None), ('port', 'uint16', 0, 32767, -1, -1, None, -1, None), ('security_protocol', 'int16', 0, 32767, -1, -1, None, -1, None))

    def __init__(self, *, name='', host='', port=0, security_protocol=0, _unknown_tagged=None):
        self.name = name
        self.host = host
        self.port = port
        self.security_protocol = security_protocol
        self._unknown_tagged = _unknown_tagged


class BrokerFeature(Message):
    __slots__ = ('name', 'min_supported_version', 'max_supported_version', '_unknown_tagged')
    _FIELDS = (('name', 'string', 0, 32767, -1, -1, None, -1, None), ('min_supported_version', 'int16', 0, 32767, -1, -1, None, -1, None), ('max_supported_version', 'int16', 0, 32767, -1, -1, None, -1, None))

    def __init__(self, *, name='', min_supported_version=0, max_supported_version=0, _unknown_tagged=None):
        self.name = name
        self.min_supported_version = min_supported_version
        self.max_supported_version = max_supported_version
        self._unknown_tagged = _unknown_tagged


class RegisterBrokerRecord(Message):
    __slots__ = ('broker_id', 'is_migrating_zk_broker', 'incarnation_id', 'broker_epoch', 'end_points', 'features', 'rack', 'fenced', 'in_controlled_shutdown', 'log_dirs', 'cordoned_log_dirs', '_unknown_tagged')
    _FIELDS = (('broker_id', 'int32', 0, 32767, -1, -1, None, -1, None), ('is_migrating_zk_broker', 'bool', 2, 32767, -1, -1, None, -1, None), ('incarnation_id', 'uuid', 0, 32767, -1, -1, None, -1, None), ('broker_epoch', 'int64', 0, 32767, -1, -1, None, -1, None), ('end_points', '[]BrokerEndpoint', 0, 32767, -1, -1, None, -1, 'BrokerEndpoint'), ('features', '[]BrokerFeature', 0, 32767, -1, -1, None, -1, 'BrokerFeature'), ('rack', 'string', 0, 32767, 0, 32767, None, -1, None), ('fenced', 'bool', 0, 32767, -1, -1, None, -1, None), ('in_controlled_shutdown', 'bool', 1, 32767, -1, -1, None, -1, None), ('log_dirs', '[]uuid', 3, 32767, -1, -1, 0, 3, None), ('cordoned_log_dirs', '[]uuid', 4, 32767, 4, 32767, 1, 4, None))
    API_KEY = 0
    VALID_VERSIONS = (0, 4)
    FLEXIBLE_MIN = 0

    def __init__(self, *, broker_id=0, is_migrating_zk_broker=False, incarnation_id=ZERO_UUID, broker_epoch=0, end_points=DEFAULT, features=DEFAULT, rack='', fenced=True, in_controlled_shutdown=False, log_dirs=DEFAULT, cordoned_log_dirs=None, _unknown_tagged=None):
        self.broker_id = broker_id
        self.is_migrating_zk_broker = is_migrating_zk_broker
        self.incarnation_id = incarnation_id
        self.broker_epoch = broker_epoch
        self.end_points = [] if end_points is DEFAULT else end_points
        self.features = [] if features is DEFAULT else features
        self.rack = rack
        self.fenced = fenced
        self.in_controlled_shutdown = in_controlled_shutdown
        self.log_dirs = [] if log_dirs is DEFAULT else log_dirs
        self.cordoned_log_dirs = cordoned_log_dirs
        self._unknown_tagged = _unknown_tagged



def _d_BrokerEndpoint_0(b, p):
    o = _new(BrokerEndpoint)
    o.name, p = _rcstr(b, p)
    o.host, p = _rcstr(b, p)
    o.port, o.security_protocol = _S2.unpack_from(b, p)
    p += 4
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_BrokerFeature_0(b, p):
    o = _new(BrokerFeature)
    o.name, p = _rcstr(b, p)
    o.min_supported_version, o.max_supported_version = _S3.unpack_from(b, p)
    p += 4
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_RegisterBrokerRecord_0(b, p):
    o = _new(RegisterBrokerRecord)
    o.broker_id, = _S0.unpack_from(b, p)
    p += 4
    o.is_migrating_zk_broker = False
    o.incarnation_id, o.broker_epoch = _S1.unpack_from(b, p)
    p += 24
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 7)
    l = []
    for _ in range(n):
        e, p = _d_BrokerEndpoint_0(b, p)
        l.append(e)
    o.end_points = l
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 6)
    l = []
    for _ in range(n):
        e, p = _d_BrokerFeature_0(b, p)
        l.append(e)
    o.features = l
    o.rack, p = _rcnstr(b, p)
    o.fenced, = _S4.unpack_from(b, p)
    p += 1
    o.in_controlled_shutdown = False
    o.log_dirs = []
    o.cordoned_log_dirs = None
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_BrokerEndpoint_0(o, w):
    _wcstr(w, o.name)
    _wcstr(w, o.host)
    w.append(_S2.pack(o.port, o.security_protocol))
    _wtag(w, o._unknown_tagged)


def _e_BrokerFeature_0(o, w):
    _wcstr(w, o.name)
    w.append(_S3.pack(o.min_supported_version, o.max_supported_version))
    _wtag(w, o._unknown_tagged)


def _e_RegisterBrokerRecord_0(o, w):
    w.append(_S5.pack(o.broker_id, o.incarnation_id, o.broker_epoch))
    x = o.end_points
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_BrokerEndpoint_0(e, w)
    x = o.features
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_BrokerFeature_0(e, w)
    _wcnstr(w, o.rack)
    w.append(_S4.pack(o.fenced))
    _wtag(w, o._unknown_tagged)


def _d_RegisterBrokerRecord_1(b, p):
    o = _new(RegisterBrokerRecord)
    o.broker_id, = _S0.unpack_from(b, p)
    p += 4
    o.is_migrating_zk_broker = False
    o.incarnation_id, o.broker_epoch = _S1.unpack_from(b, p)
    p += 24
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 7)
    l = []
    for _ in range(n):
        e, p = _d_BrokerEndpoint_0(b, p)
        l.append(e)
    o.end_points = l
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 6)
    l = []
    for _ in range(n):
        e, p = _d_BrokerFeature_0(b, p)
        l.append(e)
    o.features = l
    o.rack, p = _rcnstr(b, p)
    o.fenced, o.in_controlled_shutdown = _S6.unpack_from(b, p)
    p += 2
    o.log_dirs = []
    o.cordoned_log_dirs = None
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_RegisterBrokerRecord_1(o, w):
    w.append(_S5.pack(o.broker_id, o.incarnation_id, o.broker_epoch))
    x = o.end_points
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_BrokerEndpoint_0(e, w)
    x = o.features
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_BrokerFeature_0(e, w)
    _wcnstr(w, o.rack)
    w.append(_S6.pack(o.fenced, o.in_controlled_shutdown))
    _wtag(w, o._unknown_tagged)


def _d_RegisterBrokerRecord_2(b, p):
    o = _new(RegisterBrokerRecord)
    o.broker_id, o.is_migrating_zk_broker, o.incarnation_id, o.broker_epoch = _S7.unpack_from(b, p)
    p += 29
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 7)
    l = []
    for _ in range(n):
        e, p = _d_BrokerEndpoint_0(b, p)
        l.append(e)
    o.end_points = l
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 6)
    l = []
    for _ in range(n):
        e, p = _d_BrokerFeature_0(b, p)
        l.append(e)
    o.features = l
    o.rack, p = _rcnstr(b, p)
    o.fenced, o.in_controlled_shutdown = _S6.unpack_from(b, p)
    p += 2
    o.log_dirs = []
    o.cordoned_log_dirs = None
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_RegisterBrokerRecord_2(o, w):
    w.append(_S7.pack(o.broker_id, o.is_migrating_zk_broker, o.incarnation_id, o.broker_epoch))
    x = o.end_points
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_BrokerEndpoint_0(e, w)
    x = o.features
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_BrokerFeature_0(e, w)
    _wcnstr(w, o.rack)
    w.append(_S6.pack(o.fenced, o.in_controlled_shutdown))
    _wtag(w, o._unknown_tagged)


def _d_RegisterBrokerRecord_3(b, p):
    o = _new(RegisterBrokerRecord)
    o.broker_id, o.is_migrating_zk_broker, o.incarnation_id, o.broker_epoch = _S7.unpack_from(b, p)
    p += 29
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 7)
    l = []
    for _ in range(n):
        e, p = _d_BrokerEndpoint_0(b, p)
        l.append(e)
    o.end_points = l
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 6)
    l = []
    for _ in range(n):
        e, p = _d_BrokerFeature_0(b, p)
        l.append(e)
    o.features = l
    o.rack, p = _rcnstr(b, p)
    o.fenced, o.in_controlled_shutdown = _S6.unpack_from(b, p)
    p += 2
    o.log_dirs = []
    o.cordoned_log_dirs = None
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
                n = raw[q] - 1
                if 0 <= n < 127:
                    q += 1
                else:
                    n, q = _rcal(raw, q, 16)
                l = [bytes(raw[q + 16 * i:q + 16 * i + 16]) for i in range(n)]
                if q + 16 * n > len(raw): raise _Trunc('uuid array')
                q += 16 * n
                o.log_dirs = l
            else:
                if u is None: u = []
                u.append((tag, bytes(raw)))
    o._unknown_tagged = u
    return o, p


def _e_RegisterBrokerRecord_3(o, w):
    w.append(_S7.pack(o.broker_id, o.is_migrating_zk_broker, o.incarnation_id, o.broker_epoch))
    x = o.end_points
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_BrokerEndpoint_0(e, w)
    x = o.features
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_BrokerFeature_0(e, w)
    _wcnstr(w, o.rack)
    w.append(_S6.pack(o.fenced, o.in_controlled_shutdown))
    tg = []
    x = o.log_dirs
    if x:
        tw = []
        x = x
        tw.append(_uv(len(x) + 1))
        tw.append(b''.join(x))
        tg.append((0, b''.join(tw)))
    if o._unknown_tagged:
        tg = sorted(tg + o._unknown_tagged, key=_tagkey)
    _wtag(w, tg)


def _d_RegisterBrokerRecord_4(b, p):
    o = _new(RegisterBrokerRecord)
    o.broker_id, o.is_migrating_zk_broker, o.incarnation_id, o.broker_epoch = _S7.unpack_from(b, p)
    p += 29
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 7)
    l = []
    for _ in range(n):
        e, p = _d_BrokerEndpoint_0(b, p)
        l.append(e)
    o.end_points = l
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 6)
    l = []
    for _ in range(n):
        e, p = _d_BrokerFeature_0(b, p)
        l.append(e)
    o.features = l
    o.rack, p = _rcnstr(b, p)
    o.fenced, o.in_controlled_shutdown = _S6.unpack_from(b, p)
    p += 2
    o.log_dirs = []
    o.cordoned_log_dirs = None
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
                n = raw[q] - 1
                if 0 <= n < 127:
                    q += 1
                else:
                    n, q = _rcal(raw, q, 16)
                l = [bytes(raw[q + 16 * i:q + 16 * i + 16]) for i in range(n)]
                if q + 16 * n > len(raw): raise _Trunc('uuid array')
                q += 16 * n
                o.log_dirs = l
            elif tag == 1:
                q = 0
                n = raw[q] - 1
                if 0 <= n < 127:
                    q += 1
                else:
                    n, q = _rcnal(raw, q, 16)
                if n < 0:
                    o.cordoned_log_dirs = None
                else:
                    l = [bytes(raw[q + 16 * i:q + 16 * i + 16]) for i in range(n)]
                    if q + 16 * n > len(raw): raise _Trunc('uuid array')
                    q += 16 * n
                    o.cordoned_log_dirs = l
            else:
                if u is None: u = []
                u.append((tag, bytes(raw)))
    o._unknown_tagged = u
    return o, p


def _e_RegisterBrokerRecord_4(o, w):
    w.append(_S7.pack(o.broker_id, o.is_migrating_zk_broker, o.incarnation_id, o.broker_epoch))
    x = o.end_points
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_BrokerEndpoint_0(e, w)
    x = o.features
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_BrokerFeature_0(e, w)
    _wcnstr(w, o.rack)
    w.append(_S6.pack(o.fenced, o.in_controlled_shutdown))
    tg = []
    x = o.log_dirs
    if x:
        tw = []
        x = x
        tw.append(_uv(len(x) + 1))
        tw.append(b''.join(x))
        tg.append((0, b''.join(tw)))
    x = o.cordoned_log_dirs
    if x is not None:
        tw = []
        x = x
        if x is None:
            tw.append(b'\x00')
        else:
            tw.append(_uv(len(x) + 1))
            tw.append(b''.join(x))
        tg.append((1, b''.join(tw)))
    if o._unknown_tagged:
        tg = sorted(tg + o._unknown_tagged, key=_tagkey)
    _wtag(w, tg)


RegisterBrokerRecord._DECODERS = {0: _d_RegisterBrokerRecord_0, 1: _d_RegisterBrokerRecord_1, 2: _d_RegisterBrokerRecord_2, 3: _d_RegisterBrokerRecord_3, 4: _d_RegisterBrokerRecord_4}
RegisterBrokerRecord._ENCODERS = {0: _e_RegisterBrokerRecord_0, 1: _e_RegisterBrokerRecord_1, 2: _e_RegisterBrokerRecord_2, 3: _e_RegisterBrokerRecord_3, 4: _e_RegisterBrokerRecord_4}
