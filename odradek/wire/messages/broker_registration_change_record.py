"""Generated from Kafka's BrokerRegistrationChangeRecord.json by tools/gen_wire.py. Do not edit."""
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
_S1 = _struct.Struct('>b')


class BrokerRegistrationChangeRecord(Message):
    __slots__ = ('broker_id', 'broker_epoch', 'fenced', 'in_controlled_shutdown', 'log_dirs', 'cordoned_log_dirs', '_unknown_tagged')
    _FIELDS = (('broker_id', 'int32', 0, 32767, -1, -1, None, -1, None), ('broker_epoch', 'int64', 0, 32767, -1, -1, None, -1, None), ('fenced', 'int8', 0, 32767, -1, -1, 0, 0, None), ('in_controlled_shutdown', 'int8', 1, 32767, -1, -1, 1, 1, None), ('log_dirs', '[]uuid', 2, 32767, -1, -1, 2, 2, None), ('cordoned_log_dirs', '[]uuid', 3, 32767, 3, 32767, 3, 3, None))
    API_KEY = 17
    VALID_VERSIONS = (0, 3)
    FLEXIBLE_MIN = 0

    def __init__(self, *, broker_id=0, broker_epoch=0, fenced=0, in_controlled_shutdown=0, log_dirs=DEFAULT, cordoned_log_dirs=None, _unknown_tagged=None):
        self.broker_id = broker_id
        self.broker_epoch = broker_epoch
        self.fenced = fenced
        self.in_controlled_shutdown = in_controlled_shutdown
        self.log_dirs = [] if log_dirs is DEFAULT else log_dirs
        self.cordoned_log_dirs = cordoned_log_dirs
        self._unknown_tagged = _unknown_tagged



def _d_BrokerRegistrationChangeRecord_0(b, p):
    o = _new(BrokerRegistrationChangeRecord)
    o.broker_id, o.broker_epoch = _S0.unpack_from(b, p)
    p += 12
    o.fenced = 0
    o.in_controlled_shutdown = 0
    o.log_dirs = []
    o.cordoned_log_dirs = None
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
                o.fenced, = _S1.unpack_from(raw, q)
                q += 1
            else:
                if u is None: u = []
                u.append((tag, bytes(raw)))
    o._unknown_tagged = u
    return o, p


def _e_BrokerRegistrationChangeRecord_0(o, w):
    w.append(_S0.pack(o.broker_id, o.broker_epoch))
    tg = []
    x = o.fenced
    if x != 0:
        tw = []
        tw.append(_S1.pack(x))
        tg.append((0, b''.join(tw)))
    if o._unknown_tagged:
        tg = sorted(tg + o._unknown_tagged, key=_tagkey)
    _wtag(w, tg)


def _d_BrokerRegistrationChangeRecord_1(b, p):
    o = _new(BrokerRegistrationChangeRecord)
    o.broker_id, o.broker_epoch = _S0.unpack_from(b, p)
    p += 12
    o.fenced = 0
    o.in_controlled_shutdown = 0
    o.log_dirs = []
    o.cordoned_log_dirs = None
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
                o.fenced, = _S1.unpack_from(raw, q)
                q += 1
            elif tag == 1:
                q = 0
                o.in_controlled_shutdown, = _S1.unpack_from(raw, q)
                q += 1
            else:
                if u is None: u = []
                u.append((tag, bytes(raw)))
    o._unknown_tagged = u
    return o, p


def _e_BrokerRegistrationChangeRecord_1(o, w):
    w.append(_S0.pack(o.broker_id, o.broker_epoch))
    tg = []
    x = o.fenced
    if x != 0:
        tw = []
        tw.append(_S1.pack(x))
        tg.append((0, b''.join(tw)))
    x = o.in_controlled_shutdown
    if x != 0:
        tw = []
        tw.append(_S1.pack(x))
        tg.append((1, b''.join(tw)))
    if o._unknown_tagged:
        tg = sorted(tg + o._unknown_tagged, key=_tagkey)
    _wtag(w, tg)


def _d_BrokerRegistrationChangeRecord_2(b, p):
    o = _new(BrokerRegistrationChangeRecord)
    o.broker_id, o.broker_epoch = _S0.unpack_from(b, p)
    p += 12
    o.fenced = 0
    o.in_controlled_shutdown = 0
    o.log_dirs = []
    o.cordoned_log_dirs = None
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
                o.fenced, = _S1.unpack_from(raw, q)
                q += 1
            elif tag == 1:
                q = 0
                o.in_controlled_shutdown, = _S1.unpack_from(raw, q)
                q += 1
            elif tag == 2:
                q = 0
                n = raw[q] - 1
                if 0 <= n < 127:
                    q += 1
                else:
                    n, q = _rcal(raw, q, 16)
                l = [bytes(raw[q + 16 * i:q + 16 * i + 16]) for i in range(n)]
                if q + 16 * n > len(raw): raise _Trunc('uuid array')
                q += 16 * n
                o.log_dirs = l
            else:
                if u is None: u = []
                u.append((tag, bytes(raw)))
    o._unknown_tagged = u
    return o, p


def _e_BrokerRegistrationChangeRecord_2(o, w):
    w.append(_S0.pack(o.broker_id, o.broker_epoch))
    tg = []
    x = o.fenced
    if x != 0:
        tw = []
        tw.append(_S1.pack(x))
        tg.append((0, b''.join(tw)))
    x = o.in_controlled_shutdown
    if x != 0:
        tw = []
        tw.append(_S1.pack(x))
        tg.append((1, b''.join(tw)))
    x = o.log_dirs
    if x:
        tw = []
        x = x
        tw.append(_uv(len(x) + 1))
        tw.append(b''.join(x))
        tg.append((2, b''.join(tw)))
    if o._unknown_tagged:
        tg = sorted(tg + o._unknown_tagged, key=_tagkey)
    _wtag(w, tg)


def _d_BrokerRegistrationChangeRecord_3(b, p):
    o = _new(BrokerRegistrationChangeRecord)
    o.broker_id, o.broker_epoch = _S0.unpack_from(b, p)
    p += 12
    o.fenced = 0
    o.in_controlled_shutdown = 0
    o.log_dirs = []
    o.cordoned_log_dirs = None
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
                o.fenced, = _S1.unpack_from(raw, q)
                q += 1
            elif tag == 1:
                q = 0
                o.in_controlled_shutdown, = _S1.unpack_from(raw, q)
                q += 1
            elif tag == 2:
                q = 0
                n = raw[q] - 1
                if 0 <= n < 127:
                    q += 1
                else:
                    n, q = _rcal(raw, q, 16)
                l = [bytes(raw[q + 16 * i:q + 16 * i + 16]) for i in range(n)]
                if q + 16 * n > len(raw): raise _Trunc('uuid array')
                q += 16 * n
                o.log_dirs = l
            elif tag == 3:
                q = 0
                n = raw[q] - 1
                if 0 <= n < 127:
                    q += 1
                else:
                    n, q = _rcnal(raw, q, 16)
                if n < 0:
                    o.cordoned_log_dirs = None
                else:
                    l = [bytes(raw[q + 16 * i:q + 16 * i + 16]) for i in range(n)]
                    if q + 16 * n > len(raw): raise _Trunc('uuid array')
                    q += 16 * n
                    o.cordoned_log_dirs = l
            else:
                if u is None: u = []
                u.append((tag, bytes(raw)))
    o._unknown_tagged = u
    return o, p


def _e_BrokerRegistrationChangeRecord_3(o, w):
    w.append(_S0.pack(o.broker_id, o.broker_epoch))
    tg = []
    x = o.fenced
    if x != 0:
        tw = []
        tw.append(_S1.pack(x))
        tg.append((0, b''.join(tw)))
    x = o.in_controlled_shutdown
    if x != 0:
        tw = []
        tw.append(_S1.pack(x))
        tg.append((1, b''.join(tw)))
    x = o.log_dirs
    if x:
        tw = []
        x = x
        tw.append(_uv(len(x) + 1))
        tw.append(b''.join(x))
        tg.append((2, b''.join(tw)))
    x = o.cordoned_log_dirs
    if x is not None:
        tw = []
        x = x
        if x is None:
            tw.append(b'\x00')
        else:
            tw.append(_uv(len(x) + 1))
            tw.append(b''.join(x))
        tg.append((3, b''.join(tw)))
    if o._unknown_tagged:
        tg = sorted(tg + o._unknown_tagged, key=_tagkey)
    _wtag(w, tg)


BrokerRegistrationChangeRecord._DECODERS = {0: _d_BrokerRegistrationChangeRecord_0, 1: _d_BrokerRegistrationChangeRecord_1, 2: _d_BrokerRegistrationChangeRecord_2, 3: _d_BrokerRegistrationChangeRecord_3}
BrokerRegistrationChangeRecord._ENCODERS = {0: _e_BrokerRegistrationChangeRecord_0, 1: _e_BrokerRegistrationChangeRecord_1, 2: _e_BrokerRegistrationChangeRecord_2, 3: _e_BrokerRegistrationChangeRecord_3}
