"""GROUP config resources (DescribeConfigs / IncrementalAlterConfigs resource type 32, KIP-848/932):
dynamic per-group settings stored as ConfigRecords, over the broker's group.* defaults.

Kafka 4.3's GroupConfig: the consumer.* configs odradek's consumer groups obey, the share.* ones its
share groups obey, the streams.* ones its streams groups obey; any other name is refused as Kafka refuses an unknown one (Kafka 4.3 has no group-level
*.assignor.offload.enable either). Validation is Kafka's GroupConfig.validate over the group's configs
as they would be after the change: names, then each value's type and floor in the order Kafka
defines them, then the broker's bounds, then each session timeout above its heartbeat interval.
"""

from __future__ import annotations

import re

from odradek.config import DESCRIBED

from .configs import DEFAULT_CONFIG, T_BOOLEAN, T_INT, T_STRING, ConfigView

GROUP = 32
GROUP_CONFIG_SOURCE = 8  # DescribeConfigsResponse ConfigSource GROUP_CONFIG

# name -> (type, broker property it defaults to or None, its default without one), in the order of
# Kafka 4.3's GroupConfig.CONFIG_DEF (the order its values are parsed in)
GROUP_CONFIGS: dict[str, tuple[int, str | None, str | None]] = {
    "consumer.session.timeout.ms": (T_INT, "group.consumer.session.timeout.ms", None),
    "consumer.heartbeat.interval.ms": (T_INT, "group.consumer.heartbeat.interval.ms", None),
    "consumer.assignment.interval.ms": (T_INT, "group.consumer.assignment.interval.ms", None),
    "share.session.timeout.ms": (T_INT, "group.share.session.timeout.ms", None),
    "share.heartbeat.interval.ms": (T_INT, "group.share.heartbeat.interval.ms", None),
    "share.record.lock.duration.ms": (T_INT, "group.share.record.lock.duration.ms", None),
    "share.delivery.count.limit": (T_INT, "group.share.delivery.count.limit", None),
    "share.partition.max.record.locks": (T_INT, "group.share.partition.max.record.locks", None),
    "share.auto.offset.reset": (T_STRING, None, "latest"),
    "share.isolation.level": (T_STRING, None, "read_uncommitted"),
    "share.renew.acknowledge.enable": (T_BOOLEAN, None, "true"),
    "share.assignment.interval.ms": (T_INT, "group.share.assignment.interval.ms", None),
    "streams.session.timeout.ms": (T_INT, "group.streams.session.timeout.ms", None),
    "streams.heartbeat.interval.ms": (T_INT, "group.streams.heartbeat.interval.ms", None),
    "streams.num.standby.replicas": (T_INT, "group.streams.num.standby.replicas", None),
    "streams.initial.rebalance.delay.ms": (T_INT, "group.streams.initial.rebalance.delay.ms", None),
    "streams.assignment.interval.ms": (T_INT, "group.streams.assignment.interval.ms", None),
}
# the order of Kafka 4.3's GroupConfig.validateValues' bound checks
_BOUNDS_ORDER = ("consumer.heartbeat.interval.ms", "consumer.session.timeout.ms", "consumer.assignment.interval.ms",
                 "share.heartbeat.interval.ms", "share.session.timeout.ms", "share.record.lock.duration.ms",
                 "share.delivery.count.limit", "share.partition.max.record.locks", "share.assignment.interval.ms",
                 "streams.heartbeat.interval.ms",
                 "streams.session.timeout.ms", "streams.num.standby.replicas", "streams.assignment.interval.ms")

_DURATION = re.compile(r"by_duration:P(?:\d+D)?(?:T(?:\d+H)?(?:\d+M)?(?:\d+(?:\.\d+)?S)?)?")


def _bounds(name: str) -> tuple[int, str | None, str | None]:
    """An int config's own floor (Kafka's GroupConfig ConfigDef atLeast) and the broker properties
    bounding it (Kafka 4.3's GroupConfig.validateValues), by name: share.x -> group.share.min.x / max.x."""
    kind, _, what = name.partition(".")
    if name == "streams.initial.rebalance.delay.ms":
        return 0, None, None
    if name == "streams.num.standby.replicas":
        return 0, None, "group.streams.max.standby.replicas"
    floor = {"share.record.lock.duration.ms": 1000, "share.delivery.count.limit": 2,
             "share.partition.max.record.locks": 100}.get(name, 0 if what == "assignment.interval.ms" else 1)
    return floor, f"group.{kind}.min.{what}", f"group.{kind}.max.{what}"


class InvalidGroupConfig(Exception):
    pass


def broker_value(name: str, broker_props: dict) -> str:
    """A config's value where the group sets none: its broker property's (as configured, else Kafka's default)."""
    _, prop, default = GROUP_CONFIGS[name]
    return default if prop is None else _broker(broker_props, prop)


def _broker(broker_props: dict, prop: str) -> str:
    return str(broker_props.get(prop, DESCRIBED[prop].default))


def parse(name: str, value: str) -> str:
    """A known config's value checked as Kafka's ConfigDef parses it (type, floor, valid strings): the
    value to store, or InvalidGroupConfig with Kafka's message."""
    ctype = GROUP_CONFIGS[name][0]
    if ctype == T_INT:
        try:
            n = int(value.strip())
        except ValueError:
            raise InvalidGroupConfig(f"Invalid value {value} for configuration {name}: Not a number of type INT")
        floor = _bounds(name)[0]
        if n < floor:
            raise InvalidGroupConfig(f"Invalid value {n} for configuration {name}: Value must be at least {floor}")
        return str(n)
    if ctype == T_BOOLEAN:
        if value.strip().lower() not in ("true", "false"):
            raise InvalidGroupConfig(f"Invalid value {value} for configuration {name}: Expected value to be "
                                     "either true or false")
        return value.strip().lower()
    if name == "share.auto.offset.reset":
        # Kafka 4.3's ShareGroupAutoOffsetResetStrategy.Validator: case-sensitive, the value trimmed
        v = value.strip()
        if v not in ("latest", "earliest") and not _DURATION.fullmatch(v):
            raise InvalidGroupConfig(f"Invalid value {value} for configuration share.auto.offset.reset: Invalid value "
                                     f"`{value}` for configuration share.auto.offset.reset. The value must be either "
                                     "'earliest', 'latest' or of the format 'by_duration:<PnDTnHnMn.nS>'.")
        return v
    if name == "share.isolation.level":
        v = value.strip()  # ConfigDef's ValidString: case-sensitive
        if v not in ("read_committed", "read_uncommitted"):
            raise InvalidGroupConfig(f"Invalid value {value} for configuration share.isolation.level: "
                                     "String must be one of: read_committed, read_uncommitted")
        return v
    return value


def validate(name: str, value: str, broker_props: dict) -> str:
    """One config alone (parse, then validate_together): the value to store, or InvalidGroupConfig."""
    if name not in GROUP_CONFIGS:
        raise InvalidGroupConfig(f"Unknown group config name: {name}")
    parsed = parse(name, value)
    validate_together({name: parsed}, broker_props)
    return parsed


def validate_together(configs: dict, broker_props: dict) -> None:
    """Kafka 4.3's GroupConfig.validate of a group's configs as they would be after a change (each
    already parsed; None: deleted): each within the broker's bounds as they are now (the ones set; an
    unset one is the broker's own value, which the broker checked at start-up), in Kafka's order,
    then each session timeout above its heartbeat interval (each the group's value, else the broker's)."""
    for name in _BOUNDS_ORDER:
        if configs.get(name) is None:
            continue
        n = int(configs[name])
        _, lo_prop, hi_prop = _bounds(name)
        if lo_prop is not None and n < int(_broker(broker_props, lo_prop)):
            raise InvalidGroupConfig(f"{name} must be greater than or equal to {lo_prop}")
        if hi_prop is not None and n > int(_broker(broker_props, hi_prop)):
            raise InvalidGroupConfig(f"{name} must be less than or equal to {hi_prop}")

    def value(name: str) -> int:
        v = configs.get(name)
        return int(broker_value(name, broker_props) if v is None else v)

    for kind in ("consumer", "share", "streams"):
        session, heartbeat = f"{kind}.session.timeout.ms", f"{kind}.heartbeat.interval.ms"
        if value(session) <= value(heartbeat):
            raise InvalidGroupConfig(f"{session} must be greater than {heartbeat}")


def clamped(overrides: dict, broker_props: dict) -> dict:
    """A group's stored configs as its coordinator uses them (Kafka 4.3's GroupConfig.evaluate): an int
    outside the broker's bounds as they are now (changed since it was set) counts as the nearest bound."""
    out = dict(overrides)
    for name, raw in overrides.items():
        if name not in GROUP_CONFIGS or GROUP_CONFIGS[name][0] != T_INT:
            continue
        _, lo, hi = _bounds(name)
        n = int(raw)
        if lo is not None:
            n = max(n, int(_broker(broker_props, lo)))
        if hi is not None:
            n = min(n, int(_broker(broker_props, hi)))
        out[name] = str(n)
    return out


def effective(overrides: dict, broker_props: dict) -> dict:
    """Every config of one group: its dynamic values (within the broker's bounds) over the broker's."""
    overrides = clamped(overrides, broker_props)
    return {name: overrides.get(name, broker_value(name, broker_props)) for name in GROUP_CONFIGS}


def views(overrides: dict, broker_props: dict, synonyms: bool) -> list[ConfigView]:
    out = []
    for name, (ctype, prop, _) in sorted(GROUP_CONFIGS.items()):
        base = (prop or name, broker_value(name, broker_props), DEFAULT_CONFIG)
        if name in overrides:
            value, source = overrides[name], GROUP_CONFIG_SOURCE
            syn = ((name, value, GROUP_CONFIG_SOURCE), base)
        else:
            value, source = base[1], DEFAULT_CONFIG
            syn = (base,)
        out.append(ConfigView(name, value, False, source, False, syn if synonyms else (), ctype))
    return out
