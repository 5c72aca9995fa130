"""odradek/testing/faults.py: which requests a fault rule takes, how often, and what is refused."""

import pytest

from odradek.testing.faults import FaultError, FaultTable, named, parse
from odradek.wire.messages.fetch_request import FetchPartition, FetchRequest, FetchTopic
from odradek.wire.messages.join_group_request import JoinGroupRequest
from odradek.wire.messages.produce_request import PartitionProduceData, ProduceRequest, TopicProduceData

TOPIC_ID = bytes(range(16))


def produce(topic: str, *partitions: int) -> ProduceRequest:
    return ProduceRequest(acks=-1, topic_data=[TopicProduceData(
        name=topic, partition_data=[PartitionProduceData(index=p) for p in partitions])])


def no_ids(_):
    return None


def test_times_counts_matching_requests_and_the_spent_rule_goes():
    t = FaultTable()
    rid = t.add(parse({"api": "Produce", "error": "NOT_LEADER_OR_FOLLOWER", "times": 2}))
    got = [t.match(0, 9, "c", produce("a", 0), no_ids) for _ in range(3)]
    assert [g.error_code if g else None for g in got] == [6, 6, None]
    assert got[0].rule_id == rid and len(t) == 0
    assert t.match(1, 12, "c", FetchRequest(), no_ids) is None  # another API


def test_filters_topic_partition_client_version():
    t = FaultTable()
    t.add(parse({"api": "Produce", "error": 6, "topic": "a", "partition": 3, "client_id": "me", "version": 9}))
    assert t.match(0, 9, "me", produce("a", 2), no_ids) is None
    assert t.match(0, 9, "me", produce("b", 3), no_ids) is None
    assert t.match(0, 9, "other", produce("a", 3), no_ids) is None
    assert t.match(0, 10, "me", produce("a", 3), no_ids) is None
    assert t.match(0, 9, "me", produce("a", 1, 3), no_ids).error_code == 6
    assert t.rules()[0]["hits"] == 1  # no times: it stays


def test_topic_ids_are_resolved_and_groups_matched():
    fetch = FetchRequest(topics=[FetchTopic(topic_id=TOPIC_ID, partitions=[FetchPartition(partition=5)])])
    assert named(fetch, {TOPIC_ID: "orders"}.get).partitions == {("orders", 5)}
    t = FaultTable()
    t.add(parse({"api": "JoinGroup", "error": "REBALANCE_IN_PROGRESS", "group": "g1"}))
    assert t.match(11, 5, "c", JoinGroupRequest(group_id="g2"), no_ids) is None
    assert t.match(11, 5, "c", JoinGroupRequest(group_id="g1"), no_ids).error_code == 27


def test_first_rule_wins_and_delay_action():
    t = FaultTable()
    a = t.add(parse({"api": "fetch", "delay_ms": 300, "times": 1}))
    b = t.add(parse({"api": "FetchRequest", "action": "close_connection"}))
    first, second = (t.match(1, 12, None, FetchRequest(), no_ids) for _ in range(2))
    assert (first.rule_id, first.delay_ms, first.action) == (a, 300, None)
    assert (second.rule_id, second.action) == (b, "close_connection")
    assert t.remove(b) and not t.remove(b) and len(t) == 0


@pytest.mark.parametrize("fields, message", [
    ({"api": "Prodce", "error": "NOT_LEADER_OR_FOLLOWER"}, "unknown API 'Prodce'"),
    ({"api": "Produce", "error": "NOT_A_LEADER"}, "unknown error 'NOT_A_LEADER'"),
    ({"api": "Produce", "error": 999}, "unknown error code 999"),
    ({"api": "Produce"}, "needs an error, a delay_ms or an action"),
    ({"api": "Produce", "action": "explode"}, "unknown action 'explode'"),
    ({"api": "Produce", "error": 6, "times": 0}, "times must be at least 1"),
    ({"api": "Produce", "error": 6, "colour": "red"}, "unknown field(s) colour"),
    ({"error": 6}, "api is required"),
])
def test_bad_faults_are_refused_with_a_reason(fields, message):
    with pytest.raises(FaultError, match=None) as e:
        parse(fields)
    assert message in str(e.value)
