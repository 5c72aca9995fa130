"""A broker config name Kafka 4.3 does not know (neither KafkaConfig's nor a dynamic one) in an
(Incremental)AlterConfigs of a BROKER resource: Kafka's DynamicBrokerConfig lets it through (only its
known non-dynamic names are refused), its controller stores it, and DescribeConfigs lists it read-only,
sensitive (no value) and of type UNKNOWN, from the layer it was set in. Each answer checked with
kafka-configs and a raw DescribeConfigs against a Kafka 4.3 node; compat_tests/test_unknown_broker_config_names.py
runs the same on both brokers."""

import pytest

from odradek.controller.configs import BROKER, DYNAMIC_BROKER_CONFIG, DYNAMIC_DEFAULT_BROKER_CONFIG, TOPIC
from odradek.controller.controller import OP_APPEND, OP_DELETE, OP_SET, Controller, CreateTopicSpec
from odradek.controller.image import BrokerImage
from odradek.wire.errors import ErrorCode as E


def make(tmp_path):
    c = Controller(str(tmp_path), 1, {}, 0)
    c.start(BrokerImage(1, "127.0.0.1", 9092), 0)
    return c


@pytest.fixture
def ctl(tmp_path):
    c = make(tmp_path)
    yield c
    c.close()


def incr(c, name, ops):
    r = c.incremental_alter_configs([(BROKER, name, ops)], False, 2)[0]
    return r.error_code, r.error_message


def views(c, name, synonyms=False):
    [d] = c.describe_configs([(BROKER, name, None)], include_synonyms=synonyms)
    return {v.name: v for v in d.configs}


def test_stored_described_as_kafka_and_kept_across_a_restart(tmp_path):
    c = make(tmp_path)
    c.create_topics([CreateTopicSpec("t", 1, 1, configs={})], False, 1)
    before = dict(c.topic_config("t"))
    assert incr(c, "1", [("no.such.thing", OP_SET, "abc")]) == (0, None)
    assert incr(c, "", [("other.unknown", OP_SET, "xyz"), ("no.such.thing", OP_SET, "d")]) == (0, None)
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


def test_deleted_and_replaced_by_a_legacy_alter(ctl):
    assert incr(ctl, "1", [("a.b", OP_SET, "1"), ("c.d", OP_SET, "2")]) == (0, None)
    assert incr(ctl, "1", [("a.b", OP_DELETE, None)]) == (0, None)
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
def test_what_stays_refused(ctl, key, op, code, message):
    end = ctl._log.next_offset
    assert incr(ctl, "1", [(key, op, "v")]) == (code, message)
    assert ctl._log.next_offset == end


def test_a_topic_still_refuses_an_unknown_name(ctl):
    ctl.create_topics([CreateTopicSpec("t", 1, 1, configs={})], False, 1)
    r = ctl.incremental_alter_configs([(TOPIC, "t", [("no.such.thing", OP_SET, "1")])], False, 2)[0]
    assert (r.error_code, r.error_message) == (E.INVALID_CONFIG, "Unknown topic config name: no.such.thing")
