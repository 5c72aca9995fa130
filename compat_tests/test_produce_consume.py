"""Produce and consume with kafka-python, confluent-kafka and aiokafka.

Every client x every codec: records produced with acks 0, 1 and all come back from
the beginning with exact keys, values, headers and timestamps; idempotent producers;
ListOffsets earliest/latest/by timestamp; message.max.bytes at the edge.
"""

from __future__ import annotations

import asyncio
import time

import pytest

from harness import create_topic

CODECS = ["none", "gzip", "snappy", "lz4", "zstd"]
ACKS = ["0", "1", "all"]
N = 20
# Recent (an hour ago, whole seconds): older records fall to the default 7-day retention,
# which Apache Kafka applies 30 s after start.
BASE_TS = (int(time.time()) - 3600) * 1000


def expected_records(tag: str):
    """(key, value, headers, timestamp) per acks setting, distinct per record."""
    out = {}
    for acks in ACKS:
        recs = []
        for i in range(N):
            key = None if i % 7 == 3 else f"{tag}-{acks}-k{i}".encode()
            value = None if i % 11 == 5 else (f"{tag}-{acks}-v{i}-".encode() * (1 + i % 5))
            headers = [("acks", acks.encode()), ("i", str(i).encode())]
            if i % 3 == 0:
                headers.append(("empty", b""))
            recs.append((key, value, headers, BASE_TS + i * 1000))
        out[acks] = recs
    return out


def check(consumed, expected):
    """consumed: list of (key, value, headers, timestamp) in partition order."""
    by_acks = {a: [] for a in ACKS}
    for rec in consumed:
        hdrs = dict(rec[2])
        by_acks[hdrs["acks"].decode()].append(rec)
    for acks in ACKS:
        got = [(k, v, [(hk, bytes(hv) if hv is not None else None) for hk, hv in h], ts)
               for k, v, h, ts in by_acks[acks]]
        assert got == expected[acks], f"acks={acks}: records differ"


# ---------------------------------------------------------------- kafka-python


def kp_produce(bootstrap, topic, expected, codec, **extra):
    from kafka import KafkaProducer

    for acks in ACKS:
        p = KafkaProducer(bootstrap_servers=bootstrap, acks=acks if acks == "all" else int(acks),
                          compression_type=None if codec == "none" else codec, linger_ms=5, **extra)
        futs = [p.send(topic, key=k, value=v, headers=h, timestamp_ms=ts) for k, v, h, ts in expected[acks]]
        p.flush(10)
        for f in futs:
            md = f.get(10)
            if acks != "0":
                assert md.offset >= 0
        p.close(5)


def kp_consume(bootstrap, topic, n, timeout=60):
    from kafka import KafkaConsumer, TopicPartition

    c = KafkaConsumer(bootstrap_servers=bootstrap, auto_offset_reset="earliest", enable_auto_commit=False)
    tp = TopicPartition(topic, 0)
    c.assign([tp])
    c.seek_to_beginning(tp)
    out = []
    deadline = time.monotonic() + timeout
    while len(out) < n and time.monotonic() < deadline:
        for recs in c.poll(500).values():
            for r in recs:
                out.append((r.key, r.value, list(r.headers), r.timestamp))
                assert r.timestamp_type == 0
    c.close()
    return out


@pytest.mark.parametrize("codec", CODECS)
def test_kafka_python_roundtrip(bootstrap, topic_name, codec):
    create_topic(bootstrap, topic_name)
    expected = expected_records("kp")
    kp_produce(bootstrap, topic_name, expected, codec)
    check(kp_consume(bootstrap, topic_name, N * len(ACKS)), expected)


# ---------------------------------------------------------------- confluent-kafka


def ck_produce(bootstrap, topic, expected, codec, **extra):
    from confluent_kafka import Producer

    for acks in ACKS:
        conf = {"bootstrap.servers": bootstrap, "acks": acks, "compression.type": codec, "linger.ms": 5}
        if acks == "0":
            conf["enable.idempotence"] = False
        conf.update(extra)
        p = Producer(conf)
        errors = []

        def cb(err, msg):
            if err is not None:
                errors.append(err)

        for k, v, h, ts in expected[acks]:
            p.produce(topic, key=k, value=v, headers=h, timestamp=ts, on_delivery=cb)
        assert p.flush(15) == 0
        assert not errors, errors


def ck_consume(bootstrap, topic, n, timeout=60):
    from confluent_kafka import TIMESTAMP_CREATE_TIME, Consumer, TopicPartition

    c = Consumer({"bootstrap.servers": bootstrap, "group.id": f"ck-{topic}", "enable.auto.commit": False,
                  "auto.offset.reset": "earliest"})
    c.assign([TopicPartition(topic, 0, 0)])
    out = []
    deadline = time.monotonic() + timeout
    while len(out) < n and time.monotonic() < deadline:
        m = c.poll(0.5)
        if m is None:
            continue
        assert m.error() is None, m.error()
        ts_type, ts = m.timestamp()
        assert ts_type == TIMESTAMP_CREATE_TIME
        out.append((m.key(), m.value(), list(m.headers() or []), ts))
    c.close()
    return out


@pytest.mark.parametrize("codec", CODECS)
def test_confluent_roundtrip(bootstrap, topic_name, codec):
    create_topic(bootstrap, topic_name)
    expected = expected_records("ck")
    ck_produce(bootstrap, topic_name, expected, codec)
    check(ck_consume(bootstrap, topic_name, N * len(ACKS)), expected)


# ---------------------------------------------------------------- aiokafka


async def aio_produce(bootstrap, topic, expected, codec, **extra):
    from aiokafka import AIOKafkaProducer

    for acks in ACKS:
        p = AIOKafkaProducer(bootstrap_servers=bootstrap, acks=acks if acks == "all" else int(acks),
                             compression_type=None if codec == "none" else codec, linger_ms=5, **extra)
        await p.start()
        try:
            futs = [await p.send(topic, key=k, value=v, headers=h, timestamp_ms=ts)
                    for k, v, h, ts in expected[acks]]
            for f in futs:
                await f
        finally:
            await p.stop()


async def aio_consume(bootstrap, topic, n, timeout=60):
    from aiokafka import AIOKafkaConsumer, TopicPartition

    c = AIOKafkaConsumer(bootstrap_servers=bootstrap, auto_offset_reset="earliest", enable_auto_commit=False)
    await c.start()
    out = []
    try:
        tp = TopicPartition(topic, 0)
        c.assign([tp])
        await c.seek_to_beginning(tp)
        deadline = time.monotonic() + timeout
        while len(out) < n and time.monotonic() < deadline:
            batches = await c.getmany(timeout_ms=500)
            for recs in batches.values():
                for r in recs:
                    assert r.timestamp_type == 0
                    out.append((r.key, r.value, list(r.headers), r.timestamp))
    finally:
        await c.stop()
    return out


@pytest.mark.parametrize("codec", CODECS)
def test_aiokafka_roundtrip(bootstrap, topic_name, codec):
    create_topic(bootstrap, topic_name)
    expected = expected_records("aio")

    async def main():
        await aio_produce(bootstrap, topic_name, expected, codec)
        return await aio_consume(bootstrap, topic_name, N * len(ACKS))

    check(asyncio.run(main()), expected)


def test_cross_client(bootstrap, topic_name):
    """What one client writes, the others read identically."""
    create_topic(bootstrap, topic_name)
    expected = expected_records("x")
    ck_produce(bootstrap, topic_name, expected, "lz4")
    n = N * len(ACKS)
    check(kp_consume(bootstrap, topic_name, n), expected)
    check(asyncio.run(aio_consume(bootstrap, topic_name, n)), expected)


# ---------------------------------------------------------------- idempotence


def _values(expected):
    return [v for acks in ACKS for _, v, _, _ in expected[acks]]


def test_idempotent_confluent(bootstrap, topic_name):
    from confluent_kafka import Producer

    create_topic(bootstrap, topic_name)
    p = Producer({"bootstrap.servers": bootstrap, "enable.idempotence": True, "linger.ms": 2,
                  "max.in.flight.requests.per.connection": 5, "batch.num.messages": 7})
    for i in range(500):
        p.produce(topic_name, value=b"%d" % i)
        if i % 50 == 0:
            p.poll(0)
    assert p.flush(15) == 0
    got = ck_consume(bootstrap, topic_name, 500)
    assert [v for _, v, _, _ in got] == [b"%d" % i for i in range(500)]


def test_idempotent_kafka_python(bootstrap, topic_name):
    from kafka import KafkaProducer

    create_topic(bootstrap, topic_name)
    p = KafkaProducer(bootstrap_servers=bootstrap, enable_idempotence=True, acks="all", linger_ms=2)
    futs = [p.send(topic_name, value=b"%d" % i) for i in range(300)]
    p.flush(10)
    offsets = [f.get(10).offset for f in futs]
    assert offsets == list(range(300))
    p.close(5)


def test_idempotent_aiokafka(bootstrap, topic_name):
    from aiokafka import AIOKafkaProducer

    create_topic(bootstrap, topic_name)

    async def main():
        p = AIOKafkaProducer(bootstrap_servers=bootstrap, enable_idempotence=True, acks="all")
        await p.start()
        try:
            return [(await p.send_and_wait(topic_name, value=b"%d" % i)).offset for i in range(100)]
        finally:
            await p.stop()

    assert asyncio.run(main()) == list(range(100))


# ---------------------------------------------------------------- list offsets


def test_list_offsets_kafka_python(bootstrap, topic_name):
    from kafka import KafkaConsumer, TopicPartition

    create_topic(bootstrap, topic_name)
    expected = expected_records("lo")
    kp_produce(bootstrap, topic_name, {"0": [], "1": expected["1"], "all": []}, "none")
    c = KafkaConsumer(bootstrap_servers=bootstrap)
    tp = TopicPartition(topic_name, 0)
    try:
        assert c.beginning_offsets([tp]) == {tp: 0}
        assert c.end_offsets([tp]) == {tp: N}
        found = c.offsets_for_times({tp: BASE_TS + 5 * 1000})[tp]
        assert (found.offset, found.timestamp) == (5, BASE_TS + 5000)
        found = c.offsets_for_times({tp: BASE_TS + 5 * 1000 - 1})[tp]
        assert found.offset == 5
        assert c.offsets_for_times({tp: BASE_TS + N * 1000})[tp] is None
    finally:
        c.close()


def test_list_offsets_confluent(bootstrap, topic_name):
    from confluent_kafka import Consumer, TopicPartition
    from confluent_kafka.admin import AdminClient, OffsetSpec

    create_topic(bootstrap, topic_name)
    expected = expected_records("lo")
    ck_produce(bootstrap, topic_name, {"0": [], "1": expected["1"], "all": []}, "none")
    c = Consumer({"bootstrap.servers": bootstrap, "group.id": "lo"})
    try:
        assert c.get_watermark_offsets(TopicPartition(topic_name, 0), timeout=10) == (0, N)
        res = c.offsets_for_times([TopicPartition(topic_name, 0, BASE_TS + 7000)], timeout=10)
        assert res[0].offset == 7
    finally:
        c.close()
    admin = AdminClient({"bootstrap.servers": bootstrap})
    tp = TopicPartition(topic_name, 0)
    for spec, want in ((OffsetSpec.earliest(), 0), (OffsetSpec.latest(), N), (OffsetSpec.max_timestamp(), N - 1),
                       (OffsetSpec.for_timestamp(BASE_TS + 3000), 3)):
        r = admin.list_offsets({tp: spec})[tp].result(10)
        assert r.offset == want, spec


def test_list_offsets_aiokafka(bootstrap, topic_name):
    from aiokafka import AIOKafkaConsumer, TopicPartition

    create_topic(bootstrap, topic_name)
    expected = expected_records("lo")

    async def main():
        await aio_produce(bootstrap, topic_name, {"0": [], "1": expected["1"], "all": []}, "none")
        c = AIOKafkaConsumer(bootstrap_servers=bootstrap)
        await c.start()
        tp = TopicPartition(topic_name, 0)
        try:
            assert await c.beginning_offsets([tp]) == {tp: 0}
            assert await c.end_offsets([tp]) == {tp: N}
            found = (await c.offsets_for_times({tp: BASE_TS + 9000}))[tp]
            assert (found.offset, found.timestamp) == (9, BASE_TS + 9000)
        finally:
            await c.stop()

    asyncio.run(main())


# ---------------------------------------------------------------- message.max.bytes

MAX_MESSAGE_BYTES = 1048588  # the broker default
BATCH_OVERHEAD = 61 + 20      # batch header + one record's framing (generous)


def test_message_size_limit_confluent(bootstrap, topic_name):
    from confluent_kafka import KafkaError, Producer

    create_topic(bootstrap, topic_name)
    p = Producer({"bootstrap.servers": bootstrap, "message.max.bytes": 4_000_000, "compression.type": "none",
                  "acks": "all", "enable.idempotence": False, "retries": 0})
    results = []
    p.produce(topic_name, value=b"x" * (MAX_MESSAGE_BYTES - BATCH_OVERHEAD), on_delivery=lambda e, m: results.append(e))
    p.flush(15)
    p.produce(topic_name, value=b"y" * (MAX_MESSAGE_BYTES + 1), on_delivery=lambda e, m: results.append(e))
    p.flush(15)
    assert results[0] is None
    assert results[1] is not None and results[1].code() == KafkaError.MSG_SIZE_TOO_LARGE
    got = ck_consume(bootstrap, topic_name, 1)
    assert len(got) == 1 and got[0][1] == b"x" * (MAX_MESSAGE_BYTES - BATCH_OVERHEAD)


def test_message_size_limit_kafka_python(bootstrap, topic_name):
    from kafka import KafkaProducer
    from kafka.errors import MessageSizeTooLargeError

    create_topic(bootstrap, topic_name)
    p = KafkaProducer(bootstrap_servers=bootstrap, max_request_size=4_000_000, acks=1, retries=0,
                      enable_idempotence=False)
    ok = p.send(topic_name, value=b"x" * (MAX_MESSAGE_BYTES - BATCH_OVERHEAD)).get(10)
    assert ok.offset == 0
    with pytest.raises(MessageSizeTooLargeError):
        p.send(topic_name, value=b"y" * (MAX_MESSAGE_BYTES + 1)).get(10)
    p.close(5)


def test_auto_create_on_metadata(bootstrap, topic_name):
    """A producer to a topic nobody created works (auto.create.topics.enable=true)."""
    from kafka import KafkaProducer

    p = KafkaProducer(bootstrap_servers=bootstrap, acks=1)
    md = p.send(topic_name, value=b"hello").get(15)
    assert md.offset == 0
    p.close(5)
    assert [v for _, v, _, _ in kp_consume(bootstrap, topic_name, 1)] == [b"hello"]


def test_long_poll_wakes_on_produce(bootstrap, topic_name):
    """A consumer waiting in a long poll gets a record as soon as it is produced."""
    from confluent_kafka import Consumer, Producer, TopicPartition

    create_topic(bootstrap, topic_name)
    # a long max wait, so that "woken by the append" and "answered at expiry" stay far apart on
    # a loaded machine (the bound below is the test's meaning, not a speed claim)
    max_wait_s = 50
    c = Consumer({"bootstrap.servers": bootstrap, "group.id": "lp", "fetch.wait.max.ms": max_wait_s * 1000,
                  "enable.auto.commit": False})
    c.assign([TopicPartition(topic_name, 0, 0)])
    c.poll(1.0)  # connected and parked in a long poll
    p = Producer({"bootstrap.servers": bootstrap, "linger.ms": 0})
    t0 = time.monotonic()
    p.produce(topic_name, value=b"wake")
    p.flush(30)
    m = None
    while m is None and time.monotonic() - t0 < max_wait_s:
        m = c.poll(0.1)
    elapsed = time.monotonic() - t0
    c.close()
    assert m is not None and m.value() == b"wake"
    assert elapsed < max_wait_s / 2, f"long poll was not woken by the append ({elapsed:.2f}s)"


def test_delete_records(bootstrap, topic_name):
    from confluent_kafka import TopicPartition
    from confluent_kafka.admin import AdminClient, OffsetSpec

    create_topic(bootstrap, topic_name)
    expected = expected_records("dr")
    ck_produce(bootstrap, topic_name, {"0": [], "1": expected["1"], "all": []}, "none")
    admin = AdminClient({"bootstrap.servers": bootstrap})
    tp = TopicPartition(topic_name, 0, 5)
    res = admin.delete_records([tp])[tp].result(10)
    assert res.low_watermark == 5
    tp0 = TopicPartition(topic_name, 0)
    assert admin.list_offsets({tp0: OffsetSpec.earliest()})[tp0].result(10).offset == 5
    got = kp_consume(bootstrap, topic_name, N - 5)
    assert [v for _, v, _, _ in got] == [v for _, v, _, _ in expected["1"][5:]]
