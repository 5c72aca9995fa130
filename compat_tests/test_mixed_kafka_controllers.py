"""odradek brokers in an Apache Kafka 4.3 cluster (issue 20, "against Kafka itself", under Kafka's
controllers): one Kafka controller (process.roles=controller), one Kafka broker and two odradek
brokers. Every node's folder is formatted by Kafka's own `kafka-storage format` (one cluster id, a
directory id per log dir), and the odradek brokers run from the very server.properties Kafka's tool
formatted: they follow Kafka's metadata log over the KRaft Fetch API, replay the records Kafka's
controller writes (bootstrap transaction, feature levels, RegisterControllerRecord, ...), register
(BrokerRegistration with their log dir ids and supported features), heartbeat and are unfenced by
Kafka's controller. A topic with RF=3 has partitions led by each kind; records produced with acks=all
end up identical, batch for batch and byte for byte (offsets, leader epochs, CRC), on every replica,
so each kind follows the other's leader with Kafka's inter-broker protocol."""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from confluent_kafka import Consumer, Producer, TopicPartition
from confluent_kafka.admin import NewTopic

from cluster import FAST, KAFKA_CLEAN_EXIT, KAFKA_READY_S, READY_S, Cluster, ClusterNode, free_base, wait_for
from harness import REPO

KAFKA_BROKER, ODRADEK = 2, (3, 4)
TOPIC = "mixed"
# partition -> replicas, the first the preferred (and first) leader: one led by Kafka, one by each odradek
ASSIGNMENT = [[KAFKA_BROKER, 3, 4], [3, 4, KAFKA_BROKER], [4, KAFKA_BROKER, 3]]
RECORDS = 3000


def _plain_port(props: dict[str, str]) -> int | None:
    plain = [x for x in props["listeners"].split(",") if x.startswith("PLAINTEXT://")]
    return int(plain[0].rsplit(":", 1)[1]) if plain else None


def mixed_nodes(root: Path) -> list[ClusterNode]:
    import apache_kafka
    from bench.kafka_ref import KAFKA_READY, format_kafka_quorum

    reason = apache_kafka.missing()
    if reason:
        pytest.skip(reason)
    quorum = format_kafka_quorum(str(root), controllers=1, brokers=3, base_port=free_base(1, 3), extra=FAST)
    env = dict(os.environ, PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""),
               ODRADEK_LOG_LEVEL="INFO")
    nodes = []
    for n in quorum.nodes:
        roles, log_dir = n.props["process.roles"], Path(n.props["log.dirs"])
        if n.id in ODRADEK:
            command = [sys.executable, "-m", "odradek", "serve", str(n.dir / "server.properties")]
            nodes.append(ClusterNode(n.id, roles, command, env, "odradek ready", _plain_port(n.props), log_dir))
        else:
            nodes.append(ClusterNode(n.id, roles, n.command(), dict(os.environ), KAFKA_READY, _plain_port(n.props),
                                     log_dir, KAFKA_READY_S, KAFKA_CLEAN_EXIT))
    return nodes


@pytest.fixture(scope="module")
def mixed(tmp_path_factory):
    cluster = Cluster("mixed", mixed_nodes(tmp_path_factory.mktemp("mixed-kafka-controllers")))
    try:
        for n in cluster.nodes.values():
            n.start()
        for n in cluster.nodes.values():
            n.wait_ready()
        # registered with Kafka's controller and unfenced: Metadata lists only unfenced brokers
        wait_for(lambda: sorted(b.id for b in cluster.admin.list_topics(timeout=5).brokers.values())
                 == [KAFKA_BROKER, *ODRADEK], READY_S, "every broker unfenced in the metadata")
        yield cluster
    finally:
        cluster.close()


def test_records_replicate_both_ways_byte_for_byte(mixed):
    fut = mixed.admin.create_topics([NewTopic(TOPIC, num_partitions=len(ASSIGNMENT), replica_assignment=ASSIGNMENT,
                                              config={"min.insync.replicas": "2"})], operation_timeout=30)[TOPIC]
    fut.result(timeout=60)
    state = mixed.wait_full_isr(TOPIC)
    assert {p: s.leader for p, s in state.items()} == {p: r[0] for p, r in enumerate(ASSIGNMENT)}

    acked: dict[int, list[tuple[int, bytes]]] = {p: [] for p in range(len(ASSIGNMENT))}
    errors = []

    def delivered(err, msg):
        if err is not None:
            errors.append(err)
        else:
            acked[msg.partition()].append((msg.offset(), msg.value()))
    producer = Producer({"bootstrap.servers": mixed.bootstrap, "acks": "all", "enable.idempotence": True,
                         "linger.ms": 5})
    for i in range(RECORDS):
        producer.produce(TOPIC, key=b"%d" % i, value=b"value-%06d" % i, partition=i % len(ASSIGNMENT),
                         on_delivery=delivered)
        producer.poll(0)
    assert producer.flush(60) == 0
    assert errors == []
    for p, got in acked.items():
        assert [o for o, _ in got] == list(range(RECORDS // len(ASSIGNMENT))), f"partition {p} offsets"

    # every replica of every partition (Kafka's and odradek's) holds the same batches, byte for byte
    assert mixed.wait_identical_replicas(TOPIC, len(ASSIGNMENT)) > 0
    for p in range(len(ASSIGNMENT)):
        lengths = {r: sum(len(b) for _, b in _batches(mixed, r, p)) for r in ASSIGNMENT[p]}
        assert len(set(lengths.values())) == 1 and min(lengths.values()) > 0, lengths

    # and a consumer reads back exactly what was acknowledged, from each kind of leader
    consumer = Consumer({"bootstrap.servers": mixed.bootstrap, "group.id": "mixed-check",
                         "enable.auto.commit": False})
    try:
        consumer.assign([TopicPartition(TOPIC, p, 0) for p in range(len(ASSIGNMENT))])
        read: dict[int, list[tuple[int, bytes]]] = {p: [] for p in range(len(ASSIGNMENT))}

        def all_read():
            for m in consumer.consume(500, 1):
                if m.error() is None:
                    read[m.partition()].append((m.offset(), m.value()))
            return sum(map(len, read.values())) >= RECORDS
        wait_for(all_read, 60, "every acknowledged record read back")
        assert read == acked
    finally:
        consumer.close()


def _batches(cluster: Cluster, node_id: int, partition: int):
    from cluster import replica_batches

    return replica_batches(cluster.node(node_id).log_dir, TOPIC, partition)
