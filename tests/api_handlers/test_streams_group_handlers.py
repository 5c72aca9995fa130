"""StreamsGroupHeartbeat (88) and StreamsGroupDescribe (89) through their handlers on an in-process
broker: the streams.version gate, the broker creating the topology's internal topics with the
counts and configs asked for, the assignment once they exist, describe and ListGroups."""
from __future__ import annotations

import importlib

import pytest

from odradek.api_handlers.context import RequestContext
from odradek.config import BrokerConfig
from odradek.wire.errors import ErrorCode as E
from odradek.wire.messages import api_versions_request as av
from odradek.wire.messages import create_topics_request as ct
from odradek.wire.messages import find_coordinator_request as fc
from odradek.wire.messages import list_groups_request as lg
from odradek.wire.messages import streams_group_describe_request as sd
from odradek.wire.messages import streams_group_heartbeat_request as hb


class Clock:
    def __init__(self):
        self.now = 1_000_000

    def __call__(self) -> int:
        return self.now


@pytest.fixture
def broker(tmp_path):
    from odradek.broker.broker import Broker

    cfg = BrokerConfig.from_properties({"listeners": "PLAINTEXT://127.0.0.1:0", "log.dirs": str(tmp_path),
                                        "offsets.topic.num.partitions": "1",
                                        "group.streams.initial.rebalance.delay.ms": "0",
                                        "group.streams.assignment.interval.ms": "0"})
    b = Broker(cfg, Clock(), lambda delay, fn: None)
    b.start()
    yield b
    b.close()


def call(b, module: str, req, version: int | None = None):
    mod = importlib.import_module(f"odradek.api_handlers.{module}")
    ctx = RequestContext(api_key=mod.API_KEY, api_version=mod.MAX_VERSION if version is None else version,
                         correlation_id=1, client_id="streams-client", now_ms=b.clock_ms(), services=b.services,
                         client_host="127.0.0.1")
    return mod.handle(ctx, req)


def topology():
    KV = hb.KeyValue
    return hb.Topology(epoch=0, subtopologies=[
        hb.Subtopology(subtopology_id="0", source_topics=["lines"], repartition_sink_topics=["app-rep"]),
        hb.Subtopology(subtopology_id="1", repartition_source_topics=[
            hb.TopicInfo(name="app-rep", partitions=0, replication_factor=0,
                         topic_configs=[KV(key="cleanup.policy", value="delete"),
                                        KV(key="segment.bytes", value="52428800")])],
            state_changelog_topics=[hb.TopicInfo(name="app-counts-changelog", partitions=0, replication_factor=0,
                                                 topic_configs=[KV(key="cleanup.policy", value="compact")])]),
    ])


def join(b, member="m1", epoch=0, **kw):
    req = hb.StreamsGroupHeartbeatRequest(
        group_id="app", member_id=member, member_epoch=epoch, rebalance_timeout_ms=30000 if epoch == 0 else -1,
        topology=topology() if epoch == 0 else None, active_tasks=[], standby_tasks=[], warmup_tasks=[],
        process_id="p-" + member if epoch == 0 else None, **kw)
    return call(b, "streams_group_heartbeat", req)


@pytest.fixture
def ready(broker):
    r = call(broker, "create_topics", ct.CreateTopicsRequest(topics=[ct.CreatableTopic(
        name="lines", num_partitions=3, replication_factor=1)], timeout_ms=1000))
    assert r.topics[0].error_code == 0
    call(broker, "find_coordinator", fc.FindCoordinatorRequest(key_type=0, coordinator_keys=["app"]), 6)
    return broker


def test_heartbeat_creates_internal_topics_then_assigns(ready):
    b = ready
    r = join(b)
    assert r.error_code == 0 and r.member_id == "m1" and r.member_epoch == 2 and r.heartbeat_interval_ms == 5000
    assert [(s.status_code, s.status_detail) for s in r.status] == [
        (3, "Internal topics are missing: app-counts-changelog, app-rep")]
    assert (r.active_tasks, r.standby_tasks, r.warmup_tasks) == ([], [], [])
    # the broker created them with the topology's partition counts and configs
    assert len(b.image.topics["app-rep"].partitions) == 3
    assert len(b.image.topics["app-counts-changelog"].partitions) == 3
    assert dict(b.image.topic_configs["app-rep"]) == {"cleanup.policy": "delete", "segment.bytes": "52428800"}
    assert dict(b.image.topic_configs["app-counts-changelog"]) == {"cleanup.policy": "compact"}
    r = join(b, epoch=2)
    assert r.error_code == 0 and r.status == [] and r.member_epoch == 3  # Kafka: an empty status, not null
    assert r.endpoint_information_epoch == 0 and r.partitions_by_user_endpoint is None
    assert [(t.subtopology_id, t.partitions) for t in r.active_tasks] == [("0", [0, 1, 2]), ("1", [0, 1, 2])]
    d = call(b, "streams_group_describe", sd.StreamsGroupDescribeRequest(group_ids=["app", "nope"])).groups
    assert (d[0].error_code, d[0].group_state, d[0].group_epoch, d[0].assignment_epoch) == (0, "Stable", 3, 3)
    assert [s.subtopology_id for s in d[0].topology.subtopologies] == ["0", "1"]
    # the internal topics with the partition counts the broker decided (the topology says 0)
    sub1 = d[0].topology.subtopologies[1]
    assert [(t.name, t.partitions, t.replication_factor) for t in sub1.repartition_source_topics] == [
        ("app-rep", 3, 0)]
    assert [(t.name, t.partitions) for t in sub1.state_changelog_topics] == [("app-counts-changelog", 3)]
    m = d[0].members[0]
    assert (m.member_id, m.member_epoch, m.process_id, m.client_id, m.client_host) == (
        "m1", 3, "p-m1", "streams-client", "/127.0.0.1")
    assert [(t.subtopology_id, t.partitions) for t in m.assignment.active_tasks] == [("0", [0, 1, 2]),
                                                                                     ("1", [0, 1, 2])]
    assert (d[1].error_code, d[1].error_message) == (E.GROUP_ID_NOT_FOUND, "Group nope not found.")
    groups = call(b, "list_groups", lg.ListGroupsRequest(states_filter=[], types_filter=[])).groups
    assert [(g.group_id, g.protocol_type, g.group_state, g.group_type) for g in groups] == [
        ("app", "streams", "Stable", "streams")]


def test_streams_apis_follow_streams_version(broker, monkeypatch):
    r = call(broker, "api_versions", av.ApiVersionsRequest(client_software_name="t", client_software_version="1"))
    keys = {k.api_key: (k.min_version, k.max_version) for k in r.api_keys}
    assert keys[88] == (0, 0) and keys[89] == (0, 0)
    assert ("streams.version", 1) in {(f.name, f.max_version_level) for f in r.finalized_features}
    monkeypatch.setattr(broker.services.metadata, "finalized_features",
                        lambda: {"metadata.version": 30, "streams.version": 0})
    r = call(broker, "api_versions", av.ApiVersionsRequest(client_software_name="t", client_software_version="1"))
    assert not {88, 89} & {k.api_key for k in r.api_keys}
    assert join(broker).error_code == E.UNSUPPORTED_VERSION


def test_other_group_apis_on_a_streams_group(ready):
    """Recorded against Kafka 4.3 with the same requests (raw, side by side)."""
    from odradek.wire.messages import consumer_group_describe_request as cgd
    from odradek.wire.messages import delete_groups_request as dg
    from odradek.wire.messages import join_group_request as jg
    from odradek.wire.messages import offset_commit_request as oc
    from odradek.wire.messages import offset_delete_request as od
    from odradek.wire.messages import offset_fetch_request as of
    from odradek.wire.messages import share_group_heartbeat_request as sh

    b = ready
    r = join(b)
    r = join(b, epoch=r.member_epoch)
    epoch = r.member_epoch

    def commit(e, member="m1", v=9):
        return call(b, "offset_commit", oc.OffsetCommitRequest(
            group_id="app", generation_id_or_member_epoch=e, member_id=member, topics=[oc.OffsetCommitRequestTopic(
                name="lines", partitions=[oc.OffsetCommitRequestPartition(partition_index=0, committed_offset=5)])]),
            v).topics[0].partitions[0].error_code

    assert [commit(epoch), commit(epoch + 1), commit(epoch - 1), commit(epoch, "zz"), commit(-1, ""),
            commit(epoch, v=8)] == [0, E.STALE_MEMBER_EPOCH, E.STALE_MEMBER_EPOCH, E.UNKNOWN_MEMBER_ID,
                                    E.UNKNOWN_MEMBER_ID, E.UNSUPPORTED_VERSION]

    def fetch(member, e):
        g = call(b, "offset_fetch", of.OffsetFetchRequest(groups=[of.OffsetFetchRequestGroup(
            group_id="app", member_id=member, member_epoch=e,
            topics=[of.OffsetFetchRequestTopics(name="lines", partition_indexes=[0])])]), 9).groups[0]
        return g.error_code, [p.committed_offset for t in g.topics for p in t.partitions]

    assert [fetch("m1", epoch), fetch("m1", epoch - 1), fetch("zz", epoch), fetch(None, -1)] == [
        (0, [5]), (E.STALE_MEMBER_EPOCH, []), (E.UNKNOWN_MEMBER_ID, []), (0, [5])]
    r = call(b, "offset_delete", od.OffsetDeleteRequest(group_id="app", topics=[od.OffsetDeleteRequestTopic(
        name="lines", partitions=[od.OffsetDeleteRequestPartition(partition_index=0)])]), 0)
    assert r.topics[0].partitions[0].error_code == E.GROUP_SUBSCRIBED_TO_TOPIC
    assert call(b, "delete_groups", dg.DeleteGroupsRequest(groups_names=["app"]), 2).results[0].error_code == \
        E.NON_EMPTY_GROUP
    d = call(b, "consumer_group_describe", cgd.ConsumerGroupDescribeRequest(group_ids=["app"]), 1).groups[0]
    assert (d.error_code, d.error_message) == (E.GROUP_ID_NOT_FOUND, "Group app is not a consumer group.")
    s = call(b, "share_group_heartbeat", sh.ShareGroupHeartbeatRequest(
        group_id="app", member_id="s1", member_epoch=0, subscribed_topic_names=["lines"]), 1)
    assert s.error_code == E.GROUP_ID_NOT_FOUND
    j = call(b, "join_group", jg.JoinGroupRequest(
        group_id="app", session_timeout_ms=10000, rebalance_timeout_ms=10000, member_id="", protocol_type="consumer",
        protocols=[jg.JoinGroupRequestProtocol(name="range", metadata=b"")]), 9)
    assert (j.error_code, j.generation_id, j.member_id) == (E.INCONSISTENT_GROUP_PROTOCOL, -1, "")
    assert join(b, epoch=-1).member_epoch == -1
    assert call(b, "delete_groups", dg.DeleteGroupsRequest(groups_names=["app"]), 2).results[0].error_code == 0
    assert fetch(None, -1) == (0, [-1])
