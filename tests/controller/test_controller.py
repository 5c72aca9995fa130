import os

import pytest

from odradek.controller import features
from odradek.controller.configs import BROKER, TOPIC
from odradek.controller.controller import Controller, CreateTopicSpec, OP_APPEND, OP_DELETE, OP_SET, OP_SUBTRACT
from odradek.controller.image import BrokerImage
from odradek.controller.metadata_log import DIR_NAME, SEGMENT_NAME
from odradek.wire.errors import ErrorCode as E


def make(tmp_path, defaults=None, node_id=1):
    c = Controller(str(tmp_path), node_id, defaults or {}, 0)
    c.start(BrokerImage(node_id, "127.0.0.1", 9092), 0)
    return c


@pytest.fixture
def ctl(tmp_path):
    c = make(tmp_path)
    yield c
    c.close()


def create(c, name, np=-1, rf=-1, **kw):
    return c.create_topics([CreateTopicSpec(name, np, rf, **kw)], False, 1)[0]


def test_bootstrap_image(ctl):
    im = ctl.image
    assert len(im.cluster_id) == 22
    assert im.controller_id == 1
    assert im.features["metadata.version"] == 30  # 4.3-IV0
    assert im.brokers[1].host == "127.0.0.1" and not im.brokers[1].fenced
    assert im.broker_configs[""]["min.insync.replicas"] == "1"


def test_create_topic_and_restart_keeps_everything(tmp_path):
    c = make(tmp_path)
    r = create(c, "t1", 3, configs={"retention.ms": "1000", "cleanup.policy": "compact"})
    assert r.error_code == 0 and r.num_partitions == 3 and r.replication_factor == 1
    assert r.topic_id != bytes(16)
    views = {v.name: v for v in r.configs}
    assert views["retention.ms"].value == "1000" and views["retention.ms"].config_source == 1
    assert views["segment.bytes"].config_source == 5
    t = c.image.topics["t1"]
    assert t.partitions[2].leader == 1 and t.partitions[2].replicas == (1,) and t.partitions[2].isr == (1,)
    assert c.image.topics_by_id[r.topic_id] is t
    cluster_id = c.image.cluster_id
    c.close()
    c2 = make(tmp_path)
    t2 = c2.image.topics["t1"]
    assert t2.topic_id == r.topic_id and len(t2.partitions) == 3
    assert dict(t2.configs) == {"retention.ms": "1000", "cleanup.policy": "compact"}
    assert c2.image.cluster_id == cluster_id
    assert c2.topic_config("t1")["retention.ms"] == "1000"
    assert c2.topic_config("t1")["segment.bytes"] == "1073741824"
    c2.close()


def test_torn_tail_is_cut(tmp_path):
    c = make(tmp_path)
    create(c, "a", 1)
    c.close()
    path = os.path.join(tmp_path, DIR_NAME, SEGMENT_NAME)
    size = os.path.getsize(path)
    with open(path, "ab") as f:
        f.write(b"\x00" * 30)
    c2 = make(tmp_path)
    assert "a" in c2.image.topics
    create(c2, "b", 1)
    c2.close()
    c3 = make(tmp_path)
    assert {"a", "b"} <= set(c3.image.topics)
    assert os.path.getsize(path) > size
    c3.close()


@pytest.mark.parametrize("name,code,msg", [
    ("bad name", 17, "Topic name is invalid: 'bad name' contains one or more characters other than ASCII "
                     "alphanumerics, '.', '_' and '-'"),
    ("", 17, "Topic name is invalid: the empty string is not allowed"),
    ("..", 17, "Topic name is invalid: '..' is not allowed"),
    ("x" * 250, 17, None),
])
def test_invalid_names(ctl, name, code, msg):
    r = create(ctl, name, 1)
    assert r.error_code == code
    if msg:
        assert r.error_message == msg
    assert name not in ctl.image.topics


def test_249_chars_ok(ctl):
    assert create(ctl, "x" * 249, 1).error_code == 0


def test_create_errors(ctl):
    create(ctl, "exists", 1)
    create(ctl, "a.b", 1)
    assert create(ctl, "exists", 1).error_code == E.TOPIC_ALREADY_EXISTS
    assert create(ctl, "exists", 1).error_message == "Topic 'exists' already exists."
    r = create(ctl, "a_b", 1)
    assert (r.error_code, r.error_message) == (17, "Topic 'a_b' collides with existing topic: a.b")
    assert create(ctl, "p0", 0).error_code == E.INVALID_PARTITIONS
    assert create(ctl, "pm2", -2).error_code == E.INVALID_PARTITIONS
    assert create(ctl, "rf0", 1, 0).error_code == E.INVALID_REPLICATION_FACTOR
    r = create(ctl, "rf3", 1, 3)
    assert r.error_code == E.INVALID_REPLICATION_FACTOR
    assert r.error_message.startswith("Unable to replicate the partition 3 time(s): The target replication factor "
                                      "of 3 cannot be reached because only 1 broker(s) are registered")
    assert create(ctl, "big", 100000).error_code == E.POLICY_VIOLATION
    assert set(ctl.image.topics) == {"exists", "a.b"}


def test_create_config_errors(ctl):
    r = create(ctl, "c", 1, configs={"foo.bar": "1"})
    assert (r.error_code, r.error_message) == (40, "Unknown topic config name: foo.bar")
    r = create(ctl, "c", 1, configs={"retention.ms": "abc"})
    assert r.error_message == "Invalid value abc for configuration retention.ms: Not a number of type LONG"
    r = create(ctl, "c", 1, configs={"cleanup.policy": "xx"})
    assert r.error_message == "Invalid value xx for configuration cleanup.policy: String must be one of: compact, delete"
    r = create(ctl, "c", 1, configs={"retention.ms": None})
    assert r.error_message == "Null value not supported for topic configs: retention.ms"
    r = create(ctl, "c", 1, configs={"segment.bytes": "1000"})
    assert r.error_message == "Invalid value 1000 for configuration segment.bytes: Value must be at least 1048576"
    assert "c" not in ctl.image.topics


def test_manual_assignment(ctl):
    assert create(ctl, "m", assignments={0: [1], 1: [1]}).num_partitions == 2
    assert create(ctl, "m1", 2, assignments={0: [1]}).error_code == E.INVALID_REQUEST
    r = create(ctl, "m2", assignments={0: [2]})
    assert (r.error_code, r.error_message) == (
        39, "The manual partition assignment includes broker 2, but no such broker is registered.")
    assert create(ctl, "m3", assignments={0: [1], 2: [1]}).error_message == \
        "partitions should be a consecutive 0-based integer sequence"
    assert create(ctl, "m4", assignments={0: [1, 1]}).error_code == 39
    assert create(ctl, "m5", assignments={0: []}).error_code == 39


def test_duplicates_and_validate_only(ctl):
    rs = ctl.create_topics([CreateTopicSpec("d", 1), CreateTopicSpec("d", 1)], False, 0)
    assert [(r.name, r.error_code, r.error_message) for r in rs] == [("d", 42, "Duplicate topic name.")]
    before = ctl.image
    rs = ctl.create_topics([CreateTopicSpec("vo", 2)], True, 0)
    assert rs[0].error_code == 0 and rs[0].num_partitions == 2 and len(rs[0].configs) == 33
    assert ctl.image is before and "vo" not in ctl.image.topics


def test_defaults_num_partitions_and_static_config(tmp_path):
    c = make(tmp_path, {"num.partitions": "4", "log.retention.hours": "1", "message.max.bytes": "2000"})
    r = create(c, "t")
    assert r.num_partitions == 4
    assert c.topic_config("t")["retention.ms"] == "3600000"
    assert c.topic_config("t")["max.message.bytes"] == "2000"
    v = {x.name: x for x in r.configs}["retention.ms"]
    # Kafka 4.3 lists broker synonyms only from log.retention.ms on: log.retention.hours
    # alone gives source DEFAULT_CONFIG (5) and no synonyms, the value is still 1 h
    assert (v.value, v.config_source, v.synonyms) == ("3600000", 5, ())
    c.close()


def test_topic_synonyms_start_at_the_primary_broker_name(tmp_path):
    # as Kafka 4.3 describes them (checked with log.roll.ms / log.roll.jitter.hours set)
    c = make(tmp_path, {"log.roll.ms": "5000000", "log.roll.jitter.hours": "2"})
    create(c, "t")
    views = {v.name: v for v in c.topic_config_views({}, synonyms=True)}
    seg = views["segment.ms"]
    assert (seg.value, seg.config_source) == ("5000000", 4)
    assert seg.synonyms == (("log.roll.ms", "5000000", 4), ("log.roll.hours", "168", 5))
    jit = views["segment.jitter.ms"]
    assert (jit.value, jit.config_source, jit.synonyms) == ("7200000", 5, ())
    ret = views["retention.ms"]
    assert (ret.value, ret.config_source, ret.synonyms) == ("604800000", 5, ())
    over = {v.name: v for v in c.topic_config_views({"retention.ms": "1000"}, synonyms=True)}["retention.ms"]
    assert (over.config_source, over.synonyms) == (1, (("retention.ms", "1000", 1),))
    c.close()


def test_listener_sees_changes(ctl):
    seen = []
    ctl.add_listener(lambda old, new: seen.append((set(old.topics), set(new.topics))))
    create(ctl, "x", 2)
    ctl.delete_topics(names=["x"], now_ms=2)
    assert seen == [(set(), {"x"}), ({"x"}, set())]


def test_listener_added_before_start_sees_replay(tmp_path):
    c = make(tmp_path)
    create(c, "x", 2)
    c.close()
    c2 = Controller(str(tmp_path), 1, {}, 0)
    seen = []
    c2.add_listener(lambda old, new: seen.append((set(old.topics), set(new.topics))))
    c2.start(BrokerImage(1, "h", 1), 0)
    assert seen and seen[0] == (set(), {"x"})
    c2.close()


def test_delete_topics(ctl):
    r = create(ctl, "a", 1)
    create(ctl, "b", 1)
    create(ctl, "__consumer_offsets", 2, internal=True)
    res = ctl.delete_topics(names=["a", "nope", "a"], now_ms=3)
    assert sorted(res) == [("a", bytes(16), 42, "Duplicate topic name."),
                           ("nope", bytes(16), 3, "This server does not host this topic-partition.")]
    assert "a" in ctl.image.topics
    res = ctl.delete_topics(names=["a"], ids=[ctl.image.topics["b"].topic_id, b"\x01" * 16], now_ms=4)
    assert res[0] == (None, b"\x01" * 16, 100, "This server does not host this topic ID.")
    assert {x[0] for x in res[1:]} == {"a", "b"} and all(x[2] == 0 for x in res[1:])
    assert set(ctl.image.topics) == {"__consumer_offsets"}
    assert r.topic_id not in ctl.image.topics_by_id
    # recreate gets a new id and no stale configs
    create(ctl, "a", 1)
    assert ctl.image.topics["a"].topic_id != r.topic_id


def test_delete_drops_configs(tmp_path):
    c = make(tmp_path)
    create(c, "a", 1, configs={"retention.ms": "5"})
    c.delete_topics(names=["a"], now_ms=1)
    create(c, "a", 1)
    assert dict(c.image.topics["a"].configs) == {}
    c.close()
    c2 = make(tmp_path)
    assert dict(c2.image.topics["a"].configs) == {}
    c2.close()


def test_create_partitions(ctl):
    create(ctl, "cp", 2)
    assert ctl.create_partitions([("cp", 4, None)], False, 1) == [("cp", 0, None)]
    assert len(ctl.image.topics["cp"].partitions) == 4
    assert ctl.create_partitions([("cp", 4, None)], False, 1) == [("cp", 37, "Topic already has 4 partition(s).")]
    assert ctl.create_partitions([("cp", 2, None)], False, 1) == [
        ("cp", 37, "The topic cp currently has 4 partition(s); 2 would not be an increase.")]
    assert ctl.create_partitions([("nope", 3, None)], False, 1) == [("nope", 3, None)]
    assert ctl.create_partitions([("cp", 6, [[1]])], False, 1) == [
        ("cp", 39, "Attempted to add 2 additional partition(s), but only 1 assignment(s) were specified.")]
    assert ctl.create_partitions([("cp", 5, [[1]])], True, 1) == [("cp", 0, None)]
    assert len(ctl.image.topics["cp"].partitions) == 4
    assert ctl.create_partitions([("cp", 5, [[2]])], False, 1)[0][1] == 39
    assert ctl.create_partitions([("cp", 9, None), ("cp", 9, None)], False, 1) == [("cp", 42, "Duplicate topic name.")]


def test_describe_topic_configs(tmp_path):
    c = make(tmp_path, {"log.retention.ms": "7000"})
    create(c, "t", 1, configs={"cleanup.policy": "compact"})
    [d] = c.describe_configs([(TOPIC, "t", None)], include_synonyms=True)
    assert d.error_code == 0 and len(d.configs) == 33
    v = {x.name: x for x in d.configs}
    assert (v["cleanup.policy"].value, v["cleanup.policy"].config_source) == ("compact", 1)
    assert v["cleanup.policy"].synonyms == (("cleanup.policy", "compact", 1), ("log.cleanup.policy", "delete", 5))
    assert (v["retention.ms"].value, v["retention.ms"].config_source) == ("7000", 4)
    assert v["retention.ms"].synonyms == (("log.retention.ms", "7000", 4), ("log.retention.hours", "168", 5))
    assert v["min.insync.replicas"].config_source == 3
    assert v["retention.ms"].config_type == 5
    [d] = c.describe_configs([(TOPIC, "t", ["retention.ms", "nope"])])
    assert [x.name for x in d.configs] == ["retention.ms"] and d.configs[0].synonyms == ()
    [d] = c.describe_configs([(TOPIC, "nope", None)])
    assert (d.error_code, d.error_message, d.configs) == (3, "", [])
    [d] = c.describe_configs([(TOPIC, "bad name", None)])
    assert d.error_code == 17
    [d] = c.describe_configs([(BROKER, "7", None)])
    assert (d.error_code, d.error_message) == (42, "Unexpected broker id, expected 1 or empty string, but received 7")
    [d] = c.describe_configs([(BROKER, "1", ["log.retention.ms", "num.partitions"])], include_synonyms=True)
    v = {x.name: x for x in d.configs}
    assert (v["log.retention.ms"].value, v["log.retention.ms"].config_source) == ("7000", 4)
    assert v["num.partitions"].read_only and v["num.partitions"].value == "1"
    c.close()


def test_incremental_alter_configs(ctl):
    create(ctl, "t", 1)
    ok = ctl.incremental_alter_configs(
        [(TOPIC, "t", [("retention.ms", OP_SET, "1000"), ("cleanup.policy", OP_SET, "compact")])], False, 1)
    assert [(r.error_code, r.error_message) for r in ok] == [(0, None)]
    assert dict(ctl.image.topics["t"].configs) == {"retention.ms": "1000", "cleanup.policy": "compact"}

    def one(ops, name="t", rtype=TOPIC, vo=False):
        r = ctl.incremental_alter_configs([(rtype, name, ops)], vo, 1)[0]
        return r.error_code, r.error_message

    assert one([("retention.ms", OP_SET, "abc")]) == (
        40, "Invalid value abc for configuration retention.ms: Not a number of type LONG")
    assert one([("foo", OP_SET, "1")]) == (40, "Unknown topic config name: foo")
    assert one([("retention.ms", OP_APPEND, "1")]) == (
        40, "Can't APPEND to key retention.ms because its type is not LIST.")
    assert one([("retention.ms", OP_SET, "5"), ("retention.ms", OP_SET, "6")]) == (
        42, "Error due to duplicate config keys")
    assert one([("retention.ms", OP_SET, "5")], name="nope") == (3, "The topic 'nope' does not exist.")
    assert one([("retention.ms", OP_SET, None)]) == (42, "Null value not supported for : retention.ms")
    assert one([("cleanup.policy", OP_APPEND, "delete")]) == (0, None)
    assert ctl.image.topics["t"].configs["cleanup.policy"] == "compact,delete"
    assert one([("cleanup.policy", OP_SUBTRACT, "compact")]) == (0, None)
    assert ctl.image.topics["t"].configs["cleanup.policy"] == "delete"
    assert one([("retention.ms", OP_DELETE, None)]) == (0, None)
    assert "retention.ms" not in ctl.image.topics["t"].configs
    assert one([("segment.ms", OP_SET, "99")], vo=True) == (0, None)
    assert "segment.ms" not in ctl.image.topics["t"].configs
    # broker level
    assert one([("log.retention.ms", OP_SET, "5000")], name="", rtype=BROKER) == (0, None)
    assert ctl.topic_config("t")["retention.ms"] == "5000"
    assert one([("log.retention.ms", OP_SET, "4000")], name="1", rtype=BROKER) == (0, None)
    [d] = ctl.describe_configs([(TOPIC, "t", ["retention.ms"])], include_synonyms=True)
    assert d.configs[0].value == "4000" and d.configs[0].config_source == 2
    assert d.configs[0].synonyms[:2] == (("log.retention.ms", "4000", 2), ("log.retention.ms", "5000", 3))
    assert one([("num.partitions", OP_SET, "3")], name="1", rtype=BROKER) == (
        42, "Cannot update these configs dynamically: [num.partitions]")
    assert one([("log.retention.ms", OP_SET, "1")], name="2", rtype=BROKER) == (
        42, "Unexpected broker id, expected 1, but received 2")
    assert one([("x", OP_SET, "1")], name="2", rtype=9) == (42, "Unknown resource type 9")
    assert one([("min.insync.replicas", OP_DELETE, None)], name="", rtype=BROKER)[0] == 40


def test_alter_configs_replaces(ctl):
    create(ctl, "t", 1, configs={"retention.ms": "1000"})
    r = ctl.alter_configs([(TOPIC, "t", [("segment.bytes", "2000000")])], False, 1)[0]
    assert r.error_code == 0
    assert dict(ctl.image.topics["t"].configs) == {"segment.bytes": "2000000"}
    r = ctl.alter_configs([(TOPIC, "t", [("segment.bytes", "1")])], False, 1)[0]
    assert r.error_code == 40
    r = ctl.alter_configs([(TOPIC, "nope", [("segment.bytes", "2000000")])], False, 1)[0]
    assert (r.error_code, r.error_message) == (3, "The topic 'nope' does not exist.")
    r = ctl.alter_configs([(TOPIC, "t", [("segment.bytes", None)])], False, 1)[0]
    assert (r.error_code, r.error_message) == (42, "Null value not supported for : segment.bytes")


def test_topic_named_defaults_from_broker_config(tmp_path):
    # BrokerConfig.topic_defaults() passes every topic key; only non-default ones count as set
    c = make(tmp_path, {"retention.ms": "604800000", "segment.bytes": "2097152", "message.max.bytes": "1048588"})
    create(c, "t", 1)
    [d] = c.describe_configs([(TOPIC, "t", ["retention.ms", "segment.bytes", "max.message.bytes"])], True)
    v = {x.name: x for x in d.configs}
    assert v["retention.ms"].config_source == 5
    assert (v["segment.bytes"].value, v["segment.bytes"].config_source) == ("2097152", 4)
    assert v["segment.bytes"].synonyms[0] == ("log.segment.bytes", "2097152", 4)
    assert v["max.message.bytes"].config_source == 5
    assert c.topic_config("t")["segment.bytes"] == "2097152"
    c.close()


def test_package_exports_and_features(ctl):
    import odradek.controller as mod
    assert mod.Controller is Controller and mod.BrokerImage is BrokerImage
    assert ctl.finalized_features() == {"metadata.version": 30, "eligible.leader.replicas.version": 1,
                                        "group.version": 1, "share.version": 1, "streams.version": 1,
                                        "transaction.version": features.TRANSACTION_VERSION_MAX}
    assert ctl.finalized_features_epoch() == ctl.image.offset


def test_broker_configs_as_kafka_describes_them(tmp_path):
    # `kafka-configs --describe --entity-type brokers --entity-name 1 --all` against Kafka 4.3:
    # node.id/broker.id/process.roles are static (Kafka requires them), a value left at its
    # default is DEFAULT_CONFIG only, a value given explicitly is STATIC_BROKER_CONFIG
    from odradek.config import BrokerConfig

    cfg = BrokerConfig.from_properties({"node.id": "3", "log.dirs": str(tmp_path / "d"), "num.partitions": "4"})
    c = make(tmp_path, cfg.controller_defaults(), node_id=3)
    [d] = c.describe_configs([(BROKER, "3", None)], include_synonyms=True)
    v = {x.name: x for x in d.configs}
    assert v["node.id"].value == "3" and v["node.id"].synonyms == (("node.id", "3", 4),)
    assert v["broker.id"].synonyms == (("broker.id", "3", 4), ("broker.id", "-1", 5))
    assert v["process.roles"].synonyms == (("process.roles", "broker,controller", 4),)
    for name, value in [("compression.type", "producer"), ("message.max.bytes", "1048588"),
                        ("delete.topic.enable", "true"), ("offsets.topic.segment.bytes", "104857600")]:
        assert (v[name].value, v[name].config_source, v[name].synonyms) == (value, 5, ((name, value, 5),)), name
    assert (v["num.partitions"].value, v["num.partitions"].config_source) == ("4", 4)
    c.close()


def test_topic_config_follows_topic_overrides_and_dynamic_broker_configs(ctl):
    """topic_config is resolved once per set of overrides and broker configs (the broker asks for
    every partition it makes): a change of either is seen at once, and a caller's copy is its own."""
    create(ctl, "plain", 1, 1)
    create(ctl, "other", 1, 1)
    create(ctl, "tuned", 1, 1, configs={"retention.ms": "1000"})
    assert ctl.topic_config("plain")["retention.ms"] == "604800000"
    assert ctl.topic_config("tuned")["retention.ms"] == "1000"
    ctl.topic_config("plain")["retention.ms"] = "1"  # (the caller's copy)
    assert ctl.topic_config("other")["retention.ms"] == "604800000"
    assert ctl.incremental_alter_configs([(BROKER, "", [("log.retention.ms", OP_SET, "5000")])], False, 1)[0].error_code == 0
    assert ctl.topic_config("plain")["retention.ms"] == "5000"
    assert ctl.topic_config("tuned")["retention.ms"] == "1000"
    assert ctl.incremental_alter_configs([(TOPIC, "plain", [("retention.ms", OP_SET, "7000")])], False, 1)[0].error_code == 0
    assert ctl.topic_config("plain")["retention.ms"] == "7000"
    assert ctl.topic_config("other")["retention.ms"] == "5000"
