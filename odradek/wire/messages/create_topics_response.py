"""Generated from Kafka's CreateTopicsResponse.json by tools/gen_wire.py. Do not edit."""
# flake8: noqa
import struct as _struct

from ..base import DEFAULT, Encoded as _Encoded, Message
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
_S1 = _struct.Struct('>h')
_S2 = _struct.Struct('>ih')
_S3 = _struct.Struct('>?b?')
_S4 = _struct.Struct('>16sh')


class CreatableTopicConfigs(Message):
    __slots__ = ('name', 'value', 'read_only', 'config_source', 'is_sensitive', '_unknown_tagged')
    _FIELDS = (('name', 'string', 5, 32767, -1, -1, None, -1, None), ('value', 'string', 5, 32767, 5, 32767, None, -1, None), ('read_only', 'bool', 5, 32767, -1, -1, None, -1, None), ('config_source', 'int8', 5, 32767, -1, -1, None, -1, None), ('is_sensitive', 'bool', 5, 32767, -1, -1, None, -1, None))

    def __init__(self, *, name='', value='', read_only=False, config_source=-1, is_sensitive=False, _unknown_tagged=None):
        self.name = name
        self.value = value
        self.read_only = read_only
        self.config_source = config_source
        self.is_sensitive = is_sensitive
        self._unknown_tagged = _unknown_tagged


class CreatableTopicResult(Message):
    __slots__ = ('name', 'topic_id', 'error_code', 'error_message', 'topic_config_error_code', 'num_partitions', 'replication_factor', 'configs', '_unknown_tagged')
    _FIELDS = (('name', 'string', 0, 32767, -1, -1, None, -1, None), ('topic_id', 'uuid', 7, 32767, -1, -1, None, -1, None), ('error_code', 'int16', 0, 32767, -1, -1, None, -1, None), ('error_message', 'string', 1, 32767, 0, 32767, None, -1, None), ('topic_config_error_code', 'int16', 5, 32767, -1, -1, 0, 5, None), ('num_partitions', 'int32', 5, 32767, -1, -1, None, -1, None), ('replication_factor', 'int16', 5, 32767, -1, -1, None, -1, None), ('configs', '[]CreatableTopicConfigs', 5, 32767, 5, 32767, None, -1, 'CreatableTopicConfigs'))

    def __init__(self, *, name='', topic_id=ZERO_UUID, error_code=0, error_message='', topic_config_error_code=0, num_partitions=-1, replication_factor=-1, configs=DEFAULT, _unknown_tagged=None):
        self.name = name
        self.topic_id = topic_id
        self.error_code = error_code
        self.error_message = error_message
        self.topic_config_error_code = topic_config_error_code
        self.num_partitions = num_partitions
        self.replication_factor = replication_factor
        self.configs = [] if configs is DEFAULT else configs
        self._unknown_tagged = _unknown_tagged


class CreateTopicsResponse(Message):
    __slots__ = ('throttle_time_ms', 'topics', '_unknown_tagged')
    _FIELDS = (('throttle_time_ms', 'int32', 2, 32767, -1, -1, None, -1, None), ('topics', '[]CreatableTopicResult', 0, 32767, -1, -1, None, -1, 'CreatableTopicResult'))
    API_KEY = 19
    VALID_VERSIONS = (2, 7)
    FLEXIBLE_MIN = 5

    def __init__(self, *, throttle_time_ms=0, topics=DEFAULT, _unknown_tagged=None):
        self.throttle_time_ms = throttle_time_ms
        self.topics = [] if topics is DEFAULT else topics
        self._unknown_tagged = _unknown_tagged



def _d_CreatableTopicResult_0(b, p):
    o = _new(CreatableTopicResult)
    o.name, p = _rstr(b, p)
    o.topic_id = ZERO_UUID
    o.error_code, = _S1.unpack_from(b, p)
    p += 2
    o.error_message, p = _rnstr(b, p)
    o.topic_config_error_code = 0
    o.num_partitions = -1
    o.replication_factor = -1
    o.configs = []
    o._unknown_tagged = None
    return o, p


def _d_CreateTopicsResponse_0(b, p):
    o = _new(CreateTopicsResponse)
    o.throttle_time_ms, = _S0.unpack_from(b, p)
    p += 4
    n, p = _ral(b, p, 6)
    l = []
    for _ in range(n):
        e, p = _d_CreatableTopicResult_0(b, p)
        l.append(e)
    o.topics = l
    o._unknown_tagged = None
    return o, p


def _e_CreatableTopicResult_0(o, w):
    _wstr(w, o.name)
    w.append(_S1.pack(o.error_code))
    _wnstr(w, o.error_message)


def _e_CreateTopicsResponse_0(o, w):
    w.append(_S0.pack(o.throttle_time_ms))
    x = o.topics
    w.append(_I(len(x)))
    for e in x:
        if e.__class__ is _Encoded:
            if e.encoder is not _e_CreatableTopicResult_0:
                raise TypeError('CreatableTopicResult encoded for another version')
            w.append(e.data)
        else:
            _e_CreatableTopicResult_0(e, w)


def _t_CreateTopicsResponse_0(o, w):
    c = 0
    w.append(_S0.pack(o.throttle_time_ms))
    x = o.topics
    w.append(_I(len(x)))
    for e in x:
        if e.__class__ is _Encoded:
            if e.encoder is not _e_CreatableTopicResult_0:
                raise TypeError('CreatableTopicResult encoded for another version')
            w.append(e.data)
        else:
            _e_CreatableTopicResult_0(e, w)
        c += 1
        if c >= 1000:
            c = 0
            yield


def _d_CreatableTopicConfigs_0(b, p):
    o = _new(CreatableTopicConfigs)
    o.name, p = _rcstr(b, p)
    o.value, p = _rcnstr(b, p)
    o.read_only, o.config_source, o.is_sensitive = _S3.unpack_from(b, p)
    p += 3
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_CreatableTopicResult_1(b, p):
    o = _new(CreatableTopicResult)
    o.name, p = _rcstr(b, p)
    o.topic_id = ZERO_UUID
    o.error_code, = _S1.unpack_from(b, p)
    p += 2
    o.error_message, p = _rcnstr(b, p)
    o.topic_config_error_code = 0
    o.num_partitions, o.replication_factor = _S2.unpack_from(b, p)
    p += 6
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcnal(b, p, 6)
    if n < 0:
        o.configs = None
    else:
        l = []
        for _ in range(n):
            e, p = _d_CreatableTopicConfigs_0(b, p)
            l.append(e)
        o.configs = l
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
                o.topic_config_error_code, = _S1.unpack_from(raw, q)
                q += 2
            else:
                if u is None: u = []
                u.append((tag, bytes(raw)))
    o._unknown_tagged = u
    return o, p


def _d_CreateTopicsResponse_1(b, p):
    o = _new(CreateTopicsResponse)
    o.throttle_time_ms, = _S0.unpack_from(b, p)
    p += 4
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 12)
    l = []
    for _ in range(n):
        e, p = _d_CreatableTopicResult_1(b, p)
        l.append(e)
    o.topics = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_CreatableTopicConfigs_0(o, w):
    _wcstr(w, o.name)
    _wcnstr(w, o.value)
    w.append(_S3.pack(o.read_only, o.config_source, o.is_sensitive))
    _wtag(w, o._unknown_tagged)


def _e_CreatableTopicResult_1(o, w):
    _wcstr(w, o.name)
    w.append(_S1.pack(o.error_code))
    _wcnstr(w, o.error_message)
    w.append(_S2.pack(o.num_partitions, o.replication_factor))
    x = o.configs
    if x is None:
        w.append(b'\x00')
    else:
        w.append(_uv(len(x) + 1))
        for e in x:
            _e_CreatableTopicConfigs_0(e, w)
    tg = []
    x = o.topic_config_error_code
    if x != 0:
        tw = []
        tw.append(_S1.pack(x))
        tg.append((0, b''.join(tw)))
    if o._unknown_tagged:
        tg = sorted(tg + o._unknown_tagged, key=_tagkey)
    _wtag(w, tg)


def _e_CreateTopicsResponse_1(o, w):
    w.append(_S0.pack(o.throttle_time_ms))
    x = o.topics
    w.append(_uv(len(x) + 1))
    for e in x:
        if e.__class__ is _Encoded:
            if e.encoder is not _e_CreatableTopicResult_1:
                raise TypeError('CreatableTopicResult encoded for another version')
            w.append(e.data)
        else:
            _e_CreatableTopicResult_1(e, w)
    _wtag(w, o._unknown_tagged)


def _u_CreatableTopicResult_0(o, w, c):
    _wcstr(w, o.name)
    w.append(_S1.pack(o.error_code))
    _wcnstr(w, o.error_message)
    w.append(_S2.pack(o.num_partitions, o.replication_factor))
    x = o.configs
    if x is None:
        w.append(b'\x00')
    else:
        w.append(_uv(len(x) + 1))
        for e in x:
            _e_CreatableTopicConfigs_0(e, w)
            c += 1
            if c >= 1000:
                c = 0
                yield
    tg = []
    x = o.topic_config_error_code
    if x != 0:
        tw = []
        tw.append(_S1.pack(x))
        tg.append((0, b''.join(tw)))
    if o._unknown_tagged:
        tg = sorted(tg + o._unknown_tagged, key=_tagkey)
    _wtag(w, tg)
    return c


def _t_CreateTopicsResponse_1(o, w):
    c = 0
    w.append(_S0.pack(o.throttle_time_ms))
    x = o.topics
    w.append(_uv(len(x) + 1))
    for e in x:
        if e.__class__ is _Encoded:
            if e.encoder is not _e_CreatableTopicResult_1:
                raise TypeError('CreatableTopicResult encoded for another version')
            w.append(e.data)
        else:
            c = yield from _u_CreatableTopicResult_0(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield
    _wtag(w, o._unknown_tagged)


def _d_CreatableTopicResult_2(b, p):
    o = _new(CreatableTopicResult)
    o.name, p = _rcstr(b, p)
    o.topic_id, o.error_code = _S4.unpack_from(b, p)
    p += 18
    o.error_message, p = _rcnstr(b, p)
    o.topic_config_error_code = 0
    o.num_partitions, o.replication_factor = _S2.unpack_from(b, p)
    p += 6
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcnal(b, p, 6)
    if n < 0:
        o.configs = None
    else:
        l = []
        for _ in range(n):
            e, p = _d_CreatableTopicConfigs_0(b, p)
            l.append(e)
        o.configs = l
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
                o.topic_config_error_code, = _S1.unpack_from(raw, q)
                q += 2
            else:
                if u is None: u = []
                u.append((tag, bytes(raw)))
    o._unknown_tagged = u
    return o, p


def _d_CreateTopicsResponse_2(b, p):
    o = _new(CreateTopicsResponse)
    o.throttle_time_ms, = _S0.unpack_from(b, p)
    p += 4
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 28)
    l = []
    for _ in range(n):
        e, p = _d_CreatableTopicResult_2(b, p)
        l.append(e)
    o.topics = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_CreatableTopicResult_2(o, w):
    _wcstr(w, o.name)
    w.append(_S4.pack(o.topic_id, o.error_code))
    _wcnstr(w, o.error_message)
    w.append(_S2.pack(o.num_partitions, o.replication_factor))
    x = o.configs
    if x is None:
        w.append(b'\x00')
    else:
        w.append(_uv(len(x) + 1))
        for e in x:
            _e_CreatableTopicConfigs_0(e, w)
    tg = []
    x = o.topic_config_error_code
    if x != 0:
        tw = []
        tw.append(_S1.pack(x))
        tg.append((0, b''.join(tw)))
    if o._unknown_tagged:
        tg = sorted(tg + o._unknown_tagged, key=_tagkey)
    _wtag(w, tg)


def _e_CreateTopicsResponse_2(o, w):
    w.append(_S0.pack(o.throttle_time_ms))
    x = o.topics
    w.append(_uv(len(x) + 1))
    for e in x:
        if e.__class__ is _Encoded:
            if e.encoder is not _e_CreatableTopicResult_2:
                raise TypeError('CreatableTopicResult encoded for another version')
            w.append(e.data)
        else:
            _e_CreatableTopicResult_2(e, w)
    _wtag(w, o._unknown_tagged)


def _u_CreatableTopicResult_1(o, w, c):
    _wcstr(w, o.name)
    w.append(_S4.pack(o.topic_id, o.error_code))
    _wcnstr(w, o.error_message)
    w.append(_S2.pack(o.num_partitions, o.replication_factor))
    x = o.configs
    if x is None:
        w.append(b'\x00')
    else:
        w.append(_uv(len(x) + 1))
        for e in x:
            _e_CreatableTopicConfigs_0(e, w)
            c += 1
            if c >= 1000:
                c = 0
                yield
    tg = []
    x = o.topic_config_error_code
    if x != 0:
        tw = []
        tw.append(_S1.pack(x))
        tg.append((0, b''.join(tw)))
    if o._unknown_tagged:
        tg = sorted(tg + o._unknown_tagged, key=_tagkey)
    _wtag(w, tg)
    return c


def _t_CreateTopicsResponse_2(o, w):
    c = 0
    w.append(_S0.pack(o.throttle_time_ms))
    x = o.topics
    w.append(_uv(len(x) + 1))
    for e in x:
        if e.__class__ is _Encoded:
            if e.encoder is not _e_CreatableTopicResult_2:
                raise TypeError('CreatableTopicResult encoded for another version')
            w.append(e.data)
        else:
            c = yield from _u_CreatableTopicResult_1(e, w, c)
        c += 1
        if c >= 1000:
            c = 0
            yield
    _wtag(w, o._unknown_tagged)


CreateTopicsResponse._DECODERS = {2: _d_CreateTopicsResponse_0, 3: _d_CreateTopicsResponse_0, 4: _d_CreateTopicsResponse_0, 5: _d_CreateTopicsResponse_1, 6: _d_CreateTopicsResponse_1, 7: _d_CreateTopicsResponse_2}
CreateTopicsResponse._ENCODERS = {2: _e_CreateTopicsResponse_0, 3: _e_CreateTopicsResponse_0, 4: _e_CreateTopicsResponse_0, 5: _e_CreateTopicsResponse_1, 6: _e_CreateTopicsResponse_1, 7: _e_CreateTopicsResponse_2}
CreateTopicsResponse._ENCODE_STEPS = {2: _t_CreateTopicsResponse_0, 3: _t_CreateTopicsResponse_0, 4: _t_CreateTopicsResponse_0, 5: _t_CreateTopicsResponse_1, 6: _t_CreateTopicsResponse_1, 7: _t_CreateTopicsResponse_2}
CreatableTopicResult._ENCODERS = {2: _e_CreatableTopicResult_0, 3: _e_CreatableTopicResult_0, 4: _e_CreatableTopicResult_0, 5: _e_CreatableTopicResult_1, 6: _e_CreatableTopicResult_1, 7: _e_CreatableTopicResult_2}
