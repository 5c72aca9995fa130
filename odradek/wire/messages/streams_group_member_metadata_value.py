"""Generated from Kafka's StreamsGroupMemberMetadataValue.json by tools/gen_wire.py. Do not edit."""
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

_S0 = _struct.Struct('>ii')
_S1 = _struct.Struct('>H')


class Endpoint(Message):
    __slots__ = ('host', 'port', '_unknown_tagged')
    _FIELDS = (('host', 'string', 0, 32767, -1, -1, None, -1, None), ('port', 'uint16', 0, 32767, -1, -1, None, -1, None))

    def __init__(self, *, host='', port=0, _unknown_tagged=None):
        self.host = host
        self.port = port
        self._unknown_tagged = _unknown_tagged


class KeyValue(Message):
    __slots__ = ('key', 'value', '_unknown_tagged')
    _FIELDS = (('key', 'string', 0, 32767, -1, -1, None, -1, None), ('value', 'string', 0, 32767, -1, -1, None, -1, None))

    def __init__(self, *, key='', value='', _unknown_tagged=None):
        self.key = key
        self.value = value
        self._unknown_tagged = _unknown_tagged


class StreamsGroupMemberMetadataValue(Message):
    __slots__ = ('instance_id', 'rack_id', 'client_id', 'client_host', 'rebalance_timeout_ms', 'topology_epoch', 'process_id', 'user_endpoint', 'client_tags', '_unknown_tagged')
    _FIELDS = (('instance_id', 'string', 0, 32767, 0, 32767, None, -1, None), ('rack_id', 'string', 0, 32767, 0, 32767, None, -1, None), ('client_id', 'string', 0, 32767, -1, -1, None, -1, None), ('client_host', 'string', 0, 32767, -1, -1, None, -1, None), ('rebalance_timeout_ms', 'int32', 0, 32767, -1, -1, None, -1, None), ('topology_epoch', 'int32', 0, 32767, -1, -1, None, -1, None), ('process_id', 'string', 0, 32767, -1, -1, None, -1, None), ('user_endpoint', 'Endpoint', 0, 32767, 0, 32767, None, -1, 'Endpoint'), ('client_tags', '[]KeyValue', 0, 32767, -1, -1, None, -1, 'KeyValue'))
    API_KEY = 19
    VALID_VERSIONS = (0, 0)
    FLEXIBLE_MIN = 0

    def __init__(self, *, instance_id='', rack_id='', client_id='', client_host='', rebalance_timeout_ms=-1, topology_epoch=0, process_id='', user_endpoint=None, client_tags=DEFAULT, _unknown_tagged=None):
        self.instance_id = instance_id
        self.rack_id = rack_id
        self.client_id = client_id
        self.client_host = client_host
        self.rebalance_timeout_ms = rebalance_timeout_ms
        self.topology_epoch = topology_epoch
        self.process_id = process_id
        self.user_endpoint = user_endpoint
        self.client_tags = [] if client_tags is DEFAULT else client_tags
        self._unknown_tagged = _unknown_tagged



def _d_Endpoint_0(b, p):
    o = _new(Endpoint)
    o.host, p = _rcstr(b, p)
    o.port, = _S1.unpack_from(b, p)
    p += 2
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_KeyValue_0(b, p):
    o = _new(KeyValue)
    o.key, p = _rcstr(b, p)
    o.value, p = _rcstr(b, p)
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_StreamsGroupMemberMetadataValue_0(b, p):
    o = _new(StreamsGroupMemberMetadataValue)
    o.instance_id, p = _rcnstr(b, p)
    o.rack_id, p = _rcnstr(b, p)
    o.client_id, p = _rcstr(b, p)
    o.client_host, p = _rcstr(b, p)
    o.rebalance_timeout_ms, o.topology_epoch = _S0.unpack_from(b, p)
    p += 8
    o.process_id, p = _rcstr(b, p)
    if b[p] >= 128:
        o.user_endpoint = None
        p += 1
    else:
        o.user_endpoint, p = _d_Endpoint_0(b, p + 1)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 3)
    l = []
    for _ in range(n):
        e, p = _d_KeyValue_0(b, p)
        l.append(e)
    o.client_tags = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_Endpoint_0(o, w):
    _wcstr(w, o.host)
    w.append(_S1.pack(o.port))
    _wtag(w, o._unknown_tagged)


def _e_KeyValue_0(o, w):
    _wcstr(w, o.key)
    _wcstr(w, o.value)
    _wtag(w, o._unknown_tagged)


def _e_StreamsGroupMemberMetadataValue_0(o, w):
    _wcnstr(w, o.instance_id)
    _wcnstr(w, o.rack_id)
    _wcstr(w, o.client_id)
    _wcstr(w, o.client_host)
    w.append(_S0.pack(o.rebalance_timeout_ms, o.topology_epoch))
    _wcstr(w, o.process_id)
    x = o.user_endpoint
    if x is None:
        w.append(b'\xff')
    else:
        w.append(b'\x01')
        _e_Endpoint_0(x, w)
    x = o.client_tags
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_KeyValue_0(e, w)
    _wtag(w, o._unknown_tagged)


StreamsGroupMemberMetadataValue._DECODERS = {0: _d_StreamsGroupMemberMetadataValue_0}
StreamsGroupMemberMetadataValue._ENCODERS = {0: _e_StreamsGroupMemberMetadataValue_0}
