"""AlterShareGroupOffsets (91), DeleteShareGroupOffsets (92) and FindCoordinator v5-v6 through their
handlers on an in-process broker: the request checks in Kafka's order (share.version, group id,
coordinator), the responses' layout, and __share_group_state created by the first share-coordinator
lookup with Kafka 4.3's settings. Expectations recorded against Kafka 4.3."""
from __future__ import annotations

import importlib

import pytest

from odradek.api_handlers.context import RequestContext
from odradek.config import BrokerConfig
from odradek.coordinator import share_state
from odradek.wire.errors import ErrorCode as E
from odradek.wire.messages import (alter_share_group_offsets_request as alt, api_versions_request as av,
                                   create_topics_request as ct, delete_share_group_offsets_request as dl,
                                   describe_share_group_offsets_request as ds, find_coordinator_request as fc)

ZERO = b"\0" * 16
SHARE_STATE = "__share_group_state"


class Clock:
    def __init__(self):
        self.now = 1_000_000

    def __call__(self) -> int:
        return self.now


@pytest.fixture
def broker(tmp_path):
    from odradek.broker.broker import Broker

    cfg = BrokerConfig.from_properties({"listeners": "PLAINTEXT://127.0.0.1:0", "log.dirs": str(tmp_path),
                                        "offsets.topic.num.partitions": "3",
                                        "share.coordinator.state.topic.num.partitions": "4"})
    b = Broker(cfg, Clock(), lambda delay, fn: None)
    b.start()
    yield b
    b.close()


def call(b, module: str, req, version: int | None = None):
    mod = importlib.import_module(f"odradek.api_handlers.{module}")
    ctx = RequestContext(api_key=mod.API_KEY, api_version=mod.MAX_VERSION if version is None else version,
                         correlation_id=1, client_id="test", now_ms=b.clock_ms(), services=b.services,
                         client_host="127.0.0.1")
    return mod.handle(ctx, req)


def find(b, key: str, key_type: int, version: int = 6):
    return call(b, "find_coordinator", fc.FindCoordinatorRequest(key_type=key_type, coordinator_keys=[key]),
                version).coordinators[0]


def create(b, name: str, partitions: int) -> bytes:
    r = call(b, "create_topics", ct.CreateTopicsRequest(topics=[ct.CreatableTopic(
        name=name, num_partitions=partitions, replication_factor=1)], timeout_ms=1000))
    assert r.topics[0].error_code == 0
    return bytes(b.image.topics[name].topic_id)


def alter(b, group, topics):
    return call(b, "alter_share_group_offsets", alt.AlterShareGroupOffsetsRequest(group_id=group, topics=[
        alt.AlterShareGroupOffsetsRequestTopic(topic_name=n, partitions=[
            alt.AlterShareGroupOffsetsRequestPartition(partition_index=p, start_offset=o) for p, o in ps])
        for n, ps in topics]))


def delete(b, group, names):
    return call(b, "delete_share_group_offsets", dl.DeleteShareGroupOffsetsRequest(group_id=group, topics=[
        dl.DeleteShareGroupOffsetsRequestTopic(topic_name=n) for n in names]))


def start_offsets(b, group):
    r = call(b, "describe_share_group_offsets", ds.DescribeShareGroupOffsetsRequest(groups=[
        ds.DescribeShareGroupOffsetsRequestGroup(group_id=group, topics=None)]))
    g = r.groups[0]
    return g.error_code, {(t.topic_name, p.partition_index): p.start_offset for t in g.topics for p in t.partitions}


def top(r):
    return r.error_code, r.error_message, r.responses


def test_advertised_versions(broker):
    r = call(broker, "api_versions", av.ApiVersionsRequest(client_software_name="t", client_software_version="1"))
    keys = {k.api_key: (k.min_version, k.max_version) for k in r.api_keys}
    assert keys[10] == (0, 6) and keys[91] == (0, 0) and keys[92] == (0, 0)


def test_group_id_then_coordinator_checks(broker):
    create(broker, "t", 2)
    assert top(alter(broker, "", [("t", [(0, 0)])])) == (E.INVALID_GROUP_ID, "The group id is invalid.", [])
    assert top(delete(broker, "", ["t"])) == (E.INVALID_GROUP_ID, "The group id is invalid.", [])
    # __consumer_offsets does not exist until the first FindCoordinator of a group
    not_coord = (E.NOT_COORDINATOR, "This is not the correct coordinator.", [])
    assert top(alter(broker, "g", [("t", [(0, 0)])])) == not_coord
    assert top(delete(broker, "g", ["t"])) == not_coord


def test_alter_then_describe_then_delete(broker):
    tid = create(broker, "t", 2)
    assert find(broker, "g", 0).error_code == 0
    r = alter(broker, "g", [("t", [(0, 3), (7, 1)]), ("nosuch", [(0, 5)]), ("t", [(1, 2)])])
    assert (r.error_code, r.error_message) == (0, None)
    assert [(t.topic_name, t.topic_id, [(p.partition_index, p.error_code, p.error_message) for p in t.partitions])
            for t in r.responses] == [
        ("nosuch", ZERO, [(0, E.UNKNOWN_TOPIC_OR_PARTITION, "This server does not host this topic-partition.")]),
        ("t", tid, [(0, 0, None), (7, E.UNKNOWN_TOPIC_OR_PARTITION, "This server does not host this topic-partition."),
                    (1, 0, None)])]
    assert start_offsets(broker, "g") == (0, {("t", 0): 3, ("t", 1): 2})
    assert broker.share_groups.groups["g"].state == "Empty"
    r = delete(broker, "g", ["nosuch", "t"])
    assert [(t.topic_name, t.topic_id, t.error_code, t.error_message) for t in r.responses] == [
        ("t", tid, 0, None),
        ("nosuch", ZERO, E.UNKNOWN_TOPIC_OR_PARTITION, "This server does not host this topic-partition.")]
    assert start_offsets(broker, "g") == (0, {})
    r = delete(broker, "g", ["t"])
    assert [(t.topic_name, t.topic_id, t.error_code, t.error_message) for t in r.responses] == [
        ("t", ZERO, E.UNKNOWN_TOPIC_OR_PARTITION, "There is no offset information to delete.")]
    assert top(delete(broker, "nogroup", ["t"])) == (E.GROUP_ID_NOT_FOUND, "Group nogroup not found.", [])


def test_share_apis_answer_unsupported_version_while_share_version_is_0(broker, monkeypatch):
    create(broker, "t", 1)
    find(broker, "g", 0)
    monkeypatch.setattr(broker.services.metadata, "finalized_features",
                        lambda: {"metadata.version": 30, "share.version": 0})
    r = call(broker, "api_versions", av.ApiVersionsRequest(client_software_name="t", client_software_version="1"))
    assert not {91, 92} & {k.api_key for k in r.api_keys}
    assert alter(broker, "g", [("t", [(0, 0)])]).error_code == E.UNSUPPORTED_VERSION
    assert delete(broker, "g", ["t"]).error_code == E.UNSUPPORTED_VERSION


def test_find_coordinator_v6_share_key_creates_the_share_state_topic(broker):
    assert SHARE_STATE not in broker.image.topics
    tid = create(broker, "t", 1)
    key = f"g:{share_state.uuid_str(tid)}:0"
    c = find(broker, key, 2)
    # a single node creates the topic at once (Kafka: COORDINATOR_NOT_AVAILABLE on the first lookup)
    assert (c.error_code, c.node_id, c.port, c.error_message) == (0, broker.node_id, broker.advertised_port, "")
    t = broker.image.topics[SHARE_STATE]
    assert len(t.partitions) == 4 and broker.is_internal(SHARE_STATE)
    assert dict(broker.image.topic_configs.get(SHARE_STATE, {})) == {
        "cleanup.policy": "delete", "compression.type": "producer", "segment.bytes": "104857600",
        "retention.ms": "-1", "min.insync.replicas": "1"}
    assert "__consumer_offsets" not in broker.image.topics
    for bad in ("g", "", f":{share_state.uuid_str(tid)}:0", "g:notauuid:0", f"g:{share_state.uuid_str(tid)}:x"):
        assert find(broker, bad, 2).error_code == E.INVALID_REQUEST, bad


@pytest.mark.parametrize("version", [4, 5])
def test_find_coordinator_share_key_type_before_v6_is_invalid(broker, version):
    c = find(broker, "g:AAAAAAAAAAAAAAAAAAAAAA:0", 2, version)
    assert (c.error_code, c.node_id) == (E.INVALID_REQUEST, -1)
    assert SHARE_STATE not in broker.image.topics


@pytest.mark.parametrize("version", [1, 2, 3])
def test_find_coordinator_share_key_type_below_v4_is_an_error_response(broker, version):
    r = call(broker, "find_coordinator", fc.FindCoordinatorRequest(key="g:AAAAAAAAAAAAAAAAAAAAAA:0", key_type=2),
             version)
    assert (r.error_code, r.error_message, r.node_id, r.port) == (E.INVALID_REQUEST, E.INVALID_REQUEST.message, -1, -1)


@pytest.mark.parametrize("version", [5, 6])
def test_find_coordinator_v5_v6_group_and_transaction_keys_as_v4(broker, version):
    for key_type in (0, 1):
        for key in ("x", ""):  # Kafka 4.3 coordinates an empty key too
            c = find(broker, key, key_type, version)
            assert (c.key, c.error_code, c.node_id, c.error_message) == (key, 0, broker.node_id, "")
    c = find(broker, "x", 3, version)
    assert (c.error_code, c.error_message) == (E.INVALID_REQUEST, E.INVALID_REQUEST.message)


def test_describe_offsets_lag_is_not_clamped_and_a_classic_group_has_no_share_state(broker):
    create(broker, "t", 2)
    find(broker, "g", 0)
    alter(broker, "g", [("t", [(0, 3), (1, -1)])])
    r = call(broker, "describe_share_group_offsets", ds.DescribeShareGroupOffsetsRequest(groups=[
        ds.DescribeShareGroupOffsetsRequestGroup(group_id="g", topics=None)]))
    # as Kafka 4.3: an SPSO past the high watermark (0) shows a negative lag; -1 (uninitialized) no lag
    assert [(p.partition_index, p.start_offset, p.lag) for p in r.groups[0].topics[0].partitions] == \
        [(0, 3, -3), (1, -1, -1)]
    broker.groups.groups["classic"] = object()  # any group of another type
    r = call(broker, "describe_share_group_offsets", ds.DescribeShareGroupOffsetsRequest(groups=[
        ds.DescribeShareGroupOffsetsRequestGroup(group_id="classic", topics=None)]))
    assert (r.groups[0].error_code, r.groups[0].topics) == (0, [])
