"""Kafka 4.3's bounds on one CreateTopics (ReplicationControlManager.validateTotalNumberOfPartitions
and the 10,000-record BoundedList of a controller operation): the request is refused whole with
POLICY_VIOLATION, nothing is written. The messages and the cases were checked against a real
Kafka 4.3 broker (compat_tests/test_create_topics_limits.py runs the same against either)."""

import pytest

from odradek.controller.controller import Controller, CreateTopicSpec
from odradek.controller.image import BrokerImage
from odradek.wire.errors import ErrorCode as E

TOO_MANY_PARTITIONS = "Excessively large number of partitions per request."
TOO_MANY_RECORDS = "Unable to perform excessively large batch operation."


@pytest.fixture
def ctl(tmp_path):
    c = Controller(str(tmp_path), 1, {"num.partitions": "2"}, 0)
    c.start(BrokerImage(1, "127.0.0.1", 9092), 0)
    yield c
    c.close()


def _answers(ctl, specs, validate_only=False):
    return [(r.name, r.error_code, r.error_message) for r in ctl.create_topics(specs, validate_only, 1)]


def test_more_than_ten_thousand_partitions_refuse_the_whole_request(ctl):
    specs = [CreateTopicSpec("ok", 1, 1), CreateTopicSpec("bad name", 5000, 1), CreateTopicSpec("b", 5000, 1)]
    assert _answers(ctl, specs) == [(s.name, E.POLICY_VIOLATION, TOO_MANY_PARTITIONS) for s in specs]
    assert set(ctl.image.topics) == set()


def test_the_count_takes_num_partitions_for_minus_one_and_assignments_by_size(ctl):
    specs = [CreateTopicSpec("d", -1, 1), CreateTopicSpec("big", 9999, 1)]  # 2 (num.partitions) + 9999
    assert _answers(ctl, specs, True) == [(s.name, E.POLICY_VIOLATION, TOO_MANY_PARTITIONS) for s in specs]
    manual = CreateTopicSpec("m", -1, -1, assignments={p: [1] for p in range(10001)})
    assert _answers(ctl, [manual], True) == [("m", E.POLICY_VIOLATION, TOO_MANY_PARTITIONS)]
    # a count below -1 counts nothing
    assert _answers(ctl, [CreateTopicSpec("n", -7, 1), CreateTopicSpec("x", 9999, 1)], True) == [
        ("n", E.INVALID_PARTITIONS, "Number of partitions was set to an invalid non-positive value."),
        ("x", 0, None)]


def test_duplicates_are_answered_apart_and_not_counted(ctl):
    specs = [CreateTopicSpec("dup", 6000, 1), CreateTopicSpec("dup", 6000, 1), CreateTopicSpec("one", 1, 1)]
    assert _answers(ctl, specs) == [("dup", E.INVALID_REQUEST, "Duplicate topic name."), ("one", 0, None)]


def test_more_than_ten_thousand_records_refuse_the_whole_request(ctl):
    # 5,000 topics of one partition: 10,000 records, the bound itself
    assert all(r[1] == 0 for r in _answers(ctl, [CreateTopicSpec(f"a{i}", 1, 1) for i in range(5000)], True))
    specs = [CreateTopicSpec(f"b{i}", 1, 1) for i in range(5001)]  # 10,002 records
    assert _answers(ctl, specs) == [(s.name, E.POLICY_VIOLATION, TOO_MANY_RECORDS) for s in specs]
    # a config override is a record too
    specs = [CreateTopicSpec("c", 9998, 1, configs={"retention.ms": "1000"})]  # 1 + 1 + 9998
    assert _answers(ctl, specs, True) == [("c", 0, None)]
    specs = [CreateTopicSpec("c", 9998, 1, configs={"retention.ms": "1000", "segment.ms": "100000"})]
    assert _answers(ctl, specs, True) == [("c", E.POLICY_VIOLATION, TOO_MANY_RECORDS)]
    assert set(ctl.image.topics) == set()


def test_failed_topics_write_no_records_so_do_not_count(ctl):
    ctl.create_topics([CreateTopicSpec("exists", 1, 1)], False, 1)
    specs = [CreateTopicSpec("exists", 9998, 1), CreateTopicSpec("fits", 1, 1)]
    assert _answers(ctl, specs, True) == [("exists", E.TOPIC_ALREADY_EXISTS, "Topic 'exists' already exists."),
                                          ("fits", 0, None)]


def test_topics_created_alike_share_their_config_views(ctl):
    rs = ctl.create_topics([CreateTopicSpec(f"t{i}", 1, 1) for i in range(3)]
                           + [CreateTopicSpec("r", 1, 1, configs={"retention.ms": "5"})], False, 1)
    assert rs[0].configs is rs[2].configs
    views = {v.name: v.value for v in rs[3].configs}
    assert views["retention.ms"] == "5" and {v.name: v.value for v in rs[0].configs}["retention.ms"] == "604800000"



def test_a_delete_past_ten_thousand_records_deletes_ten_thousand(ctl):
    """Kafka 4.3, DeleteTopics of 10,001 existing topics (and one unknown): 10,000 deleted, one
    UNKNOWN_SERVER_ERROR without a message (its BoundedList overflows), the unknown one answered.
    (The decision over an image holding 10,001 topics: making them through the controller costs
    seconds.)"""
    from dataclasses import replace

    from odradek.controller.decisions import Decisions
    from odradek.controller.image import TopicImage

    topics = {f"t{i}": TopicImage(f"t{i}", i.to_bytes(16, "big")) for i in range(1, 10002)}
    image = replace(ctl.image, topics=topics, topics_by_id={t.topic_id: t for t in topics.values()})
    result = Decisions(ctl.env, image).delete_topics(names=list(topics) + ["nope"])
    codes: dict = {}
    for _, _, code, message in result.response:
        codes[(code, message)] = codes.get((code, message), 0) + 1
    assert codes == {(0, None): 10000, (E.UNKNOWN_SERVER_ERROR, None): 1,
                     (E.UNKNOWN_TOPIC_OR_PARTITION, "This server does not host this topic-partition."): 1}
    assert len(result.records) == 10000


def test_name_collisions_are_found_without_a_pass_over_every_topic():
    """The names that may collide ('.' or '_') are kept per image, moved forward by each image's
    changes: a create, a delete and a re-create answer as a fresh map would (Kafka's
    topicsWithCollisionChars), and a collision inside one request is found too."""
    from odradek.controller.controller import Controller, CreateTopicSpec
    from odradek.controller.decisions import colliding_names
    from odradek.controller.image import BrokerImage
    from odradek.log import FaultyFileSystem

    c = Controller("/meta", 1, {}, 0, fs=FaultyFileSystem())
    c.start(BrokerImage(1, "h", 9092), 0)

    def codes(*names):
        return [(r.name, r.error_code, r.error_message)
                for r in c.create_topics([CreateTopicSpec(n, 1, 1) for n in names], False, 0)]

    assert codes("a.b", "plain") == [("a.b", 0, None), ("plain", 0, None)]
    assert codes("a_b") == [("a_b", 17, "Topic 'a_b' collides with existing topic: a.b")]
    assert colliding_names(c.image) == {"a_b": frozenset({"a.b"})}
    assert [e[2] for e in c.delete_topics(["a.b"], now_ms=0)] == [0]
    assert colliding_names(c.image) == {}
    assert codes("a_b", "x.y", "x_y") == [("a_b", 0, None), ("x.y", 0, None),
                                          ("x_y", 17, "Topic 'x_y' collides with existing topic: x.y")]
    fresh = {}
    for n in c.image.topics:
        if "." in n or "_" in n:
            fresh.setdefault(n.replace(".", "_"), set()).add(n)
    assert colliding_names(c.image) == {k: frozenset(v) for k, v in fresh.items()}
