"""odradek does not replicate partitions yet (issue 20), and says so: on 1 controller + 2
brokers of real processes, stock clients asking for more than one replica per partition get
INVALID_REPLICATION_FACTOR / INVALID_REPLICA_ASSIGNMENT; what is created has one replica,
reported as the ISR; __consumer_offsets gets one replica; a broker configured to replicate
internal topics refuses to start instead of silently not doing it."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from confluent_kafka import Consumer, KafkaError, KafkaException, TopicPartition
from confluent_kafka.admin import AdminClient, NewPartitions, NewTopic

from harness import REPO, RawClient
from odradek.wire.messages.alter_partition_reassignments_request import (AlterPartitionReassignmentsRequest,
                                                                         ReassignablePartition, ReassignableTopic)
from test_raft_cluster import running_cluster, wait_for

NO_REPLICATION = "odradek does not replicate partitions yet"
B1, B2 = 2, 3  # the brokers' node ids in cluster_layout(1, 2, ...)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    with running_cluster(tmp_path_factory.mktemp("cluster-rf"), 1, 2, ready_s=60) as nodes:
        yield nodes


@pytest.fixture(scope="module")
def admin(cluster):
    bootstrap = ",".join(f"127.0.0.1:{n.port}" for n in cluster if n.props["process.roles"] == "broker")
    a = AdminClient({"bootstrap.servers": bootstrap})
    wait_for(lambda: len(a.list_topics(timeout=5).brokers) == 2, 30, "both brokers in the metadata")
    return a


def _error(fut) -> KafkaError:
    with pytest.raises(KafkaException) as e:
        fut.result(timeout=15)
    return e.value.args[0]


def test_more_than_one_replica_is_refused(admin):
    err = _error(admin.create_topics([NewTopic("rf2", 2, 2)], operation_timeout=10)["rf2"])
    assert err.code() == KafkaError.INVALID_REPLICATION_FACTOR and NO_REPLICATION in err.str()
    err = _error(admin.create_topics([NewTopic("rf3", 1, 3)], operation_timeout=10)["rf3"])
    assert err.code() == KafkaError.INVALID_REPLICATION_FACTOR and "only 2 broker(s) are registered" in err.str()
    err = _error(admin.create_topics([NewTopic("manual", num_partitions=2, replica_assignment=[[B1, B2], [B2, B1]])],
                                     operation_timeout=10)["manual"])
    assert err.code() == KafkaError.INVALID_REPLICA_ASSIGNMENT and NO_REPLICATION in err.str()
    assert not {"rf2", "rf3", "manual"} & set(admin.list_topics(timeout=5).topics)


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
    assert err.code() == KafkaError.INVALID_REPLICA_ASSIGNMENT and NO_REPLICATION in err.str()
    # a reassignment to two replicas
    broker = next(n for n in cluster if n.props["process.roles"] == "broker")
    c = RawClient(f"127.0.0.1:{broker.port}")
    try:
        r = c.call(AlterPartitionReassignmentsRequest(timeout_ms=10000, topics=[ReassignableTopic(
            name="one", partitions=[ReassignablePartition(partition_index=0, replicas=[B1, B2])])]), 0)
    finally:
        c.close()
    part = r.responses[0].partitions[0]
    assert part.error_code == KafkaError.INVALID_REPLICA_ASSIGNMENT and NO_REPLICATION in part.error_message


def test_consumer_offsets_gets_one_replica(admin, cluster):
    bootstrap = ",".join(f"127.0.0.1:{n.port}" for n in cluster if n.props["process.roles"] == "broker")
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


def test_a_broker_asked_to_replicate_internal_topics_refuses_to_start(tmp_path):
    for name in ("offsets.topic.replication.factor", "transaction.state.log.replication.factor",
                 "default.replication.factor"):
        out = subprocess.run([sys.executable, "-m", "odradek", "serve", "--override", f"{name}=3",
                              "--override", f"log.dirs={tmp_path / 'd'}", "--override", "listeners=PLAINTEXT://127.0.0.1:0"],
                             capture_output=True, text=True, timeout=60, cwd=str(REPO),
                             env=dict(os.environ, PYTHONPATH=str(REPO)))
        assert out.returncode != 0
        assert f"Invalid value 3 for configuration {name}: {NO_REPLICATION}" in out.stderr
