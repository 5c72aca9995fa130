"""DescribeGroups, ConsumerGroupDescribe, ShareGroupDescribe and StreamsGroupDescribe answer a large
request in steps (issue 27 fairness: context.made_in_parts, the broker serving other clients between
them), a step ending once STEP_ENTRIES entries were described (a group and each of its members); the
answer is, byte for byte, the one the same groups get asked one at a time, and a small request is
answered at once by no generator."""
import pytest
from inproc_broker import call, handler_generators, start_broker
from inproc_broker import drive as _drive

from odradek.api_handlers.context import STEP_ENTRIES, Stepped
from odradek.wire.messages import (consumer_group_describe_request as cgd, consumer_group_heartbeat_request as hb,
                                   create_topics_request as ct, describe_groups_request as dg,
                                   find_coordinator_request as fc, offset_commit_request as oc,
                                   share_group_describe_request as sgd, streams_group_describe_request as stgd)

EMPTY = [f"empty-{i}" for i in range(STEP_ENTRIES + 100)]  # classic groups with an offset, no members
MEMBERS = 3  # of the consumer group "cg"


@pytest.fixture(scope="module")
def broker(tmp_path_factory):
    b = start_broker(tmp_path_factory.mktemp("describe-steps"))
    try:
        created = _drive(b, call(b, "create_topics", ct.CreateTopicsRequest(topics=[ct.CreatableTopic(
            name="t", num_partitions=2, replication_factor=1)], timeout_ms=1000), 7))[0]
        assert created.topics[0].error_code == 0
        assert call(b, "find_coordinator", fc.FindCoordinatorRequest(key_type=0, coordinator_keys=["cg"]),
                    6).coordinators[0].error_code == 0
        for g in EMPTY:
            r = _drive(b, call(b, "offset_commit", oc.OffsetCommitRequest(
                group_id=g, generation_id_or_member_epoch=-1, member_id="", topics=[oc.OffsetCommitRequestTopic(
                    name="t", partitions=[oc.OffsetCommitRequestPartition(
                        partition_index=0, committed_offset=7, committed_leader_epoch=-1, committed_metadata="")])]),
                8))[0]
            assert r.topics[0].partitions[0].error_code == 0
        for i in range(MEMBERS):
            r = call(b, "consumer_group_heartbeat", hb.ConsumerGroupHeartbeatRequest(
                group_id="cg", member_id=f"member-{i}-" + "x" * 14, member_epoch=0, rebalance_timeout_ms=30000,
                subscribed_topic_names=["t"], topic_partitions=[]), 1)
            assert r.error_code == 0, r
        yield b
    finally:
        b.close()


def _check(b, module: str, request, version: int, asked: list, steps: int):
    """``request(ids)`` of ``asked`` is answered in ``steps`` steps, the same bytes as its groups asked
    one at a time (each answered at once, by no generator); -> the stepped answer."""
    resp = call(b, module, request(asked), version)
    assert isinstance(resp, Stepped), module
    resp, took = _drive(b, resp)
    assert took == steps, module
    alone = []
    for gid in dict.fromkeys(asked):
        one, ran = handler_generators(lambda: call(b, module, request([gid]), version))
        assert not isinstance(one, Stepped) and ran == set(), (module, ran)
        alone.append(one.groups[0])
    by_id = {g.group_id: g for g in alone}
    whole = type(resp)(throttle_time_ms=0, groups=[by_id[gid] for gid in asked])
    assert bytes(resp.encode(version)) == bytes(whole.encode(version)), module
    return resp


def test_describe_groups_answers_in_steps_as_a_group_at_a_time(broker):
    b = broker
    asked = ["cg"] + EMPTY + [f"missing-{i}" for i in range(STEP_ENTRIES)]
    for version in (5, 6):
        # 1,101 groups, none with members here (a consumer group is Dead to DescribeGroups): 500 a step
        resp = _check(b, "describe_groups", lambda ids: dg.DescribeGroupsRequest(groups=ids), version, asked, 2)
        states = [(g.error_code, g.group_state) for g in resp.groups]
        assert states[1:3] == [(0, "Empty")] * 2
        assert states[-1] == ((0, "Dead") if version < 6 else (69, "Dead"))
    small, ran = handler_generators(lambda: call(b, "describe_groups", dg.DescribeGroupsRequest(groups=EMPTY[:10]), 5))
    assert not isinstance(small, Stepped) and ran == set()
    assert [g.group_id for g in small.groups] == EMPTY[:10]


def test_consumer_group_describe_counts_a_group_and_its_members(broker):
    b = broker
    # 200 x "cg" (1 + 3 members: 800 entries), then 600 classic groups (not consumer groups: 600 more):
    # parts of 500, 500 and 400 entries
    asked = ["cg"] * 200 + EMPTY
    resp = _check(b, "consumer_group_describe", lambda ids: cgd.ConsumerGroupDescribeRequest(group_ids=ids), 1,
                  asked, 2)
    assert len(resp.groups[0].members) == MEMBERS and resp.groups[0].error_code == 0
    assert {g.error_code for g in resp.groups[200:]} == {69}  # GROUP_ID_NOT_FOUND: a classic group
    small, ran = handler_generators(lambda: call(b, "consumer_group_describe",
                                          cgd.ConsumerGroupDescribeRequest(group_ids=["cg"] + EMPTY[:5]), 1))
    assert not isinstance(small, Stepped) and ran == set()
    assert [len(g.members) for g in small.groups] == [MEMBERS] + [0] * 5


@pytest.mark.parametrize("module, request_of, version", [
    ("share_group_describe", lambda ids: sgd.ShareGroupDescribeRequest(group_ids=ids), 1),
    ("streams_group_describe", lambda ids: stgd.StreamsGroupDescribeRequest(group_ids=ids), 0),
])
def test_share_and_streams_group_describe_answer_in_steps(broker, module, request_of, version):
    b = broker
    asked = ["cg"] + EMPTY + [f"missing-{i}" for i in range(STEP_ENTRIES)]  # none of them of the type
    resp = _check(b, module, request_of, version, asked, 2)
    assert {g.error_code for g in resp.groups} == {69}
