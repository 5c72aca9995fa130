"""Admin APIs with stock clients: kafka-python, confluent-kafka (librdkafka), aiokafka."""

from __future__ import annotations

import asyncio
import time
import uuid

import pytest


def _name(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


# Kafka answers an admin request once the controller has committed it; the broker that
# serves the next Metadata/DescribeConfigs applies the record a moment later.
def _eventually(get, ok, timeout: float = 60.0):
    """get() until ok(value) or the timeout; the last value (the caller asserts on it)."""
    deadline = time.monotonic() + timeout
    while True:
        v = get()
        if ok(v) or time.monotonic() > deadline:
            return v
        time.sleep(0.1)


async def _eventually_async(get, ok, timeout: float = 60.0):
    deadline = time.monotonic() + timeout
    while True:
        v = await get()
        if ok(v) or time.monotonic() > deadline:
            return v
        await asyncio.sleep(0.1)


# ----------------------------------------------------------------------------- kafka-python


@pytest.fixture
def kp_admin(bootstrap):
    from kafka.admin import KafkaAdminClient

    a = KafkaAdminClient(bootstrap_servers=bootstrap, request_timeout_ms=10000)
    yield a
    a.close()


def test_kafka_python_create_describe_delete(kp_admin):
    from kafka.admin import NewTopic

    name = _name("kp")
    kp_admin.create_topics([NewTopic(name, 3, 1, topic_configs={"retention.ms": "123456"})])
    assert name in _eventually(kp_admin.list_topics, lambda ts: name in ts)
    [desc] = kp_admin.describe_topics([name])
    assert desc["error_code"] == 0 and len(desc["partitions"]) == 3
    p0 = desc["partitions"][0]
    assert p0.get("leader", p0.get("leader_id")) == p0.get("replicas", p0.get("replica_nodes"))[0]
    kp_admin.delete_topics([name])
    assert name not in _eventually(kp_admin.list_topics, lambda ts: name not in ts)


def test_kafka_python_errors(kp_admin):
    from kafka.admin import NewTopic
    from kafka.errors import InvalidReplicationFactorError, InvalidTopicError, TopicAlreadyExistsError

    name = _name("kp-err")
    kp_admin.create_topics([NewTopic(name, 1, 1)])
    with pytest.raises(TopicAlreadyExistsError):
        kp_admin.create_topics([NewTopic(name, 1, 1)])
    with pytest.raises(InvalidTopicError):
        kp_admin.create_topics([NewTopic("bad name!", 1, 1)])
    with pytest.raises(InvalidReplicationFactorError):
        kp_admin.create_topics([NewTopic(_name("kp-rf"), 1, 3)])


def test_kafka_python_partitions_and_configs(kp_admin):
    from kafka.admin import ConfigResource, ConfigResourceType, NewPartitions, NewTopic

    name = _name("kp-cfg")
    kp_admin.create_topics([NewTopic(name, 1, 1)])
    kp_admin.create_partitions({name: NewPartitions(4)})
    [desc] = _eventually(lambda: kp_admin.describe_topics([name]), lambda d: len(d[0]["partitions"]) == 4)
    assert len(desc["partitions"]) == 4
    kp_admin.alter_configs([ConfigResource(ConfigResourceType.TOPIC, name, configs={"cleanup.policy": "compact"})])
    res = _eventually(lambda: kp_admin.describe_configs([ConfigResource(ConfigResourceType.TOPIC, name)]),
                      lambda r: "compact" in repr(r))
    if isinstance(res, dict):  # kafka-python 3.x: {"topic": {name: {key: {...}}}}, overrides only
        cfg = res["topic"][name]["cleanup.policy"]
        assert (cfg["value"], cfg["config_source"]) == ("compact", "DYNAMIC_TOPIC_CONFIG")
    else:  # 2.x: raw responses
        configs = {c[0]: c[1] for c in res[0].resources[0][4]}
        assert configs["cleanup.policy"] == "compact"


# ----------------------------------------------------------------------------- confluent-kafka


@pytest.fixture
def ck_admin(bootstrap):
    from confluent_kafka.admin import AdminClient

    return AdminClient({"bootstrap.servers": bootstrap})


def test_confluent_create_describe_delete(ck_admin):
    from confluent_kafka.admin import NewTopic

    name = _name("ck")
    fs = ck_admin.create_topics([NewTopic(name, num_partitions=2, replication_factor=1,
                                          config={"max.message.bytes": "200000"})], operation_timeout=10)
    fs[name].result(10)
    md = _eventually(lambda: ck_admin.list_topics(timeout=10), lambda m: name in m.topics)
    assert name in md.topics and len(md.topics[name].partitions) == 2
    from confluent_kafka import TopicCollection

    desc = ck_admin.describe_topics(TopicCollection([name]))[name].result(10)
    assert len(desc.partitions) == 2 and desc.topic_id is not None
    cluster = ck_admin.describe_cluster().result(10)
    assert cluster.cluster_id and len(cluster.nodes) == 1
    ck_admin.delete_topics([name], operation_timeout=10)[name].result(10)
    assert name not in _eventually(lambda: ck_admin.list_topics(timeout=10).topics, lambda ts: name not in ts)


def test_confluent_errors_and_validate_only(ck_admin):
    from confluent_kafka import KafkaError, KafkaException
    from confluent_kafka.admin import NewTopic

    fs = ck_admin.create_topics([NewTopic("bad name", 1, 1), NewTopic(_name("ck-rf"), 1, 3),
                                 NewTopic(_name("ck-p"), 0, 1)])
    codes = {}
    for n, f in fs.items():
        with pytest.raises(KafkaException) as ei:
            f.result(10)
        codes[n] = ei.value.args[0].code()
    assert codes["bad name"] == KafkaError.TOPIC_EXCEPTION
    assert sorted(codes.values()) == sorted([KafkaError.TOPIC_EXCEPTION, KafkaError.INVALID_REPLICATION_FACTOR,
                                             KafkaError.INVALID_PARTITIONS])
    name = _name("ck-vo")
    ck_admin.create_topics([NewTopic(name, 1, 1)], validate_only=True)[name].result(10)
    assert name not in ck_admin.list_topics(timeout=10).topics


def test_confluent_configs(ck_admin):
    from confluent_kafka.admin import (AlterConfigOpType, ConfigEntry, ConfigResource, ConfigSource, NewPartitions,
                                       NewTopic)

    name = _name("ck-cfg")
    ck_admin.create_topics([NewTopic(name, 1, 1)])[name].result(10)
    ck_admin.create_partitions([NewPartitions(name, 3)])[name].result(10)
    md = _eventually(lambda: ck_admin.list_topics(timeout=10),
                     lambda m: name in m.topics and len(m.topics[name].partitions) == 3)
    assert len(md.topics[name].partitions) == 3
    res = ConfigResource("topic", name, incremental_configs=[
        ConfigEntry("retention.ms", "60000", incremental_operation=AlterConfigOpType.SET)])
    list(ck_admin.incremental_alter_configs([res]).values())[0].result(10)
    got = _eventually(lambda: list(ck_admin.describe_configs([ConfigResource("topic", name)]).values())[0].result(10),
                      lambda g: g["retention.ms"].value == "60000")
    assert got["retention.ms"].value == "60000"
    assert got["retention.ms"].source == ConfigSource.DYNAMIC_TOPIC_CONFIG.value
    assert got["segment.bytes"].source == ConfigSource.DEFAULT_CONFIG.value
    bad = ConfigResource("topic", name, incremental_configs=[
        ConfigEntry("retention.ms", "abc", incremental_operation=AlterConfigOpType.SET)])
    from confluent_kafka import KafkaException

    with pytest.raises(KafkaException):
        list(ck_admin.incremental_alter_configs([bad]).values())[0].result(10)


def test_confluent_invalid_config_writes_nothing_and_topic_still_works(ck_admin, bootstrap):
    """INVALID_CONFIG is decided before any record is written: the topic keeps its
    config, still takes produce/fetch, and later alters apply (no listener failure)."""
    from confluent_kafka import Consumer, KafkaError, KafkaException, Producer, TopicPartition
    from confluent_kafka.admin import AlterConfigOpType, ConfigEntry, ConfigResource, NewTopic

    name = _name("ck-badcfg")
    ck_admin.create_topics([NewTopic(name, 1, 1, config={"cleanup.policy": "delete"})])[name].result(10)
    bad = ConfigResource("topic", name, incremental_configs=[
        ConfigEntry("min.cleanable.dirty.ratio", "1.5", incremental_operation=AlterConfigOpType.SET),
        ConfigEntry("retention.ms", "60000", incremental_operation=AlterConfigOpType.SET)])
    with pytest.raises(KafkaException) as ei:
        list(ck_admin.incremental_alter_configs([bad]).values())[0].result(10)
    assert ei.value.args[0].code() == KafkaError.INVALID_CONFIG
    got = list(ck_admin.describe_configs([ConfigResource("topic", name)]).values())[0].result(10)
    assert got["min.cleanable.dirty.ratio"].value == "0.5"
    assert got["retention.ms"].value == "604800000"  # nothing of the rejected request applied
    ok = ConfigResource("topic", name, incremental_configs=[
        ConfigEntry("retention.bytes", "-5", incremental_operation=AlterConfigOpType.SET),
        ConfigEntry("retention.ms", "60000", incremental_operation=AlterConfigOpType.SET)])
    list(ck_admin.incremental_alter_configs([ok]).values())[0].result(10)
    got = _eventually(lambda: list(ck_admin.describe_configs([ConfigResource("topic", name)]).values())[0].result(10),
                      lambda g: g["retention.ms"].value == "60000")
    assert got["retention.ms"].value == "60000" and got["retention.bytes"].value == "-5"
    p = Producer({"bootstrap.servers": bootstrap})
    p.produce(name, b"still-works")
    assert p.flush(10) == 0
    c = Consumer({"bootstrap.servers": bootstrap, "group.id": f"g-{name}", "auto.offset.reset": "earliest",
                  "enable.auto.commit": False})
    try:
        c.assign([TopicPartition(name, 0, 0)])
        msg = None
        for _ in range(20):
            msg = c.poll(1.0)
            if msg is not None and not msg.error():
                break
        assert msg is not None and msg.value() == b"still-works"
    finally:
        c.close()


# ----------------------------------------------------------------------------- aiokafka


def test_aiokafka_admin(bootstrap):
    from aiokafka.admin import AIOKafkaAdminClient, NewPartitions, NewTopic
    from aiokafka.admin.config_resource import ConfigResource, ConfigResourceType

    async def run():
        a = AIOKafkaAdminClient(bootstrap_servers=bootstrap)
        await a.start()
        try:
            name = _name("aio")
            await a.create_topics([NewTopic(name, 2, 1, topic_configs={"cleanup.policy": "compact"})])
            assert name in await _eventually_async(a.list_topics, lambda ts: name in ts)
            desc = await a.describe_topics([name])
            assert len(desc[0]["partitions"]) == 2
            await a.create_partitions({name: NewPartitions(3)})
            desc = await _eventually_async(lambda: a.describe_topics([name]), lambda d: len(d[0]["partitions"]) == 3)
            assert len(desc[0]["partitions"]) == 3
            res = await a.describe_configs([ConfigResource(ConfigResourceType.TOPIC, name)])
            configs = {c[0]: c[1] for c in res[0].resources[0][4]}
            assert configs["cleanup.policy"] == "compact"
            resp = await a.create_topics([NewTopic("bad name", 1, 1)])
            assert resp.topic_errors[0][1] == 17  # INVALID_TOPIC_EXCEPTION
            await a.delete_topics([name])
            assert name not in await _eventually_async(a.list_topics, lambda ts: name not in ts)
        finally:
            await a.close()

    asyncio.run(run())
