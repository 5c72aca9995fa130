"""Consumer groups with confluent-kafka (librdkafka) and aiokafka: split, rebalance, commits,
static membership, admin list/describe."""

from __future__ import annotations

import asyncio
import time
import uuid

import pytest

from harness import create_topic

BROKER_OVERRIDES = {"group.initial.rebalance.delay.ms": "200"}
SESSION_MS = 6000


def _g():
    return f"g-{uuid.uuid4().hex[:8]}"


def test_confluent_two_consumers_split_commit_and_leave(bootstrap, topic_name):
    ck = pytest.importorskip("confluent_kafka")
    create_topic(bootstrap, topic_name, partitions=4)
    group = _g()
    p = ck.Producer({"bootstrap.servers": bootstrap})
    for i in range(40):
        p.produce(topic_name, f"v{i}".encode(), partition=i % 4)
    p.flush(10)

    def mk():
        c = ck.Consumer({"bootstrap.servers": bootstrap, "group.id": group, "auto.offset.reset": "earliest",
                         "enable.auto.commit": False, "session.timeout.ms": SESSION_MS,
                         "heartbeat.interval.ms": 500})
        c.subscribe([topic_name])
        return c

    c1, c2 = mk(), mk()
    seen = []
    end = time.time() + 60
    while time.time() < end and not (len(c1.assignment()) == 2 and len(c2.assignment()) == 2 and len(seen) >= 40):
        for c in (c1, c2):
            m = c.poll(0.1)
            if m is not None and not m.error():
                seen.append((m.partition(), m.offset()))
                c.commit(message=m, asynchronous=False)
    assert len(c1.assignment()) == 2 and len(c2.assignment()) == 2
    assert len(seen) == 40 and len(set(seen)) == 40
    committed = c1.committed([ck.TopicPartition(topic_name, i) for i in range(4)], timeout=10)
    assert sorted(tp.offset for tp in committed) == [10, 10, 10, 10]
    c2.close()  # leaves the group: c1 takes everything
    end = time.time() + 60
    while time.time() < end and len(c1.assignment()) != 4:
        c1.poll(0.1)
    assert len(c1.assignment()) == 4
    admin = ck.admin.AdminClient({"bootstrap.servers": bootstrap})
    listed = admin.list_consumer_groups().result(10)
    assert group in {g.group_id for g in listed.valid}
    desc = admin.describe_consumer_groups([group])[group].result(10)
    assert str(desc.state).endswith("STABLE") and len(desc.members) == 1
    c1.close()


def test_confluent_static_member_restart_keeps_generation(bootstrap, topic_name):
    ck = pytest.importorskip("confluent_kafka")
    create_topic(bootstrap, topic_name, partitions=2)
    group = _g()
    conf = {"bootstrap.servers": bootstrap, "group.id": group, "group.instance.id": "static-1",
            "session.timeout.ms": 20000, "heartbeat.interval.ms": 500}
    c = ck.Consumer(conf)
    c.subscribe([topic_name])
    end = time.time() + 60
    while time.time() < end and len(c.assignment()) != 2:
        c.poll(0.1)
    assert len(c.assignment()) == 2
    admin = ck.admin.AdminClient({"bootstrap.servers": bootstrap})
    before = admin.describe_consumer_groups([group])[group].result(10)
    c.close()  # static: no LeaveGroup, the member stays
    mid = admin.describe_consumer_groups([group])[group].result(10)
    assert len(mid.members) == 1 and mid.members[0].group_instance_id == "static-1"
    c = ck.Consumer(conf)
    c.subscribe([topic_name])
    end = time.time() + 60
    while time.time() < end and len(c.assignment()) != 2:
        c.poll(0.1)
    assert len(c.assignment()) == 2
    after = admin.describe_consumer_groups([group])[group].result(10)
    assert str(after.state).endswith("STABLE") and len(after.members) == 1
    assert after.members[0].member_id != before.members[0].member_id  # replaced, not added
    c.close()


def test_aiokafka_group_split_and_commit(bootstrap, topic_name):
    aiokafka = pytest.importorskip("aiokafka")
    create_topic(bootstrap, topic_name, partitions=4)
    group = _g()

    async def main():
        prod = aiokafka.AIOKafkaProducer(bootstrap_servers=bootstrap)
        await prod.start()
        for i in range(20):
            await prod.send_and_wait(topic_name, f"v{i}".encode(), partition=i % 4)
        await prod.stop()

        def mk():
            return aiokafka.AIOKafkaConsumer(topic_name, bootstrap_servers=bootstrap, group_id=group,
                                             auto_offset_reset="earliest", enable_auto_commit=False,
                                             session_timeout_ms=SESSION_MS, heartbeat_interval_ms=500)

        c1 = mk()
        await c1.start()
        seen = []

        async def consume(c, until):
            while time.time() < until:
                batch = await c.getmany(timeout_ms=100)
                for tp, msgs in batch.items():
                    seen.extend((tp.partition, m.offset) for m in msgs)
                if batch:
                    await c.commit()

        end = time.time() + 60  # c1 alone reads (and commits) everything first
        while time.time() < end and len(seen) < 20:
            await consume(c1, time.time() + 0.3)
        c2 = mk()
        await c2.start()
        end = time.time() + 60
        while time.time() < end and not (len(c1.assignment()) == 2 and len(c2.assignment()) == 2):
            await asyncio.gather(consume(c1, time.time() + 0.3), consume(c2, time.time() + 0.3))
        assert len(c1.assignment()) == 2 and len(c2.assignment()) == 2
        assert len(seen) == 20 and len(set(seen)) == 20
        committed = [await c2.committed(aiokafka.TopicPartition(topic_name, i)) for i in range(4)]
        assert committed == [5, 5, 5, 5]
        await c2.stop()
        end = time.time() + 60
        while time.time() < end and len(c1.assignment()) != 4:
            await consume(c1, time.time() + 0.3)
        assert len(c1.assignment()) == 4
        await c1.stop()

    asyncio.run(main())
