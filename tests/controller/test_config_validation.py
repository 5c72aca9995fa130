"""The controller validates a topic's resulting effective config with the log's own
parser (odradek.log.config) before writing records, and replay survives bad records; a broker's
values and names as Kafka 4.3 checks them (KafkaConfig's requirements, its non-dynamic names, the
names it does not know, stored)."""
import math

import pytest

from odradek.controller.configs import BROKER, DYNAMIC_BROKER_CONFIG, DYNAMIC_DEFAULT_BROKER_CONFIG, TOPIC
from odradek.controller.controller import OP_APPEND, OP_DELETE, OP_SET, OP_SUBTRACT, Controller, CreateTopicSpec
from odradek.controller.image import BrokerImage
from odradek.log.config import LogConfig
from odradek.wire.errors import ErrorCode as E
from odradek.wire.messages.config_record import ConfigRecord


def make(tmp_path, defaults=None):
    c = Controller(str(tmp_path), 1, defaults or {}, 0)
    c.start(BrokerImage(1, "127.0.0.1", 9092), 0)
    return c


@pytest.fixture
def ctl(tmp_path):
    c = make(tmp_path)
    yield c
    c.close()


def create(c, name, configs=None):
    return c.create_topics([CreateTopicSpec(name, 1, 1, configs=configs or {})], False, 1)[0]


def log_config(c, topic):
    return LogConfig.from_properties(c.topic_config(topic))  # raises if the log would reject it


def incr(c, rtype, name, ops):
    return c.incremental_alter_configs([(rtype, name, ops)], False, 2)[0]


def test_create_nan_dirty_ratio_is_invalid_config_and_writes_nothing(ctl):
    end = ctl._log.next_offset
    r = create(ctl, "t", {"min.cleanable.dirty.ratio": "NaN"})
    assert r.error_code == E.INVALID_CONFIG
    assert r.error_message == ("Invalid value NaN for configuration min.cleanable.dirty.ratio: "
                               "Not a number of type DOUBLE")
    assert "t" not in ctl.image.topics and ctl._log.next_offset == end


def test_incremental_set_nan_dirty_ratio_is_invalid_config(ctl):
    create(ctl, "t")
    end = ctl._log.next_offset
    r = incr(ctl, TOPIC, "t", [("min.cleanable.dirty.ratio", OP_SET, "nan")])
    assert r.error_code == E.INVALID_CONFIG and "min.cleanable.dirty.ratio" in r.error_message
    assert ctl._log.next_offset == end and dict(ctl.image.topics["t"].configs) == {}
    log_config(ctl, "t")


def test_legacy_alter_nan_dirty_ratio_is_invalid_config(ctl):
    create(ctl, "t")
    end = ctl._log.next_offset
    r = ctl.alter_configs([(TOPIC, "t", [("min.cleanable.dirty.ratio", "NaN")])], False, 2)[0]
    assert r.error_code == E.INVALID_CONFIG
    assert ctl._log.next_offset == end


def test_negative_retention_bytes_is_accepted_by_the_log_too(ctl):
    # Kafka puts no bound on retention.bytes; the log rejected < -1 while the controller took it
    r = create(ctl, "t", {"retention.bytes": "-5"})
    assert r.error_code == 0
    assert log_config(ctl, "t").retention_bytes == -5


@pytest.mark.parametrize("value", ["-1", "-2", "-5", str(-2**63)])
def test_broker_negative_retention_ms_means_forever(tmp_path, value):
    """Kafka's broker takes any negative log.retention.ms (KafkaConfig defines it without a bound) and
    its logRetentionTimeMillis makes it -1: the topics keep their records; the value asked is stored
    and survives a restart."""
    c = make(tmp_path)
    create(c, "t")
    r = incr(c, BROKER, "", [("log.retention.ms", OP_SET, value)])
    assert r.error_code == 0
    assert dict(c.image.broker_configs[""])["log.retention.ms"] == value
    assert c.topic_config("t")["retention.ms"] == "-1"
    assert log_config(c, "t").retention_ms == -1
    c.close()
    c2 = make(tmp_path)  # replayed, not skipped
    assert dict(c2.image.broker_configs[""])["log.retention.ms"] == value
    assert log_config(c2, "t").retention_ms == -1
    c2.close()


@pytest.mark.parametrize("key", ["log.retention.hours", "log.retention.minutes", "log.roll.hours",
                                 "log.roll.jitter.hours", "log.flush.scheduler.interval.ms"])
def test_broker_later_synonyms_are_not_dynamic(ctl, key):
    """Kafka 4.3's DynamicBrokerConfig: the hours / minutes forms are no dynamic configs."""
    end = ctl._log.next_offset
    for name in ("", "1"):
        r = incr(ctl, BROKER, name, [(key, OP_SET, "2")])
        assert (r.error_code, r.error_message) == (E.INVALID_REQUEST,
                                                   f"Cannot update these configs dynamically: [{key}]")
    assert ctl._log.next_offset == end


def test_a_stored_later_synonym_still_applies(ctl):
    """A log.retention.minutes record (written by an older odradek) is replayed: negative means forever."""
    create(ctl, "t")
    ctl.commit([ConfigRecord(resource_type=BROKER, resource_name="", name="log.retention.minutes", value="-5")], 3)
    assert ctl.topic_config("t")["retention.ms"] == "-1"
    assert log_config(ctl, "t").retention_ms == -1


def test_a_stored_later_synonym_is_deleted_and_a_legacy_alter_replaces_it(ctl):
    """Kafka 4.3 deletes a config it would not set at run time (kafka-configs --delete-config
    log.retention.minutes completes, review rev-l): a record of an older odradek is not stuck."""
    create(ctl, "t")
    ctl.commit([ConfigRecord(resource_type=BROKER, resource_name="", name="log.retention.minutes", value="-5")], 3)
    assert broker_alter(ctl, "", [("log.retention.minutes", OP_DELETE, None)]) == (0, None)
    assert log_config(ctl, "t").retention_ms == 604800000
    # a legacy AlterConfigs replaces a broker's whole set: the stored record goes with it
    ctl.commit([ConfigRecord(resource_type=BROKER, resource_name="1", name="log.retention.minutes", value="-5")], 4)
    r = ctl.alter_configs([(BROKER, "1", [("log.retention.ms", "3600000")])], False, 5)[0]
    assert (r.error_code, r.error_message) == (0, None)
    assert dict(ctl.image.broker_configs["1"]) == {"log.retention.ms": "3600000"}
    assert broker_alter(ctl, "1", [("log.dirs", OP_DELETE, None)]) == (0, None)


@pytest.mark.parametrize("key, value, message", [
    ("log.retention.ms", "0",
     "requirement failed: log.retention.ms must be unlimited (-1) or, greater than or equal to 1"),
    ("log.roll.ms", "0", "requirement failed: log.roll.ms must be greater than or equal to 1"),
    ("log.roll.ms", "-3", "requirement failed: log.roll.ms must be greater than or equal to 1"),
    ("log.roll.jitter.ms", "-1", "requirement failed: log.roll.jitter.ms must be greater than or equal to 0"),
    ("log.retention.ms", "x", "Invalid value x for configuration log.retention.ms: Not a number of type LONG"),
])
def test_broker_log_values_kafkas_config_requires(ctl, key, value, message):
    """Checked as a whole config (KafkaConfig.validateValues), answered INVALID_REQUEST as Kafka's broker."""
    end = ctl._log.next_offset
    r = incr(ctl, BROKER, "1", [(key, OP_SET, value)])
    assert (r.error_code, r.error_message) == (E.INVALID_REQUEST, message)
    assert ctl._log.next_offset == end


def test_broker_nan_cleaner_ratio_is_invalid_config(ctl):
    end = ctl._log.next_offset
    r = incr(ctl, BROKER, "", [("log.cleaner.min.cleanable.ratio", OP_SET, "NaN")])
    assert r.error_code == E.INVALID_CONFIG
    assert ctl._log.next_offset == end


def test_subtract_last_cleanup_policy_is_valid_for_the_log(ctl):
    create(ctl, "t", {"cleanup.policy": "compact"})
    r = incr(ctl, TOPIC, "t", [("cleanup.policy", OP_SUBTRACT, "compact")])
    assert r.error_code == 0
    assert log_config(ctl, "t").cleanup_policy == ()


def test_failing_listener_does_not_stop_others_or_the_commit(ctl):
    seen = []

    def boom(old, new):
        raise RuntimeError("listener bug")

    ctl.add_listener(boom)
    ctl.add_listener(lambda old, new: seen.append(new.offset))
    assert create(ctl, "t").error_code == 0
    assert "t" in ctl.image.topics and seen
    assert create(ctl, "u").error_code == 0 and len(seen) == 2


def test_bad_record_already_in_the_log_is_skipped_live_and_on_restart(tmp_path):
    c = make(tmp_path)
    create(c, "t", {"min.cleanable.dirty.ratio": "0.3"})
    # a record written before validation existed, followed by a good one in the same batch
    c.commit([ConfigRecord(resource_type=TOPIC, resource_name="t", name="min.cleanable.dirty.ratio", value="NaN"),
               ConfigRecord(resource_type=TOPIC, resource_name="t", name="retention.ms", value="1234")], 3)
    assert c.topic_config("t")["min.cleanable.dirty.ratio"] == "0.3"
    assert c.topic_config("t")["retention.ms"] == "1234"
    c.close()
    c2 = make(tmp_path)  # restart replays the bad record: start-up must not fail
    cfg = log_config(c2, "t")
    assert cfg.min_cleanable_dirty_ratio == 0.3 and cfg.retention_ms == 1234
    assert not math.isnan(cfg.min_cleanable_dirty_ratio)
    assert create(c2, "u").error_code == 0
    c2.close()


GROUP = 32


def test_group_configs_are_validated_in_kafkas_order(ctl):
    """Kafka 4.3's GroupConfig.validate (checked with kafka-configs against it, several configs in
    one request): unknown names first, then the values in the order GroupConfig defines them, then
    the broker's bounds in its order (a consumer group's heartbeat interval before its session)."""
    def refused(*kvs):
        r = incr(ctl, GROUP, "g", [(k, OP_SET, v) for k, v in kvs])
        assert r.error_code == E.INVALID_CONFIG
        return r.error_message

    assert refused(("share.session.timeout.ms", "1000"), ("streams.heartbeat.interval.ms", "1"),
                   ("bogus", "1")) == "Unknown group config name: bogus"
    assert refused(("streams.session.timeout.ms", "x"), ("consumer.heartbeat.interval.ms", "0")) == (
        "Invalid value 0 for configuration consumer.heartbeat.interval.ms: Value must be at least 1")
    assert refused(("consumer.session.timeout.ms", "1000"), ("consumer.heartbeat.interval.ms", "1")) == (
        "consumer.heartbeat.interval.ms must be greater than or equal to group.consumer.min.heartbeat.interval.ms")
    assert "g" not in ctl.image.group_configs


def test_a_groups_stored_configs_are_validated_with_each_change(tmp_path):
    """Kafka validates the group's configs as they would be after the change, the stored ones
    included: one the broker's bounds no longer allow (lowered minimum, then restored) fails the
    next change of any config of that group."""
    lowered = make(tmp_path / "a", {"group.consumer.min.session.timeout.ms": "1000"})
    assert incr(lowered, GROUP, "g", [("consumer.session.timeout.ms", OP_SET, "6000")]).error_code == E.NONE
    lowered.close()
    c = make(tmp_path / "a")
    try:
        assert dict(c.image.group_configs["g"]) == {"consumer.session.timeout.ms": "6000"}
        r = incr(c, GROUP, "g", [("consumer.heartbeat.interval.ms", OP_SET, "6000")])
        assert (r.error_code, r.error_message) == (E.INVALID_CONFIG, "consumer.session.timeout.ms must be greater "
                                                   "than or equal to group.consumer.min.session.timeout.ms")
        assert incr(c, GROUP, "g", [("consumer.session.timeout.ms", OP_DELETE, None),
                                    ("consumer.heartbeat.interval.ms", OP_SET, "6000")]).error_code == E.NONE
        assert dict(c.image.group_configs["g"]) == {"consumer.heartbeat.interval.ms": "6000"}
    finally:
        c.close()


# A broker config name Kafka 4.3 does not know (neither KafkaConfig's nor a dynamic one) in an
# (Incremental)AlterConfigs of a BROKER resource: Kafka's DynamicBrokerConfig lets it through (only its
# known non-dynamic names are refused), its controller stores it, and DescribeConfigs lists it read-only,
# sensitive (no value) and of type UNKNOWN, from the layer it was set in. Each answer checked with
# kafka-configs and a raw DescribeConfigs against a Kafka 4.3 node;
# compat_tests/test_unknown_broker_config_names.py runs the same on both brokers.

def broker_alter(c, name, ops):
    r = incr(c, BROKER, name, ops)
    return r.error_code, r.error_message


def views(c, name, synonyms=False):
    [d] = c.describe_configs([(BROKER, name, None)], include_synonyms=synonyms)
    return {v.name: v for v in d.configs}


def test_an_unknown_broker_config_is_stored_described_as_kafka_and_kept(tmp_path):
    c = make(tmp_path)
    c.create_topics([CreateTopicSpec("t", 1, 1, configs={})], False, 1)
    before = dict(c.topic_config("t"))
    assert broker_alter(c, "1", [("no.such.thing", OP_SET, "abc")]) == (0, None)
    assert broker_alter(c, "", [("other.unknown", OP_SET, "xyz"), ("no.such.thing", OP_SET, "d")]) == (0, None)
    assert dict(c.topic_config("t")) == before  # no effect
    c.close()
    c = make(tmp_path)  # the image replayed from the metadata log: the ConfigRecords were written
    assert dict(c.image.broker_configs["1"]) == {"no.such.thing": "abc"}
    assert dict(c.image.broker_configs[""]) == {"other.unknown": "xyz", "no.such.thing": "d",
                                                "min.insync.replicas": "1"}  # (ELR's, at the start)
    own = views(c, "1", synonyms=True)
    v = own["no.such.thing"]
    assert (v.value, v.read_only, v.config_source, v.is_sensitive, v.config_type) == \
        (None, True, DYNAMIC_BROKER_CONFIG, True, 0)
    assert v.synonyms == (("no.such.thing", None, DYNAMIC_BROKER_CONFIG),
                          ("no.such.thing", None, DYNAMIC_DEFAULT_BROKER_CONFIG))
    v = own["other.unknown"]
    assert (v.value, v.config_source, v.is_sensitive, v.synonyms) == \
        (None, DYNAMIC_DEFAULT_BROKER_CONFIG, True, (("other.unknown", None, DYNAMIC_DEFAULT_BROKER_CONFIG),))
    assert views(c, "1")["other.unknown"].synonyms == ()
    default = views(c, "", synonyms=True)
    v = default["other.unknown"]
    assert (v.value, v.read_only, v.config_source, v.is_sensitive, v.config_type, v.synonyms) == \
        (None, True, DYNAMIC_DEFAULT_BROKER_CONFIG, True, 0, (("other.unknown", None, DYNAMIC_DEFAULT_BROKER_CONFIG),))
    c.close()


def test_an_unknown_broker_config_is_deleted_and_replaced_by_a_legacy_alter(ctl):
    assert broker_alter(ctl, "1", [("a.b", OP_SET, "1"), ("c.d", OP_SET, "2")]) == (0, None)
    assert broker_alter(ctl, "1", [("a.b", OP_DELETE, None)]) == (0, None)
    assert dict(ctl.image.broker_configs["1"]) == {"c.d": "2"}
    r = ctl.alter_configs([(BROKER, "1", [("e.f", "3")])], False, 2)[0]
    assert (r.error_code, r.error_message) == (0, None)
    assert dict(ctl.image.broker_configs["1"]) == {"e.f": "3"}


@pytest.mark.parametrize("key, op, code, message", [
    ("no.such.thing", OP_APPEND, E.INVALID_CONFIG, "Unknown config name: no.such.thing"),
    ("log.dirs", OP_SET, E.INVALID_REQUEST, "Cannot update these configs dynamically: [log.dirs]"),
    ("num.io.threads", OP_SET, E.INVALID_REQUEST, "Cannot update these configs dynamically: [num.io.threads]"),
    # refused as before: a listener's config (Kafka takes some, odradek applies none of them but the
    # connection quotas) and a config provider's
    ("listener.name.plaintext.no.such", OP_SET, E.INVALID_REQUEST,
     "Cannot update these configs dynamically: [listener.name.plaintext.no.such]"),
    ("config.providers.x.class", OP_SET, E.INVALID_REQUEST,
     "Cannot update these configs dynamically: [config.providers.x.class]"),
])
def test_broker_config_names_that_stay_refused(ctl, key, op, code, message):
    end = ctl._log.next_offset
    assert broker_alter(ctl, "1", [(key, op, "v")]) == (code, message)
    assert ctl._log.next_offset == end


def test_a_topic_still_refuses_an_unknown_name(ctl):
    ctl.create_topics([CreateTopicSpec("t", 1, 1, configs={})], False, 1)
    r = ctl.incremental_alter_configs([(TOPIC, "t", [("no.such.thing", OP_SET, "1")])], False, 2)[0]
    assert (r.error_code, r.error_message) == (E.INVALID_CONFIG, "Unknown topic config name: no.such.thing")
