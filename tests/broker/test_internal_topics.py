"""The internal topics are created on first use, as Apache Kafka 4.3 does (checked side by side
with it): a fresh broker has none, group and transaction APIs answer NOT_COORDINATOR (ListGroups
and ListTransactions: nothing) until the first FindCoordinator of their kind creates the topic
with the coordinator's partitions and configs, and Metadata naming one creates it too. A fresh
broker's stop has no partition logs to close; a restart loads what the coordinators wrote."""
from __future__ import annotations

import importlib
import os

import pytest

from odradek.api_handlers.context import RequestContext
from odradek.config import BrokerConfig
from odradek.wire.errors import ErrorCode as E
from odradek.wire.messages import (create_topics_request as ct, describe_groups_request as dg,
                                   find_coordinator_request as fc, init_producer_id_request as ip,
                                   join_group_request as jg, list_groups_request as lg,
                                   list_transactions_request as lt, metadata_request as md,
                                   offset_commit_request as oc, offset_fetch_request as of)

OFFSETS, TXN = "__consumer_offsets", "__transaction_state"


class Clock:
    def __init__(self):
        self.now = 1_000_000

    def __call__(self) -> int:
        return self.now


def start_broker(data_dir) -> "Broker":  # noqa: F821
    from odradek.broker.broker import Broker

    cfg = BrokerConfig.from_properties({"listeners": "PLAINTEXT://127.0.0.1:0", "log.dirs": str(data_dir),
                                        "offsets.topic.num.partitions": "3",
                                        "transaction.state.log.num.partitions": "2"})
    b = Broker(cfg, Clock(), lambda delay, fn: None)
    b.start()
    return b


@pytest.fixture
def broker(tmp_path):
    b = start_broker(tmp_path)
    yield b
    b.close()


def call(b, module: str, req, version: int | None = None):
    mod = importlib.import_module(f"odradek.api_handlers.{module}")
    ctx = RequestContext(api_key=mod.API_KEY, api_version=mod.MAX_VERSION if version is None else version,
                         correlation_id=1, client_id="test", now_ms=b.clock_ms(), services=b.services,
                         client_host="127.0.0.1")
    resp = mod.handle(ctx, req)  # read as a client reads it (Metadata sends cached topic encodings)
    return resp.plain(ctx.api_version) if resp is not None else resp


def find(b, key: str, key_type: int):
    c = call(b, "find_coordinator", fc.FindCoordinatorRequest(key_type=key_type, coordinator_keys=[key])).coordinators[0]
    return c.error_code, c.node_id


def commit(b, group: str, offset: int):
    req = oc.OffsetCommitRequest(group_id=group, generation_id_or_member_epoch=-1, member_id="", topics=[
        oc.OffsetCommitRequestTopic(name="t", partitions=[oc.OffsetCommitRequestPartition(
            partition_index=0, committed_offset=offset)])])
    return call(b, "offset_commit", req, 9).topics[0].partitions[0].error_code  # by name: v9 (v10 is by id)


def fetch_offset(b, group: str):
    req = of.OffsetFetchRequest(group_id=group, topics=[of.OffsetFetchRequestTopic(name="t", partition_indexes=[0])])
    r = call(b, "offset_fetch", req, 7)
    return r.error_code, r.topics[0].partitions[0].committed_offset if r.topics else None


def overrides(b, topic: str) -> dict:
    """The topic's own configs (Kafka's DYNAMIC_TOPIC_CONFIG entries)."""
    return dict(b.image.topic_configs.get(topic, {}))


def create_t(b):
    r = call(b, "create_topics", ct.CreateTopicsRequest(topics=[ct.CreatableTopic(
        name="t", num_partitions=1, replication_factor=1)], timeout_ms=1000))
    assert r.topics[0].error_code == 0


def test_fresh_broker_has_no_internal_topics_and_stops_without_partition_logs(tmp_path):
    b = start_broker(tmp_path)
    assert call(b, "metadata", md.MetadataRequest(topics=None)).topics == []
    assert b.log_manager.list() == [] and b.groups is not None and b.txn_coordinator is not None
    b.close()
    assert [n for n in os.listdir(tmp_path) if n.startswith("__")] == []


def test_group_and_txn_apis_answer_not_coordinator_before_the_topics_exist(broker):
    create_t(broker)
    assert commit(broker, "g", 5) == E.NOT_COORDINATOR
    assert fetch_offset(broker, "g") == (E.NOT_COORDINATOR, None)
    join = call(broker, "join_group", jg.JoinGroupRequest(
        group_id="g", session_timeout_ms=10000, rebalance_timeout_ms=10000, member_id="", protocol_type="consumer",
        protocols=[jg.JoinGroupRequestProtocol(name="range", metadata=b"")]))
    assert (join.error_code, join.member_id, join.generation_id) == (E.NOT_COORDINATOR, "", -1)
    assert call(broker, "describe_groups", dg.DescribeGroupsRequest(groups=["g"])).groups[0].error_code == \
        E.NOT_COORDINATOR
    assert call(broker, "list_groups", lg.ListGroupsRequest()).groups == []
    pid = call(broker, "init_producer_id", ip.InitProducerIdRequest(transactional_id="tx", transaction_timeout_ms=60000))
    assert pid.error_code == E.NOT_COORDINATOR  # InitProducerId does not create __transaction_state
    assert call(broker, "list_transactions", lt.ListTransactionsRequest()).transaction_states == []
    assert set(broker.image.topics) == {"t"} and not broker.groups.groups


def test_first_find_coordinator_creates_the_topic_with_the_coordinators_settings(broker):
    assert find(broker, "g", 0) == (0, broker.node_id)  # created at once: no COORDINATOR_NOT_AVAILABLE round
    topic = broker.image.topics[OFFSETS]
    assert len(topic.partitions) == 3 and TXN not in broker.image.topics
    assert overrides(broker, OFFSETS) == broker.internal_topic_specs()[OFFSETS][1]
    assert all(broker.replicas.get(OFFSETS, p).config.compact for p in range(3))
    assert find(broker, "tx", 1) == (0, broker.node_id)
    assert len(broker.image.topics[TXN].partitions) == 2
    assert overrides(broker, TXN) == {
        "cleanup.policy": "compact", "compression.type": "uncompressed", "segment.bytes": "104857600",
        "min.insync.replicas": "1", "unclean.leader.election.enable": "false"}
    pid = call(broker, "init_producer_id", ip.InitProducerIdRequest(transactional_id="tx", transaction_timeout_ms=60000))
    assert pid.error_code == 0


def test_metadata_naming_an_internal_topic_creates_it_like_kafka(broker):
    req = md.MetadataRequest(topics=[md.MetadataRequestTopic(name=TXN)], allow_auto_topic_creation=True)
    first = call(broker, "metadata", req).topics[0]
    assert (first.error_code, first.is_internal) == (E.UNKNOWN_TOPIC_OR_PARTITION, True)
    second = call(broker, "metadata", req).topics[0]
    assert (second.error_code, second.is_internal, len(second.partitions)) == (0, True, 2)
    assert overrides(broker, TXN) == broker.internal_topic_specs()[TXN][1]
    no_auto = md.MetadataRequest(topics=[md.MetadataRequestTopic(name=OFFSETS)], allow_auto_topic_creation=False)
    assert call(broker, "metadata", no_auto).topics[0].error_code == E.UNKNOWN_TOPIC_OR_PARTITION
    assert OFFSETS not in broker.image.topics


def test_restart_loads_what_was_committed_after_the_lazy_creation(tmp_path):
    b = start_broker(tmp_path)
    create_t(b)
    assert find(b, "g", 0)[0] == 0 and commit(b, "g", 42) == 0
    b.close()
    b = start_broker(tmp_path)
    try:
        assert fetch_offset(b, "g") == (0, 42)  # loaded at start-up, no FindCoordinator needed
        assert [g[0] for g in b.groups.list_groups()] == ["g"]
    finally:
        b.close()
