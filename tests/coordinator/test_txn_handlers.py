"""Transaction API handlers over the coordinator: every advertised version answers and encodes,
and a full transaction (with offsets) goes through them."""

from __future__ import annotations


import pytest

from odradek.api_handlers import (add_offsets_to_txn, add_partitions_to_txn, describe_transactions, end_txn,
                                  init_producer_id, list_transactions, offset_fetch, txn_offset_commit)
from odradek.api_handlers.context import RequestContext
from fake_services import image_of_topics, services
from odradek.coordinator.group_coordinator import GroupCoordinator
from odradek.coordinator.txn_coordinator import TxnCoordinator
from odradek.coordinator.txn_offsets import TxnOffsetStore
from odradek.wire.api import decode_response, encode_response
from odradek.wire.errors import ErrorCode as E
from odradek.wire.messages.add_offsets_to_txn_request import AddOffsetsToTxnRequest
from odradek.wire.messages.add_partitions_to_txn_request import (AddPartitionsToTxnRequest, AddPartitionsToTxnTopic,
                                                                 AddPartitionsToTxnTransaction)
from odradek.wire.messages.describe_transactions_request import DescribeTransactionsRequest
from odradek.wire.messages.end_txn_request import EndTxnRequest
from odradek.wire.messages.init_producer_id_request import InitProducerIdRequest
from odradek.wire.messages.list_transactions_request import ListTransactionsRequest
from odradek.wire.messages.offset_fetch_request import OffsetFetchRequest, OffsetFetchRequestTopic
from odradek.wire.messages.txn_offset_commit_request import (TxnOffsetCommitRequest, TxnOffsetCommitRequestPartition,
                                                             TxnOffsetCommitRequestTopic)


class FakeBroker:
    def __init__(self):
        self.groups = GroupCoordinator()
        self.txn_offsets = TxnOffsetStore(self.groups, lambda p, b, now: None)
        self.markers = []
        self.txn_coordinator = TxnCoordinator(
            write_marker=lambda *a: self.markers.append(a[:5]) or 0, offsets=self.txn_offsets)
        image = image_of_topics({"t": (bytes(16), 2)})
        self.services = services(image_of=lambda: image, groups=self.groups, txns=self.txn_coordinator,
                                 txn_offsets=self.txn_offsets)


def call(b, mod, req, v, now=1):
    ctx = RequestContext(api_key=mod.API_KEY, api_version=v, correlation_id=1, client_id="c", now_ms=now,
                         services=b.services)
    resp = mod.handle(ctx, req)
    decode_response(encode_response(mod.API_KEY, v, 1, resp)[4:], mod.API_KEY, v)  # encodes at v
    return resp


def init(b, tid, v=4):
    r = call(b, init_producer_id, InitProducerIdRequest(transactional_id=tid, transaction_timeout_ms=60000,
                                                         producer_id=-1, producer_epoch=-1), v)
    assert r.error_code == 0
    return r.producer_id, r.producer_epoch


def add(b, tid, pid, ep, parts, v):
    topics = [AddPartitionsToTxnTopic(name=t, partitions=ps) for t, ps in parts]
    if v <= 3:
        r = call(b, add_partitions_to_txn, AddPartitionsToTxnRequest(
            v3_and_below_transactional_id=tid, v3_and_below_producer_id=pid, v3_and_below_producer_epoch=ep,
            v3_and_below_topics=topics), v)
        return {(t.name, p.partition_index): p.partition_error_code
                for t in r.results_by_topic_v3_and_below for p in t.results_by_partition}
    r = call(b, add_partitions_to_txn, AddPartitionsToTxnRequest(transactions=[AddPartitionsToTxnTransaction(
        transactional_id=tid, producer_id=pid, producer_epoch=ep, verify_only=False, topics=topics)]), v)
    return {(t.name, p.partition_index): p.partition_error_code
            for x in r.results_by_transaction for t in x.topic_results for p in t.results_by_partition}


@pytest.mark.parametrize("v", range(add_partitions_to_txn.MIN_VERSION, add_partitions_to_txn.MAX_VERSION + 1))
def test_add_partitions_every_version(v):
    b = FakeBroker()
    pid, ep = init(b, "x")
    assert add(b, "x", pid, ep, [("t", [0, 1])], v) == {("t", 0): 0, ("t", 1): 0}
    assert add(b, "x", pid, ep, [("t", [0]), ("nope", [0])], v) == {("t", 0): E.OPERATION_NOT_ATTEMPTED,
                                                                   ("nope", 0): E.UNKNOWN_TOPIC_OR_PARTITION}
    fenced = E.INVALID_PRODUCER_EPOCH if v < 2 else E.PRODUCER_FENCED
    assert add(b, "x", pid, ep + 1, [("t", [0])], v) == {("t", 0): fenced}


@pytest.mark.parametrize("v", range(init_producer_id.MIN_VERSION, init_producer_id.MAX_VERSION + 1))
def test_init_producer_id_every_version(v):
    b = FakeBroker()
    assert init(b, "x", v) == (0, 0)
    assert init(b, "x", v) == (0, 1)
    r = call(b, init_producer_id, InitProducerIdRequest(transactional_id="y", transaction_timeout_ms=900001,
                                                         producer_id=-1, producer_epoch=-1), v)
    assert r.error_code == E.INVALID_TRANSACTION_TIMEOUT


@pytest.mark.parametrize("v", range(end_txn.MIN_VERSION, end_txn.MAX_VERSION + 1))
def test_full_transaction_with_offsets_every_version(v):
    b = FakeBroker()
    pid, ep = init(b, "x")
    v_off = min(v, add_offsets_to_txn.MAX_VERSION)
    v_toc = min(v + 1, txn_offset_commit.MAX_VERSION)
    assert add(b, "x", pid, ep, [("t", [1])], min(v, 3)) == {("t", 1): 0}
    r = call(b, add_offsets_to_txn, AddOffsetsToTxnRequest(transactional_id="x", producer_id=pid, producer_epoch=ep,
                                                           group_id="g"), v_off)
    assert r.error_code == 0
    r = call(b, txn_offset_commit, TxnOffsetCommitRequest(
        transactional_id="x", group_id="g", producer_id=pid, producer_epoch=ep, generation_id=-1, member_id="",
        group_instance_id=None, topics=[TxnOffsetCommitRequestTopic(name="t", partitions=[
            TxnOffsetCommitRequestPartition(partition_index=1, committed_offset=9, committed_leader_epoch=-1,
                                            committed_metadata="m")])]), v_toc)
    assert [p.error_code for t in r.topics for p in t.partitions] == [0]
    # not visible yet; require_stable reports the pending commit
    fetch = OffsetFetchRequest(group_id="g", topics=[OffsetFetchRequestTopic(name="t", partition_indexes=[1])],
                               require_stable=True)
    r = call(b, offset_fetch, fetch, 7)
    assert r.topics[0].partitions[0].error_code == E.UNSTABLE_OFFSET_COMMIT
    r = call(b, offset_fetch, fetch, 6)
    assert r.topics[0].partitions[0].committed_offset == -1
    d = call(b, describe_transactions, DescribeTransactionsRequest(transactional_ids=["x"]), 0)
    assert d.transaction_states[0].transaction_state == "Ongoing"
    assert sorted((t.topic, t.partitions[0]) for t in d.transaction_states[0].topics) == \
        sorted([("t", 1), ("__consumer_offsets", b.groups.partition_for("g"))])
    r = call(b, end_txn, EndTxnRequest(transactional_id="x", producer_id=pid, producer_epoch=ep, committed=True), v)
    assert r.error_code == 0
    assert len(b.markers) == 2
    r = call(b, offset_fetch, fetch, 7)
    assert (r.topics[0].partitions[0].error_code, r.topics[0].partitions[0].committed_offset) == (0, 9)
    for lv in range(list_transactions.MIN_VERSION, list_transactions.MAX_VERSION + 1):
        r = call(b, list_transactions, ListTransactionsRequest(state_filters=["CompleteCommit", "Nope"],
                                                               producer_id_filters=[], duration_filter=-1,
                                                               transactional_id_pattern=None), lv)
        assert [s.transactional_id for s in r.transaction_states] == ["x"] and r.unknown_state_filters == ["Nope"]


def test_txn_offset_commit_checks_a_consumer_group_members_epoch_per_partition():
    """A consumer-protocol member's TxnOffsetCommit at an older epoch is STALE_MEMBER_EPOCH for a
    partition it was not assigned at that epoch, as its OffsetCommit (the handler did not name the
    partitions, so any older epoch was accepted: a zombie could commit inside a transaction)."""
    from odradek.coordinator.consumer_heartbeat import HeartbeatRequest

    b = FakeBroker()
    joined = b.groups.consumer_group_heartbeat(HeartbeatRequest(
        group_id="g", member_id="m1", member_epoch=0, instance_id=None, rebalance_timeout_ms=30000,
        subscribed_topic_names=["t"], subscribed_topic_regex=None, server_assignor=None, owned=[]),
        1, {"t": (bytes(16), 2)})
    assert joined.member_epoch == 2  # a new group is at epoch 1, the first join makes it 2 (Kafka 4.3)
    pid, ep = init(b, "x")

    def commit(epoch):
        r = call(b, txn_offset_commit, TxnOffsetCommitRequest(
            transactional_id="x", group_id="g", producer_id=pid, producer_epoch=ep, generation_id=epoch,
            member_id="m1", group_instance_id=None, topics=[TxnOffsetCommitRequestTopic(name="t", partitions=[
                TxnOffsetCommitRequestPartition(partition_index=1, committed_offset=9, committed_leader_epoch=-1,
                                                committed_metadata="")])]), 5)
        return [p.error_code for t in r.topics for p in t.partitions]

    assert commit(1) == [E.STALE_MEMBER_EPOCH]
    assert commit(3) == [E.STALE_MEMBER_EPOCH]
    assert commit(2) == [E.NONE]
