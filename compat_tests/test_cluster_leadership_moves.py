"""A broker taking thousands of leaderships at once keeps its session (issue 27): on 1 controller + 2
brokers of real processes with Kafka's session and heartbeat settings (9 s, 2 s), a topic of PARTS
partitions with replicas [a, b] (a leads every one) is reassigned to [b, a] and the preferred leaders
elected (b takes every leadership, a follows every one), then b stops (its controlled shutdown moves
every leadership back to a). Neither broker is ever fenced meanwhile: their registrations, polled
from both brokers' DescribeCluster with fenced brokers included, never say fenced, and the
controller never logs a fence for a timed-out session. (An odradek broker taking 5,000 leaderships
once waited tens of seconds for per-partition fsyncs on its event loop and was fenced.) No timing
is asserted: the waits are for conditions, bounded only so that a hang ends."""
from __future__ import annotations

import tempfile
import threading
from pathlib import Path

import pytest

from cluster import running_cluster, wait_for
from odradek.broker.wire_client import WireClient
from odradek.wire.messages.alter_partition_reassignments_request import (
    AlterPartitionReassignmentsRequest, ReassignablePartition, ReassignableTopic)
from odradek.wire.messages.create_topics_request import (
    CreatableReplicaAssignment, CreatableTopic, CreateTopicsRequest)
from odradek.wire.messages.describe_cluster_request import DescribeClusterRequest
from odradek.wire.messages.elect_leaders_request import ElectLeadersRequest
from odradek.wire.messages.metadata_request import MetadataRequest, MetadataRequestTopic

pytestmark = pytest.mark.timeout(900)

PARTS = 5000
MOVE_S = 600  # (thousands of replica changes on a loaded 2-core machine)


@pytest.fixture(scope="module")
def cluster(request):
    # Kafka's defaults for the session and the heartbeats and the ISR lag (not FAST's), leader
    # rebalancing off so that only the request elects. The data on the machine's temp directory, not in
    # the tests' tmpfs (conftest.py): the per-partition fsyncs whose waits starved the broker's event
    # loop cost nothing on tmpfs.
    with tempfile.TemporaryDirectory(prefix="odradek-moves-") as root, running_cluster(Path(root), request.config, 1, 2,
                         {"broker.session.timeout.ms": "9000", "broker.heartbeat.interval.ms": "2000",
                          "replica.lag.time.max.ms": "30000", "auto.leader.rebalance.enable": "false"}) as c:
        yield c


def _send(node, request, max_version: int):
    with WireClient("127.0.0.1", node.port, timeout=300) as c:
        return c.send(request, max_version=max_version)


def _leaders(node, topic: str) -> dict[int, tuple[int, tuple]]:
    r = _send(node, MetadataRequest(topics=[MetadataRequestTopic(name=topic)]), 12)
    t = r.topics[0]
    return {} if t.error_code else {p.partition_index: (p.leader_id, tuple(sorted(p.isr_nodes))) for p in t.partitions}


def _all_led(nodes, topic: str, leader: int, isr: tuple | None = None):
    def check():
        for n in nodes:
            ls = _leaders(n, topic)
            if len(ls) != PARTS or any(ld != leader or (isr is not None and i != isr) for ld, i in ls.values()):
                return False
        return True
    wait_for(check, MOVE_S, f"every partition of {topic} led by {leader}",
             last=lambda: {n.id: sorted(set(_leaders(n, topic).values()))[:5] for n in nodes})


class FenceWatch:
    """Polls DescribeCluster (fenced brokers included) of the given brokers every 0.1 s in a thread of
    its own: every (broker asked, broker id) it saw fenced, and every broker epoch seen per broker."""

    def __init__(self, asked, watched: set[int]):
        self.asked, self.watched = list(asked), set(watched)
        self.fenced: set[tuple[int, int]] = set()
        self.polls = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> FenceWatch:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join(30)

    def _run(self) -> None:
        clients = {}
        while not self._stop.is_set():
            for n in self.asked:
                try:
                    c = clients.get(n.id)
                    if c is None:
                        c = clients[n.id] = WireClient("127.0.0.1", n.port, timeout=30)
                    r = c.send(DescribeClusterRequest(include_fenced_brokers=True), max_version=2)
                except Exception:  # noqa: BLE001 - a broker stopping; asked again next time
                    clients.pop(n.id, None)
                    continue
                self.polls += 1
                self.fenced.update((n.id, b.broker_id) for b in r.brokers if b.is_fenced and b.broker_id in self.watched)
            self._stop.wait(0.1)
        for c in clients.values():
            c.close()


def _fence_lines(controller, since: int) -> list[str]:
    return [line for line in controller.lines[since:] if "Fencing broker" in line]


def test_brokers_taking_thousands_of_leaderships_are_never_fenced(cluster, topic_name):
    a, b = sorted(n.id for n in cluster.brokers)
    na, nb = cluster.node(a), cluster.node(b)
    controller = next(n for n in cluster.nodes.values() if not n.is_broker)
    r = _send(na, CreateTopicsRequest(timeout_ms=300000, topics=[CreatableTopic(
        name=topic_name, num_partitions=-1, replication_factor=-1, assignments=[
            CreatableReplicaAssignment(partition_index=p, broker_ids=[a, b]) for p in range(PARTS)])]), 7)
    assert [(t.name, t.error_code) for t in r.topics] == [(topic_name, 0)]
    _all_led([na, nb], topic_name, a, (a, b))
    since = len(controller.lines)

    with FenceWatch([na, nb], {a, b}) as watch:
        r = _send(na, AlterPartitionReassignmentsRequest(timeout_ms=300000, topics=[ReassignableTopic(
            name=topic_name, partitions=[ReassignablePartition(partition_index=p, replicas=[b, a])
                                         for p in range(PARTS)])]), 0)
        assert r.error_code == 0 and all(p.error_code == 0 for t in r.responses for p in t.partitions)
        r = _send(na, ElectLeadersRequest(election_type=0, timeout_ms=300000, topic_partitions=None), 2)
        assert r.error_code == 0
        _all_led([na, nb], topic_name, b, (a, b))  # b leads all; a follows all, in every ISR
    assert watch.polls > 0 and watch.fenced == set()
    assert _fence_lines(controller, since) == []

    with FenceWatch([na], {a}) as watch:
        nb.terminate()  # a controlled shutdown: every leadership moves to a
        assert nb.wait_exit(MOVE_S) == nb.clean_exit_code
        _all_led([na], topic_name, a)
    assert watch.polls > 0 and watch.fenced == set()
    assert [line for line in _fence_lines(controller, since) if f"broker {a} " in line] == []
