"""Replication quotas on a broker (KIP-73, Kafka's leader and follower ReplicationQuotaManagers):
``leader.replication.throttled.rate`` / ``follower.replication.throttled.rate`` (dynamic, this
broker's or the cluster default) bound the bytes a leader sends to, and a follower fetches for,
the replicas a topic lists in ``leader.replication.throttled.replicas`` /
``follower.replication.throttled.replicas``. A replica out of the ISR (leader side) or behind the
leader's high watermark (follower side) of a throttled partition gets no data while the rate is
over its bound; every throttled partition's bytes count, in sync or not (as Kafka)."""

from __future__ import annotations

from typing import Callable

from odradek.controller.image import MetadataImage
from odradek.security.quotas import (ALL_REPLICAS, FOLLOWER_RATE, FOLLOWER_REPLICAS, LEADER_RATE, LEADER_REPLICAS,
                                     ReplicationQuota, throttled_partitions)


class ReplicationThrottle:
    def __init__(self, node_id: int, image: Callable[[], MetadataImage], window_ms: int, samples: int):
        self._node_id = node_id
        self._key = str(node_id)
        self._image = image
        self.leader = ReplicationQuota(window_ms, samples)
        self.follower = ReplicationQuota(window_ms, samples)
        # the rates as read from the image's broker configs (an immutable mapping, replaced when a
        # config changes): a fetch's partitions cost one identity check each, not config lookups
        self._rates_of: object = None
        self._rates: dict[str, float] = {}

    def _bound(self, rate: str) -> float | None:
        """This broker's rate, else the cluster default's (None: unbounded, Kafka's Long.MAX_VALUE)."""
        configs = self._image().broker_configs
        if configs is not self._rates_of:
            mine, default = configs.get(self._key, {}), configs.get("", {})
            rates = {}
            for name in (LEADER_RATE, FOLLOWER_RATE):
                value = mine.get(name)
                if value is None:
                    value = default.get(name)
                if value is not None:
                    rates[name] = float(value)
            self._rates, self._rates_of = rates, configs
        return self._rates.get(rate)

    def _throttled(self, topic: str, partition: int, replicas: str) -> bool:
        t = self._image().topics.get(topic)
        value = t.configs.get(replicas) if t is not None else None
        if not value:
            return False
        listed = throttled_partitions(value, self._node_id)
        return listed is ALL_REPLICAS or partition in listed

    def _holds(self, quota: ReplicationQuota, rate: str, replicas: str, topic: str, partition: int,
               in_sync: bool, now_ms: int) -> bool:
        if in_sync:
            return False
        bound = self._bound(rate)
        return bound is not None and self._throttled(topic, partition, replicas) and quota.exceeded(bound, now_ms)

    def _count(self, quota: ReplicationQuota, rate: str, replicas: str, topic: str, partition: int, nbytes: int,
               now_ms: int) -> None:
        if nbytes and self._bound(rate) is not None and self._throttled(topic, partition, replicas):
            quota.record(nbytes, now_ms)

    # ------------------------------------------------------------ the leader's side
    def leader_holds(self, topic: str, partition: int, replica_in_isr: bool, now_ms: int) -> bool:
        """A follower's fetch of this partition gets no records now (Kafka's shouldLeaderThrottle)."""
        return self._holds(self.leader, LEADER_RATE, LEADER_REPLICAS, topic, partition, replica_in_isr, now_ms)

    def leader_sent(self, topic: str, partition: int, nbytes: int, now_ms: int) -> None:
        self._count(self.leader, LEADER_RATE, LEADER_REPLICAS, topic, partition, nbytes, now_ms)

    # ------------------------------------------------------------ the follower's side
    def follower_holds(self, topic: str, partition: int, in_sync: bool, now_ms: int) -> bool:
        """Leave this partition out of the next fetch (Kafka's shouldFollowerThrottle)."""
        return self._holds(self.follower, FOLLOWER_RATE, FOLLOWER_REPLICAS, topic, partition, in_sync, now_ms)

    def follower_fetched(self, topic: str, partition: int, nbytes: int, now_ms: int) -> None:
        self._count(self.follower, FOLLOWER_RATE, FOLLOWER_REPLICAS, topic, partition, nbytes, now_ms)
