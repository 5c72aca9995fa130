"""The dynamic broker configs a running broker applies when the metadata image changes them (Kafka's
DynamicBrokerConfig and its reconfigurables): the connection limits (SocketServer.reconfigure over
ConnectionQuotas), the replica fetchers (DynamicThreadPool: ReplicaFetcherManager's
resizeThreadPool) and the compaction cleaner's offset map budget (LogCleaner.reconfigure: the
next pass takes it; odradek runs one pass at a time, log.cleaner.threads divides the buffer). A config's value is this broker's dynamic one, else the cluster default's, else
the static one (as the controller validated them: controller/broker_reconfiguration.py); one
that does not parse is left at the static value, as Kafka ignores invalid persisted ones.
log.cleaner.backoff.ms and producer.id.expiration.ms are read where they are used."""

from __future__ import annotations

import asyncio
import ipaddress
import logging
from typing import Callable, Iterable, NamedTuple, Protocol

from odradek.broker.connection_limits import ConnectionQuotas, QuotaConnection, UnknownHost, close_excess, resolve_overrides
from odradek.config import BrokerConfig
from odradek.controller.broker_reconfiguration import parse_connection_overrides
from odradek.controller.configs import DYNAMIC_BROKER, dynamic_broker_value
from odradek.controller.image import MetadataImage
from odradek.log.compaction import CleanerConfig

log = logging.getLogger("odradek.broker")


class _Fetchers(Protocol):
    def resize(self, num_fetchers: int) -> None: ...


class _Cleaner(Protocol):
    config: CleanerConfig


class ConnectionLimitValues(NamedTuple):
    max_connections: int
    per_ip: int
    overrides: tuple[tuple[str, int], ...]
    creation_rate: int


class DynamicBrokerConfig:
    """Applies this broker's dynamic configs: ``on_metadata`` is a controller listener."""

    def __init__(self, node_id: int, config: BrokerConfig, quotas: ConnectionQuotas,
                 connections: Callable[[], Iterable[QuotaConnection]], fetchers: _Fetchers | None,
                 cleaner: _Cleaner, loop: asyncio.AbstractEventLoop):
        self._node_id = node_id
        self._static = {"max.connections": str(config.max_connections),
                        "max.connections.per.ip": str(config.max_connections_per_ip),
                        "max.connections.per.ip.overrides": config.max_connections_per_ip_overrides,
                        "max.connection.creation.rate": str(config.max_connection_creation_rate),
                        "num.replica.fetchers": str(config.num_replica_fetchers),
                        "log.cleaner.dedupe.buffer.size": str(config.log_cleaner_dedupe_buffer_size),
                        "log.cleaner.io.buffer.load.factor": str(config.log_cleaner_io_buffer_load_factor),
                        "log.cleaner.threads": str(config.log_cleaner_threads)}
        self._quotas = quotas
        self._listener_static = config.listener_connection_limit
        self._connections = connections
        self._fetchers = fetchers
        self._cleaner = cleaner
        self._loop = loop
        self._applied_configs: object = None  # the image's broker_configs last applied
        # the limits last taken (Kafka's currentConfig: taken even when they could not all be applied)
        self._limits = ConnectionLimitValues(config.max_connections, config.max_connections_per_ip,
                                             parse_connection_overrides(config.max_connections_per_ip_overrides),
                                             config.max_connection_creation_rate)
        self._scheduled = self._limits  # the limits of the latest update (being resolved, or taken)
        self._resolving = 0  # the latest override resolution started (an older one's result is dropped)

    def on_metadata(self, _prev: MetadataImage | None, image: MetadataImage) -> None:
        configs = image.broker_configs
        if configs is self._applied_configs:
            return
        self._applied_configs = configs
        try:
            limits = ConnectionLimitValues(self._int(configs, "max.connections"),
                                           self._int(configs, "max.connections.per.ip"),
                                           self._overrides(configs), self._int(configs, "max.connection.creation.rate"))
            fetchers = self._int(configs, "num.replica.fetchers")
            cleaner = CleanerConfig(self._int(configs, "log.cleaner.dedupe.buffer.size"),
                                    float(self._value(configs, "log.cleaner.io.buffer.load.factor")),
                                    self._int(configs, "log.cleaner.threads"))
        except ValueError:  # (validated when set: cannot happen)
            log.exception("dynamic broker configs not applied")
            return
        self._apply_listener_quotas(configs)
        if limits != self._scheduled:
            self._scheduled = limits
            self._resolve_and_apply(limits, configs)
        if self._fetchers is not None:
            self._fetchers.resize(fetchers)
        if cleaner != self._cleaner.config:
            log.info("Reconfiguring the log cleaner: log.cleaner.dedupe.buffer.size=%d, "
                     "log.cleaner.io.buffer.load.factor=%s, log.cleaner.threads=%d",
                     cleaner.dedupe_buffer_size, cleaner.dedupe_buffer_load_factor, cleaner.threads)
            self._cleaner.config = cleaner

    def _apply_listener_quotas(self, configs) -> None:
        """listener.name.<l>.max.connections / .max.connection.creation.rate of each listener (Kafka's
        ListenerConnectionQuota.reconfigure): the dynamic value, else the static one, else the
        broker-wide limit (None)."""
        quotas = self._quotas
        for listener, quota in quotas.listeners.items():
            limits = []
            for name in ("max.connections", "max.connection.creation.rate"):
                value = dynamic_broker_value(configs, self._node_id, f"listener.name.{listener.lower()}.{name}")
                try:
                    limits.append(int(DYNAMIC_BROKER[name].validate(value)) if value is not None
                                  else self._listener_static(listener, name))
                except ValueError:
                    log.error("Dynamic config listener.name.%s.%s=%s is not valid; ignored", listener.lower(), name,
                              value)
                    limits.append(self._listener_static(listener, name))
            if (quota.max_connections, quota.creation_rate) != tuple(limits):
                log.info("Updating listener %s connection quota: max.connections=%s, "
                         "max.connection.creation.rate=%s", listener, *limits)
                quotas.reconfigure_listener(listener, *limits)

    def _value(self, configs, name: str) -> str:
        value = dynamic_broker_value(configs, self._node_id, name)
        if value is not None:
            try:
                DYNAMIC_BROKER[name].validate(value)
                return value
            except ValueError:
                log.error("Dynamic config %s=%s is not valid; ignored", name, value)
        return self._static[name]

    def _int(self, configs, name: str) -> int:
        return int(self._value(configs, name))

    def _overrides(self, configs) -> tuple[tuple[str, int], ...]:
        try:
            return parse_connection_overrides(self._value(configs, "max.connections.per.ip.overrides"))
        except ValueError:
            log.error("Dynamic config max.connections.per.ip.overrides is not valid; ignored")
            return parse_connection_overrides(self._static["max.connections.per.ip.overrides"])

    def _resolve_and_apply(self, limits: ConnectionLimitValues, configs) -> None:
        """Override host names resolve off the event loop (a DNS lookup can take seconds); IP
        addresses need no lookup and apply at once. An older update still resolving is dropped:
        the newer one applies what changed since the limits last taken."""
        self._resolving += 1
        ticket = self._resolving
        failed = self._failure_message(configs)
        if all(_is_address(h) for h, _ in limits.overrides):
            self._apply_limits(limits, resolve_overrides(limits.overrides), ticket, failed)
            return
        resolving = self._loop.run_in_executor(None, resolve_overrides, limits.overrides)

        def resolved(done: asyncio.Future) -> None:
            if done.cancelled():
                return
            error = done.exception()
            if error is not None and not isinstance(error, UnknownHost):
                log.error("max.connections.per.ip.overrides not resolved", exc_info=error)
                return
            self._apply_limits(limits, error if error is not None else done.result(), ticket, failed)
        resolving.add_done_callback(resolved)

    def _failure_message(self, configs) -> str:
        """Kafka's DynamicBrokerConfig error when an update cannot be applied: the per-broker
        update's (the keys of this broker's dynamic configs) or the cluster default's."""
        for scope, what in ((str(self._node_id), f"Per-broker configs of {self._node_id}"),
                            ("", "Cluster default configs")):
            names = configs.get(scope)
            if names and "max.connections.per.ip.overrides" in names:
                return f"{what} could not be applied: [{', '.join(names)}]"
        return f"Per-broker configs of {self._node_id} could not be applied: []"

    def _apply_limits(self, limits: ConnectionLimitValues, overrides: dict[str, int] | UnknownHost, ticket: int,
                      failed: str) -> None:
        """Kafka's SocketServer.reconfigure: each limit that changed, in its order (per IP, the overrides,
        max.connections, the creation rate); an override host that does not resolve stops it there (and
        the rest of this update is not applied), though the update's values are taken as the current ones."""
        if ticket != self._resolving:
            return
        quotas = self._quotas
        old, self._limits = self._limits, limits
        if limits.per_ip != old.per_ip:
            log.info("Updating maxConnectionsPerIp: %d", limits.per_ip)
            quotas.per_ip = limits.per_ip
        if limits.overrides != old.overrides:
            log.info("Updating maxConnectionsPerIpOverrides: %s", ",".join(f"{h}={n}" for h, n in limits.overrides))
            if isinstance(overrides, UnknownHost):
                log.error("%s", failed, exc_info=overrides)
                return
            quotas.overrides = overrides
        max_connections, creation_rate = quotas.max_connections, quotas.creation_rate
        if limits.max_connections != old.max_connections:
            log.info("Updating broker-wide maxConnections: %d", limits.max_connections)
            max_connections = limits.max_connections
        if limits.creation_rate != old.creation_rate:
            log.info("Updating broker-wide maxConnectionCreationRate: %d", limits.creation_rate)
            creation_rate = limits.creation_rate
        quotas.reconfigure(max_connections, quotas.per_ip, quotas.overrides, creation_rate)
        close_excess(quotas, self._connections())


def _is_address(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
        return True
    except ValueError:
        return False
