"""odradek serve's heap policy (BrokerServer freeze_heap: broker/old_heap.py) under churn: what the
broker makes and lets go again - topics created and deleted, records produced, connections opened
and closed, groups joined and left - is freed although the survivors of every full collection are
frozen (refcounting frees a frozen object; only cyclic garbage among frozen objects waits for a
thorough collection): the tracked heap does not grow with the rounds, and what a thorough collection
finds is no more after many rounds than after a few."""

from __future__ import annotations

import asyncio
import gc
import time

from test_server import Client, Running

from odradek.broker import old_heap
from odradek.wire import records
from odradek.wire.messages.create_topics_request import CreatableTopic, CreateTopicsRequest
from odradek.wire.messages.find_coordinator_request import FindCoordinatorRequest
from odradek.wire.messages.delete_topics_request import DeleteTopicsRequest, DeleteTopicState
from odradek.wire.messages.join_group_request import JoinGroupRequest, JoinGroupRequestProtocol
from odradek.wire.messages.leave_group_request import LeaveGroupRequest, MemberIdentity
from odradek.wire.messages.metadata_request import MetadataRequest
from odradek.wire.messages.produce_request import PartitionProduceData, ProduceRequest, TopicProduceData

TOPICS, PARTITIONS, CONNECTIONS, GROUPS = 30, 4, 30, 20


def _round(port: int, r: int) -> None:
    """Round r's topics created and written, round r-1's deleted (so that each topic lives through
    collections), connections and one-member groups come and go."""
    admin = Client(port)
    names = [f"churn-{r}-{i}" for i in range(TOPICS)]
    created = admin.call(CreateTopicsRequest(topics=[
        CreatableTopic(name=n, num_partitions=PARTITIONS, replication_factor=1, assignments=[], configs=[])
        for n in names], timeout_ms=30000, validate_only=False), 7)
    assert [t.error_code for t in created.topics] == [0] * TOPICS
    batch = records.build_batch([(None, b"v" * 100)])
    produced = admin.call(ProduceRequest(acks=1, timeout_ms=30000, topic_data=[
        TopicProduceData(name=n, partition_data=[PartitionProduceData(index=i, records=batch) for i in range(PARTITIONS)])
        for n in names]), 9)
    assert {p.error_code for t in produced.responses for p in t.partition_responses} == {0}
    for _ in range(CONNECTIONS):
        c = Client(port)
        assert len(c.call(MetadataRequest(topics=None, allow_auto_topic_creation=False), 9).topics) >= TOPICS
        c.sock.close()
    for g in range(GROUPS):
        c = Client(port)
        gid = f"churn-group-{r}-{g}"
        joined = c.call(JoinGroupRequest(group_id=gid, session_timeout_ms=30000, rebalance_timeout_ms=30000,
                                         member_id="", protocol_type="consumer",
                                         protocols=[JoinGroupRequestProtocol(name="range", metadata=b"\0" * 16)]), 3)
        assert joined.error_code == 0
        left = c.call(LeaveGroupRequest(group_id=gid, members=[MemberIdentity(member_id=joined.member_id)]), 3)
        assert left.error_code == 0
        c.sock.close()
    if r > 0:
        deleted = admin.call(DeleteTopicsRequest(topics=[DeleteTopicState(name=f"churn-{r - 1}-{i}")
                                                         for i in range(TOPICS)], timeout_ms=30000), 6)
        assert [t.error_code for t in deleted.responses] == [0] * TOPICS
    admin.sock.close()


def _coordinator_ready(port: int) -> None:
    """FindCoordinator until this broker answers for groups (the offsets topic made and loaded)."""
    c = Client(port)
    deadline = time.monotonic() + 60
    while c.call(FindCoordinatorRequest(key="churn", key_type=0), 2).error_code != 0:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    c.sock.close()


def _on_loop(running: Running, fn):
    async def call():
        return fn()

    return asyncio.run_coroutine_threadsafe(call(), running.loop).result(60)


def _tracked() -> int:
    return len(gc.get_objects()) + gc.get_freeze_count()


def test_churn_leaves_the_frozen_heap_bounded(tmp_path):
    thresholds = gc.get_threshold()
    # (idle logs' files parked within a round: the flush check every 100 ms)
    r = Running(tmp_path, freeze_heap=True, **{"group.initial.rebalance.delay.ms": "0", "log.segment.delete.delay.ms": "0",
                                              "log.flush.scheduler.interval.ms": "100"})
    try:
        heap = r.server.old_heap
        assert gc.get_threshold() == (thresholds[0], thresholds[1], old_heap.FULL_AFTER)
        assert gc.get_freeze_count() > 1000  # the start-up heap
        _coordinator_ready(r.port)
        tracked, found = [], []
        for n in range(12):
            _round(r.port, n)
            # a full collection on the broker's loop, as an automatic one (its survivors frozen)
            _on_loop(r, gc.collect)
            tracked.append(_tracked())
            if n in (3, 11):
                found.append(_on_loop(r, heap.thorough))
        assert heap.frozen >= 12
        # a deleted log kept by a cycle (its parked files' watch: fs.RealFile) would keep ~2,000
        # objects a round; what a round leaves reachable (empty groups until they expire, the
        # metadata log's batch index) is ~100
        per_round = (tracked[-1] - tracked[3]) / 8
        assert per_round < 500, tracked
        assert found[1] <= found[0] + 100, found
    finally:
        r.stop()
        gc.unfreeze()  # (the test process's objects back in the generations)
    assert gc.get_threshold() == thresholds
