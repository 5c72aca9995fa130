"""__consumer_offsets and __transaction_state appear on first use, as with Apache Kafka 4.3:
a fresh broker lists neither, and group / transaction requests sent before any FindCoordinator
answer NOT_COORDINATOR (ListGroups and ListTransactions: an empty list) without creating them;
a consumer group's first commit creates __consumer_offsets, a transactional producer's start
__transaction_state, each with offsets.topic.num.partitions / transaction.state.log.num.partitions
partitions and its compacted configs; committed offsets survive a restart.

Against Kafka: `python compat_tests/run_against_kafka.py -k internal_topics_on_first_use`
(the first test needs a broker no group or transaction has used yet, else it skips).
"""
from __future__ import annotations

import time

import pytest
from confluent_kafka import Consumer, Producer, TopicPartition
from confluent_kafka.admin import AdminClient, ConfigResource, ConfigSource

from harness import create_topic
from odradek.broker.wire_client import WireClient
from odradek.wire.errors import ErrorCode as E
from odradek.wire.messages import (describe_groups_request as dg, init_producer_id_request as ip,
                                   list_groups_request as lg, list_transactions_request as lt,
                                   offset_commit_request as oc, offset_fetch_request as of)

BROKER_OVERRIDES = {"offsets.topic.num.partitions": "7", "transaction.state.log.num.partitions": "5"}
OFFSETS, TXN = "__consumer_offsets", "__transaction_state"


def internal_topics(bootstrap: str) -> dict[str, int]:
    md = AdminClient({"bootstrap.servers": bootstrap}).list_topics(timeout=10)
    return {name: len(t.partitions) for name, t in md.topics.items() if name.startswith("__")}


def broker_setting(bootstrap: str, name: str) -> int:
    admin = AdminClient({"bootstrap.servers": bootstrap})
    node = next(iter(admin.list_topics(timeout=10).brokers))
    res = ConfigResource("broker", str(node))
    return int(admin.describe_configs([res])[res].result(10)[name].value)


def topic_overrides(bootstrap: str, topic: str) -> dict[str, str]:
    """What `kafka-topics --describe --topics-with-overrides` lists for the topic."""
    admin = AdminClient({"bootstrap.servers": bootstrap})
    res = ConfigResource("topic", topic)
    configs = admin.describe_configs([res])[res].result(10)
    return {k: c.value for k, c in configs.items() if c.source == ConfigSource.DYNAMIC_TOPIC_CONFIG.value}


def wait_internal(bootstrap: str, name: str, timeout: float = 60) -> int:
    deadline = time.monotonic() + timeout
    while name not in (found := internal_topics(bootstrap)):
        assert time.monotonic() < deadline, f"{name} not created"
        time.sleep(0.1)
    return found[name]


def commit(bootstrap: str, group: str, topic: str, offset: int) -> None:
    c = Consumer({"bootstrap.servers": bootstrap, "group.id": group, "enable.auto.commit": False})
    try:
        c.commit(offsets=[TopicPartition(topic, 0, offset)], asynchronous=False)
    finally:
        c.close()


def committed(bootstrap: str, group: str, topic: str) -> int:
    c = Consumer({"bootstrap.servers": bootstrap, "group.id": group, "enable.auto.commit": False})
    try:
        return c.committed([TopicPartition(topic, 0)], timeout=15)[0].offset
    finally:
        c.close()


def test_fresh_broker_has_none_and_group_and_txn_requests_do_not_create_them(bootstrap, topic_name):
    if internal_topics(bootstrap):
        pytest.skip("needs a broker no group or transaction has used yet")
    create_topic(bootstrap, topic_name)
    with WireClient.from_bootstrap(bootstrap) as c:
        r = c.send(oc.OffsetCommitRequest(group_id="g", generation_id_or_member_epoch=-1, member_id="", topics=[
            oc.OffsetCommitRequestTopic(name=topic_name, partitions=[
                oc.OffsetCommitRequestPartition(partition_index=0, committed_offset=1)])]), max_version=9)
        assert r.topics[0].partitions[0].error_code == E.NOT_COORDINATOR
        r = c.send(of.OffsetFetchRequest(group_id="g", topics=None), 7)
        assert (r.error_code, r.topics) == (E.NOT_COORDINATOR, [])
        assert c.send(dg.DescribeGroupsRequest(groups=["g"])).groups[0].error_code == E.NOT_COORDINATOR
        assert c.send(lg.ListGroupsRequest()).groups == []
        r = c.send(ip.InitProducerIdRequest(transactional_id="tx", transaction_timeout_ms=60000), max_version=5)
        assert (r.error_code, r.producer_id) == (E.NOT_COORDINATOR, -1)
        assert c.send(lt.ListTransactionsRequest()).transaction_states == []
    assert internal_topics(bootstrap) == {}


def test_first_group_commit_creates_the_offsets_topic(bootstrap, topic_name):
    create_topic(bootstrap, topic_name)
    commit(bootstrap, "first-commit", topic_name, 3)
    assert committed(bootstrap, "first-commit", topic_name) == 3
    assert wait_internal(bootstrap, OFFSETS) == broker_setting(bootstrap, "offsets.topic.num.partitions")
    assert topic_overrides(bootstrap, OFFSETS) == {
        "cleanup.policy": "compact", "compression.type": "producer", "segment.bytes": "104857600"}


def test_first_transactional_producer_creates_the_txn_state_topic(bootstrap, topic_name):
    create_topic(bootstrap, topic_name)
    p = Producer({"bootstrap.servers": bootstrap, "transactional.id": f"first-{topic_name}"})
    p.init_transactions(30)
    p.begin_transaction()
    p.produce(topic_name, b"v")
    p.commit_transaction(30)
    assert wait_internal(bootstrap, TXN) == broker_setting(bootstrap, "transaction.state.log.num.partitions")
    assert topic_overrides(bootstrap, TXN)["cleanup.policy"] == "compact"


def test_committed_offsets_survive_a_restart(controllable_broker, bootstrap, topic_name):
    create_topic(bootstrap, topic_name)
    commit(bootstrap, "restart", topic_name, 11)
    controllable_broker.restart()
    assert committed(bootstrap, "restart", topic_name) == 11
    assert internal_topics(bootstrap)[OFFSETS] == 7
