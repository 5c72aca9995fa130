"""kill -9 right after partitions are created (issue 28): a new log's partition.metadata and an empty
log's first leader epoch are written after the creation by a background pass (or before its first
record). Each cycle creates topics, produces to some of their partitions (acks=all) and kills the
broker at once, when other partitions' files are most likely still unwritten; the restarted broker
must start, give every partition's log the topic id the metadata holds, serve produce and consume on
every partition and keep every acknowledged record.

The cycle count is ODRADEK_KILL_CYCLES (KILL_CYCLES by default; the issue's 10 by hand).
These tests start their own broker; with --bootstrap they are skipped.
"""

from __future__ import annotations

import os
import time

import pytest

from harness import BrokerProcess

KILL_CYCLES = int(os.environ.get("ODRADEK_KILL_CYCLES", "2"))
TOPICS_PER_CYCLE = 4
PARTITIONS = 25


@pytest.fixture
def own_broker(request, tmp_path):
    if request.config.getoption("--bootstrap"):
        pytest.skip("needs a broker this suite controls (not with --bootstrap)")
    b = BrokerProcess(str(tmp_path / "data"), {"num.partitions": "1"})
    try:
        yield b
    finally:
        b.kill9()


def create(bootstrap: str, names: list[str]) -> None:
    from confluent_kafka.admin import AdminClient, NewTopic

    admin = AdminClient({"bootstrap.servers": bootstrap})
    for f in admin.create_topics([NewTopic(n, PARTITIONS, 1) for n in names], operation_timeout=60).values():
        f.result(60)


def produce(bootstrap: str, targets: list[tuple[str, int]], tag: str) -> list[tuple[str, int, int, bytes]]:
    """One record to each (topic, partition), acks=all: (topic, partition, offset, value) of each acknowledged."""
    from confluent_kafka import Producer

    p = Producer({"bootstrap.servers": bootstrap, "acks": "all", "linger.ms": 5, "message.timeout.ms": 60000})
    acked: list[tuple[str, int, int, bytes]] = []
    errors = []

    def cb(err, msg):
        if err is None:
            acked.append((msg.topic(), msg.partition(), msg.offset(), msg.value()))
        else:
            errors.append(err)
    for t, part in targets:
        p.produce(t, value=f"{tag}-{t}-{part}".encode(), partition=part, on_delivery=cb)
    p.flush(90)
    assert not errors, errors[:3]
    return acked


def consume(bootstrap: str, topics: list[str]) -> set[tuple[str, int, int, bytes]]:
    """Every record of every partition of ``topics``, read from offset 0 to the end offsets."""
    from confluent_kafka import Consumer, TopicPartition

    c = Consumer({"bootstrap.servers": bootstrap, "group.id": "k9-new", "enable.auto.commit": False})
    tps = [TopicPartition(t, p, 0) for t in topics for p in range(PARTITIONS)]
    ends = {(tp.topic, tp.partition): c.get_watermark_offsets(tp, timeout=30)[1] for tp in tps}
    c.assign(tps)
    got = set()
    want = sum(ends.values())
    deadline = time.monotonic() + 120
    while len(got) < want and time.monotonic() < deadline:
        m = c.poll(0.5)
        if m is not None and m.error() is None:
            got.add((m.topic(), m.partition(), m.offset(), m.value()))
    c.close()
    assert len(got) == want, f"read {len(got)} of {want} records"
    return got


def topic_ids(bootstrap: str, topics: list[str]) -> dict[str, str]:
    from confluent_kafka import TopicCollection
    from confluent_kafka.admin import AdminClient

    admin = AdminClient({"bootstrap.servers": bootstrap})
    out = {}
    for name, f in admin.describe_topics(TopicCollection(topics)).items():
        d = f.result(30)
        assert len(d.partitions) == PARTITIONS and all(p.leader is not None for p in d.partitions), name
        out[name] = str(d.topic_id).replace("+", "-").replace("/", "_")  # (Kafka's Uuid text is url-safe)
    return out


def recorded_id(data_dir: str, topic: str, partition: int) -> str | None:
    path = os.path.join(data_dir, f"{topic}-{partition}", "partition.metadata")
    if not os.path.exists(path):
        return None
    fields = dict(line.split(": ", 1) for line in open(path).read().splitlines() if ": " in line)
    return fields.get("topic_id")


def test_kill9_right_after_creating_partitions(own_broker):
    b = own_broker
    b.start()
    topics: list[str] = []
    acked: set[tuple[str, int, int, bytes]] = set()
    unwritten = []  # per cycle: partitions found without partition.metadata after the kill
    for cycle in range(KILL_CYCLES):
        new = [f"k9-{cycle}-{i}" for i in range(TOPICS_PER_CYCLE)]
        create(b.bootstrap, new)
        # acks=all to half of the first topic's partitions (their files go first), then kill -9 at once
        acked.update(produce(b.bootstrap, [(new[0], p) for p in range(0, PARTITIONS, 2)], f"c{cycle}"))
        b.kill9()
        topics += new
        unwritten.append(sum(recorded_id(b.data_dir, t, p) is None for t in new for p in range(PARTITIONS)))
        b.start()
        ids = topic_ids(b.bootstrap, topics)
        # every log holds its topic's id (written at the start for those the kill left without one)
        deadline = time.monotonic() + 60
        while True:
            wrong = [(t, p, recorded_id(b.data_dir, t, p)) for t in topics for p in range(PARTITIONS)
                     if recorded_id(b.data_dir, t, p) != ids[t]]
            if not wrong or time.monotonic() > deadline:
                break
            time.sleep(0.2)
        assert not wrong, (f"cycle {cycle}: partitions without their topic id {ids}: {wrong[:5]} (of {len(wrong)})\n"
                           + "".join(b.output[-80:]))
        # produce and consume work on every partition; nothing acknowledged is lost
        acked.update(produce(b.bootstrap, [(t, p) for t in new for p in range(PARTITIONS)], f"after{cycle}"))
        got = consume(b.bootstrap, topics)
        lost = acked - got
        assert not lost, f"cycle {cycle}: acknowledged records lost: {sorted(lost)[:5]}"
    print(f"partitions without partition.metadata right after each kill -9: {unwritten} "
          f"(of {TOPICS_PER_CYCLE * PARTITIONS} created per cycle)")
    assert b.stop() == 0
