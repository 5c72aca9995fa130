"""odradek.testing on a broker in the test's process, seen by confluent-kafka: a Python callable
rewrites a Produce response (the idempotent producer retries; one record is written), every
connection of a client id is reset (the client reconnects and goes on), and a paused broker answers
nothing until it is resumed."""

from __future__ import annotations

import uuid

import pytest

from odradek.testing import Broker


@pytest.fixture(scope="module")
def test_broker(tmp_path_factory):
    with Broker(trace=tmp_path_factory.mktemp("trace") / "trace.jsonl", in_process=True) as b:
        yield b


def produce_errors(b, topic: str) -> list[int]:
    ids = {t["topic_id"] for x in b.trace("Metadata") if x["dir"] == "response"
           for t in x["fields"]["topics"] if t["name"] == topic}
    return [p["error_code"] for x in b.trace("Produce") if x["dir"] == "response"
            for t in x["fields"]["responses"] if t["name"] == topic or t["topic_id"] in ids
            for p in t["partition_responses"]]


def test_a_callable_rewrites_the_response(test_broker):
    topic = f"rw-{uuid.uuid4().hex[:8]}"
    test_broker.create_topic(topic)
    seen = []

    def not_enough_replicas(resp):
        seen.append(type(resp).__name__)
        for t in resp.responses:
            for p in t.partition_responses:
                p.error_code = 19  # NOT_ENOUGH_REPLICAS (retriable): the record was written all the same
        return resp

    with test_broker.faults.inject("Produce", times=1, topic=topic, rewrite=not_enough_replicas) as fault:
        assert test_broker.produce(topic, "only-once") == [0]
        assert not fault.active
    assert seen == ["ProduceResponse"]
    assert produce_errors(test_broker, topic) == [19, 0]  # the idempotent retry was answered as a duplicate
    assert test_broker.consume(topic, 1) == [b"only-once"]
    assert test_broker.produce(topic, "next") == [1]  # no duplicate in between


def test_drop_connections_of_a_client_id(test_broker):
    from confluent_kafka import Producer

    topic = f"drop-{uuid.uuid4().hex[:8]}"
    client_id = f"app-{uuid.uuid4().hex[:6]}"
    p = Producer({"bootstrap.servers": test_broker.bootstrap, "client.id": client_id, "acks": "all"})
    p.produce(topic, b"before")
    assert p.flush(30) == 0
    conns_before = {x["connection"] for x in test_broker.trace() if x.get("client_id") == client_id}
    assert test_broker.faults.drop_connections(client_id) >= 1  # (its bootstrap connection may be gone)
    assert test_broker.faults.drop_connections("nobody") == 0
    p.produce(topic, b"after")
    assert p.flush(30) == 0
    conns_after = {x["connection"] for x in test_broker.trace() if x.get("client_id") == client_id}
    assert conns_after - conns_before  # it reconnected
    assert test_broker.consume(topic, 2) == [b"before", b"after"]


def test_a_paused_broker_answers_nothing_until_resumed(test_broker):
    from confluent_kafka import KafkaException
    from confluent_kafka.admin import AdminClient

    admin = AdminClient({"bootstrap.servers": test_broker.bootstrap})
    test_broker.pause()
    try:
        assert test_broker.faults.paused
        with pytest.raises(KafkaException):
            admin.list_topics(timeout=2)
    finally:
        test_broker.resume()
    assert not test_broker.faults.paused
    assert admin.list_topics(timeout=30).brokers
