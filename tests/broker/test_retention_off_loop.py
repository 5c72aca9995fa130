"""The broker's retention pass (log.retention.check.interval.ms) runs off the event loop, as Kafka's
kafka-log-retention task runs on its scheduler thread (issue 27 fairness): while the passes are held
at one log (its lock taken here, as a slow roll and fsync would hold it), requests on other logs are
answered; the passes then delete what a pass deletes. Real BrokerServer, real sockets. (How a pass
goes over the logs, each under its lock: tests/log/test_retention_pass.py.)"""

from __future__ import annotations

import sys
import time

from odradek.wire import records
from odradek.wire.messages.list_offsets_request import ListOffsetsPartition, ListOffsetsRequest, ListOffsetsTopic
from odradek.wire.messages.produce_request import PartitionProduceData, ProduceRequest, TopicProduceData

from tests.broker.test_server import Client, Running, fetch, metadata

PARTITIONS = 8
WEEK_AND_A_DAY_MS = 8 * 24 * 3600 * 1000  # older than log.retention.hours' default (168)


def produce_all(c, topic, ts):
    batch = records.build_batch([(None, b"v", None, ts)])
    req = ProduceRequest(acks=-1, timeout_ms=10000, topic_data=[TopicProduceData(
        name=topic, partition_data=[PartitionProduceData(index=p, records=batch) for p in range(PARTITIONS)])])
    parts = c.call(req, 9).responses[0].partition_responses
    assert sorted((p.index, p.error_code) for p in parts) == [(p, 0) for p in range(PARTITIONS)]


def offsets(c, topic, which):
    """partition -> its earliest (-2) or latest (-1) offset."""
    req = ListOffsetsRequest(replica_id=-1, topics=[ListOffsetsTopic(name=topic, partitions=[
        ListOffsetsPartition(partition_index=p, timestamp=which) for p in range(PARTITIONS)])])
    parts = c.call(req, 7).topics[0].partitions
    assert all(p.error_code == 0 for p in parts)
    return {p.partition_index: p.offset for p in parts}


def wait_until(cond, what, timeout=60):
    deadline = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.02)


def a_pass_is_under_way() -> bool:
    """Some thread is in LogManager.apply_retention (the event loop's, or a worker's)."""
    for frame in sys._current_frames().values():
        while frame is not None:
            if frame.f_code.co_name == "apply_retention" and frame.f_code.co_filename.endswith("log_manager.py"):
                return True
            frame = frame.f_back
    return False


def test_requests_are_answered_while_a_retention_pass_is_held_in_a_log(tmp_path):
    r = Running(tmp_path, **{"log.retention.check.interval.ms": "50", "num.partitions": str(PARTITIONS)})
    gate_lock = None
    try:
        c = Client(r.port)
        for t in ("a", "gate", "b"):  # a pass visits the logs in this order (their first data)
            metadata(c, t)  # (auto-created: UNKNOWN_TOPIC_OR_PARTITION first, as Kafka 4.3)
        wait_until(lambda: all(metadata(c, t, auto=False).error_code == 0 for t in ("a", "gate", "b")), "topics")
        now = int(time.time() * 1000)
        produce_all(c, "gate", now)
        produce_all(c, "a", now - WEEK_AND_A_DAY_MS)
        wait_until(lambda: offsets(c, "a", -2) == dict.fromkeys(range(PARTITIONS), 1), "a pass over a")
        gate_lock = r.server.broker.log_manager.logs[("gate", 0)].lock
        gate_lock.acquire()  # the passes (one every 50 ms) wait here, as behind a slow fsync of gate-0
        wait_until(a_pass_is_under_way, "a retention pass")  # (it goes on to gate-0, and waits there)
        # ... and the broker answers meanwhile: writes, reads, offsets of other logs (a pass on the event loop
        # would hold it here until the lock is released: every request would wait)
        produce_all(c, "b", now - WEEK_AND_A_DAY_MS)
        got = fetch(c, "a", 1)
        assert (got.error_code, got.log_start_offset, got.high_watermark) == (0, 1, 1)
        produce = ProduceRequest(acks=-1, timeout_ms=10000, topic_data=[TopicProduceData(name="gate", partition_data=[
            PartitionProduceData(index=1, records=records.build_batch([(None, b"w", None, now)]))])])
        assert c.call(produce, 9).responses[0].partition_responses[0].error_code == 0
        assert offsets(c, "a", -2) == dict.fromkeys(range(PARTITIONS), 1)
        gate_lock.release()
        gate_lock = None
        # the passes go on: every expired partition emptied, the fresh ones kept
        wait_until(lambda: offsets(c, "b", -2) == dict.fromkeys(range(PARTITIONS), 1), "a pass over b")
        assert offsets(c, "a", -1) == offsets(c, "b", -1) == dict.fromkeys(range(PARTITIONS), 1)
        assert offsets(c, "gate", -2) == dict.fromkeys(range(PARTITIONS), 0)
        assert offsets(c, "gate", -1) == {p: 2 if p == 1 else 1 for p in range(PARTITIONS)}
        assert fetch(c, "gate", 0).records
    finally:
        if gate_lock is not None:
            gate_lock.release()
        r.stop()
