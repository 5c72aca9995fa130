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
