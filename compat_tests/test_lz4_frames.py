"""LZ4 frames the broker must refuse: Kafka reads only what KafkaLZ4BlockInputStream reads.

Found with kafkajs: lz4js writes frames with linked (dependent) blocks. Kafka refuses such
a produce (Lz4Compression.wrapForInput -> KafkaException "Dependent block stream is
unsupported" -> UNKNOWN_SERVER_ERROR) and writes nothing; so does odradek, whose log
decompresses and walks every produced compressed batch as Kafka's LogValidator does
(odradek/log/record_check.py).
"""

from __future__ import annotations

import lz4.frame
import pytest

from harness import RawClient, create_topic
from odradek.wire import compression, records
from odradek.wire.errors import ErrorCode
from odradek.wire.messages.produce_request import PartitionProduceData, ProduceRequest, TopicProduceData


def produce(client, topic, batch):
    req = ProduceRequest(acks=1, timeout_ms=5000, topic_data=[
        TopicProduceData(name=topic, partition_data=[PartitionProduceData(index=0, records=batch)])])
    return client.call(req, 9).responses[0].partition_responses[0]


def xxh32(data: bytes, seed: int = 0) -> int:
    """XXH32 of a short input (< 16 bytes): the LZ4 frame descriptor checksum."""
    p1, p2, p3, p4, p5, m = 2654435761, 2246822519, 3266489917, 668265263, 374761393, 0xFFFFFFFF
    rotl = lambda x, r: ((x << r) | (x >> (32 - r))) & m  # noqa: E731
    assert len(data) < 16
    h = (seed + p5 + len(data)) & m
    i = 0
    while i + 4 <= len(data):
        h = rotl((h + int.from_bytes(data[i:i + 4], "little") * p3) & m, 17) * p4 & m
        i += 4
    for b in data[i:]:
        h = rotl((h + b * p5) & m, 11) * p1 & m
    h ^= h >> 15
    h = h * p2 & m
    h ^= h >> 13
    h = h * p3 & m
    return h ^ (h >> 16)


def linked_frame(data: bytes) -> bytes:
    """What lz4js writes: FLG 0x40 (version 01, block independence off), BD 64 KiB."""
    frame = bytearray(lz4.frame.compress(data, block_linked=False, store_size=False,
                                         block_size=lz4.frame.BLOCKSIZE_MAX64KB))
    assert frame[4] == 0x60 and xxh32(bytes(frame[4:6])) >> 8 & 0xFF == frame[6]
    frame[4] = 0x40
    frame[6] = xxh32(bytes(frame[4:6])) >> 8 & 0xFF
    return bytes(frame)


def lz4_batch(monkeypatch, values, frame=None, **frame_kw):
    """A v2 batch whose records section is an LZ4 frame from `frame` or written with `frame_kw`."""
    frame = frame or (lambda data: lz4.frame.compress(data, **frame_kw))
    with monkeypatch.context() as m:
        m.setattr(compression, "compress", lambda codec, data, level=None: frame(bytes(data)))
        return records.build_batch([(None, v) for v in values], compression=compression.LZ4)


@pytest.fixture
def raw(bootstrap):
    c = RawClient(bootstrap)
    yield c
    c.close()


def test_lz4_dependent_blocks_refused_as_kafka(raw, bootstrap, topic_name, monkeypatch):
    create_topic(bootstrap, topic_name)
    linked = lz4_batch(monkeypatch, [b"linked"], frame=linked_frame)
    r = produce(raw, topic_name, linked)
    assert r.error_code == ErrorCode.UNKNOWN_SERVER_ERROR, r
    ok = produce(raw, topic_name, lz4_batch(monkeypatch, [b"independent"], block_linked=False,
                                            block_size=lz4.frame.BLOCKSIZE_MAX64KB))
    assert (ok.error_code, ok.base_offset) == (0, 0), ok


def test_lz4_frame_options_kafka_reads_are_accepted(raw, bootstrap, topic_name, monkeypatch):
    """Content size, content checksum, 4 MiB blocks: KafkaLZ4BlockInputStream reads them all."""
    create_topic(bootstrap, topic_name)
    b = lz4_batch(monkeypatch, [b"a" * 100000, b"b"], block_linked=False, store_size=True, content_checksum=True,
                  block_size=lz4.frame.BLOCKSIZE_MAX4MB)
    r = produce(raw, topic_name, b)
    assert (r.error_code, r.base_offset) == (0, 0), r
