"""Offsets committed in a transaction (TxnOffsetCommit) for a topic that is then deleted are gone
with it, as on Kafka 4.3 (OffsetMetadataManager.onPartitionsDeleted), also once a topic of the
same name is created again and across a restart. Found by Kafka Streams: its reset tool deletes
the repartition topics, whose offsets an exactly_once_v2 application commits in transactions; the
old offsets then read back for the re-created topics (Admin.listConsumerGroupOffsets) and the
application would resume the new topics at the old topics' positions."""
from __future__ import annotations

import pytest

from odradek.wire import records as wr
from odradek.wire.messages import (create_topics_request as ct, delete_topics_request as dt, end_txn_request as et,
                                   find_coordinator_request as fc, init_producer_id_request as ip,
                                   offset_commit_request as oc, offset_fetch_request as of, produce_request as pr,
                                   txn_offset_commit_request as toc)

from inproc_broker import call, start_broker

TID, GROUP = "tx-deleted", "g-deleted"


def create(b, name="t"):
    r = call(b, "create_topics", ct.CreateTopicsRequest(topics=[ct.CreatableTopic(
        name=name, num_partitions=2, replication_factor=1)], timeout_ms=1000), 7)
    assert r.topics[0].error_code == 0


def delete(b, name="t"):
    r = call(b, "delete_topics", dt.DeleteTopicsRequest(topics=[dt.DeleteTopicState(name=name)], timeout_ms=1000), 6)
    assert r.responses[0].error_code == 0


def txn_commit_offset(b, offset, topic="t", partition=0):
    """One transaction (TV2: Produce v12 and TxnOffsetCommit v5 add their partitions) committing
    `offset` for GROUP."""
    for key, kind in ((TID, 1), (GROUP, 0)):
        assert call(b, "find_coordinator", fc.FindCoordinatorRequest(key_type=kind, coordinator_keys=[key]),
                    6).coordinators[0].error_code == 0
    r = call(b, "init_producer_id", ip.InitProducerIdRequest(transactional_id=TID, transaction_timeout_ms=60000,
                                                             producer_id=-1, producer_epoch=-1), 5)
    assert r.error_code == 0
    pid, ep = r.producer_id, r.producer_epoch
    batch = wr.build_batch([(None, b"v")], base_timestamp=b.clock_ms(), producer_id=pid, producer_epoch=ep,
                           base_sequence=0, is_transactional=True)
    r = call(b, "produce", pr.ProduceRequest(transactional_id=TID, acks=-1, timeout_ms=1000, topic_data=[
        pr.TopicProduceData(name=topic, partition_data=[pr.PartitionProduceData(index=partition, records=batch)])]),
        12)
    assert r.responses[0].partition_responses[0].error_code == 0
    r = call(b, "txn_offset_commit", toc.TxnOffsetCommitRequest(
        transactional_id=TID, group_id=GROUP, producer_id=pid, producer_epoch=ep, generation_id=-1, member_id="",
        group_instance_id=None, topics=[toc.TxnOffsetCommitRequestTopic(name=topic, partitions=[
            toc.TxnOffsetCommitRequestPartition(partition_index=partition, committed_offset=offset,
                                                committed_leader_epoch=-1, committed_metadata="")])]), 5)
    assert r.topics[0].partitions[0].error_code == 0
    assert call(b, "end_txn", et.EndTxnRequest(transactional_id=TID, producer_id=pid, producer_epoch=ep,
                                               committed=True), 5).error_code == 0


def offsets(b, version=9):
    """All committed offsets of GROUP (as Admin.listConsumerGroupOffsets asks: topics null)."""
    if version >= 8:
        r = call(b, "offset_fetch", of.OffsetFetchRequest(groups=[of.OffsetFetchRequestGroup(
            group_id=GROUP, topics=None)]), version)
        topics = r.groups[0].topics
    else:
        topics = call(b, "offset_fetch", of.OffsetFetchRequest(group_id=GROUP, topics=None), version).topics
    return {(t.name, p.partition_index): p.committed_offset for t in topics for p in t.partitions}


def offset_of(b, topic="t", partition=0):
    r = call(b, "offset_fetch", of.OffsetFetchRequest(group_id=GROUP, topics=[
        of.OffsetFetchRequestTopic(name=topic, partition_indexes=[partition])]), 7)
    return r.topics[0].partitions[0].committed_offset


@pytest.fixture
def broker(tmp_path):
    b = start_broker(tmp_path)
    yield b
    b.close()


def test_txn_offsets_of_a_deleted_topic_read_as_none(broker):
    create(broker)
    txn_commit_offset(broker, 42)
    assert offsets(broker) == {("t", 0): 42} and offset_of(broker) == 42
    delete(broker)
    assert offsets(broker) == offsets(broker, version=7) == {}
    assert offset_of(broker) == -1
    create(broker)  # the same name again: a new topic, none of the old offsets
    assert offsets(broker) == {} and offset_of(broker) == -1
    txn_commit_offset(broker, 7)
    assert offsets(broker) == {("t", 0): 7}


def test_txn_offsets_of_a_deleted_topic_stay_gone_after_a_restart(tmp_path):
    b = start_broker(tmp_path)
    try:
        create(b)
        create(b, "kept")
        txn_commit_offset(b, 42)
        txn_commit_offset(b, 5, topic="kept", partition=1)
        delete(b)
        create(b)
    finally:
        b.close()
    b = start_broker(tmp_path)
    try:
        assert offsets(b) == {("kept", 1): 5}
        assert offset_of(b) == -1 and offset_of(b, "kept", 1) == 5
    finally:
        b.close()


def test_plain_and_txn_commits_of_the_same_topic_agree(broker):
    """A plain OffsetCommit after the transactional one wins, and both go with the topic."""
    create(broker)
    txn_commit_offset(broker, 42)
    r = call(broker, "offset_commit", oc.OffsetCommitRequest(group_id=GROUP, generation_id_or_member_epoch=-1,
                                                              member_id="", topics=[oc.OffsetCommitRequestTopic(
                                                                  name="t", partitions=[oc.OffsetCommitRequestPartition(
                                                                      partition_index=1, committed_offset=3)])]), 9)
    assert r.topics[0].partitions[0].error_code == 0
    assert offsets(broker) == {("t", 0): 42, ("t", 1): 3}
    delete(broker)
    assert offsets(broker) == {}
