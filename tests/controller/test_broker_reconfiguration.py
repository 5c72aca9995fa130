"""What Kafka 4.3 checks when a dynamic broker config changes (controller/broker_reconfiguration.py):
the messages are Kafka's, each taken from a kafka-configs --alter against a Kafka 4.3 node."""

from __future__ import annotations

import pytest

from odradek.controller.broker_reconfiguration import check_reconfiguration, parse_connection_overrides
from odradek.controller.configs import DYNAMIC_BROKER, InvalidConfig

DEFAULTS = {k: d.default for k, d in DYNAMIC_BROKER.items()} | {
    "log.roll.ms": "604800000", "log.roll.jitter.ms": "0", "log.retention.ms": "604800000"}
WRAPPED = "Invalid value org.apache.kafka.common.config.ConfigException: {} for configuration Invalid dynamic configuration"


def test_overrides_parse_as_kafkas_csv_map():
    assert parse_connection_overrides("") == ()
    assert parse_connection_overrides(" 127.0.0.1:5 , ::1:7,host:-3,") == (("127.0.0.1", 5), ("::1", 7), ("host", -3))
    assert parse_connection_overrides("h:1,h:2") == (("h", 2),)  # the later entry wins
    assert parse_connection_overrides(":3") == (("", 3),)


@pytest.mark.parametrize("value, message", [
    ("foo", "Error parsing configuration property 'max.connections.per.ip.overrides': begin 0, end -1, length 3"),
    ("a:1,,b:2", "Error parsing configuration property 'max.connections.per.ip.overrides': begin 0, end -1, length 0"),
    ("127.0.0.1:x", 'For input string: "x"'),
    ("127.0.0.1:", 'For input string: ""'),
    ("127.0.0.1:99999999999", 'For input string: "99999999999"'),
    ("127.0.0.1:1_0", 'For input string: "1_0"'),
])
def test_overrides_that_do_not_parse(value, message):
    with pytest.raises(ValueError, match=f"^{message}$".replace("(", r"\(").replace(")", r"\)")):
        parse_connection_overrides(value)


def _check(current: dict, new: dict) -> str | None:
    try:
        check_reconfiguration(DEFAULTS | current, DEFAULTS | new)
    except InvalidConfig as e:
        return str(e)
    return None


def test_whole_config_checks():
    assert _check({}, {"max.connections.per.ip": "0"}) == (
        "requirement failed: max.connections.per.ip can be set to zero only if max.connections.per.ip.overrides "
        "property is set.")
    assert _check({}, {"max.connections.per.ip": "0", "max.connections.per.ip.overrides": "localhost:5"}) is None
    assert _check({}, {"max.connections.per.ip.overrides": "a b:3,c/d:1"}) == \
        "max.connections.per.ip.overrides contains invalid addresses : a b,c/d"


@pytest.mark.parametrize("key, value, message", [
    ("log.roll.ms", "0", "requirement failed: log.roll.ms must be greater than or equal to 1"),
    ("log.roll.jitter.ms", "-1", "requirement failed: log.roll.jitter.ms must be greater than or equal to 0"),
    ("log.retention.ms", "0", "requirement failed: log.retention.ms must be unlimited (-1) or, greater than or equal to 1"),
    ("log.retention.ms", "-1", None),  # (the effective value: any negative one is -1)
    ("log.retention.ms", "1", None),
    ("log.roll.ms", "1", None),
    ("log.roll.jitter.ms", "0", None),
])
def test_kafka_configs_log_requirements(key, value, message):
    """KafkaConfig.validateValues' requirements on the effective log settings, in its order (log.roll.ms first)."""
    assert _check({}, {key: value}) == message
    assert _check({}, {key: value, "log.roll.ms": "0"}) == "requirement failed: log.roll.ms must be greater than or equal to 1"


def test_listener_quotas_refuse_zero_when_changed():
    assert _check({}, {"max.connections": "0"}) == WRAPPED.format("Invalid max.connections 0")
    assert _check({}, {"max.connection.creation.rate": "0"}) == WRAPPED.format("Invalid max.connection.creation.rate 0")
    assert _check({}, {"max.connections": "0", "max.connection.creation.rate": "0"}) == \
        WRAPPED.format("Invalid max.connections 0")
    # unchanged (a static 0, say): not checked
    assert _check({"max.connections": "0"}, {"max.connections": "0", "max.connections.per.ip": "5"}) is None


def test_each_listeners_quota_takes_its_own_values_over_the_broker_wide_ones():
    """Kafka's ListenerConnectionQuota validates the listener's values over the broker's
    (valuesWithPrefixOverride), when they changed."""
    def check(current: dict, new: dict) -> str | None:
        try:
            check_reconfiguration(DEFAULTS | current, DEFAULTS | new, ["PLAINTEXT", "INTERNAL"])
        except InvalidConfig as e:
            return str(e)
        return None

    assert check({}, {"listener.name.internal.max.connections": "0"}) == WRAPPED.format("Invalid max.connections 0")
    # a listener the broker does not have: not checked
    assert check({}, {"listener.name.nosuch.max.connections": "0"}) is None
    # every listener overrides a broker-wide 0 unchanged: nothing to refuse
    both = {"listener.name.plaintext.max.connections": "5", "listener.name.internal.max.connections": "5"}
    assert check(both, both | {"max.connections": "0"}) is None
    assert check(both, {"max.connections": "0", "listener.name.plaintext.max.connections": "5"}) == \
        WRAPPED.format("Invalid max.connections 0")


@pytest.mark.parametrize("old, new, why", [
    ("1", "2", None), ("1", "3", "value should not be greater than double the current value 1"),
    ("4", "2", None), ("5", "2", None), ("5", "1", "value should be at least half the current value 5"),
    ("8", "3", "value should be at least half the current value 8"),
])
def test_thread_count_moves_at_most_to_half_or_double(old, new, why):
    got = _check({"num.replica.fetchers": old}, {"num.replica.fetchers": new})
    assert got == (None if why is None else WRAPPED.format(
        f"Dynamic thread count update validation failed for num.replica.fetchers={new}, {why}"))


def test_cleaner_buffer_and_threads():
    one_mb = str(1024 * 1024)
    assert _check({}, {"log.cleaner.threads": "0"}) == "/ by zero"
    assert _check({}, {"log.cleaner.dedupe.buffer.size": one_mb}) == \
        "requirement failed: log.cleaner.dedupe.buffer.size must be at least 1MB per cleaner thread."
    assert _check({}, {"log.cleaner.threads": "2"}) is None
    assert _check({}, {"log.cleaner.threads": "3"}) == WRAPPED.format(
        "Log cleaner threads cannot be increased to more than double the current value 1")
    assert _check({"log.cleaner.threads": "8"}, {"log.cleaner.threads": "3"}) == WRAPPED.format(
        "Log cleaner threads cannot be reduced to less than half the current value 8")
