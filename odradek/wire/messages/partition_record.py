"""Generated from Kafka's PartitionRecord.json by tools/gen_wire.py. Do not edit."""
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

_S0 = _struct.Struct('>i16s')
_S1 = _struct.Struct('>i')
_S2 = _struct.Struct('>ii')
_S3 = _struct.Struct('>b')
_S4 = _struct.Struct('>iii')


class PartitionRecord(Message):
    __slots__ = ('partition_id', 'topic_id', 'replicas', 'isr', 'removing_replicas', 'adding_replicas', 'leader', 'leader_recovery_state', 'leader_epoch', 'partition_epoch', 'directories', 'eligible_leader_replicas', 'last_known_elr', '_unknown_tagged')
    _FIELDS = (('partition_id', 'int32', 0, 32767, -1, -1, None, -1, None), ('topic_id', 'uuid', 0, 32767, -1, -1, None, -1, None), ('replicas', '[]int32', 0, 32767, -1, -1, None, -1, None), ('isr', '[]int32', 0, 32767, -1, -1, None, -1, None), ('removing_replicas', '[]int32', 0, 32767, -1, -1, None, -1, None), ('adding_replicas', '[]int32', 0, 32767, -1, -1, None, -1, None), ('leader', 'int32', 0, 32767, -1, -1, None, -1, None), ('leader_recovery_state', 'int8', 0, 32767, -1, -1, 0, 0, None), ('leader_epoch', 'int32', 0, 32767, -1, -1, None, -1, None), ('partition_epoch', 'int32', 0, 32767, -1, -1, None, -1, None), ('directories', '[]uuid', 1, 32767, -1, -1, None, -1, None), ('eligible_leader_replicas', '[]int32', 2, 32767, 2, 32767, 1, 2, None), ('last_known_elr', '[]int32', 2, 32767, 2, 32767, 2, 2, None))
    API_KEY = 3
    VALID_VERSIONS = (0, 2)
    FLEXIBLE_MIN = 0

    def __init__(self, *, partition_id=-1, topic_id=ZERO_UUID, replicas=DEFAULT, isr=DEFAULT, removing_replicas=DEFAULT, adding_replicas=DEFAULT, leader=-1, leader_recovery_state=0, leader_epoch=-1, partition_epoch=-1, directories=DEFAULT, eligible_leader_replicas=None, last_known_elr=None, _unknown_tagged=None):
        self.partition_id = partition_id
        self.topic_id = topic_id
        self.replicas = [] if replicas is DEFAULT else replicas
        self.isr = [] if isr is DEFAULT else isr
        self.removing_replicas = [] if removing_replicas is DEFAULT else removing_replicas
        self.adding_replicas = [] if adding_replicas is DEFAULT else adding_replicas
        self.leader = leader
        self.leader_recovery_state = leader_recovery_state
        self.leader_epoch = leader_epoch
        self.partition_epoch = partition_epoch
        self.directories = [] if directories is DEFAULT else directories
        self.eligible_leader_replicas = eligible_leader_replicas
        self.last_known_elr = last_known_elr
        self._unknown_tagged = _unknown_tagged



def _d_PartitionRecord_0(b, p):
    o = _new(PartitionRecord)
    o.partition_id, o.topic_id = _S0.unpack_from(b, p)
    p += 20
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 4)
    l = list((_ARR['i'][n] if n < 64 else _struct.Struct('>%di' % n)).unpack_from(b, p))
    p += 4 * n
    o.replicas = l
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 4)
    l = list((_ARR['i'][n] if n < 64 else _struct.Struct('>%di' % n)).unpack_from(b, p))
    p += 4 * n
    o.isr = l
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 4)
    l = list((_ARR['i'][n] if n < 64 else _struct.Struct('>%di' % n)).unpack_from(b, p))
    p += 4 * n
    o.removing_replicas = l
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 4)
    l = list((_ARR['i'][n] if n < 64 else _struct.Struct('>%di' % n)).unpack_from(b, p))
    p += 4 * n
    o.adding_replicas = l
    o.leader, = _S1.unpack_from(b, p)
    p += 4
    o.leader_recovery_state = 0
    o.leader_epoch, o.partition_epoch = _S2.unpack_from(b, p)
    p += 8
    o.directories = []
    o.eligible_leader_replicas = None
    o.last_known_elr = None
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
                o.leader_recovery_state, = _S3.unpack_from(raw, q)
                q += 1
            else:
                if u is None: u = []
                u.append((tag, bytes(raw)))
    o._unknown_tagged = u
    return o, p


def _e_PartitionRecord_0(o, w):
    w.append(_S0.pack(o.partition_id, o.topic_id))
    x = o.replicas
    w.append(_uv(len(x) + 1))
    w.append(_pack('>%di' % len(x), *x))
    x = o.isr
    w.append(_uv(len(x) + 1))
    w.append(_pack('>%di' % len(x), *x))
    x = o.removing_replicas
    w.append(_uv(len(x) + 1))
    w.append(_pack('>%di' % len(x), *x))
    x = o.adding_replicas
    w.append(_uv(len(x) + 1))
    w.append(_pack('>%di' % len(x), *x))
    w.append(_S4.pack(o.leader, o.leader_epoch, o.partition_epoch))
    tg = []
    x = o.leader_recovery_state
    if x != 0:
        tw = []
        tw.append(_S3.pack(x))
        tg.append((0, b''.join(tw)))
    if o._unknown_tagged:
        tg = sorted(tg + o._unknown_tagged, key=_tagkey)
    _wtag(w, tg)


def _d_PartitionRecord_1(b, p):
    o = _new(PartitionRecord)
    o.partition_id, o.topic_id = _S0.unpack_from(b, p)
    p += 20
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 4)
    l = list((_ARR['i'][n] if n < 64 else _struct.Struct('>%di' % n)).unpack_from(b, p))
    p += 4 * n
    o.replicas = l
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 4)
    l = list((_ARR['i'][n] if n < 64 else _struct.Struct('>%di' % n)).unpack_from(b, p))
    p += 4 * n
    o.isr = l
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 4)
    l = list((_ARR['i'][n] if n < 64 else _struct.Struct('>%di' % n)).unpack_from(b, p))
    p += 4 * n
    o.removing_replicas = l
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 4)
    l = list((_ARR['i'][n] if n < 64 else _struct.Struct('>%di' % n)).unpack_from(b, p))
    p += 4 * n
    o.adding_replicas = l
    o.leader, = _S1.unpack_from(b, p)
    p += 4
    o.leader_recovery_state = 0
    o.leader_epoch, o.partition_epoch = _S2.unpack_from(b, p)
    p += 8
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 16)
    l = [bytes(b[p + 16 * i:p + 16 * i + 16]) for i in range(n)]
    if p + 16 * n > len(b): raise _Trunc('uuid array')
    p += 16 * n
    o.directories = l
    o.eligible_leader_replicas = None
    o.last_known_elr = None
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
                o.leader_recovery_state, = _S3.unpack_from(raw, q)
                q += 1
            else:
                if u is None: u = []
                u.append((tag, bytes(raw)))
    o._unknown_tagged = u
    return o, p


def _e_PartitionRecord_1(o, w):
    w.append(_S0.pack(o.partition_id, o.topic_id))
    x = o.replicas
    w.append(_uv(len(x) + 1))
    w.append(_pack('>%di' % len(x), *x))
    x = o.isr
    w.append(_uv(len(x) + 1))
    w.append(_pack('>%di' % len(x), *x))
    x = o.removing_replicas
    w.append(_uv(len(x) + 1))
    w.append(_pack('>%di' % len(x), *x))
    x = o.adding_replicas
    w.append(_uv(len(x) + 1))
    w.append(_pack('>%di' % len(x), *x))
    w.append(_S4.pack(o.leader, o.leader_epoch, o.partition_epoch))
    x = o.directories
    w.append(_uv(len(x) + 1))
    w.append(b''.join(x))
    tg = []
    x = o.leader_recovery_state
    if x != 0:
        tw = []
        tw.append(_S3.pack(x))
        tg.append((0, b''.join(tw)))
    if o._unknown_tagged:
        tg = sorted(tg + o._unknown_tagged, key=_tagkey)
    _wtag(w, tg)


def _d_PartitionRecord_2(b, p):
    o = _new(PartitionRecord)
    o.partition_id, o.topic_id = _S0.unpack_from(b, p)
    p += 20
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 4)
    l = list((_ARR['i'][n] if n < 64 else _struct.Struct('>%di' % n)).unpack_from(b, p))
    p += 4 * n
    o.replicas = l
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 4)
    l = list((_ARR['i'][n] if n < 64 else _struct.Struct('>%di' % n)).unpack_from(b, p))
    p += 4 * n
    o.isr = l
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 4)
    l = list((_ARR['i'][n] if n < 64 else _struct.Struct('>%di' % n)).unpack_from(b, p))
    p += 4 * n
    o.removing_replicas = l
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 4)
    l = list((_ARR['i'][n] if n < 64 else _struct.Struct('>%di' % n)).unpack_from(b, p))
    p += 4 * n
    o.adding_replicas = l
    o.leader, = _S1.unpack_from(b, p)
    p += 4
    o.leader_recovery_state = 0
    o.leader_epoch, o.partition_epoch = _S2.unpack_from(b, p)
    p += 8
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 16)
    l = [bytes(b[p + 16 * i:p + 16 * i + 16]) for i in range(n)]
    if p + 16 * n > len(b): raise _Trunc('uuid array')
    p += 16 * n
    o.directories = l
    o.eligible_leader_replicas = None
    o.last_known_elr = None
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
                o.leader_recovery_state, = _S3.unpack_from(raw, q)
                q += 1
            elif tag == 1:
                q = 0
                n = raw[q] - 1
                if 0 <= n < 127:
                    q += 1
                else:
                    n, q = _rcnal(raw, q, 4)
                if n < 0:
                    o.eligible_leader_replicas = None
                else:
                    l = list((_ARR['i'][n] if n < 64 else _struct.Struct('>%di' % n)).unpack_from(raw, q))
                    q += 4 * n
                    o.eligible_leader_replicas = l
            elif tag == 2:
                q = 0
                n = raw[q] - 1
                if 0 <= n < 127:
                    q += 1
                else:
                    n, q = _rcnal(raw, q, 4)
                if n < 0:
                    o.last_known_elr = None
                else:
                    l = list((_ARR['i'][n] if n < 64 else _struct.Struct('>%di' % n)).unpack_from(raw, q))
                    q += 4 * n
                    o.last_known_elr = l
            else:
                if u is None: u = []
                u.append((tag, bytes(raw)))
    o._unknown_tagged = u
    return o, p


def _e_PartitionRecord_2(o, w):
    w.append(_S0.pack(o.partition_id, o.topic_id))
    x = o.replicas
    w.append(_uv(len(x) + 1))
    w.append(_pack('>%di' % len(x), *x))
    x = o.isr
    w.append(_uv(len(x) + 1))
    w.append(_pack('>%di' % len(x), *x))
    x = o.removing_replicas
    w.append(_uv(len(x) + 1))
    w.append(_pack('>%di' % len(x), *x))
    x = o.adding_replicas
    w.append(_uv(len(x) + 1))
    w.append(_pack('>%di' % len(x), *x))
    w.append(_S4.pack(o.leader, o.leader_epoch, o.partition_epoch))
    x = o.directories
    w.append(_uv(len(x) + 1))
    w.append(b''.join(x))
    tg = []
    x = o.leader_recovery_state
    if x != 0:
        tw = []
        tw.append(_S3.pack(x))
        tg.append((0, b''.join(tw)))
    x = o.eligible_leader_replicas
    if x is not None:
        tw = []
        x = x
        if x is None:
            tw.append(b'\x00')
        else:
            tw.append(_uv(len(x) + 1))
            tw.append(_pack('>%di' % len(x), *x))
        tg.append((1, b''.join(tw)))
    x = o.last_known_elr
    if x is not None:
        tw = []
        x = x
        if x is None:
            tw.append(b'\x00')
        else:
            tw.append(_uv(len(x) + 1))
            tw.append(_pack('>%di' % len(x), *x))
        tg.append((2, b''.join(tw)))
    if o._unknown_tagged:
        tg = sorted(tg + o._unknown_tagged, key=_tagkey)
    _wtag(w, tg)


PartitionRecord._DECODERS = {0: _d_PartitionRecord_0, 1: _d_PartitionRecord_1, 2: _d_PartitionRecord_2}
PartitionRecord._ENCODERS = {0: _e_PartitionRecord_0, 1: _e_PartitionRecord_1, 2: _e_PartitionRecord_2}
