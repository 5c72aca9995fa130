"""A mixed cluster under odradek's controllers (issue 20, "Against Kafka itself"): an Apache Kafka 4.3
broker joins a cluster whose KRaft quorum is odradek's, beside odradek brokers, and partitions
replicate both ways with the records identical byte for byte.

Three odradek controllers (nodes 1-3), odradek brokers 4 and 5, and a Kafka 4.3 broker-only node 6
formatted with the cluster id odradek's nodes use (kafka-storage format, bench/kafka_ref.kafka_broker_node;
the jars come from Maven Central through apache_kafka). The Kafka broker joins once the controllers have
taken metadata snapshots and dropped the log before them, so it loads one with FetchSnapshot (Kafka's
snapshot layout: header and footer control batches); it registers with odradek's active controller (its
listeners, features and log directory), heartbeats, is unfenced, follows the metadata log as an observer
and replicates with odradek's brokers through Kafka's Fetch.

A topic with replication factor 3 and min.insync.replicas=2 is placed by hand so that the Kafka broker
leads partition 0 (odradek brokers following it) and odradek brokers lead partitions 1 and 2 (the Kafka
broker following them). Records produced by idempotent acks=all producers in several batches
(uncompressed and lz4, with keys and headers) are all acknowledged; each partition's replicas then hold
the same record batches in their segment files, byte for byte (base offsets, leader epochs, producer
ids and sequences, CRCs), and a consumer reading each partition from its leader gets back what was sent,
at the acknowledged offsets.

Then, one after the other:
- the active odradek controller is killed with SIGKILL: the Kafka broker finds the new one (observer
  Fetch to the other voters) and keeps its session, stays in every ISR, production goes on;
- the Kafka broker is killed with SIGKILL: odradek's controller fences it when its session lapses and
  elects an odradek leader for partition 0, production goes on; it restarts as a new incarnation,
  catches up from odradek leaders (truncating as Kafka does) and rejoins every ISR, and a
  preferred-leader election gives partition 0 back to it; once more every replica holds the same
  batches and every acknowledged record reads back;
- the Kafka broker is stopped with SIGTERM: its controlled shutdown with odradek's controller moves
  partition 0's leadership away and it exits cleanly.
Before that: Kafka's kafka-metadata-quorum --bootstrap-controller on odradek's controllers lists the
Kafka broker among the observers; admin writes sent to the Kafka broker reach odradek's controller
(Envelope); a partition
held by odradek brokers is reassigned onto the Kafka broker and the copies are identical; transactions
coordinated by the Kafka broker and by an odradek broker span partitions led by both kinds
(AddPartitionsToTxn verification and WriteTxnMarkers across kinds), read_committed exact.
"""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from confluent_kafka.admin import AdminClient

import apache_kafka
from odradek.wire.errors import ErrorCode
from cluster import (FAST, KAFKA_CLEAN_EXIT, KAFKA_READY_S, Cluster, ClusterNode, free_port, replica_batches,
                     start_cluster, wait_for)

TOPIC, PARTITIONS = "mixed", 3
CONTROLLERS, ODRADEK_BROKERS = (1, 2, 3), (4, 5)
KAFKA_ID = 6
MIN_ISR = "2"
SNAPSHOT_EVERY = 1024  # bytes of metadata records between the controller's snapshots

pytestmark = pytest.mark.timeout(900)


def _skip_without_kafka() -> None:
    reason = apache_kafka.missing()
    if reason:
        pytest.skip(f"mixed cluster with an Apache Kafka 4.3 broker {reason}")


def _cluster_id(controller: ClusterNode) -> str:
    """The cluster id odradek's controller announces in its ready line."""
    m = next(m for m in (re.search(r"cluster (\S+), data", line) for line in controller.lines) if m)
    return m.group(1)


def _kafka_broker(root: Path, voters: str, cluster_id: str) -> ClusterNode:
    from bench.kafka_ref import KAFKA_READY, kafka_broker_node
    from builds import kafka_test_jvm

    port = free_port()
    node = kafka_broker_node(root / f"node-{KAFKA_ID}", KAFKA_ID, port, voters, cluster_id, FAST, kafka_test_jvm())
    return ClusterNode(KAFKA_ID, "broker", node.command(), None, KAFKA_READY, port, node.dir / "data",
                       KAFKA_READY_S, KAFKA_CLEAN_EXIT)


def _kafka_problems(node: ClusterNode) -> str:
    return "".join(line for line in node.lines if " ERROR " in line or " WARN " in line)[-4000:]


@pytest.fixture(scope="module")
def mixed(tmp_path_factory):
    _skip_without_kafka()
    root = tmp_path_factory.mktemp("mixed")
    # the controller takes a metadata snapshot every few records and drops the log before it, so the
    # Kafka broker, joining later, must load one with FetchSnapshot
    snapshots = {"metadata.log.max.record.bytes.between.snapshots": str(SNAPSHOT_EVERY)}
    odr = start_cluster("odradek", root / "odradek", controllers=3, brokers=2, props=FAST,
                        node_props={c: snapshots for c in CONTROLLERS})
    kafka = None
    try:
        from confluent_kafka.admin import NewTopic

        fs = odr.admin.create_topics([NewTopic(f"before-{i}", 1, 2) for i in range(5)])
        for f in fs.values():
            f.result(60)
        voters = next(x.split("=", 1)[1] for x in odr.node(1).command if x.startswith("controller.quorum.voters="))
        kafka = _kafka_broker(root / "kafka", voters, _cluster_id(odr.node(1)))
        wait_for(lambda: all(list((odr.node(c).log_dir / "metadata" / "__cluster_metadata-0").glob("*.checkpoint"))
                             for c in CONTROLLERS), 60, "a metadata snapshot on every controller")
        kafka.start()
        kafka.wait_ready()
    except BaseException:
        odr.close()
        if kafka is not None and kafka.alive:
            kafka.kill9()
        raise
    cluster = Cluster("mixed", [*odr.nodes.values(), kafka])
    try:
        wait_for(lambda: len(cluster.admin.list_topics(timeout=5).brokers) == 3, 120,
                 "the Kafka broker in the metadata beside odradek's brokers",
                 last=lambda: _kafka_problems(kafka))
        snapshots = list((kafka.log_dir / "__cluster_metadata-0").glob("*.checkpoint"))
        assert snapshots, "the Kafka broker loaded no metadata snapshot from odradek's controllers"
        yield cluster
    finally:
        cluster.close()
        shutil.rmtree(root, ignore_errors=True)


def _produce(bootstrap: str, count: int, tag: str) -> dict[int, list[tuple[int, bytes, bytes]]]:
    """`count` records per partition with acks=all, in batches of several sizes, half lz4; every one
    acknowledged -> partition -> [(offset, key, value)]."""
    from confluent_kafka import Producer

    acked: dict[int, list[tuple[int, bytes, bytes]]] = {p: [] for p in range(PARTITIONS)}
    errors = []

    def report(err, msg):
        if err is not None:
            errors.append(err)
        else:
            acked[msg.partition()].append((msg.offset(), msg.key(), msg.value()))

    for compression in ("none", "lz4"):
        producer = Producer({"bootstrap.servers": bootstrap, "acks": "all", "enable.idempotence": True,
                             "compression.type": compression, "linger.ms": 5})
        for chunk in range(4):
            for i in range(count // 8):
                for p in range(PARTITIONS):
                    key = f"{tag}-{compression}-{chunk}-{i}".encode()
                    producer.produce(TOPIC, key=key, value=key * (1 + i % 7), partition=p, on_delivery=report,
                                     headers=[("h", f"{p}".encode())])
            assert producer.flush(60) == 0, "records left unacknowledged"
    assert errors == []
    return acked


def _consume(bootstrap: str, partition: int, end: int) -> list[tuple[int, bytes, bytes]]:
    from confluent_kafka import Consumer, TopicPartition

    c = Consumer({"bootstrap.servers": bootstrap, "group.id": f"mixed-read-{partition}", "enable.auto.commit": False,
                  "auto.offset.reset": "earliest"})
    c.assign([TopicPartition(TOPIC, partition, 0)])
    out = []
    try:
        def done():
            for m in c.consume(500, 0.2):  # (a call waits its whole timeout for the last records)
                assert m.error() is None, m.error()
                out.append((m.offset(), m.key(), m.value()))
            return out and out[-1][0] >= end - 1
        wait_for(done, 60, f"partition {partition} read back to offset {end}")
    finally:
        c.close()
    return out


def _identical(cluster: Cluster, kafka: ClusterNode) -> int:
    try:
        return cluster.wait_identical_replicas(TOPIC, PARTITIONS, timeout=90)
    except AssertionError as e:
        raise AssertionError(f"{e}\nKafka broker's warnings and errors:\n{_kafka_problems(kafka)}") from None


def _active_controller(cluster: Cluster) -> int | None:
    """The controller whose latest line says it became the active one (odradek's log), if alive."""
    latest = None
    for c in CONTROLLERS:
        node = cluster.node(c)
        for line in node.lines:
            m = re.match(r"(\S+ \S+) INFO odradek.quorum: node (\d+): active controller in epoch (\d+)", line)
            if m and node.alive and (latest is None or int(m.group(3)) > latest[0]):
                latest = (int(m.group(3)), c)
    return latest[1] if latest else None


def _check_all(cluster: Cluster, acked: dict[int, list], batches_before: int = 0) -> int:
    """Every acknowledged record read back from its leader at its offset; identical replicas."""
    for p in range(PARTITIONS):
        assert [o for o, _, _ in acked[p]] == list(range(len(acked[p])))
        assert _consume(cluster.bootstrap, p, len(acked[p])) == acked[p]
    batches = _identical(cluster, cluster.node(KAFKA_ID))
    assert batches > batches_before
    return batches


def _add(acked: dict[int, list], more: dict[int, list]) -> None:
    for p, records in more.items():
        acked[p] += records


def test_admin_writes_sent_to_the_kafka_broker_reach_odradeks_controller(mixed):
    """A Kafka broker forwards its clients' admin writes to the active controller inside an Envelope
    (API 58): CreateTopics and DeleteTopics sent to the Kafka broker itself are decided by odradek's
    controller (its errors included) and seen by odradek's brokers."""
    from harness import RawClient
    from odradek.wire.messages.create_topics_request import CreatableTopic, CreateTopicsRequest
    from odradek.wire.messages.delete_topics_request import DeleteTopicsRequest

    def create(name: str, rf: int):
        topic = CreatableTopic(name=name, num_partitions=2, replication_factor=rf, assignments=[], configs=[])
        (t,) = client.call(CreateTopicsRequest(topics=[topic], timeout_ms=30000), 7).topics
        return t.error_code, t.error_message

    client = RawClient(f"127.0.0.1:{mixed.node(KAFKA_ID).port}", timeout=60)
    try:
        assert create("via-kafka", 3) == (0, None)
        state = mixed.wait_full_isr("via-kafka")
        assert all(sorted(p.replicas) == [*ODRADEK_BROKERS, KAFKA_ID] for p in state.values())
        code, message = create("via-kafka", 3)
        assert (code, message) == (ErrorCode.TOPIC_ALREADY_EXISTS, "Topic 'via-kafka' already exists.")
        code, message = create("too-many", 4)
        assert code == ErrorCode.INVALID_REPLICATION_FACTOR and "replication factor of 4" in message
        (d,) = client.call(DeleteTopicsRequest(topic_names=["via-kafka"], timeout_ms=30000), 5).responses
        assert d.error_code == 0
    finally:
        client.sock.close()
    odradek_broker = f"127.0.0.1:{mixed.node(ODRADEK_BROKERS[0]).port}"
    admin = AdminClient({"bootstrap.servers": odradek_broker})
    wait_for(lambda: "via-kafka" not in admin.list_topics(timeout=5).topics, 30,
             "the topic deleted through the Kafka broker gone from an odradek broker's metadata")


def test_a_reassignment_moves_a_partition_onto_the_kafka_broker(mixed):
    """AlterPartitionReassignments through odradek's controller: the Kafka broker joins a partition held
    by odradek brokers (its replica put in its one log directory, the record's directories in step with
    its replicas), copies it from the odradek leader and an odradek replica leaves; the replicas are
    identical."""
    from confluent_kafka import Producer
    from confluent_kafka.admin import NewTopic
    from kafka import TopicPartition as KafkaTopicPartition
    from kafka.admin import KafkaAdminClient

    b1, b2 = ODRADEK_BROKERS
    topic = "moved"
    mixed.admin.create_topics([NewTopic(topic, num_partitions=1, replica_assignment=[[b1, b2]])])[topic].result(60)
    mixed.wait_full_isr(topic)
    producer = Producer({"bootstrap.servers": mixed.bootstrap, "acks": "all", "enable.idempotence": True})
    for i in range(200):
        producer.produce(topic, value=b"before the move %d" % i)
    assert producer.flush(60) == 0
    admin = KafkaAdminClient(bootstrap_servers=mixed.bootstrap)
    try:
        admin.alter_partition_reassignments({KafkaTopicPartition(topic, 0): [KAFKA_ID, b1]})
    finally:
        admin.close()
    mixed.wait_partitions(topic, lambda s: s[0].replicas == [KAFKA_ID, b1] and set(s[0].isr) == {KAFKA_ID, b1},
                          "the reassignment to the Kafka broker complete", timeout=90)

    def identical():
        kafka_copy, odradek_copy = (replica_batches(mixed.node(r).log_dir, topic, 0) for r in (KAFKA_ID, b1))
        return kafka_copy if kafka_copy and kafka_copy == odradek_copy else None
    batches = wait_for(identical, 60, "identical replicas after the move")
    assert batches[0][0] == 0 and len(batches) >= 1


def _transaction_coordinators(bootstrap: str, wanted: set[int]) -> dict[int, str]:
    """A transactional id coordinated by each broker kind wanted: node id -> transactional id (asked with
    FindCoordinator v4, which also has __transaction_state created on first use)."""
    from harness import RawClient
    from odradek.wire.messages.find_coordinator_request import FindCoordinatorRequest

    found: dict[int, str] = {}

    def ask():
        client = RawClient(bootstrap, timeout=30)
        try:
            ids = [f"mixed-txn-{i}" for i in range(60)]
            resp = client.call(FindCoordinatorRequest(key_type=1, coordinator_keys=ids), 4)
        finally:
            client.sock.close()
        for c in resp.coordinators:
            if c.error_code == 0 and c.node_id in wanted:
                found.setdefault(c.node_id, c.key)
        return found if set(found) == wanted else None
    return wait_for(ask, 120, f"transaction coordinators on brokers {sorted(wanted)}", last=lambda: found)


def test_transactions_with_coordinators_and_leaders_of_both_kinds(mixed):
    """Transactions whose coordinator is the Kafka broker or an odradek broker, over partitions led by
    both: the leaders verify with the other kind's coordinator (AddPartitionsToTxn), the coordinators
    send WriteTxnMarkers to the other kind's leaders; a read_committed consumer gets exactly the committed
    records, and every replica holds the same batches, the markers' control batches included."""
    from confluent_kafka import Consumer, Producer, TopicPartition
    from confluent_kafka.admin import NewTopic
    from odradek.wire.records import iter_batches

    b1, b2 = ODRADEK_BROKERS
    topic = "txn"
    mixed.admin.create_topics([NewTopic(topic, num_partitions=PARTITIONS, config={"min.insync.replicas": MIN_ISR},
                                        replica_assignment=[[KAFKA_ID, b1, b2], [b1, b2, KAFKA_ID],
                                                            [b2, KAFKA_ID, b1]])])[topic].result(60)
    mixed.wait_full_isr(topic)
    coordinators = _transaction_coordinators(f"127.0.0.1:{mixed.node(b1).port}", {KAFKA_ID, b1})
    committed = set()
    for node, txn_id in sorted(coordinators.items()):
        producer = Producer({"bootstrap.servers": mixed.bootstrap, "transactional.id": txn_id})
        producer.init_transactions(60)
        for round_, commit in enumerate((True, False, True)):
            producer.begin_transaction()
            values = [f"{txn_id}@{node}/{round_}/{i}".encode() for i in range(30)]
            for i, v in enumerate(values):
                producer.produce(topic, value=v, partition=i % PARTITIONS)
            assert producer.flush(60) == 0
            if commit:
                producer.commit_transaction(60)
                committed.update(values)
            else:
                producer.abort_transaction(60)
    consumer = Consumer({"bootstrap.servers": mixed.bootstrap, "group.id": "mixed-txn-read",
                         "isolation.level": "read_committed", "enable.auto.commit": False})
    consumer.assign([TopicPartition(topic, p, 0) for p in range(PARTITIONS)])
    read = []
    try:
        def all_read():
            read.extend(m.value() for m in consumer.consume(500, 0.2) if m.error() is None)
            return len(read) >= len(committed)
        wait_for(all_read, 60, "the committed records, read_committed")
        read.extend(m.value() for m in consumer.consume(500, 2) if m.error() is None)
    finally:
        consumer.close()
    assert sorted(read) == sorted(committed)
    mixed.wait_identical_replicas(topic, PARTITIONS, timeout=90)
    for p in range(PARTITIONS):
        batches = replica_batches(mixed.node(KAFKA_ID).log_dir, topic, p)
        markers = [h for _, raw in batches for h, _ in iter_batches(raw) if h.is_control]
        assert len(markers) == 2 * 3  # two producers, three transactions each: a commit or abort marker


def test_kafka_metadata_quorum_on_odradeks_controllers_sees_the_kafka_broker(mixed):
    """Kafka's kafka-metadata-quorum --bootstrap-controller against odradek's controllers (DescribeCluster
    for controllers, then DescribeQuorum): the active controller leads, the Kafka broker and odradek's
    brokers are the observers. A DescribeCluster for brokers sent to a controller gets
    MISMATCHED_ENDPOINT_TYPE, as from Kafka's controllers."""
    from harness import RawClient, kafka_tool
    from odradek.wire.messages.describe_cluster_request import DescribeClusterRequest

    voters = next(x.split("=", 1)[1] for x in mixed.node(1).command if x.startswith("controller.quorum.voters="))
    bootstrap_controllers = ",".join(v.split("@", 1)[1] for v in voters.split(","))
    out = kafka_tool("metadata-quorum", "--bootstrap-controller", bootstrap_controllers, "describe", "--status")
    assert out.returncode == 0, out.stdout + out.stderr
    status = dict(line.split(":", 1) for line in out.stdout.splitlines() if ":" in line)
    assert int(status["LeaderId"]) == _active_controller(mixed)
    observers = {o["id"] for o in json.loads(status["CurrentObservers"])}
    assert observers == {*ODRADEK_BROKERS, KAFKA_ID}
    client = RawClient(bootstrap_controllers.split(",")[0])
    try:
        resp = client.call(DescribeClusterRequest(endpoint_type=1), 1)
    finally:
        client.sock.close()
    assert resp.error_code == ErrorCode.MISMATCHED_ENDPOINT_TYPE and resp.endpoint_type == 2


def test_kafka_broker_and_odradek_brokers_replicate_both_ways(mixed):
    kafka = mixed.node(KAFKA_ID)
    b1, b2 = ODRADEK_BROKERS
    assignment = [[KAFKA_ID, b1, b2], [b1, b2, KAFKA_ID], [b2, KAFKA_ID, b1]]  # partition 0 led by Kafka
    from confluent_kafka import ElectionType, TopicPartition
    from confluent_kafka.admin import NewTopic

    fut = mixed.admin.create_topics([NewTopic(TOPIC, num_partitions=PARTITIONS, replica_assignment=assignment,
                                              config={"min.insync.replicas": MIN_ISR})])[TOPIC]
    fut.result(60)
    state = mixed.wait_full_isr(TOPIC)
    assert {p: s.leader for p, s in state.items()} == {0: KAFKA_ID, 1: b1, 2: b2}

    acked = _produce(mixed.bootstrap, 64, "first")
    assert all(len(acked[p]) == 64 for p in range(PARTITIONS))
    batches = _check_all(mixed, acked)
    assert batches >= PARTITIONS * 8  # eight flushes per partition: several batches each

    # the active controller dies: the Kafka broker follows the new one and keeps its session
    active = wait_for(lambda: _active_controller(mixed), 30, "an active controller")
    mixed.kill9(active)
    wait_for(lambda: _active_controller(mixed) not in (None, active), 60, "a new active controller")
    _add(acked, _produce(mixed.bootstrap, 16, "controller-failover"))
    state = mixed.wait_full_isr(TOPIC)
    assert state[0].leader == KAFKA_ID
    fenced = [line for c in CONTROLLERS for line in mixed.node(c).lines if f"Fencing broker {KAFKA_ID} " in line]
    assert fenced == [], "the Kafka broker lost its session in the controller failover"
    mixed.start(active)

    # the Kafka broker dies: odradek's controller fences it and elects an odradek leader for partition 0
    kafka.kill9()
    mixed.wait_partitions(TOPIC, lambda s: s[0].leader in ODRADEK_BROKERS and all(KAFKA_ID not in x.isr
                                                                                for x in s.values()),
                          "partition 0 led by an odradek broker, the Kafka broker out of every ISR", timeout=60)
    _add(acked, _produce(mixed.live_bootstrap(), 32, "while-kafka-down"))

    # it restarts as a new incarnation, catches up from odradek's leaders and rejoins every ISR
    kafka.start()
    kafka.wait_ready()
    mixed.wait_full_isr(TOPIC)
    wait_for(lambda: mixed.admin.elect_leaders(ElectionType.PREFERRED, [TopicPartition(TOPIC, 0)]).result(30)
             is not None and mixed.partitions(TOPIC)[0].leader == KAFKA_ID, 60,
             "partition 0 back on the Kafka broker (preferred leader election)")
    _add(acked, _produce(mixed.bootstrap, 32, "after-restart"))
    _check_all(mixed, acked, batches)

    # controlled shutdown: the controller moves partition 0 away before the Kafka broker exits
    assert kafka.stop() == KAFKA_CLEAN_EXIT
    assert any("The controller has asked us to exit controlled shutdown" in line for line in kafka.lines), \
        _kafka_problems(kafka)
    assert mixed.partitions(TOPIC)[0].leader in ODRADEK_BROKERS
