"""Generated from Kafka's PartitionChangeRecord.json by tools/gen_wire.py. Do not edit."""
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
_S2 = _struct.Struct('>b')


class PartitionChangeRecord(Message):
    __slots__ = ('partition_id', 'topic_id', 'isr', 'leader', 'replicas', 'removing_replicas', 'adding_replicas', 'leader_recovery_state', 'directories', 'eligible_leader_replicas', 'last_known_elr', '_unknown_tagged')
    _FIELDS = (('partition_id', 'int32', 0, 32767, -1, -1, None, -1, None), ('topic_id', 'uuid', 0, 32767, -1, -1, None, -1, None), ('isr', '[]int32', 0, 32767, 0, 32767, 0, 0, None), ('leader', 'int32', 0, 32767, -1, -1, 1, 0, None), ('replicas', '[]int32', 0, 32767, 0, 32767, 2, 0, None), ('removing_replicas', '[]int32', 0, 32767, 0, 32767, 3, 0, None), ('adding_replicas', '[]int32', 0, 32767, 0, 32767, 4, 0, None), ('leader_recovery_state', 'int8', 0, 32767, -1, -1, 5, 0, None), ('directories', '[]uuid', 1, 32767, 1, 32767, 8, 1, None), ('eligible_leader_replicas', '[]int32', 2, 32767, 2, 32767, 6, 2, None), ('last_known_elr', '[]int32', 2, 32767, 2, 32767, 7, 2, None))
    API_KEY = 5
    VALID_VERSIONS = (0, 2)
    FLEXIBLE_MIN = 0

    def __init__(self, *, partition_id=-1, topic_id=ZERO_UUID, isr=None, leader=-2, replicas=None, removing_replicas=None, adding_replicas=None, leader_recovery_state=-1, directories=None, eligible_leader_replicas=None, last_known_elr=None, _unknown_tagged=None):
        self.partition_id = partition_id
        self.topic_id = topic_id
        self.isr = isr
        self.leader = leader
        self.replicas = replicas
        self.removing_replicas = removing_replicas
        self.adding_replicas = adding_replicas
        self.leader_recovery_state = leader_recovery_state
        self.directories = directories
        self.eligible_leader_replicas = eligible_leader_replicas
        self.last_known_elr = last_known_elr
        self._unknown_tagged = _unknown_tagged



def _d_PartitionChangeRecord_0(b, p):
    o = _new(PartitionChangeRecord)
    o.partition_id, o.topic_id = _S0.unpack_from(b, p)
    p += 20
    o.isr = None
    o.leader = -2
    o.replicas = None
    o.removing_replicas = None
    o.adding_replicas = None
    o.leader_recovery_state = -1
    o.directories = None
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
                n = raw[q] - 1
                if 0 <= n < 127:
                    q += 1
                else:
                    n, q = _rcnal(raw, q, 4)
                if n < 0:
                    o.isr = None
                else:
                    l = list((_ARR['i'][n] if n < 64 else _struct.Struct('>%di' % n)).unpack_from(raw, q))
                    q += 4 * n
                    o.isr = l
            elif tag == 1:
                q = 0
                o.leader, = _S1.unpack_from(raw, q)
                q += 4
            elif tag == 2:
                q = 0
                n = raw[q] - 1
                if 0 <= n < 127:
                    q += 1
                else:
                    n, q = _rcnal(raw, q, 4)
                if n < 0:
                    o.replicas = None
                else:
                    l = list((_ARR['i'][n] if n < 64 else _struct.Struct('>%di' % n)).unpack_from(raw, q))
                    q += 4 * n
                    o.replicas = l
            elif tag == 3:
                q = 0
                n = raw[q] - 1
                if 0 <= n < 127:
                    q += 1
                else:
                    n, q = _rcnal(raw, q, 4)
                if n < 0:
                    o.removing_replicas = None
                else:
                    l = list((_ARR['i'][n] if n < 64 else _struct.Struct('>%di' % n)).unpack_from(raw, q))
                    q += 4 * n
                    o.removing_replicas = l
            elif tag == 4:
                q = 0
                n = raw[q] - 1
                if 0 <= n < 127:
                    q += 1
                else:
                    n, q = _rcnal(raw, q, 4)
                if n < 0:
                    o.adding_replicas = None
                else:
                    l = list((_ARR['i'][n] if n < 64 else _struct.Struct('>%di' % n)).unpack_from(raw, q))
                    q += 4 * n
                    o.adding_replicas = l
            elif tag == 5:
                q = 0
                o.leader_recovery_state, = _S2.unpack_from(raw, q)
                q += 1
            else:
                if u is None: u = []
                u.append((tag, bytes(raw)))
    o._unknown_tagged = u
    return o, p


def _e_PartitionChangeRecord_0(o, w):
    w.append(_S0.pack(o.partition_id, o.topic_id))
    tg = []
    x = o.isr
    if x is not None:
        tw = []
        x = x
        if x is None:
            tw.append(b'\x00')
        else:
            tw.append(_uv(len(x) + 1))
            tw.append(_pack('>%di' % len(x), *x))
        tg.append((0, b''.join(tw)))
    x = o.leader
    if x != -2:
        tw = []
        tw.append(_S1.pack(x))
        tg.append((1, b''.join(tw)))
    x = o.replicas
    if x is not None:
        tw = []
        x = x
        if x is None:
            tw.append(b'\x00')
        else:
            tw.append(_uv(len(x) + 1))
            tw.append(_pack('>%di' % len(x), *x))
        tg.append((2, b''.join(tw)))
    x = o.removing_replicas
    if x is not None:
        tw = []
        x = x
        if x is None:
            tw.append(b'\x00')
        else:
            tw.append(_uv(len(x) + 1))
            tw.append(_pack('>%di' % len(x), *x))
        tg.append((3, b''.join(tw)))
    x = o.adding_replicas
    if x is not None:
        tw = []
        x = x
        if x is None:
            tw.append(b'\x00')
        else:
            tw.append(_uv(len(x) + 1))
            tw.append(_pack('>%di' % len(x), *x))
        tg.append((4, b''.join(tw)))
    x = o.leader_recovery_state
    if x != -1:
        tw = []
        tw.append(_S2.pack(x))
        tg.append((5, b''.join(tw)))
    if o._unknown_tagged:
        tg = sorted(tg + o._unknown_tagged, key=_tagkey)
    _wtag(w, tg)


def _d_PartitionChangeRecord_1(b, p):
    o = _new(PartitionChangeRecord)
    o.partition_id, o.topic_id = _S0.unpack_from(b, p)
    p += 20
    o.isr = None
    o.leader = -2
    o.replicas = None
    o.removing_replicas = None
    o.adding_replicas = None
    o.leader_recovery_state = -1
    o.directories = None
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
                n = raw[q] - 1
                if 0 <= n < 127:
                    q += 1
                else:
                    n, q = _rcnal(raw, q, 4)
                if n < 0:
                    o.isr = None
                else:
                    l = list((_ARR['i'][n] if n < 64 else _struct.Struct('>%di' % n)).unpack_from(raw, q))
                    q += 4 * n
                    o.isr = l
            elif tag == 1:
                q = 0
                o.leader, = _S1.unpack_from(raw, q)
                q += 4
            elif tag == 2:
                q = 0
                n = raw[q] - 1
                if 0 <= n < 127:
                    q += 1
                else:
                    n, q = _rcnal(raw, q, 4)
                if n < 0:
                    o.replicas = None
                else:
                    l = list((_ARR['i'][n] if n < 64 else _struct.Struct('>%di' % n)).unpack_from(raw, q))
                    q += 4 * n
                    o.replicas = l
            elif tag == 3:
                q = 0
                n = raw[q] - 1
                if 0 <= n < 127:
                    q += 1
                else:
                    n, q = _rcnal(raw, q, 4)
                if n < 0:
                    o.removing_replicas = None
                else:
                    l = list((_ARR['i'][n] if n < 64 else _struct.Struct('>%di' % n)).unpack_from(raw, q))
                    q += 4 * n
                    o.removing_replicas = l
            elif tag == 4:
                q = 0
                n = raw[q] - 1
                if 0 <= n < 127:
                    q += 1
                else:
                    n, q = _rcnal(raw, q, 4)
                if n < 0:
                    o.adding_replicas = None
                else:
                    l = list((_ARR['i'][n] if n < 64 else _struct.Struct('>%di' % n)).unpack_from(raw, q))
                    q += 4 * n
                    o.adding_replicas = l
            elif tag == 5:
                q = 0
                o.leader_recovery_state, = _S2.unpack_from(raw, q)
                q += 1
            elif tag == 8:
                q = 0
                n = raw[q] - 1
                if 0 <= n < 127:
                    q += 1
                else:
                    n, q = _rcnal(raw, q, 16)
                if n < 0:
                    o.directories = None
                else:
                    l = [bytes(raw[q + 16 * i:q + 16 * i + 16]) for i in range(n)]
                    if q + 16 * n > len(raw): raise _Trunc('uuid array')
                    q += 16 * n
                    o.directories = l
            else:
                if u is None: u = []
                u.append((tag, bytes(raw)))
    o._unknown_tagged = u
    return o, p


def _e_PartitionChangeRecord_1(o, w):
    w.append(_S0.pack(o.partition_id, o.topic_id))
    tg = []
    x = o.isr
    if x is not None:
        tw = []
        x = x
        if x is None:
            tw.append(b'\x00')
        else:
            tw.append(_uv(len(x) + 1))
            tw.append(_pack('>%di' % len(x), *x))
        tg.append((0, b''.join(tw)))
    x = o.leader
    if x != -2:
        tw = []
        tw.append(_S1.pack(x))
        tg.append((1, b''.join(tw)))
    x = o.replicas
    if x is not None:
        tw = []
        x = x
        if x is None:
            tw.append(b'\x00')
        else:
            tw.append(_uv(len(x) + 1))
            tw.append(_pack('>%di' % len(x), *x))
        tg.append((2, b''.join(tw)))
    x = o.removing_replicas
    if x is not None:
        tw = []
        x = x
        if x is None:
            tw.append(b'\x00')
        else:
            tw.append(_uv(len(x) + 1))
            tw.append(_pack('>%di' % len(x), *x))
        tg.append((3, b''.join(tw)))
    x = o.adding_replicas
    if x is not None:
        tw = []
        x = x
        if x is None:
            tw.append(b'\x00')
        else:
            tw.append(_uv(len(x) + 1))
            tw.append(_pack('>%di' % len(x), *x))
        tg.append((4, b''.join(tw)))
    x = o.leader_recovery_state
    if x != -1:
        tw = []
        tw.append(_S2.pack(x))
        tg.append((5, b''.join(tw)))
    x = o.directories
    if x is not None:
        tw = []
        x = x
        if x is None:
            tw.append(b'\x00')
        else:
            tw.append(_uv(len(x) + 1))
            tw.append(b''.join(x))
        tg.append((8, b''.join(tw)))
    if o._unknown_tagged:
        tg = sorted(tg + o._unknown_tagged, key=_tagkey)
    _wtag(w, tg)


def _d_PartitionChangeRecord_2(b, p):
    o = _new(PartitionChangeRecord)
    o.partition_id, o.topic_id = _S0.unpack_from(b, p)
    p += 20
    o.isr = None
    o.leader = -2
    o.replicas = None
    o.removing_replicas = None
    o.adding_replicas = None
    o.leader_recovery_state = -1
    o.directories = None
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
                n = raw[q] - 1
                if 0 <= n < 127:
                    q += 1
                else:
                    n, q = _rcnal(raw, q, 4)
                if n < 0:
                    o.isr = None
                else:
                    l = list((_ARR['i'][n] if n < 64 else _struct.Struct('>%di' % n)).unpack_from(raw, q))
                    q += 4 * n
                    o.isr = l
            elif tag == 1:
                q = 0
                o.leader, = _S1.unpack_from(raw, q)
                q += 4
            elif tag == 2:
                q = 0
                n = raw[q] - 1
                if 0 <= n < 127:
                    q += 1
                else:
                    n, q = _rcnal(raw, q, 4)
                if n < 0:
                    o.replicas = None
                else:
                    l = list((_ARR['i'][n] if n < 64 else _struct.Struct('>%di' % n)).unpack_from(raw, q))
                    q += 4 * n
                    o.replicas = l
            elif tag == 3:
                q = 0
                n = raw[q] - 1
                if 0 <= n < 127:
                    q += 1
                else:
                    n, q = _rcnal(raw, q, 4)
                if n < 0:
                    o.removing_replicas = None
                else:
                    l = list((_ARR['i'][n] if n < 64 else _struct.Struct('>%di' % n)).unpack_from(raw, q))
                    q += 4 * n
                    o.removing_replicas = l
            elif tag == 4:
                q = 0
                n = raw[q] - 1
                if 0 <= n < 127:
                    q += 1
                else:
                    n, q = _rcnal(raw, q, 4)
                if n < 0:
                    o.adding_replicas = None
                else:
                    l = list((_ARR['i'][n] if n < 64 else _struct.Struct('>%di' % n)).unpack_from(raw, q))
                    q += 4 * n
                    o.adding_replicas = l
            elif tag == 5:
                q = 0
                o.leader_recovery_state, = _S2.unpack_from(raw, q)
                q += 1
            elif tag == 6:
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
            elif tag == 7:
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
            elif tag == 8:
                q = 0
                n = raw[q] - 1
                if 0 <= n < 127:
                    q += 1
                else:
                    n, q = _rcnal(raw, q, 16)
                if n < 0:
                    o.directories = None
                else:
                    l = [bytes(raw[q + 16 * i:q + 16 * i + 16]) for i in range(n)]
                    if q + 16 * n > len(raw): raise _Trunc('uuid array')
                    q += 16 * n
                    o.directories = l
            else:
                if u is None: u = []
                u.append((tag, bytes(raw)))
    o._unknown_tagged = u
    return o, p


def _e_PartitionChangeRecord_2(o, w):
    w.append(_S0.pack(o.partition_id, o.topic_id))
    tg = []
    x = o.isr
    if x is not None:
        tw = []
        x = x
        if x is None:
            tw.append(b'\x00')
        else:
            tw.append(_uv(len(x) + 1))
            tw.append(_pack('>%di' % len(x), *x))
        tg.append((0, b''.join(tw)))
    x = o.leader
    if x != -2:
        tw = []
        tw.append(_S1.pack(x))
        tg.append((1, b''.join(tw)))
    x = o.replicas
    if x is not None:
        tw = []
        x = x
        if x is None:
            tw.append(b'\x00')
        else:
            tw.append(_uv(len(x) + 1))
            tw.append(_pack('>%di' % len(x), *x))
        tg.append((2, b''.join(tw)))
    x = o.removing_replicas
    if x is not None:
        tw = []
        x = x
        if x is None:
            tw.append(b'\x00')
        else:
            tw.append(_uv(len(x) + 1))
            tw.append(_pack('>%di' % len(x), *x))
        tg.append((3, b''.join(tw)))
    x = o.adding_replicas
    if x is not None:
        tw = []
        x = x
        if x is None:
            tw.append(b'\x00')
        else:
            tw.append(_uv(len(x) + 1))
            tw.append(_pack('>%di' % len(x), *x))
        tg.append((4, b''.join(tw)))
    x = o.leader_recovery_state
    if x != -1:
        tw = []
        tw.append(_S2.pack(x))
        tg.append((5, b''.join(tw)))
    x = o.eligible_leader_replicas
    if x is not None:
        tw = []
        x = x
        if x is None:
            tw.append(b'\x00')
        else:
            tw.append(_uv(len(x) + 1))
            tw.append(_pack('>%di' % len(x), *x))
        tg.append((6, b''.join(tw)))
    x = o.last_known_elr
    if x is not None:
        tw = []
        x = x
        if x is None:
            tw.append(b'\x00')
        else:
            tw.append(_uv(len(x) + 1))
            tw.append(_pack('>%di' % len(x), *x))
        tg.append((7, b''.join(tw)))
    x = o.directories
    if x is not None:
        tw = []
        x = x
        if x is None:
            tw.append(b'\x00')
        else:
            tw.append(_uv(len(x) + 1))
            tw.append(b''.join(x))
        tg.append((8, b''.join(tw)))
    if o._unknown_tagged:
        tg = sorted(tg + o._unknown_tagged, key=_tagkey)
    _wtag(w, tg)


PartitionChangeRecord._DECODERS = {0: _d_PartitionChangeRecord_0, 1: _d_PartitionChangeRecord_1, 2: _d_PartitionChangeRecord_2}
PartitionChangeRecord._ENCODERS = {0: _e_PartitionChangeRecord_0, 1: _e_PartitionChangeRecord_1, 2: _e_PartitionChangeRecord_2}
