"""What a produce waiting for its flush.messages flush is answered when more than the flush happens
meanwhile (rev-i findings 3 and 4). Kafka fsyncs inside the append, before DelayedProduce waits
for the ISR: a failed flush is the partition's answer (KAFKA_STORAGE_ERROR) whatever the ISR does
after, and no produce waits for its flush across a leadership change. Here the flush is the log
flusher's: the wait it leaves (produce._answer's Delayed) is driven as the purgatory drives it, over a
real log and flusher pass, with the replica manager's two answers it reads (acks_reached,
leader_epoch) kept by a stand-in whose high watermark and leadership the test moves."""
from __future__ import annotations

import errno
from dataclasses import dataclass, field

from odradek.api_handlers import produce
from odradek.api_handlers.context import Delayed
from odradek.log import FaultyFileSystem, LogConfig, LogManager
from odradek.wire.errors import ErrorCode
from odradek.wire.messages.produce_response import PartitionProduceResponse, TopicProduceResponse
from odradek.wire.records import build_batch

TOPIC_ID = b"\x09" * 16


@dataclass
class Replicas:
    """The replica manager's view of t-0 (ports.Partitions): its high watermark, and its leader epoch
    while led here (-1: not led here any more)."""
    high_watermark: int = 0
    epoch: int = 3

    def acks_reached(self, topic: str, partition: int, required_offset: int) -> tuple[bool, ErrorCode]:
        if self.epoch < 0:
            return False, ErrorCode.NOT_LEADER_OR_FOLLOWER
        return self.high_watermark >= required_offset, ErrorCode.NONE

    def leader_epoch(self, topic: str, partition: int) -> int:
        return self.epoch


@dataclass
class Services:
    partitions: Replicas


@dataclass
class Ctx:
    services: Services
    api_version: int = 9
    now_ms: int = 0
    listener: str = "PLAINTEXT"


@dataclass
class Req:
    acks: int
    timeout_ms: int = 30000
    topic_data: list = field(default_factory=list)


def produced(acks: int, replicas: Replicas, lm: LogManager):
    """One record produced to t-0 at flush.messages=1 as the handler appends it: the handler's
    wait (a Delayed) and the partition's answer in it."""
    log = lm.get("t", 0)
    info = log.append(build_batch([(None, b"v", (), 1)]), now_ms=1, flush_later=True)
    resp = PartitionProduceResponse(index=0, error_code=0, base_offset=info.base_offset, log_append_time_ms=-1,
                                    log_start_offset=0, record_errors=[], error_message=None)
    pending = [produce._Pending(resp, "t", 0, info.last_offset + 1)] if acks == -1 else []
    assert log.flush_wanted_upto > info.last_offset and not log.flushed(info.last_offset + 1)
    flushing = [produce._Flushing(resp, log, info.last_offset + 1, "t", 0, log.truncations)]
    out = [TopicProduceResponse(name="t", topic_id=TOPIC_ID, partition_responses=[resp])]
    wait = produce._answer(Ctx(Services(replicas)), Req(acks), out, pending, [], flushing)
    assert isinstance(wait, Delayed) and wait.try_complete(0) is None
    return wait, resp


def managed(fs: FaultyFileSystem) -> LogManager:
    lm = LogManager("/data", fs=fs, default_config=LogConfig(flush_messages=1))
    lm.flusher = lambda: None  # (the flusher's passes are run by the test)
    lm.get_or_create("t", 0, topic_id=TOPIC_ID)
    lm.write_pending_state()
    return lm


def answer_of(done) -> int:
    return done.responses[0].partition_responses[0].error_code


def test_a_failed_flush_stays_the_answer_when_the_isr_catches_up_after():
    fs = FaultyFileSystem()
    lm = managed(fs)
    replicas = Replicas()
    wait, resp = produced(-1, replicas, lm)
    fs.fail_fsync(errno.EIO)
    lm.run_requested_flushes()
    assert lm.get("t", 0).offline is not None
    assert wait.try_complete(0) is None  # (the followers have not fetched it yet)
    replicas.high_watermark = 1  # they did
    done = wait.try_complete(0)
    assert done is not None and answer_of(done) == ErrorCode.KAFKA_STORAGE_ERROR
    lm.close()


def test_a_wait_whose_partition_stops_being_led_here_is_answered_not_leader():
    """acks=1: leadership moves before the flusher's pass; the replica, a follower now, is truncated
    below the batch and then gets other records at its offset, flushed: the produce is answered
    NOT_LEADER_OR_FOLLOWER when its partition's key is poked at the leadership change, not success
    for records truncated away, nor REQUEST_TIMED_OUT at its timeout."""
    lm = managed(FaultyFileSystem())
    log = lm.get("t", 0)
    replicas = Replicas()
    for _ in range(3):
        log.append(build_batch([(None, b"old", (), 1)]), now_ms=1)
    wait, resp = produced(1, replicas, lm)
    replicas.epoch = -1  # another broker leads it now (the replica manager pokes the key)
    done = wait.try_complete(0)
    assert done is not None and answer_of(done) == ErrorCode.NOT_LEADER_OR_FOLLOWER
    lm.close()


def test_a_wait_whose_log_was_truncated_below_it_is_never_answered_success():
    """Led again at a later epoch after a truncation and a regrowth past the batch, flushed: the batch's
    records are not those flushed, so the answer is NOT_LEADER_OR_FOLLOWER."""
    lm = managed(FaultyFileSystem())
    log = lm.get("t", 0)
    replicas = Replicas()
    wait, resp = produced(1, replicas, lm)
    log.truncate_to(0)
    log.append_as_follower(build_batch([(None, b"new", (), 1)], base_offset=0), now_ms=1)
    replicas.epoch = 5
    lm.run_requested_flushes()
    assert log.flushed(1)
    done = wait.try_complete(0)
    assert done is not None and answer_of(done) == ErrorCode.NOT_LEADER_OR_FOLLOWER
    lm.close()


def test_a_leader_epoch_bumped_with_the_partition_still_led_here_is_answered_success():
    """acks=1 and acks=-1: the leader epoch moves while the produce waits for its flush, this broker
    still the leader and nothing truncated (a reassignment removing replicas bumps it): the batch is
    in the log and fsynced, so the answer is NONE, as Kafka's (its flush is inside the append, under
    the leader-ISR read lock: no epoch change falls within it), not NOT_LEADER_OR_FOLLOWER, which a
    producer without idempotence retries, writing the records twice (rev-k finding 2)."""
    lm = managed(FaultyFileSystem())
    replicas = Replicas()
    wait, resp = produced(1, replicas, lm)
    replicas.epoch = 4  # still led here, a new epoch
    lm.run_requested_flushes()
    done = wait.try_complete(0)
    assert done is not None and answer_of(done) == ErrorCode.NONE
    wait, resp = produced(-1, replicas, lm)
    replicas.epoch = 5
    lm.run_requested_flushes()
    assert wait.try_complete(0) is None  # (the followers have not fetched it yet)
    replicas.high_watermark = 2
    done = wait.try_complete(0)
    assert done is not None and answer_of(done) == ErrorCode.NONE
    lm.close()


def test_an_error_the_isr_set_is_not_overwritten_by_the_timeout():
    """acks=-1: leadership moves (NOT_LEADER_OR_FOLLOWER), the request's timeout comes: the answer
    stays NOT_LEADER_OR_FOLLOWER, not REQUEST_TIMED_OUT."""
    lm = managed(FaultyFileSystem())
    replicas = Replicas()
    wait, resp = produced(-1, replicas, lm)
    replicas.epoch = -1
    assert answer_of(wait.on_expire(30000)) == ErrorCode.NOT_LEADER_OR_FOLLOWER
    lm.close()
