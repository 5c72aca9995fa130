"""Generated from Kafka's StreamsGroupMetadataValue.json by tools/gen_wire.py. Do not edit."""
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

_S0 = _struct.Struct('>iq')
_S1 = _struct.Struct('>i')


class LastAssignmentConfig(Message):
    __slots__ = ('key', 'value', '_unknown_tagged')
    _FIELDS = (('key', 'string', 0, 32767, -1, -1, None, -1, None), ('value', 'string', 0, 32767, -1, -1, None, -1, None))

    def __init__(self, *, key='', value='', _unknown_tagged=None):
        self.key = key
        self.value = value
        self._unknown_tagged = _unknown_tagged


class StreamsGroupMetadataValue(Message):
    __slots__ = ('epoch', 'metadata_hash', 'validated_topology_epoch', 'last_assignment_configs', '_unknown_tagged')
    _FIELDS = (('epoch', 'int32', 0, 32767, -1, -1, None, -1, None), ('metadata_hash', 'int64', 0, 32767, -1, -1, None, -1, None), ('validated_topology_epoch', 'int32', 0, 32767, -1, -1, 0, 0, None), ('last_assignment_configs', '[]LastAssignmentConfig', 0, 32767, 0, 32767, 1, 0, 'LastAssignmentConfig'))
    API_KEY = 17
    VALID_VERSIONS = (0, 0)
    FLEXIBLE_MIN = 0

    def __init__(self, *, epoch=0, metadata_hash=0, validated_topology_epoch=-1, last_assignment_configs=DEFAULT, _unknown_tagged=None):
        self.epoch = epoch
        self.metadata_hash = metadata_hash
        self.validated_topology_epoch = validated_topology_epoch
        self.last_assignment_configs = [] if last_assignment_configs is DEFAULT else last_assignment_configs
        self._unknown_tagged = _unknown_tagged



def _d_LastAssignmentConfig_0(b, p):
    o = _new(LastAssignmentConfig)
    o.key, p = _rcstr(b, p)
    o.value, p = _rcstr(b, p)
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_StreamsGroupMetadataValue_0(b, p):
    o = _new(StreamsGroupMetadataValue)
    o.epoch, o.metadata_hash = _S0.unpack_from(b, p)
    p += 12
    o.validated_topology_epoch = -1
    o.last_assignment_configs = []
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
                o.validated_topology_epoch, = _S1.unpack_from(raw, q)
                q += 4
            elif tag == 1:
                q = 0
                n = raw[q] - 1
                if 0 <= n < 127:
                    q += 1
                else:
                    n, q = _rcnal(raw, q, 3)
                if n < 0:
                    o.last_assignment_configs = None
                else:
                    l = []
                    for _ in range(n):
                        e, q = _d_LastAssignmentConfig_0(raw, q)
                        l.append(e)
                    o.last_assignment_configs = l
            else:
                if u is None: u = []
                u.append((tag, bytes(raw)))
    o._unknown_tagged = u
    return o, p


def _e_LastAssignmentConfig_0(o, w):
    _wcstr(w, o.key)
    _wcstr(w, o.value)
    _wtag(w, o._unknown_tagged)


def _e_StreamsGroupMetadataValue_0(o, w):
    w.append(_S0.pack(o.epoch, o.metadata_hash))
    tg = []
    x = o.validated_topology_epoch
    if x != -1:
        tw = []
        tw.append(_S1.pack(x))
        tg.append((0, b''.join(tw)))
    x = o.last_assignment_configs
    if x is None or x:
        tw = []
        x = x
        if x is None:
            tw.append(b'\x00')
        else:
            tw.append(_uv(len(x) + 1))
            for e in x:
                _e_LastAssignmentConfig_0(e, tw)
        tg.append((1, b''.join(tw)))
    if o._unknown_tagged:
        tg = sorted(tg + o._unknown_tagged, key=_tagkey)
    _wtag(w, tg)


StreamsGroupMetadataValue._DECODERS = {0: _d_StreamsGroupMetadataValue_0}
StreamsGroupMetadataValue._ENCODERS = {0: _e_StreamsGroupMetadataValue_0}
