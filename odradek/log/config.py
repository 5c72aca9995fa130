"""Per-log configuration: Kafka's topic-level log configs with Kafka's defaults."""
from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass, field
from functools import cached_property

LONG_MAX = 9223372036854775807


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


@dataclass(frozen=True)
class LogConfig:
    segment_bytes: int = 1073741824
    preallocate: bool = False              # new segment files sized segment.bytes up front
    segment_ms: int = 604800000
    segment_index_bytes: int = 10485760
    index_interval_bytes: int = 4096
    retention_ms: int = 604800000          # -1: keep forever
    retention_bytes: int = -1              # -1: no size limit
    cleanup_policy: tuple[str, ...] = ("delete",)
    min_cleanable_dirty_ratio: float = 0.5
    delete_retention_ms: int = 86400000
    max_message_bytes: int = 1048588
    message_timestamp_type: str = "CreateTime"
    flush_messages: int = LONG_MAX
    flush_ms: int = LONG_MAX
    file_delete_delay_ms: int = 60000      # a removed segment's fd (and disk space) is let go this late
    min_compaction_lag_ms: int = 0
    segment_jitter_ms: int = 0
    max_compaction_lag_ms: int = LONG_MAX
    # CreateTime records must lie in [now - before, now + after] (Kafka 4 defaults)
    timestamp_before_max_ms: int = LONG_MAX
    timestamp_after_max_ms: int = 3600000

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
        return dataclasses.replace(base or cls(), **values)

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
    LogConfig.from_properties({k: v for k, v in props.items() if k in _SPECS})


def is_log_config(name: str) -> bool:
    return name in _SPECS


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


INT_MAX = 2147483647
_SPECS = {
    "segment.bytes": ("segment_bytes", _int(14, INT_MAX)),
    "preallocate": ("preallocate", _bool),
    "file.delete.delay.ms": ("file_delete_delay_ms", _int(0)),
    "segment.ms": ("segment_ms", _int(1)),
    "segment.index.bytes": ("segment_index_bytes", _int(4, INT_MAX)),
    "index.interval.bytes": ("index_interval_bytes", _int(0, INT_MAX)),
    "retention.ms": ("retention_ms", _int(-1)),
    # Kafka puts no bound on retention.bytes: any negative value means no size limit
    "retention.bytes": ("retention_bytes", _int(-LONG_MAX - 1)),
    "cleanup.policy": ("cleanup_policy", _policy),
    "min.cleanable.dirty.ratio": ("min_cleanable_dirty_ratio", _ratio),
    "delete.retention.ms": ("delete_retention_ms", _int(0)),
    "max.message.bytes": ("max_message_bytes", _int(0, INT_MAX)),
    "message.timestamp.type": ("message_timestamp_type", _ts_type),
    "flush.messages": ("flush_messages", _int(1)),
    "flush.ms": ("flush_ms", _int(0)),
    "min.compaction.lag.ms": ("min_compaction_lag_ms", _int(0)),
    "max.compaction.lag.ms": ("max_compaction_lag_ms", _int(1)),
    "segment.jitter.ms": ("segment_jitter_ms", _int(0)),
    "message.timestamp.before.max.ms": ("timestamp_before_max_ms", _int(0)),
    "message.timestamp.after.max.ms": ("timestamp_after_max_ms", _int(0)),
}
