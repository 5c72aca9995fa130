"""A group's own consumer.* configs (Kafka 4.3's GroupConfig: consumer.session.timeout.ms,
consumer.heartbeat.interval.ms, consumer.assignment.interval.ms) through IncrementalAlterConfigs /
DescribeConfigs on the GROUP resource: accepted within the broker's group.consumer.{min,max}.*
bounds with Kafka's messages otherwise, described with their broker synonyms, and applied to the
group's KIP-848 heartbeats (the heartbeat interval a member is told; no assignment interval: a second
member's join gets a target at once). The session timeout's effect (members expired after the group's
own timeout) is tests/coordinator's (the broker's minimum is 45 s). Passes against Kafka 4.3 too:
`python compat_tests/run_against_kafka.py -q -k group_consumer_configs`."""

from __future__ import annotations

import time
import uuid

import confluent_kafka as ck
import pytest
from confluent_kafka import KafkaException
from confluent_kafka.admin import AdminClient, AlterConfigOpType, ConfigEntry, ConfigResource

from harness import RawClient, create_topic
from odradek.wire.messages.consumer_group_heartbeat_request import ConsumerGroupHeartbeatRequest

GROUP_CONFIG, DEFAULT_CONFIG = 8, 5  # DescribeConfigs ConfigSource


@pytest.fixture(scope="module")
def admin(bootstrap):
    return AdminClient({"bootstrap.servers": bootstrap})


def _alter(admin: AdminClient, group: str, name: str, value: str | None) -> None:
    op = AlterConfigOpType.SET if value is not None else AlterConfigOpType.DELETE
    res = ConfigResource(ConfigResource.Type.GROUP, group, incremental_configs=[
        ConfigEntry(name, value, incremental_operation=op)])
    for f in admin.incremental_alter_configs([res], request_timeout=10).values():
        f.result()


def _refused(admin: AdminClient, group: str, name: str, value: str) -> tuple:
    with pytest.raises(KafkaException) as e:
        _alter(admin, group, name, value)
    err = e.value.args[0]
    return err.code(), err.str()


def test_a_by_duration_reset_is_described_as_set_and_a_described_group_has_an_empty_message(admin, bootstrap):
    """DescribeConfigs answers "" as the message of a resource it describes (raw v4: confluent-kafka
    does not show it); by_duration's duration keeps its case."""
    from harness import RawClient
    from odradek.wire.messages.describe_configs_request import DescribeConfigsRequest, DescribeConfigsResource

    group = f"gcc-{uuid.uuid4().hex[:8]}"
    _alter(admin, group, "share.auto.offset.reset", "by_duration:PT1H")
    c = RawClient(bootstrap)
    try:
        deadline = time.monotonic() + 30
        while True:  # Kafka's brokers take the config from the metadata log a moment later
            r = c.call(DescribeConfigsRequest(resources=[DescribeConfigsResource(
                resource_type=32, resource_name=group, configuration_keys=["share.auto.offset.reset"])]), 4).results[0]
            if [x.value for x in r.configs] == ["by_duration:PT1H"] or time.monotonic() > deadline:
                break
            time.sleep(0.05)
        assert (r.error_code, r.error_message, [(x.value, x.config_source) for x in r.configs]) == (
            0, "", [("by_duration:PT1H", GROUP_CONFIG)])
    finally:
        c.close()


def _described(admin: AdminClient, group: str) -> dict:
    res = ConfigResource(ConfigResource.Type.GROUP, group)
    configs = admin.describe_configs([res], request_timeout=10)[res].result()
    return {k: (c.value, c.source, [(s.name, s.value, s.source) for s in c.synonyms.values()])
            for k, c in configs.items() if k.startswith("consumer.")}


def test_consumer_configs_are_described_with_the_brokers_as_their_synonyms(admin):
    group = f"gcc-{uuid.uuid4().hex[:8]}"
    assert _described(admin, group) == {
        "consumer.assignment.interval.ms": ("1000", DEFAULT_CONFIG,
                                            [("group.consumer.assignment.interval.ms", "1000", DEFAULT_CONFIG)]),
        "consumer.heartbeat.interval.ms": ("5000", DEFAULT_CONFIG,
                                           [("group.consumer.heartbeat.interval.ms", "5000", DEFAULT_CONFIG)]),
        "consumer.session.timeout.ms": ("45000", DEFAULT_CONFIG,
                                        [("group.consumer.session.timeout.ms", "45000", DEFAULT_CONFIG)]),
    }
    _alter(admin, group, "consumer.session.timeout.ms", "50000")
    got = _described(admin, group)["consumer.session.timeout.ms"]
    assert got[:2] == ("50000", GROUP_CONFIG)
    assert got[2][0] == ("consumer.session.timeout.ms", "50000", GROUP_CONFIG)
    _alter(admin, group, "consumer.session.timeout.ms", None)
    assert _described(admin, group)["consumer.session.timeout.ms"][:2] == ("45000", DEFAULT_CONFIG)


@pytest.mark.parametrize("name, value, message", [
    ("consumer.session.timeout.ms", "44999",
     "consumer.session.timeout.ms must be greater than or equal to group.consumer.min.session.timeout.ms"),
    ("consumer.session.timeout.ms", "60001",
     "consumer.session.timeout.ms must be less than or equal to group.consumer.max.session.timeout.ms"),
    ("consumer.heartbeat.interval.ms", "4999",
     "consumer.heartbeat.interval.ms must be greater than or equal to group.consumer.min.heartbeat.interval.ms"),
    ("consumer.heartbeat.interval.ms", "15001",
     "consumer.heartbeat.interval.ms must be less than or equal to group.consumer.max.heartbeat.interval.ms"),
    ("consumer.heartbeat.interval.ms", "0",
     "Invalid value 0 for configuration consumer.heartbeat.interval.ms: Value must be at least 1"),
    ("consumer.assignment.interval.ms", "-1",
     "Invalid value -1 for configuration consumer.assignment.interval.ms: Value must be at least 0"),
    ("consumer.assignment.interval.ms", "15001",
     "consumer.assignment.interval.ms must be less than or equal to group.consumer.max.assignment.interval.ms"),
    ("consumer.assignment.interval.ms", "x",
     "Invalid value x for configuration consumer.assignment.interval.ms: Not a number of type INT"),
    ("consumer.assignor.offload.enable", "true", "Unknown group config name: consumer.assignor.offload.enable"),
    # the share groups' string configs are case-sensitive in Kafka 4.3
    ("share.auto.offset.reset", "EARLIEST",
     "Invalid value EARLIEST for configuration share.auto.offset.reset: Invalid value `EARLIEST` for configuration "
     "share.auto.offset.reset. The value must be either 'earliest', 'latest' or of the format "
     "'by_duration:<PnDTnHnMn.nS>'."),
    ("share.auto.offset.reset", "by_duration:-PT1H",
     "Invalid value by_duration:-PT1H for configuration share.auto.offset.reset: Invalid value `by_duration:-PT1H` "
     "for configuration share.auto.offset.reset. The value must be either 'earliest', 'latest' or of the format "
     "'by_duration:<PnDTnHnMn.nS>'."),
    ("share.isolation.level", "READ_COMMITTED",
     "Invalid value READ_COMMITTED for configuration share.isolation.level: String must be one of: read_committed, "
     "read_uncommitted"),
])
def test_a_consumer_config_out_of_the_brokers_bounds_is_refused_with_kafkas_message(admin, name, value, message):
    assert _refused(admin, f"gcc-{uuid.uuid4().hex[:8]}", name, value) == (ck.KafkaError.INVALID_CONFIG, message)


def _heartbeat(c: RawClient, group: str, topic: str):
    req = ConsumerGroupHeartbeatRequest(group_id=group, member_id=uuid.uuid4().hex[:22], member_epoch=0,
                                        rebalance_timeout_ms=30_000, subscribed_topic_names=[topic],
                                        topic_partitions=[])
    deadline = time.monotonic() + 30
    while (r := c.call(req, 1)).error_code in (14, 15, 16):  # the coordinator is loading
        assert time.monotonic() < deadline
        time.sleep(0.05)
    assert r.error_code == 0, r
    return r


def test_a_groups_consumer_configs_apply_to_its_heartbeats(admin, bootstrap):
    topic = f"gcc-t-{uuid.uuid4().hex[:8]}"
    create_topic(bootstrap, topic, partitions=4)
    own, other = f"gcc-own-{uuid.uuid4().hex[:8]}", f"gcc-other-{uuid.uuid4().hex[:8]}"
    _alter(admin, own, "consumer.heartbeat.interval.ms", "6000")
    _alter(admin, own, "consumer.assignment.interval.ms", "0")
    c = RawClient(bootstrap)
    try:
        for g in (own, other):
            c.await_group_coordinator(g)
        first = _heartbeat(c, own, topic)
        assert (first.member_epoch, first.heartbeat_interval_ms) == (2, 6000)
        # no assignment interval: the second join's epoch has its target at once
        assert (_heartbeat(c, own, topic).member_epoch) == 3
        first = _heartbeat(c, other, topic)
        assert (first.member_epoch, first.heartbeat_interval_ms) == (2, 5000)
        # the broker's 1 s interval: the second member waits at the assignment epoch
        assert _heartbeat(c, other, topic).member_epoch == 2
    finally:
        c.close()
