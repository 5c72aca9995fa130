"""group.coordinator.rebalance.protocols: the group protocols a broker serves. Kafka 4.3 with
``classic`` only (checked side by side, raw requests): ApiVersions still lists the consumer and
streams group APIs, and each answers UNSUPPORTED_VERSION (35) with no message and the other fields
at their defaults. Start-up refuses a list without ``classic``, an unknown or an empty item."""

from __future__ import annotations

import time

import pytest

from odradek.config import BrokerConfig, ConfigError
from odradek.wire.messages.api_versions_request import ApiVersionsRequest
from odradek.wire.messages.consumer_group_describe_request import ConsumerGroupDescribeRequest
from odradek.wire.messages.consumer_group_heartbeat_request import ConsumerGroupHeartbeatRequest
from odradek.wire.messages.find_coordinator_request import FindCoordinatorRequest
from odradek.wire.messages.streams_group_describe_request import StreamsGroupDescribeRequest
from odradek.wire.messages.streams_group_heartbeat_request import StreamsGroupHeartbeatRequest

from tests.broker.test_server import Client, Running

NAME = "group.coordinator.rebalance.protocols"


def _heartbeat():
    return ConsumerGroupHeartbeatRequest(group_id="g", member_id="m" * 22, member_epoch=0, rebalance_timeout_ms=1000,
                                         subscribed_topic_names=["t"], topic_partitions=[])


@pytest.mark.parametrize("value, message", [
    ("consumer", "Disabling the 'classic' protocol is not supported."),
    ("classic,foo", f"Invalid value foo for configuration {NAME}: String must be one of: consumer, classic, share, "
                    "streams"),
    ("classic,", f"Configuration '{NAME}' values must not be empty."),
])
def test_kafkas_refusals(value, message):
    with pytest.raises(ConfigError) as e:
        BrokerConfig.from_properties({NAME: value})
    assert str(e.value) == message


def test_default_is_kafkas():
    assert BrokerConfig.from_properties({}).group_coordinator_rebalance_protocols == "classic,consumer,streams"


def test_classic_only_answers_unsupported_version(tmp_path):
    r = Running(tmp_path, **{NAME: "classic"})
    try:
        c = Client(r.port)
        keys = {k.api_key for k in c.call(ApiVersionsRequest(client_software_name="t", client_software_version="1"), 3).api_keys}
        assert {68, 69}.issubset(keys)  # still listed, as Kafka
        hb = c.call(_heartbeat(), 1)
        assert (hb.error_code, hb.error_message, hb.member_id, hb.member_epoch, hb.assignment) == (35, None, None, 0, None)
        described = c.call(ConsumerGroupDescribeRequest(group_ids=["g", "h"]), 1).groups
        assert [(g.group_id, g.error_code, g.error_message, g.group_state, g.members) for g in described] == [
            ("g", 35, None, "", []), ("h", 35, None, "", [])]
        shb = c.call(StreamsGroupHeartbeatRequest(group_id="g", member_id="m" * 22, member_epoch=0,
                                                  endpoint_information_epoch=0, rebalance_timeout_ms=1000), 0)
        assert (shb.error_code, shb.error_message) == (35, None)
        sd = c.call(StreamsGroupDescribeRequest(group_ids=["g"]), 0).groups
        assert [(g.group_id, g.error_code, g.error_message) for g in sd] == [("g", 35, None)]
        c.sock.close()
    finally:
        r.stop()


def test_consumer_listed_is_served(tmp_path):
    r = Running(tmp_path, **{NAME: "classic,consumer"})
    try:
        c = Client(r.port)
        find = FindCoordinatorRequest(key_type=0, coordinator_keys=["g"])
        deadline = time.monotonic() + 30
        while c.call(find, 4).coordinators[0].error_code != 0:  # __consumer_offsets created and loaded
            assert time.monotonic() < deadline
            time.sleep(0.05)
        hb = c.call(_heartbeat(), 1)
        assert (hb.error_code, hb.member_id) == (0, "m" * 22) and hb.member_epoch > 0  # joined
        c.sock.close()
    finally:
        r.stop()


@pytest.mark.parametrize("props, warnings", [
    ({}, ()),
    ({NAME: "classic,consumer,streams"}, (
        f"The config `{NAME}` is deprecated and will be removed in Kafka 5.0. Please remove the configuration to "
        "prepare for the upgrade.",)),
    ({NAME: "classic,share"}, (
        f"'share' in `{NAME}` is deprecated. Share groups are controlled by the 'share.version' feature. This config "
        "will be removed in Kafka 5.0.",
        f"The config `{NAME}` is deprecated and will be removed in Kafka 5.0. The following protocol(s) are currently "
        "disabled: consumer, streams. In Kafka 5.0, all protocols will always be enabled and controlled solely by "
        "feature versions (group.version, streams.version, share.version) via kafka-features.sh. Please remove the "
        "configuration, which will restore all protocols to the default enabled state, to prepare for the upgrade.")),
])
def test_kafkas_deprecation_warnings(props, warnings):
    """Kafka 4.3's KafkaConfig warns when the property is given at all, and about 'share' in it (which
    gates nothing there, nor here: share groups are the share.version feature's)."""
    assert BrokerConfig.from_properties(props).deprecations == warnings
