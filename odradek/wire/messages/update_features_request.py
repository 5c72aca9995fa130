"""Generated from Kafka's UpdateFeaturesRequest.json by tools/gen_wire.py. Do not edit."""
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
_S1 = _struct.Struct('>h?')
_S2 = _struct.Struct('>h')
_S3 = _struct.Struct('>b')
_S4 = _struct.Struct('>?')
_S5 = _struct.Struct('>hb')


class FeatureUpdateKey(Message):
    __slots__ = ('feature', 'max_version_level', 'allow_downgrade', 'upgrade_type', '_unknown_tagged')
    _FIELDS = (('feature', 'string', 0, 32767, -1, -1, None, -1, None), ('max_version_level', 'int16', 0, 32767, -1, -1, None, -1, None), ('allow_downgrade', 'bool', 0, 0, -1, -1, None, -1, None), ('upgrade_type', 'int8', 1, 32767, -1, -1, None, -1, None))

    def __init__(self, *, feature='', max_version_level=0, allow_downgrade=False, upgrade_type=1, _unknown_tagged=None):
        self.feature = feature
        self.max_version_level = max_version_level
        self.allow_downgrade = allow_downgrade
        self.upgrade_type = upgrade_type
        self._unknown_tagged = _unknown_tagged


class UpdateFeaturesRequest(Message):
    __slots__ = ('timeout_ms', 'feature_updates', 'validate_only', '_unknown_tagged')
    _FIELDS = (('timeout_ms', 'int32', 0, 32767, -1, -1, None, -1, None), ('feature_updates', '[]FeatureUpdateKey', 0, 32767, -1, -1, None, -1, 'FeatureUpdateKey'), ('validate_only', 'bool', 1, 32767, -1, -1, None, -1, None))
    API_KEY = 57
    VALID_VERSIONS = (0, 2)
    FLEXIBLE_MIN = 0

    def __init__(self, *, timeout_ms=60000, feature_updates=DEFAULT, validate_only=False, _unknown_tagged=None):
        self.timeout_ms = timeout_ms
        self.feature_updates = [] if feature_updates is DEFAULT else feature_updates
        self.validate_only = validate_only
        self._unknown_tagged = _unknown_tagged



def _d_FeatureUpdateKey_0(b, p):
    o = _new(FeatureUpdateKey)
    o.feature, p = _rcstr(b, p)
    o.max_version_level, o.allow_downgrade = _S1.unpack_from(b, p)
    p += 3
    o.upgrade_type = 1
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_UpdateFeaturesRequest_0(b, p):
    o = _new(UpdateFeaturesRequest)
    o.timeout_ms, = _S0.unpack_from(b, p)
    p += 4
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 5)
    l = []
    for _ in range(n):
        e, p = _d_FeatureUpdateKey_0(b, p)
        l.append(e)
    o.feature_updates = l
    o.validate_only = False
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_FeatureUpdateKey_0(o, w):
    _wcstr(w, o.feature)
    w.append(_S1.pack(o.max_version_level, o.allow_downgrade))
    _wtag(w, o._unknown_tagged)


def _e_UpdateFeaturesRequest_0(o, w):
    w.append(_S0.pack(o.timeout_ms))
    x = o.feature_updates
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_FeatureUpdateKey_0(e, w)
    _wtag(w, o._unknown_tagged)


def _d_FeatureUpdateKey_1(b, p):
    o = _new(FeatureUpdateKey)
    o.feature, p = _rcstr(b, p)
    o.max_version_level, = _S2.unpack_from(b, p)
    p += 2
    o.allow_downgrade = False
    o.upgrade_type, = _S3.unpack_from(b, p)
    p += 1
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_UpdateFeaturesRequest_1(b, p):
    o = _new(UpdateFeaturesRequest)
    o.timeout_ms, = _S0.unpack_from(b, p)
    p += 4
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 5)
    l = []
    for _ in range(n):
        e, p = _d_FeatureUpdateKey_1(b, p)
        l.append(e)
    o.feature_updates = l
    o.validate_only, = _S4.unpack_from(b, p)
    p += 1
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_FeatureUpdateKey_1(o, w):
    _wcstr(w, o.feature)
    w.append(_S5.pack(o.max_version_level, o.upgrade_type))
    _wtag(w, o._unknown_tagged)


def _e_UpdateFeaturesRequest_1(o, w):
    w.append(_S0.pack(o.timeout_ms))
    x = o.feature_updates
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_FeatureUpdateKey_1(e, w)
    w.append(_S4.pack(o.validate_only))
    _wtag(w, o._unknown_tagged)


UpdateFeaturesRequest._DECODERS = {0: _d_UpdateFeaturesRequest_0, 1: _d_UpdateFeaturesRequest_1, 2: _d_UpdateFeaturesRequest_1}
UpdateFeaturesRequest._ENCODERS = {0: _e_UpdateFeaturesRequest_0, 1: _e_UpdateFeaturesRequest_1, 2: _e_UpdateFeaturesRequest_1}
