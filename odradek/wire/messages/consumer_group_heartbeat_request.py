"""Generated from Kafka's ConsumerGroupHeartbeatRequest.json by tools/gen_wire.py. Do not edit."""
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

_S0 = _struct.Struct('>i')
_S1 = _struct.Struct('>16s')


class TopicPartitions(Message):
    __slots__ = ('topic_id', 'partitions', '_unknown_tagged')
    _FIELDS = (('topic_id', 'uuid', 0, 32767, -1, -1, None, -1, None), ('partitions', '[]int32', 0, 32767, -1, -1, None, -1, None))

    def __init__(self, *, topic_id=ZERO_UUID, partitions=DEFAULT, _unknown_tagged=None):
        self.topic_id = topic_id
        self.partitions = [] if partitions is DEFAULT else partitions
        self._unknown_tagged = _unknown_tagged


class ConsumerGroupHeartbeatRequest(Message):
    __slots__ = ('group_id', 'member_id', 'member_epoch', 'instance_id', 'rack_id', 'rebalance_timeout_ms', 'subscribed_topic_names', 'subscribed_topic_regex', 'server_assignor', 'topic_partitions', '_unknown_tagged')
    _FIELDS = (('group_id', 'string', 0, 32767, -1, -1, None, -1, None), ('member_id', 'string', 0, 32767, -1, -1, None, -1, None), ('member_epoch', 'int32', 0, 32767, -1, -1, None, -1, None), ('instance_id', 'string', 0, 32767, 0, 32767, None, -1, None), ('rack_id', 'string', 0, 32767, 0, 32767, None, -1, None), ('rebalance_timeout_ms', 'int32', 0, 32767, -1, -1, None, -1, None), ('subscribed_topic_names', '[]string', 0, 32767, 0, 32767, None, -1, None), ('subscribed_topic_regex', 'string', 1, 32767, 1, 32767, None, -1, None), ('server_assignor', 'string', 0, 32767, 0, 32767, None, -1, None), ('topic_partitions', '[]TopicPartitions', 0, 32767, 0, 32767, None, -1, 'TopicPartitions'))
    API_KEY = 68
    VALID_VERSIONS = (0, 1)
    FLEXIBLE_MIN = 0

    def __init__(self, *, group_id='', member_id='', member_epoch=0, instance_id=None, rack_id=None, rebalance_timeout_ms=-1, subscribed_topic_names=None, subscribed_topic_regex=None, server_assignor=None, topic_partitions=None, _unknown_tagged=None):
        self.group_id = group_id
        self.member_id = member_id
        self.member_epoch = member_epoch
        self.instance_id = instance_id
        self.rack_id = rack_id
        self.rebalance_timeout_ms = rebalance_timeout_ms
        self.subscribed_topic_names = subscribed_topic_names
        self.subscribed_topic_regex = subscribed_topic_regex
        self.server_assignor = server_assignor
        self.topic_partitions = topic_partitions
        self._unknown_tagged = _unknown_tagged



def _d_TopicPartitions_0(b, p):
    o = _new(TopicPartitions)
    o.topic_id, = _S1.unpack_from(b, p)
    p += 16
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 4)
    l = list((_ARR['i'][n] if n < 64 else _struct.Struct('>%di' % n)).unpack_from(b, p))
    p += 4 * n
    o.partitions = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_ConsumerGroupHeartbeatRequest_0(b, p):
    o = _new(ConsumerGroupHeartbeatRequest)
    o.group_id, p = _rcstr(b, p)
    o.member_id, p = _rcstr(b, p)
    o.member_epoch, = _S0.unpack_from(b, p)
    p += 4
    o.instance_id, p = _rcnstr(b, p)
    o.rack_id, p = _rcnstr(b, p)
    o.rebalance_timeout_ms, = _S0.unpack_from(b, p)
    p += 4
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcnal(b, p, 1)
    if n < 0:
        o.subscribed_topic_names = None
    else:
        l = []
        for _ in range(n):
            e, p = _rcstr(b, p)
            l.append(e)
        o.subscribed_topic_names = l
    o.subscribed_topic_regex = None
    o.server_assignor, p = _rcnstr(b, p)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcnal(b, p, 18)
    if n < 0:
        o.topic_partitions = None
    else:
        l = []
        for _ in range(n):
            e, p = _d_TopicPartitions_0(b, p)
            l.append(e)
        o.topic_partitions = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_TopicPartitions_0(o, w):
    w.append(_S1.pack(o.topic_id))
    x = o.partitions
    w.append(_uv(len(x) + 1))
    w.append(_pack('>%di' % len(x), *x))
    _wtag(w, o._unknown_tagged)


def _e_ConsumerGroupHeartbeatRequest_0(o, w):
    _wcstr(w, o.group_id)
    _wcstr(w, o.member_id)
    w.append(_S0.pack(o.member_epoch))
    _wcnstr(w, o.instance_id)
    _wcnstr(w, o.rack_id)
    w.append(_S0.pack(o.rebalance_timeout_ms))
    x = o.subscribed_topic_names
    if x is None:
        w.append(b'\x00')
    else:
        w.append(_uv(len(x) + 1))
        for e in x:
            _wcstr(w, e)
    _wcnstr(w, o.server_assignor)
    x = o.topic_partitions
    if x is None:
        w.append(b'\x00')
    else:
        w.append(_uv(len(x) + 1))
        for e in x:
            _e_TopicPartitions_0(e, w)
    _wtag(w, o._unknown_tagged)


def _d_ConsumerGroupHeartbeatRequest_1(b, p):
    o = _new(ConsumerGroupHeartbeatRequest)
    o.group_id, p = _rcstr(b, p)
    o.member_id, p = _rcstr(b, p)
    o.member_epoch, = _S0.unpack_from(b, p)
    p += 4
    o.instance_id, p = _rcnstr(b, p)
    o.rack_id, p = _rcnstr(b, p)
    o.rebalance_timeout_ms, = _S0.unpack_from(b, p)
    p += 4
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcnal(b, p, 1)
    if n < 0:
        o.subscribed_topic_names = None
    else:
        l = []
        for _ in range(n):
            e, p = _rcstr(b, p)
            l.append(e)
        o.subscribed_topic_names = l
    o.subscribed_topic_regex, p = _rcnstr(b, p)
    o.server_assignor, p = _rcnstr(b, p)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcnal(b, p, 18)
    if n < 0:
        o.topic_partitions = None
    else:
        l = []
        for _ in range(n):
            e, p = _d_TopicPartitions_0(b, p)
            l.append(e)
        o.topic_partitions = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _e_ConsumerGroupHeartbeatRequest_1(o, w):
    _wcstr(w, o.group_id)
    _wcstr(w, o.member_id)
    w.append(_S0.pack(o.member_epoch))
    _wcnstr(w, o.instance_id)
    _wcnstr(w, o.rack_id)
    w.append(_S0.pack(o.rebalance_timeout_ms))
    x = o.subscribed_topic_names
    if x is None:
        w.append(b'\x00')
    else:
        w.append(_uv(len(x) + 1))
        for e in x:
            _wcstr(w, e)
    _wcnstr(w, o.subscribed_topic_regex)
    _wcnstr(w, o.server_assignor)
    x = o.topic_partitions
    if x is None:
        w.append(b'\x00')
    else:
        w.append(_uv(len(x) + 1))
        for e in x:
            _e_TopicPartitions_0(e, w)
    _wtag(w, o._unknown_tagged)


ConsumerGroupHeartbeatRequest._DECODERS = {0: _d_ConsumerGroupHeartbeatRequest_0, 1: _d_ConsumerGroupHeartbeatRequest_1}
ConsumerGroupHeartbeatRequest._ENCODERS = {0: _e_ConsumerGroupHeartbeatRequest_0, 1: _e_ConsumerGroupHeartbeatRequest_1}
