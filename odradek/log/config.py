"""Per-log configuration: Kafka's topic-level log configs, names, parsers and defaults defined once
(the broker's log.* defaults and the controller's topic config table derive from these)."""
from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass, field
from functools import cached_property

LONG_MAX = 9223372036854775807
INT_MAX = 2147483647


def _int(lo: int, hi: int = LONG_MAX):
    def parse(v):
        if isinstance(v, bool) or isinstance(v, float):
            raise TypeError("expected an integer")
        n = int(str(v).strip()) if isinstance(v, str) else int(v)
        if n < lo:
            raise ValueError(f"Value must be at least {lo}")
        if n > hi:
            raise ValueError(f"Value must be no more than {hi}")
        return n
    return parse


def _bool(v):
    if isinstance(v, bool):
        return v
    s = str(v).strip().lower()
    if s not in ("true", "false"):
        raise ValueError("Expected value to be either true or false")
    return s == "true"


def _ratio(v):
    if isinstance(v, bool):
        raise TypeError("Not a number of type DOUBLE")
    x = float(v)
    if x != x:
        raise ValueError("Not a number of type DOUBLE")
    if x < 0.0:
        raise ValueError("Value must be at least 0")
    if x > 1.0:
        raise ValueError("Value must be no more than 1")
    return x


def _policy(v):
    parts = v if isinstance(v, (list, tuple)) else str(v).split(",")
    parts = tuple(sorted({p.strip() for p in parts if p.strip()}))
    if not set(parts) <= {"delete", "compact"}:  # empty is allowed: no retention, no compaction
        raise ValueError("String must be one of: compact, delete")
    return parts


def _ts_type(v):
    if v not in ("CreateTime", "LogAppendTime"):
        raise ValueError("String must be one of: CreateTime, LogAppendTime")
    return v


class ConfigError(ValueError):
    """A topic config value of the wrong type or out of range (INVALID_CONFIG).

    ``name``/``value``/``reason`` are set for a bad value; kafka_message() is Kafka's
    "Invalid value X for configuration Y: why".
    """

    def __init__(self, message: str, name: str | None = None, value=None, reason: str | None = None):
        super().__init__(message)
        self.name, self.value, self.reason = name, value, reason

    def kafka_message(self) -> str:
        if self.name is None:
            return str(self)
        return f"Invalid value {self.value} for configuration {self.name}: {self.reason}"


def _prop(name: str, default, parse):
    """A topic-level log config: its Kafka name, default and parser, defined once here.
    The broker's log.* defaults (odradek.config) and the controller's topic config table
    take their defaults from these, as Kafka's LogConfig and ServerLogConfigs share theirs."""
    return field(default=default, metadata={"name": name, "parse": parse})


@dataclass(frozen=True)
class LogConfig:
    """A log's settings, one field per Kafka topic config."""
    segment_bytes: int = _prop("segment.bytes", 1073741824, _int(14, INT_MAX))
    preallocate: bool = _prop("preallocate", False, _bool)  # new segment files sized segment.bytes up front
    segment_ms: int = _prop("segment.ms", 604800000, _int(1))
    segment_index_bytes: int = _prop("segment.index.bytes", 10485760, _int(4, INT_MAX))
    index_interval_bytes: int = _prop("index.interval.bytes", 4096, _int(0, INT_MAX))
    retention_ms: int = _prop("retention.ms", 604800000, _int(-1))  # -1: keep forever
    # Kafka puts no bound on retention.bytes: any negative value means no size limit
    retention_bytes: int = _prop("retention.bytes", -1, _int(-LONG_MAX - 1))
    cleanup_policy: tuple[str, ...] = _prop("cleanup.policy", ("delete",), _policy)
    min_cleanable_dirty_ratio: float = _prop("min.cleanable.dirty.ratio", 0.5, _ratio)
    delete_retention_ms: int = _prop("delete.retention.ms", 86400000, _int(0))
    max_message_bytes: int = _prop("max.message.bytes", 1048588, _int(0, INT_MAX))
    message_timestamp_type: str = _prop("message.timestamp.type", "CreateTime", _ts_type)
    flush_messages: int = _prop("flush.messages", LONG_MAX, _int(1))
    flush_ms: int = _prop("flush.ms", LONG_MAX, _int(0))
    # a removed segment's fd (and disk space) is let go this late
    file_delete_delay_ms: int = _prop("file.delete.delay.ms", 60000, _int(0))
    min_compaction_lag_ms: int = _prop("min.compaction.lag.ms", 0, _int(0))
    segment_jitter_ms: int = _prop("segment.jitter.ms", 0, _int(0))
    max_compaction_lag_ms: int = _prop("max.compaction.lag.ms", LONG_MAX, _int(1))
    # CreateTime records must lie in [now - before, now + after] (Kafka 4 defaults)
    timestamp_before_max_ms: int = _prop("message.timestamp.before.max.ms", LONG_MAX, _int(0))
    timestamp_after_max_ms: int = _prop("message.timestamp.after.max.ms", 3600000, _int(0))

    @cached_property  # read on every append; the config is frozen
    def compact(self) -> bool:
        return "compact" in self.cleanup_policy

    @cached_property  # read on every append; the config is frozen
    def delete(self) -> bool:
        return "delete" in self.cleanup_policy

    @cached_property  # read on every append; the config is frozen
    def log_append_time(self) -> bool:
        return self.message_timestamp_type == "LogAppendTime"

    @cached_property  # the appends PartitionLog takes its fast path for
    def plain_append(self) -> bool:
        return (not self.compact and not self.log_append_time
                and self.timestamp_before_max_ms == LONG_MAX)

    @cached_property  # Kafka's LogConfig.maxSegmentMs: a compacted topic rolls by its max lag too
    def max_segment_ms(self) -> int:
        if self.compact and self.max_compaction_lag_ms > 0:
            return min(self.max_compaction_lag_ms, self.segment_ms)
        return self.segment_ms

    def random_segment_jitter(self, rng: random.Random) -> int:
        """Kafka's randomSegmentJitter: each new segment rolls up to this much earlier
        (drawn from the caller's rng, so a seeded log replays exactly)."""
        if self.segment_jitter_ms == 0:
            return 0
        return rng.randrange(2**31) % min(self.segment_jitter_ms, self.segment_ms)

    @cached_property
    def plain_max_bytes(self) -> int:
        return min(self.max_message_bytes, self.segment_bytes)

    @classmethod
    def from_properties(cls, props: dict, *, base: "LogConfig | None" = None,
                        strict: bool = False, on_error=None) -> "LogConfig":
        """Build from Kafka property names ("segment.bytes": "1024", ...).

        Values may be strings (as in CreateTopics / AlterConfigs) or Python values.
        Unknown names are ignored (topic configs also carry broker-side settings such
        as min.insync.replicas) unless strict=True.  A bad value raises ConfigError,
        unless ``on_error`` is given: then it is called with the ConfigError and the
        value from ``base`` is kept (replay of a record written before validation).
        """
        return dataclasses.replace(base or cls(), **_parsed(props, strict, on_error))

    def to_properties(self) -> dict[str, str]:
        out = {}
        for name, (attr, _) in _SPECS.items():
            v = getattr(self, attr)
            out[name] = ",".join(v) if isinstance(v, tuple) else str(v)
        return out


def validate_properties(props: dict) -> None:
    """Raise ConfigError if any log config in ``props`` is one the log would reject.

    The controller calls this on a topic's resulting effective config before it writes
    any ConfigRecord: the log's parser is the one source of truth for what is valid.
    Names the log does not act on are left to the controller's table.
    """
    _parsed(props, False, None)


def _parsed(props: dict, strict: bool, on_error) -> dict:
    """{LogConfig attribute: value} of the log configs in ``props`` (LogConfig.from_properties'
    rules; every value is checked on its own: no config makes another invalid)."""
    values = {}
    for name, raw in props.items():
        spec = _SPECS.get(name)
        if spec is None:
            if strict:
                raise ConfigError(f"unknown log config {name!r}")
            continue
        attr, parse = spec
        try:
            values[attr] = parse(raw)
        except (TypeError, ValueError) as e:
            err = ConfigError(f"invalid value {raw!r} for {name}: {e}", name, raw, str(e))
            if on_error is None:
                raise err from None
            on_error(err)
    return values


def is_log_config(name: str) -> bool:
    return name in _SPECS


# Kafka name -> (LogConfig field, parser), from the fields above
_SPECS = {f.metadata["name"]: (f.name, f.metadata["parse"])
          for f in dataclasses.fields(LogConfig) if "name" in f.metadata}


def default_of(name: str):
    """The default of topic-level log config ``name`` (typed, as LogConfig holds it)."""
    return LogConfig.__dataclass_fields__[_SPECS[name][0]].default
