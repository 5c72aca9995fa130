"""transaction.version 2 (KIP-890 part 2) through the handlers of an in-process broker:
Produce v12+ and TxnOffsetCommit v5 add partitions to the transaction themselves, EndTxn v5
bumps the epoch (markers carry it, the answer returns it), the log value is v1 with the
client's transaction version and survives a restart; TV1 requests keep their rules."""
from __future__ import annotations

import pytest

from odradek.broker.coordinator_log import CoordinatorLog
from odradek.coordinator import txn_records as rec
from odradek.wire import records as wr
from odradek.wire.errors import ErrorCode as E
from odradek.wire.messages import (create_topics_request as ct, end_txn_request as et, find_coordinator_request as fc,
                                   init_producer_id_request as ip, offset_fetch_request as of,
                                   produce_request as pr, txn_offset_commit_request as toc)

from inproc_broker import call, start_broker

TID, GROUP = "tx-v2", "g-v2"


def setup(b):
    r = call(b, "create_topics", ct.CreateTopicsRequest(topics=[ct.CreatableTopic(
        name="t", num_partitions=2, replication_factor=1)], timeout_ms=1000), 7)
    assert r.topics[0].error_code == 0
    for key, kind in ((TID, 1), (GROUP, 0)):
        c = call(b, "find_coordinator", fc.FindCoordinatorRequest(key_type=kind, coordinator_keys=[key]), 6)
        assert c.coordinators[0].error_code == 0
    r = call(b, "init_producer_id", ip.InitProducerIdRequest(transactional_id=TID, transaction_timeout_ms=60000,
                                                             producer_id=-1, producer_epoch=-1), 5)
    assert r.error_code == 0
    return r.producer_id, r.producer_epoch


@pytest.fixture
def broker(tmp_path):
    b = start_broker(tmp_path)
    yield b
    b.close()


def produce(b, pid, epoch, seq, value, version=12, partition=0, tid=TID, by_id=False):
    batch = wr.build_batch([(None, value)], base_timestamp=b.clock_ms(), producer_id=pid, producer_epoch=epoch,
                           base_sequence=seq, is_transactional=True)
    topic = pr.TopicProduceData(name="" if by_id else "t", partition_data=[
        pr.PartitionProduceData(index=partition, records=batch)])
    if by_id:
        topic.topic_id = b.image.topics["t"].topic_id
    r = call(b, "produce", pr.ProduceRequest(transactional_id=tid, acks=-1, timeout_ms=1000, topic_data=[topic]),
             version)
    return r.responses[0].partition_responses[0]


def end(b, pid, epoch, commit, version=5):
    return call(b, "end_txn", et.EndTxnRequest(transactional_id=TID, producer_id=pid, producer_epoch=epoch,
                                               committed=commit), version)


def markers(b, topic="t", partition=0):
    """(producer id, epoch, commit) of every transaction marker in a partition."""
    out = []
    for h, recs in CoordinatorLog(b.replicas, topic).read_batches(partition):
        if h.is_control:
            rtype, _ = wr.parse_control_record(recs[0])
            out.append((h.producer_id, h.producer_epoch, rtype == wr.ControlRecordType.COMMIT))
    return out


def txn_log_values(b):
    part = rec.partition_for(TID, 2)
    return [(value[:2], rec.decode_value(TID, value)) for _, key, value in
            CoordinatorLog(b.replicas, rec.TXN_STATE_TOPIC).read(part) if value is not None]


def test_fresh_broker_finalizes_transaction_version_2(broker):
    assert broker.finalized_features()["transaction.version"] == 2


def test_produce_v12_adds_the_partition_and_end_txn_v5_bumps_the_epoch(broker):
    pid, ep = setup(broker)
    r = produce(broker, pid, ep, 0, b"a")
    assert (r.error_code, r.base_offset) == (0, 0)
    assert broker.txn_coordinator.describe(TID).partitions == {("t", 0)}
    r = end(broker, pid, ep, True)
    assert (r.error_code, r.producer_id, r.producer_epoch) == (0, pid, ep + 1)
    assert markers(broker) == [(pid, ep + 1, True)]  # the marker carries the new epoch
    # the next transaction: new epoch, sequences from 0; the old epoch is fenced by the log
    assert produce(broker, pid, ep + 1, 0, b"b").error_code == 0
    assert produce(broker, pid, ep, 1, b"zombie", partition=1).error_code == E.INVALID_PRODUCER_EPOCH
    r = end(broker, pid, ep + 1, False)
    assert (r.error_code, r.producer_id, r.producer_epoch) == (0, pid, ep + 2)
    assert markers(broker) == [(pid, ep + 1, True), (pid, ep + 2, False)]
    # a retried EndTxn (the epoch before the bump) is answered again; a new commit is invalid
    r = end(broker, pid, ep + 1, False)
    assert (r.error_code, r.producer_id, r.producer_epoch) == (0, pid, ep + 2)
    assert end(broker, pid, ep + 2, True).error_code == E.INVALID_TXN_STATE
    assert end(broker, pid, ep + 1, True).error_code == E.INVALID_TXN_STATE


def test_produce_v11_still_needs_add_partitions(broker):
    pid, ep = setup(broker)
    assert produce(broker, pid, ep, 0, b"a", version=11).error_code == E.INVALID_TXN_STATE
    assert broker.txn_coordinator.describe(TID).partitions == set()


def test_produce_v12_coordinator_errors_as_kafka_maps_them(broker):
    pid, ep = setup(broker)
    r = produce(broker, pid, ep + 1, 0, b"a")  # an epoch the coordinator never gave: PRODUCER_FENCED
    assert r.error_code == E.INVALID_PRODUCER_EPOCH
    assert produce(broker, pid + 7, 0, 0, b"a").error_code == E.INVALID_PRODUCER_ID_MAPPING
    r = produce(broker, pid, ep, 0, b"a", tid="not-coordinated-here-" + "x" * 3)
    assert r.error_code in (E.NOT_ENOUGH_REPLICAS, E.INVALID_PRODUCER_ID_MAPPING)
    if r.error_code == E.NOT_ENOUGH_REPLICAS:
        assert "Underlying error" in r.error_message


def test_produce_v13_names_topics_by_id(broker):
    pid, ep = setup(broker)
    r = produce(broker, pid, ep, 0, b"a", version=13, by_id=True)
    assert (r.error_code, r.base_offset) == (0, 0)
    req = pr.ProduceRequest(transactional_id=None, acks=1, timeout_ms=1000, topic_data=[pr.TopicProduceData(
        topic_id=b"\x01" * 16, partition_data=[pr.PartitionProduceData(index=0, records=wr.build_batch([(None, b"x")]))])])
    resp = call(broker, "produce", req, 13)
    assert resp.responses[0].topic_id == b"\x01" * 16
    assert resp.responses[0].partition_responses[0].error_code == E.UNKNOWN_TOPIC_ID


def test_txn_offset_commit_v5_adds_the_offsets_partition(broker):
    pid, ep = setup(broker)
    assert produce(broker, pid, ep, 0, b"a").error_code == 0
    req = toc.TxnOffsetCommitRequest(transactional_id=TID, group_id=GROUP, producer_id=pid, producer_epoch=ep,
                                     generation_id=-1, member_id="", group_instance_id=None, topics=[
                                         toc.TxnOffsetCommitRequestTopic(name="t", partitions=[
                                             toc.TxnOffsetCommitRequestPartition(
                                                 partition_index=0, committed_offset=42, committed_leader_epoch=-1,
                                                 committed_metadata="")])])
    v4 = call(broker, "txn_offset_commit", req, 4)  # TV1 protocol: AddOffsetsToTxn was required
    assert v4.topics[0].partitions[0].error_code == 0  # (Kafka 4.3 answers v4 without verification, too)
    r = call(broker, "txn_offset_commit", req, 5)
    assert r.topics[0].partitions[0].error_code == 0
    offsets_tp = ("__consumer_offsets", broker.groups.partition_for(GROUP))
    assert broker.txn_coordinator.describe(TID).partitions == {("t", 0), offsets_tp}
    fetch = of.OffsetFetchRequest(group_id=GROUP, topics=[of.OffsetFetchRequestTopic(name="t", partition_indexes=[0])])
    assert call(broker, "offset_fetch", fetch, 7).topics[0].partitions[0].committed_offset == -1
    r = end(broker, pid, ep, True)
    assert r.error_code == 0
    assert call(broker, "offset_fetch", fetch, 7).topics[0].partitions[0].committed_offset == 42
    assert markers(broker, *offsets_tp) == [(pid, ep + 1, True)]
    req.producer_epoch = ep  # the old epoch: fenced
    assert call(broker, "txn_offset_commit", req, 5).topics[0].partitions[0].error_code == E.INVALID_PRODUCER_EPOCH


def test_log_values_are_v1_with_the_client_version_and_survive_a_restart(tmp_path):
    b = start_broker(tmp_path)
    try:
        pid, ep = setup(b)
        assert produce(b, pid, ep, 0, b"a").error_code == 0
        assert end(b, pid, ep, True).error_code == 0
        values = txn_log_values(b)
        assert {v for v, _ in values} == {b"\x00\x01"}
        states = [(m.state.kafka_name, m.producer_epoch, m.client_tv) for _, m in values]
        assert states == [("Empty", ep, 0), ("Ongoing", ep, 2), ("PrepareCommit", ep + 1, 2),
                          ("CompleteCommit", ep + 1, 2)]
        assert all(m.prev_producer_id == pid and m.next_producer_id == -1 for _, m in values)
    finally:
        b.close()
    b = start_broker(tmp_path)
    try:
        m = b.txn_coordinator.describe(TID)
        assert (m.state.kafka_name, m.producer_id, m.producer_epoch, m.client_tv) == ("CompleteCommit", pid, ep + 1, 2)
        r = end(b, pid, ep, True)  # a retry across the restart
        assert (r.error_code, r.producer_epoch) == (0, ep + 1)
        assert produce(b, pid, ep + 1, 0, b"b").error_code == 0
    finally:
        b.close()
