"""OffsetCommit v10 / OffsetFetch v10 (topics by id, KIP-848) and Fetch v17/v18 over the raw
protocol: the edge cases stock clients never send (unknown and zero ids, partitions the topic
lacks, duplicate topics, a group that does not exist, a topic deleted and re-created), with the
answers Apache Kafka 4.3 gives. Every test passes against Kafka too:
`python compat_tests/run_against_kafka.py -q -k offsets_by_topic_id`."""

from __future__ import annotations

import time
import uuid

import pytest

from harness import RawClient, create_topic
from odradek.wire import records
from odradek.wire.errors import ErrorCode as E
from odradek.wire.messages.api_versions_request import ApiVersionsRequest
from odradek.wire.messages.delete_topics_request import DeleteTopicsRequest, DeleteTopicState
from odradek.wire.messages.fetch_request import FetchPartition, FetchRequest, FetchTopic
from odradek.wire.messages.find_coordinator_request import FindCoordinatorRequest
from odradek.wire.messages.join_group_request import JoinGroupRequest, JoinGroupRequestProtocol
from odradek.wire.messages.metadata_request import MetadataRequest, MetadataRequestTopic
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
from odradek.wire.messages.produce_request import PartitionProduceData, ProduceRequest, TopicProduceData
from odradek.wire.messages.sync_group_request import SyncGroupRequest, SyncGroupRequestAssignment

ZERO = bytes(16)
BOGUS = uuid.uuid4().bytes


@pytest.fixture
def raw(bootstrap):
    c = RawClient(bootstrap)
    yield c
    c.close()


def topic_id(c, topic):
    md = c.call(MetadataRequest(topics=[MetadataRequestTopic(name=topic)], allow_auto_topic_creation=False), 12)
    return md.topics[0].topic_id if md.topics[0].error_code == 0 else ZERO


def P(i, offset=5, md="m"):
    return OffsetCommitRequestPartition(partition_index=i, committed_offset=offset, committed_metadata=md)


def commit(c, group, topics, version=10, gen=-1, member=""):
    r = c.call(OffsetCommitRequest(group_id=group, generation_id_or_member_epoch=gen, member_id=member,
                                   topics=topics), version)
    key = (lambda t: t.topic_id) if version >= 10 else (lambda t: t.name)
    return [(key(t), [(p.partition_index, p.error_code) for p in t.partitions]) for t in r.topics]


def fetch(c, group, topics, version=10):
    if topics is not None:
        topics = [OffsetFetchRequestTopics(topic_id=t, partition_indexes=ps) if version >= 10 else
                  OffsetFetchRequestTopics(name=t, partition_indexes=ps) for t, ps in topics]
    g = c.call(OffsetFetchRequest(groups=[OffsetFetchRequestGroup(group_id=group, topics=topics)]), version).groups[0]
    key = (lambda t: t.topic_id) if version >= 10 else (lambda t: t.name)
    return g.error_code, [(key(t), [(p.partition_index, p.committed_offset, p.error_code, p.metadata)
                                    for p in t.partitions]) for t in g.topics]


def ready_group(c, topic, group):
    """A fresh Kafka answers NOT_COORDINATOR / COORDINATOR_LOAD_IN_PROGRESS until __consumer_offsets
    is there and loaded: find the coordinator and commit once (to another group) until it answers."""
    deadline = time.monotonic() + 30
    while True:
        fc = c.call(FindCoordinatorRequest(key_type=0, coordinator_keys=[group]), 4).coordinators[0]
        if fc.error_code == 0:
            got = commit(c, "warm-" + group, [OffsetCommitRequestTopic(name=topic, partitions=[P(0, 0)])], 9)
            if got[0][1][0][1] not in (E.NOT_COORDINATOR, E.COORDINATOR_LOAD_IN_PROGRESS,
                                       E.COORDINATOR_NOT_AVAILABLE):
                return
        assert time.monotonic() < deadline, "no group coordinator"
        time.sleep(0.2)


def wait_topic_id(c, topic, gone=None):
    """The topic's id once the metadata shows it (and, after a re-creation, once it is not ``gone``)."""
    deadline = time.monotonic() + 60
    while True:
        tid = topic_id(c, topic)
        if tid != ZERO and tid != gone:
            return tid
        assert time.monotonic() < deadline, f"{topic} not in the metadata"
        time.sleep(0.1)


def eventually(fn, expected, timeout=60):
    deadline = time.monotonic() + timeout
    while (got := fn()) != expected and time.monotonic() < deadline:
        time.sleep(0.1)
    assert got == expected


def test_api_versions_advertise_kafka_43_ranges(raw):
    av = raw.call(ApiVersionsRequest(client_software_name="compat", client_software_version="1"), 3)
    ranges = {k.api_key: (k.min_version, k.max_version) for k in av.api_keys}
    assert (ranges[1], ranges[8], ranges[9]) == ((4, 18), (2, 10), (1, 10))


def test_commit_v10_unknown_ids_bad_partitions_and_kafkas_order(raw, bootstrap, topic_name):
    create_topic(bootstrap, topic_name, 2)
    t = wait_topic_id(raw, topic_name)
    g = "g-" + topic_name
    ready_group(raw, topic_name, g)
    got = commit(raw, g, [OffsetCommitRequestTopic(topic_id=BOGUS, partitions=[P(0)]),
                          OffsetCommitRequestTopic(topic_id=t, partitions=[P(0), P(7), P(1)]),
                          OffsetCommitRequestTopic(topic_id=ZERO, partitions=[P(3)]),
                          OffsetCommitRequestTopic(topic_id=t, partitions=[P(1, 9)])])
    # error topics first, in request order; the coordinator's partitions join t's entry
    assert got == [(BOGUS, [(0, E.UNKNOWN_TOPIC_ID)]),
                   (t, [(7, E.UNKNOWN_TOPIC_OR_PARTITION), (0, 0), (1, 0), (1, 0)]),
                   (ZERO, [(3, E.UNKNOWN_TOPIC_ID)])]
    # nothing to merge into: the coordinator's topics stay one per request topic
    assert commit(raw, g, [OffsetCommitRequestTopic(topic_id=t, partitions=[P(0)]),
                           OffsetCommitRequestTopic(topic_id=t, partitions=[P(1, 9)])]) == \
        [(t, [(0, 0)]), (t, [(1, 0)])]
    # by name (v9) the same shape, keyed by name
    assert commit(raw, g, [OffsetCommitRequestTopic(name="nope-" + topic_name, partitions=[P(0)]),
                           OffsetCommitRequestTopic(name=topic_name, partitions=[P(0), P(7), P(1)]),
                           OffsetCommitRequestTopic(name=topic_name, partitions=[P(1, 9)])], version=9) == [
        ("nope-" + topic_name, [(0, E.UNKNOWN_TOPIC_OR_PARTITION)]),
        (topic_name, [(7, E.UNKNOWN_TOPIC_OR_PARTITION), (0, 0), (1, 0), (1, 0)])]
    # a group that does not exist, with a generation: the coordinator's error after the id errors
    assert commit(raw, "none-" + g, [OffsetCommitRequestTopic(topic_id=t, partitions=[P(0)]),
                                     OffsetCommitRequestTopic(topic_id=BOGUS, partitions=[P(1)])],
                  gen=5, member="m") == [(BOGUS, [(1, E.UNKNOWN_TOPIC_ID)]), (t, [(0, E.GROUP_ID_NOT_FOUND)])]
    assert commit(raw, "none-" + g, [], gen=5, member="m") == []

    assert fetch(raw, g, [(BOGUS, [0]), (t, [0, 1, 7]), (ZERO, [2])]) == (0, [
        (t, [(0, 5, 0, "m"), (1, 9, 0, "m"), (7, -1, 0, "")]),
        (BOGUS, [(0, -1, E.UNKNOWN_TOPIC_ID, "")]),
        (ZERO, [(2, -1, E.UNKNOWN_TOPIC_ID, "")])])
    assert fetch(raw, g, None) == (0, [(t, [(0, 5, 0, "m"), (1, 9, 0, "m")])])
    assert fetch(raw, g, None, version=9) == (0, [(topic_name, [(0, 5, 0, "m"), (1, 9, 0, "m")])])
    assert fetch(raw, "none-" + g, [(t, [0])]) == (0, [(t, [(0, -1, 0, "")])])


def test_classic_member_commits_through_v10(raw, bootstrap, topic_name):
    """Kafka 4.3 takes a classic group member's commit by topic id (generation and member checked
    as at v9); the Java classic consumer itself still commits at v9, by name."""
    create_topic(bootstrap, topic_name, 1)
    t = wait_topic_id(raw, topic_name)
    g = "classic-" + topic_name
    ready_group(raw, topic_name, g)
    join = JoinGroupRequest(group_id=g, session_timeout_ms=30000, rebalance_timeout_ms=30000, member_id="",
                            protocol_type="consumer", protocols=[JoinGroupRequestProtocol(name="range", metadata=b"")])
    j = raw.call(join, 9)
    assert j.error_code == E.MEMBER_ID_REQUIRED
    join.member_id = j.member_id
    deadline = time.monotonic() + 60
    while (j := raw.call(join, 9)).error_code != 0:
        assert time.monotonic() < deadline, j.error_code
        time.sleep(0.1)
    s = raw.call(SyncGroupRequest(group_id=g, generation_id=j.generation_id, member_id=j.member_id,
                                  protocol_type="consumer", protocol_name="range",
                                  assignments=[SyncGroupRequestAssignment(member_id=j.member_id, assignment=b"")]), 5)
    assert s.error_code == 0
    part = [OffsetCommitRequestTopic(topic_id=t, partitions=[P(0, 11)])]
    assert commit(raw, g, part, gen=j.generation_id, member=j.member_id) == [(t, [(0, 0)])]
    assert commit(raw, g, part, gen=j.generation_id + 1, member=j.member_id) == [(t, [(0, E.ILLEGAL_GENERATION)])]
    assert commit(raw, g, part, gen=j.generation_id, member="ghost") == [(t, [(0, E.UNKNOWN_MEMBER_ID)])]
    assert fetch(raw, g, [(t, [0])]) == (0, [(t, [(0, 11, 0, "m")])])


def test_empty_group_id_commits_and_fetches(raw, bootstrap, topic_name):
    """Kafka 4.3 rejects only a null group id for OffsetCommit/OffsetFetch: "" is a group, at every version."""
    create_topic(bootstrap, topic_name, 2)
    t = wait_topic_id(raw, topic_name)
    ready_group(raw, topic_name, "")
    for v in (2, 7, 9):
        assert commit(raw, "", [OffsetCommitRequestTopic(name=topic_name, partitions=[P(0, 10 + v)])], version=v) == \
            [(topic_name, [(0, 0)])]
    assert commit(raw, "", [OffsetCommitRequestTopic(topic_id=t, partitions=[P(1, 3)])]) == [(t, [(1, 0)])]
    assert fetch(raw, "", [(t, [0, 1])]) == (0, [(t, [(0, 19, 0, "m"), (1, 3, 0, "m")])])
    assert fetch(raw, "", [(topic_name, [0])], version=8) == (0, [(topic_name, [(0, 19, 0, "m")])])
    for v in (1, 2, 7):
        r = raw.call(OffsetFetchRequest(group_id="", topics=[
            OffsetFetchRequestTopic(name=topic_name, partition_indexes=[0])]), v)
        assert (r.error_code, [(p.committed_offset, p.error_code) for x in r.topics for p in x.partitions]) == \
            (0, [(19, 0)])


def test_deleted_and_recreated_topic(raw, bootstrap, topic_name):
    create_topic(bootstrap, topic_name, 2)
    t = wait_topic_id(raw, topic_name)
    g = "g-" + topic_name
    ready_group(raw, topic_name, g)
    assert commit(raw, g, [OffsetCommitRequestTopic(topic_id=t, partitions=[P(0), P(1, 9)])]) == [(t, [(0, 0), (1, 0)])]
    r = raw.call(DeleteTopicsRequest(topics=[DeleteTopicState(name=topic_name)], timeout_ms=10000), 6)
    assert r.responses[0].error_code == 0
    deadline = time.monotonic() + 60
    while topic_id(raw, topic_name) != ZERO:
        assert time.monotonic() < deadline
        time.sleep(0.1)
    assert commit(raw, g, [OffsetCommitRequestTopic(topic_id=t, partitions=[P(0)])]) == [(t, [(0, E.UNKNOWN_TOPIC_ID)])]
    assert fetch(raw, g, [(t, [0])]) == (0, [(t, [(0, -1, E.UNKNOWN_TOPIC_ID, "")])])
    # Kafka deletes the group's offsets of the topic with it (a moment after the metadata shows the
    # deletion): by name they are gone too
    eventually(lambda: fetch(raw, g, [(topic_name, [0])], version=9), (0, [(topic_name, [(0, -1, 0, "")])]))
    assert fetch(raw, g, None) == (0, [])
    assert fetch(raw, g, None, version=9) == (0, [])

    create_topic(bootstrap, topic_name, 2)
    t2 = wait_topic_id(raw, topic_name, gone=t)
    # the offsets were committed for the old topic: the new one has none
    assert fetch(raw, g, [(t2, [0, 1])]) == (0, [(t2, [(0, -1, 0, ""), (1, -1, 0, "")])])
    assert fetch(raw, g, [(topic_name, [0, 1])], version=9) == (0, [(topic_name, [(0, -1, 0, ""), (1, -1, 0, "")])])
    assert fetch(raw, g, None) == fetch(raw, g, None, version=9) == (0, [])
    assert commit(raw, g, [OffsetCommitRequestTopic(topic_id=t2, partitions=[P(0, 1)])]) == [(t2, [(0, 0)])]
    assert fetch(raw, g, [(t2, [0])]) == (0, [(t2, [(0, 1, 0, "m")])])
    assert fetch(raw, g, None) == (0, [(t2, [(0, 1, 0, "m")])])
    assert fetch(raw, g, None, version=9) == (0, [(topic_name, [(0, 1, 0, "m")])])


@pytest.mark.parametrize("version", [16, 17, 18])
def test_consumer_fetch_v17_v18_fields_change_nothing(raw, bootstrap, topic_name, version):
    """ReplicaDirectoryId (v17) and HighWatermark (v18) are a follower's fields: a consumer's fetch
    carrying any values reads as it does at v16."""
    create_topic(bootstrap, topic_name, 1)
    t = wait_topic_id(raw, topic_name)
    batch = records.build_batch([(None, b"a"), (None, b"b")], base_timestamp=int(time.time() * 1000))
    pr = raw.call(ProduceRequest(acks=-1, timeout_ms=5000, topic_data=[TopicProduceData(
        name=topic_name, partition_data=[PartitionProduceData(index=0, records=batch)])]), 9)
    assert pr.responses[0].partition_responses[0].error_code == 0
    for hw in (9223372036854775807, -1, 0, 1):
        part = FetchPartition(partition=0, fetch_offset=0, partition_max_bytes=1 << 20,
                              replica_directory_id=uuid.uuid4().bytes, high_watermark=hw)
        r = raw.call(FetchRequest(replica_id=-1, max_wait_ms=0, min_bytes=1, max_bytes=1 << 20, isolation_level=0,
                                  session_id=0, session_epoch=-1,
                                  topics=[FetchTopic(topic_id=t, partitions=[part])], forgotten_topics_data=[]),
                     version)
        assert r.error_code == 0
        (p,) = r.responses[0].partitions
        assert (r.responses[0].topic_id, p.error_code, p.high_watermark) == (t, 0, 2)
        assert [rec.value for _, recs in records.iter_batches(bytes(p.records)) for rec in recs] == [b"a", b"b"]
    unknown = raw.call(FetchRequest(replica_id=-1, max_wait_ms=0, min_bytes=1, max_bytes=1 << 20, isolation_level=0,
                                    session_id=0, session_epoch=-1, topics=[FetchTopic(topic_id=BOGUS, partitions=[
                                        FetchPartition(partition=0, fetch_offset=0, partition_max_bytes=1 << 20,
                                                       high_watermark=5)])], forgotten_topics_data=[]), version)
    assert [(x.topic_id, [p.error_code for p in x.partitions]) for x in unknown.responses] == \
        [(BOGUS, [E.UNKNOWN_TOPIC_ID])]
