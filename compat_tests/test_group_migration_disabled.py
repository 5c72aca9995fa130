"""group.consumer.migration.policy=disabled (KIP-848): a ConsumerGroupHeartbeat joining a classic group
with members is refused (GROUP_ID_NOT_FOUND, Kafka 4.3's message); a classic member may still join a
consumer group (the policy does not govern that), and the group stays a consumer group when its last
consumer-protocol member leaves. Raw requests (compat_tests/test_group_migration.py's). Every test
passes against Kafka 4.3.0 started with BROKER_OVERRIDES
(`pytest compat_tests/test_group_migration_disabled.py --bootstrap 127.0.0.1:PORT`)."""

from __future__ import annotations

import uuid

from harness import RawClient, create_topic
from test_group_migration import _group_type, raw_classic_member, raw_heartbeat, subscription

BROKER_OVERRIDES = {"group.consumer.migration.policy": "DISABLED", "group.initial.rebalance.delay.ms": "0"}


def test_disabled_policy(bootstrap, topic_name):
    from odradek.wire.messages.consumer_group_describe_request import ConsumerGroupDescribeRequest
    from odradek.wire.messages.leave_group_request import LeaveGroupRequest, MemberIdentity

    create_topic(bootstrap, topic_name, partitions=2)
    raw = RawClient(bootstrap)
    try:
        # no upgrade of a classic group with members
        group = f"mig-{uuid.uuid4().hex[:8]}"
        raw.await_group_coordinator(group)
        raw_classic_member(raw, group, "consumer", subscription(topic_name))
        r = raw_heartbeat(raw, group_id=group, subscribed_topic_names=[topic_name])
        assert (r.error_code, r.error_message) == (
            69, f"Cannot upgrade classic group {group} to consumer group because online upgrade is disabled.")
        assert _group_type(raw, group) == "classic"
        # a classic member joins a consumer group all the same; no downgrade when the consumer one leaves
        group = f"mig-{uuid.uuid4().hex[:8]}"
        raw.await_group_coordinator(group)
        consumer = str(uuid.uuid4())
        r = raw_heartbeat(raw, group_id=group, member_id=consumer, subscribed_topic_names=[topic_name])
        assert r.error_code == 0
        classic, generation, j = raw_classic_member(raw, group, "consumer", subscription(topic_name))
        assert (j.protocol_type, j.protocol_name, j.leader, list(j.members)) == ("consumer", "range", "", [])
        d = raw.call(ConsumerGroupDescribeRequest(group_ids=[group], include_authorized_operations=False), 1)
        assert sorted((m.member_id == classic, m.member_type) for m in d.groups[0].members) == [(False, 1), (True, 0)]
        r = raw_heartbeat(raw, group_id=group, member_id=consumer, member_epoch=-1, rebalance_timeout_ms=-1,
                          topic_partitions=None)
        assert r.error_code == 0
        assert _group_type(raw, group) == "consumer"
        d = raw.call(ConsumerGroupDescribeRequest(group_ids=[group], include_authorized_operations=False), 1)
        assert [(m.member_id, m.member_type) for m in d.groups[0].members] == [(classic, 0)]
        left = raw.call(LeaveGroupRequest(group_id=group, members=[MemberIdentity(member_id=classic)]), 5)
        assert (left.error_code, [m.error_code for m in left.members]) == (0, [0])
        assert _group_type(raw, group) == "consumer"
        d = raw.call(ConsumerGroupDescribeRequest(group_ids=[group], include_authorized_operations=False), 1)
        assert (d.groups[0].group_state, list(d.groups[0].members)) == ("Empty", [])
    finally:
        raw.close()
