"""odradek brokers in an Apache Kafka 4.3 cluster (issue 20, "against Kafka itself", under Kafka's
controllers): one Kafka controller (process.roles=controller), one Kafka broker and two odradek
brokers. Every node's folder is formatted by Kafka's own `kafka-storage format` (one cluster id, a
directory id per log dir), and the odradek brokers run from the very server.properties Kafka's tool
formatted: they follow Kafka's metadata log over the KRaft Fetch API, replay the records Kafka's
controller writes (bootstrap transaction, feature levels, RegisterControllerRecord, ...), register
(BrokerRegistration with their log dir ids and supported features), heartbeat and are unfenced by
Kafka's controller. A topic with RF=3 has partitions led by each kind; records produced with acks=all
end up identical, batch for batch and byte for byte (offsets, leader epochs, CRC), on every replica,
so each kind follows the other's leader with Kafka's inter-broker protocol; through a kill -9 of the
Kafka broker and a controlled shutdown of an odradek broker, leadership moves between the kinds and
both come back into the ISR. Producer ids come from Kafka's controller in blocks. A broker started after Kafka's controller snapshotted its metadata loads
that snapshot (FetchSnapshot) and serves the metadata it holds."""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from confluent_kafka import Consumer, Producer, TopicPartition
from confluent_kafka.admin import AdminClient, NewTopic

from cluster import (
    FAST, KAFKA_CLEAN_EXIT, KAFKA_READY_S, READY_S, Cluster, ClusterNode, free_base, replica_batches, started, wait_for,
)
from harness import REPO

pytestmark = pytest.mark.timeout(1200)  # five JVM starts (four formats) and two Python brokers on a loaded machine

KAFKA_BROKER, ODRADEK, LATE = 2, (3, 4), 5
TOPIC = "mixed"
# Kafka's controller snapshots its metadata every 2 s and drops the log before a snapshot after 2 s, so
# that a broker joining later starts from a snapshot (FetchSnapshot) instead of the log's first record
SNAPSHOTS = {"metadata.log.max.snapshot.interval.ms": "2000", "metadata.log.segment.ms": "2000",
             "metadata.max.retention.ms": "2000"}
# partition -> replicas, the first the preferred (and first) leader: one led by Kafka, one by each odradek
ASSIGNMENT = [[KAFKA_BROKER, 3, 4], [3, 4, KAFKA_BROKER], [4, KAFKA_BROKER, 3]]
RECORDS = 3000


def _plain_port(props: dict[str, str]) -> int | None:
    plain = [x for x in props["listeners"].split(",") if x.startswith("PLAINTEXT://")]
    return int(plain[0].rsplit(":", 1)[1]) if plain else None


def mixed_nodes(root: Path, controllers: int, brokers: int, odradek: tuple[int, ...],
                extra: dict[str, str]) -> list[ClusterNode]:
    """A Kafka quorum of `controllers` and `brokers` broker nodes (format_kafka_quorum's layout, every
    folder formatted by kafka-storage format), the brokers in `odradek` run by `odradek serve` from
    the server.properties Kafka's tool formatted, the others by Kafka."""
    import apache_kafka
    from bench.kafka_ref import KAFKA_READY, format_kafka_quorum
    from builds import kafka_test_jvm

    reason = apache_kafka.missing()
    if reason:
        pytest.skip(reason)
    quorum = format_kafka_quorum(str(root), controllers, brokers, free_base(controllers, brokers), extra,
                                 kafka_test_jvm())
    env = dict(os.environ, PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""),
               ODRADEK_LOG_LEVEL="INFO")
    nodes = []
    for n in quorum.nodes:
        roles, log_dir = n.props["process.roles"], Path(n.props["log.dirs"])
        if n.id in odradek:
            command = [sys.executable, "-m", "odradek", "serve", str(n.dir / "server.properties")]
            nodes.append(ClusterNode(n.id, roles, command, env, "odradek ready", _plain_port(n.props), log_dir))
        else:
            nodes.append(ClusterNode(n.id, roles, n.command(), dict(os.environ), KAFKA_READY, _plain_port(n.props),
                                     log_dir, KAFKA_READY_S, KAFKA_CLEAN_EXIT))
    return nodes


def start_mixed(root: Path, controllers: int, brokers: int, odradek: tuple[int, ...], settings: dict[str, str],
                later: tuple[int, ...] = ()) -> Cluster:
    """mixed_nodes started but `later` (odradek brokers too), the started brokers unfenced; every
    process stopped if it does not come up."""
    cluster = Cluster("mixed", mixed_nodes(root, controllers, brokers, (*odradek, *later), settings))
    try:
        first = [n for n in cluster.nodes.values() if n.id not in later]
        for n in first:
            n.start()
        for n in first:
            n.wait_ready()
        wait_unfenced(cluster, [n.id for n in first if n.is_broker])
    except BaseException:
        cluster.close()
        raise
    return cluster


@pytest.fixture(scope="module")
def mixed(tmp_path_factory):
    with started(lambda root: start_mixed(root, 1, 4, ODRADEK, {**FAST, **SNAPSHOTS}, later=(LATE,)),
                 tmp_path_factory.mktemp("mixed-kafka-controllers")) as cluster:
        yield cluster


def wait_unfenced(cluster: Cluster, brokers: list[int]) -> None:
    """Registered with Kafka's controller and unfenced: a broker's Metadata lists only unfenced brokers."""
    admin = AdminClient({"bootstrap.servers": cluster.live_bootstrap()})
    wait_for(lambda: sorted(b.id for b in admin.list_topics(timeout=5).brokers.values()) == sorted(brokers),
             READY_S, f"brokers {brokers} unfenced in the metadata")


class Load:
    """Idempotent acks=all records to every partition; what was acknowledged, by partition."""

    def __init__(self, cluster: Cluster, partitions: int, topic: str = TOPIC):
        self.cluster, self.partitions, self.topic = cluster, partitions, topic
        self.acked: dict[int, list[tuple[int, bytes]]] = {p: [] for p in range(partitions)}
        self.errors: list = []
        self.sent = 0
        self.producer = Producer({"bootstrap.servers": cluster.bootstrap, "acks": "all", "enable.idempotence": True,
                                  "linger.ms": 5})

    def _delivered(self, err, msg):
        if err is not None:
            self.errors.append(err)
        else:
            self.acked[msg.partition()].append((msg.offset(), msg.value()))

    def produce(self, count: int) -> None:
        for _ in range(count):
            i = self.sent
            self.sent += 1
            self.producer.produce(self.topic, key=b"%d" % i, value=b"value-%06d" % i, partition=i % self.partitions,
                                  on_delivery=self._delivered)
            self.producer.poll(0)
        assert self.producer.flush(90) == 0
        assert self.errors == []
        for p, got in self.acked.items():
            assert [o for o, _ in got] == list(range(len(got))), f"partition {p}: offsets {got[:3]}..."

    def read_back(self) -> None:
        """A consumer reads exactly what was acknowledged, at the same offsets."""
        consumer = Consumer({"bootstrap.servers": self.cluster.live_bootstrap(), "group.id": "mixed-check",
                             "enable.auto.commit": False})
        try:
            consumer.assign([TopicPartition(self.topic, p, 0) for p in range(self.partitions)])
            read: dict[int, list[tuple[int, bytes]]] = {p: [] for p in range(self.partitions)}

            def all_read():
                for m in consumer.consume(500, 0.2):  # (a call waits its whole timeout for the last records)
                    if m.error() is None:
                        read[m.partition()].append((m.offset(), m.value()))
                return sum(map(len, read.values())) >= self.sent
            wait_for(all_read, 60, "every acknowledged record read back")
            assert read == self.acked
        finally:
            consumer.close()


@pytest.fixture(scope="module")
def load(mixed):
    fut = mixed.admin.create_topics([NewTopic(TOPIC, num_partitions=len(ASSIGNMENT), replica_assignment=ASSIGNMENT,
                                              config={"min.insync.replicas": "2"})], operation_timeout=30)[TOPIC]
    fut.result(timeout=60)
    yield Load(mixed, len(ASSIGNMENT))


def test_records_replicate_both_ways_byte_for_byte(mixed, load):
    state = mixed.wait_full_isr(TOPIC)
    assert {p: s.leader for p, s in state.items()} == {p: r[0] for p, r in enumerate(ASSIGNMENT)}
    load.produce(RECORDS)
    # every replica of every partition (Kafka's and odradek's) holds the same batches, byte for byte
    assert mixed.wait_identical_replicas(TOPIC, len(ASSIGNMENT)) > 0
    for p in range(len(ASSIGNMENT)):
        sizes = {r: sum(len(b) for _, b in replica_batches(mixed.node(r).log_dir, TOPIC, p)) for r in ASSIGNMENT[p]}
        assert len(set(sizes.values())) == 1 and min(sizes.values()) > 0, sizes
    load.read_back()


def test_leadership_moves_between_the_kinds(mixed, load):
    # kill -9 of the Kafka broker: Kafka's controller fences it and elects odradek leaders, which
    # take acks=all writes with the two of them in the ISR
    mixed.kill9(KAFKA_BROKER)
    mixed.wait_partitions(TOPIC, lambda s: all(p.leader in ODRADEK and KAFKA_BROKER not in p.isr for p in s.values()),
                          "odradek leaders without the killed Kafka broker")
    load.produce(RECORDS // 2)
    # back, the Kafka broker truncates to and follows the odradek leaders until it is in sync again
    mixed.start(KAFKA_BROKER)
    mixed.wait_full_isr(TOPIC)
    # SIGTERM to an odradek broker: a controlled shutdown through Kafka's controller, which moves its
    # leaderships away before it lets it go
    assert mixed.stop(ODRADEK[0]) == 0
    state = mixed.partitions(TOPIC)
    assert all(p.leader not in (ODRADEK[0], -1) and ODRADEK[0] not in p.isr for p in state.values()), state
    load.produce(RECORDS // 2)
    mixed.start(ODRADEK[0])
    mixed.wait_full_isr(TOPIC)
    assert mixed.wait_identical_replicas(TOPIC, len(ASSIGNMENT)) > 0
    load.read_back()


def test_producer_id_blocks_from_kafkas_controller(mixed):
    """InitProducerId on each broker: the odradek brokers hand out ids from blocks Kafka's controller
    allocated them (AllocateProducerIds), as the Kafka broker does; no id and no block twice."""
    from test_cluster_producer_ids import init_producer_ids

    ids = {b: init_producer_ids(mixed.node(b).port, 20) for b in (KAFKA_BROKER, *ODRADEK)}
    every = [i for got in ids.values() for i in got]
    assert len(set(every)) == len(every), ids
    blocks = {b: {i // 1000 for i in got} for b, got in ids.items()}
    assert all(not (blocks[a] & blocks[b]) for a in blocks for b in blocks if a != b), blocks


def test_a_broker_joining_later_loads_kafkas_metadata_snapshot(mixed, load):
    node = mixed.node(LATE)
    snapshots = mixed.node(1).log_dir / "__cluster_metadata-0"
    since = max(f.stat().st_mtime for f in snapshots.glob("*.checkpoint"))
    wait_for(lambda: max(f.stat().st_mtime for f in snapshots.glob("*.checkpoint")) > since, 60,
             "a metadata snapshot by Kafka's controller after the topic's records")
    node.start()
    node.wait_ready()
    wait_unfenced(mixed, [KAFKA_BROKER, *ODRADEK, LATE])
    assert any("restoring snapshot" in line for line in node.lines), "".join(node.lines[-20:])
    md = AdminClient({"bootstrap.servers": f"127.0.0.1:{node.port}"}).list_topics(TOPIC, timeout=10).topics[TOPIC]
    assert md.error is None and {p: sorted(m.replicas) for p, m in md.partitions.items()} == {
        p: sorted(r) for p, r in enumerate(ASSIGNMENT)}
