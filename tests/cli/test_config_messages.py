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
    ("group.share.delivery.count.limit", "11", "Value must be no more than 10"),
    ("auto.create.topics.enable", "yes", "Expected value to be either true or false"),
    ("log.cleaner.min.cleanable.ratio", "lots", "Not a number of type DOUBLE"),
    ("log.cleaner.min.cleanable.ratio", "2", "Value must be no more than 1.0"),
    ("log.message.timestamp.type", "x", "String must be one of: CreateTime, LogAppendTime"),
])
def test_kafka_config_exception_wording(name, raw, reason):
    with pytest.raises(ConfigError) as e:
        BrokerConfig.from_properties({name: raw})
    assert str(e.value) == f"Invalid value {raw} for configuration {name}: {reason}"


def test_valid_values_still_parse():
    c = BrokerConfig.from_properties({"num.partitions": " 3 ", "auto.create.topics.enable": "TRUE",
                                      "log.retention.hours": "2"})
    assert (c.num_partitions, c.auto_create_topics_enable, c.log_retention_ms) == (3, True, 7200000)
