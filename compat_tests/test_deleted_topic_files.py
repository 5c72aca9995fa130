"""A deleted topic's files, as Kafka's LogManager handles them: the partition directory is
renamed `<topic>-<partition>.<id>-delete` at once and removed log.segment.delete.delay.ms
later (file.delete.delay.ms is its topic-level name).

Needs the broker's data directory, so it skips with --bootstrap.
"""

from __future__ import annotations

import os
import time

from harness import create_topic

DELAY_MS = 3000
BROKER_OVERRIDES = {"log.segment.delete.delay.ms": str(DELAY_MS)}


def _entries(data_dir: str, topic: str) -> list[str]:
    return sorted(n for n in os.listdir(data_dir) if n.startswith(topic + "-"))


def test_deleted_topic_dir_renamed_then_removed_after_the_delay(controllable_broker, topic_name):
    from confluent_kafka import Producer
    from confluent_kafka.admin import AdminClient, ConfigResource

    bs, data_dir = controllable_broker.bootstrap, controllable_broker.data_dir
    create_topic(bs, topic_name, 2)
    p = Producer({"bootstrap.servers": bs})
    for i in range(200):
        p.produce(topic_name, value=b"v%d" % i, partition=i % 2)
    assert p.flush(20) == 0
    assert _entries(data_dir, topic_name) == [f"{topic_name}-0", f"{topic_name}-1"]

    admin = AdminClient({"bootstrap.servers": bs})
    res = ConfigResource(ConfigResource.Type.TOPIC, topic_name)
    conf = admin.describe_configs([res])[res].result(10)
    assert conf["file.delete.delay.ms"].value == str(DELAY_MS)  # the broker setting is the default

    admin.delete_topics([topic_name])[topic_name].result(10)
    t0 = time.monotonic()
    deadline = t0 + 60
    while _entries(data_dir, topic_name) and not all(n.endswith("-delete") for n in _entries(data_dir, topic_name)):
        assert time.monotonic() < deadline, _entries(data_dir, topic_name)
        time.sleep(0.02)
    renamed = _entries(data_dir, topic_name)
    assert len(renamed) == 2, renamed  # both partitions wait under their new names
    for n in renamed:
        name, _, tail = n.partition(".")
        assert name in (f"{topic_name}-0", f"{topic_name}-1")
        assert tail.endswith("-delete") and len(tail) == len("-delete") + 32
    while _entries(data_dir, topic_name):
        assert time.monotonic() < t0 + 60, _entries(data_dir, topic_name)
        time.sleep(0.05)
    assert time.monotonic() - t0 >= DELAY_MS / 1000 - 0.2  # not before the delay

    # a topic of the same name works at once, whatever is still waiting
    create_topic(bs, topic_name, 1)
    p.produce(topic_name, value=b"again")
    assert p.flush(20) == 0
