"""The deny matrix of issue 22: for each API a client can call, principal bob without the ACL it needs is
refused with Kafka's error and nothing changes (the state each row names is read back by the super
user), then with the ACL granted the same request is served (no authorization error; a row with a state
sees it change). A filtering API (ListGroups, ListTransactions) shows bob only what he may describe; a
row with ACLs given beforehand checks the next step (the topics after the group). Each refusal carries
Kafka 4.3's messages (MESSAGES). Raw requests over
SASL_PLAINTEXT PLAIN, one row per API, rows run in order (the transaction rows use the producer id bob's
InitProducerId got). Runs against Apache Kafka 4.3 configured alike when ODRADEK_ACL_REF_BOOTSTRAP names
its SASL_PLAINTEXT listener (see test_acls.py; every ACL of User:bob there is removed first and last)."""

from __future__ import annotations

import os
import re
import sys
import time
import uuid
from dataclasses import dataclass, field
from typing import Callable

import pytest

from harness import BrokerProcess, RawClient, free_port
from odradek.wire import records
from odradek.wire.api import request_class

JAAS = ('org.apache.kafka.common.security.plain.PlainLoginModule required username="admin" '
        'password="admin-secret" user_admin="admin-secret" user_bob="bob-secret";')
REF = os.environ.get("ODRADEK_ACL_REF_BOOTSTRAP")
AUTH_ERRORS = {29, 30, 31, 53}  # TOPIC_, GROUP_, CLUSTER_, TRANSACTIONAL_ID_AUTHORIZATION_FAILED
TOPIC, GROUP, CLUSTER, TXN = 2, 3, 4, 5  # ACL resource types
READ, WRITE, CREATE, DELETE, ALTER, DESCRIBE = 3, 4, 5, 6, 7, 8
DESCRIBE_CONFIGS, ALTER_CONFIGS, IDEMPOTENT_WRITE = 10, 11, 12
U = uuid.uuid4().hex[:8]
ANY_ACL = {"principal_filter": None, "host_filter": None}


def build(cls, d: dict):
    """A request (or nested struct) of the generated class ``cls`` from a dict of its fields."""
    mod = sys.modules[cls.__module__]
    kw = {}
    for f in cls._FIELDS:
        name, sub = f[0], f[8]
        if name not in d:
            continue
        v = d[name]
        if sub and isinstance(v, list):
            v = [build(getattr(mod, sub), x) if isinstance(x, dict) else x for x in v]
        elif sub and isinstance(v, dict):
            v = build(getattr(mod, sub), v)
        kw[name] = v
    return cls(**kw)


def error_codes(obj) -> set[int]:
    """Every error code in a response."""
    found: set[int] = set()
    if isinstance(obj, dict):
        for k, v in obj.items():
            if k.endswith("error_code") and k != "topic_config_error_code" and isinstance(v, int):
                found.add(v)
            else:
                found |= error_codes(v)
    elif isinstance(obj, list):
        for v in obj:
            found |= error_codes(v)
    return found


class Client:
    def __init__(self, bootstrap: str, user: str):
        self.raw = RawClient(bootstrap, timeout=30)
        hs = self.call(17, 1, {"mechanism": "PLAIN"})
        assert hs["error_code"] == 0, hs
        auth = self.call(36, 2, {"auth_bytes": f"\0{user}\0{user}-secret".encode()})
        assert auth["error_code"] == 0, auth

    def call(self, api_key: int, version: int, fields: dict) -> dict:
        return self.raw.call(build(request_class(api_key), fields), version).to_dict()


@dataclass
class Row:
    name: str
    api_key: int
    version: int
    request: Callable[[dict], dict]  # the shared context -> the request's fields
    grants: list  # (resource type, name, operation): the ACLs that allow it
    denied: int | None  # the error bob gets without them (None: served to everyone, as Kafka)
    state: Callable[[Client], object] | None = None  # read by the super user; unchanged when refused
    ok: set | None = field(default_factory=lambda: {0})  # the codes of a served request (None: any but a refusal)
    after: Callable[[dict, dict], None] | None = None  # keeps what a served response says in the context
    given: list = field(default_factory=list)  # ACLs bob has before: the row checks the next resource
    shows: Callable[[dict], bool] | None = None  # a filtering API: what bob sees only with the ACL
    changes: bool = True  # whether the state changes once served (False: the request fails for another reason)


def t(row: str) -> str:
    return f"dm-{U}-{row}"


def g(row: str) -> str:
    return f"dmg-{U}-{row}"


TID = f"dmt-{U}"


def one_record() -> bytes:
    return records.build_batch([(None, b"v")])


def high_watermark(a: Client, topic: str, ts: int = -1) -> int:
    r = a.call(2, 7, {"replica_id": -1, "topics": [{"name": topic, "partitions": [
        {"partition_index": 0, "timestamp": ts}]}]})
    return r["topics"][0]["partitions"][0]["offset"]


def committed(a: Client, group: str, topic: str) -> int:
    r = a.call(9, 8, {"groups": [{"group_id": group, "topics": [{"name": topic, "partition_indexes": [0]}]}]})
    parts = [p for tp in r["groups"][0]["topics"] for p in tp["partitions"]]
    return parts[0]["committed_offset"] if parts else -1


def members(a: Client, group: str) -> int:
    return len(a.call(15, 5, {"groups": [group]})["groups"][0]["members"])


def topic_partitions(a: Client, topic: str) -> int:
    r = a.call(3, 12, {"topics": [{"name": topic}], "allow_auto_topic_creation": False})
    return -1 if r["topics"][0]["error_code"] else len(r["topics"][0]["partitions"])


def topic_config(a: Client, topic: str) -> str:
    r = a.call(32, 4, {"resources": [{"resource_type": 2, "resource_name": topic,
                                      "configuration_keys": ["retention.ms"]}]})
    return r["results"][0]["configs"][0]["value"]


def acl_count(a: Client, name: str) -> int:
    r = a.call(29, 3, {"resource_type_filter": 2, "resource_name_filter": name, "pattern_type_filter": 3,
                       "operation": 1, "permission_type": 1, **ANY_ACL})
    return len(r["resources"])


def offset_commit(group: str, topic: str, offset: int = 1) -> dict:
    return {"group_id": group, "generation_id_or_member_epoch": -1, "member_id": "", "topics": [
        {"name": topic, "partitions": [{"partition_index": 0, "committed_offset": offset}]}]}


def produce(topic: str, txn: str | None = None) -> dict:
    return {"transactional_id": txn, "acks": -1, "timeout_ms": 10000, "topic_data": [
        {"name": topic, "partition_data": [{"index": 0, "records": one_record()}]}]}


def keep(*keys):
    def after(ctx, resp):
        for k in keys:
            ctx[k] = resp[k]
    return after


ROWS = [
    Row("Produce", 0, 9, lambda c: produce(t("produce")), [(TOPIC, t("produce"), WRITE)], 29,
        lambda a: high_watermark(a, t("produce"))),
    Row("Produce(transactional)", 0, 9, lambda c: {
        "transactional_id": TID + "-p", "acks": -1, "timeout_ms": 10000, "topic_data": [
            {"name": t("ptx"), "partition_data": [{"index": 0, "records": records.build_batch(
                [(None, b"v")], producer_id=1, producer_epoch=0, base_sequence=0, is_transactional=True)}]}]},
        [(TXN, TID + "-p", WRITE), (TOPIC, t("ptx"), WRITE)], 53, lambda a: high_watermark(a, t("ptx")),
        ok=None, changes=False),  # producer id 1 is not in a transaction: refused then, not appended
    Row("Fetch", 1, 12, lambda c: {"replica_id": -1, "max_wait_ms": 0, "min_bytes": 0, "max_bytes": 1 << 20,
                                   "session_epoch": -1, "topics": [{"topic": t("fetch"), "partitions": [
                                       {"partition": 0, "fetch_offset": 0, "partition_max_bytes": 1 << 20}]}]},
        [(TOPIC, t("fetch"), READ)], 29),
    Row("ListOffsets", 2, 7, lambda c: {"replica_id": -1, "topics": [{"name": t("lo"), "partitions": [
        {"partition_index": 0, "timestamp": -1}]}]}, [(TOPIC, t("lo"), DESCRIBE)], 29),
    Row("Metadata", 3, 12, lambda c: {"topics": [{"name": t("md")}], "allow_auto_topic_creation": False},
        [(TOPIC, t("md"), DESCRIBE)], 29),
    Row("OffsetCommit", 8, 8, lambda c: offset_commit(g("oc"), t("oc")),
        [(GROUP, g("oc"), READ), (TOPIC, t("oc"), READ)], 30, lambda a: committed(a, g("oc"), t("oc"))),
    Row("OffsetFetch", 9, 8, lambda c: {"groups": [{"group_id": g("of"), "topics": [
        {"name": t("of"), "partition_indexes": [0]}]}]}, [(GROUP, g("of"), DESCRIBE), (TOPIC, t("of"), DESCRIBE)], 30),
    Row("FindCoordinator(group)", 10, 4, lambda c: {"key_type": 0, "coordinator_keys": [g("fc")]},
        [(GROUP, g("fc"), DESCRIBE)], 30),
    Row("FindCoordinator(txn)", 10, 4, lambda c: {"key_type": 1, "coordinator_keys": [TID + "-fc"]},
        [(TXN, TID + "-fc", DESCRIBE)], 53),
    Row("JoinGroup", 11, 3, lambda c: {"group_id": g("join"), "session_timeout_ms": 30000,
                                       "rebalance_timeout_ms": 30000, "member_id": "", "protocol_type": "consumer",
                                       "protocols": [{"name": "range", "metadata": b""}]},
        [(GROUP, g("join"), READ)], 30, lambda a: members(a, g("join")),
        after=lambda c, r: c.update(member=r["member_id"], generation=r["generation_id"])),
    Row("SyncGroup", 14, 3, lambda c: {"group_id": g("join"), "generation_id": c.get("generation", 1),
                                       "member_id": c.get("member", "m"), "assignments": [
                                           {"member_id": c.get("member", "m"), "assignment": b""}]},
        [], 30),
    Row("Heartbeat", 12, 3, lambda c: {"group_id": g("join"), "generation_id": c.get("generation", 1),
                                       "member_id": c.get("member", "m")}, [], 30),
    Row("LeaveGroup", 13, 3, lambda c: {"group_id": g("join"), "members": [{"member_id": c.get("member", "m")}]},
        [], 30, lambda a: members(a, g("join"))),
    Row("DescribeGroups", 15, 5, lambda c: {"groups": [g("dg")]}, [(GROUP, g("dg"), DESCRIBE)], 30),
    Row("ListGroups", 16, 4, lambda c: {"states_filter": []}, [], None,
        shows=lambda r: g("of") in [x["group_id"] for x in r["groups"]]),
    Row("DeleteGroups", 42, 2, lambda c: {"groups_names": [g("del")]}, [(GROUP, g("del"), DELETE)], 30,
        lambda a: committed(a, g("del"), t("del"))),
    Row("OffsetDelete", 47, 0, lambda c: {"group_id": g("od"), "topics": [
        {"name": t("od"), "partitions": [{"partition_index": 0}]}]},
        [(GROUP, g("od"), DELETE), (TOPIC, t("od"), READ)], 30, lambda a: committed(a, g("od"), t("od"))),
    Row("ConsumerGroupHeartbeat", 68, 0, lambda c: {"group_id": g("cgh"), "member_id": "", "member_epoch": 0,
                                                   "rebalance_timeout_ms": 30000,
                                                   "subscribed_topic_names": [t("cgh")], "topic_partitions": []},
        [(GROUP, g("cgh"), READ), (TOPIC, t("cgh"), DESCRIBE)], 30),
    Row("ConsumerGroupDescribe", 69, 0, lambda c: {"group_ids": [g("cgh")]}, [(GROUP, g("cgh"), DESCRIBE)], 30,
        ok={0, 69}),  # a classic-only or missing group: GROUP_ID_NOT_FOUND
    Row("InitProducerId(idempotent)", 22, 4, lambda c: {"transactional_id": None, "transaction_timeout_ms": 60000,
                                                       "producer_id": -1,
                                                       "producer_epoch": -1},
        [(CLUSTER, "kafka-cluster", IDEMPOTENT_WRITE)], 31),
    Row("InitProducerId(transactional)", 22, 4, lambda c: {"transactional_id": TID, "transaction_timeout_ms": 60000,
                                                          "producer_id": -1, "producer_epoch": -1},
        [(TXN, TID, WRITE)], 53, after=keep("producer_id", "producer_epoch")),
    Row("AddPartitionsToTxn", 24, 3, lambda c: {
        "v3_and_below_transactional_id": TID, "v3_and_below_producer_id": c.get("producer_id", 1),
        "v3_and_below_producer_epoch": c.get("producer_epoch", 0),
        "v3_and_below_topics": [{"name": t("txn"), "partitions": [0]}]}, [(TOPIC, t("txn"), WRITE)], 53),
    Row("AddOffsetsToTxn", 25, 3, lambda c: {"transactional_id": TID, "producer_id": c.get("producer_id", 1),
                                             "producer_epoch": c.get("producer_epoch", 0), "group_id": g("txn")},
        [(GROUP, g("txn"), READ)], 53),
    Row("TxnOffsetCommit", 28, 3, lambda c: {
        "transactional_id": TID, "group_id": g("txn"), "producer_id": c.get("producer_id", 1),
        "producer_epoch": c.get("producer_epoch", 0), "generation_id": -1, "member_id": "", "topics": [
            {"name": t("txn"), "partitions": [{"partition_index": 0, "committed_offset": 0}]}]},
        [(TOPIC, t("txn"), READ)], 53),
    Row("EndTxn", 26, 3, lambda c: {"transactional_id": TID, "producer_id": c.get("producer_id", 1),
                                    "producer_epoch": c.get("producer_epoch", 0), "committed": True}, [], 53),
    Row("CreateTopics", 19, 5, lambda c: {"topics": [{"name": t("new"), "num_partitions": 1,
                                                      "replication_factor": 1}], "timeout_ms": 10000},
        [(TOPIC, t("new"), CREATE)], 29, lambda a: topic_partitions(a, t("new"))),
    Row("DeleteTopics", 20, 5, lambda c: {"topic_names": [t("gone")], "timeout_ms": 10000},
        [(TOPIC, t("gone"), DELETE)], 29, lambda a: topic_partitions(a, t("gone"))),
    Row("CreatePartitions", 37, 2, lambda c: {"topics": [{"name": t("cp"), "count": 2, "assignments": None}],
                                              "timeout_ms": 10000}, [(TOPIC, t("cp"), ALTER)], 29,
        lambda a: topic_partitions(a, t("cp"))),
    Row("DeleteRecords", 21, 2, lambda c: {"topics": [{"name": t("dr"), "partitions": [
        {"partition_index": 0, "offset": 1}]}], "timeout_ms": 10000}, [(TOPIC, t("dr"), DELETE)], 29,
        lambda a: high_watermark(a, t("dr"), -2)),
    Row("DescribeConfigs", 32, 4, lambda c: {"resources": [{"resource_type": 2, "resource_name": t("dc"),
                                                            "configuration_keys": None}]},
        [(TOPIC, t("dc"), DESCRIBE_CONFIGS)], 29),
    Row("AlterConfigs", 33, 2, lambda c: {"resources": [{"resource_type": 2, "resource_name": t("ac"), "configs": [
        {"name": "retention.ms", "value": "3600000"}]}]}, [(TOPIC, t("ac"), ALTER_CONFIGS)], 29,
        lambda a: topic_config(a, t("ac"))),
    Row("IncrementalAlterConfigs", 44, 1, lambda c: {"resources": [
        {"resource_type": 2, "resource_name": t("iac"), "configs": [
            {"name": "retention.ms", "config_operation": 0, "value": "3600000"}]}]},
        [(TOPIC, t("iac"), ALTER_CONFIGS)], 29, lambda a: topic_config(a, t("iac"))),
    Row("CreateAcls", 30, 3, lambda c: {"creations": [{"resource_type": 2, "resource_name": t("acl"),
                                                       "resource_pattern_type": 3, "principal": "User:carol",
                                                       "host": "*", "operation": READ, "permission_type": 3}]},
        [(CLUSTER, "kafka-cluster", ALTER)], 31, lambda a: acl_count(a, t("acl"))),
    Row("DescribeAcls", 29, 3, lambda c: {"resource_type_filter": 1, "resource_name_filter": None,
                                          "pattern_type_filter": 1, "operation": 1,
                                          "permission_type": 1}, [(CLUSTER, "kafka-cluster", DESCRIBE)], 31),
    Row("DeleteAcls", 31, 3, lambda c: {"filters": [{"resource_type_filter": 2, "resource_name_filter": t("acl"),
                                                     "pattern_type_filter": 3, "operation": 1,
                                                     "permission_type": 1, **ANY_ACL}]}, [], 31,
        lambda a: acl_count(a, t("acl"))),
    Row("DescribeCluster", 60, 0, lambda c: {}, [], None),
    Row("DescribeProducers", 61, 0, lambda c: {"topics": [{"name": t("dp"), "partition_indexes": [0]}]},
        [(TOPIC, t("dp"), READ)], 29),
    Row("DescribeTransactions", 65, 0, lambda c: {"transactional_ids": [TID]}, [(TXN, TID, DESCRIBE)], 53),
    Row("ListTransactions", 66, 0, lambda c: {"state_filters": [], "producer_id_filters": []},
        [(TXN, TID + "-lt", DESCRIBE)], None,
        shows=lambda r: TID + "-lt" in [x["transactional_id"] for x in r["transaction_states"]]),
    Row("ElectLeaders", 43, 2, lambda c: {"election_type": 0, "topic_partitions": [
        {"topic": t("el"), "partitions": [0]}], "timeout_ms": 10000}, [], 31, ok={0, 84}),
    Row("AlterPartitionReassignments", 45, 0, lambda c: {"timeout_ms": 10000, "topics": [
        {"name": t("el"), "partitions": [{"partition_index": 0, "replicas": None}]}]}, [], 31, ok={0, 85}),
    Row("ListPartitionReassignments", 46, 0, lambda c: {"timeout_ms": 10000, "topics": None}, [], 31),
    Row("DescribeLogDirs", 35, 4, lambda c: {"topics": None}, [], 31),
    Row("DescribeClientQuotas", 48, 1, lambda c: {"components": [], "strict": False},
        [(CLUSTER, "kafka-cluster", DESCRIBE_CONFIGS)], 31),
    Row("AlterClientQuotas", 49, 1, lambda c: {"entries": [{"entity": [{"entity_type": "user",
                                                                       "entity_name": f"q-{U}"}],
                                                           "ops": [{"key": "producer_byte_rate",
                                                                    "value": 1048576.0}]}]},
        [(CLUSTER, "kafka-cluster", ALTER_CONFIGS)], 31,
        lambda a: len(a.call(48, 1, {"components": [{"entity_type": "user", "match_type": 0,
                                                     "match": f"q-{U}"}], "strict": True})["entries"] or [])),
    Row("DescribeUserScramCredentials", 50, 0, lambda c: {"users": [{"name": "admin"}]}, [], 31, ok={0, 91}),
    Row("AlterUserScramCredentials", 51, 0, lambda c: {"deletions": [], "upsertions": [
        {"name": f"s-{U}", "mechanism": 1, "iterations": 8192, "salt": b"salt" * 4, "salted_password": b"p" * 32}]},
        [], 31, lambda a: a.call(50, 0, {"users": [{"name": f"s-{U}"}]})["results"][0]["error_code"]),
    Row("UnregisterBroker", 64, 0, lambda c: {"broker_id": 999}, [], 31,
        ok={102}),  # ALTER on the cluster; broker 999 is not registered: BROKER_ID_NOT_REGISTERED
    Row("OffsetForLeaderEpoch", 23, 4, lambda c: {"replica_id": -1, "topics": [{"topic": t("ofle"), "partitions": [
        {"partition": 0, "current_leader_epoch": -1, "leader_epoch": 0}]}]}, [(TOPIC, t("ofle"), DESCRIBE)], 29),
    Row("DescribeTopicPartitions", 75, 0, lambda c: {"topics": [{"name": t("dtp")}], "response_partition_limit": 10},
        [(TOPIC, t("dtp"), DESCRIBE)], 29),
    Row("ShareGroupHeartbeat", 76, 1, lambda c: {"group_id": g("sh"), "member_id": SHARE_MEMBER, "member_epoch": 0,
                                                "subscribed_topic_names": [t("sh")]},
        [(GROUP, g("sh"), READ), (TOPIC, t("sh"), DESCRIBE)], 30, lambda a: share_members(a, g("sh"))),
    Row("ShareGroupHeartbeat(topic)", 76, 1, lambda c: {"group_id": g("sh2"), "member_id": SHARE_MEMBER,
                                                       "member_epoch": 0, "subscribed_topic_names": [t("sh2")]},
        [(TOPIC, t("sh2"), DESCRIBE)], 29, lambda a: share_members(a, g("sh2")), given=[(GROUP, g("sh2"), READ)]),
    Row("ShareGroupDescribe", 77, 1, lambda c: {"group_ids": [g("sh")]}, [(GROUP, g("sh"), DESCRIBE)], 30),
    Row("ShareFetch", 78, 1, lambda c: share_fetch(c, g("sh")), [(TOPIC, t("sh"), READ)], 30, ok=None),
    Row("ShareFetch(topic)", 78, 1, lambda c: share_fetch(c, g("sh2")), [(TOPIC, t("sh2"), READ)], 29, ok=None,
        given=[(GROUP, g("sh2"), READ)]),
    Row("ShareAcknowledge", 79, 1, lambda c: {"group_id": g("sh"), "member_id": SHARE_MEMBER, "share_session_epoch": 1,
                                              "topics": [{"topic_id": c["ids"][t("sh")], "partitions": [
                                                  {"partition_index": 0, "acknowledgement_batches": [
                                                      {"first_offset": 0, "last_offset": 0,
                                                       "acknowledge_types": [1]}]}]}]}, [], 30, ok=None),
    Row("DescribeShareGroupOffsets", 90, 0, lambda c: {"groups": [{"group_id": g("sh"), "topics": None}]},
        [], 30, ok=None),
    Row("AlterShareGroupOffsets", 91, 0, lambda c: {"group_id": g("sho"), "topics": [
        {"topic_name": t("sh"), "partitions": [{"partition_index": 0, "start_offset": 0}]}]},
        [(GROUP, g("sho"), READ)], 30, ok=None),
    Row("DeleteShareGroupOffsets", 92, 0, lambda c: {"group_id": g("sho"), "topics": [{"topic_name": t("sh")}]},
        [(GROUP, g("sho"), DELETE)], 30, ok=None),
    Row("DescribeShareGroupOffsets(topic)", 90, 0, lambda c: {"groups": [{"group_id": g("sh2"), "topics": [
        {"topic_name": t("sh2"), "partitions": [0]}]}]}, [], 29, ok=None),
    Row("AlterShareGroupOffsets(topic)", 91, 0, lambda c: {"group_id": g("sh2"), "topics": [
        {"topic_name": t("sh2"), "partitions": [{"partition_index": 0, "start_offset": 0}]}]}, [], 29, ok=None),
    Row("DeleteShareGroupOffsets(topic)", 92, 0, lambda c: {"group_id": g("sho2"),
                                                           "topics": [{"topic_name": t("sh2")}]},
        [], 29, ok=None, given=[(GROUP, g("sho2"), DELETE)]),
    Row("StreamsGroupHeartbeat(topic)", 88, 0, lambda c: {
        "group_id": g("st2"), "member_id": SHARE_MEMBER, "member_epoch": 0, "rebalance_timeout_ms": 30000,
        "process_id": "p", "topology": {"epoch": 1, "subtopologies": [
            {"subtopology_id": "0", "source_topics": [t("st")], "source_topic_regex": [], "state_changelog_topics": [],
             "repartition_sink_topics": [], "repartition_source_topics": [], "copartition_groups": []}]},
        "active_tasks": [], "standby_tasks": [], "warmup_tasks": []},
        [(TOPIC, t("st"), DESCRIBE)], 29, ok=None, given=[(GROUP, g("st2"), READ)]),
    Row("StreamsGroupHeartbeat(create)", 88, 0, lambda c: streams_join(g("st3-" + c["phase"]), t("st3-changelog")),
        [(TOPIC, t("st3-changelog"), CREATE), (GROUP, g("st3-allow"), READ)], None,
        lambda a: topic_partitions(a, t("st3-changelog")), ok=None,
        given=[(GROUP, g("st3-deny"), READ), (TOPIC, t("st3"), DESCRIBE), (TOPIC, t("st3-changelog"), DESCRIBE)]),
    Row("StreamsGroupHeartbeat", 88, 0, lambda c: {"group_id": g("st"), "member_id": SHARE_MEMBER, "member_epoch": 0,
                                                  "rebalance_timeout_ms": 30000, "process_id": "p",
                                                  "topology": {"epoch": 1, "subtopologies": []},
                                                  "active_tasks": [], "standby_tasks": [], "warmup_tasks": []},
        [(GROUP, g("st"), READ)], 30, ok=None),
    Row("StreamsGroupDescribe", 89, 0, lambda c: {"group_ids": [g("st")]}, [(GROUP, g("st"), DESCRIBE)], 30,
        ok={0, 69}),
]
SHARE_MEMBER = "AAAAAAAAAAAAAAAAAAAAAA"


def streams_join(group: str, changelog: str) -> dict:
    """A streams member (of a new group: an existing member is not told again) whose topology has a state
    changelog topic to create."""
    return {"group_id": group, "member_id": SHARE_MEMBER, "member_epoch": 0, "rebalance_timeout_ms": 30000,
            "process_id": "p", "topology": {"epoch": 1, "subtopologies": [
                {"subtopology_id": "0", "source_topics": [t("st3")], "source_topic_regex": [],
                 "state_changelog_topics": [{"name": changelog, "partitions": 0, "replication_factor": 0,
                                             "topic_configs": []}],
                 "repartition_sink_topics": [], "repartition_source_topics": [], "copartition_groups": []}]},
            "active_tasks": [], "standby_tasks": [], "warmup_tasks": []}


def share_members(a: Client, group: str) -> int:
    r = a.call(77, 1, {"group_ids": [group]})["groups"][0]
    return len(r["members"])


def share_fetch(c: dict, group: str) -> dict:
    return {"group_id": group, "member_id": SHARE_MEMBER, "share_session_epoch": 0, "max_wait_ms": 0, "min_bytes": 1,
            "max_bytes": 1 << 20, "max_records": 10, "batch_size": 10, "topics": [
                {"topic_id": c["ids"][group.replace("dmg-", "dm-")], "partitions": [{"partition_index": 0}]}]}


# the messages of the refusals (None ones left out), as Kafka 4.3 words them; "Request <request>" stands for
# Kafka's description of the request (its processor, connection, session object, buffer), which differs
# from one request to the next
MESSAGES = {
    "FindCoordinator(group)": {"/error_message": "", "/coordinators[0]/error_message": ""},
    "FindCoordinator(txn)": {"/error_message": "", "/coordinators[0]/error_message": ""},
    "CreateTopics": {"/topics[0]/error_message": "Authorization failed."},
    "DeleteTopics": {"/responses[0]/error_message": "Topic authorization failed."},
    "DescribeConfigs": {"/results[0]/error_message": "Topic authorization failed."},
    "AlterConfigs": {"/responses[0]/error_message": "Topic authorization failed."},
    "IncrementalAlterConfigs": {"/responses[0]/error_message": "Topic authorization failed."},
    "CreateAcls": {"/results[0]/error_message": "Request <request> needs ALTER permission."},
    "DescribeAcls": {"/error_message": "Request <request> needs DESCRIBE permission."},
    "DeleteAcls": {"/filter_results[0]/error_message": "Request <request> needs ALTER permission."},
    "DescribeProducers": {"/topics[0]/partitions[0]/error_message": "Topic authorization failed."},
    "ElectLeaders": {"/replica_election_results[0]/partition_result[0]/error_message":
                     "Request <request> needs ALTER permission."},
    "AlterPartitionReassignments": {
        "/error_message": "Request <request> needs ALTER permission.",
        "/responses[0]/partitions[0]/error_message": "Request <request> needs ALTER permission."},
    "ListPartitionReassignments": {"/error_message": "Request <request> needs DESCRIBE permission."},
    "AlterClientQuotas": {"/entries[0]/error_message": "Cluster authorization failed."},
    "AlterUserScramCredentials": {"/results[0]/error_message": "Request <request> needs ALTER permission."},
    "UnregisterBroker": {"/error_message": "Request <request> needs ALTER permission."},
    "AlterShareGroupOffsets": {"/error_message": "Group authorization failed."},
    "DeleteShareGroupOffsets": {"/error_message": "Group authorization failed."},
    "DescribeShareGroupOffsets(topic)": {"/groups[0]/topics[0]/partitions[0]/error_message":
                                         "Topic authorization failed."},
    "AlterShareGroupOffsets(topic)": {"/responses[0]/partitions[0]/error_message": "Topic authorization failed."},
    "DeleteShareGroupOffsets(topic)": {"/responses[0]/error_message": "Topic authorization failed."},
}


def messages(obj, path: str = "") -> dict:
    """Every error_message in a response that is not None: path -> text, Kafka's request description
    replaced by "Request <request>"."""
    found = {}
    if isinstance(obj, dict):
        for k, v in obj.items():
            if k.endswith("error_message") and v is not None:
                found[f"{path}/{k}"] = re.sub(r"^Request Request\(.*\) needs", "Request <request> needs", v)
            elif not k.endswith("error_message"):
                found.update(messages(v, f"{path}/{k}"))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            found.update(messages(v, f"{path}[{i}]"))
    return found


def topics_to_create() -> list[str]:
    names = {"produce", "fetch", "lo", "md", "oc", "of", "del", "od", "cgh", "txn", "gone", "cp", "dr", "dc", "ac",
             "iac", "dp", "el", "ofle", "dtp", "sh", "sh2", "st", "st3", "ptx"}
    return [t(n) for n in sorted(names)]


@pytest.fixture(scope="module")
def bootstrap(tmp_path_factory):
    if REF:
        yield REF
        return
    port = free_port()
    b = BrokerProcess(str(tmp_path_factory.mktemp("acl-matrix")), {
        "listeners": f"SASL_PLAINTEXT://127.0.0.1:{port}", "sasl.enabled.mechanisms": "PLAIN",
        "listener.name.sasl_plaintext.plain.sasl.jaas.config": JAAS,
        "authorizer.class.name": "org.apache.kafka.metadata.authorizer.StandardAuthorizer",
        "super.users": "User:admin", "group.initial.rebalance.delay.ms": "0"}, port=port)
    b.start()
    try:
        yield b.bootstrap
    finally:
        b.stop()


def grant(a: Client, acls: list) -> None:
    r = a.call(30, 3, {"creations": [{"resource_type": rt, "resource_name": name, "resource_pattern_type": 3,
                                      "principal": "User:bob", "host": "*", "operation": op,
                                      "permission_type": 3} for rt, name, op in acls]})
    assert error_codes(r) == {0}, r


def without_acls(a: Client, bob: Client) -> None:
    """Removes every ACL of User:bob (a reference broker keeps those of an earlier run)."""
    r = a.call(31, 3, {"filters": [{"resource_type_filter": 1, "resource_name_filter": None, "pattern_type_filter": 1,
                                    "principal_filter": "User:bob", "host_filter": None, "operation": 1,
                                    "permission_type": 1}]})
    assert error_codes(r) == {0}, r
    deadline = time.monotonic() + 30
    while 31 not in error_codes(bob.call(29, 3, {"resource_type_filter": 1, "resource_name_filter": None,
                                                 "pattern_type_filter": 1,
                                                 "operation": 1, "permission_type": 1, **ANY_ACL})):
        assert time.monotonic() < deadline
        time.sleep(0.2)


def set_up(a: Client) -> None:
    r = a.call(19, 5, {"topics": [{"name": n, "num_partitions": 1, "replication_factor": 1}
                                  for n in topics_to_create()], "timeout_ms": 30000})
    assert error_codes(r) == {0}, r
    deadline = time.monotonic() + 30
    while any(topic_partitions(a, n) != 1 for n in topics_to_create()):
        assert time.monotonic() < deadline
        time.sleep(0.2)
    served(lambda: a.call(0, 9, produce(t("dr"))))
    for group, topic in ((g("del"), t("del")), (g("od"), t("od")), (g("of"), t("of"))):
        a.call(10, 4, {"key_type": 0, "coordinator_keys": [group]})  # Kafka creates __consumer_offsets
        served(lambda: a.call(8, 8, offset_commit(group, topic, 0)))
    served(lambda: a.call(10, 4, {"key_type": 1, "coordinator_keys": [TID]}))  # and __transaction_state
    served(lambda: a.call(22, 4, {"transactional_id": TID + "-lt", "transaction_timeout_ms": 60000,
                                  "producer_id": -1, "producer_epoch": -1}))  # ListTransactions
    for epoch in (0, -1):  # an empty share group (DeleteShareGroupOffsets(topic))
        served(lambda: a.call(76, 1, {"group_id": g("sho2"), "member_id": SHARE_MEMBER, "member_epoch": epoch,
                                      "subscribed_topic_names": [t("sh2")] if epoch == 0 else None}))


def served(call, timeout: float = 30) -> None:
    """call() until its response has no error (a new partition's leader, a coordinator loading)."""
    deadline = time.monotonic() + timeout
    while (codes := error_codes(call())) != {0}:
        assert time.monotonic() < deadline, codes
        time.sleep(0.2)


def test_deny_matrix(bootstrap):
    a = Client(bootstrap, "admin")
    set_up(a)
    bob = Client(bootstrap, "bob")
    without_acls(a, bob)
    md = a.call(3, 12, {"topics": [{"name": n} for n in topics_to_create()]})
    ctx: dict = {"ids": {tp["name"]: tp["topic_id"] for tp in md["topics"]}}
    grant(a, [acl for row in ROWS for acl in row.given])
    deadline = time.monotonic() + 30
    while error_codes(bob.call(15, 5, {"groups": [g("sh2")]})) != {0}:  # READ implies DESCRIBE
        assert time.monotonic() < deadline
        time.sleep(0.2)
    wrong = []
    before = {row.name: row.state(a) for row in ROWS if row.state}
    ctx["phase"] = "deny"
    for row in ROWS:  # without any ACL
        resp = bob.call(row.api_key, row.version, row.request(ctx))
        codes = error_codes(resp)
        if row.shows is not None and row.shows(resp):
            wrong.append(f"{row.name}: shows what bob may not describe")
        if row.denied is None:
            if codes & AUTH_ERRORS:
                wrong.append(f"{row.name}: refused {codes} (Kafka serves it to everyone)")
        elif row.denied not in codes:
            wrong.append(f"{row.name}: codes {sorted(codes)} without the ACL, expected {row.denied}")
        if messages(resp) != MESSAGES.get(row.name, {}):
            wrong.append(f"{row.name}: messages {messages(resp)}, Kafka's {MESSAGES.get(row.name, {})}")
    for row in ROWS:  # read after every refusal (a change would show in the metadata a moment later)
        if row.state and row.state(a) != before[row.name]:
            wrong.append(f"{row.name}: state changed while refused: {before[row.name]} -> {row.state(a)}")
    grants = [(rt, name, op) for row in ROWS for rt, name, op in row.grants]
    cluster_ops = {ALTER, DESCRIBE}  # ElectLeaders, reassignments, log dirs, SCRAM, DeleteAcls
    grants += [(CLUSTER, "kafka-cluster", op) for op in cluster_ops]
    grant(a, grants)
    deadline = time.monotonic() + 30  # the ACLs reach the authorizer through the metadata log
    while error_codes(bob.call(3, 12, {"topics": [{"name": t("dtp")}]})) != {0}:
        assert time.monotonic() < deadline
        time.sleep(0.2)
    ctx["phase"] = "allow"
    for row in ROWS:  # with the ACLs
        before = row.state(a) if row.state else None
        resp = bob.call(row.api_key, row.version, row.request(ctx))
        codes = error_codes(resp)
        if codes & AUTH_ERRORS if row.ok is None else not codes <= row.ok:
            wrong.append(f"{row.name}: codes {sorted(codes)} with the ACL")
        elif row.after:
            row.after(ctx, resp)
        if row.shows is not None and not row.shows(resp):
            wrong.append(f"{row.name}: does not show what bob may describe")
        if row.state and row.changes:
            deadline = time.monotonic() + 10
            while row.state(a) == before and time.monotonic() < deadline:
                time.sleep(0.1)
            if row.state(a) == before:
                wrong.append(f"{row.name}: state unchanged when served: {before}")
    without_acls(a, bob)
    print(f"\ndeny matrix: {len(ROWS)} APIs, {len(wrong)} differences")
    assert not wrong, "\n".join(wrong)


def test_a_regex_subscription_matches_only_topics_bob_may_describe(bootstrap):
    """KIP-848 SubscribedTopicRegex: the group coordinator resolves it to the matching topics the member's
    principal may DESCRIBE (Kafka 4.3's TopicRegexResolver); a matching topic bob may not describe is
    neither subscribed nor assigned."""
    a = Client(bootstrap, "admin")
    bob = Client(bootstrap, "bob")
    ok, secret, group = f"dmrx-{U}-ok", f"dmrx-{U}-secret", g("rx")
    r = a.call(19, 5, {"topics": [{"name": n, "num_partitions": 1, "replication_factor": 1} for n in (ok, secret)],
                       "timeout_ms": 30000})
    assert error_codes(r) == {0}, r
    without_acls(a, bob)
    grant(a, [(GROUP, group, READ), (TOPIC, ok, DESCRIBE)])
    deadline = time.monotonic() + 30
    while error_codes(bob.call(3, 12, {"topics": [{"name": ok}]})) != {0}:  # the ACLs reached the authorizer
        assert time.monotonic() < deadline
        time.sleep(0.2)
    ids = {tp["name"]: tp["topic_id"] for tp in a.call(3, 12, {"topics": [{"name": ok}, {"name": secret}]})["topics"]}
    member, epoch, assigned = uuid.uuid4().hex[:22], 0, None
    deadline = time.monotonic() + 30
    try:
        while not assigned:
            hb = bob.call(68, 1, {"group_id": group, "member_id": member, "member_epoch": epoch,
                                  "rebalance_timeout_ms": 30000 if epoch == 0 else -1,
                                  "subscribed_topic_regex": f"dmrx-{U}-.*" if epoch == 0 else None,
                                  "topic_partitions": [] if epoch == 0 else None})
            if hb["error_code"] in (14, 15, 16):  # the coordinator loading (Kafka creates __consumer_offsets)
                a.call(10, 4, {"key_type": 0, "coordinator_keys": [group]})
                assert time.monotonic() < deadline, hb
                time.sleep(0.2)
                continue
            assert hb["error_code"] == 0, hb
            epoch = hb["member_epoch"]
            if hb["assignment"] is not None:
                assigned = {tp["topic_id"] for tp in hb["assignment"]["topic_partitions"]}
            assert time.monotonic() < deadline, "no assignment"
            time.sleep(0.2)
        assert assigned == {ids[ok]}
        described = a.call(69, 0, {"group_ids": [group]})["groups"][0]["members"][0]
        assert {tp["topic_name"] for tp in described["assignment"]["topic_partitions"]} == {ok}
    finally:
        bob.call(68, 1, {"group_id": group, "member_id": member, "member_epoch": -1})
        without_acls(a, bob)
