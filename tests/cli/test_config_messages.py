"""Broker configuration errors read as Kafka's ConfigException does:
`Invalid value <raw> for configuration <name>: <reason>` with ConfigDef's reasons."""

import pytest

from odradek.config import BrokerConfig, ConfigError


@pytest.mark.parametrize("name,raw,reason", [
    ("num.partitions", "abc", "Not a number of type INT"),
    ("num.partitions", "0", "Value must be at least 1"),
    ("node.id", "99999999999", "Not a number of type INT"),
    ("log.retention.bytes", "x", "Not a number of type LONG"),
    ("log.retention.hours", "x", "Not a number of type INT"),
    ("log.retention.ms", "1.5", "Not a number of type LONG"),
    ("offsets.topic.replication.factor", "x", "Not a number of type SHORT"),
    # replication factors: any positive value, as Kafka (atLeast(1))
    ("offsets.topic.replication.factor", "0", "Value must be at least 1"),
    ("transaction.state.log.replication.factor", "0", "Value must be at least 1"),
    ("share.coordinator.state.topic.replication.factor", "0", "Value must be at least 1"),
    ("transaction.state.log.min.isr", "0", "Value must be at least 1"),
    ("group.share.delivery.count.limit", "11", "Value must be no more than 10"),
    ("auto.create.topics.enable", "yes", "Expected value to be either true or false"),
    ("log.cleaner.min.cleanable.ratio", "lots", "Not a number of type DOUBLE"),
    ("log.cleaner.min.cleanable.ratio", "2", "Value must be no more than 1.0"),
    ("log.message.timestamp.type", "x", "String must be one of: CreateTime, LogAppendTime"),
    ("process.roles", "foo", "String must be one of: broker, controller"),
])
def test_kafka_config_exception_wording(name, raw, reason):
    with pytest.raises(ConfigError) as e:
        BrokerConfig.from_properties({name: raw})
    assert str(e.value) == f"Invalid value {raw} for configuration {name}: {reason}"


def test_valid_values_still_parse():
    c = BrokerConfig.from_properties({"num.partitions": " 3 ", "auto.create.topics.enable": "TRUE",
                                      "log.retention.hours": "2"})
    assert (c.num_partitions, c.auto_create_topics_enable, c.log_retention_ms) == (3, True, 7200000)


def test_connection_limit_properties_as_kafka():
    c = BrokerConfig.from_properties({"queued.max.request.bytes": "1000", "socket.request.max.bytes": "1000",
                                      "max.connections": "5",
                                      "max.connections.per.ip": "2",
                                      "max.connections.per.ip.overrides": "127.0.0.1:4, ::1:3",
                                      "max.connection.creation.rate": "10"})
    assert (c.queued_max_request_bytes, c.max_connections, c.max_connections_per_ip,
            c.max_connections_per_ip_overrides, c.max_connection_creation_rate) == \
        (1000, 5, 2, "127.0.0.1:4, ::1:3", 10)
    d = BrokerConfig()
    assert (d.queued_max_request_bytes, d.max_connections, d.max_connections_per_ip) == \
        (-1, 2147483647, 2147483647)
    # KafkaConfig.validateValues: a pool smaller than one request could never admit it
    with pytest.raises(ConfigError, match="queued.max.request.bytes must be larger or equal to "
                                          "socket.request.max.bytes"):
        BrokerConfig.from_properties({"queued.max.request.bytes": "1000"})
    assert BrokerConfig.from_properties({"queued.max.request.bytes": "0"}).queued_max_request_bytes == 0
    with pytest.raises(ConfigError, match="max.connections.per.ip can be set to zero only if "
                                          "max.connections.per.ip.overrides property is set."):
        BrokerConfig.from_properties({"max.connections.per.ip": "0"})
    with pytest.raises(ConfigError, match="Invalid value -1 for configuration max.connections: "
                                          "Value must be at least 0"):
        BrokerConfig.from_properties({"max.connections": "-1"})
