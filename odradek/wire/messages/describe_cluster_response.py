"""Generated from Kafka's DescribeClusterResponse.json by tools/gen_wire.py. Do not edit."""
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

_S0 = _struct.Struct('>ih')
_S1 = _struct.Struct('>i')
_S2 = _struct.Struct('>b')
_S3 = _struct.Struct('>?')


class DescribeClusterBroker(Message):
    __slots__ = ('broker_id', 'host', 'port', 'rack', 'is_fenced', '_unknown_tagged')
    _FIELDS = (('broker_id', 'int32', 0, 32767, -1, -1, None, -1, None), ('host', 'string', 0, 32767, -1, -1, None, -1, None), ('port', 'int32', 0, 32767, -1, -1, None, -1, None), ('rack', 'string', 0, 32767, 0, 32767, None, -1, None), ('is_fenced', 'bool', 2, 32767, -1, -1, None, -1, None))

    def __init__(self, *, broker_id=0, host='', port=0, rack=None, is_fenced=False, _unknown_tagged=None):
        self.broker_id = broker_id
        self.host = host
        self.port = port
        self.rack = rack
        self.is_fenced = is_fenced
        self._unknown_tagged = _unknown_tagged


class DescribeClusterResponse(Message):
    __slots__ = ('throttle_time_ms', 'error_code', 'error_message', 'endpoint_type', 'cluster_id', 'controller_id', 'brokers', 'cluster_authorized_operations', '_unknown_tagged')
    _FIELDS = (('throttle_time_ms', 'int32', 0, 32767, -1, -1, None, -1, None), ('error_code', 'int16', 0, 32767, -1, -1, None, -1, None), ('error_message', 'string', 0, 32767, 0, 32767, None, -1, None), ('endpoint_type', 'int8', 1, 32767, -1, -1, None, -1, None), ('cluster_id', 'string', 0, 32767, -1, -1, None, -1, None), ('controller_id', 'int32', 0, 32767, -1, -1, None, -1, None), ('brokers', '[]DescribeClusterBroker', 0, 32767, -1, -1, None, -1, 'DescribeClusterBroker'), ('cluster_authorized_operations', 'int32', 0, 32767, -1, -1, None, -1, None))
    API_KEY = 60
    VALID_VERSIONS = (0, 2)
    FLEXIBLE_MIN = 0

    def __init__(self, *, throttle_time_ms=0, error_code=0, error_message=None, endpoint_type=1, cluster_id='', controller_id=-1, brokers=DEFAULT, cluster_authorized_operations=-2147483648, _unknown_tagged=None):
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.error_message = error_message
        self.endpoint_type = endpoint_type
        self.cluster_id = cluster_id
        self.controller_id = controller_id
        self.brokers = [] if brokers is DEFAULT else brokers
        self.cluster_authorized_operations = cluster_authorized_operations
        self._unknown_tagged = _unknown_tagged



def _d_DescribeClusterBroker_0(b, p):
    o = _new(DescribeClusterBroker)
    o.broker_id, = _S1.unpack_from(b, p)
    p += 4
    o.host, p = _rcstr(b, p)
    o.port, = _S1.unpack_from(b, p)
    p += 4
    o.rack, p = _rcnstr(b, p)
    o.is_fenced = False
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_DescribeClusterResponse_0(b, p):
    o = _new(DescribeClusterResponse)
    o.throttle_time_ms, o.error_code = _S0.unpack_from(b, p)
    p += 6
    o.error_message, p = _rcnstr(b, p)
    o.endpoint_type = 1
    o.cluster_id, p = _rcstr(b, p)
    o.controller_id, = _S1.unpack_from(b, p)
    p += 4
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 11)
    l = []
    for _ in range(n):
        e, p = _d_DescribeClusterBroker_0(b, p)
        l.append(e)
    o.brokers = l
    o.cluster_authorized_operations, = _S1.unpack_from(b, p)
    p += 4
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_DescribeClusterBroker_0(o, w):
    w.append(_S1.pack(o.broker_id))
    _wcstr(w, o.host)
    w.append(_S1.pack(o.port))
    _wcnstr(w, o.rack)
    _wtag(w, o._unknown_tagged)


def _e_DescribeClusterResponse_0(o, w):
    w.append(_S0.pack(o.throttle_time_ms, o.error_code))
    _wcnstr(w, o.error_message)
    _wcstr(w, o.cluster_id)
    w.append(_S1.pack(o.controller_id))
    x = o.brokers
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_DescribeClusterBroker_0(e, w)
    w.append(_S1.pack(o.cluster_authorized_operations))
    _wtag(w, o._unknown_tagged)


def _d_DescribeClusterResponse_1(b, p):
    o = _new(DescribeClusterResponse)
    o.throttle_time_ms, o.error_code = _S0.unpack_from(b, p)
    p += 6
    o.error_message, p = _rcnstr(b, p)
    o.endpoint_type, = _S2.unpack_from(b, p)
    p += 1
    o.cluster_id, p = _rcstr(b, p)
    o.controller_id, = _S1.unpack_from(b, p)
    p += 4
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 11)
    l = []
    for _ in range(n):
        e, p = _d_DescribeClusterBroker_0(b, p)
        l.append(e)
    o.brokers = l
    o.cluster_authorized_operations, = _S1.unpack_from(b, p)
    p += 4
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_DescribeClusterResponse_1(o, w):
    w.append(_S0.pack(o.throttle_time_ms, o.error_code))
    _wcnstr(w, o.error_message)
    w.append(_S2.pack(o.endpoint_type))
    _wcstr(w, o.cluster_id)
    w.append(_S1.pack(o.controller_id))
    x = o.brokers
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_DescribeClusterBroker_0(e, w)
    w.append(_S1.pack(o.cluster_authorized_operations))
    _wtag(w, o._unknown_tagged)


def _d_DescribeClusterBroker_1(b, p):
    o = _new(DescribeClusterBroker)
    o.broker_id, = _S1.unpack_from(b, p)
    p += 4
    o.host, p = _rcstr(b, p)
    o.port, = _S1.unpack_from(b, p)
    p += 4
    o.rack, p = _rcnstr(b, p)
    o.is_fenced, = _S3.unpack_from(b, p)
    p += 1
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_DescribeClusterResponse_2(b, p):
    o = _new(DescribeClusterResponse)
    o.throttle_time_ms, o.error_code = _S0.unpack_from(b, p)
    p += 6
    o.error_message, p = _rcnstr(b, p)
    o.endpoint_type, = _S2.unpack_from(b, p)
    p += 1
    o.cluster_id, p = _rcstr(b, p)
    o.controller_id, = _S1.unpack_from(b, p)
    p += 4
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 12)
    l = []
    for _ in range(n):
        e, p = _d_DescribeClusterBroker_1(b, p)
        l.append(e)
    o.brokers = l
    o.cluster_authorized_operations, = _S1.unpack_from(b, p)
    p += 4
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_DescribeClusterBroker_1(o, w):
    w.append(_S1.pack(o.broker_id))
    _wcstr(w, o.host)
    w.append(_S1.pack(o.port))
    _wcnstr(w, o.rack)
    w.append(_S3.pack(o.is_fenced))
    _wtag(w, o._unknown_tagged)


def _e_DescribeClusterResponse_2(o, w):
    w.append(_S0.pack(o.throttle_time_ms, o.error_code))
    _wcnstr(w, o.error_message)
    w.append(_S2.pack(o.endpoint_type))
    _wcstr(w, o.cluster_id)
    w.append(_S1.pack(o.controller_id))
    x = o.brokers
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_DescribeClusterBroker_1(e, w)
    w.append(_S1.pack(o.cluster_authorized_operations))
    _wtag(w, o._unknown_tagged)


DescribeClusterResponse._DECODERS = {0: _d_DescribeClusterResponse_0, 1: _d_DescribeClusterResponse_1, 2: _d_DescribeClusterResponse_2}
DescribeClusterResponse._ENCODERS = {0: _e_DescribeClusterResponse_0, 1: _e_DescribeClusterResponse_1, 2: _e_DescribeClusterResponse_2}
