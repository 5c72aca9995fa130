"""The coordinators' settings, from the broker config or a dict of Kafka names. A setting is the
broker property of the same name (``group_streams_`` + ``session_timeout_ms`` is
group.streams.session.timeout.ms), defined once in odradek/config.py: its default comes from there
(``broker_default``), and a BrokerConfig is read as the typed object it is, never probed."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field, fields, replace

from odradek.config import BrokerConfig

_BROKER_FIELDS = BrokerConfig.__dataclass_fields__


def broker_default(name: str):
    """A dataclass field whose default is BrokerConfig's for the property ``name`` (a field name)."""
    return field(default=_BROKER_FIELDS[name].default)


def setting_values(obj: BrokerConfig | Mapping) -> Mapping:
    """The broker config's values by field name, or the mapping as given (field or dotted names)."""
    if isinstance(obj, BrokerConfig):
        return vars(obj)
    if isinstance(obj, Mapping):
        return obj
    raise TypeError(f"coordinator settings come from a BrokerConfig or a mapping, not {type(obj).__name__}")


def int_settings(cls, obj: BrokerConfig | Mapping | None, prefix: str = ""):
    """An instance of dataclass `cls` whose int fields come from `obj`: a `cls` (kept), None
    (defaults), the broker's config, or a dict keyed by field name or Kafka's dotted name;
    ``prefix`` + a field's name is its setting's name."""
    if obj is None:
        return cls()
    if isinstance(obj, cls):
        return obj
    values = setting_values(obj)
    kw = {}
    for f in fields(cls):
        name = prefix + f.name
        for k in (name, name.replace("_", ".")):
            if values.get(k) is not None:
                kw[f.name] = int(values[k])
    return cls(**kw)


def with_group_configs(settings, overrides: Mapping[str, str], attrs: Mapping[str, str]):
    """``settings`` (a dataclass of the broker's values) with a group's own GROUP configs over them
    (Kafka 4.3's per-group lookups, e.g. consumerGroupSessionTimeoutMs(groupId)): ``attrs`` maps a
    config name (consumer.session.timeout.ms) to the field it sets; ``overrides`` are the group's
    configs, already within the broker's bounds. The same object when the group sets none."""
    changes = {attr: int(overrides[name]) for name, attr in attrs.items() if name in overrides}
    return replace(settings, **changes) if changes else settings
