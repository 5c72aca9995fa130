"""The group coordinator's broker properties as Kafka 4.3's GroupCoordinatorConfig and ShareGroupConfig:
each relation their constructors require (Utils.require) refuses the start with Kafka's message (each
case below breaks exactly one, and Kafka 4.3's KafkaConfig gives the same message for the same props),
and the GROUP configs are bounded by the broker's configured minimums and maximums."""

import pytest

from odradek.config import GROUP_COORDINATOR_REQUIRES, BrokerConfig, ConfigError
from odradek.controller import group_configs as GC

GE, LE = "must be greater than or equal to", "must be less than or equal to"

# (properties, Kafka 4.3's message), in the order Kafka checks
CASES = [
    ({"group.consumer.min.heartbeat.interval.ms": "20000"},
     f"group.consumer.max.heartbeat.interval.ms {GE} group.consumer.min.heartbeat.interval.ms"),
    ({"group.consumer.heartbeat.interval.ms": "1000"},
     f"group.consumer.heartbeat.interval.ms {GE} group.consumer.min.heartbeat.interval.ms"),
    ({"group.consumer.heartbeat.interval.ms": "20000"},
     f"group.consumer.heartbeat.interval.ms {LE} group.consumer.max.heartbeat.interval.ms"),
    ({"group.consumer.min.session.timeout.ms": "70000"},
     f"group.consumer.max.session.timeout.ms {GE} group.consumer.min.session.timeout.ms"),
    ({"group.consumer.session.timeout.ms": "10000"},
     f"group.consumer.session.timeout.ms {GE} group.consumer.min.session.timeout.ms"),
    ({"group.consumer.session.timeout.ms": "70000"},
     f"group.consumer.session.timeout.ms {LE} group.consumer.max.session.timeout.ms"),
    ({"group.consumer.heartbeat.interval.ms": "15000", "group.consumer.session.timeout.ms": "15000",
      "group.consumer.min.session.timeout.ms": "15000"},
     "group.consumer.heartbeat.interval.ms must be less than group.consumer.session.timeout.ms"),
    ({"group.consumer.min.assignment.interval.ms": "20000"},
     f"group.consumer.max.assignment.interval.ms {GE} group.consumer.min.assignment.interval.ms"),
    ({"group.consumer.min.assignment.interval.ms": "2000"},
     f"group.consumer.assignment.interval.ms {GE} group.consumer.min.assignment.interval.ms"),
    ({"group.consumer.assignment.interval.ms": "20000"},
     f"group.consumer.assignment.interval.ms {LE} group.consumer.max.assignment.interval.ms"),
    ({"group.share.min.heartbeat.interval.ms": "20000"},
     f"group.share.max.heartbeat.interval.ms {GE} group.share.min.heartbeat.interval.ms"),
    ({"group.share.heartbeat.interval.ms": "1000"},
     f"group.share.heartbeat.interval.ms {GE} group.share.min.heartbeat.interval.ms"),
    ({"group.share.heartbeat.interval.ms": "20000"},
     f"group.share.heartbeat.interval.ms {LE} group.share.max.heartbeat.interval.ms"),
    ({"group.share.min.session.timeout.ms": "70000"},
     f"group.share.max.session.timeout.ms {GE} group.share.min.session.timeout.ms"),
    ({"group.share.session.timeout.ms": "10000"},
     f"group.share.session.timeout.ms {GE} group.share.min.session.timeout.ms"),
    ({"group.share.session.timeout.ms": "70000"},
     f"group.share.session.timeout.ms {LE} group.share.max.session.timeout.ms"),
    ({"group.share.heartbeat.interval.ms": "15000", "group.share.session.timeout.ms": "15000",
      "group.share.min.session.timeout.ms": "15000"},
     "group.share.heartbeat.interval.ms must be less than group.share.session.timeout.ms"),
    ({"group.share.min.assignment.interval.ms": "20000"},
     f"group.share.max.assignment.interval.ms {GE} group.share.min.assignment.interval.ms"),
    ({"group.share.min.assignment.interval.ms": "2000"},
     f"group.share.assignment.interval.ms {GE} group.share.min.assignment.interval.ms"),
    ({"group.share.assignment.interval.ms": "20000"},
     f"group.share.assignment.interval.ms {LE} group.share.max.assignment.interval.ms"),
    ({"group.streams.min.heartbeat.interval.ms": "20000"},
     f"group.streams.max.heartbeat.interval.ms {GE} group.streams.min.heartbeat.interval.ms"),
    ({"group.streams.heartbeat.interval.ms": "1000"},
     f"group.streams.heartbeat.interval.ms {GE} group.streams.min.heartbeat.interval.ms"),
    ({"group.streams.heartbeat.interval.ms": "20000"},
     f"group.streams.heartbeat.interval.ms {LE} group.streams.max.heartbeat.interval.ms"),
    ({"group.streams.min.session.timeout.ms": "70000"},
     f"group.streams.max.session.timeout.ms {GE} group.streams.min.session.timeout.ms"),
    ({"group.streams.session.timeout.ms": "10000"},
     f"group.streams.session.timeout.ms {GE} group.streams.min.session.timeout.ms"),
    ({"group.streams.session.timeout.ms": "70000"},
     f"group.streams.session.timeout.ms {LE} group.streams.max.session.timeout.ms"),
    ({"group.streams.heartbeat.interval.ms": "15000", "group.streams.session.timeout.ms": "15000",
      "group.streams.min.session.timeout.ms": "15000"},
     "group.streams.heartbeat.interval.ms must be less than group.streams.session.timeout.ms"),
    ({"group.streams.min.assignment.interval.ms": "20000"},
     f"group.streams.max.assignment.interval.ms {GE} group.streams.min.assignment.interval.ms"),
    ({"group.streams.min.assignment.interval.ms": "2000"},
     f"group.streams.assignment.interval.ms {GE} group.streams.min.assignment.interval.ms"),
    ({"group.streams.assignment.interval.ms": "20000"},
     f"group.streams.assignment.interval.ms {LE} group.streams.max.assignment.interval.ms"),
    ({"group.streams.num.standby.replicas": "3"},
     f"group.streams.num.standby.replicas {LE} group.streams.max.standby.replicas"),
    ({"group.share.max.delivery.count.limit": "5", "group.share.delivery.count.limit": "6"},
     f"group.share.max.delivery.count.limit {GE} group.share.delivery.count.limit"),
    ({"group.share.min.delivery.count.limit": "5", "group.share.delivery.count.limit": "4"},
     f"group.share.delivery.count.limit {GE} group.share.min.delivery.count.limit"),
    ({"group.share.partition.max.record.locks": "5000"},
     f"group.share.max.partition.max.record.locks {GE} group.share.partition.max.record.locks"),
    ({"group.share.min.partition.max.record.locks": "2000", "group.share.partition.max.record.locks": "1000"},
     f"group.share.partition.max.record.locks {GE} group.share.min.partition.max.record.locks"),
    ({"group.share.record.lock.duration.ms": "10000"},
     f"group.share.record.lock.duration.ms {GE} group.share.min.record.lock.duration.ms"),
    ({"group.share.record.lock.duration.ms": "100000"},
     f"group.share.max.record.lock.duration.ms {GE} group.share.record.lock.duration.ms"),
    ({"group.share.max.size": "1000", "group.share.max.share.sessions": "500"},
     f"group.share.max.share.sessions {GE} group.share.max.size"),
]


@pytest.mark.parametrize("props,message", CASES, ids=[m.split(" must")[0] + "-" + str(i) for i, (_, m) in enumerate(CASES)])
def test_each_requirement_refuses_the_start_with_kafkas_message(props, message):
    with pytest.raises(ConfigError) as e:
        BrokerConfig.from_properties(props)
    assert str(e.value) == message


def test_every_requirement_has_a_case():
    assert len(CASES) == len(GROUP_COORDINATOR_REQUIRES)


def test_lowering_a_minimum_with_its_value_starts_and_is_used():
    cfg = BrokerConfig.from_properties({"group.share.heartbeat.interval.ms": "1000",
                                        "group.share.min.heartbeat.interval.ms": "1000"})
    assert cfg.unused == ()
    assert (cfg.group_share_heartbeat_interval_ms, cfg.group_share_min_heartbeat_interval_ms) == (1000, 1000)


def test_bounds_are_typed_as_kafka_defines_them():
    with pytest.raises(ConfigError) as e:
        BrokerConfig.from_properties({"group.share.min.heartbeat.interval.ms": "0"})
    assert str(e.value) == "Invalid value 0 for configuration group.share.min.heartbeat.interval.ms: Value must be at least 1"
    with pytest.raises(ConfigError) as e:
        BrokerConfig.from_properties({"group.share.max.partition.max.record.locks": "1000"})
    assert str(e.value) == ("Invalid value 1000 for configuration group.share.max.partition.max.record.locks: "
                            "Value must be at least 2000")


def _props(**kw) -> dict:
    """The controller's view of the broker properties: what was set explicitly, by Kafka name."""
    return BrokerConfig.from_properties({k.replace("_", "."): v for k, v in kw.items()}).controller_defaults()


def test_group_configs_are_bounded_by_the_configured_broker_minimum_and_maximum():
    default = _props()
    with pytest.raises(GC.InvalidGroupConfig) as e:
        GC.validate("share.heartbeat.interval.ms", "1000", default)
    assert str(e.value) == "share.heartbeat.interval.ms must be greater than or equal to group.share.min.heartbeat.interval.ms"
    lowered = _props(**{"group.share.min.heartbeat.interval.ms": "1000"})
    assert GC.validate("share.heartbeat.interval.ms", "1000", lowered) == "1000"
    # Kafka's default group.share.max.partition.max.record.locks is 4000
    with pytest.raises(GC.InvalidGroupConfig) as e:
        GC.validate("share.partition.max.record.locks", "5000", default)
    assert str(e.value) == ("share.partition.max.record.locks must be less than or equal to "
                            "group.share.max.partition.max.record.locks")
    raised = _props(**{"group.share.max.partition.max.record.locks": "6000"})
    assert GC.validate("share.partition.max.record.locks", "5000", raised) == "5000"


def test_a_group_config_under_its_own_floor_is_refused_as_kafkas_config_def_does():
    with pytest.raises(GC.InvalidGroupConfig) as e:
        GC.validate("share.record.lock.duration.ms", "10", _props())
    assert str(e.value) == "Invalid value 10 for configuration share.record.lock.duration.ms: Value must be at least 1000"


def test_a_groups_session_timeout_stays_above_its_heartbeat_interval():
    """As Kafka 4.3 (checked with kafka-configs against it): over the group's own configs, else the broker's."""
    props = _props(**{"group.share.min.session.timeout.ms": "1000", "group.streams.min.session.timeout.ms": "1000"})
    with pytest.raises(GC.InvalidGroupConfig) as e:
        GC.validate_together({"share.session.timeout.ms": "5000"}, props)  # the broker's interval: 5000
    assert str(e.value) == "share.session.timeout.ms must be greater than share.heartbeat.interval.ms"
    GC.validate_together({"share.session.timeout.ms": "6000"}, props)
    with pytest.raises(GC.InvalidGroupConfig) as e:
        GC.validate_together({"share.session.timeout.ms": "6000", "share.heartbeat.interval.ms": "6000"}, props)
    assert str(e.value) == "share.session.timeout.ms must be greater than share.heartbeat.interval.ms"
    with pytest.raises(GC.InvalidGroupConfig) as e:
        GC.validate_together({"streams.session.timeout.ms": "4000", "share.session.timeout.ms": None}, props)
    assert str(e.value) == "streams.session.timeout.ms must be greater than streams.heartbeat.interval.ms"


def test_a_stored_group_config_outside_the_brokers_bounds_now_counts_as_the_nearest_bound():
    """Kafka 4.3's GroupConfig.evaluate: a group config set under other broker bounds (a restart since)."""
    cfg = BrokerConfig.from_properties({"group.share.min.heartbeat.interval.ms": "2000",
                                        "group.streams.max.standby.replicas": "1"})
    props = cfg.properties("group.")
    assert props["group.share.min.heartbeat.interval.ms"] == "2000" and props["group.share.max.size"] == "200"
    stored = {"share.heartbeat.interval.ms": "1000", "share.session.timeout.ms": "90000",
              "streams.num.standby.replicas": "2", "streams.initial.rebalance.delay.ms": "0",
              "share.auto.offset.reset": "earliest"}
    assert GC.clamped(stored, props) == {"share.heartbeat.interval.ms": "2000", "share.session.timeout.ms": "60000",
                                         "streams.num.standby.replicas": "1", "streams.initial.rebalance.delay.ms": "0",
                                         "share.auto.offset.reset": "earliest"}
    eff = GC.effective(stored, props)
    assert (eff["share.heartbeat.interval.ms"], eff["share.record.lock.duration.ms"]) == ("2000", "30000")


@pytest.mark.parametrize("raw,message", [
    ("foo", "Class foo cannot be found"),
    ("com.example.UniformAssignor", "Class com.example.UniformAssignor cannot be found"),
    ("Uniform", "Class Uniform cannot be found"),
    (" ", "Configuration 'group.consumer.assignors' must not be empty. Valid values include: any non-empty value"),
    ("uniform,,range", "Configuration 'group.consumer.assignors' values must not be empty."),
])
def test_consumer_group_assignors_as_kafka_loads_them(raw, message):
    """Kafka 4.3 (its KafkaConfig, same values): the built-in assignors by name or class; any other is not found."""
    with pytest.raises(ConfigError) as e:
        BrokerConfig.from_properties({"group.consumer.assignors": raw})
    assert str(e.value) == message


def test_the_built_in_assignors_by_name_or_class():
    for raw in ("range", "org.apache.kafka.coordinator.group.assignor.RangeAssignor,uniform", "uniform,uniform"):
        assert BrokerConfig.from_properties({"group.consumer.assignors": raw}).unused == ()


@pytest.mark.parametrize("raw, message", [
    ("uniform", "Class uniform cannot be found"),
    ("simple,org.apache.kafka.coordinator.group.assignor.SimpleAssignor",
     "group.share.assignors must contain exactly one assignor, but found 2"),
    (" ", "Configuration 'group.share.assignors' must not be empty. Valid values include: any non-empty value"),
    ("simple,", "Configuration 'group.share.assignors' values must not be empty."),
])
def test_share_group_assignors_as_kafka_loads_them(raw, message):
    """Kafka 4.3's group.share.assignors (checked with its start-up, same values): its SimpleAssignor by
    name or class, exactly one (duplicates dropped first)."""
    with pytest.raises(ConfigError) as e:
        BrokerConfig.from_properties({"group.share.assignors": raw})
    assert str(e.value) == message


def test_the_share_groups_simple_assignor_by_name_or_class():
    for raw in ("simple", "org.apache.kafka.coordinator.group.assignor.SimpleAssignor", "simple,simple"):
        cfg = BrokerConfig.from_properties({"group.share.assignors": raw})
        assert cfg.unused == () and cfg.group_share_assignors in ("simple", raw)
