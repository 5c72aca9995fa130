"""What a stock consumer (confluent-kafka) reads from a compacted topic as the log
cleaner works, as on Kafka 4.3: max.compaction.lag.ms gets a log cleaned although its
dirty ratio is below min.cleanable.dirty.ratio; a tombstone outlives the pass that
first sees it (KIP-534 delete horizon = that pass + delete.retention.ms) and goes on
a later pass. Runs unchanged against Apache Kafka (`--bootstrap`); there, with Kafka's
default cleaner backoff (15 s), it takes up to a minute."""
from __future__ import annotations

import time

from confluent_kafka import OFFSET_BEGINNING, Consumer, Producer, TopicPartition

from harness import create_topic

WAIT_S = 75  # two default cleaner backoffs and then some
BROKER_OVERRIDES = {"log.cleaner.backoff.ms": "1000"}


def _produce(bootstrap: str, topic: str, recs) -> None:
    p = Producer({"bootstrap.servers": bootstrap, "linger.ms": 0})
    for k, v in recs:  # one batch per record: flush after each
        p.produce(topic, key=k, value=v)
        p.flush(10)
    p.flush(10)


def _read(bootstrap: str, topic: str) -> list[tuple[int, bytes, bytes | None]]:
    c = Consumer({"bootstrap.servers": bootstrap, "group.id": "compat-reader",
                  "enable.auto.commit": False, "enable.partition.eof": True})
    try:
        _, high = c.get_watermark_offsets(TopicPartition(topic, 0), timeout=10)
        c.assign([TopicPartition(topic, 0, OFFSET_BEGINNING)])
        out = []
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            m = c.poll(1)
            if m is None:
                continue
            if m.error():
                if m.offset() >= high or not out and high == 0:
                    break
                continue
            out.append((m.offset(), m.key(), m.value()))
            if m.offset() >= high - 1:
                break
        return out
    finally:
        c.close()


def _wait_for(bootstrap: str, topic: str, want) -> list:
    deadline = time.monotonic() + WAIT_S
    while True:
        got = _read(bootstrap, topic)
        if got == want:
            return got
        if time.monotonic() > deadline:
            raise AssertionError(f"{topic}: read {got}, expected {want}")
        time.sleep(1)


def test_compacted_topic_lag_and_tombstones(bootstrap, topic_name):
    lag_topic, tomb_topic = topic_name + "-lag", topic_name + "-tomb"
    # a dirty ratio (~0.1) below 0.99 later on: only max.compaction.lag.ms cleans it then
    create_topic(bootstrap, lag_topic, 1, configs={
        "cleanup.policy": "compact", "min.cleanable.dirty.ratio": "0.99",
        "max.compaction.lag.ms": "3000"})
    create_topic(bootstrap, tomb_topic, 1, configs={
        "cleanup.policy": "compact", "min.cleanable.dirty.ratio": "0.01",
        "segment.ms": "1500", "delete.retention.ms": "2000"})
    big = b"x" * 500
    _produce(bootstrap, lag_topic, [(b"k0", b"old"), (b"k0", big)] + [(b"k%d" % i, big) for i in range(1, 10)])
    _produce(bootstrap, tomb_topic, [(b"a", b"a1"), (b"b", b"b1"), (b"a", b"a2"), (b"b", None), (b"c", None)])
    time.sleep(3.2)
    # these appends roll the first segments (max.compaction.lag.ms / segment.ms)
    _produce(bootstrap, lag_topic, [(b"a", b"a1")])
    _produce(bootstrap, tomb_topic, [(b"t", b"t1")])
    lag_first = [(1, b"k0", big)] + [(i, b"k%d" % (i - 1), big) for i in range(2, 11)] + [(11, b"a", b"a1")]
    # first pass: superseded records go, the tombstones stay (their horizon starts now)
    _wait_for(bootstrap, tomb_topic, [(2, b"a", b"a2"), (3, b"b", None), (4, b"c", None), (5, b"t", b"t1")])
    _wait_for(bootstrap, lag_topic, lag_first)
    _produce(bootstrap, lag_topic, [(b"a", b"a2")])
    time.sleep(3.2)  # past the tombstones' horizon and the lag
    _produce(bootstrap, lag_topic, [(b"z", b"z1")])
    _produce(bootstrap, tomb_topic, [(b"t", b"t2")])
    # k0..k9 stand; a1 (offset 11) may already be cleaned: its lag has passed, so a pass may run
    # before this read (a race the test lost under load in a clean-clone CI run)
    assert _read(bootstrap, lag_topic)[:10] == lag_first[:10]
    # a pass after the horizon drops the tombstones; the lag cleans a1 (ratio ~0.1 < 0.99)
    _wait_for(bootstrap, tomb_topic, [(2, b"a", b"a2"), (5, b"t", b"t1"), (6, b"t", b"t2")])
    _wait_for(bootstrap, lag_topic, lag_first[:-1] + [(12, b"a", b"a2"), (13, b"z", b"z1")])


def _set_cleaner_backoff(bootstrap: str, value: str | None) -> None:
    """IncrementalAlterConfigs on broker 1: log.cleaner.backoff.ms SET value, or DELETE (None)."""
    from confluent_kafka.admin import (AdminClient, AlterConfigOpType, ConfigEntry, ConfigResource,
                                       ResourceType)

    op = AlterConfigOpType.DELETE if value is None else AlterConfigOpType.SET
    res = ConfigResource(ResourceType.BROKER, "1", incremental_configs=[
        ConfigEntry("log.cleaner.backoff.ms", value or "", incremental_operation=op)])
    admin = AdminClient({"bootstrap.servers": bootstrap})
    for f in admin.incremental_alter_configs([res]).values():
        f.result(30)


def test_cleaner_backoff_is_dynamic(bootstrap, topic_name):
    # Kafka 4.3 takes log.cleaner.backoff.ms per broker at run time (LogCleaner restarts its threads
    # with it); sarama's functional suite alters it. An hour's backoff: no pass cleans the topic...
    _set_cleaner_backoff(bootstrap, "3600000")
    try:
        create_topic(bootstrap, topic_name, 1, configs={
            "cleanup.policy": "compact", "min.cleanable.dirty.ratio": "0.01", "segment.ms": "1000"})
        _produce(bootstrap, topic_name, [(b"a", b"a1"), (b"a", b"a2")])
        time.sleep(1.2)
        _produce(bootstrap, topic_name, [(b"b", b"b1")])  # rolls the first segment
        assert _read(bootstrap, topic_name) == [(0, b"a", b"a1"), (1, b"a", b"a2"), (2, b"b", b"b1")]
        # ...until the backoff is lowered: a pass then, a1 goes
        _set_cleaner_backoff(bootstrap, "200")
        _wait_for(bootstrap, topic_name, [(1, b"a", b"a2"), (2, b"b", b"b1")])
    finally:
        _set_cleaner_backoff(bootstrap, None)  # back to the static 1000 of this module's broker
