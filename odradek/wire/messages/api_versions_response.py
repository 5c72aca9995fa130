"""Generated from Kafka's ApiVersionsResponse.json by tools/gen_wire.py. Do not edit."""
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

_S0 = _struct.Struct('>h')
_S1 = _struct.Struct('>hhh')
_S2 = _struct.Struct('>i')
_S3 = _struct.Struct('>hh')
_S4 = _struct.Struct('>q')
_S5 = _struct.Struct('>?')


class ApiVersion(Message):
    __slots__ = ('api_key', 'min_version', 'max_version', '_unknown_tagged')
    _FIELDS = (('api_key', 'int16', 0, 32767, -1, -1, None, -1, None), ('min_version', 'int16', 0, 32767, -1, -1, None, -1, None), ('max_version', 'int16', 0, 32767, -1, -1, None, -1, None))

    def __init__(self, *, api_key=0, min_version=0, max_version=0, _unknown_tagged=None):
        self.api_key = api_key
        self.min_version = min_version
        self.max_version = max_version
        self._unknown_tagged = _unknown_tagged


class SupportedFeatureKey(Message):
    __slots__ = ('name', 'min_version', 'max_version', '_unknown_tagged')
    _FIELDS = (('name', 'string', 3, 32767, -1, -1, None, -1, None), ('min_version', 'int16', 3, 32767, -1, -1, None, -1, None), ('max_version', 'int16', 3, 32767, -1, -1, None, -1, None))

    def __init__(self, *, name='', min_version=0, max_version=0, _unknown_tagged=None):
        self.name = name
        self.min_version = min_version
        self.max_version = max_version
        self._unknown_tagged = _unknown_tagged


class FinalizedFeatureKey(Message):
    __slots__ = ('name', 'max_version_level', 'min_version_level', '_unknown_tagged')
    _FIELDS = (('name', 'string', 3, 32767, -1, -1, None, -1, None), ('max_version_level', 'int16', 3, 32767, -1, -1, None, -1, None), ('min_version_level', 'int16', 3, 32767, -1, -1, None, -1, None))

    def __init__(self, *, name='', max_version_level=0, min_version_level=0, _unknown_tagged=None):
        self.name = name
        self.max_version_level = max_version_level
        self.min_version_level = min_version_level
        self._unknown_tagged = _unknown_tagged


class ApiVersionsResponse(Message):
    __slots__ = ('error_code', 'api_keys', 'throttle_time_ms', 'supported_features', 'finalized_features_epoch', 'finalized_features', 'zk_migration_ready', '_unknown_tagged')
    _FIELDS = (('error_code', 'int16', 0, 32767, -1, -1, None, -1, None), ('api_keys', '[]ApiVersion', 0, 32767, -1, -1, None, -1, 'ApiVersion'), ('throttle_time_ms', 'int32', 1, 32767, -1, -1, None, -1, None), ('supported_features', '[]SupportedFeatureKey', 3, 32767, -1, -1, 0, 3, 'SupportedFeatureKey'), ('finalized_features_epoch', 'int64', 3, 32767, -1, -1, 1, 3, None), ('finalized_features', '[]FinalizedFeatureKey', 3, 32767, -1, -1, 2, 3, 'FinalizedFeatureKey'), ('zk_migration_ready', 'bool', 3, 32767, -1, -1, 3, 3, None))
    API_KEY = 18
    VALID_VERSIONS = (0, 4)
    FLEXIBLE_MIN = 3

    def __init__(self, *, error_code=0, api_keys=DEFAULT, throttle_time_ms=0, supported_features=DEFAULT, finalized_features_epoch=-1, finalized_features=DEFAULT, zk_migration_ready=False, _unknown_tagged=None):
        self.error_code = error_code
        self.api_keys = [] if api_keys is DEFAULT else api_keys
        self.throttle_time_ms = throttle_time_ms
        self.supported_features = [] if supported_features is DEFAULT else supported_features
        self.finalized_features_epoch = finalized_features_epoch
        self.finalized_features = [] if finalized_features is DEFAULT else finalized_features
        self.zk_migration_ready = zk_migration_ready
        self._unknown_tagged = _unknown_tagged



def _d_ApiVersion_0(b, p):
    o = _new(ApiVersion)
    o.api_key, o.min_version, o.max_version = _S1.unpack_from(b, p)
    p += 6
    o._unknown_tagged = None
    return o, p


def _d_ApiVersionsResponse_0(b, p):
    o = _new(ApiVersionsResponse)
    o.error_code, = _S0.unpack_from(b, p)
    p += 2
    n, p = _ral(b, p, 6)
    l = []
    for _ in range(n):
        e, p = _d_ApiVersion_0(b, p)
        l.append(e)
    o.api_keys = l
    o.throttle_time_ms = 0
    o.supported_features = []
    o.finalized_features_epoch = -1
    o.finalized_features = []
    o.zk_migration_ready = False
    o._unknown_tagged = None
    return o, p


def _e_ApiVersion_0(o, w):
    w.append(_S1.pack(o.api_key, o.min_version, o.max_version))


def _e_ApiVersionsResponse_0(o, w):
    w.append(_S0.pack(o.error_code))
    x = o.api_keys
    w.append(_I(len(x)))
    for e in x:
        _e_ApiVersion_0(e, w)


def _d_ApiVersionsResponse_1(b, p):
    o = _new(ApiVersionsResponse)
    o.error_code, = _S0.unpack_from(b, p)
    p += 2
    n, p = _ral(b, p, 6)
    l = []
    for _ in range(n):
        e, p = _d_ApiVersion_0(b, p)
        l.append(e)
    o.api_keys = l
    o.throttle_time_ms, = _S2.unpack_from(b, p)
    p += 4
    o.supported_features = []
    o.finalized_features_epoch = -1
    o.finalized_features = []
    o.zk_migration_ready = False
    o._unknown_tagged = None
    return o, p


def _e_ApiVersionsResponse_1(o, w):
    w.append(_S0.pack(o.error_code))
    x = o.api_keys
    w.append(_I(len(x)))
    for e in x:
        _e_ApiVersion_0(e, w)
    w.append(_S2.pack(o.throttle_time_ms))


def _d_ApiVersion_1(b, p):
    o = _new(ApiVersion)
    o.api_key, o.min_version, o.max_version = _S1.unpack_from(b, p)
    p += 6
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_SupportedFeatureKey_0(b, p):
    o = _new(SupportedFeatureKey)
    o.name, p = _rcstr(b, p)
    o.min_version, o.max_version = _S3.unpack_from(b, p)
    p += 4
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_FinalizedFeatureKey_0(b, p):
    o = _new(FinalizedFeatureKey)
    o.name, p = _rcstr(b, p)
    o.max_version_level, o.min_version_level = _S3.unpack_from(b, p)
    p += 4
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_ApiVersionsResponse_2(b, p):
    o = _new(ApiVersionsResponse)
    o.error_code, = _S0.unpack_from(b, p)
    p += 2
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 7)
    l = []
    for _ in range(n):
        e, p = _d_ApiVersion_1(b, p)
        l.append(e)
    o.api_keys = l
    o.throttle_time_ms, = _S2.unpack_from(b, p)
    p += 4
    o.supported_features = []
    o.finalized_features_epoch = -1
    o.finalized_features = []
    o.zk_migration_ready = False
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
                    n, q = _rcal(raw, q, 6)
                l = []
                for _ in range(n):
                    e, q = _d_SupportedFeatureKey_0(raw, q)
                    l.append(e)
                o.supported_features = l
            elif tag == 1:
                q = 0
                o.finalized_features_epoch, = _S4.unpack_from(raw, q)
                q += 8
            elif tag == 2:
                q = 0
                n = raw[q] - 1
                if 0 <= n < 127:
                    q += 1
                else:
                    n, q = _rcal(raw, q, 6)
                l = []
                for _ in range(n):
                    e, q = _d_FinalizedFeatureKey_0(raw, q)
                    l.append(e)
                o.finalized_features = l
            elif tag == 3:
                q = 0
                o.zk_migration_ready, = _S5.unpack_from(raw, q)
                q += 1
            else:
                if u is None: u = []
                u.append((tag, bytes(raw)))
    o._unknown_tagged = u
    return o, p


def _e_ApiVersion_1(o, w):
    w.append(_S1.pack(o.api_key, o.min_version, o.max_version))
    _wtag(w, o._unknown_tagged)


def _e_SupportedFeatureKey_0(o, w):
    _wcstr(w, o.name)
    w.append(_S3.pack(o.min_version, o.max_version))
    _wtag(w, o._unknown_tagged)


def _e_FinalizedFeatureKey_0(o, w):
    _wcstr(w, o.name)
    w.append(_S3.pack(o.max_version_level, o.min_version_level))
    _wtag(w, o._unknown_tagged)


def _e_ApiVersionsResponse_2(o, w):
    w.append(_S0.pack(o.error_code))
    x = o.api_keys
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_ApiVersion_1(e, w)
    w.append(_S2.pack(o.throttle_time_ms))
    tg = []
    x = o.supported_features
    if x:
        tw = []
        x = x
        tw.append(_uv(len(x) + 1))
        for e in x:
            _e_SupportedFeatureKey_0(e, tw)
        tg.append((0, b''.join(tw)))
    x = o.finalized_features_epoch
    if x != -1:
        tw = []
        tw.append(_S4.pack(x))
        tg.append((1, b''.join(tw)))
    x = o.finalized_features
    if x:
        tw = []
        x = x
        tw.append(_uv(len(x) + 1))
        for e in x:
            _e_FinalizedFeatureKey_0(e, tw)
        tg.append((2, b''.join(tw)))
    x = o.zk_migration_ready
    if x != False:
        tw = []
        tw.append(_S5.pack(x))
        tg.append((3, b''.join(tw)))
    if o._unknown_tagged:
        tg = sorted(tg + o._unknown_tagged, key=_tagkey)
    _wtag(w, tg)


ApiVersionsResponse._DECODERS = {0: _d_ApiVersionsResponse_0, 1: _d_ApiVersionsResponse_1, 2: _d_ApiVersionsResponse_1, 3: _d_ApiVersionsResponse_2, 4: _d_ApiVersionsResponse_2}
ApiVersionsResponse._ENCODERS = {0: _e_ApiVersionsResponse_0, 1: _e_ApiVersionsResponse_1, 2: _e_ApiVersionsResponse_1, 3: _e_ApiVersionsResponse_2, 4: _e_ApiVersionsResponse_2}
