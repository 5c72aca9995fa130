"""odradek.testing's fault injection seen by stock clients: a Produce answered with
NOT_LEADER_OR_FOLLOWER twice is retried and then succeeds (the retries read off the broker's request
trace); a delayed Fetch holds a consumer's poll; a closed connection makes the client reconnect; a
Python callable rewrites a Produce response (the idempotent producer retries; one record is
written); every connection of a client id is reset (the client reconnects and goes on); a paused
broker answers nothing until it is resumed."""

from __future__ import annotations

import json
import time
import uuid

import pytest

from odradek.testing import Broker


ZERO_TOPIC_ID = "AAAAAAAAAAAAAAAAAAAAAA"  # Uuid.ZERO_UUID, as the trace writes it


@pytest.fixture(scope="module")
def test_broker(tmp_path_factory):
    trace = tmp_path_factory.mktemp("trace") / "trace.jsonl"
    with Broker(trace=trace, in_process=True) as b:
        b.trace_path = trace
        yield b


def trace_of(b, api: str, client_id: str | None = None) -> list[dict]:
    lines = [json.loads(x) for x in b.trace_path.read_text().splitlines()]
    return [x for x in lines if x["api"] == api and (client_id is None or x.get("client_id", client_id) == client_id)]


def produce_errors(b, topic: str) -> list[int]:
    """The error code of each Produce response to ``topic`` (by name, or by topic id from v13), in order."""
    ids = {t["topic_id"] for x in trace_of(b, "Metadata") if x["dir"] == "response"
           for t in x["fields"]["topics"] if t["name"] == topic} - {ZERO_TOPIC_ID}
    out = []
    for x in trace_of(b, "Produce"):
        if x["dir"] == "response":
            for t in x["fields"]["responses"]:
                if t["name"] == topic or t["topic_id"] in ids:
                    out += [p["error_code"] for p in t["partition_responses"]]
    return out


def test_confluent_kafka_retries_not_leader_then_succeeds(test_broker):
    from confluent_kafka import Producer

    topic = f"nl-{uuid.uuid4().hex[:8]}"
    with test_broker.faults.inject("Produce", "NOT_LEADER_OR_FOLLOWER", times=2, topic=topic) as fault:
        p = Producer({"bootstrap.servers": test_broker.bootstrap, "retry.backoff.ms": 20})
        delivered = []
        p.produce(topic, b"payload", on_delivery=lambda err, msg: delivered.append((err, msg.offset())))
        assert p.flush(30) == 0
        assert not fault.active  # spent
    assert delivered == [(None, 0)]
    assert produce_errors(test_broker, topic) == [6, 6, 0]


def test_kafka_python_retries_not_leader_then_succeeds(test_broker):
    from kafka import KafkaProducer

    topic = f"nl-{uuid.uuid4().hex[:8]}"
    with test_broker.faults.inject("Produce", "NOT_LEADER_OR_FOLLOWER", times=2, topic=topic):
        p = KafkaProducer(bootstrap_servers=test_broker.bootstrap, retries=5, retry_backoff_ms=20)
        md = p.send(topic, b"payload").get(timeout=30)
        p.close()
    assert md.offset == 0
    assert produce_errors(test_broker, topic) == [6, 6, 0]


def test_delayed_fetch_holds_the_poll(test_broker):
    from confluent_kafka import Consumer, Producer

    topic = f"slow-{uuid.uuid4().hex[:8]}"
    p = Producer({"bootstrap.servers": test_broker.bootstrap})
    p.produce(topic, b"x")
    assert p.flush(30) == 0
    c = Consumer({"bootstrap.servers": test_broker.bootstrap, "group.id": topic, "auto.offset.reset": "earliest",
                  "client.id": "slow-consumer"})
    c.subscribe([topic])
    try:
        with test_broker.faults.inject("Fetch", delay_ms=1500, client_id="slow-consumer") as fault:
            t0 = time.monotonic()
            msg = None
            while msg is None and time.monotonic() - t0 < 30:
                msg = c.poll(0.2)
            waited = time.monotonic() - t0
            assert fault.hits >= 1
        assert msg is not None and msg.value() == b"x"
        assert waited >= 1.5  # the first Fetch answered only after its delay
    finally:
        c.close()


def test_closed_connection_makes_the_client_reconnect(test_broker):
    from confluent_kafka import Producer

    topic = f"cc-{uuid.uuid4().hex[:8]}"
    p = Producer({"bootstrap.servers": test_broker.bootstrap, "retry.backoff.ms": 20, "client.id": "cc"})
    p.produce(topic, b"first")
    assert p.flush(30) == 0
    before = {x["connection"] for x in trace_of(test_broker, "Produce", "cc")}
    with test_broker.faults.inject("Produce", action="close_connection", times=1, topic=topic):
        delivered = []
        p.produce(topic, b"second", on_delivery=lambda err, msg: delivered.append((err, msg.offset())))
        assert p.flush(30) == 0
    assert delivered == [(None, 1)]
    after = {x["connection"] for x in trace_of(test_broker, "Produce", "cc")}
    assert len(after - before) == 1  # the retry came on a new connection


def test_java_producer_retries_not_leader_then_succeeds(test_broker, tmp_path):
    """Kafka 4.3's VerifiableProducer (the Java producer of kafka-clients 4.3)."""
    import apache_kafka

    reason = apache_kafka.missing()
    if reason:
        pytest.skip(reason)
    topic = f"nl-{uuid.uuid4().hex[:8]}"
    test_broker.create_topic(topic)
    config = tmp_path / "producer.properties"
    config.write_text("retries=5\nretry.backoff.ms=20\n")  # the tool's own default is no retries
    with test_broker.faults.inject("Produce", "NOT_LEADER_OR_FOLLOWER", times=2, topic=topic):
        r = apache_kafka.run_tool("verifiable-producer", "--bootstrap-server", test_broker.bootstrap, "--topic", topic,
                                  "--max-messages", "1", "--acks", "-1", "--producer.config", str(config),
                                  timeout=120)
    events = [json.loads(x) for x in r.stdout.splitlines() if x.startswith("{")]
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    assert [(e["name"], e.get("offset")) for e in events if e["name"].startswith("producer_send")] == \
        [("producer_send_success", 0)]
    assert produce_errors(test_broker, topic) == [6, 6, 0]


def test_dropped_response_is_retried_and_written_once(test_broker):
    """drop_response: the Produce is handled (the record written) but never answered; the idempotent
    producer times the request out, sends it again, and the broker knows the batch: one record."""
    from confluent_kafka import Producer

    topic = f"drop-{uuid.uuid4().hex[:8]}"
    test_broker.create_topic(topic)
    with test_broker.faults.inject("Produce", action="drop_response", times=1, topic=topic):
        p = Producer({"bootstrap.servers": test_broker.bootstrap, "enable.idempotence": True,
                      "socket.timeout.ms": 1500, "retry.backoff.ms": 20})  # librdkafka times requests out by this
        delivered = []
        p.produce(topic, b"once", on_delivery=lambda err, msg: delivered.append((err, msg.offset())))
        assert p.flush(30) == 0
    assert delivered == [(None, 0)]
    requests = [x for x in trace_of(test_broker, "Produce") if x["dir"] == "request"
                and any(t["name"] == topic for t in x["fields"]["topic_data"])]
    assert len(requests) == 2 and requests[0]["fault"]["action"] == "drop_response"
    assert test_broker.consume(topic, 1) == [b"once"]
    from confluent_kafka import Consumer, TopicPartition

    c = Consumer({"bootstrap.servers": test_broker.bootstrap, "group.id": topic})
    try:
        assert c.get_watermark_offsets(TopicPartition(topic, 0), timeout=10) == (0, 1)
    finally:
        c.close()


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
    test_broker.pause()  # (in process: the control API's pause, as faults.pause())
    try:
        assert test_broker.faults.paused
        with pytest.raises(KafkaException):
            admin.list_topics(timeout=2)
    finally:
        test_broker.resume()
    assert not test_broker.faults.paused
    assert admin.list_topics(timeout=30).brokers
    with test_broker.faults.pause():  # scoped: resumed on exit
        with pytest.raises(KafkaException):
            admin.list_topics(timeout=2)
    assert admin.list_topics(timeout=30).brokers
