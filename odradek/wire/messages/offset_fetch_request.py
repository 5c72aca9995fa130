"""Generated from Kafka's OffsetFetchRequest.json by tools/gen_wire.py. Do not edit."""
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
_S1 = _struct.Struct('>i')
_S2 = _struct.Struct('>16s')


class OffsetFetchRequestTopic(Message):
    __slots__ = ('name', 'partition_indexes', '_unknown_tagged')
    _FIELDS = (('name', 'string', 0, 7, -1, -1, None, -1, None), ('partition_indexes', '[]int32', 0, 7, -1, -1, None, -1, None))

    def __init__(self, *, name='', partition_indexes=DEFAULT, _unknown_tagged=None):
        self.name = name
        self.partition_indexes = [] if partition_indexes is DEFAULT else partition_indexes
        self._unknown_tagged = _unknown_tagged


class OffsetFetchRequestTopics(Message):
    __slots__ = ('name', 'topic_id', 'partition_indexes', '_unknown_tagged')
    _FIELDS = (('name', 'string', 8, 9, -1, -1, None, -1, None), ('topic_id', 'uuid', 10, 32767, -1, -1, None, -1, None), ('partition_indexes', '[]int32', 8, 32767, -1, -1, None, -1, None))

    def __init__(self, *, name='', topic_id=ZERO_UUID, partition_indexes=DEFAULT, _unknown_tagged=None):
        self.name = name
        self.topic_id = topic_id
        self.partition_indexes = [] if partition_indexes is DEFAULT else partition_indexes
        self._unknown_tagged = _unknown_tagged


class OffsetFetchRequestGroup(Message):
    __slots__ = ('group_id', 'member_id', 'member_epoch', 'topics', '_unknown_tagged')
    _FIELDS = (('group_id', 'string', 8, 32767, -1, -1, None, -1, None), ('member_id', 'string', 9, 32767, 9, 32767, None, -1, None), ('member_epoch', 'int32', 9, 32767, -1, -1, None, -1, None), ('topics', '[]OffsetFetchRequestTopics', 8, 32767, 8, 32767, None, -1, 'OffsetFetchRequestTopics'))

    def __init__(self, *, group_id='', member_id=None, member_epoch=-1, topics=DEFAULT, _unknown_tagged=None):
        self.group_id = group_id
        self.member_id = member_id
        self.member_epoch = member_epoch
        self.topics = [] if topics is DEFAULT else topics
        self._unknown_tagged = _unknown_tagged


class OffsetFetchRequest(Message):
    __slots__ = ('group_id', 'topics', 'groups', 'require_stable', '_unknown_tagged')
    _FIELDS = (('group_id', 'string', 0, 7, -1, -1, None, -1, None), ('topics', '[]OffsetFetchRequestTopic', 0, 7, 2, 7, None, -1, 'OffsetFetchRequestTopic'), ('groups', '[]OffsetFetchRequestGroup', 8, 32767, -1, -1, None, -1, 'OffsetFetchRequestGroup'), ('require_stable', 'bool', 7, 32767, -1, -1, None, -1, None))
    API_KEY = 9
    VALID_VERSIONS = (1, 10)
    FLEXIBLE_MIN = 6

    def __init__(self, *, group_id='', topics=DEFAULT, groups=DEFAULT, require_stable=False, _unknown_tagged=None):
        self.group_id = group_id
        self.topics = [] if topics is DEFAULT else topics
        self.groups = [] if groups is DEFAULT else groups
        self.require_stable = require_stable
        self._unknown_tagged = _unknown_tagged



def _d_OffsetFetchRequestTopic_0(b, p):
    o = _new(OffsetFetchRequestTopic)
    o.name, p = _rstr(b, p)
    n, p = _ral(b, p, 4)
    l = list((_ARR['i'][n] if n < 64 else _struct.Struct('>%di' % n)).unpack_from(b, p))
    p += 4 * n
    o.partition_indexes = l
    o._unknown_tagged = None
    return o, p


def _s_OffsetFetchRequest_0(b, p):
    o = _new(OffsetFetchRequest)
    o.group_id, p = _rstr(b, p)
    n, p = _ral(b, p, 6)
    y = p + 16384
    l = []
    for _ in range(n):
        e, p = _d_OffsetFetchRequestTopic_0(b, p)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.topics = l
    o.groups = []
    o.require_stable = False
    o._unknown_tagged = None
    return o, p


def _e_OffsetFetchRequestTopic_0(o, w):
    _wstr(w, o.name)
    x = o.partition_indexes
    w.append(_I(len(x)))
    w.append(_pack('>%di' % len(x), *x))


def _e_OffsetFetchRequest_0(o, w):
    _wstr(w, o.group_id)
    x = o.topics
    w.append(_I(len(x)))
    for e in x:
        _e_OffsetFetchRequestTopic_0(e, w)


def _s_OffsetFetchRequest_1(b, p):
    o = _new(OffsetFetchRequest)
    o.group_id, p = _rstr(b, p)
    n, p = _rnal(b, p, 6)
    if n < 0:
        o.topics = None
    else:
        y = p + 16384
        l = []
        for _ in range(n):
            e, p = _d_OffsetFetchRequestTopic_0(b, p)
            l.append(e)
            if p >= y:
                y = p + 16384
                yield
        o.topics = l
    o.groups = []
    o.require_stable = False
    o._unknown_tagged = None
    return o, p


def _e_OffsetFetchRequest_1(o, w):
    _wstr(w, o.group_id)
    x = o.topics
    if x is None:
        w.append(b'\xff\xff\xff\xff')
    else:
        w.append(_I(len(x)))
        for e in x:
            _e_OffsetFetchRequestTopic_0(e, w)


def _d_OffsetFetchRequestTopic_1(b, p):
    o = _new(OffsetFetchRequestTopic)
    o.name, p = _rcstr(b, p)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 4)
    l = list((_ARR['i'][n] if n < 64 else _struct.Struct('>%di' % n)).unpack_from(b, p))
    p += 4 * n
    o.partition_indexes = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _s_OffsetFetchRequest_2(b, p):
    o = _new(OffsetFetchRequest)
    o.group_id, p = _rcstr(b, p)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcnal(b, p, 3)
    if n < 0:
        o.topics = None
    else:
        y = p + 16384
        l = []
        for _ in range(n):
            e, p = _d_OffsetFetchRequestTopic_1(b, p)
            l.append(e)
            if p >= y:
                y = p + 16384
                yield
        o.topics = l
    o.groups = []
    o.require_stable = False
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_OffsetFetchRequestTopic_1(o, w):
    _wcstr(w, o.name)
    x = o.partition_indexes
    w.append(_uv(len(x) + 1))
    w.append(_pack('>%di' % len(x), *x))
    _wtag(w, o._unknown_tagged)


def _e_OffsetFetchRequest_2(o, w):
    _wcstr(w, o.group_id)
    x = o.topics
    if x is None:
        w.append(b'\x00')
    else:
        w.append(_uv(len(x) + 1))
        for e in x:
            _e_OffsetFetchRequestTopic_1(e, w)
    _wtag(w, o._unknown_tagged)


def _s_OffsetFetchRequest_3(b, p):
    o = _new(OffsetFetchRequest)
    o.group_id, p = _rcstr(b, p)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcnal(b, p, 3)
    if n < 0:
        o.topics = None
    else:
        y = p + 16384
        l = []
        for _ in range(n):
            e, p = _d_OffsetFetchRequestTopic_1(b, p)
            l.append(e)
            if p >= y:
                y = p + 16384
                yield
        o.topics = l
    o.groups = []
    o.require_stable, = _S0.unpack_from(b, p)
    p += 1
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_OffsetFetchRequest_3(o, w):
    _wcstr(w, o.group_id)
    x = o.topics
    if x is None:
        w.append(b'\x00')
    else:
        w.append(_uv(len(x) + 1))
        for e in x:
            _e_OffsetFetchRequestTopic_1(e, w)
    w.append(_S0.pack(o.require_stable))
    _wtag(w, o._unknown_tagged)


def _d_OffsetFetchRequestTopics_0(b, p):
    o = _new(OffsetFetchRequestTopics)
    o.name, p = _rcstr(b, p)
    o.topic_id = ZERO_UUID
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 4)
    l = list((_ARR['i'][n] if n < 64 else _struct.Struct('>%di' % n)).unpack_from(b, p))
    p += 4 * n
    o.partition_indexes = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _n_OffsetFetchRequestGroup_0(b, p, y):
    o = _new(OffsetFetchRequestGroup)
    o.group_id, p = _rcstr(b, p)
    o.member_id = None
    o.member_epoch = -1
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcnal(b, p, 3)
    if n < 0:
        o.topics = None
    else:
        l = []
        for _ in range(n):
            e, p = _d_OffsetFetchRequestTopics_0(b, p)
            l.append(e)
            if p >= y:
                y = p + 16384
                yield
        o.topics = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p, y


def _s_OffsetFetchRequest_4(b, p):
    o = _new(OffsetFetchRequest)
    o.group_id = ''
    o.topics = []
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 3)
    y = p + 16384
    l = []
    for _ in range(n):
        e, p, y = yield from _n_OffsetFetchRequestGroup_0(b, p, y)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.groups = l
    o.require_stable, = _S0.unpack_from(b, p)
    p += 1
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_OffsetFetchRequestTopics_0(o, w):
    _wcstr(w, o.name)
    x = o.partition_indexes
    w.append(_uv(len(x) + 1))
    w.append(_pack('>%di' % len(x), *x))
    _wtag(w, o._unknown_tagged)


def _e_OffsetFetchRequestGroup_0(o, w):
    _wcstr(w, o.group_id)
    x = o.topics
    if x is None:
        w.append(b'\x00')
    else:
        w.append(_uv(len(x) + 1))
        for e in x:
            _e_OffsetFetchRequestTopics_0(e, w)
    _wtag(w, o._unknown_tagged)


def _e_OffsetFetchRequest_4(o, w):
    x = o.groups
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_OffsetFetchRequestGroup_0(e, w)
    w.append(_S0.pack(o.require_stable))
    _wtag(w, o._unknown_tagged)


def _n_OffsetFetchRequestGroup_1(b, p, y):
    o = _new(OffsetFetchRequestGroup)
    o.group_id, p = _rcstr(b, p)
    o.member_id, p = _rcnstr(b, p)
    o.member_epoch, = _S1.unpack_from(b, p)
    p += 4
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcnal(b, p, 3)
    if n < 0:
        o.topics = None
    else:
        l = []
        for _ in range(n):
            e, p = _d_OffsetFetchRequestTopics_0(b, p)
            l.append(e)
            if p >= y:
                y = p + 16384
                yield
        o.topics = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p, y


def _s_OffsetFetchRequest_5(b, p):
    o = _new(OffsetFetchRequest)
    o.group_id = ''
    o.topics = []
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 8)
    y = p + 16384
    l = []
    for _ in range(n):
        e, p, y = yield from _n_OffsetFetchRequestGroup_1(b, p, y)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.groups = l
    o.require_stable, = _S0.unpack_from(b, p)
    p += 1
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_OffsetFetchRequestGroup_1(o, w):
    _wcstr(w, o.group_id)
    _wcnstr(w, o.member_id)
    w.append(_S1.pack(o.member_epoch))
    x = o.topics
    if x is None:
        w.append(b'\x00')
    else:
        w.append(_uv(len(x) + 1))
        for e in x:
            _e_OffsetFetchRequestTopics_0(e, w)
    _wtag(w, o._unknown_tagged)


def _e_OffsetFetchRequest_5(o, w):
    x = o.groups
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_OffsetFetchRequestGroup_1(e, w)
    w.append(_S0.pack(o.require_stable))
    _wtag(w, o._unknown_tagged)


def _d_OffsetFetchRequestTopics_1(b, p):
    o = _new(OffsetFetchRequestTopics)
    o.name = ''
    o.topic_id, = _S2.unpack_from(b, p)
    p += 16
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 4)
    l = list((_ARR['i'][n] if n < 64 else _struct.Struct('>%di' % n)).unpack_from(b, p))
    p += 4 * n
    o.partition_indexes = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _n_OffsetFetchRequestGroup_2(b, p, y):
    o = _new(OffsetFetchRequestGroup)
    o.group_id, p = _rcstr(b, p)
    o.member_id, p = _rcnstr(b, p)
    o.member_epoch, = _S1.unpack_from(b, p)
    p += 4
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcnal(b, p, 18)
    if n < 0:
        o.topics = None
    else:
        l = []
        for _ in range(n):
            e, p = _d_OffsetFetchRequestTopics_1(b, p)
            l.append(e)
            if p >= y:
                y = p + 16384
                yield
        o.topics = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p, y


def _s_OffsetFetchRequest_6(b, p):
    o = _new(OffsetFetchRequest)
    o.group_id = ''
    o.topics = []
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 8)
    y = p + 16384
    l = []
    for _ in range(n):
        e, p, y = yield from _n_OffsetFetchRequestGroup_2(b, p, y)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.groups = l
    o.require_stable, = _S0.unpack_from(b, p)
    p += 1
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_OffsetFetchRequestTopics_1(o, w):
    w.append(_S2.pack(o.topic_id))
    x = o.partition_indexes
    w.append(_uv(len(x) + 1))
    w.append(_pack('>%di' % len(x), *x))
    _wtag(w, o._unknown_tagged)


def _e_OffsetFetchRequestGroup_2(o, w):
    _wcstr(w, o.group_id)
    _wcnstr(w, o.member_id)
    w.append(_S1.pack(o.member_epoch))
    x = o.topics
    if x is None:
        w.append(b'\x00')
    else:
        w.append(_uv(len(x) + 1))
        for e in x:
            _e_OffsetFetchRequestTopics_1(e, w)
    _wtag(w, o._unknown_tagged)


def _e_OffsetFetchRequest_6(o, w):
    x = o.groups
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_OffsetFetchRequestGroup_2(e, w)
    w.append(_S0.pack(o.require_stable))
    _wtag(w, o._unknown_tagged)


_d_s_OffsetFetchRequest_0 = _whole(_s_OffsetFetchRequest_0)
_d_s_OffsetFetchRequest_1 = _whole(_s_OffsetFetchRequest_1)
_d_s_OffsetFetchRequest_2 = _whole(_s_OffsetFetchRequest_2)
_d_s_OffsetFetchRequest_3 = _whole(_s_OffsetFetchRequest_3)
_d_s_OffsetFetchRequest_4 = _whole(_s_OffsetFetchRequest_4)
_d_s_OffsetFetchRequest_5 = _whole(_s_OffsetFetchRequest_5)
_d_s_OffsetFetchRequest_6 = _whole(_s_OffsetFetchRequest_6)
OffsetFetchRequest._STEPS = {1: _s_OffsetFetchRequest_0, 2: _s_OffsetFetchRequest_1, 3: _s_OffsetFetchRequest_1, 4: _s_OffsetFetchRequest_1, 5: _s_OffsetFetchRequest_1, 6: _s_OffsetFetchRequest_2, 7: _s_OffsetFetchRequest_3, 8: _s_OffsetFetchRequest_4, 9: _s_OffsetFetchRequest_5, 10: _s_OffsetFetchRequest_6}
OffsetFetchRequest._DECODERS = {1: _d_s_OffsetFetchRequest_0, 2: _d_s_OffsetFetchRequest_1, 3: _d_s_OffsetFetchRequest_1, 4: _d_s_OffsetFetchRequest_1, 5: _d_s_OffsetFetchRequest_1, 6: _d_s_OffsetFetchRequest_2, 7: _d_s_OffsetFetchRequest_3, 8: _d_s_OffsetFetchRequest_4, 9: _d_s_OffsetFetchRequest_5, 10: _d_s_OffsetFetchRequest_6}
OffsetFetchRequest._ENCODERS = {1: _e_OffsetFetchRequest_0, 2: _e_OffsetFetchRequest_1, 3: _e_OffsetFetchRequest_1, 4: _e_OffsetFetchRequest_1, 5: _e_OffsetFetchRequest_1, 6: _e_OffsetFetchRequest_2, 7: _e_OffsetFetchRequest_3, 8: _e_OffsetFetchRequest_4, 9: _e_OffsetFetchRequest_5, 10: _e_OffsetFetchRequest_6}
