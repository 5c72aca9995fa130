"""Replication quotas (KIP-73) as Kafka's ReplicationQuotaManagers decide them: only partitions a
topic lists for this broker are throttled, only out-of-sync replicas are held back, only while the
rate (this broker's, else the cluster default) is over its bound; every throttled byte counts."""

from __future__ import annotations

from dataclasses import dataclass, field

from odradek.broker.replication_throttle import ReplicationThrottle
from odradek.security.quotas import throttled_partitions


@dataclass
class Topic:
    configs: dict = field(default_factory=dict)


@dataclass
class Image:
    topics: dict = field(default_factory=dict)
    broker_configs: dict = field(default_factory=dict)


def test_throttled_replicas_are_read_for_this_broker():
    assert throttled_partitions("0:1,1:2,2:1", 1) == frozenset({0, 2})
    assert throttled_partitions(" * ", 1) is None  # every replica
    assert throttled_partitions("0:2", 1) == frozenset()


def test_leader_holds_an_out_of_sync_follower_of_a_throttled_partition_once_over_the_rate():
    image = Image(topics={"t": Topic({"leader.replication.throttled.replicas": "0:1"}), "u": Topic()},
                  broker_configs={"": {"leader.replication.throttled.rate": "1000"}})
    th = ReplicationThrottle(1, lambda: image, 1000, 11)
    assert not th.leader_holds("t", 0, False, 0)  # nothing sent yet
    th.leader_sent("t", 0, 20_000, 0)  # 20,000 bytes over at least 10 s: 2,000/s > 1,000
    assert th.leader_holds("t", 0, False, 100)
    assert not th.leader_holds("t", 0, True, 100)  # an in-sync follower is never held
    assert not th.leader_holds("t", 1, False, 100)  # partition 1 is not listed for broker 1
    assert not th.leader_holds("u", 0, False, 100)
    th.leader_sent("u", 0, 10**9, 100)  # an unthrottled partition's bytes do not count
    # (the image's configs are an immutable mapping: a change brings a new one)
    image.broker_configs = {**image.broker_configs, "1": {"leader.replication.throttled.rate": "5000"}}
    # this broker's own rate wins
    assert not th.leader_holds("t", 0, False, 100)
    image.broker_configs = {}  # no rate: unbounded
    assert not th.leader_holds("t", 0, False, 100)


def test_follower_holds_a_lagging_throttled_partition_and_counts_its_bytes():
    image = Image(topics={"t": Topic({"follower.replication.throttled.replicas": "*"})},
                  broker_configs={"2": {"follower.replication.throttled.rate": "100"}})
    th = ReplicationThrottle(2, lambda: image, 1000, 11)
    th.follower_fetched("t", 3, 999, 0)
    assert not th.follower_holds("t", 3, False, 0)  # 999 over 10 s: 99.9/s
    th.follower_fetched("t", 3, 2, 0)
    assert th.follower_holds("t", 3, False, 0) and not th.follower_holds("t", 3, True, 0)
    assert not th.follower_holds("t", 3, False, 11_000)  # the samples aged out
