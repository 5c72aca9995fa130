"""Generated from Kafka's BrokerRegistrationRequest.json by tools/gen_wire.py. Do not edit."""
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
_S1 = _struct.Struct('>16s')
_S2 = _struct.Struct('>Hh')
_S3 = _struct.Struct('>hh')
_S4 = _struct.Struct('>?')
_S5 = _struct.Struct('>q')


class Listener(Message):
    __slots__ = ('name', 'host', 'port', 'security_protocol', '_unknown_tagged')
    _FIELDS = (('name', 'string', 0, 32767, -1, -1, None, -1, None), ('host', 'string', 0, 32767, -1, -1, None, -1, None), ('port', 'uint16', 0, 32767, -1, -1, None, -1, None), ('security_protocol', 'int16', 0, 32767, -1, -1, None, -1, None))

    def __init__(self, *, name='', host='', port=0, security_protocol=0, _unknown_tagged=None):
        self.name = name
        self.host = host
        self.port = port
        self.security_protocol = security_protocol
        self._unknown_tagged = _unknown_tagged


class Feature(Message):
    __slots__ = ('name', 'min_supported_version', 'max_supported_version', '_unknown_tagged')
    _FIELDS = (('name', 'string', 0, 32767, -1, -1, None, -1, None), ('min_supported_version', 'int16', 0, 32767, -1, -1, None, -1, None), ('max_supported_version', 'int16', 0, 32767, -1, -1, None, -1, None))

    def __init__(self, *, name='', min_supported_version=0, max_supported_version=0, _unknown_tagged=None):
        self.name = name
        self.min_supported_version = min_supported_version
        self.max_supported_version = max_supported_version
        self._unknown_tagged = _unknown_tagged


class BrokerRegistrationRequest(Message):
    __slots__ = ('broker_id', 'cluster_id', 'incarnation_id', 'listeners', 'features', 'rack', 'is_migrating_zk_broker', 'log_dirs', 'previous_broker_epoch', '_unknown_tagged')
    _FIELDS = (('broker_id', 'int32', 0, 32767, -1, -1, None, -1, None), ('cluster_id', 'string', 0, 32767, -1, -1, None, -1, None), ('incarnation_id', 'uuid', 0, 32767, -1, -1, None, -1, None), ('listeners', '[]Listener', 0, 32767, -1, -1, None, -1, 'Listener'), ('features', '[]Feature', 0, 32767, -1, -1, None, -1, 'Feature'), ('rack', 'string', 0, 32767, 0, 32767, None, -1, None), ('is_migrating_zk_broker', 'bool', 1, 32767, -1, -1, None, -1, None), ('log_dirs', '[]uuid', 2, 32767, -1, -1, None, -1, None), ('previous_broker_epoch', 'int64', 3, 32767, -1, -1, None, -1, None))
    API_KEY = 62
    VALID_VERSIONS = (0, 4)
    FLEXIBLE_MIN = 0

    def __init__(self, *, broker_id=0, cluster_id='', incarnation_id=ZERO_UUID, listeners=DEFAULT, features=DEFAULT, rack='', is_migrating_zk_broker=False, log_dirs=DEFAULT, previous_broker_epoch=-1, _unknown_tagged=None):
        self.broker_id = broker_id
        self.cluster_id = cluster_id
        self.incarnation_id = incarnation_id
        self.listeners = [] if listeners is DEFAULT else listeners
        self.features = [] if features is DEFAULT else features
        self.rack = rack
        self.is_migrating_zk_broker = is_migrating_zk_broker
        self.log_dirs = [] if log_dirs is DEFAULT else log_dirs
        self.previous_broker_epoch = previous_broker_epoch
        self._unknown_tagged = _unknown_tagged



def _d_Listener_0(b, p):
    o = _new(Listener)
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


def _d_Feature_0(b, p):
    o = _new(Feature)
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


def _d_BrokerRegistrationRequest_0(b, p):
    o = _new(BrokerRegistrationRequest)
    o.broker_id, = _S0.unpack_from(b, p)
    p += 4
    o.cluster_id, p = _rcstr(b, p)
    o.incarnation_id, = _S1.unpack_from(b, p)
    p += 16
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 7)
    l = []
    for _ in range(n):
        e, p = _d_Listener_0(b, p)
        l.append(e)
    o.listeners = l
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 6)
    l = []
    for _ in range(n):
        e, p = _d_Feature_0(b, p)
        l.append(e)
    o.features = l
    o.rack, p = _rcnstr(b, p)
    o.is_migrating_zk_broker = False
    o.log_dirs = []
    o.previous_broker_epoch = -1
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
    w.append(_S2.pack(o.port, o.security_protocol))
    _wtag(w, o._unknown_tagged)


def _e_Feature_0(o, w):
    _wcstr(w, o.name)
    w.append(_S3.pack(o.min_supported_version, o.max_supported_version))
    _wtag(w, o._unknown_tagged)


def _e_BrokerRegistrationRequest_0(o, w):
    w.append(_S0.pack(o.broker_id))
    _wcstr(w, o.cluster_id)
    w.append(_S1.pack(o.incarnation_id))
    x = o.listeners
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_Listener_0(e, w)
    x = o.features
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_Feature_0(e, w)
    _wcnstr(w, o.rack)
    _wtag(w, o._unknown_tagged)


def _d_BrokerRegistrationRequest_1(b, p):
    o = _new(BrokerRegistrationRequest)
    o.broker_id, = _S0.unpack_from(b, p)
    p += 4
    o.cluster_id, p = _rcstr(b, p)
    o.incarnation_id, = _S1.unpack_from(b, p)
    p += 16
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 7)
    l = []
    for _ in range(n):
        e, p = _d_Listener_0(b, p)
        l.append(e)
    o.listeners = l
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 6)
    l = []
    for _ in range(n):
        e, p = _d_Feature_0(b, p)
        l.append(e)
    o.features = l
    o.rack, p = _rcnstr(b, p)
    o.is_migrating_zk_broker, = _S4.unpack_from(b, p)
    p += 1
    o.log_dirs = []
    o.previous_broker_epoch = -1
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_BrokerRegistrationRequest_1(o, w):
    w.append(_S0.pack(o.broker_id))
    _wcstr(w, o.cluster_id)
    w.append(_S1.pack(o.incarnation_id))
    x = o.listeners
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_Listener_0(e, w)
    x = o.features
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_Feature_0(e, w)
    _wcnstr(w, o.rack)
    w.append(_S4.pack(o.is_migrating_zk_broker))
    _wtag(w, o._unknown_tagged)


def _d_BrokerRegistrationRequest_2(b, p):
    o = _new(BrokerRegistrationRequest)
    o.broker_id, = _S0.unpack_from(b, p)
    p += 4
    o.cluster_id, p = _rcstr(b, p)
    o.incarnation_id, = _S1.unpack_from(b, p)
    p += 16
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 7)
    l = []
    for _ in range(n):
        e, p = _d_Listener_0(b, p)
        l.append(e)
    o.listeners = l
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 6)
    l = []
    for _ in range(n):
        e, p = _d_Feature_0(b, p)
        l.append(e)
    o.features = l
    o.rack, p = _rcnstr(b, p)
    o.is_migrating_zk_broker, = _S4.unpack_from(b, p)
    p += 1
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 16)
    l = [bytes(b[p + 16 * i:p + 16 * i + 16]) for i in range(n)]
    if p + 16 * n > len(b): raise _Trunc('uuid array')
    p += 16 * n
    o.log_dirs = l
    o.previous_broker_epoch = -1
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_BrokerRegistrationRequest_2(o, w):
    w.append(_S0.pack(o.broker_id))
    _wcstr(w, o.cluster_id)
    w.append(_S1.pack(o.incarnation_id))
    x = o.listeners
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_Listener_0(e, w)
    x = o.features
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_Feature_0(e, w)
    _wcnstr(w, o.rack)
    w.append(_S4.pack(o.is_migrating_zk_broker))
    x = o.log_dirs
    w.append(_uv(len(x) + 1))
    w.append(b''.join(x))
    _wtag(w, o._unknown_tagged)


def _d_BrokerRegistrationRequest_3(b, p):
    o = _new(BrokerRegistrationRequest)
    o.broker_id, = _S0.unpack_from(b, p)
    p += 4
    o.cluster_id, p = _rcstr(b, p)
    o.incarnation_id, = _S1.unpack_from(b, p)
    p += 16
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 7)
    l = []
    for _ in range(n):
        e, p = _d_Listener_0(b, p)
        l.append(e)
    o.listeners = l
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 6)
    l = []
    for _ in range(n):
        e, p = _d_Feature_0(b, p)
        l.append(e)
    o.features = l
    o.rack, p = _rcnstr(b, p)
    o.is_migrating_zk_broker, = _S4.unpack_from(b, p)
    p += 1
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 16)
    l = [bytes(b[p + 16 * i:p + 16 * i + 16]) for i in range(n)]
    if p + 16 * n > len(b): raise _Trunc('uuid array')
    p += 16 * n
    o.log_dirs = l
    o.previous_broker_epoch, = _S5.unpack_from(b, p)
    p += 8
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_BrokerRegistrationRequest_3(o, w):
    w.append(_S0.pack(o.broker_id))
    _wcstr(w, o.cluster_id)
    w.append(_S1.pack(o.incarnation_id))
    x = o.listeners
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_Listener_0(e, w)
    x = o.features
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_Feature_0(e, w)
    _wcnstr(w, o.rack)
    w.append(_S4.pack(o.is_migrating_zk_broker))
    x = o.log_dirs
    w.append(_uv(len(x) + 1))
    w.append(b''.join(x))
    w.append(_S5.pack(o.previous_broker_epoch))
    _wtag(w, o._unknown_tagged)


BrokerRegistrationRequest._DECODERS = {0: _d_BrokerRegistrationRequest_0, 1: _d_BrokerRegistrationRequest_1, 2: _d_BrokerRegistrationRequest_2, 3: _d_BrokerRegistrationRequest_3, 4: _d_BrokerRegistrationRequest_3}
BrokerRegistrationRequest._ENCODERS = {0: _e_BrokerRegistrationRequest_0, 1: _e_BrokerRegistrationRequest_1, 2: _e_BrokerRegistrationRequest_2, 3: _e_BrokerRegistrationRequest_3, 4: _e_BrokerRegistrationRequest_3}
