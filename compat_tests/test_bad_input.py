"""Bad input: errors exactly as Kafka sends them, and a bad client never hurts others.

Raw protocol requests (odradek.wire as a client) where stock clients would never
send such bytes; every test holds against Apache Kafka too (`--bootstrap`).
"""

from __future__ import annotations

import os
import socket
import struct
import threading
import time

import pytest

from harness import RawClient, create_topic
from odradek.wire import records
from odradek.wire.errors import ErrorCode
from odradek.wire.messages.api_versions_request import ApiVersionsRequest
from odradek.wire.messages.fetch_request import FetchPartition, FetchRequest, FetchTopic
from odradek.wire.messages.init_producer_id_request import InitProducerIdRequest
from odradek.wire.messages.metadata_request import MetadataRequest, MetadataRequestTopic
from odradek.wire.messages.produce_request import PartitionProduceData, ProduceRequest, TopicProduceData


def produce(client, topic, batch, acks=1, version=9, partition=0):
    req = ProduceRequest(acks=acks, timeout_ms=5000, topic_data=[
        TopicProduceData(name=topic, partition_data=[PartitionProduceData(index=partition, records=batch)])])
    if acks == 0:
        client.send(req, version)
        return None
    resp = client.call(req, version)
    return resp.responses[0].partition_responses[0]


def fetch(client, topic, offset, version=11, max_wait=0):
    req = FetchRequest(replica_id=-1, max_wait_ms=max_wait, min_bytes=1, max_bytes=1 << 20, isolation_level=0,
                       session_id=0, session_epoch=-1, topics=[FetchTopic(topic=topic, partitions=[
                           FetchPartition(partition=0, fetch_offset=offset, partition_max_bytes=1 << 20)])])
    return client.call(req, version).responses[0].partitions[0]


def batch(values, **kw):
    return records.build_batch([(None, v) for v in values], **kw)


@pytest.fixture
def raw(bootstrap):
    c = RawClient(bootstrap)
    yield c
    c.close()


# ---------------------------------------------------------------- framing


def test_api_versions_unsupported_version_gets_error_35_with_v0_body(raw):
    # A future ApiVersions version (header v2 as a flexible client would send it)
    from odradek.wire.messages.request_header import RequestHeader

    head = RequestHeader(request_api_key=18, request_api_version=99, correlation_id=7,
                         client_id="future").encode(2)
    body = b"\x00\x00\x00"  # empty compact strings + no tags: whatever, must not matter
    payload = head + body
    raw.send_raw(struct.pack(">i", len(payload)) + payload)
    frame = raw.recv_frame()
    corr, err = struct.unpack_from(">ih", frame, 0)
    assert corr == 7 and err == ErrorCode.UNSUPPORTED_VERSION
    (n,) = struct.unpack_from(">i", frame, 6)
    keys = {struct.unpack_from(">hhh", frame, 10 + 6 * i) for i in range(n)}
    assert (18, 0, 4) in keys or any(k == 18 for k, _, _ in keys)


def test_produce_listed_from_v0_but_v0_to_2_close_the_connection(bootstrap, raw, topic_name):
    # Kafka 4.x lists Produce from v0 (KAFKA-18659: older librdkafka otherwise sends its
    # batches uncompressed) while v0-2 requests are refused like any unsupported version
    produce_range = [(k.min_version, k.max_version) for k in raw.call(ApiVersionsRequest(), 0).api_keys
                     if k.api_key == 0]
    assert len(produce_range) == 1 and produce_range[0][0] == 0 and produce_range[0][1] >= 11
    create_topic(bootstrap, topic_name, 1)
    for version in (0, 1, 2):
        payload = (struct.pack(">hhih", 0, version, 5, 4) + b"test" + struct.pack(">hii", 1, 5000, 1)
                   + struct.pack(">h", len(topic_name)) + topic_name.encode()
                   + struct.pack(">iii", 1, 0, 0))  # one partition, an empty message set
        bad = RawClient(bootstrap)
        try:
            bad.send_raw(struct.pack(">i", len(payload)) + payload)
            assert bad.is_closed_by_peer(), f"Produce v{version} was not refused"
        finally:
            bad.close()
    # v3 is the oldest that works
    assert produce(raw, topic_name, batch([b"v3"]), version=3).error_code == 0


@pytest.mark.parametrize("garbage", [
    b"\xff\xff\xff\xff",                              # negative size
    struct.pack(">i", 2_000_000_000),                  # above socket.request.max.bytes
    struct.pack(">i", 8) + b"\x00\x63\x00\x00\x00\x00\x00\x01",  # unknown api key 99
    struct.pack(">i", 10) + b"\x00\x03\x00\x63\x00\x00\x00\x01\xff\xff",  # Metadata v99
    struct.pack(">i", 3) + b"\x00\x03\x00",            # shorter than a request header
])
def test_bad_frame_closes_only_that_connection(bootstrap, garbage):
    bad = RawClient(bootstrap)
    good = RawClient(bootstrap)
    try:
        bad.send_raw(garbage)
        assert bad.is_closed_by_peer(), "broker kept a connection that sent garbage"
        body = good.call(ApiVersionsRequest(), 0)
        assert body.error_code == 0
    finally:
        bad.close()
        good.close()


def test_malformed_body_closes_connection(bootstrap):
    bad = RawClient(bootstrap)
    try:
        # Metadata v1 whose topic array claims 1000 entries but has none
        payload = struct.pack(">hhih", 3, 1, 1, 3) + b"bad" + struct.pack(">i", 1000)
        bad.send_raw(struct.pack(">i", len(payload)) + payload)
        assert bad.is_closed_by_peer()
    finally:
        bad.close()


def test_disconnect_mid_request(bootstrap):
    for _ in range(20):
        s = socket.create_connection(tuple(bootstrap.rsplit(":", 1)[0:1]) + (int(bootstrap.rsplit(":", 1)[1]),))
        s.sendall(struct.pack(">i", 1000) + b"\x00\x03\x00\x01")  # promise 1000 bytes, send 4
        s.close()
    c = RawClient(bootstrap)
    try:
        assert c.call(ApiVersionsRequest(), 0).error_code == 0
    finally:
        c.close()


def test_pipelined_requests_answered_in_order(raw):
    corrs = [raw.send(MetadataRequest(topics=[]), 1 if i % 2 else 9) if i % 3 else raw.send(ApiVersionsRequest(), 2)
             for i in range(60)]
    got = []
    for _ in corrs:
        frame = raw.recv_frame()
        got.append(struct.unpack_from(">i", frame, 0)[0])
    assert got == corrs


def test_acks0_produce_has_no_response(raw, bootstrap, topic_name):
    create_topic(bootstrap, topic_name)
    produce(raw, topic_name, batch([b"a"]), acks=0)
    corr = raw.send(ApiVersionsRequest(), 0)
    frame = raw.recv_frame()
    assert struct.unpack_from(">i", frame, 0)[0] == corr


# ---------------------------------------------------------------- errors


def test_invalid_topic_name_metadata(raw):
    body = raw.call(MetadataRequest(topics=[MetadataRequestTopic(name="bad name!")], allow_auto_topic_creation=True), 9)
    assert body.topics[0].error_code == ErrorCode.INVALID_TOPIC_EXCEPTION


def test_unknown_topic_without_auto_create(raw, topic_name):
    body = raw.call(MetadataRequest(topics=[MetadataRequestTopic(name=topic_name)],
                                    allow_auto_topic_creation=False), 9)
    assert body.topics[0].error_code == ErrorCode.UNKNOWN_TOPIC_OR_PARTITION


def test_produce_unknown_topic(raw, topic_name):
    r = produce(raw, topic_name + "-nope", batch([b"x"]))
    assert r.error_code == ErrorCode.UNKNOWN_TOPIC_OR_PARTITION


def test_produce_bad_crc_is_corrupt_message(raw, bootstrap, topic_name):
    create_topic(bootstrap, topic_name)
    b = bytearray(batch([b"payload"]))
    b[-1] ^= 0xFF
    r = produce(raw, topic_name, bytes(b))
    assert r.error_code == ErrorCode.CORRUPT_MESSAGE
    ok = produce(raw, topic_name, batch([b"fine"]))
    assert ok.error_code == 0 and ok.base_offset == 0


def test_produce_too_large_for_topic(raw, bootstrap, topic_name):
    create_topic(bootstrap, topic_name, configs={"max.message.bytes": "1000"})
    r = produce(raw, topic_name, batch([b"x" * 2000]))
    assert r.error_code == ErrorCode.MESSAGE_TOO_LARGE
    assert produce(raw, topic_name, batch([b"x" * 100])).error_code == 0


def test_compacted_topic_requires_keys(raw, bootstrap, topic_name):
    create_topic(bootstrap, topic_name, configs={"cleanup.policy": "compact"})
    r = produce(raw, topic_name, batch([b"no key"]))
    assert r.error_code == ErrorCode.INVALID_RECORD
    keyed = records.build_batch([(b"k", b"v")])
    assert produce(raw, topic_name, keyed).error_code == 0


def test_fetch_offset_out_of_range(raw, bootstrap, topic_name):
    create_topic(bootstrap, topic_name)
    produce(raw, topic_name, batch([b"a", b"b"]))
    p = fetch(raw, topic_name, 5)
    assert p.error_code == ErrorCode.OFFSET_OUT_OF_RANGE
    p = fetch(raw, topic_name, 2)
    assert p.error_code == 0 and p.high_watermark == 2 and len(p.records) == 0 and p.records is not None


def test_fetch_mid_batch_returns_whole_batch(raw, bootstrap, topic_name):
    create_topic(bootstrap, topic_name)
    produce(raw, topic_name, batch([b"a", b"b", b"c"]))
    p = fetch(raw, topic_name, 1)
    [(h, recs)] = list(records.iter_batches(bytes(p.records)))
    assert h.base_offset == 0 and len(recs) == 3


def test_idempotent_sequence_rules(raw, bootstrap, topic_name):
    create_topic(bootstrap, topic_name)
    for _ in range(100):  # Kafka answers COORDINATOR_LOAD_IN_PROGRESS while it starts up
        init = raw.call(InitProducerIdRequest(transactional_id=None, transaction_timeout_ms=60000), 4)
        if init.error_code != ErrorCode.COORDINATOR_LOAD_IN_PROGRESS:
            break
        time.sleep(0.2)
    assert init.error_code == 0
    pid, epoch = init.producer_id, init.producer_epoch

    def b(seq, n=2, ep=epoch):
        return records.build_batch([(None, b"%d" % (seq + i)) for i in range(n)], producer_id=pid,
                                   producer_epoch=ep, base_sequence=seq)

    first = produce(raw, topic_name, b(0))
    assert first.error_code == 0 and first.base_offset == 0
    assert produce(raw, topic_name, b(2)).base_offset == 2
    dup = produce(raw, topic_name, b(0))  # a retry of the first batch
    assert dup.error_code == 0 and dup.base_offset == 0
    gap = produce(raw, topic_name, b(10))
    assert gap.error_code == ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER
    assert produce(raw, topic_name, b(4, ep=epoch + 1)).error_code == ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER
    assert produce(raw, topic_name, b(0, ep=epoch + 1)).error_code == 0
    assert produce(raw, topic_name, b(2, ep=epoch)).error_code == ErrorCode.INVALID_PRODUCER_EPOCH
    p = fetch(raw, topic_name, 0)
    assert sum(len(r) for _, r in records.iter_batches(bytes(p.records))) == 6


# ---------------------------------------------------------------- a bad neighbour


def test_garbage_client_does_not_disturb_producer_and_consumer(bootstrap, topic_name):
    from confluent_kafka import Consumer, Producer, TopicPartition

    create_topic(bootstrap, topic_name)
    stop = threading.Event()
    host, port = bootstrap.rsplit(":", 1)

    def vandal():
        rnd = 0
        while not stop.is_set():
            rnd += 1
            try:
                s = socket.create_connection((host, int(port)), timeout=2)
                kind = rnd % 4
                if kind == 0:
                    s.sendall(os.urandom(512))
                elif kind == 1:
                    s.sendall(struct.pack(">i", 64) + os.urandom(64))  # a frame of noise
                elif kind == 2:
                    s.sendall(struct.pack(">i", 1 << 30))  # announce 1 GiB, send nothing
                else:
                    s.sendall(struct.pack(">i", 40) + b"\x00\x00\x00\x09" + os.urandom(10))  # cut short
                s.close()
            except OSError:
                pass
            time.sleep(0.005)

    threads = [threading.Thread(target=vandal, daemon=True) for _ in range(3)]
    for t in threads:
        t.start()
    try:
        p = Producer({"bootstrap.servers": bootstrap, "acks": "all", "linger.ms": 2})
        n = 2000
        for i in range(n):
            p.produce(topic_name, value=b"%d" % i)
            if i % 100 == 0:
                p.poll(0)
        assert p.flush(20) == 0
        c = Consumer({"bootstrap.servers": bootstrap, "group.id": "g-" + topic_name, "enable.auto.commit": False})
        c.assign([TopicPartition(topic_name, 0, 0)])
        got = []
        deadline = time.monotonic() + 60
        while len(got) < n and time.monotonic() < deadline:
            m = c.poll(0.5)
            if m is not None and m.error() is None:
                got.append(m.value())
        c.close()
        assert got == [b"%d" % i for i in range(n)]
    finally:
        stop.set()
        for t in threads:
            t.join(5)


def test_acks0_produce_error_closes_connection(raw, topic_name):
    """Kafka closes the connection when an acks=0 produce fails, so the client notices."""
    produce(raw, topic_name + "-missing", batch([b"x"]), acks=0)
    assert raw.is_closed_by_peer()
