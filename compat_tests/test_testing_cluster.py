"""odradek.testing.Cluster as a user's test drives it: a leader killed (-9) and restarted, a fault
injected on every broker, a paused broker; what confluent-kafka sees is what a real cluster shows."""

from __future__ import annotations

import time

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
    from confluent_kafka import KafkaException
    from confluent_kafka.admin import AdminClient

    victim = cluster.brokers[0]
    admin = AdminClient({"bootstrap.servers": cluster.broker_bootstrap(victim)})
    cluster.pause(victim)
    try:
        with pytest.raises(KafkaException):
            admin.list_topics(timeout=2)
    finally:
        cluster.resume(victim)
    assert admin.list_topics(timeout=30).brokers
