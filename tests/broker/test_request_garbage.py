"""A request the broker has answered leaves no cyclic garbage holding it. odradek serve freezes the
survivors of every full garbage collection (broker/old_heap.py), and a large request is in flight
through several of them: garbage that a frozen request is part of waits for a thorough collection
(every 10 minutes), so each 100,000-partition OffsetCommit kept ~100,000 objects (a coordinator
event's closure named itself for its next step)."""

from __future__ import annotations

import gc

from test_old_heap_churn import _coordinator_ready
from test_server import Client, Running

from odradek.wire import records
from odradek.wire.messages.create_topics_request import CreatableTopic, CreateTopicsRequest
from odradek.wire.messages.fetch_request import FetchPartition, FetchRequest, FetchTopic
from odradek.wire.messages.offset_commit_request import (OffsetCommitRequest, OffsetCommitRequestPartition,
                                                         OffsetCommitRequestTopic)
from odradek.wire.messages.produce_request import PartitionProduceData, ProduceRequest, TopicProduceData

TOPICS, PARTITIONS = 20, 10


def test_answered_requests_leave_no_cyclic_garbage_holding_them(tmp_path):
    r = Running(tmp_path, **{"group.initial.rebalance.delay.ms": "0"})
    try:
        _coordinator_ready(r.port)
        c = Client(r.port)
        names = [f"g{i}" for i in range(TOPICS)]
        created = c.call(CreateTopicsRequest(topics=[
            CreatableTopic(name=n, num_partitions=PARTITIONS, replication_factor=1, assignments=[], configs=[])
            for n in names], timeout_ms=30000, validate_only=False), 7)
        assert {t.error_code for t in created.topics} == {0}
        gc.collect()
        gc.disable()  # (what the requests leave, found by one collection after them)
        try:
            produced = c.call(ProduceRequest(acks=1, timeout_ms=30000, topic_data=[
                TopicProduceData(name=n, partition_data=[
                    PartitionProduceData(index=i, records=records.build_batch([(None, b"v")])) for i in range(PARTITIONS)])
                for n in names]), 9)
            assert {p.error_code for t in produced.responses for p in t.partition_responses} == {0}
            committed = c.call(OffsetCommitRequest(group_id="garbage", generation_id_or_member_epoch=-1, member_id="",
                                                   topics=[OffsetCommitRequestTopic(name=n, partitions=[
                                                       OffsetCommitRequestPartition(partition_index=i, committed_offset=1,
                                                                                    committed_leader_epoch=-1,
                                                                                    committed_metadata="")
                                                       for i in range(PARTITIONS)]) for n in names]), 8)
            assert {p.error_code for t in committed.topics for p in t.partitions} == {0}
            fetched = c.call(FetchRequest(replica_id=-1, max_wait_ms=0, min_bytes=0, max_bytes=1 << 20, isolation_level=0,
                                          session_id=0, session_epoch=-1, topics=[
                                              FetchTopic(topic=n, partitions=[
                                                  FetchPartition(partition=i, current_leader_epoch=-1, fetch_offset=0,
                                                                 last_fetched_epoch=-1, log_start_offset=-1,
                                                                 partition_max_bytes=1 << 16) for i in range(PARTITIONS)])
                                              for n in names], forgotten_topics_data=[], rack_id=""), 12)
            assert {p.error_code for t in fetched.responses for p in t.partitions} == {0}
            gc.set_debug(gc.DEBUG_SAVEALL)
            gc.collect()
            left = {type(o).__module__ for o in gc.garbage if type(o).__module__.startswith("odradek.wire.messages")}
        finally:
            gc.set_debug(0)
            gc.garbage.clear()
            gc.enable()
        assert left == set()
        c.sock.close()
    finally:
        r.stop()
