"""Generated from Kafka's DeleteTopicsRequest.json by tools/gen_wire.py. Do not edit."""
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

_S0 = _struct.Struct('>i')
_S1 = _struct.Struct('>16s')


class DeleteTopicState(Message):
    __slots__ = ('name', 'topic_id', '_unknown_tagged')
    _FIELDS = (('name', 'string', 6, 32767, 6, 32767, None, -1, None), ('topic_id', 'uuid', 6, 32767, -1, -1, None, -1, None))

    def __init__(self, *, name=None, topic_id=ZERO_UUID, _unknown_tagged=None):
        self.name = name
        self.topic_id = topic_id
        self._unknown_tagged = _unknown_tagged


class DeleteTopicsRequest(Message):
    __slots__ = ('topics', 'topic_names', 'timeout_ms', '_unknown_tagged')
    _FIELDS = (('topics', '[]DeleteTopicState', 6, 32767, -1, -1, None, -1, 'DeleteTopicState'), ('topic_names', '[]string', 0, 5, -1, -1, None, -1, None), ('timeout_ms', 'int32', 0, 32767, -1, -1, None, -1, None))
    API_KEY = 20
    VALID_VERSIONS = (1, 6)
    FLEXIBLE_MIN = 4

    def __init__(self, *, topics=DEFAULT, topic_names=DEFAULT, timeout_ms=0, _unknown_tagged=None):
        self.topics = [] if topics is DEFAULT else topics
        self.topic_names = [] if topic_names is DEFAULT else topic_names
        self.timeout_ms = timeout_ms
        self._unknown_tagged = _unknown_tagged



def _s_DeleteTopicsRequest_0(b, p):
    o = _new(DeleteTopicsRequest)
    o.topics = []
    n, p = _ral(b, p, 2)
    y = p + 16384
    l = []
    for _ in range(n):
        e, p = _rstr(b, p)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.topic_names = l
    o.timeout_ms, = _S0.unpack_from(b, p)
    p += 4
    o._unknown_tagged = None
    return o, p


def _e_DeleteTopicsRequest_0(o, w):
    x = o.topic_names
    w.append(_I(len(x)))
    for e in x:
        _wstr(w, e)
    w.append(_S0.pack(o.timeout_ms))


def _s_DeleteTopicsRequest_1(b, p):
    o = _new(DeleteTopicsRequest)
    o.topics = []
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 1)
    y = p + 16384
    l = []
    for _ in range(n):
        e, p = _rcstr(b, p)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.topic_names = l
    o.timeout_ms, = _S0.unpack_from(b, p)
    p += 4
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_DeleteTopicsRequest_1(o, w):
    x = o.topic_names
    w.append(_uv(len(x) + 1))
    for e in x:
        _wcstr(w, e)
    w.append(_S0.pack(o.timeout_ms))
    _wtag(w, o._unknown_tagged)


def _d_DeleteTopicState_0(b, p):
    o = _new(DeleteTopicState)
    o.name, p = _rcnstr(b, p)
    o.topic_id, = _S1.unpack_from(b, p)
    p += 16
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _s_DeleteTopicsRequest_2(b, p):
    o = _new(DeleteTopicsRequest)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 18)
    y = p + 16384
    l = []
    for _ in range(n):
        e, p = _d_DeleteTopicState_0(b, p)
        l.append(e)
        if p >= y:
            y = p + 16384
            yield
    o.topics = l
    o.topic_names = []
    o.timeout_ms, = _S0.unpack_from(b, p)
    p += 4
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_DeleteTopicState_0(o, w):
    _wcnstr(w, o.name)
    w.append(_S1.pack(o.topic_id))
    _wtag(w, o._unknown_tagged)


def _e_DeleteTopicsRequest_2(o, w):
    x = o.topics
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_DeleteTopicState_0(e, w)
    w.append(_S0.pack(o.timeout_ms))
    _wtag(w, o._unknown_tagged)


_d_s_DeleteTopicsRequest_0 = _whole(_s_DeleteTopicsRequest_0)
_d_s_DeleteTopicsRequest_1 = _whole(_s_DeleteTopicsRequest_1)
_d_s_DeleteTopicsRequest_2 = _whole(_s_DeleteTopicsRequest_2)
DeleteTopicsRequest._STEPS = {1: _s_DeleteTopicsRequest_0, 2: _s_DeleteTopicsRequest_0, 3: _s_DeleteTopicsRequest_0, 4: _s_DeleteTopicsRequest_1, 5: _s_DeleteTopicsRequest_1, 6: _s_DeleteTopicsRequest_2}
DeleteTopicsRequest._DECODERS = {1: _d_s_DeleteTopicsRequest_0, 2: _d_s_DeleteTopicsRequest_0, 3: _d_s_DeleteTopicsRequest_0, 4: _d_s_DeleteTopicsRequest_1, 5: _d_s_DeleteTopicsRequest_1, 6: _d_s_DeleteTopicsRequest_2}
DeleteTopicsRequest._ENCODERS = {1: _e_DeleteTopicsRequest_0, 2: _e_DeleteTopicsRequest_0, 3: _e_DeleteTopicsRequest_0, 4: _e_DeleteTopicsRequest_1, 5: _e_DeleteTopicsRequest_1, 6: _e_DeleteTopicsRequest_2}
