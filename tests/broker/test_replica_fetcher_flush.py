"""A follower's appends at flush.messages are fsynced by the log flusher's worker thread, not on the event
loop, and the replica fetcher waits for that flush before it fetches again: no Fetch tells the leader
an offset the follower has not fsynced (Kafka's fetcher thread flushes in the append, then fetches;
with flush.messages=1 and acks=all a record is then durable on every in-sync replica when acknowledged)."""
from __future__ import annotations

import asyncio
import threading
import time

from odradek.broker.log_flusher import LogFlusher
from odradek.broker.replica_fetcher import ReplicaFetcherManager
from odradek.log import FaultyFileSystem, LogConfig, LogManager
from odradek.wire.records import build_batch
from tests.broker.replica_leader_stub import FETCH, StubLeader
from tests.broker.test_replica_fetcher import (
    BROKER_EPOCH, CONFIG, FOLLOWER, SMALL, TOPIC, TOPIC_ID, TP, Cluster, batch, caught_up, clock, in_loop, new_log,
    until,
)
from tests.log.log_helpers import EpochsGate


class SlowDisk(FaultyFileSystem):
    """Each fsync by path takes a while, as a disk's: a fetch that did not wait for it would come first."""

    def fsync_file(self, path: str) -> None:
        time.sleep(0.02)
        super().fsync_file(path)


class NotingLeader(StubLeader):
    """Notes, for each Fetch naming the partition, its fetch offset and the follower's recovery point then."""

    def __init__(self, *a, follower_log, **kw):
        super().__init__(*a, **kw)
        self.follower_log = follower_log
        self.seen: list[tuple[int, int]] = []

    def _answer(self, key: int, ver: int, req):
        if key == FETCH:
            for t in req.topics:
                for p in t.partitions:
                    self.seen.append((p.fetch_offset, self.follower_log.recovery_point))
        return super()._answer(key, ver, req)


@in_loop
async def test_the_fetcher_waits_for_the_flushers_fsync_before_it_fetches_again(tmp_path):
    c = Cluster()
    fs = SlowDisk()
    lm = LogManager("/data", fs=fs, default_config=LogConfig(segment_bytes=SMALL.segment_bytes,
                                                             index_interval_bytes=100, flush_messages=1))
    flusher = LogFlusher(asyncio.get_running_loop(), lm, c.pokes.append)
    follower_log = lm.get_or_create(TOPIC, 0, topic_id=TOPIC_ID)
    # (the leader's epoch written first: a follower's first batch of a new epoch writes the
    # leader-epoch-checkpoint on the loop, another matter than the flushes)
    follower_log.assign_epoch(3, 0)
    lm.write_pending_state()
    leader_log = new_log(tmp_path / "leader")
    stub = NotingLeader(1, 3, {TP: leader_log}, {TOPIC: TOPIC_ID}, {FOLLOWER: BROKER_EPOCH}, clock,
                        follower_log=follower_log)
    c.ports[1] = await stub.start()
    m = ReplicaFetcherManager(FOLLOWER, lambda: BROKER_EPOCH, c.endpoint, CONFIG, clock, c.pokes.append,
                              wait_flushed=flusher.wait_flushed)
    main = threading.get_ident()
    try:
        on_loop = fs.fsyncs_by_thread.get(main, 0)
        m.become_follower(TP, 1, 3, follower_log, TOPIC_ID)
        for i in range(30):  # several segments, appended while it follows
            stub.append(TP, batch(i))
            if i % 5 == 4:
                await until(caught_up(follower_log, leader_log))
        await until(caught_up(follower_log, leader_log))
        await until(lambda: follower_log.recovery_point == follower_log.log_end_offset)
        assert fs.fsyncs_by_thread.get(main, 0) == on_loop  # none on the event loop
        assert sum(n for t, n in fs.fsyncs_by_thread.items() if t != main) > 0
        assert len(stub.seen) > 10
        told = [(offset, flushed) for offset, flushed in stub.seen if offset > flushed]
        assert not told, f"fetches told the leader offsets not fsynced yet: {told[:5]}"
    finally:
        await m.close()
        await stub.stop()
        flusher.close()
        lm.close()


def one(offset: int, tag: bytes = b"v") -> bytes:
    return build_batch([(None, tag, (), 1000)], base_offset=offset)


@in_loop
async def test_the_fetchers_wait_ends_after_a_truncation_below_the_flush_asked_for():
    """A follower at flush.messages=1 flushed to 10, a leader change truncates it to 5 and the new
    leader's answer appends one record: the fetcher's wait for that flush (LogFlusher.wait_flushed,
    before its next Fetch) ends once the record is fsynced. Before, what was awaited stayed at 10: no
    pass was ever due, the wait never ended and every partition of that fetcher stopped (rev-i
    finding 1)."""
    c = Cluster()
    lm = LogManager("/data", fs=FaultyFileSystem(), default_config=LogConfig(flush_messages=1))
    flusher = LogFlusher(asyncio.get_running_loop(), lm, c.pokes.append)
    log = lm.get_or_create(TOPIC, 0, topic_id=TOPIC_ID)
    lm.write_pending_state()
    try:
        for i in range(10):
            log.append_as_follower(one(i), now_ms=1, flush_later=True)
        await asyncio.wait_for(flusher.wait_flushed([log]), 20)
        assert log.recovery_point == 10
        log.truncate_to(5)
        log.append_as_follower(one(5, b"n"), now_ms=1, flush_later=True)
        await asyncio.wait_for(flusher.wait_flushed([log]), 20)
        assert log.recovery_point == log.log_end_offset == 6 and not log.flush_awaited
    finally:
        flusher.close()
        lm.close()


@in_loop
async def test_a_flush_that_fails_unexpectedly_stops_neither_the_pass_nor_the_fetchers_wait():
    """One log's flush raises something other than a storage error (a defect): the pass still flushes
    the other logs, and the fetcher's wait ends (the failure is logged) instead of waiting for good
    for a flush no pass will run (rev-i finding 9)."""

    class BrokenForOne(FaultyFileSystem):
        def fsync_file(self, path: str) -> None:
            if "/t-0/" in path:
                raise ValueError("a defect")
            super().fsync_file(path)

    c = Cluster()
    lm = LogManager("/data", fs=BrokenForOne(), default_config=LogConfig(flush_messages=1))
    flusher = LogFlusher(asyncio.get_running_loop(), lm, c.pokes.append)
    broken = lm.get_or_create("t", 0, topic_id=TOPIC_ID)
    fine = lm.get_or_create("u", 0, topic_id=b"\x0a" * 16)
    lm.write_pending_state()
    try:
        broken.append_as_follower(one(0), now_ms=1, flush_later=True)
        fine.append_as_follower(one(0), now_ms=1, flush_later=True)
        await asyncio.wait_for(flusher.wait_flushed([broken, fine]), 20)
        assert fine.recovery_point == 1 and not fine.flush_awaited
        assert broken.recovery_point == 0
    finally:
        flusher.close()
        lm.close()


@in_loop
async def test_the_fetchers_wait_ends_with_the_fsync_when_the_leader_epochs_write_was_overtaken():
    """The pass for a follower's batch of a new leader epoch has its leader-epoch-checkpoint write
    overtaken by a log start move: the records are fsynced but the recovery point stays, and the
    pass asks again; wait_flushed ends only once the recovery point is past the batch (rev-k finding 1:
    it logged 'a flush is awaited that no log asked for' and returned without it)."""
    c = Cluster()
    fs = EpochsGate()
    lm = LogManager("/data", fs=fs, default_config=LogConfig(flush_messages=1))
    flusher = LogFlusher(asyncio.get_running_loop(), lm, c.pokes.append)
    log = lm.get_or_create("t", 0, topic_id=TOPIC_ID)
    lm.write_pending_state()
    try:
        log.assign_epoch(3, 0)
        for i in range(3):
            log.append_as_follower(one(i), now_ms=1, flush_later=True)
        await asyncio.wait_for(flusher.wait_flushed([log]), 20)
        log.assign_epoch(4, log.log_end_offset)
        log.append_as_follower(build_batch([(None, b"v", (), 1000)], base_offset=3, partition_leader_epoch=4),
                               now_ms=1, flush_later=True)
        log.high_watermark = log.log_end_offset
        fs.armed = True
        waiting = asyncio.ensure_future(flusher.wait_flushed([log]))
        assert await asyncio.to_thread(fs.entered.wait, 30)
        fs.armed = False
        log.delete_records(1)
        fs.gate.set()
        await asyncio.wait_for(waiting, 20)
        assert log.recovery_point == 4 and not log.flush_awaited
    finally:
        flusher.close()
        lm.close()
