"""The broker's configuration: one typed object, set with Kafka's own property names.

`odradek serve [server.properties] --override k=v` reads properties in Kafka's
format; `BrokerConfig.from_properties` turns them into a BrokerConfig or raises
ConfigError in Kafka's words ("Invalid value abc for configuration num.partitions: Not
a number of type INT"). Names odradek does not use are reported (`unused`), as Kafka
logs them and starts; a few that make no sense for one Python process (thread counts,
the request queue's length) are accepted silently (IGNORED). The KRaft quorum settings
(process.roles, controller.quorum.voters, ...) are real: see `quorum_mode`.

Each property is defined once, as a BrokerConfig field made by `prop()`: Kafka name,
default, parser, aliases, the topic config it is the default of, and what DescribeConfigs
shows (Kafka type, Kafka's default, documentation). The parse table, `topic_defaults()`
and the controller's config tables (odradek.controller.configs) are derived from these;
the log.* defaults are the topic-level ones of odradek.log.config (`log_prop()`).
"""

from __future__ import annotations

import dataclasses
import posixpath
import re
from dataclasses import dataclass, field
from typing import Callable

from odradek.log.config import default_of

LONG_MAX = 9223372036854775807
INT_MAX = 2147483647


STANDARD_AUTHORIZER = "org.apache.kafka.metadata.authorizer.StandardAuthorizer"
OAUTH_VALIDATOR_HANDLER = "org.apache.kafka.common.security.oauthbearer.OAuthBearerValidatorCallbackHandler"


class ConfigError(ValueError):
    """A configuration property that is unknown or has an invalid value."""


@dataclass(frozen=True)
class Listener:
    """One entry of listeners / advertised.listeners: NAME://host:port."""
    name: str
    host: str
    port: int

    def __str__(self) -> str:
        return f"{self.name}://{self.host}:{self.port}"


# ---------------------------------------------------------------- parsers


def _kafka_message(name, raw, why: str) -> str:
    """Kafka's ConfigException wording: `Invalid value <raw> for configuration <name>: <why>`."""
    return f"Invalid value {raw} for configuration {name}: {why}"


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


def _csv(raw) -> list[str]:
    """The non-empty items of a comma-separated value, stripped."""
    return [item for item in (i.strip() for i in str(raw).split(",")) if item]


def parse_host_counts(raw) -> tuple[tuple[str, int], ...]:
    """'host:100,127.0.0.1:200' (Kafka's CSV map: the last ':' of an entry splits it)."""
    out = []
    for item in _csv(raw):
        host, sep, n = item.rpartition(":")
        if not sep or not host.strip():
            raise ValueError(f"Map entry '{item}' is not of the form key:value")
        out.append((host.strip(), _int(0, INT_MAX)(n)))
    return tuple(out)


def _host_counts(raw) -> str:
    parse_host_counts(raw)
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


class _Whole(ValueError):
    """A reason Kafka gives as the whole message (ConfigException(message), no value)."""


def _valid_list(name: str, *options):
    """Kafka's LIST type with ValidList.in(options): comma-separated, each item one of the
    options, no empty item; an empty list is allowed. Kept as the comma-joined string."""
    def parse(raw):
        text = str(raw).strip()
        items = [i.strip() for i in text.split(",")] if text else []
        for item in items:
            if not item:
                raise _Whole(f"Configuration '{name}' values must not be empty.")
            if item not in options:
                raise ValueError(f"String must be one of: {', '.join(options)}", item)
        return ",".join(items)
    return parse


# the consumer-group assignors odradek has (odradek/coordinator/assignors.py): Kafka 4.3's built-in ones,
# by name or class name
_ASSIGNOR_CLASSES = frozenset({"uniform", "range", "org.apache.kafka.coordinator.group.assignor.UniformAssignor",
                               "org.apache.kafka.coordinator.group.assignor.RangeAssignor"})


def _assignors(raw) -> str:
    """group.consumer.assignors, a LIST as Kafka 4.3 checks it (ConfigDef, then GroupCoordinatorConfig
    loading each class: another class is not found)."""
    items = [v.strip() for v in str(raw).split(",")]
    if items == [""]:
        raise _Whole("Configuration 'group.consumer.assignors' must not be empty. "
                     "Valid values include: any non-empty value")
    if "" in items:
        raise _Whole("Configuration 'group.consumer.assignors' values must not be empty.")
    for v in items:
        if v not in _ASSIGNOR_CLASSES:
            raise _Whole(f"Class {v} cannot be found")
    return ",".join(items)


_SHARE_ASSIGNOR_CLASSES = frozenset({"simple", "org.apache.kafka.coordinator.group.assignor.SimpleAssignor"})


def _share_assignors(raw) -> str:
    """group.share.assignors, a LIST as Kafka 4.3 checks it: ConfigDef drops duplicates, refuses an
    empty list or item; GroupCoordinatorConfig loads each class (its SimpleAssignor, by name or class:
    another is not found), then requires exactly one (odradek's share groups use the SimpleAssignor)."""
    name = "group.share.assignors"
    items = [v.strip() for v in str(raw).split(",")]
    if items == [""]:
        raise _Whole(f"Configuration '{name}' must not be empty. Valid values include: any non-empty value")
    items = list(dict.fromkeys(items))
    if "" in items:
        raise _Whole(f"Configuration '{name}' values must not be empty.")
    for v in items:
        if v not in _SHARE_ASSIGNOR_CLASSES:
            raise _Whole(f"Class {v} cannot be found")
    if len(items) != 1:
        raise _Whole(f"{name} must contain exactly one assignor, but found {len(items)}")
    return items[0]


def _choice_ignoring_case(*options):
    """ConfigDef.CaseInsensitiveValidString: any case of ``options`` (the value kept as given); the
    error lists them as Kafka 4.3 does."""
    allowed = {o.lower() for o in options}

    def parse(raw):
        s = str(raw).strip()
        if s.lower() not in allowed:
            raise ValueError(f"String must be one of (case insensitive): {', '.join(options)}")
        return s
    return parse


def _choice(*options):
    def parse(raw):
        s = str(raw).strip()
        if s not in options:
            raise ValueError(f"String must be one of: {', '.join(options)}")
        return s
    return parse


# the replica.selector.class odradek has (Kafka's own, in kafka-clients; KIP-392)
RACK_AWARE_SELECTOR = "org.apache.kafka.common.replica.RackAwareReplicaSelector"


def _replica_selector(raw) -> str | None:
    """replica.selector.class (KIP-392), a STRING in Kafka 4.3 (null: the leader serves); the class is
    loaded as the broker starts (``BrokerConfig._check``)."""
    s = str(raw).strip()
    return s or None


def parse_listeners(raw) -> tuple[Listener, ...]:
    out = []
    for item in _csv(raw):
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
    for item in _csv(raw):
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


_LISTENER_JAAS = re.compile(r"listener\.name\.([^.]+)\.([^.]+)\.sasl\.jaas\.config")
NODE_SASL_MECHANISMS = ("PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512")  # a node's client side (not GSSAPI, OAUTHBEARER)
_JAAS_USERNAME = re.compile(r'(?<![\w.])username\s*=\s*"')
_JAAS_PASSWORD = re.compile(r'(?<![\w.])password\s*=\s*"')
# listener.name.<l>.max.connections, listener.name.<l>.max.connection.creation.rate (SocketServer's
# ListenerConnectionQuota; INT, at least 0, as the broker-wide ones)
_LISTENER_CONNECTION_LIMIT = re.compile(r"listener\.name\.([^.]+)\.(max\.connections|max\.connection\.creation\.rate)")
_LISTENER_MECHANISMS = re.compile(r"listener\.name\.([^.]+)\.sasl\.enabled\.mechanisms")
_LISTENER_CALLBACK = re.compile(r"listener\.name\.([^.]+)\.([^.]+)\.sasl\.server\.callback\.handler\.class")
# sasl.oauthbearer.* broker settings, also per listener (listener.name.<l>.[oauthbearer.]sasl.oauthbearer.*)
_OAUTH = re.compile(r"(?:listener\.name\.([^.]+)\.(?:oauthbearer\.)?)?(sasl\.oauthbearer\..+)")
OAUTH_KEYS = frozenset({
    "sasl.oauthbearer.jwks.endpoint.url", "sasl.oauthbearer.jwks.endpoint.refresh.ms",
    "sasl.oauthbearer.jwks.endpoint.retry.backoff.ms", "sasl.oauthbearer.jwks.endpoint.retry.backoff.max.ms",
    "sasl.oauthbearer.expected.audience", "sasl.oauthbearer.expected.issuer", "sasl.oauthbearer.sub.claim.name",
    "sasl.oauthbearer.scope.claim.name", "sasl.oauthbearer.clock.skew.seconds", "sasl.oauthbearer.jwt.validator.class"})
_LISTENER_SSL = re.compile(r"(?:listener\.name\.([^.]+)\.)?(ssl\..+)")
SSL_KEYS = frozenset({
    "ssl.keystore.type", "ssl.keystore.location", "ssl.keystore.password", "ssl.key.password",
    "ssl.keystore.certificate.chain", "ssl.keystore.key", "ssl.truststore.type", "ssl.truststore.location",
    "ssl.truststore.password", "ssl.truststore.certificates", "ssl.client.auth", "ssl.enabled.protocols",
    "ssl.protocol", "ssl.cipher.suites", "ssl.endpoint.identification.algorithm", "ssl.principal.mapping.rules"})
SECURITY_PROTOCOLS = ("PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL")
SECURITY_PROTOCOL_IDS = {p: i for i, p in enumerate(SECURITY_PROTOCOLS)}  # Kafka's SecurityProtocol ids
KAFKA_PROTOCOL_MAP = "SASL_SSL:SASL_SSL,PLAINTEXT:PLAINTEXT,SSL:SSL,SASL_PLAINTEXT:SASL_PLAINTEXT"


def protocol_map(raw: str) -> dict[str, str]:
    """listener.security.protocol.map: NAME:PROTOCOL,... -> {NAME: PROTOCOL}"""
    out = {}
    for item in _csv(raw):
        name, colon, proto = item.partition(":")
        proto = proto.strip().upper()
        if not colon or not name.strip():
            raise ValueError(f"{item!r} is not NAME:PROTOCOL")
        if proto not in SECURITY_PROTOCOLS:
            raise ValueError(f"No enum constant org.apache.kafka.common.security.auth.SecurityProtocol.{proto}")
        out[name.strip().upper()] = proto
    return out


def _protocol_map(raw) -> str:
    return ",".join(f"{k}:{v}" for k, v in protocol_map(raw).items())


def _security_protocol(raw) -> str:
    proto = str(raw).strip().upper()
    if proto not in SECURITY_PROTOCOLS:
        raise ValueError(f"No enum constant org.apache.kafka.common.security.auth.SecurityProtocol.{proto}")
    return proto


def _csv_upper(raw) -> tuple[str, ...]:
    return tuple(x.upper() for x in _csv(raw))


def _roles(raw) -> tuple[str, ...]:
    roles = tuple(_csv(raw))
    if not roles or any(r not in ("broker", "controller") for r in roles):
        raise ValueError("String must be one of: broker, controller")  # Kafka: ValidList.in(broker, controller)
    return roles


def _voters(raw) -> tuple[tuple[int, str, int], ...]:
    """Kafka's controller.quorum.voters: id@host:port,..."""
    out = []
    for item in _csv(raw):
        nid, at, addr = item.partition("@")
        host, colon, port = addr.rpartition(":")
        if not at or not colon or not nid.strip().isdigit() or not port.isdigit():
            raise ValueError(f"{item!r} is not id@host:port")
        out.append((int(nid), host.strip("[]"), int(port)))
    return tuple(out)


def _hostports(raw) -> tuple[tuple[str, int], ...]:
    out = []
    for item in _csv(raw):
        host, colon, port = item.rpartition(":")
        if not colon or not port.isdigit():
            raise ValueError(f"{item!r} is not host:port")
        out.append((host.strip("[]"), int(port)))
    return tuple(out)


def _names(raw) -> tuple[str, ...]:
    return tuple(n.upper() for n in _csv(raw))


def _dirs(raw) -> tuple[str, ...]:
    dirs = tuple(_csv(raw))
    if not dirs:
        raise ValueError("no directory given")
    return dirs


_SAME = object()  # "as odradek's default"


@dataclass(frozen=True)
class Alias:
    """Another Kafka name of a property: ``value * scale`` is the property's value
    (log.retention.hours for log.retention.ms), or the same value (broker.id)."""

    name: str
    scale: int = 1
    parse: Callable | None = None  # None: the property's own parser
    described: object = _SAME  # Kafka's default as DescribeConfigs reports it
    kafka_type: str | None = None  # listed by DescribeConfigs on a broker with this type


@dataclass(frozen=True)
class Prop:
    """One broker property, defined once: Kafka name, parser (Kafka's validation and
    wording), aliases, the topic config it is the default of, and how DescribeConfigs
    shows it (type, Kafka's default when it differs from odradek's, documentation)."""

    name: str
    parse: Callable
    aliases: tuple[Alias, ...] = ()
    topic: str | None = None
    kafka_type: str | None = None
    described: object = _SAME
    doc: str | None = None
    fallback: str | None = None  # unset, it takes this property's value (Kafka lists it as a synonym)

    @property
    def by_precedence(self) -> bool:
        """Unit aliases (*.ms over *.minutes over *.hours): the first one given wins."""
        return any(a.scale != 1 for a in self.aliases)


def prop(name: str, default, parse: Callable, **kw):
    return field(default=default, metadata={"prop": Prop(name, parse, **kw)})


def log_prop(name: str, topic: str, parse: Callable, default=_SAME, **kw):
    """A broker log.* property whose default is the topic-level one (odradek.log.config)."""
    if default is _SAME:
        default = default_of(topic)
        default = ",".join(default) if isinstance(default, tuple) else default
    return field(default=default, metadata={"prop": Prop(name, parse, topic=topic, **kw)})


@dataclass(frozen=True)
class BrokerConfig:
    """A broker's settings, one field per Kafka property (see Prop); built by from_properties."""
    node_id: int = prop("node.id", 1, _int(0, INT_MAX), kafka_type="INT", described=None,
                        aliases=(Alias("broker.id", kafka_type="INT", described="-1"),))
    listeners: tuple[Listener, ...] = prop("listeners", (Listener("PLAINTEXT", "127.0.0.1", 9092),),
                                           parse_listeners, kafka_type="LIST", described="PLAINTEXT://:9092")
    advertised_listeners: tuple[Listener, ...] | None = prop("advertised.listeners", None, parse_listeners,
                                                             kafka_type="LIST")
    log_dirs: tuple[str, ...] = prop("log.dirs", ("./odradek-data",), _dirs, kafka_type="LIST", described=None,
                                     aliases=(Alias("log.dir", kafka_type="LIST", described="/tmp/kafka-logs"),))
    # the directory of the KRaft metadata log (__cluster_metadata-0, its quorum-state and snapshots)
    # and its meta.properties, as Kafka; unset: odradek's <first log dir>/metadata (see metadata_dir)
    metadata_log_dir: str | None = prop("metadata.log.dir", None, _str, kafka_type="STRING")
    broker_rack: str | None = prop("broker.rack", None, _str, kafka_type="STRING")  # replica placement
    # fetch from followers (KIP-392): None, Kafka's default, the leader serves every consumer
    replica_selector_class: str | None = prop("replica.selector.class", None, _replica_selector,
                                              kafka_type="STRING")
    controlled_shutdown_enable: bool = prop("controlled.shutdown.enable", True, _bool, kafka_type="BOOLEAN")
    # the active controller's leader maintenance (Kafka's QuorumController)
    auto_leader_rebalance_enable: bool = prop("auto.leader.rebalance.enable", True, _bool, kafka_type="BOOLEAN")
    leader_imbalance_check_interval_seconds: int = prop("leader.imbalance.check.interval.seconds", 300,
                                                        _int(1), kafka_type="LONG")
    unclean_leader_election_enable: bool = prop("unclean.leader.election.enable", False, _bool)
    unclean_leader_election_interval_ms: int = prop("unclean.leader.election.interval.ms", 300000,
                                                    _int(1))
    num_partitions: int = prop("num.partitions", 1, _int(1, INT_MAX), kafka_type="INT")
    default_replication_factor: int = prop("default.replication.factor", 1, _int(1, 32767),
                                           kafka_type="INT")
    auto_create_topics_enable: bool = prop("auto.create.topics.enable", True, _bool, kafka_type="BOOLEAN")
    delete_topic_enable: bool = prop("delete.topic.enable", True, _bool, kafka_type="BOOLEAN")
    # topic-level defaults: broker names, defaults from odradek.log.config's topic-level ones
    log_retention_ms: int = log_prop(
        "log.retention.ms", "retention.ms", _int(), described=None,
        aliases=(Alias("log.retention.minutes", 60000, _int(None, INT_MAX), described=None),
                 Alias("log.retention.hours", 3600000, _int(None, INT_MAX), described="168")))
    log_retention_bytes: int = log_prop("log.retention.bytes", "retention.bytes", _int(-1))
    log_segment_bytes: int = log_prop("log.segment.bytes", "segment.bytes", _int(14, INT_MAX))
    log_preallocate: bool = log_prop("log.preallocate", "preallocate", _bool)
    # file.delete.delay.ms's default; also deleted partitions' delay
    log_segment_delete_delay_ms: int = log_prop("log.segment.delete.delay.ms", "file.delete.delay.ms",
                                                _int(0, LONG_MAX))
    log_roll_ms: int = log_prop("log.roll.ms", "segment.ms", _int(1), described=None,
                                aliases=(Alias("log.roll.hours", 3600000, _int(1, INT_MAX), described="168"),))
    log_roll_jitter_ms: int = log_prop("log.roll.jitter.ms", "segment.jitter.ms", _int(0), described=None,
                                       aliases=(Alias("log.roll.jitter.hours", 3600000, _int(0, INT_MAX),
                                                      described="0"),))
    log_index_size_max_bytes: int = log_prop("log.index.size.max.bytes", "segment.index.bytes", _int(4, INT_MAX))
    log_index_interval_bytes: int = log_prop("log.index.interval.bytes", "index.interval.bytes", _int(0, INT_MAX))
    log_cleanup_policy: str = log_prop("log.cleanup.policy", "cleanup.policy",
                                       _valid_list("log.cleanup.policy", "compact", "delete"))
    log_cleaner_min_cleanable_ratio: float = log_prop("log.cleaner.min.cleanable.ratio",
                                                      "min.cleanable.dirty.ratio", _float01)
    log_cleaner_delete_retention_ms: int = log_prop("log.cleaner.delete.retention.ms", "delete.retention.ms",
                                                    _int(0))
    log_cleaner_min_compaction_lag_ms: int = log_prop("log.cleaner.min.compaction.lag.ms",
                                                      "min.compaction.lag.ms", _int(0))
    log_cleaner_max_compaction_lag_ms: int = log_prop("log.cleaner.max.compaction.lag.ms",
                                                      "max.compaction.lag.ms", _int(1))
    log_cleaner_enable: bool = prop("log.cleaner.enable", True, _bool, kafka_type="BOOLEAN", doc=(
        "Enable the log cleaner process to run on the server. Should be enabled if using any topics with a "
        "cleanup.policy=compact including the internal offsets topic. If disabled those topics will not be "
        "compacted and continually grow in size."))
    log_cleaner_backoff_ms: int = prop("log.cleaner.backoff.ms", 15000, _int(0), kafka_type="LONG")
    # the cleaner's offset map: buffer / threads bytes per cleaner, 24 bytes a key, filled
    # to load factor (odradek/log/compaction.py CleanerConfig); Kafka's defaults
    log_cleaner_dedupe_buffer_size: int = prop(
        "log.cleaner.dedupe.buffer.size", 134217728, _int(-LONG_MAX - 1), kafka_type="LONG",
        doc="The total memory used for log deduplication across all cleaner threads")
    log_cleaner_io_buffer_load_factor: float = prop(
        "log.cleaner.io.buffer.load.factor", 0.9, _double, kafka_type="DOUBLE",
        doc=("Log cleaner dedupe buffer load factor. The percentage full the dedupe buffer can become. A higher "
             "value will allow more log to be cleaned at once but will lead to more hash collisions"))
    log_cleaner_threads: int = prop("log.cleaner.threads", 1, _int(0, INT_MAX), kafka_type="INT",
                                    doc="The number of background threads to use for log cleaning")
    log_message_timestamp_type: str = log_prop("log.message.timestamp.type", "message.timestamp.type",
                                               _choice("CreateTime", "LogAppendTime"))
    log_message_timestamp_before_max_ms: int = log_prop("log.message.timestamp.before.max.ms",
                                                        "message.timestamp.before.max.ms", _int(0))
    log_message_timestamp_after_max_ms: int = log_prop("log.message.timestamp.after.max.ms",
                                                       "message.timestamp.after.max.ms", _int(0))
    log_flush_interval_messages: int = log_prop("log.flush.interval.messages", "flush.messages", _int(1))
    # no default in Kafka either: flush.ms then keeps the topic-level default
    log_flush_interval_ms: int | None = log_prop("log.flush.interval.ms", "flush.ms", _int(0), default=None,
                                                 fallback="log.flush.scheduler.interval.ms")
    message_max_bytes: int = log_prop("message.max.bytes", "max.message.bytes", _int(0, INT_MAX))
    min_insync_replicas: int = prop("min.insync.replicas", 1, _int(1, INT_MAX), topic="min.insync.replicas")
    compression_type: str = prop("compression.type", "producer",
                                 _choice("producer", "uncompressed", "gzip", "snappy", "lz4", "zstd"),
                                 topic="compression.type")
    # follower replication (Kafka's ReplicationConfigs; the replica fetchers of broker/replica_fetcher.py)
    num_replica_fetchers: int = prop("num.replica.fetchers", 1, _int(1, INT_MAX), kafka_type="INT")
    replica_fetch_max_bytes: int = prop("replica.fetch.max.bytes", 1048576, _int(0, INT_MAX), kafka_type="INT")
    replica_fetch_response_max_bytes: int = prop("replica.fetch.response.max.bytes", 10485760, _int(0, INT_MAX),
                                                 kafka_type="INT")
    replica_fetch_wait_max_ms: int = prop("replica.fetch.wait.max.ms", 500, _int(None, INT_MAX), kafka_type="INT")
    replica_fetch_min_bytes: int = prop("replica.fetch.min.bytes", 1, _int(None, INT_MAX), kafka_type="INT")
    replica_fetch_backoff_ms: int = prop("replica.fetch.backoff.ms", 1000, _int(0, INT_MAX), kafka_type="INT")
    replica_socket_timeout_ms: int = prop("replica.socket.timeout.ms", 30000, _int(None, INT_MAX), kafka_type="INT")
    # broker process
    socket_request_max_bytes: int = prop("socket.request.max.bytes", 104857600, _int(1, INT_MAX), kafka_type="INT")
    # SO_SNDBUF / SO_RCVBUF of the accepted sockets (-1: the OS default), as Kafka's acceptor
    socket_send_buffer_bytes: int = prop("socket.send.buffer.bytes", 102400, _int(None, INT_MAX),
                                         kafka_type="INT")
    socket_receive_buffer_bytes: int = prop("socket.receive.buffer.bytes", 102400, _int(None, INT_MAX),
                                            kafka_type="INT")
    connections_max_idle_ms: int = prop("connections.max.idle.ms", 600000, _int(-1), kafka_type="LONG")
    # bytes of requests being read or queued before reading stops (-1: no bound but
    # socket.request.max.bytes per request); the connection limits (broker/connection_limits.py)
    queued_max_request_bytes: int = prop("queued.max.request.bytes", -1, _int(), kafka_type="LONG")
    max_connections: int = prop("max.connections", INT_MAX, _int(0, INT_MAX), kafka_type="INT")
    max_connections_per_ip: int = prop("max.connections.per.ip", INT_MAX, _int(0, INT_MAX), kafka_type="INT")
    max_connections_per_ip_overrides: str = prop("max.connections.per.ip.overrides", "", _host_counts,
                                                 kafka_type="STRING")
    max_connection_creation_rate: int = prop("max.connection.creation.rate", INT_MAX, _int(0, INT_MAX),
                                             kafka_type="INT")
    # odradek's own HTTP listener (broker/http_server.py): /metrics, /health/live, /health/ready;
    # off unless a port is given (0: any free port)
    http_port: int | None = prop("odradek.http.port", None, _int(0, 65535))
    http_host: str = prop("odradek.http.host", "127.0.0.1", _str)
    log_retention_check_interval_ms: int = prop("log.retention.check.interval.ms", 300000, _int(1), kafka_type="LONG")
    log_flush_scheduler_interval_ms: int = prop("log.flush.scheduler.interval.ms", LONG_MAX, _int(1))
    log_flush_offset_checkpoint_interval_ms: int = prop("log.flush.offset.checkpoint.interval.ms", 60000,
                                                        _int(0, INT_MAX), kafka_type="INT")
    # how often the log start offsets moved in memory (a follower's, DeleteRecords) are written
    # (LogManager.checkpoint_log_starts; 0: once, after the first 30 s, as Kafka's scheduler)
    log_flush_start_offset_checkpoint_interval_ms: int = prop("log.flush.start.offset.checkpoint.interval.ms",
                                                              60000, _int(0, INT_MAX), kafka_type="INT")
    # group coordinator
    group_initial_rebalance_delay_ms: int = prop("group.initial.rebalance.delay.ms", 3000, _int(0, INT_MAX),
                                                 kafka_type="INT")
    group_min_session_timeout_ms: int = prop("group.min.session.timeout.ms", 6000, _int(0, INT_MAX),
                                             kafka_type="INT")
    group_max_session_timeout_ms: int = prop("group.max.session.timeout.ms", 1800000, _int(0, INT_MAX),
                                             kafka_type="INT")
    group_max_size: int = prop("group.max.size", INT_MAX, _int(1, INT_MAX), kafka_type="INT")
    # the group protocols served: without consumer (streams), ConsumerGroupHeartbeat/Describe
    # (StreamsGroupHeartbeat/Describe) answer UNSUPPORTED_VERSION (Kafka's KafkaApis); classic is required
    group_coordinator_rebalance_protocols: str = prop(
        "group.coordinator.rebalance.protocols", "classic,consumer,streams",
        _valid_list("group.coordinator.rebalance.protocols", "consumer", "classic", "share", "streams"),
        kafka_type="LIST")
    # KIP-848 consumer groups (odradek/coordinator/consumer_heartbeat.py)
    group_consumer_heartbeat_interval_ms: int = prop("group.consumer.heartbeat.interval.ms", 5000,
                                                     _int(1, INT_MAX), kafka_type="INT")
    group_consumer_session_timeout_ms: int = prop("group.consumer.session.timeout.ms", 45000, _int(1, INT_MAX),
                                                  kafka_type="INT")
    # the bounds of Kafka 4.3's GroupCoordinatorConfig: checked at start-up (_check_group_coordinator)
    # and the bounds of the GROUP configs (controller/group_configs.py)
    group_consumer_min_session_timeout_ms: int = prop("group.consumer.min.session.timeout.ms", 45000,
                                                      _int(1, INT_MAX), kafka_type="INT")
    group_consumer_max_session_timeout_ms: int = prop("group.consumer.max.session.timeout.ms", 60000,
                                                      _int(1, INT_MAX), kafka_type="INT")
    group_consumer_min_heartbeat_interval_ms: int = prop("group.consumer.min.heartbeat.interval.ms", 5000,
                                                         _int(1, INT_MAX), kafka_type="INT")
    group_consumer_max_heartbeat_interval_ms: int = prop("group.consumer.max.heartbeat.interval.ms", 15000,
                                                         _int(1, INT_MAX), kafka_type="INT")
    group_consumer_max_size: int = prop("group.consumer.max.size", INT_MAX, _int(1, INT_MAX), kafka_type="INT")
    group_consumer_assignors: str = prop("group.consumer.assignors", "uniform,range", _assignors,
                                         kafka_type="LIST")
    group_consumer_assignment_interval_ms: int = prop("group.consumer.assignment.interval.ms", 1000,
                                                      _int(0, INT_MAX), kafka_type="INT")
    group_consumer_min_assignment_interval_ms: int = prop("group.consumer.min.assignment.interval.ms", 0,
                                                          _int(0, INT_MAX), kafka_type="INT")
    group_consumer_max_assignment_interval_ms: int = prop("group.consumer.max.assignment.interval.ms", 15000,
                                                          _int(0, INT_MAX), kafka_type="INT")
    # online migration between classic and consumer groups with members (KIP-848's upgrade/downgrade,
    # odradek/coordinator/group_conversion.py): bidirectional, upgrade, downgrade or disabled, any case
    group_consumer_migration_policy: str = prop(
        "group.consumer.migration.policy", "bidirectional",
        _choice_ignoring_case("DISABLED", "DOWNGRADE", "UPGRADE", "BIDIRECTIONAL"), kafka_type="STRING")
    # how long the group coordinator's appends wait to be written together (-1: adaptive, the
    # records of one slice of its requests; 0: each at once), broker/coordinator_events.py
    group_coordinator_append_linger_ms: int = prop("group.coordinator.append.linger.ms", -1, _int(-1, INT_MAX),
                                                   kafka_type="INT")
    # KIP-932 share groups (odradek/coordinator/share_group_coordinator.py); Kafka 4.3's defaults
    group_share_session_timeout_ms: int = prop("group.share.session.timeout.ms", 45000, _int(1, INT_MAX),
                                               kafka_type="INT")
    group_share_min_session_timeout_ms: int = prop("group.share.min.session.timeout.ms", 45000, _int(1, INT_MAX),
                                                   kafka_type="INT")
    group_share_max_session_timeout_ms: int = prop("group.share.max.session.timeout.ms", 60000, _int(1, INT_MAX),
                                                   kafka_type="INT")
    group_share_heartbeat_interval_ms: int = prop("group.share.heartbeat.interval.ms", 5000, _int(1, INT_MAX),
                                                  kafka_type="INT")
    group_share_min_heartbeat_interval_ms: int = prop("group.share.min.heartbeat.interval.ms", 5000,
                                                      _int(1, INT_MAX), kafka_type="INT")
    group_share_max_heartbeat_interval_ms: int = prop("group.share.max.heartbeat.interval.ms", 15000,
                                                      _int(1, INT_MAX), kafka_type="INT")
    group_share_record_lock_duration_ms: int = prop("group.share.record.lock.duration.ms", 30000,
                                                    _int(1000, 3600000), kafka_type="INT")
    group_share_min_record_lock_duration_ms: int = prop("group.share.min.record.lock.duration.ms", 15000,
                                                        _int(1000, 30000), kafka_type="INT")
    group_share_max_record_lock_duration_ms: int = prop("group.share.max.record.lock.duration.ms", 60000,
                                                        _int(30000, 3600000), kafka_type="INT")
    group_share_delivery_count_limit: int = prop("group.share.delivery.count.limit", 5, _int(2, 10), kafka_type="INT")
    group_share_min_delivery_count_limit: int = prop("group.share.min.delivery.count.limit", 2, _int(2, 5),
                                                     kafka_type="INT")
    group_share_max_delivery_count_limit: int = prop("group.share.max.delivery.count.limit", 10, _int(5, 25),
                                                     kafka_type="INT")
    group_share_partition_max_record_locks: int = prop("group.share.partition.max.record.locks", 2000,
                                                       _int(100, 10000), kafka_type="INT")
    group_share_min_partition_max_record_locks: int = prop("group.share.min.partition.max.record.locks", 100,
                                                           _int(100, 2000), kafka_type="INT")
    group_share_max_partition_max_record_locks: int = prop("group.share.max.partition.max.record.locks", 4000,
                                                           _int(2000, 10000), kafka_type="INT")
    group_share_max_size: int = prop("group.share.max.size", 200, _int(1, 1000), kafka_type="INT")
    group_share_assignors: str = prop("group.share.assignors", "simple", _share_assignors, kafka_type="LIST")
    group_share_assignment_interval_ms: int = prop("group.share.assignment.interval.ms", 1000,
                                                   _int(0, INT_MAX), kafka_type="INT")
    group_share_min_assignment_interval_ms: int = prop("group.share.min.assignment.interval.ms", 0,
                                                       _int(0, INT_MAX), kafka_type="INT")
    group_share_max_assignment_interval_ms: int = prop("group.share.max.assignment.interval.ms", 15000,
                                                       _int(0, INT_MAX), kafka_type="INT")
    # KIP-1071 streams groups (odradek/coordinator/streams_heartbeat.py); Kafka 4.3's defaults
    group_streams_session_timeout_ms: int = prop("group.streams.session.timeout.ms", 45000, _int(1, INT_MAX),
                                                 kafka_type="INT")
    group_streams_min_session_timeout_ms: int = prop("group.streams.min.session.timeout.ms", 45000,
                                                     _int(1, INT_MAX), kafka_type="INT")
    group_streams_max_session_timeout_ms: int = prop("group.streams.max.session.timeout.ms", 60000,
                                                     _int(1, INT_MAX), kafka_type="INT")
    group_streams_heartbeat_interval_ms: int = prop("group.streams.heartbeat.interval.ms", 5000,
                                                    _int(1, INT_MAX), kafka_type="INT")
    group_streams_min_heartbeat_interval_ms: int = prop("group.streams.min.heartbeat.interval.ms", 5000,
                                                        _int(1, INT_MAX), kafka_type="INT")
    group_streams_max_heartbeat_interval_ms: int = prop("group.streams.max.heartbeat.interval.ms", 15000,
                                                        _int(1, INT_MAX), kafka_type="INT")
    group_streams_max_size: int = prop("group.streams.max.size", INT_MAX, _int(1, INT_MAX), kafka_type="INT")
    group_streams_num_standby_replicas: int = prop("group.streams.num.standby.replicas", 0, _int(0, INT_MAX),
                                                   kafka_type="INT")
    group_streams_max_standby_replicas: int = prop("group.streams.max.standby.replicas", 2, _int(0, INT_MAX),
                                                   kafka_type="INT")
    group_streams_initial_rebalance_delay_ms: int = prop("group.streams.initial.rebalance.delay.ms", 3000,
                                                         _int(0, INT_MAX), kafka_type="INT")
    group_streams_assignment_interval_ms: int = prop("group.streams.assignment.interval.ms", 1000,
                                                     _int(0, INT_MAX), kafka_type="INT")
    group_streams_min_assignment_interval_ms: int = prop("group.streams.min.assignment.interval.ms", 0,
                                                         _int(0, INT_MAX), kafka_type="INT")
    group_streams_max_assignment_interval_ms: int = prop("group.streams.max.assignment.interval.ms", 15000,
                                                         _int(0, INT_MAX), kafka_type="INT")
    group_share_max_share_sessions: int = prop("group.share.max.share.sessions", 2000, _int(1, INT_MAX),
                                               kafka_type="INT")
    # the share coordinator's __share_group_state (created on the first FindCoordinator of a share key)
    share_coordinator_state_topic_num_partitions: int = prop("share.coordinator.state.topic.num.partitions", 50,
                                                             _int(1, INT_MAX), kafka_type="INT")
    share_coordinator_state_topic_segment_bytes: int = prop("share.coordinator.state.topic.segment.bytes",
                                                            104857600, _int(1, INT_MAX), kafka_type="INT")
    share_coordinator_state_topic_prune_interval_ms: int = prop(
        "share.coordinator.state.topic.prune.interval.ms", 300000, _int(1, INT_MAX))
    share_coordinator_state_topic_replication_factor: int = prop(
        "share.coordinator.state.topic.replication.factor", 1, _int(1, 32767), kafka_type="SHORT")
    # Kafka's default is 2 (with a replication factor of 3); 1 here, as the replication factor
    share_coordinator_state_topic_min_isr: int = prop("share.coordinator.state.topic.min.isr", 1, _int(1, 32767),
                                                      kafka_type="SHORT")
    offsets_topic_num_partitions: int = prop("offsets.topic.num.partitions", 50, _int(1, INT_MAX),
                                             kafka_type="INT")
    # Kafka's default is 3; odradek keeps 1 so that a single node works out of the box
    offsets_topic_replication_factor: int = prop("offsets.topic.replication.factor", 1,
                                                 _int(1, 32767), kafka_type="SHORT")
    offsets_topic_segment_bytes: int = prop("offsets.topic.segment.bytes", 104857600, _int(1, INT_MAX),
                                            kafka_type="INT")
    offsets_retention_minutes: int = prop("offsets.retention.minutes", 10080, _int(1, INT_MAX), kafka_type="INT")
    offsets_retention_check_interval_ms: int = prop("offsets.retention.check.interval.ms", 600000, _int(1),
                                                    kafka_type="LONG")
    offset_metadata_max_bytes: int = prop("offset.metadata.max.bytes", 4096, _int(0, INT_MAX), kafka_type="INT")
    # how long a group coordinator's write waits to be replicated before COORDINATOR_NOT_AVAILABLE
    offsets_commit_timeout_ms: int = prop("offsets.commit.timeout.ms", 5000, _int(1, INT_MAX), kafka_type="INT")
    # transactions
    transaction_state_log_num_partitions: int = prop("transaction.state.log.num.partitions", 50,
                                                     _int(1, INT_MAX), kafka_type="INT")
    transaction_state_log_replication_factor: int = prop("transaction.state.log.replication.factor", 1,
                                                         _int(1, 32767), kafka_type="SHORT")
    # Kafka's default is 2 (with a replication factor of 3); 1 here, as the replication factor
    transaction_state_log_min_isr: int = prop("transaction.state.log.min.isr", 1, _int(1, INT_MAX),
                                              kafka_type="INT")
    transaction_max_timeout_ms: int = prop("transaction.max.timeout.ms", 900000, _int(1, INT_MAX), kafka_type="INT")
    transactional_id_expiration_ms: int = prop("transactional.id.expiration.ms", 604800000, _int(1, INT_MAX),
                                               kafka_type="INT")
    producer_id_expiration_ms: int = prop("producer.id.expiration.ms", 86400000, _int(1, INT_MAX), kafka_type="INT")
    producer_id_expiration_check_interval_ms: int = prop("producer.id.expiration.check.interval.ms", 600000,
                                                         _int(1, INT_MAX))
    # KIP-227 fetch sessions (Kafka hardcodes the eviction time; a property here for tests)
    max_incremental_fetch_session_cache_slots: int = prop("max.incremental.fetch.session.cache.slots", 1000,
                                                          _int(0, INT_MAX), kafka_type="INT")
    min_incremental_fetch_session_eviction_ms: int = prop("min.incremental.fetch.session.eviction.ms", 120000,
                                                          _int(0))
    # KRaft quorum. A lone node with both roles (the default) is its own single voter;
    # anything wider (more voters, or one role only) runs the Raft quorum over the wire.
    process_roles: tuple[str, ...] = prop("process.roles", ("broker", "controller"), _roles, kafka_type="LIST",
                                          described=None)
    controller_quorum_voters: tuple[tuple[int, str, int], ...] = prop(
        "controller.quorum.voters", (), _voters, kafka_type="LIST")  # (id, host, port)
    controller_quorum_bootstrap_servers: tuple[tuple[str, int], ...] = prop(
        "controller.quorum.bootstrap.servers", (), _hostports, kafka_type="LIST")
    controller_listener_names: tuple[str, ...] = prop("controller.listener.names", ("CONTROLLER",), _names,
                                                      kafka_type="LIST")
    # the protocol of each listener; odradek serves PLAINTEXT only and refuses to start a listener
    # mapped to SSL or SASL rather than serve it without them
    # client quotas (producer_byte_rate, consumer_byte_rate): Kafka's rate windows
    quota_window_num: int = prop("quota.window.num", 11, _int(1, INT_MAX), kafka_type="INT")
    quota_window_size_seconds: int = prop("quota.window.size.seconds", 1, _int(1, INT_MAX), kafka_type="INT")
    replication_quota_window_num: int = prop("replication.quota.window.num", 11, _int(1, INT_MAX), kafka_type="INT")
    replication_quota_window_size_seconds: int = prop("replication.quota.window.size.seconds", 1, _int(1, INT_MAX),
                                                      kafka_type="INT")
    connection_failed_authentication_delay_ms: int = prop("connection.failed.authentication.delay.ms", 100,
                                                          _int(0, INT_MAX), kafka_type="INT")
    # KIP-368: a SASL session's lifetime (0: none); past it the connection must re-authenticate
    connections_max_reauth_ms: int = prop("connections.max.reauth.ms", 0, _int(0), kafka_type="LONG")
    # the largest frame a SASL listener reads before the client has authenticated (Kafka's
    # SaslServerAuthenticator: a larger one closes the connection)
    sasl_server_max_receive_size: int = prop("sasl.server.max.receive.size", 524288, _int(1, INT_MAX), kafka_type="INT")
    # Kafka's StandardAuthorizer (security/authorizer.py) or none; another class is refused at start-up
    authorizer_class_name: str = prop("authorizer.class.name", "", _str, kafka_type="STRING")
    super_users: str = prop("super.users", "", _str)  # the authorizer's (not a KafkaConfig: not described)
    allow_everyone_if_no_acl_found: bool = prop("allow.everyone.if.no.acl.found", False, _bool)  # (likewise)
    # the mechanisms a SASL listener offers (Kafka's default GSSAPI is refused: odradek has PLAIN and SCRAM)
    sasl_enabled_mechanisms: tuple[str, ...] = prop("sasl.enabled.mechanisms", ("GSSAPI",), _csv_upper,
                                                    kafka_type="LIST")
    listener_security_protocol_map: str = prop("listener.security.protocol.map", KAFKA_PROTOCOL_MAP, _protocol_map,
                                               kafka_type="STRING")
    # the listener brokers talk to each other on (replica fetchers, inter-broker RPCs): by name, else the
    # listener named as security.inter.broker.protocol (Kafka: the two are exclusive)
    inter_broker_listener_name: str | None = prop("inter.broker.listener.name", None,
                                                  lambda raw: str(raw).strip().upper(), kafka_type="STRING")
    security_inter_broker_protocol: str = prop("security.inter.broker.protocol", "PLAINTEXT", _security_protocol,
                                               kafka_type="STRING")
    # the SASL mechanism a node authenticates with to another node's SASL listener (Kafka's GSSAPI
    # default is refused: odradek's nodes use PLAIN)
    sasl_mechanism_inter_broker_protocol: str = prop("sasl.mechanism.inter.broker.protocol", "GSSAPI",
                                                     lambda raw: str(raw).strip().upper(), kafka_type="STRING")
    sasl_mechanism_controller_protocol: str = prop("sasl.mechanism.controller.protocol", "GSSAPI",
                                                   lambda raw: str(raw).strip().upper(), kafka_type="STRING")
    controller_listeners: tuple[Listener, ...] = ()  # from listeners, by controller.listener.names
    controller_quorum_election_timeout_ms: int = prop("controller.quorum.election.timeout.ms", 1000,
                                                      _int(1, INT_MAX), kafka_type="INT")
    controller_quorum_fetch_timeout_ms: int = prop("controller.quorum.fetch.timeout.ms", 2000, _int(1, INT_MAX),
                                                   kafka_type="INT")
    controller_quorum_request_timeout_ms: int = prop("controller.quorum.request.timeout.ms", 2000,
                                                     _int(1, INT_MAX), kafka_type="INT")
    broker_heartbeat_interval_ms: int = prop("broker.heartbeat.interval.ms", 2000, _int(1, INT_MAX), kafka_type="INT")
    broker_session_timeout_ms: int = prop("broker.session.timeout.ms", 9000, _int(1, INT_MAX), kafka_type="INT")
    # a follower that has not caught up with the leader's log end for this long leaves the ISR
    replica_lag_time_max_ms: int = prop("replica.lag.time.max.ms", 30000, _int(0), kafka_type="LONG")
    replica_high_watermark_checkpoint_interval_ms: int = prop(
        "replica.high.watermark.checkpoint.interval.ms", 5000, _int(1), kafka_type="LONG")
    metadata_log_max_record_bytes_between_snapshots: int = prop(
        "metadata.log.max.record.bytes.between.snapshots", 20971520, _int(1), kafka_type="LONG")
    # odradek for tests (odradek/testing): the /control routes of the HTTP port (faults, clock), a
    # broker clock that moves only by POST /control/clock/advance, every request and response as
    # JSON lines (`odradek serve --trace FILE`)
    testing_control_enable: bool = prop("odradek.testing.control.enable", False, _bool)
    testing_virtual_clock: bool = prop("odradek.testing.virtual.clock", False, _bool)
    testing_trace_file: str | None = prop("odradek.testing.trace.file", None, _str)
    # TLS settings: ("" or a listener name, "ssl.keystore.location"...) -> value (broker/tls.py reads them)
    ssl_settings: dict = field(default_factory=dict, compare=False, repr=False)
    # JAAS configs of SASL listeners: (listener name, mechanism) -> listener.name.<l>.<mech>.sasl.jaas.config
    listener_jaas: dict = field(default_factory=dict, compare=False, repr=False)
    # listener.name.<l>.max.connections / .max.connection.creation.rate: (listener name, the name) -> int
    listener_connection_limits: dict = field(default_factory=dict, compare=False, repr=False)
    # listener.name.<l>.sasl.enabled.mechanisms: listener name -> mechanisms (else sasl.enabled.mechanisms)
    listener_mechanisms: dict = field(default_factory=dict, compare=False, repr=False)
    # listener.name.<l>.<mechanism>.sasl.server.callback.handler.class: (listener, mechanism) -> class
    listener_callback_handlers: dict = field(default_factory=dict, compare=False, repr=False)
    # sasl.oauthbearer.* settings: ("" or a listener name, "sasl.oauthbearer.<name>") -> value
    oauth_settings: dict = field(default_factory=dict, compare=False, repr=False)
    # every property given explicitly, by Kafka name (for DescribeConfigs "source")
    explicit: dict = field(default_factory=dict, compare=False, repr=False)
    # properties given that odradek does not use (Kafka warns about those and starts)
    unused: tuple = field(default=(), compare=False, repr=False)
    # `odradek serve --add-scram`: UserScramCredentialRecords a fresh metadata log starts with
    bootstrap_scram: tuple = field(default=(), compare=False, repr=False)

    # ------------------------------------------------------------ derived

    @property
    def listener(self) -> Listener:
        return self.listeners[0]

    @property
    def advertised(self) -> Listener:
        """Host/port of the inter-broker listener as registered (the image's host:port of this broker)."""
        return self.advertised_broker_listeners[0]

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

    @property
    def metadata_dir(self) -> str:
        """Where the metadata log lives: metadata.log.dir (Kafka's layout: meta.properties and
        __cluster_metadata-0 in it), else the first log dir's metadata/ folder."""
        return self.metadata_log_dir or posixpath.join(self.data_dir, "metadata")

    def properties(self, prefix: str) -> dict[str, str]:
        """The value of every property whose name starts with ``prefix``, by Kafka name, as Kafka writes it."""
        return {p.name: _kafka_str(getattr(self, attr)) for attr, p in _FIELDS if p.name.startswith(prefix)}

    def topic_defaults(self) -> dict[str, str]:
        """Topic-level config defaults (topic property names) derived from broker settings."""
        out = {}
        for f, p in _FIELDS:
            if p.topic is not None:
                v = getattr(self, f)
                if v is None and p.fallback is not None:
                    v = getattr(self, _BY_NAME[p.fallback][0])
                out[p.topic] = _kafka_str(default_of(p.topic) if v is None else v)
        return out

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

    @property
    def deprecations(self) -> tuple[str, ...]:
        """Kafka 4.3's start-up warnings about deprecated settings given (KafkaConfig's, word for word):
        group.coordinator.rebalance.protocols, given at all, and 'share' in it, which gates nothing
        (share groups are the share.version feature's, here too)."""
        name = "group.coordinator.rebalance.protocols"
        if name not in self.explicit:
            return ()
        protocols = self.group_coordinator_rebalance_protocols.split(",")
        out = []
        if "share" in protocols:
            out.append(f"'share' in `{name}` is deprecated. Share groups are controlled by the 'share.version' "
                       "feature. This config will be removed in Kafka 5.0.")
        missing = [p for p in ("classic", "consumer", "streams") if p not in protocols]
        if missing:
            out.append(f"The config `{name}` is deprecated and will be removed in Kafka 5.0. The following "
                       f"protocol(s) are currently disabled: {', '.join(missing)}. In Kafka 5.0, all protocols will "
                       "always be enabled and controlled solely by feature versions (group.version, "
                       "streams.version, share.version) via kafka-features.sh. Please remove the configuration, "
                       "which will restore all protocols to the default enabled state, to prepare for the upgrade.")
        else:
            out.append(f"The config `{name}` is deprecated and will be removed in Kafka 5.0. Please remove the "
                       "configuration to prepare for the upgrade.")
        return tuple(out)

    # ------------------------------------------------------------ parsing

    @classmethod
    def from_properties(cls, props: dict[str, str]) -> "BrokerConfig":
        values: dict = {}
        explicit = {}
        unused: list[str] = []
        # Kafka's precedence for time units: *.ms over *.minutes over *.hours.
        for attr, p in _FIELDS:
            if p.by_precedence:
                for name, scale, parse in _names_of(p):
                    if name in props:
                        values[attr] = _parse(name, parse, props[name]) * scale
                        break
        for name, raw in props.items():
            explicit[name] = raw
            if name in IGNORED:
                continue
            spec = _BY_NAME.get(name)
            jaas = _LISTENER_JAAS.fullmatch(name)
            if jaas is not None:  # listener.name.<listener>.<mechanism>.sasl.jaas.config
                values.setdefault("listener_jaas", {})[(jaas.group(1).upper(), jaas.group(2).upper())] = raw
                continue
            limit = _LISTENER_CONNECTION_LIMIT.fullmatch(name)
            if limit is not None and limit.group(1) == limit.group(1).lower():  # (Kafka's prefix is lower case)
                values.setdefault("listener_connection_limits", {})[(limit.group(1).upper(), limit.group(2))] = \
                    _parse(name, _int(0, INT_MAX), raw)
                continue
            mechs = _LISTENER_MECHANISMS.fullmatch(name)
            if mechs is not None:
                values.setdefault("listener_mechanisms", {})[mechs.group(1).upper()] = _csv_upper(raw)
                continue
            handler = _LISTENER_CALLBACK.fullmatch(name)
            if handler is not None and handler.group(2).upper() == "OAUTHBEARER":
                values.setdefault("listener_callback_handlers", {})[(handler.group(1).upper(), "OAUTHBEARER")] = \
                    raw.strip()
                continue
            oauth = _OAUTH.fullmatch(name)
            if oauth is not None and oauth.group(2) in OAUTH_KEYS:
                values.setdefault("oauth_settings", {})[((oauth.group(1) or "").upper(), oauth.group(2))] = raw
                continue
            tls = _LISTENER_SSL.fullmatch(name)
            if tls is not None and tls.group(2) in SSL_KEYS:  # [listener.name.<listener>.]ssl.*
                listener = (tls.group(1) or "").upper()
                values.setdefault("ssl_settings", {})[(listener, tls.group(2))] = raw
                continue
            if spec is None:
                # as Kafka (AbstractConfig.logUnused): a name it does not use is reported, not refused
                unused.append(name)
                continue
            attr, p, scale, parse = spec
            if not p.by_precedence:
                values[attr] = _parse(name, parse, raw)
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
        if values.get("log_retention_ms", 0) < 0:
            values["log_retention_ms"] = -1  # Kafka's logRetentionTimeMillis: any negative means forever
        cfg = dataclasses.replace(cls(), **values, explicit=explicit, unused=tuple(sorted(unused)))
        cfg._check()
        return cfg

    def _check_listeners(self) -> None:
        """Every listener served with its protocol; what odradek cannot serve yet is refused at
        start-up (never an open port where TLS or SASL was asked for, never a listener silently
        left unbound): TLS or SASL between the nodes of a cluster (the controller listener and the
        inter-broker listener stay PLAINTEXT)."""
        every = tuple(dict.fromkeys((*self.listeners, *self.controller_listeners)))
        names = [lst.name for lst in every]
        if len(set(names)) < len(names):
            raise ConfigError(f"Each listener must have a different name, listeners: {','.join(map(str, every))}")
        if "inter.broker.listener.name" in self.explicit and "security.inter.broker.protocol" in self.explicit:
            raise ConfigError("Only one of inter.broker.listener.name and security.inter.broker.protocol should be set.")
        inter = self.inter_broker_listener
        if self.quorum_mode and self.controller_listener_names:
            self._check_node_sasl(self.controller_listener_names[0], "sasl.mechanism.controller.protocol",
                                  self.sasl_mechanism_controller_protocol)
        if self.quorum_mode and "broker" in self.process_roles:  # (a single node's brokers have no links)
            if (listener_protocol(self, inter) in ("SASL_PLAINTEXT", "SASL_SSL")
                    and self.sasl_mechanism_inter_broker_protocol not in self.sasl_mechanisms(inter)):
                raise ConfigError("requirement failed: sasl.mechanism.inter.broker.protocol must be included in "
                                  "sasl.enabled.mechanisms when SASL is used for inter-broker communication")
            self._check_node_sasl(inter, "sasl.mechanism.inter.broker.protocol",
                                  self.sasl_mechanism_inter_broker_protocol)
        for lst in every:
            proto = listener_protocol(self, lst.name)
            if proto == "PLAINTEXT":
                continue
            if proto in ("SASL_PLAINTEXT", "SASL_SSL"):
                self._check_sasl(lst)
            if proto in ("SSL", "SASL_SSL"):
                has_key = any(self.ssl(lst.name, k) for k in ("ssl.keystore.location", "ssl.keystore.key"))
                if not has_key:
                    raise ConfigError(f"listener {lst}: SSL key store is not specified (ssl.keystore.location, or "
                                      f"ssl.keystore.key with ssl.keystore.certificate.chain)")
        if "broker" in self.process_roles:
            advertised = {lst.name for lst in self.advertised_broker_listeners}
            served = {lst.name for lst in self.listeners}
            if not advertised <= served:
                raise ConfigError(f"advertised.listeners listener names must be equal to or a subset of the ones "
                                  f"defined in listeners. Found {','.join(sorted(advertised))}. The valid options "
                                  f"based on the current configuration are {','.join(sorted(served))}")
            if self.quorum_mode and inter not in advertised:
                raise ConfigError(f"inter.broker.listener.name must be a listener name defined in "
                                  f"advertised.listeners. The valid options based on currently configured listeners "
                                  f"are {','.join(sorted(advertised))}")

    @property
    def inter_broker_listener(self) -> str:
        """The listener name brokers reach each other on: inter.broker.listener.name, else the listener
        named as security.inter.broker.protocol (Kafka's default PLAINTEXT); a single node without
        one uses its first listener."""
        if self.inter_broker_listener_name:
            return self.inter_broker_listener_name
        name = self.security_inter_broker_protocol
        if self.quorum_mode or any(lst.name == name for lst in self.listeners):
            return name
        return self.listener.name

    @property
    def advertised_broker_listeners(self) -> tuple[Listener, ...]:
        """What this broker registers, one endpoint per listener (advertised.listeners, else
        listeners with a wildcard host as 127.0.0.1), the inter-broker listener first (so that
        the image's host:port of a broker is where other brokers fetch from)."""
        if self.advertised_listeners:
            out = [lst for lst in self.advertised_listeners if lst.name not in self.controller_listener_names]
        else:
            out = [Listener(lst.name, "127.0.0.1" if lst.host in ("", "0.0.0.0", "::") else lst.host, lst.port)
                   for lst in self.listeners]
        inter = self.inter_broker_listener
        return tuple(sorted(out, key=lambda lst: lst.name != inter))

    def _check_node_sasl(self, listener: str, setting: str, mechanism: str) -> None:
        """A SASL listener between nodes: odradek's nodes authenticate with PLAIN, SCRAM-SHA-256 or
        SCRAM-SHA-512, with the username and password of the listener's <mechanism>.sasl.jaas.config
        (as a Kafka broker's client side takes them)."""
        proto = listener_protocol(self, listener)
        if proto not in ("SASL_PLAINTEXT", "SASL_SSL"):
            return
        jaas = self.sasl_jaas(listener, mechanism)
        if mechanism not in NODE_SASL_MECHANISMS or not (_JAAS_USERNAME.search(jaas) and _JAAS_PASSWORD.search(jaas)):
            raise ConfigError(f"listener {listener} ({proto}) between cluster nodes: odradek's nodes authenticate "
                              f"with {setting}={'|'.join(NODE_SASL_MECHANISMS)} (given {mechanism}) and the username "
                              f"and password of listener.name.{listener.lower()}.{mechanism.lower()}.sasl.jaas.config")

    def _check_sasl(self, lst: Listener) -> None:
        offered = {"PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512", "OAUTHBEARER"}
        mechanisms = self.sasl_mechanisms(lst.name)
        other = [m for m in mechanisms if m not in offered]
        if other or not mechanisms:
            raise ConfigError(f"sasl.enabled.mechanisms={','.join(mechanisms)}: listener {lst} can offer PLAIN, "
                              f"SCRAM-SHA-256, SCRAM-SHA-512 and OAUTHBEARER only (not {', '.join(other)})")
        if "OAUTHBEARER" in mechanisms and lst.name in self.controller_listener_names:
            raise ConfigError(f"sasl.enabled.mechanisms={','.join(mechanisms)}: controller listener {lst} cannot "
                              "offer OAUTHBEARER (odradek's nodes authenticate to each other with PLAIN or SCRAM)")
        for mech in ("PLAIN", "OAUTHBEARER"):
            if mech in mechanisms and (lst.name, mech) not in self.listener_jaas:
                raise ConfigError(f"Could not find a 'KafkaServer' or '{lst.name.lower()}.KafkaServer' entry in the "
                                  f"JAAS configuration: set listener.name.{lst.name.lower()}.{mech.lower()}.sasl.jaas.config")
        handler = self.listener_callback_handlers.get((lst.name, "OAUTHBEARER"))
        if handler is not None and handler != OAUTH_VALIDATOR_HANDLER:
            raise ConfigError(f"Fatal error during broker startup: java.lang.ClassNotFoundException: {handler} "
                              f"(listener.name.{lst.name.lower()}.oauthbearer.sasl.server.callback.handler.class: "
                              f"odradek has {OAUTH_VALIDATOR_HANDLER} only, or none for unsecured tokens)")

    def ssl(self, listener: str, key: str, default: str | None = None) -> str | None:
        """A TLS setting of a listener: listener.name.<listener>.<key>, else <key>, else the default."""
        return self.ssl_settings.get((listener, key), self.ssl_settings.get(("", key), default))

    def listener_connection_limit(self, listener: str, name: str) -> int | None:
        """listener.name.<listener>.<name> (max.connections, max.connection.creation.rate); None: unset
        (the listener takes the broker-wide value)."""
        return self.listener_connection_limits.get((listener, name))

    def sasl_mechanisms(self, listener: str) -> tuple[str, ...]:
        """The SASL mechanisms a listener offers: listener.name.<l>.sasl.enabled.mechanisms, else sasl.enabled.mechanisms."""
        return self.listener_mechanisms.get(listener, self.sasl_enabled_mechanisms)

    def oauth(self, listener: str) -> dict[str, str]:
        """A listener's sasl.oauthbearer.* settings: listener.name.<l>.… over the broker's own."""
        out = {k: v for (lst, k), v in self.oauth_settings.items() if lst == ""}
        out.update({k: v for (lst, k), v in self.oauth_settings.items() if lst == listener})
        return out

    def sasl_jaas(self, listener: str, mechanism: str) -> str:
        return self.listener_jaas.get((listener, mechanism), "")

    def _check_group_coordinator(self) -> None:
        """Kafka 4.3's GroupCoordinatorConfig and ShareGroupConfig constructors (Utils.require): the
        first relation that fails stops the start, with Kafka's message."""
        for left, rel, right in GROUP_COORDINATOR_REQUIRES:
            a, b = getattr(self, _BY_NAME[left][0]), getattr(self, _BY_NAME[right][0])
            if not (a >= b if rel == ">=" else a <= b if rel == "<=" else a < b):
                raise ConfigError(f"{left} must be {_RELATIONS[rel]} {right}")

    def _check(self) -> None:
        self._check_group_coordinator()
        if "classic" not in self.group_coordinator_rebalance_protocols.split(","):
            raise ConfigError("Disabling the 'classic' protocol is not supported.")
        if self.replica_selector_class not in (None, RACK_AWARE_SELECTOR) and "broker" in self.process_roles:
            # Kafka 4.3's broker loads the class as it starts and exits with "Fatal error during broker
            # startup" on a ClassNotFoundException; odradek has Kafka's RackAwareReplicaSelector only
            raise ConfigError(f"Fatal error during broker startup: java.lang.ClassNotFoundException: "
                              f"{self.replica_selector_class} (replica.selector.class: odradek has "
                              f"{RACK_AWARE_SELECTOR} only)")
        if self.advertised_listeners:
            for lst in self.advertised_listeners:
                if lst.host in ("", "0.0.0.0", "::"):
                    raise ConfigError(f"advertised.listeners cannot use the wildcard host: {lst}")
        self._check_listeners()
        if self.authorizer_class_name.strip() not in ("", STANDARD_AUTHORIZER):
            # Kafka 4.3 fails to load a class it does not have the same way
            raise ConfigError(f"Fatal error during broker startup: java.lang.ClassNotFoundException: "
                              f"{self.authorizer_class_name.strip()} (authorizer.class.name: odradek has "
                              f"{STANDARD_AUTHORIZER} only)")
        if self.log_retention_ms == 0:
            raise ConfigError("log.retention.ms must be unlimited (-1) or, greater than or equal to 1")
        if 0 < self.queued_max_request_bytes < self.socket_request_max_bytes:
            # KafkaConfig.validateValues
            raise ConfigError("queued.max.request.bytes must be larger or equal to socket.request.max.bytes")
        if self.max_connections_per_ip == 0 and not self.max_connections_per_ip_overrides:
            # KafkaConfig.validateValues
            raise ConfigError("max.connections.per.ip can be set to zero only if "
                              "max.connections.per.ip.overrides property is set.")
        # KafkaConfig.validateValues (Kafka divides by log.cleaner.threads there, so 0 fails too)
        if self.log_cleaner_threads < 1:
            raise ConfigError(f"invalid value {self.log_cleaner_threads} for log.cleaner.threads: "
                              "the dedupe buffer is divided among the cleaner threads, there must be at least 1")
        if self.log_cleaner_dedupe_buffer_size // self.log_cleaner_threads <= 1024 * 1024:
            raise ConfigError("log.cleaner.dedupe.buffer.size must be at least 1MB per cleaner thread.")
        if self.replica_fetch_wait_max_ms > self.replica_socket_timeout_ms:  # KafkaConfig.validateValues
            raise ConfigError("replica.socket.timeout.ms should always be at least replica.fetch.wait.max.ms"
                              " to prevent unnecessary socket timeouts")
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


_RELATIONS = {">=": "greater than or equal to", "<=": "less than or equal to", "<": "less than"}


def _group_requires() -> tuple[tuple[str, str, str], ...]:
    """(property, relation, property) that must hold, in the order Kafka 4.3 checks them: its
    GroupCoordinatorConfig (consumer, share, streams groups) then its ShareGroupConfig."""
    out = []
    for kind in ("consumer", "share", "streams"):
        g = f"group.{kind}."
        for what in ("heartbeat.interval.ms", "session.timeout.ms"):
            out += [(f"{g}max.{what}", ">=", f"{g}min.{what}"), (f"{g}{what}", ">=", f"{g}min.{what}"),
                    (f"{g}{what}", "<=", f"{g}max.{what}")]
        out.append((f"{g}heartbeat.interval.ms", "<", f"{g}session.timeout.ms"))
        what = "assignment.interval.ms"
        out += [(f"{g}max.{what}", ">=", f"{g}min.{what}"), (f"{g}{what}", ">=", f"{g}min.{what}"),
                (f"{g}{what}", "<=", f"{g}max.{what}")]
    out.append(("group.streams.num.standby.replicas", "<=", "group.streams.max.standby.replicas"))
    g = "group.share."
    for what in ("delivery.count.limit", "partition.max.record.locks"):
        out += [(f"{g}max.{what}", ">=", f"{g}{what}"), (f"{g}{what}", ">=", f"{g}min.{what}")]
    out += [(f"{g}record.lock.duration.ms", ">=", f"{g}min.record.lock.duration.ms"),
            (f"{g}max.record.lock.duration.ms", ">=", f"{g}record.lock.duration.ms"),
            (f"{g}max.share.sessions", ">=", f"{g}max.size")]
    return tuple(out)


def _names_of(p: Prop):
    """(Kafka name, scale, parser) of a property and its aliases, in precedence order."""
    return [(p.name, 1, p.parse)] + [(a.name, a.scale, a.parse or p.parse) for a in p.aliases]


def _parse(name: str, parse: Callable, raw):
    try:
        return parse(raw)
    except _Whole as e:
        raise ConfigError(str(e)) from None
    except (ValueError, TypeError) as e:
        if len(e.args) == 2:  # (reason, the offending item of a list)
            raise ConfigError(_kafka_message(name, e.args[1], e.args[0])) from None
        raise ConfigError(_kafka_message(name, raw, str(e))) from None


def _kafka_str(v) -> str:
    """A default as Kafka writes it (true/false, lists comma-joined)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, tuple):
        return ",".join(str(x) for x in v)
    return str(v)


# (field, Prop) of every BrokerConfig property, and every Kafka name -> (field, Prop, scale, parser)
_FIELDS = [(f.name, f.metadata["prop"]) for f in dataclasses.fields(BrokerConfig) if "prop" in f.metadata]
_BY_NAME = {name: (attr, p, scale, parse) for attr, p in _FIELDS for name, scale, parse in _names_of(p)}
_SPECS = {name: (attr, parse) for name, (attr, _, _, parse) in _BY_NAME.items()}
GROUP_COORDINATOR_REQUIRES = _group_requires()


@dataclass(frozen=True)
class Described:
    """How DescribeConfigs on a broker shows a property odradek reads (Kafka's ConfigDef)."""

    kafka_type: str | None  # INT, SHORT, LONG, DOUBLE, BOOLEAN, STRING, LIST; None: not listed by itself
    default: str | None  # Kafka's default (None: Kafka has none)
    doc: str | None = None


def _described(attr: str, p: Prop, a: Alias | None = None) -> Described:
    d = (a or p).described
    if d is _SAME:
        d = BrokerConfig.__dataclass_fields__[attr].default if a is None else None
        d = None if d is None else _kafka_str(d)
    return Described((a or p).kafka_type, d, p.doc if a is None else None)


# every Kafka name of a broker property -> its DescribeConfigs facts
DESCRIBED: dict[str, Described] = {}
for _attr, _p in _FIELDS:
    DESCRIBED[_p.name] = _described(_attr, _p)
    for _a in _p.aliases:
        DESCRIBED[_a.name] = _described(_attr, _p, _a)


# properties another one falls back to when unset (log.flush.scheduler.interval.ms)
FALLBACKS = frozenset(p.fallback for _, p in _FIELDS if p.fallback is not None)


def broker_synonym_names(name: str) -> tuple[str, ...]:
    """The names one broker setting goes by, strongest first (Kafka's
    DynamicBrokerConfig.brokerConfigSynonyms): a unit group for any of its names, a
    property and its fallback for the property itself."""
    spec = _BY_NAME.get(name)
    if spec is None:
        listener_limit = _LISTENER_CONNECTION_LIMIT.fullmatch(name)  # (listenerPrefix.<name>: <name>)
        return (name,) if listener_limit is None else (name, listener_limit.group(2))
    p = spec[1]
    if p.by_precedence:
        return tuple(n for n, _, _ in _names_of(p))
    if p.fallback is not None and name == p.name:
        return (name, p.fallback)
    return (name,)


def listener_protocol(cfg: BrokerConfig, name: str) -> str:
    protocols = protocol_map(cfg.listener_security_protocol_map)
    if name in protocols:
        return protocols[name]
    if name in cfg.controller_listener_names and "listener.security.protocol.map" not in cfg.explicit:
        return "PLAINTEXT"  # as Kafka: an unset map takes the controller listeners as PLAINTEXT
    raise ConfigError(f"Listener with name {name} defined in listeners not found in "
                      f"listener.security.protocol.map.")


def topic_synonyms(topic: str) -> tuple[tuple[str, str | None, int], ...]:
    """The broker properties that supply topic config ``topic``'s default, Kafka's order:
    (name, Kafka's default, scale to the topic's unit)."""
    return tuple((name, DESCRIBED[name].default, scale)
                 for _, p in _FIELDS if p.topic == topic
                 for name, scale, _ in _names_of(p) + ([(p.fallback, 1, None)] if p.fallback else []))


# Accepted so a stock Kafka KRaft server.properties works; they do not apply to an
# asyncio process (thread counts; queued.max.requests, the length of Kafka's request queue, is
# not applied: connections are bounded by queued.max.request.bytes only).
IGNORED = frozenset({
    "num.network.threads", "num.io.threads", "num.recovery.threads.per.data.dir",
    # not read by a KRaft controller (it rebalances every partition off its preferred leader)
    "leader.imbalance.per.broker.percentage",
    "queued.max.requests", "background.threads",
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
