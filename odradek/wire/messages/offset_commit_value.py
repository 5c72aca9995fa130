"""Generated from Kafka's OffsetCommitValue.json by tools/gen_wire.py. Do not edit."""
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

_S0 = _struct.Struct('>q')
_S1 = _struct.Struct('>qq')
_S2 = _struct.Struct('>qi')
_S3 = _struct.Struct('>16s')


class OffsetCommitValue(Message):
    __slots__ = ('offset', 'leader_epoch', 'metadata', 'commit_timestamp', 'expire_timestamp', 'topic_id', '_unknown_tagged')
    _FIELDS = (('offset', 'int64', 0, 32767, -1, -1, None, -1, None), ('leader_epoch', 'int32', 3, 32767, -1, -1, None, -1, None), ('metadata', 'string', 0, 32767, -1, -1, None, -1, None), ('commit_timestamp', 'int64', 0, 32767, -1, -1, None, -1, None), ('expire_timestamp', 'int64', 1, 1, -1, -1, None, -1, None), ('topic_id', 'uuid', 4, 32767, -1, -1, 0, 4, None))
    API_KEY = 1
    VALID_VERSIONS = (0, 4)
    FLEXIBLE_MIN = 4

    def __init__(self, *, offset=0, leader_epoch=-1, metadata='', commit_timestamp=0, expire_timestamp=-1, topic_id=ZERO_UUID, _unknown_tagged=None):
        self.offset = offset
        self.leader_epoch = leader_epoch
        self.metadata = metadata
        self.commit_timestamp = commit_timestamp
        self.expire_timestamp = expire_timestamp
        self.topic_id = topic_id
        self._unknown_tagged = _unknown_tagged



def _d_OffsetCommitValue_0(b, p):
    o = _new(OffsetCommitValue)
    o.offset, = _S0.unpack_from(b, p)
    p += 8
    o.leader_epoch = -1
    o.metadata, p = _rstr(b, p)
    o.commit_timestamp, = _S0.unpack_from(b, p)
    p += 8
    o.expire_timestamp = -1
    o.topic_id = ZERO_UUID
    o._unknown_tagged = None
    return o, p


def _e_OffsetCommitValue_0(o, w):
    w.append(_S0.pack(o.offset))
    _wstr(w, o.metadata)
    w.append(_S0.pack(o.commit_timestamp))


def _d_OffsetCommitValue_1(b, p):
    o = _new(OffsetCommitValue)
    o.offset, = _S0.unpack_from(b, p)
    p += 8
    o.leader_epoch = -1
    o.metadata, p = _rstr(b, p)
    o.commit_timestamp, o.expire_timestamp = _S1.unpack_from(b, p)
    p += 16
    o.topic_id = ZERO_UUID
    o._unknown_tagged = None
    return o, p


def _e_OffsetCommitValue_1(o, w):
    w.append(_S0.pack(o.offset))
    _wstr(w, o.metadata)
    w.append(_S1.pack(o.commit_timestamp, o.expire_timestamp))


def _d_OffsetCommitValue_2(b, p):
    o = _new(OffsetCommitValue)
    o.offset, o.leader_epoch = _S2.unpack_from(b, p)
    p += 12
    o.metadata, p = _rstr(b, p)
    o.commit_timestamp, = _S0.unpack_from(b, p)
    p += 8
    o.expire_timestamp = -1
    o.topic_id = ZERO_UUID
    o._unknown_tagged = None
    return o, p


def _e_OffsetCommitValue_2(o, w):
    w.append(_S2.pack(o.offset, o.leader_epoch))
    _wstr(w, o.metadata)
    w.append(_S0.pack(o.commit_timestamp))


def _d_OffsetCommitValue_3(b, p):
    o = _new(OffsetCommitValue)
    o.offset, o.leader_epoch = _S2.unpack_from(b, p)
    p += 12
    o.metadata, p = _rcstr(b, p)
    o.commit_timestamp, = _S0.unpack_from(b, p)
    p += 8
    o.expire_timestamp = -1
    o.topic_id = ZERO_UUID
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
                o.topic_id, = _S3.unpack_from(raw, q)
                q += 16
            else:
                if u is None: u = []
                u.append((tag, bytes(raw)))
    o._unknown_tagged = u
    return o, p


def _e_OffsetCommitValue_3(o, w):
    w.append(_S2.pack(o.offset, o.leader_epoch))
    _wcstr(w, o.metadata)
    w.append(_S0.pack(o.commit_timestamp))
    tg = []
    x = o.topic_id
    if x != ZERO_UUID:
        tw = []
        tw.append(_S3.pack(x))
        tg.append((0, b''.join(tw)))
    if o._unknown_tagged:
        tg = sorted(tg + o._unknown_tagged, key=_tagkey)
    _wtag(w, tg)


OffsetCommitValue._DECODERS = {0: _d_OffsetCommitValue_0, 1: _d_OffsetCommitValue_1, 2: _d_OffsetCommitValue_0, 3: _d_OffsetCommitValue_2, 4: _d_OffsetCommitValue_3}
OffsetCommitValue._ENCODERS = {0: _e_OffsetCommitValue_0, 1: _e_OffsetCommitValue_1, 2: _e_OffsetCommitValue_0, 3: _e_OffsetCommitValue_2, 4: _e_OffsetCommitValue_3}
