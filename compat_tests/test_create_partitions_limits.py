"""Kafka 4.3's bounds on one CreatePartitions request, answered as the real broker answers them (run
this module with --bootstrap against Apache Kafka 4.3 for the reference). Its controller builds the
records and the results in BoundedLists of 10,000 (QuorumController.MAX_RECORDS_PER_USER_OP):

- a topic whose new partitions pass the records' bound fails with UNKNOWN_SERVER_ERROR and no message
  (ReplicationControlManager.createPartitions catches the overflow for the topic), yet the partitions
  added before the overflow are written with the rest: the topic grows by what fitted;
- more than 10,000 topics fail the controller's operation: every topic of the request is answered
  POLICY_VIOLATION 'Unable to perform excessively large batch operation.', nothing written."""

from __future__ import annotations

from harness import RawClient

from odradek.wire.messages.create_partitions_request import CreatePartitionsRequest, CreatePartitionsTopic
from odradek.wire.messages.create_topics_request import CreatableTopic, CreateTopicsRequest
from odradek.wire.messages.metadata_request import MetadataRequest, MetadataRequestTopic

BOUND = 10000
POLICY_VIOLATION, UNKNOWN_SERVER_ERROR = 44, -1
TOO_LARGE = "Unable to perform excessively large batch operation."


def _call(bootstrap: str, request, version: int):
    c = RawClient(bootstrap, timeout=180)
    try:
        return c.call(request, version)
    finally:
        c.close()


def _grow(bootstrap: str, counts: list[tuple[str, int]], validate_only: bool) -> list[tuple]:
    r = _call(bootstrap, CreatePartitionsRequest(timeout_ms=120000, validate_only=validate_only, topics=[
        CreatePartitionsTopic(name=n, count=c, assignments=None) for n, c in counts]), 3)
    return [(t.name, t.error_code, t.error_message) for t in r.results]


def _partitions(bootstrap: str, names: list[str]) -> list[int]:
    md = _call(bootstrap, MetadataRequest(topics=[MetadataRequestTopic(name=n) for n in names],
                                          allow_auto_topic_creation=False), 12)
    got = {t.name: len(t.partitions) for t in md.topics}
    return [got[n] for n in names]


def test_partitions_past_the_bound_fail_their_topic_and_those_that_fit_are_written(bootstrap, topic_name):
    a, b, x = (f"{topic_name}-{s}" for s in "abx")
    r = _call(bootstrap, CreateTopicsRequest(timeout_ms=60000, topics=[
        CreatableTopic(name=n, num_partitions=1, replication_factor=1) for n in (a, b, x)]), 7)
    assert [t.error_code for t in r.topics] == [0, 0, 0]
    # a: 9,997 new partitions, b: 5 of which 3 fit, x: 1 that does not
    asked = [(a, BOUND - 2), (b, 6), (x, 2)]
    answer = [(a, 0, None), (b, UNKNOWN_SERVER_ERROR, None), (x, UNKNOWN_SERVER_ERROR, None)]
    assert _grow(bootstrap, asked, validate_only=True) == answer
    assert _partitions(bootstrap, [a, b, x]) == [1, 1, 1]
    assert _grow(bootstrap, asked, validate_only=False) == answer
    assert _partitions(bootstrap, [a, b, x]) == [BOUND - 2, 4, 1]


def test_more_topics_than_the_bound_refuse_the_request_whole(bootstrap, topic_name):
    names = [f"{topic_name}-n{i}" for i in range(BOUND + 1)]
    assert _grow(bootstrap, [(n, 2) for n in names], validate_only=False) == [
        (n, POLICY_VIOLATION, TOO_LARGE) for n in names]
