"""broker/dynamic_broker_config.py: a metadata image's dynamic broker configs (this broker's, else
the cluster default's, else the static value) reach the connection quotas and the replica
fetchers and the compaction cleaner; a lowered max.connections closes the least recently active
connections over it."""

from __future__ import annotations

import asyncio

from odradek.broker.connection_limits import ConnectionQuotas, ListenerQuota
from odradek.broker.dynamic_broker_config import DynamicBrokerConfig
from odradek.config import BrokerConfig
from odradek.controller.image import MetadataImage
from odradek.log.compaction import CleanerConfig, LogCleaner


class Conn:
    def __init__(self, seq: int, idle_since_ms: int | None):
        self.seq, self.idle_since_ms, self.counted, self.closed = seq, idle_since_ms, True, False
        self.listener_name = ""

    def close(self) -> None:
        self.closed = True


class Fetchers:
    def __init__(self):
        self.sizes: list[int] = []

    def resize(self, n: int) -> None:
        self.sizes.append(n)


def test_configs_of_the_image_are_applied_and_excess_connections_closed():
    loop = asyncio.new_event_loop()
    try:
        config = BrokerConfig.from_properties({"max.connections.per.ip": "50", "num.replica.fetchers": "2"})
        quotas = ConnectionQuotas(2147483647, 50, (), 2147483647)
        conns = [Conn(1, 100), Conn(2, 50), Conn(3, None), Conn(4, 50)]
        for _ in conns:
            quotas.admit("10.0.0.1", 0)
        fetchers = Fetchers()
        cleaner = LogCleaner(config.cleaner_config())
        dyn = DynamicBrokerConfig(1, config, quotas, lambda: conns, fetchers, cleaner, loop)
        dyn.on_metadata(None, MetadataImage())
        assert (quotas.per_ip, fetchers.sizes) == (50, [2])  # the static values
        dyn.on_metadata(None, MetadataImage(broker_configs={
            "": {"max.connections": "2", "num.replica.fetchers": "3", "max.connections.per.ip": "9",
                 "log.cleaner.threads": "2"},
            "1": {"max.connections.per.ip": "7", "max.connections.per.ip.overrides": "10.0.0.5:1",
                  "log.cleaner.dedupe.buffer.size": "8388608", "log.cleaner.io.buffer.load.factor": "0.5"}}))
        assert (quotas.max_connections, quotas.per_ip, quotas.overrides) == (2, 7, {"10.0.0.5": 1})
        assert fetchers.sizes == [2, 3]
        assert cleaner.config == CleanerConfig(8388608, 0.5, 2) and cleaner.config.offset_map_memory == 4194304
        # 4 counted, 2 allowed: the two idle longest go (idle since the same ms: the older first)
        assert [c.seq for c in conns if c.closed] == [2, 4]
        dyn.on_metadata(None, MetadataImage(broker_configs={"2": {"num.replica.fetchers": "4"}}))  # another broker's
        assert (quotas.max_connections, quotas.per_ip, fetchers.sizes[-1]) == (2147483647, 50, 2)
        assert cleaner.config == config.cleaner_config()
    finally:
        loop.close()


def test_an_override_host_that_does_not_resolve_stops_the_update_there():
    """Kafka's SocketServer.reconfigure applies what changed in its order (per IP, the overrides,
    max.connections, the creation rate); an override host that does not resolve stops it there, and
    the values are still taken as the current ones: a later update applies only what it changes."""
    loop = asyncio.new_event_loop()
    try:
        config = BrokerConfig.from_properties({"max.connections.per.ip.overrides": "10.0.0.5:3"})
        quotas = ConnectionQuotas(2147483647, 2147483647, (("10.0.0.5", 3),), 2147483647)
        cleaner = LogCleaner(config.cleaner_config())
        dyn = DynamicBrokerConfig(1, config, quotas, lambda: [], None, cleaner, loop)
        bad = {"max.connections.per.ip": "7", "max.connections": "100", "max.connection.creation.rate": "9",
               "max.connections.per.ip.overrides": "nosuchhost.invalid:5"}
        dyn.on_metadata(None, MetadataImage(broker_configs={"1": bad}))
        loop.run_until_complete(_until(lambda: quotas.per_ip == 7))
        loop.run_until_complete(asyncio.sleep(0))
        assert (quotas.max_connections, quotas.overrides, quotas.creation_rate) == \
            (2147483647, {"10.0.0.5": 3}, 2147483647)
        dyn.on_metadata(None, MetadataImage(broker_configs={"1": {**bad, "max.connections": "50"}}))
        loop.run_until_complete(_until(lambda: quotas.max_connections == 50))
        assert (quotas.per_ip, quotas.overrides, quotas.creation_rate) == (7, {"10.0.0.5": 3}, 2147483647)
        dyn.on_metadata(None, MetadataImage(broker_configs={"1": {**bad, "max.connections.per.ip.overrides": "10.0.0.6:4"}}))
        # (the rate 9 was taken before, not applied: it did not change in this update)
        assert (quotas.max_connections, quotas.overrides, quotas.creation_rate) == (100, {"10.0.0.6": 4}, 2147483647)
    finally:
        loop.close()


async def _until(cond) -> None:
    while not cond():
        await asyncio.sleep(0.01)


def test_a_listeners_connection_quota_from_the_image_else_static_else_broker_wide():
    loop = asyncio.new_event_loop()
    try:
        config = BrokerConfig.from_properties({"listener.name.plaintext.max.connection.creation.rate": "7"})
        quotas = ConnectionQuotas(2147483647, 2147483647, (), 2147483647,
                                  listeners={"PLAINTEXT": ListenerQuota(None, 7)})
        dyn = DynamicBrokerConfig(1, config, quotas, lambda: [], None, LogCleaner(config.cleaner_config()), loop)
        dyn.on_metadata(None, MetadataImage(broker_configs={
            "": {"listener.name.plaintext.max.connections": "3"},
            "1": {"listener.name.plaintext.max.connection.creation.rate": "9",
                  "listener.name.PLAINTEXT.max.connections": "1"}}))  # (Kafka's prefix is lower case)
        quota = quotas.listeners["PLAINTEXT"]
        assert (quota.max_connections, quota.creation_rate) == (3, 9)
        dyn.on_metadata(None, MetadataImage())
        assert (quota.max_connections, quota.creation_rate) == (None, 7)
    finally:
        loop.close()
