"""odradek.testing.Cluster's network faults (no root: each node refuses or delays its peers'
requests): the leader cut from every other node is fenced by the controller, leadership moves and
the ISR shrinks; healed, it rejoins the ISR. A follower whose fetches are answered late leaves the
ISR after replica.lag.time.max.ms (3 s here) and comes back when it is fast again."""

from __future__ import annotations

import time
import uuid

import pytest

from odradek.testing import Cluster

WAIT_S = 60


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    with Cluster(brokers=3, controllers=1, data_dir=tmp_path_factory.mktemp("cluster")) as c:
        yield c


def wait_for(pred, what: str):
    deadline = time.monotonic() + WAIT_S
    while not (got := pred()):
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.1)
    return got


def new_topic(cluster) -> str:
    topic = f"net-{uuid.uuid4().hex[:8]}"
    cluster.create_topic(topic, partitions=1, replication_factor=3)
    wait_for(lambda: len(cluster.isr(topic)) == 3, "the full ISR")
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
        wait_for(lambda: cluster.leader(topic, via=rest[0]) not in (-1, old), "a new leader")
        wait_for(lambda: old not in cluster.isr(topic, via=rest[0]), "the ISR without the cut leader")
        assert old not in cluster.metadata_brokers(via=rest[0])  # fenced: clients no longer see it
        # a client of the whole cluster (the cut broker refuses it) writes to the new leader
        during = produce_via(cluster.bootstrap, topic, b"during", acks="all")
    wait_for(lambda: old in cluster.isr(topic, via=rest[0]), "the healed broker back in the ISR")
    assert old in cluster.metadata_brokers(via=rest[0])
    assert (before, during) == (0, 1)
    assert cluster.consume(topic, 2) == [b"before", b"during"]


def test_slow_follower_leaves_the_isr_and_comes_back(cluster):
    topic = new_topic(cluster)
    leader = cluster.leader(topic)
    follower = next(b for b in cluster.brokers if b != leader)
    with cluster.slow_follower(follower, 6000):
        produce_via(cluster.broker_bootstrap(leader), topic, b"behind")  # the follower is behind now
        wait_for(lambda: follower not in cluster.isr(topic, via=leader), "the slow follower out of the ISR")
        assert cluster.leader(topic, via=leader) == leader
    produce_via(cluster.broker_bootstrap(leader), topic, b"caught up")
    wait_for(lambda: follower in cluster.isr(topic, via=leader), "the follower back in the ISR")
