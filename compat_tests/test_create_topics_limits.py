"""Kafka 4.3's bounds on one CreateTopics request, answered as the real broker answers them
(each case checked against Apache Kafka 4.3 with the same bytes: run this module with
--bootstrap against it). More than 10,000 partitions asked for in all (an assignment's size,
else the count, num.partitions for -1) refuses the whole request before any other check;
more than 10,000 records (a TopicRecord, its ConfigRecords and a PartitionRecord per
partition) refuses it whole too, with Kafka's message for an oversized controller batch.
Nothing is created either way, validate_only or not."""

from __future__ import annotations

import pytest

from harness import RawClient

from odradek.wire.messages.create_topics_request import CreatableTopic, CreateTopicsRequest
from odradek.wire.messages.metadata_request import MetadataRequest, MetadataRequestTopic

POLICY_VIOLATION = 44
TOO_MANY_PARTITIONS = "Excessively large number of partitions per request."
TOO_MANY_RECORDS = "Unable to perform excessively large batch operation."


def _topic(name: str, partitions: int) -> CreatableTopic:
    return CreatableTopic(name=name, num_partitions=partitions, replication_factor=1, assignments=[], configs=[])


def _create(bootstrap: str, topics: list, validate_only: bool) -> list[tuple]:
    c = RawClient(bootstrap, timeout=120)
    try:
        r = c.call(CreateTopicsRequest(topics=topics, timeout_ms=60000, validate_only=validate_only), 7)
    finally:
        c.close()
    return [(t.name, t.error_code, t.error_message) for t in r.topics]


def _refused(names, message: str) -> list[tuple]:
    return [(n, POLICY_VIOLATION, message) for n in names]


@pytest.mark.parametrize("spec, message", [
    ([("big", 10001)], TOO_MANY_PARTITIONS),
    # refused whole: the topics that would fit are refused with the one that does not
    ([("ok", 1), ("a", 5000), ("b", 5001)], TOO_MANY_PARTITIONS),
    # -1 counts num.partitions (1); an invalid name is counted before it is checked
    ([("d0", -1), ("d1", -1), ("d2", -1), ("d3", 9998)], TOO_MANY_PARTITIONS),
    ([("bad name", 10000), ("ok", 1)], TOO_MANY_PARTITIONS),
    # 10,000 partitions pass the count, but with their TopicRecords they are 10,002 records
    ([("e1", 5000), ("e2", 5000)], TOO_MANY_RECORDS),
    # a count below -1 counts nothing (and is INVALID_PARTITIONS on its own)
    ([("neg", -5), ("n2", 10000)], TOO_MANY_RECORDS),
], ids=["one", "whole", "default", "invalid-name", "records", "negative"])
def test_oversized_create_topics_is_refused_whole(bootstrap, topic_name, spec, message):
    names = [f"{topic_name}-{n}" for n, _ in spec]
    topics = [_topic(name, p) for name, (_, p) in zip(names, spec)]
    assert _create(bootstrap, topics, validate_only=True) == _refused(names, message)


def test_ten_thousand_topics_in_one_request_create_none(bootstrap, topic_name):
    """10,000 topics of one partition each: 20,000 records, refused whole; no topic exists after."""
    names = [f"{topic_name}-{i}" for i in range(10000)]
    got = _create(bootstrap, [_topic(n, 1) for n in names], validate_only=False)
    assert got == _refused(names, TOO_MANY_RECORDS)
    c = RawClient(bootstrap)
    try:
        probe = names[0], names[4999], names[-1]
        md = c.call(MetadataRequest(topics=[MetadataRequestTopic(name=n) for n in probe],
                                    allow_auto_topic_creation=False), 12)
    finally:
        c.close()
    assert [(t.name, t.error_code) for t in md.topics] == [(n, 3) for n in probe]  # UNKNOWN_TOPIC_OR_PARTITION


def test_the_bounds_themselves_are_accepted(bootstrap, topic_name):
    """A topic of 9,999 partitions is 10,000 records: accepted (one of 10,000 partitions is
    10,001 records, refused above). validate_only builds the records all the same, as Kafka."""
    names = [f"{topic_name}-x"]
    assert _create(bootstrap, [_topic(names[0], 9999)], validate_only=True) == [(names[0], 0, None)]


def _metadata(bootstrap: str, names: list[str], auto: bool) -> list[tuple]:
    c = RawClient(bootstrap, timeout=120)
    try:
        md = c.call(MetadataRequest(topics=[MetadataRequestTopic(name=n) for n in names],
                                    allow_auto_topic_creation=auto), 12)
    finally:
        c.close()
    return [(t.name, t.error_code) for t in md.topics]


def test_metadata_auto_creation_answers_unknown_topic_then_the_topic(bootstrap, topic_name):
    """Kafka 4.3 answers UNKNOWN_TOPIC_OR_PARTITION to the Metadata that auto-creates a topic."""
    assert _metadata(bootstrap, [topic_name], True) == [(topic_name, 3)]
    for _ in range(100):
        if _metadata(bootstrap, [topic_name], False) == [(topic_name, 0)]:
            break
    else:
        pytest.fail("the auto-created topic never appeared")
    # a name colliding with it ('.' and '_' alike) is never created and stays UNKNOWN_TOPIC_OR_PARTITION
    twin = topic_name + ".x"
    _create(bootstrap, [_topic(twin, 1)], validate_only=False)
    colliding = topic_name + "_x"
    assert _metadata(bootstrap, [colliding], True) == [(colliding, 3)]
    assert _metadata(bootstrap, [colliding], True) == [(colliding, 3)]


def test_metadata_auto_creating_too_many_topics_creates_none(bootstrap, topic_name):
    """5,001 names with num.partitions 1: 10,002 records in one CreateTopics, refused whole."""
    names = [f"{topic_name}-{i}" for i in range(5001)]
    assert sorted(_metadata(bootstrap, names, True)) == sorted((n, 3) for n in names)  # (Kafka's in any order)
    probe = [names[0], names[-1]]
    assert sorted(_metadata(bootstrap, probe, False)) == sorted((n, 3) for n in probe)


def test_a_large_request_cut_short_closes_the_connection(bootstrap, topic_name):
    """A 10,000-topic CreateTopics whose body ends half-way: the broker closes the connection, as
    Kafka does with a request it cannot parse, creates nothing and answers another client."""
    import struct

    from odradek.wire.api import encode_request

    names = [f"{topic_name}-{i}" for i in range(10000)]
    body = encode_request(CreateTopicsRequest(topics=[_topic(n, 1) for n in names], timeout_ms=60000), 7, 1)[4:]
    cut = body[:len(body) // 2]
    c = RawClient(bootstrap, timeout=60)
    try:
        c.send_raw(struct.pack(">i", len(cut)) + cut)
        assert c.is_closed_by_peer(timeout=60)
    finally:
        c.close()
    probe = [names[0], names[-1]]
    assert sorted(_metadata(bootstrap, probe, False)) == sorted((n, 3) for n in probe)
