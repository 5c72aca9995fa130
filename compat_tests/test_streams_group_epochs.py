"""KIP-1071 streams groups' epochs over raw StreamsGroupHeartbeat / StreamsGroupDescribe, as Apache
Kafka 4.3 gives them (issue 27): a new group is at group epoch 1 and assignment epoch 1, so its first
member joins at epoch 2; within the initial rebalance delay the members wait at the assignment epoch
(1) and the delay's end assigns at the group's epoch without another bump. The groups' delays come
from their own streams.* configs (IncrementalAlterConfigs on the GROUP resource), which both brokers
apply. Which task goes to which member is the assignor's business: only counts are compared. Passes
against Kafka too: `python compat_tests/run_against_kafka.py -q -k streams_group_epochs`."""

from __future__ import annotations

import time
import uuid

import pytest

from harness import RawClient, create_topic
from odradek.wire.messages import streams_group_heartbeat_request as R
from odradek.wire.messages.incremental_alter_configs_request import (
    AlterableConfig,
    AlterConfigsResource,
    IncrementalAlterConfigsRequest,
)
from odradek.wire.messages.streams_group_describe_request import StreamsGroupDescribeRequest

DELAYED = 5  # StreamsGroupHeartbeatResponse Status ASSIGNMENT_DELAYED
RETRIABLE = (14, 15, 16)  # COORDINATOR_LOAD_IN_PROGRESS, COORDINATOR_NOT_AVAILABLE, NOT_COORDINATOR


@pytest.fixture(scope="module")
def topic(bootstrap):
    name = f"lines-{uuid.uuid4().hex[:8]}"
    create_topic(bootstrap, name, partitions=4)
    return name


@pytest.fixture
def raw(bootstrap):
    c = RawClient(bootstrap)
    yield c
    c.close()


class Streams:
    """One streams group's raw heartbeats: (error, member epoch, number of active tasks or None, statuses)."""

    def __init__(self, c: RawClient, group: str, topic: str):
        self.c, self.group, self.topic = c, group, topic
        c.await_group_coordinator(group)

    def configure(self, **configs: str) -> None:
        r = self.c.call(IncrementalAlterConfigsRequest(resources=[AlterConfigsResource(
            resource_type=32, resource_name=self.group,
            configs=[AlterableConfig(name=k.replace("_", "."), config_operation=0, value=v)
                     for k, v in configs.items()])]), 1)
        assert [(x.error_code, x.error_message) for x in r.responses] == [(0, None)]

    def hb(self, member: str, epoch: int, owned: list | None = None):
        join = epoch == 0
        tasks = [] if join or owned == [] else None if owned is None else [R.TaskIds(subtopology_id="0",
                                                                                    partitions=owned)]
        topology = R.Topology(epoch=0, subtopologies=[R.Subtopology(
            subtopology_id="0", source_topics=[self.topic], repartition_sink_topics=[], state_changelog_topics=[],
            repartition_source_topics=[], copartition_groups=[])])
        req = R.StreamsGroupHeartbeatRequest(
            group_id=self.group, member_id=member, member_epoch=epoch, endpoint_information_epoch=0,
            rebalance_timeout_ms=30_000 if join else -1, topology=topology if join else None,
            active_tasks=tasks, standby_tasks=[] if tasks is not None else None,
            warmup_tasks=[] if tasks is not None else None, process_id=member if join else None,
            client_tags=[] if join else None)
        deadline = time.monotonic() + 30
        while True:
            r = self.c.call(req, 0)
            if r.error_code not in RETRIABLE or not join:
                return r
            assert time.monotonic() < deadline
            time.sleep(0.05)

    def describe(self) -> tuple:
        g = self.c.call(StreamsGroupDescribeRequest(group_ids=[self.group]), 0).groups[0]
        return g.error_code, g.group_state, g.group_epoch, g.assignment_epoch, sorted(
            (m.member_id, m.member_epoch) for m in g.members)


def _parts(r) -> list | None:
    return None if r.active_tasks is None else sorted(p for t in r.active_tasks for p in t.partitions)


def _seen(r) -> tuple:
    return r.error_code, r.member_epoch, None if r.active_tasks is None else len(_parts(r)), sorted(
        s.status_code for s in r.status)


def test_a_new_group_starts_at_epoch_1_and_each_join_and_leave_moves_it(raw, topic):
    s = Streams(raw, f"se-a-{uuid.uuid4().hex[:8]}", topic)
    s.configure(streams_initial_rebalance_delay_ms="0", streams_assignment_interval_ms="0")
    m1, m2, m3 = "a" * 22, "b" * 22, "c" * 22
    r = s.hb(m1, 0)
    assert _seen(r) == (0, 2, 4, [])
    assert s.describe() == (0, "Stable", 2, 2, [(m1, 2)])
    assert _seen(s.hb(m1, 2, [0, 1, 2, 3])) == (0, 2, None, [])
    assert _seen(s.hb(m2, 0)) == (0, 3, 0, [])  # its tasks are still m1's
    r = s.hb(m1, 2, [0, 1, 2, 3])  # m1 gives up two, at its epoch
    assert _seen(r) == (0, 2, 2, [])
    kept = _parts(r)
    assert _seen(s.hb(m1, 2, kept)) == (0, 3, None, [])
    assert _seen(s.hb(m2, 3, [])) == (0, 3, 2, [])
    assert s.describe() == (0, "Stable", 3, 3, [(m1, 3), (m2, 3)])
    assert _seen(s.hb(m2, -1)) == (0, -1, None, [])
    assert _seen(s.hb(m1, 3, kept)) == (0, 4, 4, [])
    r = s.hb(m1, 99, [0, 1, 2, 3])
    assert (r.error_code, r.error_message) == (110, "The streams group member has a greater member epoch (99) than "
                                               "the one known by the group coordinator (4). The member must abandon "
                                               "all its partitions and rejoin.")
    assert _seen(s.hb(m1, -1)) == (0, -1, None, [])
    assert s.describe() == (0, "Empty", 5, 4, [])
    assert _seen(s.hb(m3, 0)) == (0, 6, 4, [])
    assert s.describe() == (0, "Stable", 6, 6, [(m3, 6)])


def test_members_wait_at_the_assignment_epoch_through_the_initial_delay(raw, topic):
    s = Streams(raw, f"se-b-{uuid.uuid4().hex[:8]}", topic)
    s.configure(streams_initial_rebalance_delay_ms="1000")
    n1, n2 = "d" * 22, "e" * 22
    assert _seen(s.hb(n1, 0)) == (0, 1, 0, [DELAYED])
    assert s.describe() == (0, "Assigning", 2, 1, [(n1, 1)])
    assert _seen(s.hb(n2, 0)) == (0, 1, 0, [DELAYED])
    assert s.describe() == (0, "Assigning", 3, 1, [(n1, 1), (n2, 1)])
    deadline = time.monotonic() + 30
    while (r := s.hb(n1, 1, [])).member_epoch == 1:  # until the delay is over
        assert _seen(r) == (0, 1, None, [DELAYED]) and time.monotonic() < deadline
        time.sleep(0.1)
    assert _seen(r) == (0, 3, 2, [])  # the target at the group's epoch: no bump at the delay's end
    assert _seen(s.hb(n2, 1, [])) == (0, 3, 2, [])
    assert s.describe() == (0, "Stable", 3, 3, [(n1, 3), (n2, 3)])
    assert _seen(s.hb(n1, -1)) == (0, -1, None, [])
    assert _seen(s.hb(n2, -1)) == (0, -1, None, [])
    assert s.describe() == (0, "Empty", 5, 3, [])


def test_the_assignment_interval_has_no_timer_the_next_heartbeat_assigns(raw, topic):
    """Kafka 4.3 computes a target the interval held back only when a heartbeat comes after it. The
    wait is on a condition: another group's initial delay, as long as the interval and started after
    it, is over."""
    a = Streams(raw, f"se-c-{uuid.uuid4().hex[:8]}", topic)
    a.configure(streams_initial_rebalance_delay_ms="0", streams_assignment_interval_ms="1000")
    m1, m2 = "f" * 22, "g" * 22
    assert _seen(a.hb(m1, 0)) == (0, 2, 4, [])
    assert _seen(a.hb(m2, 0)) == (0, 2, 0, [DELAYED])
    assert a.describe() == (0, "Assigning", 3, 2, [(m1, 2), (m2, 2)])
    clock = Streams(raw, f"se-d-{uuid.uuid4().hex[:8]}", topic)
    clock.configure(streams_initial_rebalance_delay_ms="1000")
    assert _seen(clock.hb("h" * 22, 0)) == (0, 1, 0, [DELAYED])
    deadline = time.monotonic() + 30
    while (r := clock.hb("h" * 22, 1, [])).member_epoch == 1:  # until the delay is over
        assert _seen(r) == (0, 1, None, [DELAYED]) and time.monotonic() < deadline
        time.sleep(0.1)
    assert _seen(r) == (0, 2, 4, [])
    assert a.describe() == (0, "Assigning", 3, 2, [(m1, 2), (m2, 2)])
    assert _seen(a.hb(m2, 2, [])) == (0, 3, None, [])  # the new target; its tasks are still m1's
    assert a.describe() == (0, "Reconciling", 3, 3, [(m1, 2), (m2, 3)])


def test_a_joining_member_takes_over_an_empty_classic_group(raw, topic):
    """Kafka's getOrCreateStreamsGroup: a classic group with members is not a streams group; once
    empty (its protocol still recorded) a joining streams member replaces it."""
    from odradek.wire.messages.leave_group_request import LeaveGroupRequest, MemberIdentity
    from test_group_migration import raw_classic_member, subscription

    group = f"se-e-{uuid.uuid4().hex[:8]}"
    s = Streams(raw, group, topic)
    member, _generation, _joined = raw_classic_member(raw, group, "consumer", subscription(topic))
    r = s.hb("i" * 22, 0)
    assert (r.error_code, r.error_message) == (69, f"Group {group} is not a streams group.")
    left = raw.call(LeaveGroupRequest(group_id=group, members=[MemberIdentity(member_id=member)]), 3)
    assert left.error_code == 0 and [m.error_code for m in left.members] == [0]
    s.configure(streams_initial_rebalance_delay_ms="0")
    r = s.hb("i" * 22, 0)
    assert (r.error_code, r.error_message) == (0, None)
    assert s.describe()[:2] == (0, "Stable")
