"""Kafka 4.3's bound on the records of one controller operation (QuorumController.MAX_RECORDS_PER_USER_OP,
10,000: the BoundedList each manager builds its records in), on 1 controller + 2 brokers of real
processes (`--cluster-kafka`: Apache Kafka 4.3's, the reference answers):

- AlterPartitionReassignments catches the overflow per partition (ReplicationControlManager
  alterPartitionReassignments' catch Throwable): the partitions whose change would be the 10,001st
  record on are answered UNKNOWN_SERVER_ERROR without a message, the first 10,000 are written.
- ElectLeaders does not: the operation fails, answered as a failed controller operation
  (EventHandlerExceptionInfo: POLICY_VIOLATION 'Unable to perform excessively large batch operation.')
  through ElectLeadersRequest.getErrorResponse: the top-level error and every named partition;
  nothing is elected. For all partitions (null) the answer names none.
- IncrementalAlterConfigs and AlterConfigs do not either: every resource the controller was given is
  answered POLICY_VIOLATION with that message (validate_only too); nothing is written.

Two topics of 5,001 partitions with replicas [a, b]: a reassignment to [b, a] is one record per
partition (it completes at once: the ISR holds both), and leaves a leading where b is preferred: one
record per preferred election. Leader rebalancing is off, so that only the requests elect."""

from __future__ import annotations

from collections import Counter

import pytest

from harness import RawClient
from odradek.wire.messages.alter_configs_request import AlterableConfig as LegacyConfig
from odradek.wire.messages.alter_configs_request import AlterConfigsRequest
from odradek.wire.messages.alter_configs_request import AlterConfigsResource as LegacyResource
from odradek.wire.messages.alter_partition_reassignments_request import (AlterPartitionReassignmentsRequest,
                                                                         ReassignablePartition, ReassignableTopic)
from odradek.wire.messages.create_topics_request import (CreatableReplicaAssignment, CreatableTopic,
                                                         CreateTopicsRequest)
from odradek.wire.messages.elect_leaders_request import ElectLeadersRequest, TopicPartitions
from odradek.wire.messages.incremental_alter_configs_request import (AlterableConfig, AlterConfigsResource,
                                                                     IncrementalAlterConfigsRequest)
from cluster import running_cluster

pytestmark = pytest.mark.timeout(900)  # 20,004 replicas on two brokers of a loaded 2-core machine

BOUND = 10000
PER_TOPIC = 5001  # two topics: 10,002 partitions
POLICY_VIOLATION, UNKNOWN_SERVER_ERROR, INVALID_REQUEST = 44, -1, 42
TOO_LARGE = "Unable to perform excessively large batch operation."
TOPIC = 2
# 20 topic configs with a value that is not their default: 20 ConfigRecords per topic
CONFIGS = {
    "retention.ms": "86400001", "retention.bytes": "1073741825", "segment.ms": "3600001",
    "segment.bytes": "16777217", "segment.index.bytes": "1048577", "segment.jitter.ms": "7",
    "flush.messages": "100001", "flush.ms": "100001", "index.interval.bytes": "4097",
    "max.message.bytes": "1000001", "min.cleanable.dirty.ratio": "0.51", "delete.retention.ms": "86400002",
    "min.compaction.lag.ms": "3", "max.compaction.lag.ms": "86400003", "file.delete.delay.ms": "60001",
    "message.timestamp.before.max.ms": "86400004", "message.timestamp.after.max.ms": "3600002",
    "compression.type": "gzip", "unclean.leader.election.enable": "true", "preallocate": "true",
}
EXTRA = ("compression.gzip.level", "5")


@pytest.fixture(scope="module")
def cluster(tmp_path_factory, request):
    # a broker busy with 20,004 replicas on a loaded machine must neither miss its session (fenced,
    # its leaderships would move) nor leave ISRs (then it cannot be elected): long ones, not FAST's
    with running_cluster(tmp_path_factory.mktemp("bounds"), request.config, 1, 2,
                         {"auto.leader.rebalance.enable": "false", "broker.session.timeout.ms": "60000",
                          "broker.heartbeat.interval.ms": "2000", "replica.lag.time.max.ms": "300000"}) as c:
        yield c


def _call(port: int, request, version: int):
    c = RawClient(f"127.0.0.1:{port}", timeout=180)
    try:
        return c.call(request, version)
    finally:
        c.close()


def _reassign(port: int, parts: list[tuple[str, int]], target: list[int]) -> list[tuple]:
    by_topic: dict[str, list[int]] = {}
    for t, p in parts:
        by_topic.setdefault(t, []).append(p)
    r = _call(port, AlterPartitionReassignmentsRequest(timeout_ms=120000, topics=[
        ReassignableTopic(name=t, partitions=[ReassignablePartition(partition_index=p, replicas=target) for p in ps])
        for t, ps in by_topic.items()]), 0)
    assert r.error_code == 0
    return [(t.name, p.partition_index, p.error_code, p.error_message) for t in r.responses for p in t.partitions]


def _elect(port: int, parts: list[tuple[str, int]] | None):
    by_topic: dict[str, list[int]] = {}
    for t, p in parts or ():
        by_topic.setdefault(t, []).append(p)
    r = _call(port, ElectLeadersRequest(election_type=0, timeout_ms=120000, topic_partitions=None if parts is None else [
        TopicPartitions(topic=t, partitions=ps) for t, ps in by_topic.items()]), 2)
    got = r.error_code, [(t.topic, p.partition_id, p.error_code, p.error_message)
                         for t in r.replica_election_results for p in t.partition_result]
    print("ElectLeaders of", "all" if parts is None else len(parts), "partitions:", got[0],
          Counter((code, msg) for _, _, code, msg in got[1]))
    return got


def test_reassignments_past_the_bound_fail_each_and_elections_refuse_whole(cluster, topic_name):
    a, b = sorted(n.id for n in cluster.brokers)
    port = cluster.brokers[0].port
    topics = [f"{topic_name}-{i}" for i in range(2)]
    for t in topics:  # 5,002 records each: under the bound
        r = _call(port, CreateTopicsRequest(timeout_ms=120000, topics=[CreatableTopic(
            name=t, num_partitions=-1, replication_factor=-1,
            assignments=[CreatableReplicaAssignment(partition_index=p, broker_ids=[a, b]) for p in range(PER_TOPIC)])]),
            7)
        assert [(x.name, x.error_code) for x in r.topics] == [(t, 0)]
    parts = [(t, p) for t in topics for p in range(PER_TOPIC)]
    # (each answer comes once the controller committed its records: the requests below are decided on
    # the controller's state whatever the brokers have applied of it - 20,004 replicas take them minutes
    # on a loaded 2-core machine)

    # one request for 10,002 partitions: 10,000 reassigned, the two after fail (nothing else changes)
    got = _reassign(port, parts, [b, a])
    assert got == [(t, p, 0, None) for t, p in parts[:BOUND]] + [(t, p, UNKNOWN_SERVER_ERROR, None)
                                                                  for t, p in parts[BOUND:]]
    assert _reassign(port, parts[BOUND:], [b, a]) == [(t, p, 0, None) for t, p in parts[BOUND:]]

    # 10,002 preferred elections (a leads, b is preferred): the whole request refused, nothing elected
    assert _elect(port, parts) == (POLICY_VIOLATION, [(t, p, POLICY_VIOLATION, TOO_LARGE) for t, p in parts])
    assert _elect(port, None) == (POLICY_VIOLATION, [])
    # fewer fit: each still needed its election. (Not 10,000: Kafka 4.3 splits the records of an
    # operation that need not be atomic, as ElectLeaders', into batches of 10,000 and then appends the
    # empty rest - 'Append failed because there are no records', a controller fault: it resigns and the
    # request is answered UNKNOWN_SERVER_ERROR; QuorumController.appendRecords. odradek elects them.)
    assert _elect(port, parts[:BOUND - 1]) == (0, [(t, p, 0, None) for t, p in parts[:BOUND - 1]])
    assert _elect(port, parts[BOUND - 1:]) == (0, [(t, p, 0, None) for t, p in parts[BOUND - 1:]])


def _config_topics(port: int, prefix: str, n: int) -> list[str]:
    names = [f"{prefix}-c{i}" for i in range(n)]
    r = _call(port, CreateTopicsRequest(timeout_ms=120000, topics=[
        CreatableTopic(name=t, num_partitions=1, replication_factor=1) for t in names]), 7)
    assert all(x.error_code == 0 for x in r.topics)
    return names


def _incremental(port: int, resources, validate_only: bool = False) -> list[tuple]:
    r = _call(port, IncrementalAlterConfigsRequest(validate_only=validate_only, resources=[
        AlterConfigsResource(resource_type=rtype, resource_name=name,
                             configs=[AlterableConfig(name=k, config_operation=0, value=v) for k, v in kvs])
        for rtype, name, kvs in resources]), 1)
    return [(x.resource_type, x.resource_name, x.error_code, x.error_message) for x in r.responses]


def test_config_changes_past_the_bound_refuse_every_resource(cluster, topic_name):
    port = cluster.brokers[0].port
    names = _config_topics(port, topic_name, BOUND // len(CONFIGS))  # 500 topics x 20 configs: the bound itself
    every = [(TOPIC, t, list(CONFIGS.items())) for t in names]
    # one record more: every resource refused, validate_only or not; a resource the broker refuses
    # before forwarding (duplicate keys) keeps its own error
    over = every[:-1] + [(TOPIC, names[-1], list(CONFIGS.items()) + [EXTRA])]
    bad = (TOPIC, names[0] + "-dup", [("retention.ms", "1"), ("retention.ms", "2")])
    refused = [(TOPIC, t, POLICY_VIOLATION, TOO_LARGE) for t in names]
    for validate_only in (True, False):
        assert _incremental(port, over + [bad], validate_only) == refused + [
            (TOPIC, bad[1], INVALID_REQUEST, "Error due to duplicate config keys")]
    described = _call(port, _describe(names[-1]), 4)
    assert not [c for c in described.results[0].configs if c.name in CONFIGS and c.value == CONFIGS[c.name]]
    # the legacy AlterConfigs is bounded alike
    r = _call(port, AlterConfigsRequest(resources=[
        LegacyResource(resource_type=TOPIC, resource_name=name,
                       configs=[LegacyConfig(name=k, value=v) for k, v in kvs]) for _, name, kvs in over]), 2)
    assert [(x.resource_type, x.resource_name, x.error_code, x.error_message) for x in r.responses] == refused
    # the bound itself is written
    assert _incremental(port, every) == [(TOPIC, t, 0, None) for t in names]


def _describe(name: str):
    from odradek.wire.messages.describe_configs_request import DescribeConfigsRequest, DescribeConfigsResource
    return DescribeConfigsRequest(resources=[DescribeConfigsResource(resource_type=TOPIC, resource_name=name,
                                                                     configuration_keys=None)])
