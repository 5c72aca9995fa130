"""Group API handlers over the coordinator: every advertised version answers and encodes."""

from __future__ import annotations

import importlib

import pytest

from odradek.api_handlers import Delayed
from odradek.api_handlers.context import RequestContext
from fake_services import image_of_topics, services
from odradek.coordinator.group_coordinator import GroupConfig, GroupCoordinator
from odradek.wire.errors import ErrorCode as E
from odradek.wire.messages.find_coordinator_request import FindCoordinatorRequest
from odradek.wire.messages.join_group_request import JoinGroupRequest, JoinGroupRequestProtocol
from odradek.wire.messages.leave_group_request import LeaveGroupRequest, MemberIdentity
from odradek.wire.messages.offset_commit_request import (
    OffsetCommitRequest,
    OffsetCommitRequestPartition,
    OffsetCommitRequestTopic,
)
from odradek.wire.messages.offset_fetch_request import (
    OffsetFetchRequest,
    OffsetFetchRequestGroup,
    OffsetFetchRequestTopic,
    OffsetFetchRequestTopics,
)
from odradek.wire.messages.sync_group_request import SyncGroupRequest, SyncGroupRequestAssignment


class FakeBroker:
    def __init__(self):
        self.node_id = 1
        self.advertised_host = "127.0.0.1"
        self.advertised_port = 9092
        self.poked = []
        self.groups = GroupCoordinator(config=GroupConfig(group_initial_rebalance_delay_ms=0,
                                                          group_min_session_timeout_ms=1000), now_ms=0,
                                       poke=self.purgatory_poke)
        image = image_of_topics({"t": (bytes(16), 2)})
        self.services = services(image_of=lambda: image, groups=self.groups, wake=self.purgatory_poke)

    def purgatory_poke(self, key):
        self.poked.append(key)
        return 0


def call(broker, module, version, request, now=0):
    mod = importlib.import_module(f"odradek.api_handlers.{module}")
    assert mod.MIN_VERSION <= version <= mod.MAX_VERSION
    ctx = RequestContext(api_key=mod.API_KEY, api_version=version, correlation_id=1, client_id="cid",
                         now_ms=now, services=broker.services, client_host="127.0.0.1")
    resp = mod.handle(ctx, request)
    if isinstance(resp, Delayed):
        return resp
    resp.encode(version)  # must be encodable at this version
    return resp


def join_req(member_id="", instance=None):
    return JoinGroupRequest(group_id="g", session_timeout_ms=10000, rebalance_timeout_ms=10000,
                            member_id=member_id, group_instance_id=instance, protocol_type="consumer",
                            protocols=[JoinGroupRequestProtocol(name="range", metadata=b"\x00\x00")])


@pytest.mark.parametrize("version", range(0, 5))
def test_find_coordinator(version):
    b = FakeBroker()
    if version >= 4:
        req = FindCoordinatorRequest(key_type=0, coordinator_keys=["g1", "g2"])
        r = call(b, "find_coordinator", version, req)
        assert [(c.key, c.node_id, c.port, c.error_code) for c in r.coordinators] == \
            [("g1", 1, 9092, 0), ("g2", 1, 9092, 0)]
    else:
        r = call(b, "find_coordinator", version, FindCoordinatorRequest(key="g1", key_type=0))
        assert (r.error_code, r.node_id, r.host, r.port) == (0, 1, "127.0.0.1", 9092)
    if version >= 1:
        bad = FindCoordinatorRequest(key="g", key_type=7, coordinator_keys=["g"])
        r = call(b, "find_coordinator", version, bad)
        err = r.coordinators[0].error_code if version >= 4 else r.error_code
        assert err == E.INVALID_REQUEST


@pytest.mark.parametrize("version", range(0, 10))
def test_join_sync_heartbeat_leave_every_version(version):
    b = FakeBroker()
    r = call(b, "join_group", version, join_req())
    if version >= 4:
        assert r.error_code == E.MEMBER_ID_REQUIRED
        r = call(b, "join_group", version, join_req(r.member_id))
    assert r.error_code == 0 and r.generation_id == 1 and r.leader == r.member_id
    assert len(r.members) == 1
    mid = r.member_id
    sv = min(version, 5)
    s = call(b, "sync_group", sv, SyncGroupRequest(
        group_id="g", generation_id=1, member_id=mid, protocol_type="consumer", protocol_name="range",
        assignments=[SyncGroupRequestAssignment(member_id=mid, assignment=b"A")]))
    assert s.error_code == 0 and s.assignment == b"A"
    from odradek.wire.messages.heartbeat_request import HeartbeatRequest
    hb = call(b, "heartbeat", min(version, 4), HeartbeatRequest(group_id="g", generation_id=1, member_id=mid))
    assert hb.error_code == 0
    lv = min(version, 5)
    req = LeaveGroupRequest(group_id="g", member_id=mid, members=[MemberIdentity(member_id=mid)])
    out = call(b, "leave_group", lv, req)
    assert out.error_code == 0
    if lv >= 3:
        assert [m.error_code for m in out.members] == [0]
    assert b.groups.groups["g"].state.value == "Empty"


def test_join_parks_until_second_member_rejoins():
    b = FakeBroker()
    first = call(b, "join_group", 9, join_req(call(b, "join_group", 9, join_req()).member_id))
    assert first.error_code == 0
    second_id = call(b, "join_group", 9, join_req()).member_id
    parked = call(b, "join_group", 9, join_req(second_id))
    assert isinstance(parked, Delayed) and parked.watch == [("group", "g")]
    assert parked.try_complete(0) is None
    call(b, "join_group", 9, join_req(first.member_id))  # the first member rejoins: rebalance completes
    assert ("group", "g") in b.poked
    done = parked.try_complete(1)
    assert done.error_code == 0 and done.generation_id == 2


@pytest.mark.parametrize("version", range(2, 10))
def test_offset_commit_and_fetch_every_version(version):
    b = FakeBroker()
    req = OffsetCommitRequest(group_id="s", generation_id_or_member_epoch=-1, member_id="", topics=[
        OffsetCommitRequestTopic(name="t", partitions=[
            OffsetCommitRequestPartition(partition_index=0, committed_offset=17, committed_metadata="m"),
            OffsetCommitRequestPartition(partition_index=5, committed_offset=1)]),
        OffsetCommitRequestTopic(name="missing", partitions=[OffsetCommitRequestPartition(partition_index=0)]),
    ])
    r = call(b, "offset_commit", version, req)
    errs = {(t.name, p.partition_index): p.error_code for t in r.topics for p in t.partitions}
    assert errs == {("t", 0): 0, ("t", 5): E.UNKNOWN_TOPIC_OR_PARTITION,
                    ("missing", 0): E.UNKNOWN_TOPIC_OR_PARTITION}
    fv = min(version, 9)
    if fv >= 8:
        f = call(b, "offset_fetch", fv, OffsetFetchRequest(groups=[
            OffsetFetchRequestGroup(group_id="s", topics=[OffsetFetchRequestTopics(name="t",
                                                                                   partition_indexes=[0, 1])]),
            OffsetFetchRequestGroup(group_id="other", topics=None)]))
        parts = {p.partition_index: p.committed_offset for p in f.groups[0].topics[0].partitions}
        assert f.groups[1].topics == []
    else:
        f = call(b, "offset_fetch", fv, OffsetFetchRequest(group_id="s", topics=[
            OffsetFetchRequestTopic(name="t", partition_indexes=[0, 1])]))
        parts = {p.partition_index: p.committed_offset for p in f.topics[0].partitions}
    assert parts == {0: 17, 1: -1}


@pytest.mark.parametrize("version", range(1, 8))
def test_offset_fetch_all_topics_older_versions(version):
    b = FakeBroker()
    b.groups.commit_offsets("s", -1, "", None, {("t", 1): (3, -1, "")}, 0)
    topics = None if version >= 2 else [OffsetFetchRequestTopic(name="t", partition_indexes=[1])]
    f = call(b, "offset_fetch", version, OffsetFetchRequest(group_id="s", topics=topics))
    assert [(t.name, [(p.partition_index, p.committed_offset) for p in t.partitions]) for t in f.topics] == \
        [("t", [(1, 3)])]


@pytest.mark.parametrize("version", range(0, 6))
def test_describe_list_delete(version):
    from odradek.wire.messages.delete_groups_request import DeleteGroupsRequest
    from odradek.wire.messages.describe_groups_request import DescribeGroupsRequest
    from odradek.wire.messages.list_groups_request import ListGroupsRequest

    b = FakeBroker()
    b.groups.commit_offsets("s", -1, "", None, {("t", 1): (3, -1, "")}, 0)
    d = call(b, "describe_groups", version, DescribeGroupsRequest(groups=["s", "nope"],
                                                                  include_authorized_operations=True))
    assert [(g.group_id, g.group_state) for g in d.groups] == [("s", "Empty"), ("nope", "Dead")]
    lg = call(b, "list_groups", version, ListGroupsRequest(states_filter=["Empty"], types_filter=["classic"]))
    assert [g.group_id for g in lg.groups] == ["s"]
    if version <= 2:
        dg = call(b, "delete_groups", version, DeleteGroupsRequest(groups_names=["s", "nope"]))
        assert [(r.group_id, r.error_code) for r in dg.results] == [("s", 0), ("nope", E.GROUP_ID_NOT_FOUND)]


def test_offset_delete_handler():
    from odradek.wire.messages.offset_delete_request import (
        OffsetDeleteRequest,
        OffsetDeleteRequestPartition,
        OffsetDeleteRequestTopic,
    )

    b = FakeBroker()
    b.groups.commit_offsets("s", -1, "", None, {("t", 0): (3, -1, ""), ("t", 1): (4, -1, "")}, 0)
    r = call(b, "offset_delete", 0, OffsetDeleteRequest(group_id="s", topics=[
        OffsetDeleteRequestTopic(name="t", partitions=[OffsetDeleteRequestPartition(partition_index=0)])]))
    assert r.error_code == 0 and r.topics[0].partitions[0].error_code == 0
    assert set(b.groups.committed("s")) == {("t", 1)}
