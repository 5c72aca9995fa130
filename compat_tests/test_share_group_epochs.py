"""KIP-932 share groups' epochs over raw ShareGroupHeartbeat / ShareGroupDescribe, as Apache Kafka 4.3
gives them (issue 27): a new group is at group epoch 1 and assignment epoch 1, so its first member
joins at epoch 2; a join within group.share.assignment.interval.ms (1 s) moves the group epoch but not
the target, and the new member has its part of the last target at the assignment epoch; the next
heartbeat after the interval assigns; a leave moves the group epoch only. A group's own
share.assignment.interval.ms of 0 assigns at every epoch. Waits are on conditions (heartbeats until
the epoch moves). Passes against Kafka too:
`python compat_tests/run_against_kafka.py -q -k share_group_epochs`."""

from __future__ import annotations

import time
import uuid

import pytest

from harness import RawClient, create_topic
from odradek.wire.messages.incremental_alter_configs_request import (
    AlterableConfig,
    AlterConfigsResource,
    IncrementalAlterConfigsRequest,
)
from odradek.wire.messages.share_group_describe_request import ShareGroupDescribeRequest
from odradek.wire.messages.share_group_heartbeat_request import ShareGroupHeartbeatRequest

RETRIABLE = (14, 15, 16)  # COORDINATOR_LOAD_IN_PROGRESS, COORDINATOR_NOT_AVAILABLE, NOT_COORDINATOR


@pytest.fixture(scope="module")
def topic(bootstrap):
    name = f"sh-{uuid.uuid4().hex[:8]}"
    create_topic(bootstrap, name, partitions=2)
    return name


@pytest.fixture
def raw(bootstrap):
    c = RawClient(bootstrap)
    yield c
    c.close()


class Share:
    def __init__(self, c: RawClient, topic: str):
        self.c, self.topic, self.group = c, topic, f"she-{uuid.uuid4().hex[:8]}"
        c.await_group_coordinator(self.group)

    def hb(self, member: str, epoch: int) -> tuple:
        req = ShareGroupHeartbeatRequest(group_id=self.group, member_id=member, member_epoch=epoch,
                                         subscribed_topic_names=[self.topic] if epoch == 0 else None)
        deadline = time.monotonic() + 30
        while (r := self.c.call(req, 1)).error_code in RETRIABLE:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        return r.error_code, r.member_epoch

    def until(self, member: str, epoch: int) -> int:
        """Heartbeats at ``epoch`` until the member's epoch moves; -> the new epoch."""
        deadline = time.monotonic() + 30
        while (r := self.hb(member, epoch)) == (0, epoch):
            assert time.monotonic() < deadline
            time.sleep(0.1)
        assert r[0] == 0, r
        return r[1]

    def describe(self) -> tuple:
        g = self.c.call(ShareGroupDescribeRequest(group_ids=[self.group]), 1).groups[0]
        return g.error_code, g.group_state, g.group_epoch, g.assignment_epoch, sorted(
            (m.member_id, m.member_epoch) for m in g.members)


def test_a_new_share_group_starts_at_epoch_1_and_assigns_once_per_interval(raw, topic):
    s = Share(raw, topic)
    a, b = "a" * 22, "b" * 22
    assert s.hb(a, 0) == (0, 2)
    assert s.describe() == (0, "Stable", 2, 2, [(a, 2)])
    assert s.hb(b, 0) == (0, 2)  # within the interval: the last target's epoch
    assert s.describe() == (0, "Stable", 3, 2, [(a, 2), (b, 2)])
    assert s.until(a, 2) == 3  # the first heartbeat after the interval assigns
    assert s.hb(b, 2) == (0, 3)
    assert s.describe() == (0, "Stable", 3, 3, [(a, 3), (b, 3)])
    assert s.hb(b, -1) == (0, -1)
    assert s.describe() == (0, "Stable", 4, 3, [(a, 3)])  # a leave moves the group epoch only
    assert s.until(a, 3) == 4
    assert s.describe() == (0, "Stable", 4, 4, [(a, 4)])


def test_a_groups_share_assignment_interval_of_0_assigns_at_every_epoch(raw, topic):
    s = Share(raw, topic)
    r = raw.call(IncrementalAlterConfigsRequest(resources=[AlterConfigsResource(
        resource_type=32, resource_name=s.group,
        configs=[AlterableConfig(name="share.assignment.interval.ms", config_operation=0, value="0")])]), 1)
    assert [(x.error_code, x.error_message) for x in r.responses] == [(0, None)]
    a, b = "c" * 22, "d" * 22
    assert s.hb(a, 0) == (0, 2)
    assert s.hb(b, 0) == (0, 3)
    assert s.describe() == (0, "Stable", 3, 3, [(a, 2), (b, 3)])
