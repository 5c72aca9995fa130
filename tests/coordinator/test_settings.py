"""The coordinators' settings come from the broker config, defined once (odradek/config.py): the
same defaults, the broker's values read from the typed BrokerConfig (no attribute probing), a
dict of Kafka names for tests, anything else refused."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from odradek.config import BrokerConfig
from odradek.coordinator.consumer_heartbeat import ConsumerGroupConfig
from odradek.coordinator.group_coordinator import GroupConfig, GroupCoordinator
from odradek.coordinator.streams_heartbeat import StreamsConfig
from odradek.coordinator.txn_coordinator import TxnConfig


def test_defaults_are_the_broker_properties_defaults():
    b = BrokerConfig()
    assert GroupConfig.from_any(b) == GroupConfig()
    assert TxnConfig.from_any(b) == TxnConfig()
    assert StreamsConfig.from_any(b) == StreamsConfig()
    assert ConsumerGroupConfig.from_any(b) == ConsumerGroupConfig()


def test_values_from_the_broker_config_and_from_kafka_names():
    b = BrokerConfig.from_properties({"group.initial.rebalance.delay.ms": "0", "group.streams.session.timeout.ms": "50000",
                                      "group.consumer.heartbeat.interval.ms": "3000",
                                      "group.consumer.min.heartbeat.interval.ms": "3000",  # else refused, as Kafka
                                      "transaction.max.timeout.ms": "60000"})
    c = GroupCoordinator(config=b)
    assert c.config.group_initial_rebalance_delay_ms == 0
    assert c.streams.config.session_timeout_ms == 50000
    assert c.consumer.config.group_consumer_heartbeat_interval_ms == 3000
    assert TxnConfig.from_any(b).transaction_max_timeout_ms == 60000
    assert GroupConfig.from_any({"group.max.size": "7"}).group_max_size == 7
    assert StreamsConfig.from_any({"group_streams_num_standby_replicas": 1}).num_standby_replicas == 1


def test_an_object_that_is_not_a_config_is_refused():
    with pytest.raises(TypeError):
        GroupConfig.from_any(SimpleNamespace(group_max_size=7))
