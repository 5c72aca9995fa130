"""Generated from Kafka's MetadataRequest.json by tools/gen_wire.py. Do not edit."""
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

_S0 = _struct.Struct('>?')
_S1 = _struct.Struct('>???')
_S2 = _struct.Struct('>16s')
_S3 = _struct.Struct('>??')


class MetadataRequestTopic(Message):
    __slots__ = ('topic_id', 'name', '_unknown_tagged')
    _FIELDS = (('topic_id', 'uuid', 10, 32767, -1, -1, None, -1, None), ('name', 'string', 0, 32767, 10, 32767, None, -1, None))

    def __init__(self, *, topic_id=ZERO_UUID, name='', _unknown_tagged=None):
        self.topic_id = topic_id
        self.name = name
        self._unknown_tagged = _unknown_tagged


class MetadataRequest(Message):
    __slots__ = ('topics', 'allow_auto_topic_creation', 'include_cluster_authorized_operations', 'include_topic_authorized_operations', '_unknown_tagged')
    _FIELDS = (('topics', '[]MetadataRequestTopic', 0, 32767, 1, 32767, None, -1, 'MetadataRequestTopic'), ('allow_auto_topic_creation', 'bool', 4, 32767, -1, -1, None, -1, None), ('include_cluster_authorized_operations', 'bool', 8, 10, -1, -1, None, -1, None), ('include_topic_authorized_operations', 'bool', 8, 32767, -1, -1, None, -1, None))
    API_KEY = 3
    VALID_VERSIONS = (0, 13)
    FLEXIBLE_MIN = 9

    def __init__(self, *, topics=DEFAULT, allow_auto_topic_creation=True, include_cluster_authorized_operations=False, include_topic_authorized_operations=False, _unknown_tagged=None):
        self.topics = [] if topics is DEFAULT else topics
        self.allow_auto_topic_creation = allow_auto_topic_creation
        self.include_cluster_authorized_operations = include_cluster_authorized_operations
        self.include_topic_authorized_operations = include_topic_authorized_operations
        self._unknown_tagged = _unknown_tagged



def _d_MetadataRequestTopic_0(b, p):
    o = _new(MetadataRequestTopic)
    o.topic_id = ZERO_UUID
    o.name, p = _rstr(b, p)
    o._unknown_tagged = None
    return o, p


def _s_MetadataRequest_0(b, p):
    o = _new(MetadataRequest)
    n, p = _ral(b, p, 2)
    y = p + 16384
    l = []
    for _ in range(n):
        e, p = _d_MetadataRequestTopic_0(b, p)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.topics = l
    o.allow_auto_topic_creation = True
    o.include_cluster_authorized_operations = False
    o.include_topic_authorized_operations = False
    o._unknown_tagged = None
    return o, p


def _e_MetadataRequestTopic_0(o, w):
    _wstr(w, o.name)


def _e_MetadataRequest_0(o, w):
    x = o.topics
    w.append(_I(len(x)))
    for e in x:
        _e_MetadataRequestTopic_0(e, w)


def _s_MetadataRequest_1(b, p):
    o = _new(MetadataRequest)
    n, p = _rnal(b, p, 2)
    if n < 0:
        o.topics = None
    else:
        y = p + 16384
        l = []
        for _ in range(n):
            e, p = _d_MetadataRequestTopic_0(b, p)
            l.append(e)
            if p >= y:
                y = p + 16384
                yield
        o.topics = l
    o.allow_auto_topic_creation = True
    o.include_cluster_authorized_operations = False
    o.include_topic_authorized_operations = False
    o._unknown_tagged = None
    return o, p


def _e_MetadataRequest_1(o, w):
    x = o.topics
    if x is None:
        w.append(b'\xff\xff\xff\xff')
    else:
        w.append(_I(len(x)))
        for e in x:
            _e_MetadataRequestTopic_0(e, w)


def _s_MetadataRequest_2(b, p):
    o = _new(MetadataRequest)
    n, p = _rnal(b, p, 2)
    if n < 0:
        o.topics = None
    else:
        y = p + 16384
        l = []
        for _ in range(n):
            e, p = _d_MetadataRequestTopic_0(b, p)
            l.append(e)
            if p >= y:
                y = p + 16384
                yield
        o.topics = l
    o.allow_auto_topic_creation, = _S0.unpack_from(b, p)
    p += 1
    o.include_cluster_authorized_operations = False
    o.include_topic_authorized_operations = False
    o._unknown_tagged = None
    return o, p


def _e_MetadataRequest_2(o, w):
    x = o.topics
    if x is None:
        w.append(b'\xff\xff\xff\xff')
    else:
        w.append(_I(len(x)))
        for e in x:
            _e_MetadataRequestTopic_0(e, w)
    w.append(_S0.pack(o.allow_auto_topic_creation))


def _s_MetadataRequest_3(b, p):
    o = _new(MetadataRequest)
    n, p = _rnal(b, p, 2)
    if n < 0:
        o.topics = None
    else:
        y = p + 16384
        l = []
        for _ in range(n):
            e, p = _d_MetadataRequestTopic_0(b, p)
            l.append(e)
            if p >= y:
                y = p + 16384
                yield
        o.topics = l
    o.allow_auto_topic_creation, o.include_cluster_authorized_operations, o.include_topic_authorized_operations = _S1.unpack_from(b, p)
    p += 3
    o._unknown_tagged = None
    return o, p


def _e_MetadataRequest_3(o, w):
    x = o.topics
    if x is None:
        w.append(b'\xff\xff\xff\xff')
    else:
        w.append(_I(len(x)))
        for e in x:
            _e_MetadataRequestTopic_0(e, w)
    w.append(_S1.pack(o.allow_auto_topic_creation, o.include_cluster_authorized_operations, o.include_topic_authorized_operations))


def _d_MetadataRequestTopic_1(b, p):
    o = _new(MetadataRequestTopic)
    o.topic_id = ZERO_UUID
    o.name, p = _rcstr(b, p)
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _s_MetadataRequest_4(b, p):
    o = _new(MetadataRequest)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcnal(b, p, 2)
    if n < 0:
        o.topics = None
    else:
        y = p + 16384
        l = []
        for _ in range(n):
            e, p = _d_MetadataRequestTopic_1(b, p)
            l.append(e)
            if p >= y:
                y = p + 16384
                yield
        o.topics = l
    o.allow_auto_topic_creation, o.include_cluster_authorized_operations, o.include_topic_authorized_operations = _S1.unpack_from(b, p)
    p += 3
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_MetadataRequestTopic_1(o, w):
    _wcstr(w, o.name)
    _wtag(w, o._unknown_tagged)


def _e_MetadataRequest_4(o, w):
    x = o.topics
    if x is None:
        w.append(b'\x00')
    else:
        w.append(_uv(len(x) + 1))
        for e in x:
            _e_MetadataRequestTopic_1(e, w)
    w.append(_S1.pack(o.allow_auto_topic_creation, o.include_cluster_authorized_operations, o.include_topic_authorized_operations))
    _wtag(w, o._unknown_tagged)


def _d_MetadataRequestTopic_2(b, p):
    o = _new(MetadataRequestTopic)
    o.topic_id, = _S2.unpack_from(b, p)
    p += 16
    o.name, p = _rcnstr(b, p)
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _s_MetadataRequest_5(b, p):
    o = _new(MetadataRequest)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcnal(b, p, 18)
    if n < 0:
        o.topics = None
    else:
        y = p + 16384
        l = []
        for _ in range(n):
            e, p = _d_MetadataRequestTopic_2(b, p)
            l.append(e)
            if p >= y:
                y = p + 16384
                yield
        o.topics = l
    o.allow_auto_topic_creation, o.include_cluster_authorized_operations, o.include_topic_authorized_operations = _S1.unpack_from(b, p)
    p += 3
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_MetadataRequestTopic_2(o, w):
    w.append(_S2.pack(o.topic_id))
    _wcnstr(w, o.name)
    _wtag(w, o._unknown_tagged)


def _e_MetadataRequest_5(o, w):
    x = o.topics
    if x is None:
        w.append(b'\x00')
    else:
        w.append(_uv(len(x) + 1))
        for e in x:
            _e_MetadataRequestTopic_2(e, w)
    w.append(_S1.pack(o.allow_auto_topic_creation, o.include_cluster_authorized_operations, o.include_topic_authorized_operations))
    _wtag(w, o._unknown_tagged)


def _s_MetadataRequest_6(b, p):
    o = _new(MetadataRequest)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcnal(b, p, 18)
    if n < 0:
        o.topics = None
    else:
        y = p + 16384
        l = []
        for _ in range(n):
            e, p = _d_MetadataRequestTopic_2(b, p)
            l.append(e)
            if p >= y:
                y = p + 16384
                yield
        o.topics = l
    o.allow_auto_topic_creation, = _S0.unpack_from(b, p)
    p += 1
    o.include_cluster_authorized_operations = False
    o.include_topic_authorized_operations, = _S0.unpack_from(b, p)
    p += 1
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_MetadataRequest_6(o, w):
    x = o.topics
    if x is None:
        w.append(b'\x00')
    else:
        w.append(_uv(len(x) + 1))
        for e in x:
            _e_MetadataRequestTopic_2(e, w)
    w.append(_S3.pack(o.allow_auto_topic_creation, o.include_topic_authorized_operations))
    _wtag(w, o._unknown_tagged)


_d_s_MetadataRequest_0 = _whole(_s_MetadataRequest_0)
_d_s_MetadataRequest_1 = _whole(_s_MetadataRequest_1)
_d_s_MetadataRequest_2 = _whole(_s_MetadataRequest_2)
_d_s_MetadataRequest_3 = _whole(_s_MetadataRequest_3)
_d_s_MetadataRequest_4 = _whole(_s_MetadataRequest_4)
_d_s_MetadataRequest_5 = _whole(_s_MetadataRequest_5)
_d_s_MetadataRequest_6 = _whole(_s_MetadataRequest_6)
MetadataRequest._STEPS = {0: _s_MetadataRequest_0, 1: _s_MetadataRequest_1, 2: _s_MetadataRequest_1, 3: _s_MetadataRequest_1, 4: _s_MetadataRequest_2, 5: _s_MetadataRequest_2, 6: _s_MetadataRequest_2, 7: _s_MetadataRequest_2, 8: _s_MetadataRequest_3, 9: _s_MetadataRequest_4, 10: _s_MetadataRequest_5, 11: _s_MetadataRequest_6, 12: _s_MetadataRequest_6, 13: _s_MetadataRequest_6}
MetadataRequest._DECODERS = {0: _d_s_MetadataRequest_0, 1: _d_s_MetadataRequest_1, 2: _d_s_MetadataRequest_1, 3: _d_s_MetadataRequest_1, 4: _d_s_MetadataRequest_2, 5: _d_s_MetadataRequest_2, 6: _d_s_MetadataRequest_2, 7: _d_s_MetadataRequest_2, 8: _d_s_MetadataRequest_3, 9: _d_s_MetadataRequest_4, 10: _d_s_MetadataRequest_5, 11: _d_s_MetadataRequest_6, 12: _d_s_MetadataRequest_6, 13: _d_s_MetadataRequest_6}
MetadataRequest._ENCODERS = {0: _e_MetadataRequest_0, 1: _e_MetadataRequest_1, 2: _e_MetadataRequest_1, 3: _e_MetadataRequest_1, 4: _e_MetadataRequest_2, 5: _e_MetadataRequest_2, 6: _e_MetadataRequest_2, 7: _e_MetadataRequest_2, 8: _e_MetadataRequest_3, 9: _e_MetadataRequest_4, 10: _e_MetadataRequest_5, 11: _e_MetadataRequest_6, 12: _e_MetadataRequest_6, 13: _e_MetadataRequest_6}
