"""A cluster broker restarted keeps its partitions' data (issue 25).

One cluster of real processes for the module: 3 controllers + 3 brokers (nodes 4, 5, 6),
stock clients. Replication factor 1 topics and __consumer_offsets (committed offsets of
groups spread over its partitions): each broker in turn is killed with SIGKILL and
restarted, then stopped with SIGTERM and restarted; after every restart each acknowledged
record is read back at its offset, each committed offset is still there, the restarted
broker's partitions take new records right after the old ones and no log was set aside.
A topic deleted and re-created while a broker is down: the old log is kept renamed
`<topic>-<partition>.<id>-stray`, the new topic starts empty. Also 3 combined
broker+controller nodes, each killed in turn.
"""

from __future__ import annotations

import base64
import glob
import os

import pytest
from confluent_kafka import OFFSET_BEGINNING, Consumer, KafkaException, Producer, TopicPartition
from confluent_kafka.admin import AdminClient, NewTopic

from cluster import FAST, Cluster, ClusterNode, launch, odradek_node, running_odradek, wait_for
from harness import free_port

TOPIC, PARTITIONS, PER_PARTITION = "rf1", 6, 500
OFFSETS_PARTITIONS = 3  # offsets.topic.num.partitions in cluster.FAST


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    # FAST: brokers notice a dead peer sooner than Kafka's 9 s (a topic created while one is down)
    with running_odradek(tmp_path_factory.mktemp("cluster-restart"), 3, 3) as c:
        yield c


def _java_hash(s: str) -> int:
    h = 0
    for ch in s:
        h = (31 * h + ord(ch)) & 0xFFFFFFFF
    return h - (1 << 32) if h >= 1 << 31 else h


def _groups_over_offsets_partitions() -> list[str]:
    """Two groups per __consumer_offsets partition (Kafka: abs(groupId.hashCode) % n)."""
    out, per = [], {}
    i = 0
    while len(out) < 2 * OFFSETS_PARTITIONS:
        g = f"restart-group-{i}"
        p = abs(_java_hash(g)) % OFFSETS_PARTITIONS
        if per.get(p, 0) < 2:
            per[p] = per.get(p, 0) + 1
            out.append(g)
        i += 1
    return out


GROUPS = _groups_over_offsets_partitions()


def _create(admin: AdminClient, name: str, partitions: int) -> None:
    def made():
        try:
            admin.create_topics([NewTopic(name, partitions, 1)], operation_timeout=10)[name].result(timeout=15)
        except KafkaException as e:
            if "already exists" not in str(e):
                raise
        # (all topics listed: a Metadata naming the topic from librdkafka's admin, a producer-type
        # handle, allows auto-creation, which would make it with num.partitions if this create failed)
        md = admin.list_topics(timeout=5).topics.get(name)
        return md is not None and md.error is None and len(md.partitions) == partitions and \
            all(p.leader >= 0 for p in md.partitions.values())
    def state():
        md = admin.list_topics(timeout=5).topics.get(name)
        return None if md is None else (md.error, {i: p.leader for i, p in md.partitions.items()})
    wait_for(made, 60, f"topic {name}", last=state)


def _produce(p: Producer, topic: str, per_partition: dict[int, list[bytes]]) -> dict[int, list[int]]:
    """Send with acks=all; the offsets acknowledged, by partition (every record must be).
    One idempotent producer for the module: its sequence numbers go on across the restarts."""
    acked: dict[int, list[tuple[int, bytes]]] = {p: [] for p in per_partition}
    errors = []

    def report(err, msg):
        if err is not None:
            errors.append(err)
        else:
            acked[msg.partition()].append((msg.offset(), msg.value()))
    for part, values in per_partition.items():
        for v in values:
            p.produce(topic, v, partition=part, on_delivery=report)
            p.poll(0)
    assert p.flush(60) == 0
    assert errors == []
    out = {}
    for part, values in per_partition.items():
        got = sorted(acked[part])
        assert [v for _, v in got] == values
        out[part] = [o for o, _ in got]
    return out


def _read_all(bootstrap: str, topic: str, ends: dict[int, int]) -> dict[int, list[tuple[int, bytes]]]:
    """(offset, value) of every record of each partition up to its expected end."""
    c = Consumer({"bootstrap.servers": bootstrap, "group.id": "restart-reader", "enable.auto.commit": False,
                  "enable.partition.eof": False})
    try:
        c.assign([TopicPartition(topic, p, OFFSET_BEGINNING) for p in ends])
        got: dict[int, list[tuple[int, bytes]]] = {p: [] for p in ends}

        def done():  # reads on while records come (wait_for pauses 0.1 s between its calls)
            while True:
                msgs = c.consume(500, 0.1)  # (a call waits its whole timeout for the last records)
                for m in msgs:
                    if m.error() is None:
                        got[m.partition()].append((m.offset(), m.value()))
                if all(len(got[p]) >= ends[p] for p in ends):
                    return True
                if not msgs:
                    return False
        wait_for(done, 60, f"every record of {topic}")
        return got
    finally:
        c.close()


def _commit(bootstrap: str, group: str, offsets: dict[int, int]) -> None:
    """Commit, retrying while the group's coordinator comes up (__consumer_offsets is
    created on the first FindCoordinator)."""
    c = Consumer({"bootstrap.servers": bootstrap, "group.id": group, "enable.auto.commit": False})
    try:
        def committed():
            c.commit(offsets=[TopicPartition(TOPIC, p, o) for p, o in offsets.items()], asynchronous=False)
            return True
        wait_for(committed, 30, f"a commit of {group}")
    finally:
        c.close()


def _committed(bootstrap: str, group: str) -> dict[int, int]:
    c = Consumer({"bootstrap.servers": bootstrap, "group.id": group, "enable.auto.commit": False})
    try:
        return {tp.partition: tp.offset for tp in c.committed([TopicPartition(TOPIC, p) for p in range(PARTITIONS)],
                                                              timeout=10)}
    finally:
        c.close()


def _leaders(admin: AdminClient, topic: str) -> dict[int, int]:
    return {p: m.leader for p, m in admin.list_topics(topic, timeout=5).topics[topic].partitions.items()}


def _stray_dirs(node: ClusterNode) -> list[str]:
    return sorted(glob.glob(os.path.join(node.log_dir, "*-stray")))


@pytest.fixture(scope="module")
def loaded(cluster):
    """The rf1 topic with PER_PARTITION acknowledged records per partition, and a
    committed offset per partition for each group."""
    bootstrap = cluster.bootstrap
    # no auto-creation by the admin either: a named Metadata (list_topics(topic), _leaders) gives it a
    # handle of that topic, whose metadata refreshes after a test deletes it would re-create it with
    # num.partitions (CI of 5da513f: "recreated" with one partition, led by 6, before _create's)
    admin = AdminClient({"bootstrap.servers": bootstrap, "allow.auto.create.topics": False})
    _create(admin, TOPIC, PARTITIONS)
    assert sorted(set(_leaders(admin, TOPIC).values())) == [4, 5, 6]
    data = {p: [f"{p}:{i}".encode() for i in range(PER_PARTITION)] for p in range(PARTITIONS)}
    # no auto-creation: a topic this producer wrote to and a test deletes stays deleted (librdkafka's
    # producer asks for it again at once; with auto.create.topics.enable the broker would re-create it
    # with one partition before the test re-creates it with three)
    producer = Producer({"bootstrap.servers": bootstrap, "acks": "all", "linger.ms": 5, "enable.idempotence": True,
                         "allow.auto.create.topics": False})
    offsets = _produce(producer, TOPIC, data)
    assert offsets == {p: list(range(PER_PARTITION)) for p in range(PARTITIONS)}
    commits = {g: {p: 10 * (k + 1) + p for p in range(PARTITIONS)} for k, g in enumerate(GROUPS)}
    for g, offs in commits.items():
        _commit(bootstrap, g, offs)
    return {"bootstrap": bootstrap, "admin": admin, "producer": producer, "data": data, "commits": commits}


def _check(state) -> int:
    """Every acknowledged record at its offset, every committed offset; the records checked."""
    bootstrap, data = state["bootstrap"], state["data"]
    got = _read_all(bootstrap, TOPIC, {p: len(v) for p, v in data.items()})
    for p, values in data.items():
        assert got[p] == list(enumerate(values)), f"partition {p}"
    for g, offs in state["commits"].items():
        assert wait_for(lambda: _committed(bootstrap, g) == offs or None, 30, f"offsets of {g}")
    return sum(len(v) for v in data.values())


def _restart_each(cluster, state, how: str) -> None:
    admin = state["admin"]
    leaders = _leaders(admin, TOPIC)
    for node in cluster.brokers:
        if how == "kill":
            node.kill9()
        else:
            assert node.stop() == 0, "".join(node.lines[-20:])
        node.start()
        node.wait_ready(60)
        assert _check(state) == sum(len(v) for v in state["data"].values())
        # the restarted broker's partitions go on right after their old records
        mine = {p: [f"{p}:{how}{node.id}".encode()] for p, b in leaders.items() if b == node.id}
        assert mine
        acked = _produce(state["producer"], TOPIC, mine)
        for p, offs in acked.items():
            assert offs == [len(state["data"][p])]
            state["data"][p] += mine[p]
        assert _stray_dirs(node) == []
        assert not any("not serving it" in line for line in node.lines), "".join(node.lines[-20:])


def test_kill9_each_broker_keeps_records_and_committed_offsets(cluster, loaded):
    _check(loaded)
    _restart_each(cluster, loaded, "kill")


def test_clean_stop_each_broker_keeps_records_and_committed_offsets(cluster, loaded):
    _restart_each(cluster, loaded, "term")


def test_short_lived_producers_through_each_broker_all_get_written(cluster, loaded):
    """Each broker hands out producer ids: a producer bootstrapped through each one, writing
    one record to the same partition, must not be taken for another (same id, same
    sequence: acknowledged as a duplicate and never written)."""
    name = "pids"
    _create(loaded["admin"], name, 1)
    acked = []
    for node in cluster.brokers:
        p = Producer({"bootstrap.servers": f"127.0.0.1:{node.port}", "acks": "all", "enable.idempotence": True})
        acked.append(_produce(p, name, {0: [f"via{node.id}".encode()]})[0][0])
    assert acked == [0, 1, 2]
    got = _read_all(loaded["bootstrap"], name, {0: 3})
    assert got[0] == [(0, b"via4"), (1, b"via5"), (2, b"via6")]


def _topic_id_of(admin: AdminClient, name: str) -> bytes:
    from confluent_kafka import TopicCollection

    d = admin.describe_topics(TopicCollection([name]))[name].result(timeout=10)
    return base64.urlsafe_b64decode(str(d.topic_id) + "==")


def test_topic_deleted_and_recreated_while_broker_down_keeps_old_log_as_stray(cluster, loaded):
    bootstrap, admin, producer = loaded["bootstrap"], loaded["admin"], loaded["producer"]
    name = "recreated"
    _create(admin, name, 3)
    old_id = _topic_id_of(admin, name)
    _produce(producer, name, {p: [f"old{p}:{i}".encode() for i in range(50)] for p in range(3)})
    leader = _leaders(admin, name)[0]
    node = cluster.node(leader)
    seg = os.path.join(node.log_dir, f"{name}-0", "00000000000000000000.log")
    old_size = os.path.getsize(seg)
    assert old_size > 0
    node.kill9()
    # the controller fences it (broker.session.timeout.ms) before the topic is re-created, so the
    # new partitions go to live brokers: this test is about the old log on the restarted broker.
    # (Created while the dead broker is still unfenced, a partition is placed on it, as Kafka's
    # placement does, and has no leader from the fence until the broker is back: _create, which
    # waits for every leader before the restart, would wait forever. test_cluster_leaderless
    # checks that case against Kafka's answers.)
    wait_for(lambda: node.id not in {b.id for b in admin.describe_cluster().result(timeout=5).nodes}, 60,
             f"broker {node.id} fenced")
    admin.delete_topics([name], operation_timeout=10)[name].result(timeout=15)
    wait_for(lambda: name not in admin.list_topics(timeout=5).topics, 20, "topic deleted")
    _create(admin, name, 3)  # waits for every partition to have a live leader
    new_id = _topic_id_of(admin, name)
    assert new_id != old_id
    node.start()
    node.wait_ready(60)
    strays = [d for d in _stray_dirs(node) if os.path.basename(d).startswith(f"{name}-0.")]
    assert len(strays) == 1, _stray_dirs(node)
    assert os.path.basename(strays[0])[len(name) + 3:-len("-stray")].isalnum()
    assert os.path.getsize(os.path.join(strays[0], "00000000000000000000.log")) == old_size
    with open(os.path.join(strays[0], "partition.metadata"), "rb") as f:
        assert f.read() == b"version: 0\ntopic_id: " + base64.urlsafe_b64encode(old_id).rstrip(b"=")
    # the new topic starts empty on every partition, wherever it was placed
    c = Consumer({"bootstrap.servers": bootstrap, "group.id": "restart-reader"})
    try:
        def empty():
            return all(c.get_watermark_offsets(TopicPartition(name, p), timeout=5) == (0, 0) for p in range(3))
        wait_for(empty, 30, "the re-created topic empty")
    finally:
        c.close()
    acked = _produce(producer, name, {p: [f"new{p}".encode()] for p in range(3)})
    assert acked == {0: [0], 1: [0], 2: [0]}
    # the rest of the cluster's data came through as well
    assert _check(loaded) == sum(len(v) for v in loaded["data"].values())


def _combined_nodes(root) -> list[ClusterNode]:
    """3 nodes with process.roles=broker,controller, each a voter."""
    bps, cps = [free_port() for _ in range(3)], [free_port() for _ in range(3)]
    voters = ",".join(f"{i + 1}@127.0.0.1:{cps[i]}" for i in range(3))
    return [odradek_node({"node.id": str(i + 1), "process.roles": "broker,controller",
                          "controller.quorum.voters": voters,
                          "listeners": f"PLAINTEXT://127.0.0.1:{bps[i]},CONTROLLER://127.0.0.1:{cps[i]}",
                          "controller.listener.names": "CONTROLLER", "log.dirs": str(root / f"n{i + 1}"), **FAST})
            for i in range(3)]


@pytest.fixture(scope="module", autouse=True)
def combined(tmp_path_factory):
    """The combined nodes of test_combined_nodes_killed_in_turn_keep_records_and_offsets, their processes
    started with the module: they come up while the module's 3+3 cluster is used, and the test waits only
    for what is left of their start (launch). Killed at the module's end."""
    with Cluster("odradek", _combined_nodes(tmp_path_factory.mktemp("combined"))) as cluster:
        for n in cluster.nodes.values():
            n.start()
        yield cluster


def test_combined_nodes_killed_in_turn_keep_records_and_offsets(combined):
    """process.roles=broker,controller on 3 nodes: a restarted node may itself become the
    active controller; its logs still wait for the caught-up metadata."""
    cluster = launch(combined)
    nodes = list(cluster.nodes.values())
    bootstrap = cluster.bootstrap
    _create(AdminClient({"bootstrap.servers": bootstrap}), TOPIC, PARTITIONS)
    producer = Producer({"bootstrap.servers": bootstrap, "acks": "all", "enable.idempotence": True})
    state = {"bootstrap": bootstrap, "data": {p: [f"c{p}:{i}".encode() for i in range(100)]
                                              for p in range(PARTITIONS)},
             "commits": {GROUPS[0]: {p: p + 1 for p in range(PARTITIONS)}}}
    _produce(producer, TOPIC, state["data"])
    _commit(bootstrap, GROUPS[0], state["commits"][GROUPS[0]])
    for n in nodes:
        n.kill9()
        n.start()
        n.wait_ready(60)
        assert _check(state) == PARTITIONS * 100
        assert _stray_dirs(n) == []
