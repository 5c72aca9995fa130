"""Producer ids from the controller (issue 21 item 2), on 3 controllers + 3 brokers of real processes:
200 idempotent producers' InitProducerId spread over the 3 brokers get distinct ids, each broker's
from its own blocks of 1000; the active controller is killed with kill -9, a broker is killed and
started again (its new incarnation needs a block from the new controller) and another broker hands
out more than a block (it asks for the next at 90%): every id stays distinct. Real clients too:
idempotent confluent-kafka producers get distinct ids (DescribeProducers on the partitions).
Runs against Kafka 4.3 with --cluster-kafka. The same on 3 combined nodes (broker and controller in
one process: the active controller's own broker asks it in-process)."""

from __future__ import annotations

import os
from collections import defaultdict
from pathlib import Path

import pytest
from confluent_kafka import Producer

from cluster import FAST, Cluster, ClusterNode, cluster_kind, free_base, running_cluster, wait_for
from harness import REPO, RawClient
from odradek.cli_cluster import node_properties, serve_command
from odradek.wire.errors import ErrorCode
from odradek.wire.messages.describe_producers_request import DescribeProducersRequest, TopicRequest
from odradek.wire.messages.describe_quorum_request import DescribeQuorumRequest, PartitionData, TopicData
from odradek.wire.messages.init_producer_id_request import InitProducerIdRequest
from odradek.wire.messages.metadata_request import MetadataRequest, MetadataRequestTopic

pytestmark = pytest.mark.timeout(1800)

BLOCK = 1000  # Kafka's producer id block
RETRIABLE = (ErrorCode.COORDINATOR_LOAD_IN_PROGRESS, ErrorCode.NOT_COORDINATOR, ErrorCode.COORDINATOR_NOT_AVAILABLE)


@pytest.fixture(scope="module")
def cluster(request, tmp_path_factory):
    with running_cluster(tmp_path_factory.mktemp("producer-ids"), request.config) as c:
        yield c


def init_producer_ids(port: int, n: int, timeout: float = 60) -> list[int]:
    """``n`` idempotent producers' InitProducerId (as the Java client sends it) on one connection to
    broker ``port``, each retried while the broker has no block yet (COORDINATOR_LOAD_IN_PROGRESS)."""
    c = RawClient(f"127.0.0.1:{port}", timeout=30)
    ids = []
    try:
        for _ in range(n):
            def once():
                r = c.call(InitProducerIdRequest(transactional_id=None, transaction_timeout_ms=2**31 - 1,
                                                 producer_id=-1, producer_epoch=-1), 4)
                if r.error_code in RETRIABLE:
                    return None
                return r
            r = wait_for(once, timeout, f"InitProducerId on port {port}")
            assert (r.error_code, r.producer_epoch) == (0, 0) and r.producer_id >= 0, r
            ids.append(r.producer_id)
    finally:
        c.close()
    return ids


def controller_leader(port: int) -> int:
    c = RawClient(f"127.0.0.1:{port}", timeout=10)
    try:
        r = c.call(DescribeQuorumRequest(topics=[TopicData(topic_name="__cluster_metadata",
                                                           partitions=[PartitionData(partition_index=0)])]), 1)
    finally:
        c.close()
    p = r.topics[0].partitions[0] if r.error_code == 0 and r.topics else None
    return p.leader_id if p is not None and p.error_code == 0 else -1


def active_producer_ids(cluster, topic: str) -> set[int]:
    """The producer ids the partitions' leaders hold state for (DescribeProducers on each leader)."""
    any_port = cluster.brokers[0].port
    c = RawClient(f"127.0.0.1:{any_port}", timeout=10)
    try:
        md = c.call(MetadataRequest(topics=[MetadataRequestTopic(name=topic)], allow_auto_topic_creation=False), 12)
    finally:
        c.close()
    out = set()
    for p in md.topics[0].partitions:
        leader = cluster.node(p.leader_id)
        c = RawClient(f"127.0.0.1:{leader.port}", timeout=10)
        try:
            r = c.call(DescribeProducersRequest(topics=[TopicRequest(name=topic, partition_indexes=[p.partition_index])]),
                       0)
        finally:
            c.close()
        part = r.topics[0].partitions[0]
        assert part.error_code == 0, part
        out |= {s.producer_id for s in part.active_producers}
    return out


def check_blocks(by_holder: dict[tuple[int, int], list[int]]) -> None:
    """Distinct ids, and no block of 1000 shared between two brokers (or two lives of one broker)."""
    every = [i for ids in by_holder.values() for i in ids]
    assert len(set(every)) == len(every), "a producer id was handed out twice"
    owner: dict[int, tuple[int, int]] = {}
    for holder, ids in by_holder.items():
        for i in ids:
            assert owner.setdefault(i // BLOCK, holder) == holder, \
                f"block {i // BLOCK} used by {owner[i // BLOCK]} and by {holder}"


def test_producer_ids_stay_distinct_across_controller_failover(cluster):
    brokers = cluster.brokers
    assert len(brokers) == 3
    lives = {b.id: 1 for b in brokers}
    by_holder: dict[tuple[int, int], list[int]] = defaultdict(list)

    def allocate(broker, n):
        by_holder[(broker.id, lives[broker.id])] += init_producer_ids(broker.port, n)

    # 200 idempotent producers spread over the 3 brokers
    for k, n in enumerate((67, 67, 66)):
        allocate(brokers[k], n)
    check_blocks(by_holder)
    assert sum(map(len, by_holder.values())) == 200

    # stock idempotent producers (confluent-kafka) on a replicated topic get distinct ids too
    cluster.create_topic("pids", 3, 3, {})
    producers = [Producer({"bootstrap.servers": cluster.bootstrap, "enable.idempotence": True,
                           "client.id": f"idem-{k}"}) for k in range(6)]
    for k, p in enumerate(producers):
        for j in range(6):
            p.produce("pids", key=f"{k}-{j}".encode(), value=b"v", partition=j % 3)
        assert p.flush(60) == 0
    stock = wait_for(lambda: (lambda s: s if len(s) == 6 else None)(active_producer_ids(cluster, "pids")), 60,
                     "six producers' state on the partitions")
    assert not stock & {i for ids in by_holder.values() for i in ids}

    # kill -9 the active controller; a new one is elected
    old = wait_for(lambda: (lambda lid: lid if lid > 0 else None)(controller_leader(brokers[0].port)), 60,
                   "the active controller")
    cluster.kill9(old)
    new = wait_for(lambda: (lambda lid: lid if lid > 0 and lid != old else None)(controller_leader(brokers[0].port)),
                   60, "a new active controller")
    assert new != old

    # a broker killed and started again needs a block from the new controller
    b0 = brokers[0]
    cluster.kill9(b0.id)
    cluster.start(b0.id)
    lives[b0.id] += 1
    # 200 more producers, and one broker handing out more than its block (the next one asked for at 90%)
    for k, n in enumerate((67, 67, 66)):
        allocate(brokers[k], n)
    allocate(brokers[1], BLOCK + 100)
    check_blocks(by_holder)
    assert sum(map(len, by_holder.values())) == 400 + BLOCK + 100
    assert len({i // BLOCK for i in by_holder[(brokers[1].id, 1)]}) >= 2  # the next block came after the failover

    # the killed controller back: still distinct from everything before
    cluster.start(old)
    for k, n in enumerate((10, 10, 10)):
        allocate(brokers[k], n)
    check_blocks(by_holder)
    assert not stock & {i for ids in by_holder.values() for i in ids}
    for p in producers:
        p.flush(10)


def combined_nodes(root: Path, n: int = 3) -> list[ClusterNode]:
    """``n`` odradek nodes with process.roles=broker,controller, each a voter."""
    base = free_base(n, n)
    voters = ",".join(f"{i}@127.0.0.1:{base + 100 + i}" for i in range(1, n + 1))
    env = dict(os.environ, PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""),
               ODRADEK_LOG_LEVEL="INFO")
    out = []
    for i in range(1, n + 1):
        p = {**node_properties(i, "broker,controller", voters, str(root), base + i - 1, base + 100 + i), **FAST}
        out.append(ClusterNode(i, p["process.roles"], serve_command(p), env, "odradek ready", base + i - 1,
                               Path(p["log.dirs"])))
    return out


@pytest.fixture(scope="module", autouse=True)
def combined(request, tmp_path_factory):
    """The combined nodes of test_combined_nodes_distinct_across_controller_failover, their processes started
    with the module: they come up while the module's 3+3 cluster is used, and the test waits only for what
    is left of their start. Killed at the module's end; none with --cluster-kafka (the test skips)."""
    if cluster_kind(request.config) == "kafka":
        yield None
        return
    with Cluster("odradek", combined_nodes(tmp_path_factory.mktemp("combined"))) as cluster:
        for n in cluster.nodes.values():
            n.start()
        yield cluster


def test_combined_nodes_distinct_across_controller_failover(combined):
    if combined is None:
        pytest.skip("odradek's combined nodes")
    cluster = combined
    for n in cluster.nodes.values():
        n.wait_ready()
    nodes = cluster.brokers
    by_holder: dict[tuple[int, int], list[int]] = defaultdict(list)
    for n in nodes:
        by_holder[(n.id, 1)] += init_producer_ids(n.port, 50)
    check_blocks(by_holder)
    leader = wait_for(lambda: (lambda lid: lid if lid > 0 else None)(controller_leader(nodes[0].port)), 60,
                      "the active controller")
    cluster.kill9(leader)
    rest = [n for n in nodes if n.id != leader]
    wait_for(lambda: (lambda lid: lid if lid > 0 and lid != leader else None)(controller_leader(rest[0].port)),
             60, "a new active controller")
    for n in rest:  # past the block: one of them asks its own (now active) controller in-process
        by_holder[(n.id, 1)] += init_producer_ids(n.port, BLOCK)
    cluster.start(leader)
    by_holder[(leader, 2)] += init_producer_ids(cluster.node(leader).port, 50)
    check_blocks(by_holder)
    assert sum(map(len, by_holder.values())) == 3 * 50 + 2 * BLOCK + 50
