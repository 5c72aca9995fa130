"""GROUP config resources (DescribeConfigs / IncrementalAlterConfigs resource type 32, KIP-848/932):
dynamic per-group settings stored as ConfigRecords, over the broker's group.* defaults.

The share-group and streams-group configs are here, the ones odradek's share and streams groups obey
(Kafka 4.3's GroupConfig also has consumer.* and the *.assignor.offload.enable ones: odradek's consumer
groups take the broker settings only); any other name is refused as Kafka refuses an unknown one.
"""

from __future__ import annotations

import re

from .configs import DEFAULT_CONFIG, T_BOOLEAN, T_INT, T_STRING, ConfigView

GROUP = 32
GROUP_CONFIG_SOURCE = 8  # DescribeConfigsResponse ConfigSource GROUP_CONFIG

# name -> (type, broker property it defaults to, Kafka's default of that property)
GROUP_CONFIGS: dict[str, tuple[int, str, str]] = {
    "share.auto.offset.reset": (T_STRING, "share.auto.offset.reset", "latest"),
    "share.delivery.count.limit": (T_INT, "group.share.delivery.count.limit", "5"),
    "share.heartbeat.interval.ms": (T_INT, "group.share.heartbeat.interval.ms", "5000"),
    "share.isolation.level": (T_STRING, "share.isolation.level", "read_uncommitted"),
    "share.partition.max.record.locks": (T_INT, "group.share.partition.max.record.locks", "2000"),
    "share.record.lock.duration.ms": (T_INT, "group.share.record.lock.duration.ms", "30000"),
    "share.renew.acknowledge.enable": (T_BOOLEAN, "share.renew.acknowledge.enable", "true"),
    "share.session.timeout.ms": (T_INT, "group.share.session.timeout.ms", "45000"),
    "streams.assignment.interval.ms": (T_INT, "group.streams.assignment.interval.ms", "1000"),
    "streams.heartbeat.interval.ms": (T_INT, "group.streams.heartbeat.interval.ms", "5000"),
    "streams.initial.rebalance.delay.ms": (T_INT, "group.streams.initial.rebalance.delay.ms", "3000"),
    "streams.num.standby.replicas": (T_INT, "group.streams.num.standby.replicas", "0"),
    "streams.session.timeout.ms": (T_INT, "group.streams.session.timeout.ms", "45000"),
}

# (min broker property, its default, max broker property, its default) bounding an int config
_BOUNDS = {
    "share.delivery.count.limit": ("group.share.min.delivery.count.limit", 2, "group.share.max.delivery.count.limit", 10),
    "share.heartbeat.interval.ms": ("group.share.min.heartbeat.interval.ms", 5000,
                                    "group.share.max.heartbeat.interval.ms", 15000),
    "share.partition.max.record.locks": ("group.share.min.partition.max.record.locks", 100,
                                         "group.share.max.partition.max.record.locks", 10000),
    "share.record.lock.duration.ms": ("group.share.min.record.lock.duration.ms", 15000,
                                      "group.share.max.record.lock.duration.ms", 60000),
    "share.session.timeout.ms": ("group.share.min.session.timeout.ms", 45000,
                                 "group.share.max.session.timeout.ms", 60000),
    "streams.assignment.interval.ms": ("group.streams.min.assignment.interval.ms", 0,
                                       "group.streams.max.assignment.interval.ms", 15000),
    "streams.heartbeat.interval.ms": ("group.streams.min.heartbeat.interval.ms", 5000,
                                      "group.streams.max.heartbeat.interval.ms", 15000),
    # no broker minimum: the config's own (ConfigDef atLeast(0))
    "streams.initial.rebalance.delay.ms": (None, 0, None, None),
    "streams.num.standby.replicas": (None, 0, "group.streams.max.standby.replicas", 2),
    "streams.session.timeout.ms": ("group.streams.min.session.timeout.ms", 45000,
                                   "group.streams.max.session.timeout.ms", 60000),
}

_DURATION = re.compile(r"by_duration:P(?:\d+D)?(?:T(?:\d+H)?(?:\d+M)?(?:\d+(?:\.\d+)?S)?)?", re.I)


class InvalidGroupConfig(Exception):
    pass


def broker_value(name: str, broker_props: dict) -> str:
    _, prop, default = GROUP_CONFIGS[name]
    return str(broker_props.get(prop, default))


def _bound(broker_props: dict, prop: str, default: int) -> int:
    try:
        return int(broker_props.get(prop, default))
    except (TypeError, ValueError):
        return default


def validate(name: str, value: str, broker_props: dict) -> str:
    """The value to store, or InvalidGroupConfig with Kafka's style of message."""
    d = GROUP_CONFIGS.get(name)
    if d is None:
        raise InvalidGroupConfig(f"Unknown group config name: {name}")
    ctype = d[0]
    if ctype == T_INT:
        try:
            n = int(value.strip())
        except ValueError:
            raise InvalidGroupConfig(f"Invalid value {value} for configuration {name}: Not a number of type INT")
        if name in _BOUNDS:
            lo_prop, lo_def, hi_prop, hi_def = _BOUNDS[name]
            lo = _bound(broker_props, lo_prop, lo_def) if lo_prop is not None else lo_def
            if n < lo:
                if lo_prop is None:
                    raise InvalidGroupConfig(f"Invalid value {n} for configuration {name}: Value must be at least {lo}")
                raise InvalidGroupConfig(f"{name} must be greater than or equal to {lo_prop}")
            if hi_prop is not None and n > _bound(broker_props, hi_prop, hi_def):
                raise InvalidGroupConfig(f"{name} must be less than or equal to {hi_prop}")
        return str(n)
    if ctype == T_BOOLEAN:
        if value.strip().lower() not in ("true", "false"):
            raise InvalidGroupConfig(f"Invalid value {value} for configuration {name}: Expected value to be "
                                     "either true or false")
        return value.strip().lower()
    if name == "share.auto.offset.reset":
        v = value.strip().lower()
        if v not in ("latest", "earliest") and not _DURATION.fullmatch(v):
            raise InvalidGroupConfig(f"Invalid value {value} for configuration share.auto.offset.reset: "
                                     "[latest, earliest, by_duration:PnDTnHnMn.nS]")
        return v
    if name == "share.isolation.level":
        v = value.strip().lower()
        if v not in ("read_committed", "read_uncommitted"):
            raise InvalidGroupConfig(f"Invalid value {value} for configuration share.isolation.level: "
                                     "String must be one of: read_committed, read_uncommitted")
        return v
    return value


def effective(overrides: dict, broker_props: dict) -> dict:
    """Every share-group config of one group: its dynamic values over the broker's."""
    return {name: overrides.get(name, broker_value(name, broker_props)) for name in GROUP_CONFIGS}


def views(overrides: dict, broker_props: dict, synonyms: bool) -> list[ConfigView]:
    out = []
    for name, (ctype, prop, _) in sorted(GROUP_CONFIGS.items()):
        base = (prop, broker_value(name, broker_props), DEFAULT_CONFIG)
        if name in overrides:
            value, source = overrides[name], GROUP_CONFIG_SOURCE
            syn = ((name, value, GROUP_CONFIG_SOURCE), base)
        else:
            value, source = base[1], DEFAULT_CONFIG
            syn = (base,)
        out.append(ConfigView(name, value, False, source, False, syn if synonyms else (), ctype))
    return out
