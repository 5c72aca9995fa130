"""Generated from Kafka's DescribeClusterRequest.json by tools/gen_wire.py. Do not edit."""
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

_S0 = _struct.Struct('>?')
_S1 = _struct.Struct('>?b')
_S2 = _struct.Struct('>?b?')


class DescribeClusterRequest(Message):
    __slots__ = ('include_cluster_authorized_operations', 'endpoint_type', 'include_fenced_brokers', '_unknown_tagged')
    _FIELDS = (('include_cluster_authorized_operations', 'bool', 0, 32767, -1, -1, None, -1, None), ('endpoint_type', 'int8', 1, 32767, -1, -1, None, -1, None), ('include_fenced_brokers', 'bool', 2, 32767, -1, -1, None, -1, None))
    API_KEY = 60
    VALID_VERSIONS = (0, 2)
    FLEXIBLE_MIN = 0

    def __init__(self, *, include_cluster_authorized_operations=False, endpoint_type=1, include_fenced_brokers=False, _unknown_tagged=None):
        self.include_cluster_authorized_operations = include_cluster_authorized_operations
        self.endpoint_type = endpoint_type
        self.include_fenced_brokers = include_fenced_brokers
        self._unknown_tagged = _unknown_tagged



def _d_DescribeClusterRequest_0(b, p):
    o = _new(DescribeClusterRequest)
    o.include_cluster_authorized_operations, = _S0.unpack_from(b, p)
    p += 1
    o.endpoint_type = 1
    o.include_fenced_brokers = False
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_DescribeClusterRequest_0(o, w):
    w.append(_S0.pack(o.include_cluster_authorized_operations))
    _wtag(w, o._unknown_tagged)


def _d_DescribeClusterRequest_1(b, p):
    o = _new(DescribeClusterRequest)
    o.include_cluster_authorized_operations, o.endpoint_type = _S1.unpack_from(b, p)
    p += 2
    o.include_fenced_brokers = False
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_DescribeClusterRequest_1(o, w):
    w.append(_S1.pack(o.include_cluster_authorized_operations, o.endpoint_type))
    _wtag(w, o._unknown_tagged)


def _d_DescribeClusterRequest_2(b, p):
    o = _new(DescribeClusterRequest)
    o.include_cluster_authorized_operations, o.endpoint_type, o.include_fenced_brokers = _S2.unpack_from(b, p)
    p += 3
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_DescribeClusterRequest_2(o, w):
    w.append(_S2.pack(o.include_cluster_authorized_operations, o.endpoint_type, o.include_fenced_brokers))
    _wtag(w, o._unknown_tagged)


DescribeClusterRequest._DECODERS = {0: _d_DescribeClusterRequest_0, 1: _d_DescribeClusterRequest_1, 2: _d_DescribeClusterRequest_2}
DescribeClusterRequest._ENCODERS = {0: _e_DescribeClusterRequest_0, 1: _e_DescribeClusterRequest_1, 2: _e_DescribeClusterRequest_2}
