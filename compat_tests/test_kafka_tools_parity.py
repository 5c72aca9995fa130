"""What Kafka's own CLI tools (kafka-get-offsets, kafka-configs, kafka-consumer-groups, ...)
see, checked at the protocol level: each expectation was recorded against Apache Kafka 4.3
(`pytest compat_tests/test_kafka_tools_parity.py --bootstrap HOST:PORT` runs it there too).
"""

from __future__ import annotations

import time

import pytest

from harness import RawClient, create_topic
from odradek.wire import records
from odradek.wire.messages.api_versions_request import ApiVersionsRequest
from odradek.wire.messages.list_offsets_request import ListOffsetsPartition, ListOffsetsRequest, ListOffsetsTopic
from odradek.wire.messages.produce_request import PartitionProduceData, ProduceRequest, TopicProduceData


@pytest.fixture
def raw(bootstrap):
    c = RawClient(bootstrap)
    yield c
    c.close()


def _list_offset(raw, topic, ts, version):
    req = ListOffsetsRequest(replica_id=-1, isolation_level=0, timeout_ms=1000, topics=[
        ListOffsetsTopic(name=topic, partitions=[
            ListOffsetsPartition(partition_index=0, current_leader_epoch=-1, timestamp=ts)])])
    p = raw.call(req, version).topics[0].partitions[0]
    return p.error_code, p.offset, p.leader_epoch


def test_list_offsets_special_timestamps_at_every_version(raw, bootstrap, topic_name):
    # kafka-get-offsets --time -1/-2/-3/-4/-5 uses ListOffsets up to v11
    create_topic(bootstrap, topic_name)
    now = int(time.time() * 1000)
    batch = records.build_batch([(None, b"a"), (None, b"b")], base_timestamp=now)
    raw.call(ProduceRequest(acks=-1, timeout_ms=5000, topic_data=[TopicProduceData(
        name=topic_name, partition_data=[PartitionProduceData(index=0, records=batch)])]), 9)
    unsupported = (35, -1, -1)
    for v in (8, 9, 10, 11):
        assert _list_offset(raw, topic_name, -1, v) == (0, 2, 0)
        assert _list_offset(raw, topic_name, -2, v) == (0, 0, 0)
        assert _list_offset(raw, topic_name, -4, v) == (0, 0, 0)
        # latest tiered (v9+) and earliest pending upload (v11+): nothing tiered, offset -1
        assert _list_offset(raw, topic_name, -5, v) == ((0, -1, -1) if v >= 9 else unsupported)
        assert _list_offset(raw, topic_name, -6, v) == ((0, -1, -1) if v >= 11 else unsupported)
        assert _list_offset(raw, topic_name, -7, v) == unsupported


def test_supported_metadata_version_starts_at_3_3_iv3(raw):
    # kafka-features describe printed "SupportedMinVersion: UNKNOWN 1" (Kafka 4.3: 3.3-IV3, level 7)
    r = raw.call(ApiVersionsRequest(client_software_name="t", client_software_version="1"), 3)
    mv = {f.name: f for f in r.supported_features}["metadata.version"]
    assert mv.min_version == 7 and mv.max_version >= 27


def test_transaction_state_topic_configs(bootstrap):
    # kafka-topics --describe --topics-with-overrides lists these for __transaction_state
    from confluent_kafka import Producer
    from confluent_kafka.admin import AdminClient, ConfigResource, ConfigSource

    p = Producer({"bootstrap.servers": bootstrap, "transactional.id": "parity-txn-state"})
    p.init_transactions(30)
    admin = AdminClient({"bootstrap.servers": bootstrap})
    res = ConfigResource("topic", "__transaction_state")
    deadline = time.time() + 60
    while True:
        try:
            configs = admin.describe_configs([res])[res].result(10)
            break
        except Exception:
            if time.time() > deadline:
                raise
            time.sleep(0.2)
    overrides = {k: c.value for k, c in configs.items() if c.source == ConfigSource.DYNAMIC_TOPIC_CONFIG.value}
    # Kafka 4.3 with transaction.state.log.min.isr=1 (what a single node can meet)
    assert overrides == {"cleanup.policy": "compact", "compression.type": "uncompressed",
                         "segment.bytes": "104857600", "unclean.leader.election.enable": "false",
                         "min.insync.replicas": "1"}


def test_describe_groups_v6_group_id_not_found(raw, bootstrap, topic_name):
    # kafka-consumer-groups --describe --group nosuch: Kafka 4.3 answers v6 with GROUP_ID_NOT_FOUND
    # ("Group nosuch not found."); v5 and older describe a Dead group without error
    from confluent_kafka import Consumer

    from odradek.wire.messages.describe_groups_request import DescribeGroupsRequest

    create_topic(bootstrap, topic_name)
    classic = f"{topic_name}-classic"
    c = Consumer({"bootstrap.servers": bootstrap, "group.id": classic, "enable.auto.commit": False})
    c.subscribe([topic_name])
    deadline = time.time() + 30
    while not c.assignment() and time.time() < deadline:
        c.poll(0.2)
    consumer = f"{topic_name}-consumer"
    c2 = Consumer({"bootstrap.servers": bootstrap, "group.id": consumer, "group.protocol": "consumer"})
    c2.subscribe([topic_name])
    while not c2.assignment() and time.time() < deadline:
        c2.poll(0.2)
    try:
        groups = ["nosuch-" + topic_name, classic, consumer]
        for v in (5, 6):
            r = raw.call(DescribeGroupsRequest(groups=groups, include_authorized_operations=False), v)
            got = {g.group_id: (g.error_code, g.error_message if v >= 6 else None, g.group_state)
                   for g in r.groups}
            missing = (69, f"Group nosuch-{topic_name} not found.", "Dead") if v >= 6 else (0, None, "Dead")
            not_classic = (69, f"Group {consumer} is not a classic group.", "Dead") if v >= 6 \
                else (0, None, "Dead")
            assert got == {groups[0]: missing, classic: (0, None, "Stable"), consumer: not_classic}, v
    finally:
        c.close()
        c2.close()
