"""odradek.testing's virtual clock: a broker started with it decides by a clock the test moves
(``clock.advance``). A group member whose heartbeats stop is expired by advancing the session
timeout, and the group rebalances onto the live member, with no real wait; advancing past
retention.ms deletes old segments at once."""

from __future__ import annotations

import json
import time
import uuid

import pytest

from odradek.testing import Broker

SESSION_TIMEOUT_MS = 6000  # group.min.session.timeout.ms


@pytest.fixture(scope="module")
def vbroker(tmp_path_factory):
    trace = tmp_path_factory.mktemp("trace") / "trace.jsonl"
    with Broker(virtual_clock=True, trace=trace, in_process=True) as b:
        b.trace_path = trace
        yield b


def wait_for(pred, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    while True:
        got = pred()
        if got:
            return got
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


def requests(b, api: str, client_id: str) -> int:
    return sum(1 for line in b.trace_path.read_text().splitlines()
               if (x := json.loads(line))["dir"] == "request" and x["api"] == api and x["client_id"] == client_id)


def create(b, topic: str, partitions: int, configs: dict | None = None) -> None:
    from confluent_kafka.admin import AdminClient, NewTopic

    admin = AdminClient({"bootstrap.servers": b.bootstrap})
    admin.create_topics([NewTopic(topic, partitions, 1, config=configs or {})])[topic].result(30)


def consumer(b, group: str, client_id: str):
    from confluent_kafka import Consumer

    return Consumer({"bootstrap.servers": b.bootstrap, "group.id": group, "client.id": client_id,
                     "session.timeout.ms": SESSION_TIMEOUT_MS, "heartbeat.interval.ms": 200,
                     "auto.offset.reset": "earliest"})


def test_session_timeout_expires_a_silent_member_when_the_clock_advances(vbroker):
    topic = group = f"vc-{uuid.uuid4().hex[:8]}"
    create(vbroker, topic, 2)
    live, dead = consumer(vbroker, group, "live"), consumer(vbroker, group, "dead")
    try:
        for c in (live, dead):
            c.subscribe([topic])

        def both_assigned():
            live.poll(0.05)
            dead.poll(0.05)
            return len(live.assignment()) == 1 and len(dead.assignment()) == 1
        wait_for(both_assigned, 60, "one partition each")
        # from now on no Heartbeat of "dead" reaches the coordinator
        with vbroker.faults.inject("Heartbeat", action="close_connection", client_id="dead"):
            # the live member heartbeats between the steps (its session restarts at the clock's now);
            # the silent one's session runs out
            for _ in range(3):
                seen = requests(vbroker, "Heartbeat", "live")
                wait_for(lambda: (live.poll(0.05), requests(vbroker, "Heartbeat", "live") > seen)[1], 30,
                         "a heartbeat of the live member")
                vbroker.clock.advance(SESSION_TIMEOUT_MS // 2)

            def live_has_both():
                live.poll(0.05)
                return len(live.assignment()) == 2
            wait_for(live_has_both, 30, "the live member assigned both partitions")
    finally:
        live.close()
        dead.close()


def test_retention_deletes_old_segments_once_the_clock_passes_retention_ms(vbroker):
    from confluent_kafka import Consumer, Producer, TopicPartition

    topic = f"ret-{uuid.uuid4().hex[:8]}"
    create(vbroker, topic, 1, {"retention.ms": "60000", "segment.bytes": str(1 << 20)})  # Kafka's least
    p = Producer({"bootstrap.servers": vbroker.bootstrap, "linger.ms": 0})
    for i in range(20):  # 2 MB: two segments and a bit
        p.produce(topic, b"x" * 100_000, key=str(i).encode())
        p.flush(30)
    c = Consumer({"bootstrap.servers": vbroker.bootstrap, "group.id": topic})
    try:
        low, high = c.get_watermark_offsets(TopicPartition(topic, 0), timeout=10)
        assert (low, high) == (0, 20)
        vbroker.clock.advance(60_000 + 1)
        lows = wait_for(lambda: (lambda lo: lo if lo > 0 else None)(
            c.get_watermark_offsets(TopicPartition(topic, 0), timeout=10)[0]), 30, "log start offset to move")
        assert 0 < lows <= 20
    finally:
        c.close()
