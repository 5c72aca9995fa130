"""Malformed records inside a batch with a valid CRC: Kafka's LogValidator reads every
record (decompressing compressed batches) and refuses the batch; nothing is written.
The codes were taken from Apache Kafka 4.3 with these exact batches, and the test runs
unchanged against it (`--bootstrap`): INVALID_RECORD without message or record errors
for bad sizes/counts/fields, UNKNOWN_SERVER_ERROR for undecodable compressed data and
for compressed batches whose inner offsets are out of order."""
from __future__ import annotations

import os
import struct
import time
import zlib

import pytest

from harness import create_topic

from odradek.broker.wire_client import WireClient
from odradek.wire import records as R
from odradek.wire.compression import Codec, compress
from odradek.wire.messages.produce_request import (PartitionProduceData, ProduceRequest,
                                                   TopicProduceData)
from odradek.wire.records import encode_record, write_varint

NOW = int(time.time() * 1000)


def _batch(section: bytes, count: int, codec=Codec.NONE, raw_body: bytes | None = None) -> bytes:
    body = raw_body if raw_body is not None else (compress(codec, section) if codec else section)
    b = bytearray(R.HEADER_STRUCT.pack(0, 49 + len(body), -1, 2, 0, codec, count - 1, NOW, NOW,
                                       -1, -1, -1, count)) + body
    struct.pack_into(">I", b, 17, R.compute_crc(b, 0))
    return bytes(b)


def _rec(i: int) -> bytes:
    return encode_record(i, 0, b"k", b"v%d" % i)


GOOD = _rec(0) + _rec(1) + _rec(2)
R0 = _rec(0)
CASES = [
    ("count one more", _batch(GOOD, 4), 87),
    ("count one less: trailing bytes", _batch(GOOD, 2), 87),
    ("record length past the end", _batch(_rec(0) + _rec(1) + write_varint(50) + _rec(2)[1:], 3), 87),
    ("record body longer than its fields", _batch(write_varint(len(R0)) + R0[1:] + b"\x00", 1), 87),
    ("negative header count", _batch(write_varint(5) + b"\x00\x00\x00\x01\x01", 1), 87),
    ("gzip, count one more", _batch(GOOD, 4, Codec.GZIP), 87),
    ("zstd, trailing record", _batch(GOOD, 2, Codec.ZSTD), 87),
    ("gzip, record body mismatch", _batch(write_varint(len(R0)) + R0[1:] + b"\x00", 1, Codec.GZIP), 87),
] + [(f"{c.name}, random bytes", _batch(b"", 3, c, raw_body=os.urandom(40)), -1) for c in
     (Codec.GZIP, Codec.SNAPPY, Codec.LZ4, Codec.ZSTD)] + [
    (f"{c.name}, inner offsets out of order", _batch(_rec(0) + _rec(2) + _rec(1), 3, c), -1) for c in
    (Codec.GZIP, Codec.SNAPPY, Codec.LZ4, Codec.ZSTD)]



# gzip framing around a good record section (Java's GZIPInputStream reads the header in
# Kafka's decompressor): a header it refuses, or a truncated member, is UNKNOWN_SERVER_ERROR;
# optional header fields, further members and zero padding after a member are accepted.
GZ = compress(Codec.GZIP, GOOD)
GZ_HEADER, GZ_BODY = GZ[:10], GZ[10:]


def _gz_flags(flags: int, fields: bytes) -> bytes:
    return GZ_HEADER[:3] + bytes([flags]) + GZ_HEADER[4:] + fields


GZ_REFUSED = {
    "truncated member": GZ[:len(GZ) // 2],
    "trailer missing": GZ[:-8],
    "header only": GZ_HEADER,
    "short header": GZ_HEADER[:5],
    "bad magic": b"\x1f\x8c" + GZ[2:],
    "bad method": GZ[:2] + b"\x07" + GZ[3:],
    "wrong header crc (FHCRC)": _gz_flags(2, b"\x00\x00") + GZ_BODY,
    "FEXTRA longer than the data": _gz_flags(4, b"\xff\xff") + GZ_BODY,
    "FNAME not terminated": _gz_flags(8, b"name"),
    "wrong data crc in the trailer": GZ[:-8] + b"\x00" * 4 + GZ[-4:],
    "zlib stream, not gzip": zlib.compress(GOOD),
}
GZ_ACCEPTED = {
    "right header crc (FHCRC)": _gz_flags(2, struct.pack("<H", zlib.crc32(_gz_flags(2, b"")) & 0xFFFF)) + GZ_BODY,
    "FEXTRA": _gz_flags(4, b"\x02\x00ab") + GZ_BODY,
    "FNAME and FCOMMENT": _gz_flags(8 | 16, b"name\x00comment\x00") + GZ_BODY,
    "two members": compress(Codec.GZIP, GOOD[:len(_rec(0))]) + compress(Codec.GZIP, GOOD[len(_rec(0)):]),
    "zero padding after the member": GZ + b"\x00" * 10,
    "not gzip after the member": GZ + b"\x1f\x8c\x08\x00" + b"\x00" * 10,
}



def _gz_ending_at(t: int) -> bytes:
    """A one-record gzip member whose deflate data ends t bytes into an 8 KiB chunk of
    the stream after its header (Kafka's GZIPInputStream reads 8 KiB at a time)."""
    value = bytes(range(256)) * 64
    size = 9000
    for _ in range(20):
        c = zlib.compressobj(0, zlib.DEFLATED, 31)  # stored blocks: lengths move 1:1
        gz = c.compress(encode_record(0, 0, b"k", value[:size])) + c.flush()
        off = (len(gz) - 18) % 8192
        if off == t:
            return gz
        size += (t - off) % 8192 or 1
    raise AssertionError(f"no member ends at {t}")


# whether GZIPInputStream looks for a next member depends on what its buffer still
# holds after the trailer: 10 header bytes + 5 of junk are ignored when they came in
# the same 8 KiB read as the member's end, and read (and refused) when they did not
GZ_CHUNKED = [
    ("all buffered", 8192 - 30, 5, 0),
    ("next read needed", 8192 - 20, 5, -1),
    ("member ends a read", 0, 5, -1),
    ("early in a read", 8, 5, 0),
    ("more than 26 buffered", 8, 20, -1),
]


@pytest.mark.parametrize("label,t,junk,code", GZ_CHUNKED, ids=[c[0] for c in GZ_CHUNKED])
def test_gzip_next_member_lookup_as_kafka(client, bootstrap, topic_name, label, t, junk, code):
    create_topic(bootstrap, topic_name, 1)
    body = _gz_ending_at(t) + GZ_HEADER + b"\xff" * junk
    p = _produce(client, topic_name, _batch(b"", 1, Codec.GZIP, raw_body=body))
    assert (p.error_code, p.base_offset) == (code, 0 if code == 0 else -1)



def _framing_cases():
    import lz4.frame

    sn, l4 = compress(Codec.SNAPPY, GOOD), compress(Codec.LZ4, GOOD)
    half = len(_rec(0))
    summed = lz4.frame.compress(GOOD, content_checksum=True, block_linked=False)
    magic = sn[:8]
    return [
        # snappy-java's SnappyInputStream
        ("snappy, two xerial streams", Codec.SNAPPY,
         compress(Codec.SNAPPY, GOOD[:half]) + compress(Codec.SNAPPY, GOOD[half:]), 0),
        ("snappy, 3 bytes after the last chunk", Codec.SNAPPY, sn + b"abc", 0),
        ("snappy, magic's first 4 bytes then no magic", Codec.SNAPPY, sn + b"\x82SNA" + b"x" * 12, 0),
        ("snappy, magic's first 4 bytes then too short", Codec.SNAPPY, sn + b"\x82SNAPP", -1),
        ("snappy, concatenated stream of version 0", Codec.SNAPPY, sn + magic + struct.pack(">ii", 0, 0) + sn[16:], -1),
        ("snappy, concatenated stream, one record too many", Codec.SNAPPY,
         sn + magic + struct.pack(">ii", 5, 1) + compress(Codec.SNAPPY, _rec(3))[16:], 87),
        ("snappy, first stream of version 0", Codec.SNAPPY, magic + struct.pack(">ii", 0, 0) + sn[16:], 0),
        ("snappy, zero chunk length", Codec.SNAPPY, sn + bytes(4), -1),
        # KafkaLZ4BlockInputStream
        ("lz4, junk after the end mark", Codec.LZ4, l4 + b"junk", 0),
        ("lz4, second frame not read", Codec.LZ4,
         compress(Codec.LZ4, GOOD[:half]) + compress(Codec.LZ4, GOOD[half:]), 87),
        ("lz4, content checksum not verified", Codec.LZ4, summed[:-4] + bytes(4), 0),
        ("lz4, content checksum missing", Codec.LZ4, summed[:-4], -1),
        ("lz4, DictID flag", Codec.LZ4, l4[:4] + bytes([l4[4] | 0x01]) + l4[5:], -1),
        ("lz4, block size id 3", Codec.LZ4, l4[:5] + bytes([0x30]) + l4[6:], -1),
        ("lz4, no end mark", Codec.LZ4, l4[:-4], -1),
    ]


FRAMING = _framing_cases()


@pytest.mark.parametrize("label,codec,body,code", FRAMING, ids=[c[0] for c in FRAMING])
def test_codec_framing_as_kafka(client, bootstrap, topic_name, label, codec, body, code):
    create_topic(bootstrap, topic_name, 1)
    p = _produce(client, topic_name, _batch(b"", 3, codec, raw_body=body))
    assert (p.error_code, p.base_offset) == (code, 0 if code == 0 else -1)


@pytest.fixture(scope="module")
def client(bootstrap):
    c = WireClient.from_bootstrap(bootstrap)
    yield c
    c.close()


def _produce(client, topic, batch):
    r = client.send(ProduceRequest(acks=1, timeout_ms=10000, topic_data=[TopicProduceData(
        name=topic, partition_data=[PartitionProduceData(index=0, records=batch)])]), max_version=11)
    return r.responses[0].partition_responses[0]


@pytest.mark.parametrize("label,batch,code", CASES, ids=[c[0] for c in CASES])
def test_malformed_records_refused_as_kafka(client, bootstrap, topic_name, label, batch, code):
    create_topic(bootstrap, topic_name, 1)
    p = _produce(client, topic_name, batch)
    assert (p.error_code, p.base_offset, p.error_message, list(p.record_errors)) == (code, -1, None, [])
    # nothing was written; well-formed batches (uncompressed offsets need not be dense) go in
    ok = _produce(client, topic_name, _batch(_rec(0) + _rec(2) + _rec(1), 3))
    assert (ok.error_code, ok.base_offset) == (0, 0)
    okz = _produce(client, topic_name, _batch(GOOD, 3, Codec.LZ4))
    assert (okz.error_code, okz.base_offset) == (0, 3)


@pytest.mark.parametrize("label", list(GZ_REFUSED))
def test_gzip_framing_refused_as_kafka(client, bootstrap, topic_name, label):
    create_topic(bootstrap, topic_name, 1)
    p = _produce(client, topic_name, _batch(b"", 3, Codec.GZIP, raw_body=GZ_REFUSED[label]))
    assert (p.error_code, p.base_offset, p.error_message) == (-1, -1, None)
    ok = _produce(client, topic_name, _batch(GOOD, 3, Codec.GZIP))
    assert (ok.error_code, ok.base_offset) == (0, 0)


@pytest.mark.parametrize("label", list(GZ_ACCEPTED))
def test_gzip_framing_accepted_as_kafka(client, bootstrap, topic_name, label):
    create_topic(bootstrap, topic_name, 1)
    for base in (0, 3):
        p = _produce(client, topic_name, _batch(b"", 3, Codec.GZIP, raw_body=GZ_ACCEPTED[label]))
        assert (p.error_code, p.base_offset) == (0, base)
