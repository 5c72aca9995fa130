"""An odradek broker under a quorum of three Apache Kafka 4.3 controllers, through a kill -9 of the
active controller (issue 20, "against Kafka itself", under Kafka 4.3 controllers): one Kafka broker
and one odradek broker replicate two partitions, each led by one kind. When the active controller
dies, the odradek broker follows the metadata log of the newly elected one (a KRaft observer: Fetch
to a voter, told the leader), heartbeats to it and stays registered; acks=all writes go on; a topic
created through the new controller is led by the odradek broker; the killed controller comes back;
both replicas stay identical, byte for byte, and every acknowledged record is read back."""
from __future__ import annotations

import pytest
from confluent_kafka.admin import NewTopic

from cluster import FAST, Cluster, started, wait_for
from test_cluster_producer_ids import controller_leader
from test_mixed_kafka_controllers import Load, start_mixed, wait_unfenced

pytestmark = pytest.mark.timeout(1200)  # six JVM formats, four JVM starts on a loaded machine

CONTROLLERS = (1, 2, 3)
KAFKA_BROKER, ODRADEK = 4, 5
TOPIC, AFTER = "quorum-failover", "after-failover"
ASSIGNMENT = [[KAFKA_BROKER, ODRADEK], [ODRADEK, KAFKA_BROKER]]
RECORDS = 1000
# FAST without its quorum timeouts: with 500 ms elections three Kafka controllers on a loaded 2-core
# machine change leaders every few seconds on their own (Kafka's defaults, 1 s / 2 s, here)
SETTINGS = {k: v for k, v in FAST.items() if not k.startswith("controller.quorum.")}


@pytest.fixture(scope="module")
def quorum(tmp_path_factory):
    with started(lambda root: start_mixed(root, len(CONTROLLERS), 2, (ODRADEK,), SETTINGS),
                 tmp_path_factory.mktemp("mixed-kafka-quorum")) as cluster:
        yield cluster


def create(cluster: Cluster, topic: str, assignment: list[list[int]]) -> None:
    fut = cluster.admin.create_topics([NewTopic(topic, num_partitions=len(assignment), replica_assignment=assignment,
                                                config={"min.insync.replicas": "2"})], operation_timeout=30)[topic]
    fut.result(timeout=60)


def test_odradek_broker_through_a_kafka_controller_failover(quorum):
    create(quorum, TOPIC, ASSIGNMENT)
    state = quorum.wait_full_isr(TOPIC)
    assert {p: s.leader for p, s in state.items()} == {0: KAFKA_BROKER, 1: ODRADEK}
    load = Load(quorum, len(ASSIGNMENT), TOPIC)
    load.produce(RECORDS)

    kafka_port = quorum.node(KAFKA_BROKER).port
    old = wait_for(lambda: (lambda lid: lid if lid in CONTROLLERS else None)(controller_leader(kafka_port)), 60,
                   "the active controller")
    quorum.kill9(old)
    wait_for(lambda: controller_leader(kafka_port) not in (old, -1), 120, "a new active controller")
    load.produce(RECORDS)
    # the odradek broker registered and heartbeating with the new controller: unfenced, and it takes the
    # new controller's records (a topic it leads)
    wait_unfenced(quorum, [KAFKA_BROKER, ODRADEK])
    create(quorum, AFTER, [[ODRADEK, KAFKA_BROKER]])
    after = quorum.wait_full_isr(AFTER)
    assert after[0].leader == ODRADEK

    quorum.start(old)
    quorum.wait_full_isr(TOPIC)
    assert quorum.wait_identical_replicas(TOPIC, len(ASSIGNMENT)) > 0
    load.read_back()
