"""Generated from Kafka's AlterClientQuotasRequest.json by tools/gen_wire.py. Do not edit."""
# flake8: noqa
import struct as _struct

from ..base import DEFAULT, Message, whole as _whole
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

_S0 = _struct.Struct('>d?')
_S1 = _struct.Struct('>?')


class EntityData(Message):
    __slots__ = ('entity_type', 'entity_name', '_unknown_tagged')
    _FIELDS = (('entity_type', 'string', 0, 32767, -1, -1, None, -1, None), ('entity_name', 'string', 0, 32767, 0, 32767, None, -1, None))

    def __init__(self, *, entity_type='', entity_name='', _unknown_tagged=None):
        self.entity_type = entity_type
        self.entity_name = entity_name
        self._unknown_tagged = _unknown_tagged


class OpData(Message):
    __slots__ = ('key', 'value', 'remove', '_unknown_tagged')
    _FIELDS = (('key', 'string', 0, 32767, -1, -1, None, -1, None), ('value', 'float64', 0, 32767, -1, -1, None, -1, None), ('remove', 'bool', 0, 32767, -1, -1, None, -1, None))

    def __init__(self, *, key='', value=0.0, remove=False, _unknown_tagged=None):
        self.key = key
        self.value = value
        self.remove = remove
        self._unknown_tagged = _unknown_tagged


class EntryData(Message):
    __slots__ = ('entity', 'ops', '_unknown_tagged')
    _FIELDS = (('entity', '[]EntityData', 0, 32767, -1, -1, None, -1, 'EntityData'), ('ops', '[]OpData', 0, 32767, -1, -1, None, -1, 'OpData'))

    def __init__(self, *, entity=DEFAULT, ops=DEFAULT, _unknown_tagged=None):
        self.entity = [] if entity is DEFAULT else entity
        self.ops = [] if ops is DEFAULT else ops
        self._unknown_tagged = _unknown_tagged


class AlterClientQuotasRequest(Message):
    __slots__ = ('entries', 'validate_only', '_unknown_tagged')
    _FIELDS = (('entries', '[]EntryData', 0, 32767, -1, -1, None, -1, 'EntryData'), ('validate_only', 'bool', 0, 32767, -1, -1, None, -1, None))
    API_KEY = 49
    VALID_VERSIONS = (0, 1)
    FLEXIBLE_MIN = 1

    def __init__(self, *, entries=DEFAULT, validate_only=False, _unknown_tagged=None):
        self.entries = [] if entries is DEFAULT else entries
        self.validate_only = validate_only
        self._unknown_tagged = _unknown_tagged



def _d_EntityData_0(b, p):
    o = _new(EntityData)
    o.entity_type, p = _rstr(b, p)
    o.entity_name, p = _rnstr(b, p)
    o._unknown_tagged = None
    return o, p


def _d_OpData_0(b, p):
    o = _new(OpData)
    o.key, p = _rstr(b, p)
    o.value, o.remove = _S0.unpack_from(b, p)
    p += 9
    o._unknown_tagged = None
    return o, p


def _n_EntryData_0(b, p, y):
    o = _new(EntryData)
    n, p = _ral(b, p, 4)
    l = []
    for _ in range(n):
        e, p = _d_EntityData_0(b, p)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.entity = l
    n, p = _ral(b, p, 11)
    l = []
    for _ in range(n):
        e, p = _d_OpData_0(b, p)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.ops = l
    o._unknown_tagged = None
    return o, p, y


def _s_AlterClientQuotasRequest_0(b, p):
    o = _new(AlterClientQuotasRequest)
    n, p = _ral(b, p, 8)
    y = p + 16384
    l = []
    for _ in range(n):
        e, p, y = yield from _n_EntryData_0(b, p, y)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.entries = l
    o.validate_only, = _S1.unpack_from(b, p)
    p += 1
    o._unknown_tagged = None
    return o, p


def _e_EntityData_0(o, w):
    _wstr(w, o.entity_type)
    _wnstr(w, o.entity_name)


def _e_OpData_0(o, w):
    _wstr(w, o.key)
    w.append(_S0.pack(o.value, o.remove))


def _e_EntryData_0(o, w):
    x = o.entity
    w.append(_I(len(x)))
    for e in x:
        _e_EntityData_0(e, w)
    x = o.ops
    w.append(_I(len(x)))
    for e in x:
        _e_OpData_0(e, w)


def _e_AlterClientQuotasRequest_0(o, w):
    x = o.entries
    w.append(_I(len(x)))
    for e in x:
        _e_EntryData_0(e, w)
    w.append(_S1.pack(o.validate_only))


def _d_EntityData_1(b, p):
    o = _new(EntityData)
    o.entity_type, p = _rcstr(b, p)
    o.entity_name, p = _rcnstr(b, p)
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_OpData_1(b, p):
    o = _new(OpData)
    o.key, p = _rcstr(b, p)
    o.value, o.remove = _S0.unpack_from(b, p)
    p += 9
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _n_EntryData_1(b, p, y):
    o = _new(EntryData)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 3)
    l = []
    for _ in range(n):
        e, p = _d_EntityData_1(b, p)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.entity = l
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 11)
    l = []
    for _ in range(n):
        e, p = _d_OpData_1(b, p)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.ops = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p, y


def _s_AlterClientQuotasRequest_1(b, p):
    o = _new(AlterClientQuotasRequest)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 3)
    y = p + 16384
    l = []
    for _ in range(n):
        e, p, y = yield from _n_EntryData_1(b, p, y)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.entries = l
    o.validate_only, = _S1.unpack_from(b, p)
    p += 1
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_EntityData_1(o, w):
    _wcstr(w, o.entity_type)
    _wcnstr(w, o.entity_name)
    _wtag(w, o._unknown_tagged)


def _e_OpData_1(o, w):
    _wcstr(w, o.key)
    w.append(_S0.pack(o.value, o.remove))
    _wtag(w, o._unknown_tagged)


def _e_EntryData_1(o, w):
    x = o.entity
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_EntityData_1(e, w)
    x = o.ops
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_OpData_1(e, w)
    _wtag(w, o._unknown_tagged)


def _e_AlterClientQuotasRequest_1(o, w):
    x = o.entries
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_EntryData_1(e, w)
    w.append(_S1.pack(o.validate_only))
    _wtag(w, o._unknown_tagged)


_d_s_AlterClientQuotasRequest_0 = _whole(_s_AlterClientQuotasRequest_0)
_d_s_AlterClientQuotasRequest_1 = _whole(_s_AlterClientQuotasRequest_1)
AlterClientQuotasRequest._STEPS = {0: _s_AlterClientQuotasRequest_0, 1: _s_AlterClientQuotasRequest_1}
AlterClientQuotasRequest._DECODERS = {0: _d_s_AlterClientQuotasRequest_0, 1: _d_s_AlterClientQuotasRequest_1}
AlterClientQuotasRequest._ENCODERS = {0: _e_AlterClientQuotasRequest_0, 1: _e_AlterClientQuotasRequest_1}
