"""The broker's configuration: one typed object, set with Kafka's own property names.

`odradek serve [server.properties] --override k=v` reads properties in Kafka's
format; `BrokerConfig.from_properties` turns them into a BrokerConfig or raises
ConfigError naming the bad property. Unknown names are errors (a typo must not
silently fall back to a default); a few Kafka settings that make no sense for a
single Python process (thread counts, socket buffers) are accepted and ignored so a
stock Kafka server.properties works. The KRaft quorum settings (process.roles,
controller.quorum.voters, ...) are real: see `quorum_mode`.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

LONG_MAX = 9223372036854775807
INT_MAX = 2147483647


class ConfigError(ValueError):
    """A configuration property that is unknown or has an invalid value."""


@dataclass(frozen=True)
class Listener:
    name: str
    host: str
    port: int

    def __str__(self) -> str:
        return f"{self.name}://{self.host}:{self.port}"


@dataclass(frozen=True)
class BrokerConfig:
    node_id: int = 1
    listeners: tuple[Listener, ...] = (Listener("PLAINTEXT", "127.0.0.1", 9092),)
    advertised_listeners: tuple[Listener, ...] | None = None
    log_dirs: tuple[str, ...] = ("./odradek-data",)
    num_partitions: int = 1
    default_replication_factor: int = 1
    auto_create_topics_enable: bool = True
    delete_topic_enable: bool = True
    # topic-level defaults (broker names; the topic names are in TOPIC_DEFAULTS)
    log_retention_ms: int = 7 * 24 * 3600 * 1000
    log_retention_bytes: int = -1
    log_segment_bytes: int = 1073741824
    log_preallocate: bool = False
    log_segment_delete_delay_ms: int = 60000  # file.delete.delay.ms's default; also deleted partitions' delay
    log_roll_ms: int = 7 * 24 * 3600 * 1000
    log_roll_jitter_ms: int = 0
    log_index_size_max_bytes: int = 10485760
    log_index_interval_bytes: int = 4096
    log_cleanup_policy: str = "delete"
    log_cleaner_min_cleanable_ratio: float = 0.5
    log_cleaner_delete_retention_ms: int = 86400000
    log_cleaner_min_compaction_lag_ms: int = 0
    log_cleaner_max_compaction_lag_ms: int = LONG_MAX
    log_cleaner_enable: bool = True
    log_cleaner_backoff_ms: int = 15000
    # the cleaner's offset map: buffer / threads bytes per cleaner, 24 bytes a key, filled
    # to load factor (odradek/log/compaction.py CleanerConfig); Kafka's defaults
    log_cleaner_dedupe_buffer_size: int = 134217728
    log_cleaner_io_buffer_load_factor: float = 0.9
    log_cleaner_threads: int = 1
    log_message_timestamp_type: str = "CreateTime"
    log_message_timestamp_before_max_ms: int = LONG_MAX
    log_message_timestamp_after_max_ms: int = 3600000
    log_flush_interval_messages: int = LONG_MAX
    log_flush_interval_ms: int | None = None
    message_max_bytes: int = 1048588
    min_insync_replicas: int = 1
    compression_type: str = "producer"
    # broker process
    socket_request_max_bytes: int = 104857600
    connections_max_idle_ms: int = 600000
    log_retention_check_interval_ms: int = 300000
    log_flush_scheduler_interval_ms: int = LONG_MAX
    log_flush_offset_checkpoint_interval_ms: int = 60000
    # group coordinator
    group_initial_rebalance_delay_ms: int = 3000
    group_min_session_timeout_ms: int = 6000
    group_max_session_timeout_ms: int = 1800000
    group_max_size: int = INT_MAX
    # KIP-848 consumer groups (odradek/coordinator/consumer_group_coordinator.py)
    group_consumer_heartbeat_interval_ms: int = 5000
    group_consumer_session_timeout_ms: int = 45000
    group_consumer_max_size: int = INT_MAX
    group_consumer_assignors: str = "uniform,range"
    # KIP-932 share groups (odradek/coordinator/share_group_coordinator.py); Kafka 4.3's defaults
    group_share_session_timeout_ms: int = 45000
    group_share_heartbeat_interval_ms: int = 5000
    group_share_record_lock_duration_ms: int = 30000
    group_share_min_record_lock_duration_ms: int = 15000
    group_share_max_record_lock_duration_ms: int = 60000
    group_share_delivery_count_limit: int = 5
    group_share_partition_max_record_locks: int = 2000
    group_share_max_size: int = 200
    # KIP-1071 streams groups (odradek/coordinator/streams_group_coordinator.py); Kafka 4.3's defaults
    group_streams_session_timeout_ms: int = 45000
    group_streams_heartbeat_interval_ms: int = 5000
    group_streams_max_size: int = INT_MAX
    group_streams_num_standby_replicas: int = 0
    group_streams_initial_rebalance_delay_ms: int = 3000
    group_streams_assignment_interval_ms: int = 1000
    max_share_sessions: int = 2000
    # the share coordinator's __share_group_state (created on the first FindCoordinator of a share key)
    share_coordinator_state_topic_num_partitions: int = 50
    share_coordinator_state_topic_segment_bytes: int = 104857600
    share_coordinator_state_topic_prune_interval_ms: int = 300000
    offsets_topic_num_partitions: int = 50
    offsets_topic_replication_factor: int = 1
    offsets_topic_segment_bytes: int = 104857600
    offsets_retention_minutes: int = 10080
    offsets_retention_check_interval_ms: int = 600000
    offset_metadata_max_bytes: int = 4096
    # transactions (used once the transaction coordinator exists)
    transaction_state_log_num_partitions: int = 50
    transaction_state_log_replication_factor: int = 1
    transaction_max_timeout_ms: int = 900000
    transactional_id_expiration_ms: int = 604800000
    producer_id_expiration_ms: int = 86400000
    producer_id_expiration_check_interval_ms: int = 600000
    # KIP-227 fetch sessions (Kafka hardcodes the eviction time; a property here for tests)
    max_incremental_fetch_session_cache_slots: int = 1000
    min_incremental_fetch_session_eviction_ms: int = 120000
    # KRaft quorum. A lone node with both roles (the default) is its own single voter;
    # anything wider (more voters, or one role only) runs the Raft quorum over the wire.
    process_roles: tuple[str, ...] = ("broker", "controller")
    controller_quorum_voters: tuple[tuple[int, str, int], ...] = ()  # (id, host, port)
    controller_quorum_bootstrap_servers: tuple[tuple[str, int], ...] = ()
    controller_listener_names: tuple[str, ...] = ("CONTROLLER",)
    controller_listeners: tuple[Listener, ...] = ()  # from listeners, by controller.listener.names
    controller_quorum_election_timeout_ms: int = 1000
    controller_quorum_fetch_timeout_ms: int = 2000
    controller_quorum_request_timeout_ms: int = 2000
    broker_heartbeat_interval_ms: int = 2000
    broker_session_timeout_ms: int = 9000
    metadata_log_max_record_bytes_between_snapshots: int = 20971520
    # every property given explicitly, by Kafka name (for DescribeConfigs "source")
    explicit: dict = field(default_factory=dict, compare=False, repr=False)
    # properties given that odradek does not use (Kafka warns about those and starts)
    unused: tuple = field(default=(), compare=False, repr=False)

    # ------------------------------------------------------------ derived

    @property
    def listener(self) -> Listener:
        return self.listeners[0]

    @property
    def advertised(self) -> Listener:
        """Host/port clients are told to connect to (Metadata, FindCoordinator)."""
        if self.advertised_listeners:
            return self.advertised_listeners[0]
        lst = self.listener
        host = lst.host
        if host in ("", "0.0.0.0", "::"):
            host = "127.0.0.1"
        return Listener(lst.name, host, lst.port)

    @property
    def quorum_mode(self) -> bool:
        """True when this process is one node of a Raft quorum wider than itself."""
        voters = {v[0] for v in self.controller_quorum_voters}
        if set(self.process_roles) != {"broker", "controller"}:
            return True
        if self.controller_quorum_bootstrap_servers and not voters:
            return True
        return bool(voters) and voters != {self.node_id}

    @property
    def controller_listener(self) -> Listener | None:
        return self.controller_listeners[0] if self.controller_listeners else None

    @property
    def data_dir(self) -> str:
        return self.log_dirs[0]

    def topic_defaults(self) -> dict[str, str]:
        """Topic-level config defaults (topic property names) derived from broker settings."""
        return {
            "retention.ms": str(self.log_retention_ms),
            "retention.bytes": str(self.log_retention_bytes),
            "segment.bytes": str(self.log_segment_bytes),
            "preallocate": "true" if self.log_preallocate else "false",
            "file.delete.delay.ms": str(self.log_segment_delete_delay_ms),
            "segment.ms": str(self.log_roll_ms),
            "segment.jitter.ms": str(self.log_roll_jitter_ms),
            "segment.index.bytes": str(self.log_index_size_max_bytes),
            "index.interval.bytes": str(self.log_index_interval_bytes),
            "cleanup.policy": self.log_cleanup_policy,
            "min.cleanable.dirty.ratio": str(self.log_cleaner_min_cleanable_ratio),
            "delete.retention.ms": str(self.log_cleaner_delete_retention_ms),
            "min.compaction.lag.ms": str(self.log_cleaner_min_compaction_lag_ms),
            "max.compaction.lag.ms": str(self.log_cleaner_max_compaction_lag_ms),
            "max.message.bytes": str(self.message_max_bytes),
            "message.timestamp.type": self.log_message_timestamp_type,
            "message.timestamp.before.max.ms": str(self.log_message_timestamp_before_max_ms),
            "message.timestamp.after.max.ms": str(self.log_message_timestamp_after_max_ms),
            "flush.messages": str(self.log_flush_interval_messages),
            "flush.ms": str(LONG_MAX if self.log_flush_interval_ms is None else self.log_flush_interval_ms),
            "min.insync.replicas": str(self.min_insync_replicas),
            "compression.type": self.compression_type,
        }

    def controller_defaults(self) -> dict[str, str]:
        """What the controller needs: creation defaults plus topic config defaults."""
        d = {
            "num.partitions": str(self.num_partitions),
            "default.replication.factor": str(self.default_replication_factor),
            "auto.create.topics.enable": str(self.auto_create_topics_enable).lower(),
            "delete.topic.enable": str(self.delete_topic_enable).lower(),
            "message.max.bytes": str(self.message_max_bytes),
            "offsets.topic.num.partitions": str(self.offsets_topic_num_partitions),
            "offsets.topic.segment.bytes": str(self.offsets_topic_segment_bytes),
            # Kafka requires these in server.properties, so DescribeConfigs shows them as static
            "node.id": str(self.node_id),
            "broker.id": str(self.node_id),
            "process.roles": ",".join(self.process_roles),
        }
        d.update(self.topic_defaults())
        # what the user set, under the names they used (DescribeConfigs shows these)
        d.update({k: str(v) for k, v in self.explicit.items() if k not in IGNORED})
        return d

    def log_config(self):
        from odradek.log.config import LogConfig

        return LogConfig.from_properties(self.topic_defaults())

    def cleaner_config(self):
        """The log.cleaner.* settings of the compaction cleaner (its offset map's budget)."""
        from odradek.log.compaction import CleanerConfig

        return CleanerConfig(dedupe_buffer_size=self.log_cleaner_dedupe_buffer_size,
                             dedupe_buffer_load_factor=self.log_cleaner_io_buffer_load_factor,
                             threads=self.log_cleaner_threads)

    # ------------------------------------------------------------ parsing

    @classmethod
    def from_properties(cls, props: dict[str, str]) -> "BrokerConfig":
        values: dict = {}
        explicit = {}
        unused: list[str] = []
        # Kafka's precedence for time units: *.ms over *.minutes over *.hours.
        for unit_names, attr in _UNIT_ALIASES:
            for name, factor in unit_names:
                if name in props:
                    hi = LONG_MAX if factor == 1 else INT_MAX  # *.ms are LONG, *.minutes/*.hours INT
                    values[attr] = _parse_int(name, props[name], _UNIT_MINIMUM.get(attr, 1), hi) * factor
                    break
        unit_keys = {n for names, _ in _UNIT_ALIASES for n, _ in names}
        for name, raw in props.items():
            explicit[name] = raw
            if name in unit_keys:
                continue
            if name in IGNORED:
                continue
            spec = _SPECS.get(name)
            if spec is None:
                # as Kafka (AbstractConfig.logUnused): a name it does not use is reported, not refused
                unused.append(name)
                continue
            attr, parse = spec
            try:
                values[attr] = parse(raw)
            except (ValueError, TypeError) as e:
                raise ConfigError(_kafka_message(name, raw, str(e))) from None
        if "listeners" in props:
            names = values.get("controller_listener_names", cls.controller_listener_names)
            try:
                every = _all_listeners(props["listeners"])
            except ValueError as e:
                raise ConfigError(_kafka_message("listeners", props["listeners"], str(e))) from None
            values["controller_listeners"] = tuple(lst for lst in every if lst.name in names)
            brokers = tuple(lst for lst in every if lst.name not in names)
            if brokers:
                values["listeners"] = brokers
        cfg = dataclasses.replace(cls(), **values, explicit=explicit, unused=tuple(sorted(unused)))
        cfg._check()
        return cfg

    def _check(self) -> None:
        if self.advertised_listeners:
            for lst in self.advertised_listeners:
                if lst.host in ("", "0.0.0.0", "::"):
                    raise ConfigError(f"advertised.listeners cannot use the wildcard host: {lst}")
        if self.log_retention_ms == 0 or self.log_retention_ms < -1:
            raise ConfigError("log.retention.ms must be -1 or positive")
        if self.log_cleanup_policy not in ("delete", "compact", "compact,delete", "delete,compact"):
            raise ConfigError(f"invalid log.cleanup.policy {self.log_cleanup_policy!r}")
        # KafkaConfig.validateValues (Kafka divides by log.cleaner.threads there, so 0 fails too)
        if self.log_cleaner_threads < 1:
            raise ConfigError(f"invalid value {self.log_cleaner_threads} for log.cleaner.threads: "
                              "the dedupe buffer is divided among the cleaner threads, there must be at least 1")
        if self.log_cleaner_dedupe_buffer_size // self.log_cleaner_threads <= 1024 * 1024:
            raise ConfigError("log.cleaner.dedupe.buffer.size must be at least 1MB per cleaner thread.")
        try:
            self.log_config()
        except ValueError as e:
            raise ConfigError(str(e)) from None
        roles = set(self.process_roles)
        if not roles or not roles <= {"broker", "controller"}:
            raise ConfigError(f"invalid process.roles {','.join(self.process_roles)!r}: broker and/or controller")
        if self.quorum_mode:
            voters = {v[0] for v in self.controller_quorum_voters}
            if not voters:
                raise ConfigError("controller.quorum.voters must list the controllers (id@host:port)")
            if "controller" in roles:
                if self.node_id not in voters:
                    raise ConfigError(f"node.id {self.node_id} has the controller role but is not in "
                                      "controller.quorum.voters")
                if not self.controller_listeners:
                    raise ConfigError("a controller needs a listener named in controller.listener.names "
                                      "(e.g. CONTROLLER://127.0.0.1:9093)")
            elif self.node_id in voters:
                raise ConfigError(f"node.id {self.node_id} is a voter but process.roles has no controller")


# ---------------------------------------------------------------- parsers


def _kafka_message(name, raw, why: str) -> str:
    """Kafka's ConfigException wording: `Invalid value <raw> for configuration <name>: <why>`."""
    return f"Invalid value {raw} for configuration {name}: {why}"


def _parse_int(name, raw, lo=None, hi=LONG_MAX) -> int:
    try:
        return _int(lo, hi)(raw)
    except ValueError as e:
        raise ConfigError(_kafka_message(name, raw, str(e))) from None


def _int(lo=None, hi=LONG_MAX):
    # Kafka's types: INT (Integer.parseInt), SHORT, LONG; then its Range validator's messages
    kind = "SHORT" if hi == 32767 else "INT" if hi == INT_MAX else "LONG"
    limit = {"SHORT": 32767, "INT": INT_MAX, "LONG": LONG_MAX}[kind]

    def parse(raw):
        try:
            n = int(str(raw).strip())
        except ValueError:
            n = None
        if n is None or not -limit - 1 <= n <= limit:
            raise ValueError(f"Not a number of type {kind}")
        if lo is not None and n < lo:
            raise ValueError(f"Value must be at least {lo}")
        if n > hi:
            raise ValueError(f"Value must be no more than {hi}")
        return n
    return parse


def _bool(raw) -> bool:
    s = str(raw).strip().lower()
    if s in ("true", "false"):
        return s == "true"
    raise ValueError("Expected value to be either true or false")


def _str(raw) -> str:
    return str(raw).strip()


def _double(raw) -> float:
    try:
        return float(str(raw).strip())
    except ValueError:
        raise ValueError("Not a number of type DOUBLE") from None


def _float01(raw) -> float:
    x = _double(raw)
    if x < 0.0:
        raise ValueError("Value must be at least 0.0")
    if x > 1.0:
        raise ValueError("Value must be no more than 1.0")
    return x


def _choice(*options):
    def parse(raw):
        s = str(raw).strip()
        if s not in options:
            raise ValueError(f"String must be one of: {', '.join(options)}")
        return s
    return parse


def parse_listeners(raw) -> tuple[Listener, ...]:
    out = []
    for item in str(raw).split(","):
        item = item.strip()
        if not item:
            continue
        name, sep, rest = item.partition("://")
        if not sep:
            raise ValueError(f"{item!r} is not NAME://HOST:PORT")
        host, colon, port = rest.rpartition(":")
        if not colon or not port.isdigit() or not 0 <= int(port) <= 65535:
            raise ValueError(f"{item!r} has no valid port")
        if host.startswith("[") and host.endswith("]"):
            host = host[1:-1]
        out.append(Listener(name.upper(), host, int(port)))
    if not out:
        raise ValueError("no listener given")
    # Only the first listener is served; the CONTROLLER listener of a stock KRaft
    # config is accepted for compatibility (this node is its own controller).
    brokers = [lst for lst in out if lst.name != "CONTROLLER"] or out
    return tuple(brokers)


def _all_listeners(raw) -> tuple[Listener, ...]:
    out = []
    for item in str(raw).split(","):
        item = item.strip()
        if item:
            out.extend(parse_listeners_keep_all(item))
    return tuple(out)


def parse_listeners_keep_all(item: str) -> tuple[Listener, ...]:
    name, sep, rest = item.partition("://")
    host, colon, port = rest.rpartition(":")
    if not sep or not colon or not port.isdigit() or not 0 <= int(port) <= 65535:
        raise ValueError(f"{item!r} is not NAME://HOST:PORT")
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    return (Listener(name.upper(), host, int(port)),)


def _roles(raw) -> tuple[str, ...]:
    roles = tuple(r.strip() for r in str(raw).split(",") if r.strip())
    if not roles or any(r not in ("broker", "controller") for r in roles):
        raise ValueError("expected broker, controller or broker,controller")
    return roles


def _voters(raw) -> tuple[tuple[int, str, int], ...]:
    """Kafka's controller.quorum.voters: id@host:port,..."""
    out = []
    for item in str(raw).split(","):
        item = item.strip()
        if not item:
            continue
        nid, at, addr = item.partition("@")
        host, colon, port = addr.rpartition(":")
        if not at or not colon or not nid.strip().isdigit() or not port.isdigit():
            raise ValueError(f"{item!r} is not id@host:port")
        out.append((int(nid), host.strip("[]"), int(port)))
    return tuple(out)


def _hostports(raw) -> tuple[tuple[str, int], ...]:
    out = []
    for item in str(raw).split(","):
        item = item.strip()
        if not item:
            continue
        host, colon, port = item.rpartition(":")
        if not colon or not port.isdigit():
            raise ValueError(f"{item!r} is not host:port")
        out.append((host.strip("[]"), int(port)))
    return tuple(out)


def _names(raw) -> tuple[str, ...]:
    return tuple(n.strip().upper() for n in str(raw).split(",") if n.strip())


def _dirs(raw) -> tuple[str, ...]:
    dirs = tuple(d.strip() for d in str(raw).split(",") if d.strip())
    if not dirs:
        raise ValueError("no directory given")
    return dirs


_SPECS = {
    "node.id": ("node_id", _int(0, INT_MAX)),
    "broker.id": ("node_id", _int(0, INT_MAX)),
    "listeners": ("listeners", parse_listeners),
    "advertised.listeners": ("advertised_listeners", parse_listeners),
    "log.dirs": ("log_dirs", _dirs),
    "log.dir": ("log_dirs", _dirs),
    "num.partitions": ("num_partitions", _int(1, INT_MAX)),
    "default.replication.factor": ("default_replication_factor", _int(1, 32767)),
    "auto.create.topics.enable": ("auto_create_topics_enable", _bool),
    "delete.topic.enable": ("delete_topic_enable", _bool),
    "log.retention.bytes": ("log_retention_bytes", _int(-1)),
    "log.segment.bytes": ("log_segment_bytes", _int(14, INT_MAX)),
    "log.preallocate": ("log_preallocate", _bool),
    "log.segment.delete.delay.ms": ("log_segment_delete_delay_ms", _int(0, LONG_MAX)),
    "log.index.size.max.bytes": ("log_index_size_max_bytes", _int(4, INT_MAX)),
    "log.index.interval.bytes": ("log_index_interval_bytes", _int(0, INT_MAX)),
    "log.cleanup.policy": ("log_cleanup_policy", _str),
    "log.cleaner.min.cleanable.ratio": ("log_cleaner_min_cleanable_ratio", _float01),
    "log.cleaner.delete.retention.ms": ("log_cleaner_delete_retention_ms", _int(0)),
    "log.cleaner.min.compaction.lag.ms": ("log_cleaner_min_compaction_lag_ms", _int(0)),
    "log.cleaner.max.compaction.lag.ms": ("log_cleaner_max_compaction_lag_ms", _int(1)),
    "log.cleaner.enable": ("log_cleaner_enable", _bool),
    "log.cleaner.backoff.ms": ("log_cleaner_backoff_ms", _int(0)),
    "log.cleaner.dedupe.buffer.size": ("log_cleaner_dedupe_buffer_size", _int(-LONG_MAX - 1)),
    "log.cleaner.io.buffer.load.factor": ("log_cleaner_io_buffer_load_factor", _double),
    "log.cleaner.threads": ("log_cleaner_threads", _int(0, INT_MAX)),
    "log.message.timestamp.type": ("log_message_timestamp_type", _choice("CreateTime", "LogAppendTime")),
    "log.message.timestamp.before.max.ms": ("log_message_timestamp_before_max_ms", _int(0)),
    "log.message.timestamp.after.max.ms": ("log_message_timestamp_after_max_ms", _int(0)),
    "log.flush.interval.messages": ("log_flush_interval_messages", _int(1)),
    "log.flush.interval.ms": ("log_flush_interval_ms", _int(0)),
    "message.max.bytes": ("message_max_bytes", _int(0, INT_MAX)),
    "min.insync.replicas": ("min_insync_replicas", _int(1, INT_MAX)),
    "compression.type": ("compression_type", _choice("producer", "uncompressed", "gzip", "snappy", "lz4", "zstd")),
    "socket.request.max.bytes": ("socket_request_max_bytes", _int(1, INT_MAX)),
    "connections.max.idle.ms": ("connections_max_idle_ms", _int(-1)),
    "log.retention.check.interval.ms": ("log_retention_check_interval_ms", _int(1)),
    "log.flush.scheduler.interval.ms": ("log_flush_scheduler_interval_ms", _int(1)),
    "log.flush.offset.checkpoint.interval.ms": ("log_flush_offset_checkpoint_interval_ms", _int(0, INT_MAX)),
    "group.initial.rebalance.delay.ms": ("group_initial_rebalance_delay_ms", _int(0, INT_MAX)),
    "group.min.session.timeout.ms": ("group_min_session_timeout_ms", _int(0, INT_MAX)),
    "group.max.session.timeout.ms": ("group_max_session_timeout_ms", _int(0, INT_MAX)),
    "group.max.size": ("group_max_size", _int(1, INT_MAX)),
    "group.consumer.heartbeat.interval.ms": ("group_consumer_heartbeat_interval_ms", _int(1, INT_MAX)),
    "group.consumer.session.timeout.ms": ("group_consumer_session_timeout_ms", _int(1, INT_MAX)),
    "group.consumer.max.size": ("group_consumer_max_size", _int(1, INT_MAX)),
    "group.consumer.assignors": ("group_consumer_assignors", _str),
    "group.share.session.timeout.ms": ("group_share_session_timeout_ms", _int(1, INT_MAX)),
    "group.share.heartbeat.interval.ms": ("group_share_heartbeat_interval_ms", _int(1, INT_MAX)),
    "group.share.record.lock.duration.ms": ("group_share_record_lock_duration_ms", _int(1000, 3600000)),
    "group.share.min.record.lock.duration.ms": ("group_share_min_record_lock_duration_ms", _int(1000, 30000)),
    "group.share.max.record.lock.duration.ms": ("group_share_max_record_lock_duration_ms", _int(30000, 3600000)),
    "group.share.delivery.count.limit": ("group_share_delivery_count_limit", _int(2, 10)),
    "group.share.partition.max.record.locks": ("group_share_partition_max_record_locks", _int(100, 10000)),
    "group.share.max.size": ("group_share_max_size", _int(1, 1000)),
    "group.streams.session.timeout.ms": ("group_streams_session_timeout_ms", _int(1, INT_MAX)),
    "group.streams.heartbeat.interval.ms": ("group_streams_heartbeat_interval_ms", _int(1, INT_MAX)),
    "group.streams.max.size": ("group_streams_max_size", _int(1, INT_MAX)),
    "group.streams.num.standby.replicas": ("group_streams_num_standby_replicas", _int(0, INT_MAX)),
    "group.streams.initial.rebalance.delay.ms": ("group_streams_initial_rebalance_delay_ms", _int(0, INT_MAX)),
    "group.streams.assignment.interval.ms": ("group_streams_assignment_interval_ms", _int(0, INT_MAX)),
    "max.share.sessions": ("max_share_sessions", _int(1, INT_MAX)),
    "share.coordinator.state.topic.num.partitions": ("share_coordinator_state_topic_num_partitions",
                                                     _int(1, INT_MAX)),
    "share.coordinator.state.topic.segment.bytes": ("share_coordinator_state_topic_segment_bytes",
                                                    _int(1, INT_MAX)),
    "share.coordinator.state.topic.prune.interval.ms": ("share_coordinator_state_topic_prune_interval_ms",
                                                        _int(1, INT_MAX)),
    "offsets.topic.num.partitions": ("offsets_topic_num_partitions", _int(1, INT_MAX)),
    "offsets.topic.replication.factor": ("offsets_topic_replication_factor", _int(1, 32767)),
    "offsets.topic.segment.bytes": ("offsets_topic_segment_bytes", _int(1, INT_MAX)),
    "offsets.retention.minutes": ("offsets_retention_minutes", _int(1, INT_MAX)),
    "offsets.retention.check.interval.ms": ("offsets_retention_check_interval_ms", _int(1)),
    "offset.metadata.max.bytes": ("offset_metadata_max_bytes", _int(0, INT_MAX)),
    "transaction.state.log.num.partitions": ("transaction_state_log_num_partitions", _int(1, INT_MAX)),
    "transaction.state.log.replication.factor": ("transaction_state_log_replication_factor", _int(1, 32767)),
    "transaction.max.timeout.ms": ("transaction_max_timeout_ms", _int(1, INT_MAX)),
    "transactional.id.expiration.ms": ("transactional_id_expiration_ms", _int(1, INT_MAX)),
    "producer.id.expiration.ms": ("producer_id_expiration_ms", _int(1, INT_MAX)),
    "producer.id.expiration.check.interval.ms": ("producer_id_expiration_check_interval_ms",
                                                 _int(1, INT_MAX)),
    "max.incremental.fetch.session.cache.slots": ("max_incremental_fetch_session_cache_slots", _int(0, INT_MAX)),
    "min.incremental.fetch.session.eviction.ms": ("min_incremental_fetch_session_eviction_ms", _int(0)),
    "process.roles": ("process_roles", _roles),
    "controller.quorum.voters": ("controller_quorum_voters", _voters),
    "controller.quorum.bootstrap.servers": ("controller_quorum_bootstrap_servers", _hostports),
    "controller.listener.names": ("controller_listener_names", _names),
    "controller.quorum.election.timeout.ms": ("controller_quorum_election_timeout_ms", _int(1, INT_MAX)),
    "controller.quorum.fetch.timeout.ms": ("controller_quorum_fetch_timeout_ms", _int(1, INT_MAX)),
    "controller.quorum.request.timeout.ms": ("controller_quorum_request_timeout_ms", _int(1, INT_MAX)),
    "broker.heartbeat.interval.ms": ("broker_heartbeat_interval_ms", _int(1, INT_MAX)),
    "broker.session.timeout.ms": ("broker_session_timeout_ms", _int(1, INT_MAX)),
    "metadata.log.max.record.bytes.between.snapshots": (
        "metadata_log_max_record_bytes_between_snapshots", _int(1)),
}

# (names in precedence order with their factor to ms, attribute)
_UNIT_ALIASES = [
    ((("log.retention.ms", 1), ("log.retention.minutes", 60000), ("log.retention.hours", 3600000)),
     "log_retention_ms"),
    ((("log.roll.ms", 1), ("log.roll.hours", 3600000)), "log_roll_ms"),
    ((("log.roll.jitter.ms", 1), ("log.roll.jitter.hours", 3600000)), "log_roll_jitter_ms"),
]

_UNIT_MINIMUM = {"log_retention_ms": -1, "log_roll_jitter_ms": 0}

# Accepted so a stock Kafka KRaft server.properties works; they do not apply to an
# asyncio process (thread counts, socket buffers, ...).
IGNORED = frozenset({
    "inter.broker.listener.name", "listener.security.protocol.map",
    "num.network.threads", "num.io.threads", "num.replica.fetchers", "num.recovery.threads.per.data.dir",
    "socket.send.buffer.bytes", "socket.receive.buffer.bytes", "transaction.state.log.min.isr",
    "share.coordinator.state.topic.replication.factor", "share.coordinator.state.topic.min.isr",
    "group.coordinator.rebalance.protocols", "unclean.leader.election.enable",
    "queued.max.requests", "background.threads", "metadata.log.dir",
    # replication / offset-commit timeouts: no effect on odradek's single-log-per-partition
    # writes; accepted so a Kafka server.properties (kafka-python's test fixture) starts
    "replica.lag.time.max.ms", "replica.socket.timeout.ms", "offsets.commit.timeout.ms",
})


def read_properties_file(path: str) -> dict[str, str]:
    """Java .properties (the subset Kafka configs use): k=v or k: v, # and ! comments,
    backslash line continuation."""
    out: dict[str, str] = {}
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    i = 0
    while i < len(lines):
        line = lines[i].strip()
        i += 1
        while line.endswith("\\") and i < len(lines):
            line = line[:-1] + lines[i].strip()
            i += 1
        if not line or line[0] in "#!":
            continue
        for j, ch in enumerate(line):
            if ch in "=:":
                key, val = line[:j].strip(), line[j + 1:].strip()
                break
        else:
            key, val = line, ""
        out[key] = val
    return out


def parse_override(text: str) -> tuple[str, str]:
    key, sep, val = text.partition("=")
    if not sep or not key.strip():
        raise ConfigError(f"--override expects key=value, got {text!r}")
    return key.strip(), val.strip()
