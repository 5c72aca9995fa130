"""What Kafka 4.3 checks when a dynamic broker config changes, beyond each value's type and range.

A broker resource's new dynamic configs are merged over the broker's others (static < cluster
default < the broker's own) and checked as the broker receiving the request checks them
(ConfigAdminManager -> DynamicBrokerConfig.validate): first as a whole config (KafkaConfig's
validateValues: max.connections.per.ip 0 needs overrides, the overrides must parse and name valid
hosts, the cleaner's dedupe buffer at least 1 MB a thread), then by each reconfigurable whose
configs changed (the listeners' ConnectionQuotas: no max.connections or max.connection.creation.rate
of 0; DynamicThreadPool and LogCleaner: a thread count moves at most to half or double). Kafka
answers all of them INVALID_REQUEST; the reconfigurables' with the ConfigException it wraps
("Invalid dynamic configuration") as its message.
"""

from __future__ import annotations

import re
from typing import Mapping, Sequence

from odradek.controller.configs import InvalidConfig
from odradek.java_numbers import parse_int

OVERRIDES = "max.connections.per.ip.overrides"
_THREAD_POOLS = ("num.replica.fetchers",)  # DynamicThreadPool's configs odradek applies
_VALID_HOST = re.compile(r"[0-9a-zA-Z\-%._:]*")  # Kafka's Utils.validHostPattern


def parse_connection_overrides(value: str) -> tuple[tuple[str, int], ...]:
    """max.connections.per.ip.overrides as Kafka reads it (Csv.parseCsvMap, then each count's
    toInt: the last ':' of an entry splits it, a later entry for a host wins); ValueError with
    Kafka's message."""
    value = value.strip()
    if not value:
        return ()
    entries = re.split(r"\s*,\s*", value)
    while entries and entries[-1] == "":  # Java's String.split drops trailing empty strings
        entries.pop()
    counts: dict[str, str] = {}
    for entry in entries:
        i = entry.rfind(":")
        if i < 0:  # Java's substring(0, -1)
            raise ValueError(f"Error parsing configuration property '{OVERRIDES}': begin 0, end -1, "
                             f"length {len(entry)}")
        counts[entry[:i].strip()] = entry[i + 1:].strip()
    out = []
    for host, n in counts.items():
        count = parse_int(n)
        if count is None:
            raise ValueError(f'For input string: "{n}"')  # Integer.parseInt
        out.append((host, count))
    return tuple(out)


def _whole_config(new: Mapping[str, str]) -> None:
    """KafkaConfig.validateValues, the checks on these configs in its order (Scala require:
    'requirement failed'). The log settings are the effective ones (log.retention.ms: any negative
    value, of any of its units, is -1: unlimited)."""
    if int(new["log.roll.ms"]) < 1:
        raise InvalidConfig("requirement failed: log.roll.ms must be greater than or equal to 1")
    if int(new["log.roll.jitter.ms"]) < 0:
        raise InvalidConfig("requirement failed: log.roll.jitter.ms must be greater than or equal to 0")
    if int(new["log.retention.ms"]) == 0:
        raise InvalidConfig("requirement failed: log.retention.ms must be unlimited (-1) or, greater than or "
                            "equal to 1")
    threads = int(new["log.cleaner.threads"])
    if threads == 0:  # (Kafka divides by it)
        raise InvalidConfig("/ by zero")
    if _java_div(int(new["log.cleaner.dedupe.buffer.size"]), threads) <= 1024 * 1024:
        raise InvalidConfig("requirement failed: log.cleaner.dedupe.buffer.size must be at least 1MB per "
                            "cleaner thread.")
    overrides = parse_connection_overrides(new[OVERRIDES])
    if int(new["max.connections.per.ip"]) == 0 and not overrides:
        raise InvalidConfig("requirement failed: max.connections.per.ip can be set to zero only if "
                            f"{OVERRIDES} property is set.")
    invalid = [host for host, _ in overrides if not _VALID_HOST.fullmatch(host)]
    if invalid:
        raise InvalidConfig(f"{OVERRIDES} contains invalid addresses : {','.join(invalid)}")


def _reconfiguration(current: Mapping[str, str], new: Mapping[str, str], listeners: Sequence[str]) -> str | None:
    """The reconfigurables' validateReconfiguration, for those whose configs changed."""
    quota = ("max.connections", "max.connection.creation.rate")
    for listener in listeners or ("",):  # each listener's ListenerConnectionQuota, its own values first
        prefix = f"listener.name.{listener.lower()}."

        def value(configs: Mapping[str, str], k: str) -> str:
            return configs.get(prefix + k, configs[k])

        if any(value(current, k) != value(new, k) for k in quota):
            for k in quota:
                if int(value(new, k)) <= 0:
                    return f"Invalid {k} {int(value(new, k))}"
    for k in _THREAD_POOLS:  # DynamicThreadPool.validateReconfiguration
        old, value = int(current[k]), int(new[k])
        if value == old:
            continue
        why = f"Dynamic thread count update validation failed for {k}={value}"
        if value <= 0:
            return f"{why}, value should be at least 1"
        if value < old // 2:
            return f"{why}, value should be at least half the current value {old}"
        if value > old * 2:
            return f"{why}, value should not be greater than double the current value {old}"
    old, value = int(current["log.cleaner.threads"]), int(new["log.cleaner.threads"])  # LogCleaner's
    if value < 1:
        return "Log cleaner threads should be at least 1"
    if value < old // 2:
        return f"Log cleaner threads cannot be reduced to less than half the current value {old}"
    if value > old * 2:
        return f"Log cleaner threads cannot be increased to more than double the current value {old}"
    return None


def _java_div(a: int, b: int) -> int:
    """Java's long division (towards zero)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def check_reconfiguration(current: Mapping[str, str], new: Mapping[str, str], listeners: Sequence[str] = ()) -> None:
    """``current`` / ``new``: a broker's effective values of the dynamic configs odradek applies
    (controller.configs.DYNAMIC_BROKER, and the listeners' listener.name.<l>.* quotas), before and
    after the change (``new`` also the effective log.roll.ms, log.roll.jitter.ms and log.retention.ms);
    ``listeners``: the broker's listener names. Raises InvalidConfig with Kafka's message."""
    try:
        _whole_config(new)
    except ValueError as e:
        raise InvalidConfig(str(e)) from None
    why = _reconfiguration(current, new, listeners)
    if why is not None:  # DynamicBrokerConfig: new ConfigException("Invalid dynamic configuration", e)
        raise InvalidConfig(f"Invalid value org.apache.kafka.common.config.ConfigException: {why} "
                            "for configuration Invalid dynamic configuration")
