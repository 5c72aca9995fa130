"""odradek.testing.Cluster as a user's test drives it: a leader killed (-9) and restarted, a fault
injected on every broker, a paused broker; network faults (no root: each node refuses or delays its
peers' requests): the leader cut from every other node and from clients is fenced by the
controller, leadership moves and the ISR shrinks, healed it rejoins; a follower whose fetches are
answered late leaves the ISR after replica.lag.time.max.ms (3 s here) and comes back when it is fast
again. What confluent-kafka sees is what a real cluster shows."""

from __future__ import annotations

import time
import uuid

import pytest

from odradek.testing import Cluster


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    with Cluster(brokers=2, controllers=1, data_dir=tmp_path_factory.mktemp("cluster")) as c:
        yield c


def wait_for(pred, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    while not (got := pred()):
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.1)
    return got


def test_leader_killed_and_restarted(cluster):
    assert cluster.brokers == [2, 3] and cluster.controllers == [1]
    cluster.create_topic("kill", partitions=1, replication_factor=2, min_insync_replicas=1)
    assert cluster.produce("kill", "a") == [0]
    leader = wait_for(lambda: (lambda x: x if x > 0 else None)(cluster.leader("kill")), 30, "a leader")
    cluster.kill(leader)
    other = wait_for(lambda: (lambda x: x if x > 0 and x != leader else None)(cluster.leader("kill")), 60,
                     "a new leader")
    assert other in cluster.brokers
    assert cluster.produce("kill", "b") == [1]
    cluster.restart(leader)
    wait_for(lambda: len(cluster.metadata_brokers()) == 2, 60, "the restarted broker registered")
    assert cluster.consume("kill", 2) == [b"a", b"b"]


def test_fault_on_every_broker(cluster):
    from confluent_kafka import Producer

    cluster.create_topic("everywhere", partitions=2, replication_factor=1)
    with cluster.faults.inject("Produce", "NOT_LEADER_OR_FOLLOWER", times=1, topic="everywhere") as f:
        assert len(f.handles) == 2
        p = Producer({"bootstrap.servers": cluster.bootstrap, "retry.backoff.ms": 20})
        for part in (0, 1):
            p.produce("everywhere", b"x", partition=part)
        assert p.flush(30) == 0
        assert not f.active  # each broker's one refusal was taken, then the retries succeeded


def test_paused_broker_times_requests_out(cluster):
    from confluent_kafka.admin import AdminClient

    from odradek.broker.wire_client import WireClient
    from odradek.wire.messages.metadata_request import MetadataRequest

    victim = cluster.brokers[0]
    host, port = cluster.broker_bootstrap(victim).rsplit(":", 1)
    cluster.pause(victim)
    try:
        # a Kafka client of the paused broker alone (librdkafka would ask the other broker, which it
        # learns of from its first Metadata answer): the kernel takes the connection, nothing answers
        # (its ApiVersions goes unanswered)
        with pytest.raises(TimeoutError):
            WireClient(host, int(port), client_id="paused-check", timeout=2)
    finally:
        cluster.resume(victim)
    with WireClient(host, int(port), client_id="paused-check", timeout=30) as c:
        assert victim in {b.node_id for b in c.send(MetadataRequest(topics=[]), max_version=12).brokers}
    assert AdminClient({"bootstrap.servers": cluster.broker_bootstrap(victim)}).list_topics(timeout=30).brokers


WAIT_S = 60


def new_topic(cluster) -> str:
    topic = f"net-{uuid.uuid4().hex[:8]}"
    cluster.create_topic(topic, partitions=1, replication_factor=2)
    wait_for(lambda: len(cluster.isr(topic)) == 2, WAIT_S, "the full ISR")
    return topic


def produce_via(bootstrap: str, topic: str, value: bytes, acks: str = "1") -> int:
    from confluent_kafka import Producer

    p = Producer({"bootstrap.servers": bootstrap, "acks": acks, "message.timeout.ms": 30000})
    got = []
    p.produce(topic, value, on_delivery=lambda err, msg: got.append((err, msg.offset())))
    assert p.flush(40) == 0
    assert got[0][0] is None, got
    return got[0][1]


def test_partitioned_leader_is_fenced_and_rejoins(cluster):
    topic = new_topic(cluster)
    old = cluster.leader(topic)
    rest = [b for b in cluster.brokers if b != old]
    before = produce_via(cluster.bootstrap, topic, b"before", acks="all")
    with cluster.partition([old], clients=True):  # cut from the other nodes and from the clients
        wait_for(lambda: cluster.leader(topic, via=rest[0]) not in (-1, old), WAIT_S, "a new leader")
        wait_for(lambda: old not in cluster.isr(topic, via=rest[0]), WAIT_S, "the ISR without the cut leader")
        assert old not in cluster.metadata_brokers(via=rest[0])  # fenced: clients no longer see it
        # a client of the whole cluster (the cut broker refuses it) writes to the new leader
        during = produce_via(cluster.bootstrap, topic, b"during", acks="all")
    wait_for(lambda: old in cluster.isr(topic, via=rest[0]), WAIT_S, "the healed broker back in the ISR")
    assert old in cluster.metadata_brokers(via=rest[0])
    assert (before, during) == (0, 1)
    assert cluster.consume(topic, 2) == [b"before", b"during"]


def test_slow_follower_leaves_the_isr_and_comes_back(cluster):
    topic = new_topic(cluster)
    leader = cluster.leader(topic)
    follower = next(b for b in cluster.brokers if b != leader)
    with cluster.slow_follower(follower, 6000):
        produce_via(cluster.broker_bootstrap(leader), topic, b"behind")  # the follower is behind now
        wait_for(lambda: follower not in cluster.isr(topic, via=leader), WAIT_S, "the slow follower out of the ISR")
        assert cluster.leader(topic, via=leader) == leader
    produce_via(cluster.broker_bootstrap(leader), topic, b"caught up")
    wait_for(lambda: follower in cluster.isr(topic, via=leader), WAIT_S, "the follower back in the ISR")
