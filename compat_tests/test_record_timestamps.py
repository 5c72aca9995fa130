"""CreateTime bounds (message.timestamp.after.max.ms = 1 h by default in Kafka 4,
message.timestamp.before.max.ms per topic): stock producers get INVALID_TIMESTAMP,
and the raw Produce response carries Kafka's message and per-record errors.
Runs unchanged against Apache Kafka (`--bootstrap`)."""
from __future__ import annotations

import time

from harness import create_topic

from odradek.broker.wire_client import WireClient
from odradek.wire.compression import Codec
from odradek.wire.messages.produce_request import (PartitionProduceData, ProduceRequest,
                                                   TopicProduceData)
from odradek.wire.records import build_batch

HOUR = 3_600_000


def _produce_raw(bootstrap, topic, recs, codec=Codec.NONE):
    c = WireClient.from_bootstrap(bootstrap)
    try:
        req = ProduceRequest(acks=1, timeout_ms=10000, topic_data=[TopicProduceData(
            name=topic, partition_data=[PartitionProduceData(
                index=0, records=build_batch(recs, compression=codec))])])
        r = c.send(req, max_version=11)
        return r.responses[0].partition_responses[0]
    finally:
        c.close()


def _bounds(message: str) -> tuple[int, int]:
    lo, hi = message.rsplit("[", 1)[1].rstrip("]").split(", ")
    return int(lo), int(hi)


def test_future_records_rejected_with_record_errors(bootstrap, topic_name):
    create_topic(bootstrap, topic_name, 1)
    now = int(time.time() * 1000)
    p = _produce_raw(bootstrap, topic_name, [(b"k", b"a", (), now), (b"k", b"b", (), now + 2 * HOUR),
                                             (b"k", b"c", (), -1), (b"k", b"d", (), now + 3 * HOUR)])
    assert p.error_code == 32 and p.base_offset == -1
    assert p.error_message == "One or more records have been rejected due to invalid timestamp"
    assert [e.batch_index for e in p.record_errors] == [1, 3]
    first = p.record_errors[0].batch_index_error_message
    assert first.startswith(f"Timestamp {now + 2 * HOUR} of message with offset 1 is out of range. "
                            "The timestamp should be within [")
    lo, hi = _bounds(first)
    assert lo < -9 * 10**18 and now + HOUR <= hi <= now + HOUR + 60_000
    # compressed batches are checked record by record too; past timestamps are fine by default
    pz = _produce_raw(bootstrap, topic_name, [(b"k", b"z", (), now + 2 * HOUR)], Codec.GZIP)
    assert pz.error_code == 32 and [e.batch_index for e in pz.record_errors] == [0]
    ok = _produce_raw(bootstrap, topic_name, [(b"k", b"old", (), 1000), (b"k", b"soon", (), now + 60_000)])
    assert ok.error_code == 0 and ok.base_offset == 0


def test_topic_before_max_and_log_append_time(bootstrap, topic_name):
    create_topic(bootstrap, topic_name, 1, configs={"message.timestamp.before.max.ms": "60000"})
    now = int(time.time() * 1000)
    p = _produce_raw(bootstrap, topic_name, [(b"k", b"old", (), now - 10 * 60_000)])
    assert p.error_code == 32
    lo, hi = _bounds(p.record_errors[0].batch_index_error_message)
    assert now - 60_000 <= lo <= now and hi - lo == 60_000 + HOUR
    lat = topic_name + "-lat"
    create_topic(bootstrap, lat, 1, configs={"message.timestamp.type": "LogAppendTime"})
    assert _produce_raw(bootstrap, lat, [(b"k", b"far", (), now + 5 * HOUR)]).error_code == 0


def test_confluent_producer_gets_invalid_timestamp(bootstrap, topic_name):
    from confluent_kafka import KafkaError, Producer

    create_topic(bootstrap, topic_name, 1)
    results = []
    p = Producer({"bootstrap.servers": bootstrap, "retries": 0})
    now = int(time.time() * 1000)
    p.produce(topic_name, b"future", timestamp=now + 2 * HOUR, on_delivery=lambda e, m: results.append(e))
    assert p.flush(30) == 0
    p.produce(topic_name, b"now", timestamp=now, on_delivery=lambda e, m: results.append(e))
    assert p.flush(30) == 0
    assert results[0] is not None and results[0].code() == KafkaError.INVALID_TIMESTAMP
    assert results[1] is None
