"""Generated from Kafka's StreamsGroupCurrentMemberAssignmentValue.json by tools/gen_wire.py. Do not edit."""
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

_S0 = _struct.Struct('>iib')


class TaskIds(Message):
    __slots__ = ('subtopology_id', 'partitions', 'assignment_epochs', '_unknown_tagged')
    _FIELDS = (('subtopology_id', 'string', 0, 32767, -1, -1, None, -1, None), ('partitions', '[]int32', 0, 32767, -1, -1, None, -1, None), ('assignment_epochs', '[]int32', 0, 32767, 0, 32767, 0, 0, None))

    def __init__(self, *, subtopology_id='', partitions=DEFAULT, assignment_epochs=DEFAULT, _unknown_tagged=None):
        self.subtopology_id = subtopology_id
        self.partitions = [] if partitions is DEFAULT else partitions
        self.assignment_epochs = [] if assignment_epochs is DEFAULT else assignment_epochs
        self._unknown_tagged = _unknown_tagged


class StreamsGroupCurrentMemberAssignmentValue(Message):
    __slots__ = ('member_epoch', 'previous_member_epoch', 'state', 'active_tasks', 'standby_tasks', 'warmup_tasks', 'active_tasks_pending_revocation', 'standby_tasks_pending_revocation', 'warmup_tasks_pending_revocation', '_unknown_tagged')
    _FIELDS = (('member_epoch', 'int32', 0, 32767, -1, -1, None, -1, None), ('previous_member_epoch', 'int32', 0, 32767, -1, -1, None, -1, None), ('state', 'int8', 0, 32767, -1, -1, None, -1, None), ('active_tasks', '[]TaskIds', 0, 32767, -1, -1, None, -1, 'TaskIds'), ('standby_tasks', '[]TaskIds', 0, 32767, -1, -1, None, -1, 'TaskIds'), ('warmup_tasks', '[]TaskIds', 0, 32767, -1, -1, None, -1, 'TaskIds'), ('active_tasks_pending_revocation', '[]TaskIds', 0, 32767, -1, -1, None, -1, 'TaskIds'), ('standby_tasks_pending_revocation', '[]TaskIds', 0, 32767, -1, -1, None, -1, 'TaskIds'), ('warmup_tasks_pending_revocation', '[]TaskIds', 0, 32767, -1, -1, None, -1, 'TaskIds'))
    API_KEY = 22
    VALID_VERSIONS = (0, 0)
    FLEXIBLE_MIN = 0

    def __init__(self, *, member_epoch=0, previous_member_epoch=0, state=0, active_tasks=DEFAULT, standby_tasks=DEFAULT, warmup_tasks=DEFAULT, active_tasks_pending_revocation=DEFAULT, standby_tasks_pending_revocation=DEFAULT, warmup_tasks_pending_revocation=DEFAULT, _unknown_tagged=None):
        self.member_epoch = member_epoch
        self.previous_member_epoch = previous_member_epoch
        self.state = state
        self.active_tasks = [] if active_tasks is DEFAULT else active_tasks
        self.standby_tasks = [] if standby_tasks is DEFAULT else standby_tasks
        self.warmup_tasks = [] if warmup_tasks is DEFAULT else warmup_tasks
        self.active_tasks_pending_revocation = [] if active_tasks_pending_revocation is DEFAULT else active_tasks_pending_revocation
        self.standby_tasks_pending_revocation = [] if standby_tasks_pending_revocation is DEFAULT else standby_tasks_pending_revocation
        self.warmup_tasks_pending_revocation = [] if warmup_tasks_pending_revocation is DEFAULT else warmup_tasks_pending_revocation
        self._unknown_tagged = _unknown_tagged



def _d_TaskIds_0(b, p):
    o = _new(TaskIds)
    o.subtopology_id, p = _rcstr(b, p)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 4)
    l = list((_ARR['i'][n] if n < 64 else _struct.Struct('>%di' % n)).unpack_from(b, p))
    p += 4 * n
    o.partitions = l
    o.assignment_epochs = []
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
                    o.assignment_epochs = None
                else:
                    l = list((_ARR['i'][n] if n < 64 else _struct.Struct('>%di' % n)).unpack_from(raw, q))
                    q += 4 * n
                    o.assignment_epochs = l
            else:
                if u is None: u = []
                u.append((tag, bytes(raw)))
    o._unknown_tagged = u
    return o, p


def _d_StreamsGroupCurrentMemberAssignmentValue_0(b, p):
    o = _new(StreamsGroupCurrentMemberAssignmentValue)
    o.member_epoch, o.previous_member_epoch, o.state = _S0.unpack_from(b, p)
    p += 9
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 3)
    l = []
    for _ in range(n):
        e, p = _d_TaskIds_0(b, p)
        l.append(e)
    o.active_tasks = l
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 3)
    l = []
    for _ in range(n):
        e, p = _d_TaskIds_0(b, p)
        l.append(e)
    o.standby_tasks = l
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 3)
    l = []
    for _ in range(n):
        e, p = _d_TaskIds_0(b, p)
        l.append(e)
    o.warmup_tasks = l
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 3)
    l = []
    for _ in range(n):
        e, p = _d_TaskIds_0(b, p)
        l.append(e)
    o.active_tasks_pending_revocation = l
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 3)
    l = []
    for _ in range(n):
        e, p = _d_TaskIds_0(b, p)
        l.append(e)
    o.standby_tasks_pending_revocation = l
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 3)
    l = []
    for _ in range(n):
        e, p = _d_TaskIds_0(b, p)
        l.append(e)
    o.warmup_tasks_pending_revocation = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_TaskIds_0(o, w):
    _wcstr(w, o.subtopology_id)
    x = o.partitions
    w.append(_uv(len(x) + 1))
    w.append(_pack('>%di' % len(x), *x))
    tg = []
    x = o.assignment_epochs
    if x is None or x:
        tw = []
        x = x
        if x is None:
            tw.append(b'\x00')
        else:
            tw.append(_uv(len(x) + 1))
            tw.append(_pack('>%di' % len(x), *x))
        tg.append((0, b''.join(tw)))
    if o._unknown_tagged:
        tg = sorted(tg + o._unknown_tagged, key=_tagkey)
    _wtag(w, tg)


def _e_StreamsGroupCurrentMemberAssignmentValue_0(o, w):
    w.append(_S0.pack(o.member_epoch, o.previous_member_epoch, o.state))
    x = o.active_tasks
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_TaskIds_0(e, w)
    x = o.standby_tasks
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_TaskIds_0(e, w)
    x = o.warmup_tasks
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_TaskIds_0(e, w)
    x = o.active_tasks_pending_revocation
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_TaskIds_0(e, w)
    x = o.standby_tasks_pending_revocation
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_TaskIds_0(e, w)
    x = o.warmup_tasks_pending_revocation
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_TaskIds_0(e, w)
    _wtag(w, o._unknown_tagged)


StreamsGroupCurrentMemberAssignmentValue._DECODERS = {0: _d_StreamsGroupCurrentMemberAssignmentValue_0}
StreamsGroupCurrentMemberAssignmentValue._ENCODERS = {0: _e_StreamsGroupCurrentMemberAssignmentValue_0}
