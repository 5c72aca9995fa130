"""What a config change writes beside its ConfigRecords, and what it refuses, as Kafka 4.3's
ConfigurationControlManager with eligible.leader.replicas.version 1 (a fresh cluster's level): a
min.insync.replicas record is followed by a ClearElrRecord (of its topic, or of every topic for a
broker's or the cluster default's value) and the ELRs it names are emptied; a broker's own
min.insync.replicas and the removal of the cluster default's are refused. A BROKER resource writes a
record for every value asked, changed or not (KAFKA-14136), a topic only for changed ones. A resource
named twice is refused as Kafka's broker (each of them) or its controller listener (the second one)
refuse it. Checked against Kafka 4.3's metadata log and answers (compat_tests/test_cluster_elr_configs.py
and compat_tests/test_config_resources_named_twice.py run the same requests against either)."""
from __future__ import annotations

import random
from dataclasses import replace

import pytest

from odradek.controller.configs import BROKER, TOPIC
from odradek.controller.controller import Controller, CreateTopicSpec, OP_DELETE, OP_SET
from odradek.controller.decisions import Decisions, Env
from odradek.controller.elr_configs import ELR_FEATURE
from odradek.controller.image import BrokerImage
from odradek.controller.result import ControllerResult
from odradek.wire.errors import ErrorCode as E
from odradek.wire.messages.clear_elr_record import ClearElrRecord
from odradek.wire.messages.config_record import ConfigRecord
from odradek.wire.messages.partition_change_record import PartitionChangeRecord
from odradek.wire.messages.partition_record import PartitionRecord
from odradek.wire.messages.topic_record import TopicRecord

MIN_ISR = "min.insync.replicas"
BROKER_LEVEL = "Broker-level min.insync.replicas cannot be altered while ELR is enabled."
CLUSTER_REMOVAL = "Cluster-level min.insync.replicas cannot be removed while ELR is enabled."


@pytest.fixture
def ctl(tmp_path):
    """A controller (ELR enabled, as bootstrapped) with topics a and b of 2 partitions, each partition
    with an ELR and a last known ELR."""
    c = Controller(str(tmp_path), 1, {}, 0)
    c.start(BrokerImage(1, "127.0.0.1", 9092), 0)
    assert [r.error_code for r in c.create_topics([CreateTopicSpec("a", 2, 1), CreateTopicSpec("b", 2, 1)],
                                                  False, 0)] == [0, 0]
    c.write(lambda d: ControllerResult([
        PartitionChangeRecord(topic_id=d.image.topics[t].topic_id, partition_id=p, eligible_leader_replicas=[2],
                              last_known_elr=[3]) for t in ("a", "b") for p in (0, 1)], None), False, 0)
    assert _elrs(c) == {("a", 0): ((2,), (3,)), ("a", 1): ((2,), (3,)), ("b", 0): ((2,), (3,)),
                        ("b", 1): ((2,), (3,))}
    yield c
    c.close()


def _elrs(c: Controller) -> dict:
    return {(t.name, p.partition): (tuple(p.elr), tuple(p.last_known_elr))
            for t in c.image.topics.values() for p in t.partitions.values()}


def _records(c: Controller, resources, legacy: bool = False) -> list:
    d = c.decisions()
    got = d.alter_configs(resources) if legacy else d.incremental_alter_configs(resources)
    assert [r.error_code for r in got.response] == [0] * len(resources), got.response
    return got.records


def test_a_topics_min_isr_change_clears_that_topics_elr(ctl):
    change = [(TOPIC, "a", [(MIN_ISR, OP_SET, "1")])]
    assert _records(ctl, change) == [ConfigRecord(resource_type=TOPIC, resource_name="a", name=MIN_ISR, value="1"),
                                     ClearElrRecord(topic_name="a")]
    assert [r.error_code for r in ctl.incremental_alter_configs(change, False, 0)] == [0]
    elrs = _elrs(ctl)
    assert elrs[("a", 0)] == elrs[("a", 1)] == ((), ())
    assert elrs[("b", 0)] == elrs[("b", 1)] == ((2,), (3,))
    # the same value again writes nothing (a topic's unchanged value has no record)
    assert _records(ctl, change) == []
    # a deletion of it clears again
    assert _records(ctl, [(TOPIC, "a", [(MIN_ISR, OP_DELETE, None)])]) == [
        ConfigRecord(resource_type=TOPIC, resource_name="a", name=MIN_ISR, value=None), ClearElrRecord(topic_name="a")]


def test_the_cluster_defaults_min_isr_clears_every_elr_even_set_to_the_same_value(ctl):
    assert dict(ctl.image.broker_configs[""]) == {MIN_ISR: "1"}  # (bootstrapped)
    change = [(BROKER, "", [(MIN_ISR, OP_SET, "1")])]
    assert _records(ctl, change) == [ConfigRecord(resource_type=BROKER, resource_name="", name=MIN_ISR, value="1"),
                                     ClearElrRecord(topic_name="")]
    assert [r.error_code for r in ctl.incremental_alter_configs(change, False, 0)] == [0]
    assert set(_elrs(ctl).values()) == {((), ())}


def test_clear_elr_records_follow_all_of_a_requests_config_records(ctl):
    got = _records(ctl, [(TOPIC, "a", [(MIN_ISR, OP_SET, "1"), ("retention.ms", OP_SET, "1000")]),
                         (TOPIC, "b", [(MIN_ISR, OP_SET, "1")]), (BROKER, "", [(MIN_ISR, OP_SET, "1")])])
    assert [type(r).__name__ for r in got] == ["ConfigRecord"] * 4 + ["ClearElrRecord"] * 3
    assert [r.topic_name for r in got[4:]] == ["a", "b", ""]
    # the legacy AlterConfigs alike
    assert _records(ctl, [(TOPIC, "a", [(MIN_ISR, "2")])], legacy=True) == [
        ConfigRecord(resource_type=TOPIC, resource_name="a", name=MIN_ISR, value="2"), ClearElrRecord(topic_name="a")]


def test_a_new_topics_min_isr_is_followed_by_its_clear_elr_record(ctl):
    got = ctl.decisions().create_topics([CreateTopicSpec("c", 1, 1, configs={MIN_ISR: "1"}),
                                         CreateTopicSpec("d", 1, 1, configs={"retention.ms": "1000"})])
    assert [type(r) for r in got.records] == [TopicRecord, ConfigRecord, ClearElrRecord, PartitionRecord,
                                              TopicRecord, ConfigRecord, PartitionRecord]
    assert got.records[2] == ClearElrRecord(topic_name="c")
    assert [r.error_code for r in ctl.create_topics([CreateTopicSpec("c", 1, 1, configs={MIN_ISR: "1"})],
                                                    False, 0)] == [0]
    assert ctl.image.topics["c"].configs == {MIN_ISR: "1"}


def test_a_brokers_own_min_isr_and_the_removal_of_the_cluster_default_are_refused(ctl):
    for resources in ([(BROKER, "1", [(MIN_ISR, OP_SET, "1")])], [(BROKER, "1", [(MIN_ISR, OP_DELETE, None)])],
                      [(BROKER, "1", [("log.retention.ms", OP_SET, "1000"), (MIN_ISR, OP_SET, "2")])]):
        got = ctl.decisions().incremental_alter_configs(resources)
        assert (got.records, [(r.error_code, r.error_message) for r in got.response]) == (
            [], [(E.INVALID_CONFIG, BROKER_LEVEL)])
    got = ctl.decisions().incremental_alter_configs([(BROKER, "", [(MIN_ISR, OP_DELETE, None)])])
    assert [(r.error_code, r.error_message) for r in got.response] == [(E.INVALID_CONFIG, CLUSTER_REMOVAL)]
    # the legacy AlterConfigs of the cluster default without it deletes it: refused too
    got = ctl.decisions().alter_configs([(BROKER, "", [("log.retention.ms", "1000")])])
    assert [(r.error_code, r.error_message) for r in got.response] == [(E.INVALID_CONFIG, CLUSTER_REMOVAL)]


def _decisions_without_elr(ctl: Controller) -> Decisions:
    img = ctl.image
    return Decisions(ctl.env, replace(img, features={k: v for k, v in img.features.items() if k != ELR_FEATURE}))


def test_without_elr_min_isr_changes_clear_nothing_and_are_taken_anywhere(ctl):
    d = _decisions_without_elr(ctl)
    got = d.incremental_alter_configs([(TOPIC, "a", [(MIN_ISR, OP_SET, "1")]), (BROKER, "1", [(MIN_ISR, OP_SET, "1")]),
                                       (BROKER, "", [(MIN_ISR, OP_DELETE, None)])])
    assert [r.error_code for r in got.response] == [0, 0, 0]
    assert [(r.resource_name, r.value) for r in got.records] == [("a", "1"), ("1", "1"), ("", None)]
    assert all(isinstance(r, ConfigRecord) for r in got.records)
    got = d.create_topics([CreateTopicSpec("c", 1, 1, configs={MIN_ISR: "1"})])
    assert [type(r) for r in got.records] == [TopicRecord, ConfigRecord, PartitionRecord]


def test_a_broker_resource_writes_every_value_asked_changed_or_not(ctl):
    assert [r.error_code for r in ctl.incremental_alter_configs(
        [(BROKER, "1", [("log.retention.ms", OP_SET, "60000")])], False, 0)] == [0]
    got = _records(ctl, [(BROKER, "1", [("log.retention.ms", OP_SET, "60000"), ("log.cleaner.threads", OP_DELETE, None)])])
    assert got == [ConfigRecord(resource_type=BROKER, resource_name="1", name="log.retention.ms", value="60000"),
                   ConfigRecord(resource_type=BROKER, resource_name="1", name="log.cleaner.threads", value=None)]
    # a topic's unchanged value and deletion of an unset one write nothing
    ctl.incremental_alter_configs([(TOPIC, "a", [("retention.ms", OP_SET, "60000")])], False, 0)
    assert _records(ctl, [(TOPIC, "a", [("retention.ms", OP_SET, "60000"), ("segment.ms", OP_DELETE, None)])]) == []
    # the legacy AlterConfigs alike: a broker's every value
    assert _records(ctl, [(BROKER, "1", [("log.retention.ms", "60000")])], legacy=True) == [
        ConfigRecord(resource_type=BROKER, resource_name="1", name="log.retention.ms", value="60000")]


def test_a_resource_named_twice_is_refused_each_time_on_a_brokers_listener(ctl):
    twice = (TOPIC, "a", [("retention.ms", OP_SET, "1000")])
    got = ctl.decisions().incremental_alter_configs([twice, (TOPIC, "b", [("retention.ms", OP_SET, "1000")]), twice,
                                                     (BROKER, "", [("log.retention.ms", OP_SET, "1")]), twice])
    assert [(r.resource_name, r.error_code, r.error_message) for r in got.response] == [
        ("a", E.INVALID_REQUEST, "Each resource must appear at most once."), ("b", 0, None),
        ("a", E.INVALID_REQUEST, "Each resource must appear at most once."), ("", 0, None),
        ("a", E.INVALID_REQUEST, "Each resource must appear at most once.")]
    assert [(r.resource_name, r.name) for r in got.records] == [("b", "retention.ms"), ("", "log.retention.ms")]
    legacy = ctl.decisions().alter_configs([(TOPIC, "a", [("retention.ms", "1")]), (TOPIC, "a", [("retention.ms", "2")])])
    assert [(r.error_code, r.error_message) for r in legacy.response] == [
        (E.INVALID_REQUEST, "Each resource must appear at most once.")] * 2 and legacy.records == []


def test_a_resource_named_twice_to_a_quorums_controller_is_answered_once_ahead(ctl):
    quorum = Decisions(Env(1, {}, lambda: b"\x09" * 16, random.Random(1), quorum=True), ctl.image)
    twice = (TOPIC, "a", [("retention.ms", OP_SET, "1000")])
    got = quorum.incremental_alter_configs([twice, (TOPIC, "b", [("retention.ms", OP_SET, "1000")]), twice, twice])
    assert [(r.resource_name, r.error_code, r.error_message) for r in got.response] == [
        ("a", E.INVALID_REQUEST, "Duplicate resource."), ("b", 0, None)]
    assert [r.resource_name for r in got.records] == ["b"]


def test_enabling_elr_writes_the_cluster_default_and_removes_every_brokers_own_first(ctl):
    assert ctl.update_features([(ELR_FEATURE, 0, 2)], False, 0) is None  # a safe downgrade: ELR off
    assert [r.error_code for r in ctl.incremental_alter_configs(
        [(BROKER, "1", [(MIN_ISR, OP_SET, "1")]), (BROKER, "", [(MIN_ISR, OP_DELETE, None)])], False, 0)] == [0, 0]
    got = ctl.decisions().update_features([(ELR_FEATURE, 1, 1)])
    assert [(type(r).__name__, getattr(r, "resource_name", r.name), r.value if isinstance(r, ConfigRecord) else
             r.feature_level) for r in got.records] == [
        ("ConfigRecord", "", "1"), ("ConfigRecord", "1", None), ("FeatureLevelRecord", ELR_FEATURE, 1)]
    assert ctl.update_features([(ELR_FEATURE, 1, 1)], False, 0) is None
    assert (dict(ctl.image.broker_configs.get("1", {})), dict(ctl.image.broker_configs[""])) == ({}, {MIN_ISR: "1"})
    # already safe: the feature alone
    assert [type(r).__name__ for r in ctl.decisions().update_features([(ELR_FEATURE, 1, 1)]).records] == [
        "FeatureLevelRecord"]
