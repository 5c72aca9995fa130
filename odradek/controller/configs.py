"""Topic configs as Kafka 4.3 defines them: names, types, defaults, validation, broker synonyms.

A topic config's default and its broker synonyms (log.retention.ms, log.retention.hours,
...) come from the broker's property definitions (odradek.config, whose log.* defaults are
odradek.log.config's topic-level ones), as Kafka's LogConfig takes ServerLogConfigs'; this
table adds the type, Kafka's validation and messages, and the keys Kafka lists that odradek
does not act on. Resolution order for a topic key (Kafka's config sources):
DYNAMIC_TOPIC_CONFIG > DYNAMIC_BROKER_CONFIG > DYNAMIC_DEFAULT_BROKER_CONFIG >
STATIC_BROKER_CONFIG > DEFAULT_CONFIG.
"""

from __future__ import annotations

import re

from dataclasses import dataclass, field
from typing import Callable

from odradek.config import DESCRIBED, FALLBACKS, BrokerConfig, broker_synonym_names, topic_synonyms
from odradek.controller.kafka_broker_config_names import KAFKA_BROKER_CONFIG_NAMES

LONG_MAX = 9223372036854775807
INT_MAX = 2147483647

# ConfigSource (DescribeConfigs v1+)
UNKNOWN = 0
DYNAMIC_TOPIC_CONFIG = 1
DYNAMIC_BROKER_CONFIG = 2
DYNAMIC_DEFAULT_BROKER_CONFIG = 3
STATIC_BROKER_CONFIG = 4
DEFAULT_CONFIG = 5

# ConfigType (DescribeConfigs v3+)
T_UNKNOWN, T_BOOLEAN, T_STRING, T_INT, T_SHORT, T_LONG, T_DOUBLE, T_LIST = 0, 1, 2, 3, 4, 5, 6, 7
_TYPE_NAME = {T_BOOLEAN: "BOOLEAN", T_STRING: "STRING", T_INT: "INT", T_LONG: "LONG", T_DOUBLE: "DOUBLE",
              T_LIST: "LIST"}

# Resource types
TOPIC = 2
BROKER = 4


class InvalidConfig(ValueError):
    """A config value Kafka would reject with INVALID_CONFIG; str() is Kafka's message."""


@dataclass(frozen=True)
class Synonym:
    """A broker property that supplies a topic config's default (scale converts units)."""

    name: str
    default: str | None
    scale: int = 1


@dataclass(frozen=True)
class ConfigDef:
    """A topic or broker config Kafka defines: type, default, synonyms and bounds."""
    name: str
    type: int
    default: str
    synonyms: tuple[Synonym, ...] = ()
    lo: float | None = None
    hi: float | None = None
    choices: tuple[str, ...] | None = None
    # extra check: returns an error string or None
    check: Callable[[str], str | None] | None = field(default=None, compare=False)

    def validate(self, value: str | None) -> str:
        """Return the normalised value or raise InvalidConfig with Kafka's message."""
        if value is None:
            raise InvalidConfig(f"Null value not supported for topic configs: {self.name}")
        v = value.strip() if self.type != T_STRING else value
        err = None
        if self.type in (T_INT, T_LONG, T_SHORT):
            try:
                n = int(v)
            except ValueError:
                raise InvalidConfig(self._bad(value, f"Not a number of type {_TYPE_NAME[self.type]}")) from None
            limit = INT_MAX if self.type == T_INT else LONG_MAX
            if not -limit - 1 <= n <= limit:
                raise InvalidConfig(self._bad(value, f"Not a number of type {_TYPE_NAME[self.type]}"))
            err = self._range(n)
            v = str(n)
        elif self.type == T_DOUBLE:
            try:
                x = float(v)
            except ValueError:
                raise InvalidConfig(self._bad(value, "Not a number of type DOUBLE")) from None
            err = self._range(x)
            v = str(x)
        elif self.type == T_BOOLEAN:
            if v.lower() not in ("true", "false"):
                raise InvalidConfig(self._bad(value, "Expected value to be either true or false"))
            v = v.lower()
        elif self.type == T_LIST:
            items = [p.strip() for p in v.split(",")] if v else []
            items = [p for p in items if p]
            if self.choices is not None:
                for it in items:
                    if it not in self.choices:
                        err = "String must be one of: " + ", ".join(self.choices)
                        break
            v = ",".join(items)
        elif self.type == T_STRING and self.choices is not None:
            if v not in self.choices:
                err = "String must be one of: " + ", ".join(self.choices)
        if err is None and self.check is not None:
            err = self.check(v)
        if err is not None:
            raise InvalidConfig(self._bad(value, err))
        return v

    def _bad(self, value, why: str) -> str:
        return f"Invalid value {value} for configuration {self.name}: {why}"

    def _range(self, n) -> str | None:
        # Kafka's ConfigDef.Range messages
        if self.lo is not None and n < self.lo:
            return f"Value must be at least {_num(self.lo)}"
        if self.hi is not None and n > self.hi:
            return f"Value must be no more than {_num(self.hi)}"
        return None


def _num(x) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)


def _level(lo, hi, extra):
    def check(v: str) -> str | None:
        n = int(v)
        if n == extra or lo <= n <= hi:
            return None
        return f"Value must be between {lo} and {hi}, or be {extra}"
    return check


def _s(name, default=None, scale=1):
    return Synonym(name, default, scale)


_D = ConfigDef
_BROKER_DEFAULTS = BrokerConfig().topic_defaults()


def _B(name: str, type_: int, **kw) -> ConfigDef:
    """A topic config that a broker property supplies: default and synonyms from it."""
    syn = tuple(Synonym(n, d, scale) for n, d, scale in topic_synonyms(name))
    return ConfigDef(name, type_, _BROKER_DEFAULTS[name], syn, **kw)


TOPIC_CONFIGS: dict[str, ConfigDef] = {d.name: d for d in [
    _B("cleanup.policy", T_LIST, choices=("compact", "delete")),
    _D("compression.gzip.level", T_INT, "-1", (_s("compression.gzip.level", "-1"),), check=_level(1, 9, -1)),
    _D("compression.lz4.level", T_INT, "9", (_s("compression.lz4.level", "9"),), lo=1, hi=17),
    _B("compression.type", T_STRING, choices=("uncompressed", "zstd", "lz4", "snappy", "gzip", "producer")),
    _D("compression.zstd.level", T_INT, "3", (_s("compression.zstd.level", "3"),), lo=-131072, hi=22),
    _B("delete.retention.ms", T_LONG, lo=0),
    _B("file.delete.delay.ms", T_LONG, lo=0),
    _B("flush.messages", T_LONG, lo=1),
    _B("flush.ms", T_LONG, lo=0),
    _D("follower.replication.throttled.replicas", T_LIST, ""),
    _B("index.interval.bytes", T_INT, lo=0),
    _D("leader.replication.throttled.replicas", T_LIST, ""),
    _D("local.retention.bytes", T_LONG, "-2", (_s("log.local.retention.bytes", "-2"),), lo=-2),
    _D("local.retention.ms", T_LONG, "-2", (_s("log.local.retention.ms", "-2"),), lo=-2),
    _B("max.compaction.lag.ms", T_LONG, lo=1),
    _B("max.message.bytes", T_INT, lo=0),
    _B("message.timestamp.after.max.ms", T_LONG, lo=0),
    _B("message.timestamp.before.max.ms", T_LONG, lo=0),
    _B("message.timestamp.type", T_STRING, choices=("CreateTime", "LogAppendTime")),
    _B("min.cleanable.dirty.ratio", T_DOUBLE, lo=0, hi=1),
    _B("min.compaction.lag.ms", T_LONG, lo=0),
    _B("min.insync.replicas", T_INT, lo=1),
    _B("preallocate", T_BOOLEAN),
    _D("remote.log.copy.disable", T_BOOLEAN, "false"),
    _D("remote.log.delete.on.disable", T_BOOLEAN, "false"),
    _D("remote.storage.enable", T_BOOLEAN, "false"),
    _B("retention.bytes", T_LONG),
    _B("retention.ms", T_LONG, lo=-1),
    _B("segment.bytes", T_INT, lo=1048576),
    _B("segment.index.bytes", T_INT, lo=4),
    _B("segment.jitter.ms", T_LONG, lo=0),
    _B("segment.ms", T_LONG, lo=1),
    _D("unclean.leader.election.enable", T_BOOLEAN, "false", (_s("unclean.leader.election.enable", "false"),)),
]}

# Broker property -> (topic config it feeds, scale). Every synonym above.
BROKER_SYNONYMS: dict[str, tuple[ConfigDef, Synonym]] = {
    s.name: (d, s) for d in TOPIC_CONFIGS.values() for s in d.synonyms
}

_TYPE_CODE = {"BOOLEAN": T_BOOLEAN, "STRING": T_STRING, "INT": T_INT, "SHORT": T_SHORT, "LONG": T_LONG,
              "DOUBLE": T_DOUBLE, "LIST": T_LIST}

# Kafka's dynamic-only broker configs (QuotaConfig: per broker or the cluster default, listed once
# set): the replication quotas (KIP-73) and the log-dir move quota
DYNAMIC_RATES = frozenset({"leader.replication.throttled.rate", "follower.replication.throttled.rate",
                           "replica.alter.log.dirs.io.max.bytes.per.second"})
# Broker-level configs that are not topic synonyms but that the broker reads from
# ``defaults`` (listed by DescribeConfigs on a broker, read-only, not dynamic): those
# odradek.config gives a Kafka type, with Kafka's default.
BROKER_STATIC: dict[str, tuple[int, str | None]] = {
    name: (_TYPE_CODE[d.kafka_type], d.default) for name, d in DESCRIBED.items() if d.kafka_type is not None
}

# Kafka's dynamic broker configs that are not topic synonyms and that odradek applies when they
# change, per broker or as the cluster default (this broker's value, else the default's, else the
# static one): the cleaner's backoff, read by the broker's periodic loop (broker/server.py), and the
# offset map's budget (LogCleaner's reconfigurable configs); the connection limits (SocketServer's
# ConnectionQuotas) and the replica fetchers (DynamicThreadPool), applied by
# broker/dynamic_broker_config.py; the producer-id expiration (DynamicProducerStateManagerConfig),
# read by each expiration check. Type and default from odradek.config, Kafka's bounds here.
def _dynamic(name: str, lo: float | None = None) -> ConfigDef:
    type_, default = BROKER_STATIC[name]
    return ConfigDef(name, type_, default or "", lo=lo)


DYNAMIC_BROKER: dict[str, ConfigDef] = {d.name: d for d in [
    _dynamic("log.cleaner.backoff.ms", lo=0),
    _dynamic("log.cleaner.dedupe.buffer.size"),
    _dynamic("log.cleaner.io.buffer.load.factor"),
    _dynamic("log.cleaner.threads", lo=0),
    _dynamic("max.connection.creation.rate", lo=0),
    _dynamic("max.connections", lo=0),
    _dynamic("max.connections.per.ip", lo=0),
    _dynamic("max.connections.per.ip.overrides"),
    _dynamic("num.replica.fetchers", lo=1),
    _dynamic("producer.id.expiration.ms", lo=1),
]}

# listener.name.<listener, lower case>.max.connections / .max.connection.creation.rate: a listener's
# own connection quota (SocketServer's ListenerConnectionQuota, a ListenerReconfigurable), dynamic
# per broker and as the cluster default; validated as the broker-wide config it overrides
_LISTENER_QUOTA = re.compile(r"listener\.name\.([^.A-Z]+)\.(max\.connections|max\.connection\.creation\.rate)")


def listener_quota_config(name: str) -> tuple[str, str] | None:
    """(listener name as in the prefix, the broker-wide config) of a listener's connection quota config."""
    m = _LISTENER_QUOTA.fullmatch(name)
    return (m.group(1), m.group(2)) if m is not None else None


# a topic config's later broker synonyms (log.retention.hours, log.flush.scheduler.interval.ms)
BROKER_STATIC_SYNONYMS = frozenset(s.name for d in TOPIC_CONFIGS.values() for s in d.synonyms[1:])

# What AlterConfigs / IncrementalAlterConfigs take for a broker: the rates, DYNAMIC_BROKER and the
# topic synonyms but the later ones (log.retention.hours / .minutes, log.roll.hours,
# log.roll.jitter.hours, log.flush.scheduler.interval.ms: not dynamic in Kafka 4.3, refused "Cannot
# update these configs dynamically").
BROKER_ALTERABLE = (frozenset(BROKER_SYNONYMS) - FALLBACKS - BROKER_STATIC_SYNONYMS) | DYNAMIC_RATES \
    | frozenset(DYNAMIC_BROKER)

# Broker synonyms Kafka's KafkaConfig defines without a validator (LONG, no default), checked only as a
# whole config (KafkaConfig.validateValues, broker_reconfiguration): log.retention.ms takes any
# negative value (unlimited, as -1) and log.roll.ms / log.roll.jitter.ms any number at this stage.
BROKER_UNBOUNDED = frozenset({"log.retention.ms", "log.roll.ms", "log.roll.jitter.ms"})


def unknown_broker_config(name: str) -> bool:
    """No broker config of Kafka's (nor a listener's or a config provider's: those odradek refuses as it
    refused them before): Kafka's broker takes it in an (Incremental)AlterConfigs of a BROKER resource,
    per broker or as the cluster default; its controller stores it; it does nothing, and DescribeConfigs
    lists it read-only, sensitive (value null), of type UNKNOWN."""
    return (name not in KAFKA_BROKER_CONFIG_NAMES and not name.startswith("listener.name.")
            and not name.startswith("config.providers"))


def dynamic_broker_alterable(name: str) -> bool:
    """AlterConfigs / IncrementalAlterConfigs take ``name`` for a broker."""
    return name in BROKER_ALTERABLE or listener_quota_config(name) is not None or unknown_broker_config(name)


# Kafka's ConfigDef documentation of broker configs (DescribeConfigs v3+ with
# include_documentation); the ones without are answered without documentation.
BROKER_DOCS: dict[str, str] = {name: d.doc for name, d in DESCRIBED.items() if d.doc is not None}


# Kafka's read-only flag is "not dynamically updatable" (DynamicBrokerConfig): the listeners
# can be changed per broker (not by odradek: refused); of the topic synonyms only the *.ms forms
# are dynamic.
BROKER_DYNAMIC_STATIC = frozenset({"listeners"})


def dynamic_broker_value(broker_configs, node_id: int, name: str) -> str | None:
    """A dynamic broker config's value on broker node_id, as Kafka's DynamicBrokerConfig resolves it:
    the broker's own dynamic value, else the cluster default's (None: neither is set)."""
    for key in (str(node_id), ""):
        value = broker_configs.get(key, {}).get(name)
        if value is not None:
            return value
    return None


def dynamic_broker_long(broker_configs, node_id: int, name: str, static: int) -> int:
    """A numeric dynamic broker config's value on broker node_id, else the static one."""
    value = dynamic_broker_value(broker_configs, node_id, name)
    return static if value is None else int(value)


def broker_read_only(name: str) -> bool:
    if name in DYNAMIC_RATES or name in DYNAMIC_BROKER:
        return False
    if name in BROKER_SYNONYMS:
        return name in BROKER_STATIC_SYNONYMS
    return name not in BROKER_DYNAMIC_STATIC


def broker_config_known(name: str) -> bool:
    """A broker config odradek knows the type of (Kafka's KafkaConfig.configKeys, as far as odradek
    describes them; the replication rates and listener quotas too)."""
    return (name in BROKER_STATIC or name in BROKER_SYNONYMS or name in DYNAMIC_RATES
            or listener_quota_config(name) is not None)


def broker_config_type(name: str) -> int:
    if unknown_broker_config(name):
        return T_UNKNOWN
    listener_quota = listener_quota_config(name)
    if listener_quota is not None:
        name = listener_quota[1]
    if name in DYNAMIC_RATES:
        return T_LONG
    if name in BROKER_SYNONYMS:
        d, s = BROKER_SYNONYMS[name]
        return T_INT if s.scale != 1 else d.type
    return BROKER_STATIC.get(name, (T_STRING, None))[0]


def broker_default(name: str) -> str | None:
    if name in BROKER_SYNONYMS:
        return BROKER_SYNONYMS[name][1].default
    return BROKER_STATIC.get(name, (T_STRING, None))[1]


def broker_synonyms(name: str, layers) -> list[tuple[str, str | None, int]]:
    """A broker config's synonyms as Kafka's ConfigHelper lists them: every name of the
    setting in each layer (strongest layer first), then their defaults, from the first
    entry named ``name`` on (log.roll.hours does not list a log.roll.ms that overrides it)."""
    names = broker_synonym_names(name)
    syn = [(n, props[n], source) for source, props in layers for n in names if n in props]
    for n in names:
        default = broker_default(n) if n in BROKER_SYNONYMS or n in BROKER_STATIC else \
            DESCRIBED[n].default if n in DESCRIBED else None
        if default is not None:
            syn.append((n, default, DEFAULT_CONFIG))
    while syn and syn[0][0] != name:
        syn.pop(0)
    return syn


def validate_broker_value(name: str, value: str) -> str:
    """Validate a dynamic broker config that is a topic synonym (same rules, scaled), a rate or one of
    DYNAMIC_BROKER (its type and range: Kafka's DynamicConfig.Broker.validate; a listener's connection
    quota as the broker-wide one, named as it; BROKER_UNBOUNDED only its type, their bounds are
    broker_reconfiguration's); a name unknown to Kafka as it is."""
    if unknown_broker_config(name):
        return value
    listener_quota = listener_quota_config(name)
    if listener_quota is not None:
        name = listener_quota[1]
    if name in DYNAMIC_BROKER:
        return DYNAMIC_BROKER[name].validate(value)
    if name in DYNAMIC_RATES:
        try:
            n = int(value.strip())
        except ValueError:
            raise InvalidConfig(f"Invalid value {value} for configuration {name}: Not a number of type LONG") from None
        if n < 0:
            raise InvalidConfig(f"Invalid value {value} for configuration {name}: Value must be at least 0")
        return str(n)
    d, s = BROKER_SYNONYMS[name]
    if name in BROKER_UNBOUNDED:
        return ConfigDef(name, T_LONG, "").validate(value)
    try:  # (a *.ms form: the scaled ones are not dynamic, BROKER_ALTERABLE)
        return d.validate(value)
    except InvalidConfig as e:
        raise InvalidConfig(str(e).replace(f"configuration {d.name}:", f"configuration {name}:")) from None


@dataclass(frozen=True)
class ConfigView:
    """One config as DescribeConfigs / CreateTopics v5+ report it."""

    name: str
    value: str | None
    read_only: bool
    config_source: int
    is_sensitive: bool = False
    synonyms: tuple[tuple[str, str | None, int], ...] = ()  # (name, value, source)
    config_type: int = 0
    documentation: str | None = None


def broker_layers(static: dict[str, str], dyn_default: dict[str, str], dyn_broker: dict[str, str]):
    """The broker-level layers, strongest first, for topic config resolution."""
    return ((DYNAMIC_BROKER_CONFIG, dyn_broker), (DYNAMIC_DEFAULT_BROKER_CONFIG, dyn_default),
            (STATIC_BROKER_CONFIG, static))


def resolve_topic_config(d: ConfigDef, overrides: dict[str, str], layers) -> ConfigView:
    """Effective value and source of topic config ``d`` with Kafka's synonyms list."""
    syn: list[tuple[str, str | None, int]] = []
    if d.name in overrides:
        syn.append((d.name, overrides[d.name], DYNAMIC_TOPIC_CONFIG))
    for source, props in layers:
        for s in d.synonyms:
            if s.name in props:
                syn.append((s.name, props[s.name], source))
    for s in d.synonyms:
        if s.default is not None:
            syn.append((s.name, s.default, DEFAULT_CONFIG))
    if syn:
        name, value, source = syn[0]
        scale = next((s.scale for s in d.synonyms if s.name == name), 1)
        if scale != 1 and value is not None:
            value = str(int(value) * scale)
        if d.name == "retention.ms" and source != DYNAMIC_TOPIC_CONFIG and value is not None and int(value) < 0:
            value = "-1"  # Kafka's logRetentionTimeMillis: any negative broker value means forever
    else:
        value, source = d.default, DEFAULT_CONFIG
    if d.synonyms:
        # Kafka (ConfigHelper.configSynonyms) lists broker synonyms only from the first one
        # named like the primary (log.retention.ms): log.retention.hours alone is never shown
        # and the source falls back to DEFAULT_CONFIG; the value is still the effective one.
        head = 1 if d.name in overrides else 0
        broker = syn[head:]
        while broker and broker[0][0] != d.synonyms[0].name:
            broker.pop(0)
        syn = syn[:head] + broker
        source = syn[0][2] if syn else DEFAULT_CONFIG
    return ConfigView(d.name, value, False, source, False, tuple(syn), d.type)


def effective_topic_config(overrides: dict[str, str], layers) -> dict[str, str]:
    return {name: resolve_topic_config(d, overrides, layers).value for name, d in TOPIC_CONFIGS.items()}
