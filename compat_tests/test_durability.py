"""Durability: restart and kill -9 the broker; everything acknowledged is still there.

These tests need a broker this suite controls; with --bootstrap they are skipped.
"""

from __future__ import annotations

import threading
import time

import pytest

from harness import create_topic, wait_for_topic


def consume_all(bootstrap, topic, n, partitions=1, timeout=60):
    from confluent_kafka import Consumer, TopicPartition

    c = Consumer({"bootstrap.servers": bootstrap, "group.id": "dur-" + topic, "enable.auto.commit": False})
    c.assign([TopicPartition(topic, p, 0) for p in range(partitions)])
    got = []
    deadline = time.monotonic() + timeout
    while len(got) < n and time.monotonic() < deadline:
        m = c.poll(0.5)
        if m is not None and m.error() is None:
            got.append((m.partition(), m.offset(), m.key(), m.value()))
    c.close()
    return got


def produce_acked(bootstrap, topic, values, acks="all", **extra):
    from confluent_kafka import Producer

    conf = {"bootstrap.servers": bootstrap, "acks": acks, "linger.ms": 2}
    conf.update(extra)
    p = Producer(conf)
    acked = []
    p_errors = []

    def cb(err, msg):
        if err is None:
            acked.append((msg.partition(), msg.offset(), msg.value()))
        else:
            p_errors.append(err)

    for v in values:
        p.produce(topic, value=v, on_delivery=cb)
    p.flush(20)
    return acked, p_errors


def test_restart_keeps_topics_records_and_configs(controllable_broker, topic_name):
    b = controllable_broker
    create_topic(b.bootstrap, topic_name, partitions=3, configs={"retention.ms": "123456789"})
    acked, errors = produce_acked(b.bootstrap, topic_name, [b"r%d" % i for i in range(300)])
    assert not errors and len(acked) == 300
    b.restart()
    wait_for_topic(b.bootstrap, topic_name, 3)
    got = consume_all(b.bootstrap, topic_name, 300, partitions=3)
    assert sorted((p, o, v) for p, o, _, v in got) == sorted(acked)
    from confluent_kafka.admin import AdminClient, ConfigResource

    admin = AdminClient({"bootstrap.servers": b.bootstrap})
    res = ConfigResource(ConfigResource.Type.TOPIC, topic_name)
    cfg = admin.describe_configs([res])[res].result(10)
    assert cfg["retention.ms"].value == "123456789"
    # offsets continue after the restart
    more, errors = produce_acked(b.bootstrap, topic_name, [b"after"])
    assert not errors
    p = more[0][0]
    assert more[0][1] == max((o for pp, o, _ in acked if pp == p), default=-1) + 1


def test_restart_mid_stream_keeps_everything_acked(controllable_broker, topic_name):
    """A producer keeps sending while the broker restarts; every acked record survives."""
    from confluent_kafka import Producer

    b = controllable_broker
    create_topic(b.bootstrap, topic_name)
    p = Producer({"bootstrap.servers": b.bootstrap, "acks": "all", "linger.ms": 1,
                  "enable.idempotence": True, "message.timeout.ms": 30000,
                  "reconnect.backoff.ms": 50, "reconnect.backoff.max.ms": 200})
    acked = []
    lock = threading.Lock()

    def cb(err, msg):
        if err is None:
            with lock:
                acked.append(msg.value())

    for i in range(500):
        p.produce(topic_name, value=b"a%d" % i, on_delivery=cb)
    p.flush(10)
    b.restart()
    for i in range(500):
        p.produce(topic_name, value=b"b%d" % i, on_delivery=cb)
    assert p.flush(30) == 0
    assert len(acked) == 1000
    got = [v for _, _, _, v in consume_all(b.bootstrap, topic_name, 1000)]
    assert got == [b"a%d" % i for i in range(500)] + [b"b%d" % i for i in range(500)]


def test_kill9_after_acks_all_loses_nothing(controllable_broker, topic_name):
    b = controllable_broker
    create_topic(b.bootstrap, topic_name, partitions=2)
    acked, errors = produce_acked(b.bootstrap, topic_name, [b"k%d" % i for i in range(2000)], acks="all")
    assert not errors and len(acked) == 2000
    b.kill9()
    b.start()
    wait_for_topic(b.bootstrap, topic_name, 2)
    got = consume_all(b.bootstrap, topic_name, 2000, partitions=2)
    assert sorted((p, o, v) for p, o, _, v in got) == sorted(acked)


def test_kill9_during_produce_keeps_acked_prefix(controllable_broker, topic_name):
    """kill -9 while a producer is writing: each partition keeps at least every acked
    record, in order, and the log is consistent (readable to its end) after recovery."""
    from confluent_kafka import Producer

    b = controllable_broker
    create_topic(b.bootstrap, topic_name)
    p = Producer({"bootstrap.servers": b.bootstrap, "acks": "all", "linger.ms": 0, "enable.idempotence": False,
                  "message.timeout.ms": 3000, "retries": 0})
    acked = []
    p.produce(topic_name, value=b"warm", on_delivery=lambda e, m: e is None and acked.append(m.value()))
    p.flush(5)
    killer = threading.Timer(0.3, b.kill9)
    killer.start()
    t_end = time.monotonic() + 0.6
    i = 0
    while time.monotonic() < t_end:
        p.produce(topic_name, value=b"v%d" % i,
                  on_delivery=lambda e, m: e is None and acked.append(m.value()))
        p.poll(0)
        i += 1
        if i % 200 == 0:
            time.sleep(0.001)
    killer.join()
    p.flush(5)
    b.start()
    wait_for_topic(b.bootstrap, topic_name, 1)
    from confluent_kafka import Consumer, TopicPartition

    c = Consumer({"bootstrap.servers": b.bootstrap, "group.id": "k9", "enable.auto.commit": False})
    lo, hi = c.get_watermark_offsets(TopicPartition(topic_name, 0), timeout=10)
    c.close()
    got = [v for _, _, _, v in consume_all(b.bootstrap, topic_name, hi)]
    assert len(got) == hi
    assert set(acked) <= set(got), "an acknowledged record was lost"


def test_kill9_among_rolls_keeps_an_idempotent_producer_going(controllable_broker, topic_name):
    """Segments roll every few batches (segment.ms 20) under an idempotent acks=all producer; the
    broker leaves each roll's fsyncs and producer snapshot to its background pass. kill -9 in the
    middle, a restart, and the same producer goes on: every record acknowledged once, none twice, in
    order per partition, and no OutOfOrderSequence (librdkafka fails the producer with a fatal error)."""
    from confluent_kafka import Producer

    b = controllable_broker
    create_topic(b.bootstrap, topic_name, partitions=2, configs={"segment.ms": "20"})
    p = Producer({"bootstrap.servers": b.bootstrap, "acks": "all", "linger.ms": 5,
                  "enable.idempotence": True, "message.timeout.ms": 120000,
                  "reconnect.backoff.ms": 50, "reconnect.backoff.max.ms": 200})
    acked: list[tuple[int, int, bytes]] = []
    failed = []
    lock = threading.Lock()

    def cb(err, msg):
        with lock:
            if err is None:
                acked.append((msg.partition(), msg.offset(), msg.value()))
            else:
                failed.append(err)

    sent = 0
    while sent < 6000:
        p.produce(topic_name, value=b"x%05d-" % sent + b"p" * 200, on_delivery=cb)
        sent += 1
        p.poll(0)
        if sent % 100 == 0:
            p.flush(30)  # (acknowledged batches apart in time: segment.ms rolls between them)
        if sent == 3000:  # records in flight, rolls just made
            b.kill9()
            b.start()
    assert p.flush(120) == 0
    assert not failed, failed[:3]
    assert len(acked) == sent
    wait_for_topic(b.bootstrap, topic_name, 2)
    got = consume_all(b.bootstrap, topic_name, sent, partitions=2)
    values = [v for _, _, _, v in got]
    assert len(values) == len(set(values)), "a record is in the log twice"
    assert sorted((q, o, v) for q, o, _, v in got) == sorted(acked)
    for q in (0, 1):  # the producer's order, per partition
        part = [v for pp, _, _, v in sorted(got, key=lambda r: (r[0], r[1])) if pp == q]
        assert part == sorted(part)


@pytest.mark.parametrize("signal_name", ["SIGTERM", "SIGINT"])
def test_clean_shutdown_signals(tmp_path, signal_name):
    """SIGTERM / SIGINT: exit code 0 and clean-shutdown markers (no recovery next time)."""
    import os
    import signal

    from harness import BrokerProcess

    b = BrokerProcess(str(tmp_path / "data"))
    b.start()
    try:
        produce_acked(b.bootstrap, "sig", [b"x"], acks="1")
        b.proc.send_signal(getattr(signal, signal_name))
        assert b.proc.wait(20) == 0
        b.proc = None
        # the log dir's marker (as Kafka's), for every log in it
        assert os.path.exists(tmp_path / "data" / ".kafka_cleanshutdown")
        assert not os.path.exists(tmp_path / "data" / "sig-0" / ".clean-shutdown")
    finally:
        b.kill9()


def test_restart_and_config_errors_are_clear(tmp_path):
    """A broker restarts on its data and serves again; bad settings are named. (How fast it
    starts is measured by bench/e2e_bench.py's startup_s against Kafka, not asserted here:
    a wall-clock bound fails on a loaded machine and proves nothing on a quiet one.)"""
    import subprocess
    import sys

    from harness import REPO, BrokerProcess

    b = BrokerProcess(str(tmp_path / "data"))
    b.start()
    try:
        first = b.startup_s
        create_topic(b.bootstrap, "restart-fast", 1)
        acked, errors = produce_acked(b.bootstrap, "restart-fast", [b"before"])
        assert not errors and len(acked) == 1
        b.restart()
        assert [(m[1], m[3]) for m in consume_all(b.bootstrap, "restart-fast", 1)] == [(0, b"before")]
    finally:
        b.stop()
    assert first is not None
    # as Kafka: a setting it does not use is named in a warning, and the broker starts
    u = BrokerProcess(str(tmp_path / "unused"), {"no.such.property": "1"})
    u.start()
    try:
        assert any("no.such.property" in line for line in u.output), u.output
    finally:
        u.stop()
    for bad in ("num.partitions=zero", "auto.create.topics.enable=maybe", "log.retention.ms=soon"):
        r = subprocess.run([sys.executable, "-m", "odradek", "serve", "--data-dir", str(tmp_path / "x"),
                            "--override", bad], capture_output=True, text=True, cwd=str(REPO), timeout=30)
        assert r.returncode != 0
        assert bad.split("=")[0] in r.stderr
