"""Kafka 4.3's bound on one controller operation's records and results (10,000: the BoundedLists of
QuorumController.MAX_RECORDS_PER_USER_OP) where a single broker meets it, answered as the real broker
answers (run this module with --bootstrap against Apache Kafka 4.3 for the reference; ElectLeaders,
AlterPartitionReassignments and the config changes: test_cluster_controller_batch_bounds.py):

- CreatePartitions: a topic whose new partitions pass the records' bound fails with
  UNKNOWN_SERVER_ERROR and no message (ReplicationControlManager.createPartitions catches the
  overflow for the topic), yet the partitions added before the overflow are written with the rest:
  the topic grows by what fitted; more than 10,000 topics fail the controller's operation: every
  topic of the request is answered POLICY_VIOLATION 'Unable to perform excessively large batch
  operation.', nothing written;
- AlterClientQuotas: more than 10,000 quota records fail the operation: every entry answered
  POLICY_VIOLATION with the error's default message (AlterClientQuotasRequest.getErrorResponse)."""

from __future__ import annotations

from harness import RawClient, wait_for_topic

from odradek.wire.messages.alter_client_quotas_request import (AlterClientQuotasRequest, EntityData, EntryData,
                                                               OpData)
from odradek.wire.messages.create_partitions_request import CreatePartitionsRequest, CreatePartitionsTopic
from odradek.wire.messages.create_topics_request import CreatableTopic, CreateTopicsRequest
from odradek.wire.messages.metadata_request import MetadataRequest, MetadataRequestTopic

BOUND = 10000
POLICY_VIOLATION, UNKNOWN_SERVER_ERROR = 44, -1
TOO_LARGE = "Unable to perform excessively large batch operation."
POLICY_DEFAULT = "Request parameters do not satisfy the configured policy."


def _call(bootstrap: str, request, version: int):
    c = RawClient(bootstrap, timeout=180)
    try:
        return c.call(request, version)
    finally:
        c.close()


def _grow(bootstrap: str, counts: list[tuple[str, int]], validate_only: bool) -> list[tuple]:
    r = _call(bootstrap, CreatePartitionsRequest(timeout_ms=120000, validate_only=validate_only, topics=[
        CreatePartitionsTopic(name=n, count=c, assignments=None) for n, c in counts]), 3)
    return sorted((t.name, t.error_code, t.error_message) for t in r.results)  # (Kafka's: in hash order)


def _partitions(bootstrap: str, names: list[str]) -> list[int]:
    md = _call(bootstrap, MetadataRequest(topics=[MetadataRequestTopic(name=n) for n in names],
                                          allow_auto_topic_creation=False), 12)
    got = {t.name: len(t.partitions) for t in md.topics}
    return [got[n] for n in names]


def test_partitions_past_the_bound_fail_their_topic_and_those_that_fit_are_written(bootstrap, topic_name):
    """One topic grows by 10,001 partitions: 10,000 are written, the topic answered UNKNOWN_SERVER_ERROR.
    (Kafka's controller takes a request's topics in the order of a HashSet of their names, so which
    of several topics meets the bound is Java's hash order: odradek takes them in request order.)"""
    a, y = (f"{topic_name}-{s}" for s in "ay")
    r = _call(bootstrap, CreateTopicsRequest(timeout_ms=60000, topics=[
        CreatableTopic(name=n, num_partitions=1, replication_factor=1) for n in (a, y)]), 7)
    assert [t.error_code for t in r.topics] == [0, 0]
    for n in (a, y):
        wait_for_topic(bootstrap, n, 1, timeout=180)
    asked = [(a, BOUND + 2), (y, 1)]  # y: no increase, its own error (it adds no record)
    answer = sorted([(a, UNKNOWN_SERVER_ERROR, None), (y, 37, "Topic already has 1 partition(s).")])
    assert _grow(bootstrap, asked, validate_only=True) == answer
    assert _partitions(bootstrap, [a, y]) == [1, 1]
    assert _grow(bootstrap, asked, validate_only=False) == answer
    wait_for_topic(bootstrap, a, BOUND + 1, timeout=180)  # (Kafka's broker applies them after the answer)
    assert _partitions(bootstrap, [a, y]) == [BOUND + 1, 1]


def test_more_topics_than_the_bound_refuse_the_request_whole(bootstrap, topic_name):
    names = sorted(f"{topic_name}-n{i}" for i in range(BOUND + 1))
    assert _grow(bootstrap, [(n, 2) for n in names], validate_only=False) == [
        (n, POLICY_VIOLATION, TOO_LARGE) for n in names]


def _quotas(bootstrap: str, clients: list[str], remove: bool = False, validate_only: bool = False) -> list[tuple]:
    r = _call(bootstrap, AlterClientQuotasRequest(validate_only=validate_only, entries=[
        EntryData(entity=[EntityData(entity_type="client-id", entity_name=c)],
                  ops=[OpData(key="producer_byte_rate", value=1048576.0, remove=remove)]) for c in clients]), 1)
    return sorted((e.entity[0].entity_name, e.error_code, e.error_message) for e in r.entries)  # (Kafka's: hash order)


def test_more_quota_records_than_the_bound_refuse_the_request_whole(bootstrap, topic_name):
    clients = sorted(f"{topic_name}-{i}" for i in range(BOUND + 1))
    for validate_only in (True, False):
        assert _quotas(bootstrap, clients, validate_only=validate_only) == [
            (c, POLICY_VIOLATION, POLICY_DEFAULT) for c in clients]
    # the bound itself is written (and removed again: as many records)
    assert _quotas(bootstrap, clients[:BOUND]) == [(c, 0, None) for c in clients[:BOUND]]
    assert _quotas(bootstrap, clients[:BOUND], remove=True) == [(c, 0, None) for c in clients[:BOUND]]
