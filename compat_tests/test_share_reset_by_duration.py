"""share.auto.offset.reset=by_duration:<ISO 8601 duration> with confluent-kafka's ShareConsumer: a new
share-partition starts at the first record whose timestamp is within the duration of now (Kafka 4.3's
SharePartition.startOffsetDuringInitialization, a ListOffsets by timestamp), so the records older
than that are never delivered and the recent ones are. Passes against Kafka 4.3 too:
`python compat_tests/run_against_kafka.py -q -k share_reset_by_duration`."""

from __future__ import annotations

import time
import uuid

import pytest

from harness import create_topic

ck = pytest.importorskip("confluent_kafka")
if not hasattr(ck, "ShareConsumer"):
    pytest.skip("this confluent-kafka has no ShareConsumer", allow_module_level=True)


def test_by_duration_delivers_only_the_records_within_the_duration(bootstrap):
    from confluent_kafka.admin import AdminClient, AlterConfigOpType, ConfigEntry, ConfigResource

    topic, group = f"sbd-{uuid.uuid4().hex[:8]}", f"sbd-g-{uuid.uuid4().hex[:8]}"
    create_topic(bootstrap, topic, 1)
    now_ms = int(time.time() * 1000)
    p = ck.Producer({"bootstrap.servers": bootstrap})
    for i in range(3):  # two hours old
        p.produce(topic, value=f"old{i}".encode(), partition=0, timestamp=now_ms - 7_200_000 + i)
    for i in range(2):  # recent
        p.produce(topic, value=f"new{i}".encode(), partition=0, timestamp=now_ms - 1_000 + i)
    assert p.flush(10) == 0
    admin = AdminClient({"bootstrap.servers": bootstrap})
    res = ConfigResource(ConfigResource.Type.GROUP, group, incremental_configs=[
        ConfigEntry("share.auto.offset.reset", "by_duration:PT1H", incremental_operation=AlterConfigOpType.SET)])
    for f in admin.incremental_alter_configs([res], request_timeout=10).values():
        f.result()
    c = ck.ShareConsumer({"bootstrap.servers": bootstrap, "group.id": group})
    try:
        c.subscribe([topic])
        got = []
        deadline = time.time() + 60
        while len(got) < 2 and time.time() < deadline:
            got += [m for m in c.poll(timeout=0.5) if not m.error()]
        assert sorted((m.offset(), m.value()) for m in got) == [(3, b"new0"), (4, b"new1")]
    finally:
        c.close()
