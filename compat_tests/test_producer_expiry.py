"""producer.id.expiration.ms with a stock idempotent producer and Kafka's own
`kafka-transactions.sh describe-producers`: the producer is listed while active
and gone once idle longer than the expiration (checked every
producer.id.expiration.check.interval.ms).

The expiration is far above what one tool call costs (a JVM start: 1.5-4 s on a loaded
2-core machine), so the first describe-producers sees the producer however slow the
machine is; the wait for its expiry polls the broker with a raw DescribeProducers (cheap)
and Kafka's tool then confirms the empty list."""
from __future__ import annotations

import time

from harness import RawClient, create_topic, kafka_tool
from odradek.wire.messages.describe_producers_request import DescribeProducersRequest, TopicRequest

EXPIRATION_S = 15
BROKER_OVERRIDES = {"producer.id.expiration.ms": str(EXPIRATION_S * 1000),
                    "producer.id.expiration.check.interval.ms": "500"}


def _producers(bootstrap: str, topic: str) -> list[dict[str, str]]:
    r = kafka_tool("transactions", "--bootstrap-server", bootstrap, "describe-producers", "--topic", topic,
                   "--partition", "0")
    assert r.returncode == 0, r.stderr
    lines = [ln.split() for ln in r.stdout.strip().splitlines()]
    header = lines[0]
    assert header[0] == "ProducerId"
    return [dict(zip(header, row)) for row in lines[1:]]


def _active_producer_ids(raw: RawClient, topic: str) -> list[int]:
    resp = raw.call(DescribeProducersRequest(topics=[TopicRequest(name=topic, partition_indexes=[0])]), 0)
    part = resp.topics[0].partitions[0]
    assert part.error_code == 0, part.error_code
    return [p.producer_id for p in part.active_producers]


def test_idle_idempotent_producer_expires(controllable_broker, kafka_jars, topic_name):
    from confluent_kafka import Producer

    bootstrap = controllable_broker.bootstrap
    create_topic(bootstrap, topic_name, 1)
    p = Producer({"bootstrap.servers": bootstrap, "enable.idempotence": True})
    for i in range(3):
        p.produce(topic_name, b"v%d" % i)
    assert p.flush(30) == 0
    rows = _producers(bootstrap, topic_name)
    assert len(rows) == 1 and rows[0]["LastSequence"] == "2", rows
    # idle: gone after producer.id.expiration.ms plus a check interval; wait for it with a bound
    raw = RawClient(bootstrap)
    try:
        deadline = time.monotonic() + EXPIRATION_S + 60
        while _active_producer_ids(raw, topic_name) and time.monotonic() < deadline:
            time.sleep(0.25)
    finally:
        raw.close()
    assert _producers(bootstrap, topic_name) == []
