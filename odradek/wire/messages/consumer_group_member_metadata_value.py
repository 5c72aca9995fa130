"""Generated from Kafka's ConsumerGroupMemberMetadataValue.json by tools/gen_wire.py. Do not edit."""
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


class ClassicProtocol(Message):
    __slots__ = ('name', 'metadata', '_unknown_tagged')
    _FIELDS = (('name', 'string', 0, 32767, -1, -1, None, -1, None), ('metadata', 'bytes', 0, 32767, -1, -1, None, -1, None))

    def __init__(self, *, name='', metadata=b'', _unknown_tagged=None):
        self.name = name
        self.metadata = metadata
        self._unknown_tagged = _unknown_tagged


class ClassicMemberMetadata(Message):
    __slots__ = ('session_timeout_ms', 'supported_protocols', '_unknown_tagged')
    _FIELDS = (('session_timeout_ms', 'int32', 0, 32767, -1, -1, None, -1, None), ('supported_protocols', '[]ClassicProtocol', 0, 32767, -1, -1, None, -1, 'ClassicProtocol'))

    def __init__(self, *, session_timeout_ms=0, supported_protocols=DEFAULT, _unknown_tagged=None):
        self.session_timeout_ms = session_timeout_ms
        self.supported_protocols = [] if supported_protocols is DEFAULT else supported_protocols
        self._unknown_tagged = _unknown_tagged


class ConsumerGroupMemberMetadataValue(Message):
    __slots__ = ('instance_id', 'rack_id', 'client_id', 'client_host', 'subscribed_topic_names', 'subscribed_topic_regex', 'rebalance_timeout_ms', 'server_assignor', 'classic_member_metadata', '_unknown_tagged')
    _FIELDS = (('instance_id', 'string', 0, 32767, 0, 32767, None, -1, None), ('rack_id', 'string', 0, 32767, 0, 32767, None, -1, None), ('client_id', 'string', 0, 32767, -1, -1, None, -1, None), ('client_host', 'string', 0, 32767, -1, -1, None, -1, None), ('subscribed_topic_names', '[]string', 0, 32767, -1, -1, None, -1, None), ('subscribed_topic_regex', 'string', 0, 32767, 0, 32767, None, -1, None), ('rebalance_timeout_ms', 'int32', 0, 32767, -1, -1, None, -1, None), ('server_assignor', 'string', 0, 32767, 0, 32767, None, -1, None), ('classic_member_metadata', 'ClassicMemberMetadata', 0, 32767, 0, 32767, 0, 0, 'ClassicMemberMetadata'))
    API_KEY = 5
    VALID_VERSIONS = (0, 0)
    FLEXIBLE_MIN = 0

    def __init__(self, *, instance_id='', rack_id='', client_id='', client_host='', subscribed_topic_names=DEFAULT, subscribed_topic_regex='', rebalance_timeout_ms=-1, server_assignor='', classic_member_metadata=DEFAULT, _unknown_tagged=None):
        self.instance_id = instance_id
        self.rack_id = rack_id
        self.client_id = client_id
        self.client_host = client_host
        self.subscribed_topic_names = [] if subscribed_topic_names is DEFAULT else subscribed_topic_names
        self.subscribed_topic_regex = subscribed_topic_regex
        self.rebalance_timeout_ms = rebalance_timeout_ms
        self.server_assignor = server_assignor
        self.classic_member_metadata = ClassicMemberMetadata() if classic_member_metadata is DEFAULT else classic_member_metadata
        self._unknown_tagged = _unknown_tagged



def _d_ClassicProtocol_0(b, p):
    o = _new(ClassicProtocol)
    o.name, p = _rcstr(b, p)
    o.metadata, p = _rcbyt(b, p)
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_ClassicMemberMetadata_0(b, p):
    o = _new(ClassicMemberMetadata)
    o.session_timeout_ms, = _S0.unpack_from(b, p)
    p += 4
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 3)
    l = []
    for _ in range(n):
        e, p = _d_ClassicProtocol_0(b, p)
        l.append(e)
    o.supported_protocols = l
    if b[p] == 0:
        t = None
        p += 1
    else:
        t, p = _rtag(b, p)
    o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]
    return o, p


def _d_ConsumerGroupMemberMetadataValue_0(b, p):
    o = _new(ConsumerGroupMemberMetadataValue)
    o.instance_id, p = _rcnstr(b, p)
    o.rack_id, p = _rcnstr(b, p)
    o.client_id, p = _rcstr(b, p)
    o.client_host, p = _rcstr(b, p)
    n = b[p] - 1
    if 0 <= n < 127:
        p += 1
    else:
        n, p = _rcal(b, p, 1)
    l = []
    for _ in range(n):
        e, p = _rcstr(b, p)
        l.append(e)
    o.subscribed_topic_names = l
    o.subscribed_topic_regex, p = _rcnstr(b, p)
    o.rebalance_timeout_ms, = _S0.unpack_from(b, p)
    p += 4
    o.server_assignor, p = _rcnstr(b, p)
    o.classic_member_metadata = ClassicMemberMetadata()
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
                if raw[q] == 0 or len(raw) <= q + 1:
                    o.classic_member_metadata = None
                    q += 1
                else:
                    while raw[q] >= 128: q += 1
                    o.classic_member_metadata, q = _d_ClassicMemberMetadata_0(raw, q + 1)
            else:
                if u is None: u = []
                u.append((tag, bytes(raw)))
    o._unknown_tagged = u
    return o, p


def _e_ClassicProtocol_0(o, w):
    _wcstr(w, o.name)
    _wcbyt(w, o.metadata)
    _wtag(w, o._unknown_tagged)


def _e_ClassicMemberMetadata_0(o, w):
    w.append(_S0.pack(o.session_timeout_ms))
    x = o.supported_protocols
    w.append(_uv(len(x) + 1))
    for e in x:
        _e_ClassicProtocol_0(e, w)
    _wtag(w, o._unknown_tagged)


def _e_ConsumerGroupMemberMetadataValue_0(o, w):
    _wcnstr(w, o.instance_id)
    _wcnstr(w, o.rack_id)
    _wcstr(w, o.client_id)
    _wcstr(w, o.client_host)
    x = o.subscribed_topic_names
    w.append(_uv(len(x) + 1))
    for e in x:
        _wcstr(w, e)
    _wcnstr(w, o.subscribed_topic_regex)
    w.append(_S0.pack(o.rebalance_timeout_ms))
    _wcnstr(w, o.server_assignor)
    tg = []
    x = o.classic_member_metadata
    if x != ClassicMemberMetadata():
        tw = []
        x = x
        if x is None:
            tw.append(b'\x00')
        else:
            tw.append(b'\x01')
            _e_ClassicMemberMetadata_0(x, tw)
        tg.append((0, b''.join(tw)))
    if o._unknown_tagged:
        tg = sorted(tg + o._unknown_tagged, key=_tagkey)
    _wtag(w, tg)


ConsumerGroupMemberMetadataValue._DECODERS = {0: _d_ConsumerGroupMemberMetadataValue_0}
ConsumerGroupMemberMetadataValue._ENCODERS = {0: _e_ConsumerGroupMemberMetadataValue_0}
