"""ConsumerGroupHeartbeat (68) through its handler on an in-process broker: the metadata image's
topics reach the coordinator as one table per image (not one made per heartbeat: at 100,000 topics
that was 73 ms a heartbeat, issue 27), and a new topic still reaches a regular expression."""
from __future__ import annotations

import pytest

from inproc_broker import call, start_broker
from odradek.wire.messages import consumer_group_heartbeat_request as hb
from odradek.wire.messages import create_topics_request as ct
from odradek.wire.messages import find_coordinator_request as fc


@pytest.fixture
def broker(tmp_path):
    b = start_broker(tmp_path, group_consumer_assignment_interval_ms="0")
    yield b
    b.close()


def create(b, name: str, partitions: int) -> None:
    r = call(b, "create_topics", ct.CreateTopicsRequest(topics=[ct.CreatableTopic(
        name=name, num_partitions=partitions, replication_factor=1)], timeout_ms=1000), 7)
    assert r.topics[0].error_code == 0


def heartbeat(b, member: str, epoch: int, **kw):
    req = hb.ConsumerGroupHeartbeatRequest(group_id="g", member_id=member, member_epoch=epoch, **kw)
    r = call(b, "consumer_group_heartbeat", req, 1)
    assert r.error_code == 0, r
    return r


def test_the_image_topics_reach_the_coordinator_as_one_table_per_image(broker):
    b = broker
    create(b, "orders-1", 2)
    call(b, "find_coordinator", fc.FindCoordinatorRequest(key_type=0, coordinator_keys=["g"]), 6)
    coord = b.groups
    r = heartbeat(b, "m1", 0, rebalance_timeout_ms=30000, subscribed_topic_regex="orders-.*", topic_partitions=[])
    assert sum(len(t.partitions) for t in r.assignment.topic_partitions) == 2
    table, names = coord.topics, coord.topic_names()
    r = heartbeat(b, "m2", 0, rebalance_timeout_ms=30000, subscribed_topic_regex="orders-.*", topic_partitions=[])
    # the image's topics did not change: the same table and names, not new ones
    assert coord.topics is table and coord.topic_names() is names
    # a new topic: a new table, and the regular expression takes it in (a new group epoch)
    create(b, "orders-2", 4)
    epoch = coord.consumer_groups["g"].group_epoch
    r = heartbeat(b, "m2", r.member_epoch, topic_partitions=[])
    assert coord.topics is not table and "orders-2" in coord.topic_names()
    g = coord.consumer_groups["g"]
    assert g.group_epoch == epoch + 1
    assert sorted(g.resolved_regexes["orders-.*"][0]) == ["orders-1", "orders-2"]
    assert sum(len(ps) for t in g.target.values() for ps in t.values()) == 6
