"""Each broker property is defined once (odradek.config: a dataclass field with its Kafka
name, parser, aliases, topic link and DescribeConfigs facts); the parse table, the topic
defaults and the controller's topic config table are derived from it, and the topic-level
defaults come from the log's own (odradek.log.config), as Kafka's LogConfig takes its
defaults from ServerLogConfigs."""

import dataclasses

import pytest

from odradek.config import _FIELDS, _SPECS, DESCRIBED, BrokerConfig, ConfigError, _kafka_str, topic_synonyms
from odradek.controller import configs as C
from odradek.log.config import LogConfig, is_log_config

NOT_PROPERTIES = {"controller_listeners", "explicit", "unused", "listener_jaas", "ssl_settings", "listener_mechanisms", "listener_connection_limits",
                  "listener_callback_handlers", "oauth_settings", "bootstrap_scram"}  # derived or bookkeeping


def test_every_field_is_a_property_and_every_name_parses():
    fields = {f.name for f in dataclasses.fields(BrokerConfig)} - NOT_PROPERTIES
    assert fields == {attr for attr, _ in _FIELDS}
    assert {attr for attr, _ in _SPECS.values()} == fields
    assert len(_SPECS) == 175  # log.flush.start.offset.checkpoint.interval.ms (the log start checkpoint task, issue 27) + group.consumer.migration.policy (KIP-848 online upgrade/downgrade) + group.share.assignors (LIST, simple, issue 27) + group.share.{,min.,max.}assignment.interval.ms (the share groups' assignment interval, issue 27) + group.coordinator.append.linger.ms (issue 27) + metadata.log.dir (was ignored) + group.coordinator.rebalance.protocols (was ignored) + socket.send.buffer.bytes, socket.receive.buffer.bytes (SO_SNDBUF/SO_RCVBUF, were ignored) + the bounds of Kafka 4.3's GroupCoordinatorConfig/ShareGroupConfig: group.{consumer,streams}.{min,max}.{session.timeout,heartbeat.interval,assignment.interval}.ms, group.share.{min,max}.{session.timeout,heartbeat.interval}.ms, group.share.{min,max}.{delivery.count.limit,partition.max.record.locks}, group.streams.max.standby.replicas (21, checked at start-up, issue 26) + group.consumer.assignment.interval.ms (KIP-848 target assignment at most once per interval, issue 27) + sasl.server.max.receive.size (the unauthenticated frame limit, issue 22) + connections.max.reauth.ms (KIP-368, issue 22) + 96 + inter.broker.listener.name, security.inter.broker.protocol, sasl.mechanism.inter.broker.protocol, sasl.mechanism.controller.protocol (node links, issue 22), authorizer.class.name, super.users, allow.everyone.if.no.acl.found (the StandardAuthorizer, issue 22), quota.window.num, quota.window.size.seconds (quotas enforced, issue 22),
    # sasl.enabled.mechanisms, connection.failed.authentication.delay.ms (SASL,
    # issue 22), listener.security.protocol.map (was ignored: a SASL_SSL listener served
    # plaintext; now checked and non-PLAINTEXT listeners refused, issue 22), odradek.http.port and odradek.http.host (metrics and health, issue 23), queued.max.request.bytes, max.connections* (issue 27),
    # replica.selector.class (KIP-392, issue 20), replica.high.watermark.checkpoint.interval.ms (issue 20),
    # share.coordinator.state.topic.replication.factor (was accepted unchecked, issue 25),
    # num.replica.fetchers, replica.fetch.* and replica.socket.timeout.ms (the replica fetchers, issue 20),
    # broker.rack, transaction.state.log.min.isr, share.coordinator.state.topic.min.isr,
    # controlled.shutdown.enable, auto.leader.rebalance.enable, leader.imbalance.check.interval.seconds,
    # unclean.leader.election.enable, unclean.leader.election.interval.ms,
    # replica.lag.time.max.ms (issue 20), offsets.commit.timeout.ms (was accepted and ignored; now it bounds
    # the group coordinator's wait for its writes to be replicated, issue 20),
    # odradek.testing.control.enable, odradek.testing.virtual.clock, odradek.testing.trace.file (issue 24),
    # replication.quota.window.num, replication.quota.window.size.seconds (replication quotas, issue 22)


@pytest.mark.parametrize("attr,p", _FIELDS, ids=[p.name for _, p in _FIELDS])
def test_a_default_written_as_kafka_does_parses_back_to_itself(attr, p):
    default = BrokerConfig.__dataclass_fields__[attr].default
    if default is None or attr == "listeners":
        return  # no value to write / listeners print as NAME://HOST:PORT, checked in test_config
    cfg = BrokerConfig.from_properties({p.name: _kafka_str(default)})
    assert getattr(cfg, attr) == default


def test_broker_log_defaults_are_the_topic_level_defaults():
    assert BrokerConfig().log_config() == LogConfig()
    for name, d in C.TOPIC_CONFIGS.items():
        if is_log_config(name):
            assert LogConfig.from_properties({name: d.default}) == LogConfig(), name


def test_topic_table_defaults_and_synonyms_come_from_the_broker_properties():
    defaults = BrokerConfig().topic_defaults()
    for name, value in defaults.items():
        d = C.TOPIC_CONFIGS[name]
        assert d.default == value
        assert tuple((s.name, s.default, s.scale) for s in d.synonyms) == topic_synonyms(name)
    assert topic_synonyms("retention.ms") == (("log.retention.ms", None, 1), ("log.retention.minutes", None, 60000),
                                              ("log.retention.hours", "168", 3600000))


def test_a_broker_setting_moves_the_topic_default():
    cfg = BrokerConfig.from_properties({"log.retention.hours": "5", "log.cleanup.policy": "compact"})
    assert cfg.topic_defaults()["retention.ms"] == str(5 * 3600000)
    assert cfg.log_config().retention_ms == 5 * 3600000 and cfg.log_config().cleanup_policy == ("compact",)


def test_describe_facts_follow_kafka_where_odradek_differs():
    # odradek's default is 1 (a single node works out of the box) and DescribeConfigs says so
    assert BrokerConfig().offsets_topic_replication_factor == 1
    assert C.BROKER_STATIC["offsets.topic.replication.factor"] == (C.T_SHORT, "1")
    assert C.BROKER_STATIC["broker.id"] == (C.T_INT, "-1") and C.BROKER_STATIC["node.id"] == (C.T_INT, None)
    # + replica.selector.class (STRING, null as Kafka 4.3), issue 20
    # + replica.high.watermark.checkpoint.interval.ms (LONG, 5000 as Kafka), issue 20
    # + 44 properties odradek reads that Kafka 4.3 lists with a type it gives (log.cleaner.backoff.ms LONG,
    # broker.rack STRING, replica.fetch.* INT, ...), which a broker's DescribeConfigs left out (sarama's suite)
    assert len(C.BROKER_STATIC) == 136  # log.flush.start.offset.checkpoint.interval.ms (INT, 60000, issue 27) + group.consumer.migration.policy (STRING, bidirectional) + group.share.assignors (LIST, simple, issue 27) + group.share.{,min.,max.}assignment.interval.ms (INT, 1000/0/15000, issue 27) + group.coordinator.append.linger.ms (INT, -1, issue 27) + metadata.log.dir (STRING, null) + group.coordinator.rebalance.protocols (LIST, classic,consumer,streams) + every group.* property odradek reads (43, INT, group.consumer.assignors LIST), listed as Kafka 4.3 lists them (issue 26) + socket.send.buffer.bytes, socket.receive.buffer.bytes (INT, 102400) + sasl.server.max.receive.size (INT, 524288) + connections.max.reauth.ms (LONG, 0) + + security.inter.broker.protocol (STRING, PLAINTEXT), sasl.mechanism.inter.broker.protocol and sasl.mechanism.controller.protocol (STRING, GSSAPI), issue 22, authorizer.class.name (STRING, ""), replica.lag.time.max.ms (LONG, 30000 as Kafka), issue 20,
    # quota.window.num (INT, 11), quota.window.size.seconds (INT, 1), issue 22,
    # sasl.enabled.mechanisms (LIST, GSSAPI), connection.failed.authentication.delay.ms (INT, 100), issue 22,
    # listener.security.protocol.map (STRING, Kafka's default), issue 22, replication.quota.window.num
    # (INT, 11), replication.quota.window.size.seconds (INT, 1), issue 22
    assert set(C.BROKER_DOCS) == {"log.cleaner.dedupe.buffer.size", "log.cleaner.io.buffer.load.factor",
                                  "log.cleaner.threads", "log.cleaner.enable"}
    assert DESCRIBED["log.retention.hours"].default == "168"


@pytest.mark.parametrize("raw,message", [
    # what Kafka 4.3 says at start-up for each value (checked against the real broker)
    ("foo", "Invalid value foo for configuration log.cleanup.policy: String must be one of: compact, delete"),
    ("Compact", "Invalid value Compact for configuration log.cleanup.policy: String must be one of: compact, delete"),
    ("delete,", "Configuration 'log.cleanup.policy' values must not be empty."),
])
def test_cleanup_policy_is_a_kafka_list(raw, message):
    with pytest.raises(ConfigError) as e:
        BrokerConfig.from_properties({"log.cleanup.policy": raw})
    assert str(e.value) == message


def test_cleanup_policy_values_kafka_accepts():
    # Kafka 4.3 starts with each of these
    for raw, policy in [("", ()), ("compact,compact", ("compact",)), (" compact , delete ", ("compact", "delete"))]:
        assert BrokerConfig.from_properties({"log.cleanup.policy": raw}).log_config().cleanup_policy == policy


def test_zero_retention_is_refused_in_kafkas_words():
    with pytest.raises(ConfigError) as e:
        BrokerConfig.from_properties({"log.retention.hours": "0"})
    assert str(e.value) == "log.retention.ms must be unlimited (-1) or, greater than or equal to 1"


def test_any_negative_retention_means_forever_as_kafka():
    """Kafka 4.3 starts with log.retention.ms=-5; a topic's retention.ms is then -1 and its
    synonyms show the broker value as given (checked with kafka-configs --describe --all)."""
    import tempfile

    from odradek.controller.controller import Controller, CreateTopicSpec
    from odradek.controller.image import BrokerImage

    for props in ({"log.retention.ms": "-5"}, {"log.retention.hours": "-2"}):
        assert BrokerConfig.from_properties(props).log_retention_ms == -1
    cfg = BrokerConfig.from_properties({"log.retention.ms": "-5"})
    c = Controller(tempfile.mkdtemp(), 1, cfg.controller_defaults(), 0)
    c.start(BrokerImage(1, "127.0.0.1", 9092), 0)
    assert c.create_topics([CreateTopicSpec("t", 1, 1)], False, 1)[0].error_code == 0
    (res,) = c.describe_configs([(C.TOPIC, "t", ["retention.ms"])], True)
    (v,) = res.configs
    assert (v.value, v.config_source) == ("-1", C.STATIC_BROKER_CONFIG)
    assert v.synonyms == (("log.retention.ms", "-5", C.STATIC_BROKER_CONFIG),
                          ("log.retention.hours", "168", C.DEFAULT_CONFIG))
    c.close()


def test_broker_synonyms_as_kafka_lists_them():
    """Kafka 4.3 with log.retention.hours=5, log.roll.ms=100000 and log.flush.interval.ms=500
    (kafka-configs --describe --entity-type brokers --all): each name of a setting lists the
    setting's names from itself on, each layer then the defaults."""
    static = {"log.retention.hours": "5", "log.roll.ms": "100000", "log.flush.interval.ms": "500"}
    layers = C.broker_layers(static, {}, {})
    S, D = C.STATIC_BROKER_CONFIG, C.DEFAULT_CONFIG
    assert C.broker_synonyms("log.retention.ms", layers) == []
    assert C.broker_synonyms("log.retention.minutes", layers) == []
    assert C.broker_synonyms("log.retention.hours", layers) == [("log.retention.hours", "5", S),
                                                               ("log.retention.hours", "168", D)]
    assert C.broker_synonyms("log.roll.ms", layers) == [("log.roll.ms", "100000", S), ("log.roll.hours", "168", D)]
    assert C.broker_synonyms("log.roll.hours", layers) == [("log.roll.hours", "168", D)]
    assert C.broker_synonyms("log.flush.interval.ms", layers) == [
        ("log.flush.interval.ms", "500", S), ("log.flush.scheduler.interval.ms", "9223372036854775807", D)]
    assert C.broker_synonyms("num.partitions", layers) == [("num.partitions", "1", D)]


def test_flush_ms_falls_back_to_the_flush_scheduler_interval_as_kafka():
    """Kafka 4.3 with only log.flush.scheduler.interval.ms=2000: a topic's flush.ms is 2000
    (synonyms {}), log.flush.interval.ms null; the scheduler interval cannot be updated
    dynamically (checked side by side with kafka-configs)."""
    import tempfile

    from odradek.controller.controller import Controller, CreateTopicSpec
    from odradek.controller.decisions import OP_SET
    from odradek.controller.image import BrokerImage
    from odradek.wire.errors import ErrorCode

    cfg = BrokerConfig.from_properties({"log.flush.scheduler.interval.ms": "2000"})
    assert cfg.topic_defaults()["flush.ms"] == "2000" and cfg.log_config().flush_ms == 2000
    c = Controller(tempfile.mkdtemp(), 1, cfg.controller_defaults(), 0)
    c.start(BrokerImage(1, "127.0.0.1", 9092), 0)
    assert c.create_topics([CreateTopicSpec("t", 1, 1)], False, 1)[0].error_code == 0
    (res,) = c.describe_configs([(C.TOPIC, "t", ["flush.ms"])], True)
    assert [(v.value, v.synonyms) for v in res.configs] == [("2000", ())]
    assert c.topic_config("t")["flush.ms"] == "2000"
    name = "log.flush.scheduler.interval.ms"
    (r,) = c.incremental_alter_configs([(C.BROKER, "", [(name, OP_SET, "1000")])], False, 2)
    assert (r.error_code, r.error_message) == (ErrorCode.INVALID_REQUEST,
                                               f"Cannot update these configs dynamically: [{name}]")
    c.close()
