"""Replication factors as Kafka 4.3's controller takes them (issue 20), on 1 controller + 2
brokers of real processes with stock clients: replicas spread over the brokers, the ISR the
active replicas; a factor above the registered brokers gets Kafka's INVALID_REPLICATION_FACTOR,
a bad manual assignment Kafka's INVALID_REPLICA_ASSIGNMENT; __consumer_offsets gets its
configured factor, and a node with too few brokers for it has no coordinator (as Kafka).
A request for a partition sent to the broker that does not lead it gets NOT_LEADER_OR_FOLLOWER
and, where the protocol has them (KIP-951), the real leader and its endpoint."""

from __future__ import annotations

import pytest
from confluent_kafka import Consumer, KafkaError, KafkaException, TopicPartition
from confluent_kafka.admin import AdminClient, NewPartitions, NewTopic

from harness import BrokerProcess, RawClient
from odradek.wire import records
from odradek.wire.errors import ErrorCode
from odradek.wire.messages.alter_partition_reassignments_request import (AlterPartitionReassignmentsRequest,
                                                                         ReassignablePartition, ReassignableTopic)
from odradek.wire.messages.fetch_request import FetchPartition, FetchRequest, FetchTopic
from odradek.wire.messages.find_coordinator_request import FindCoordinatorRequest
from odradek.wire.messages.list_partition_reassignments_request import ListPartitionReassignmentsRequest
from odradek.wire.messages.metadata_request import MetadataRequest, MetadataRequestTopic
from odradek.wire.messages.list_offsets_request import ListOffsetsPartition, ListOffsetsRequest, ListOffsetsTopic
from odradek.wire.messages.produce_request import PartitionProduceData, ProduceRequest, TopicProduceData
from cluster import running_odradek, wait_for

B1, B2 = 2, 3  # the brokers' node ids in cluster_layout(1, 2, ...)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    with running_odradek(tmp_path_factory.mktemp("cluster-rf"), 1, 2) as c:
        yield c


@pytest.fixture(scope="module")
def admin(cluster):
    bootstrap = cluster.bootstrap
    a = AdminClient({"bootstrap.servers": bootstrap})
    wait_for(lambda: len(a.list_topics(timeout=5).brokers) == 2, 30, "both brokers in the metadata")
    return a


def _error(fut) -> KafkaError:
    with pytest.raises(KafkaException) as e:
        fut.result(timeout=15)
    return e.value.args[0]


def test_replication_factors_as_kafka(admin):
    admin.create_topics([NewTopic("rf2", 4, 2)], operation_timeout=10)["rf2"].result(15)
    wait_for(lambda: len(getattr(admin.list_topics("rf2", timeout=5).topics.get("rf2"), "partitions", {})) == 4,
             20, "topic rf2")
    parts = admin.list_topics("rf2", timeout=5).topics["rf2"].partitions.values()
    for p in parts:
        assert sorted(p.replicas) == [B1, B2] and p.isrs == p.replicas and p.leader == p.replicas[0]
    assert sorted(p.leader for p in parts) == [B1, B1, B2, B2]
    err = _error(admin.create_topics([NewTopic("rf3", 1, 3)], operation_timeout=10)["rf3"])
    assert err.code() == KafkaError.INVALID_REPLICATION_FACTOR
    assert err.str() == ("Unable to replicate the partition 3 time(s): The target replication factor of 3 cannot be "
                         "reached because only 2 broker(s) are registered or some brokers have all their log "
                         "directories cordoned.")
    admin.create_topics([NewTopic("manual", num_partitions=2, replica_assignment=[[B1, B2], [B2, B1]])],
                        operation_timeout=10)["manual"].result(15)
    wait_for(lambda: "manual" in admin.list_topics(timeout=5).topics, 20, "topic manual")
    manual = admin.list_topics("manual", timeout=5).topics["manual"].partitions
    assert [(manual[i].replicas, manual[i].isrs, manual[i].leader) for i in (0, 1)] == [
        ([B1, B2], [B1, B2], B1), ([B2, B1], [B2, B1], B2)]
    err = _error(admin.create_topics([NewTopic("bad", num_partitions=1, replica_assignment=[[B1, 9]])],
                                     operation_timeout=10)["bad"])
    assert err.code() == KafkaError.INVALID_REPLICA_ASSIGNMENT
    assert err.str() == "The manual partition assignment includes broker 9, but no such broker is registered."
    # more partitions keep the topic's replication factor
    admin.create_partitions([NewPartitions("rf2", 6)], operation_timeout=10)["rf2"].result(15)
    wait_for(lambda: len(admin.list_topics("rf2", timeout=5).topics["rf2"].partitions) == 6, 20, "6 partitions")
    assert all(sorted(p.replicas) == [B1, B2] for p in admin.list_topics("rf2", timeout=5).topics["rf2"]
               .partitions.values())
    assert not {"rf3", "bad"} & set(admin.list_topics(timeout=5).topics)


def test_one_replica_is_what_is_created_and_reported(admin, cluster):
    admin.create_topics([NewTopic("one", 4, 1), NewTopic("dflt", 2)], operation_timeout=10)["one"].result(15)
    wait_for(lambda: {"one", "dflt"} <= set(admin.list_topics(timeout=5).topics), 20, "topics")
    md = admin.list_topics(timeout=5).topics
    for name in ("one", "dflt"):
        for p in md[name].partitions.values():
            assert p.replicas == [p.leader] and p.isrs == [p.leader]
    assert {p.leader for p in md["one"].partitions.values()} == {B1, B2}
    # adding partitions: one replica each; an assignment of two refused
    admin.create_partitions([NewPartitions("one", 6)], operation_timeout=10)["one"].result(15)
    wait_for(lambda: len(admin.list_topics("one", timeout=5).topics["one"].partitions) == 6, 20, "6 partitions")
    assert all(len(p.replicas) == 1 for p in admin.list_topics("one", timeout=5).topics["one"].partitions.values())
    err = _error(admin.create_partitions([NewPartitions("one", 7, replica_assignment=[[B1, B2]])],
                                         operation_timeout=10)["one"])
    assert err.code() == KafkaError.INVALID_REPLICA_ASSIGNMENT
    assert err.str() == ("The manual partition assignment includes a partition with 2 replica(s), but this is not "
                         "consistent with previous partitions, which have 1 replica(s).")
    # a reassignment to two replicas starts (forwarded to the controller): the new replica joins
    # the partition as adding until the leader reports it in sync; an unknown broker is refused
    broker = cluster.brokers[0]
    c = RawClient(f"127.0.0.1:{broker.port}")
    try:
        r = c.call(AlterPartitionReassignmentsRequest(timeout_ms=10000, topics=[ReassignableTopic(
            name="one", partitions=[ReassignablePartition(partition_index=0, replicas=[B1, B2]),
                                    ReassignablePartition(partition_index=1, replicas=[B1, 9])])]), 0)
        assert [(p.error_code, p.error_message) for p in r.responses[0].partitions] == [
            (0, None), (KafkaError.INVALID_REPLICA_ASSIGNMENT,
                        "The manual partition assignment includes broker 9, but no such broker is registered.")]

        def started():
            md = admin.list_topics("one", timeout=5).topics["one"].partitions[0]
            return md.replicas == [B1, B2]
        wait_for(started, 20, "partition one-0 on both brokers")
        lr = c.call(ListPartitionReassignmentsRequest(timeout_ms=10000, topics=None), 0)
        ongoing = [(t.name, p.partition_index, p.replicas) for t in lr.topics for p in t.partitions]
        assert ongoing in ([], [("one", 0, [B1, B2])])  # done once the new replica is in sync
    finally:
        c.close()


def test_a_partition_led_elsewhere_answers_not_leader_with_the_leader(admin, cluster):
    admin.create_topics([NewTopic("routed", 4, 1)], operation_timeout=10)["routed"].result(15)
    wait_for(lambda: len(getattr(admin.list_topics("routed", timeout=5).topics.get("routed"), "partitions", {})) == 4,
             20, "topic routed")
    md = admin.list_topics("routed", timeout=5)
    leaders = {p.id: p.leader for p in md.topics["routed"].partitions.values()}
    part = next(p for p, leader in leaders.items() if leader == B1)
    b1, b2 = cluster.node(B1), cluster.node(B2)
    batch = records.build_batch([(None, b"v", (), 0)])
    c = RawClient(f"127.0.0.1:{b2.port}")
    try:
        def wait_image():  # b2's image has the topic: not UNKNOWN_TOPIC_OR_PARTITION any more
            return produce(c, "routed", part, batch, 11).error_code != ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
        wait_for(wait_image, 20, "broker 3 knows the topic")
        resp = c.call(_produce_request("routed", part, batch), 11)  # v10+: KIP-951's CurrentLeader
        pr = resp.responses[0].partition_responses[0]
        assert pr.error_code == ErrorCode.NOT_LEADER_OR_FOLLOWER
        assert pr.current_leader.leader_id == B1 and pr.current_leader.leader_epoch >= 0
        assert [(e.node_id, e.port) for e in resp.node_endpoints] == [(B1, b1.port)]
        assert produce(c, "routed", part, batch, 9).error_code == ErrorCode.NOT_LEADER_OR_FOLLOWER
        fetch = c.call(FetchRequest(replica_id=-1, max_wait_ms=0, min_bytes=1, max_bytes=1 << 20, isolation_level=0,
                                    session_id=0, session_epoch=-1, topics=[FetchTopic(
                                        topic="routed", topic_id=md_topic_id(c), partitions=[FetchPartition(
                                            partition=part, fetch_offset=0, partition_max_bytes=1 << 20)])]), 16)
        fp = fetch.responses[0].partitions[0]
        assert fp.error_code == ErrorCode.NOT_LEADER_OR_FOLLOWER and fp.current_leader.leader_id == B1
        assert [(e.node_id, e.port) for e in fetch.node_endpoints] == [(B1, b1.port)]
        lo = c.call(ListOffsetsRequest(replica_id=-1, isolation_level=0, timeout_ms=1000, topics=[ListOffsetsTopic(
            name="routed", partitions=[ListOffsetsPartition(partition_index=part, current_leader_epoch=-1,
                                                            timestamp=-1)])]), 7)
        assert lo.topics[0].partitions[0].error_code == ErrorCode.NOT_LEADER_OR_FOLLOWER
        # a partition the metadata does not have is still unknown
        assert produce(c, "routed", 99, batch, 11).error_code == ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
    finally:
        c.close()
    c = RawClient(f"127.0.0.1:{b1.port}")
    try:
        assert produce(c, "routed", part, batch, 11).error_code == ErrorCode.NONE
    finally:
        c.close()


def _produce_request(topic, part, batch):
    return ProduceRequest(acks=1, timeout_ms=5000, topic_data=[
        TopicProduceData(name=topic, partition_data=[PartitionProduceData(index=part, records=batch)])])


def produce(c, topic, part, batch, version):
    return c.call(_produce_request(topic, part, batch), version).responses[0].partition_responses[0]


def md_topic_id(c) -> bytes:
    md = c.call(MetadataRequest(topics=[MetadataRequestTopic(name="routed")], allow_auto_topic_creation=False), 12)
    return md.topics[0].topic_id


def test_consumer_offsets_gets_one_replica(admin, cluster):
    bootstrap = cluster.bootstrap
    c = Consumer({"bootstrap.servers": bootstrap, "group.id": "rf-group", "enable.auto.commit": False})
    try:
        def committed():
            c.commit(offsets=[TopicPartition("one", 0, 5)], asynchronous=False)
            return True
        wait_for(committed, 30, "a commit")
        assert c.committed([TopicPartition("one", 0)], timeout=10)[0].offset == 5
    finally:
        c.close()
    md = admin.list_topics("__consumer_offsets", timeout=5).topics["__consumer_offsets"]
    assert md.partitions and all(p.replicas == [p.leader] == p.isrs for p in md.partitions.values())


def test_too_few_brokers_for_the_offsets_topic_leave_no_coordinator(tmp_path):
    """As Kafka: offsets.topic.replication.factor=3 on one broker is accepted; creating
    __consumer_offsets fails (INVALID_REPLICATION_FACTOR), FindCoordinator answers
    COORDINATOR_NOT_AVAILABLE and no topic is made with fewer replicas."""
    b = BrokerProcess(str(tmp_path / "d"), {"offsets.topic.replication.factor": "3"})
    b.start()
    try:
        c = RawClient(b.bootstrap)
        try:
            for _ in range(3):
                r = c.call(FindCoordinatorRequest(key_type=0, coordinator_keys=["g"]), 4)
                assert r.coordinators[0].error_code == ErrorCode.COORDINATOR_NOT_AVAILABLE
            md = c.call(MetadataRequest(topics=None, allow_auto_topic_creation=False), 12)
            assert "__consumer_offsets" not in {t.name for t in md.topics}
        finally:
            c.close()
    finally:
        b.stop()
