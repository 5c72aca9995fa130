"""flush.ms and flush.messages fsync in the log flusher's worker thread (Kafka's kafka-log-flusher; the
broker's LogFlusher), never on the thread that appends or runs the periodic check (the event loop):
the check and the append only ask (LogManager.flusher hears it), run_requested_flushes fsyncs in its
own thread and moves the recovery point; an append at flush.messages made with flush_later (the
produce handler) is ``flushed`` only then, as Kafka answers such a produce after its fsync. A failed
flush takes the log offline (the waiting produce is answered KAFKA_STORAGE_ERROR)."""
from __future__ import annotations

import errno
import threading

from odradek.log import FaultyFileSystem, LogConfig, LogManager

from log_helpers import EpochsGate, batch, read_all

TOPIC_ID = b"\x09" * 16


def managed(config: LogConfig) -> tuple[FaultyFileSystem, LogManager, list[int]]:
    fs = FaultyFileSystem()
    lm = LogManager("/data", fs=fs, default_config=config)
    asked: list[int] = []
    lm.flusher = lambda: asked.append(threading.get_ident())
    return fs, lm, asked


def in_worker(fn):
    out = []
    worker = threading.Thread(target=lambda: out.append(fn()))
    worker.start()
    worker.join(30)
    assert not worker.is_alive()
    return worker.ident, out[0]


class GatedFS(FaultyFileSystem):
    """Each fsync by path waits for ``gate`` (``entered`` set first): the flusher's pass stopped in its fsyncs."""

    def __init__(self) -> None:
        super().__init__()
        self.gate, self.entered = threading.Event(), threading.Event()

    def fsync_file(self, path: str) -> None:
        self.entered.set()
        assert self.gate.wait(30)
        super().fsync_file(path)


def during_a_pass(fs: GatedFS, lm: LogManager, meanwhile) -> None:
    """A flusher's pass in a worker thread, ``meanwhile()`` run on this thread while it fsyncs (without
    the log's lock), then the pass let finish."""
    worker = threading.Thread(target=lm.run_requested_flushes)
    worker.start()
    assert fs.entered.wait(30)
    meanwhile()
    fs.gate.set()
    worker.join(30)
    assert not worker.is_alive()


def test_flush_ms_fsyncs_in_the_flushers_thread():
    fs, lm, asked = managed(LogConfig(flush_ms=0))
    log = lm.get_or_create("t", 0, topic_id=TOPIC_ID)
    lm.write_pending_state()
    log.append(batch([b"a", b"b"], ts=1), now_ms=1)
    main = threading.get_ident()
    before = (fs.fsyncs_by_thread.get(main, 0), fs.dir_fsyncs)
    assert lm.flush_dirty(2) == 1  # the periodic check: asks
    assert (fs.fsyncs_by_thread.get(main, 0), fs.dir_fsyncs) == before
    assert asked == [main] and lm.flushes_due and log.recovery_point == 0 and log.unflushed_messages == 2
    ident, flushed = in_worker(lm.run_requested_flushes)
    assert flushed == [("t", 0)]
    assert fs.fsyncs_by_thread.get(main, 0) == before[0] and fs.fsyncs_by_thread[ident] >= 1
    assert log.recovery_point == 2 and log.unflushed_messages == 0 and not lm.flushes_due
    seg = log.active
    assert fs.files[seg.path].durable == fs.files[seg.path].data
    assert b"recovery_point=2\n" in fs.files["/data/t-0/log-state.checkpoint"].durable
    lm.close()


def test_an_append_at_flush_messages_is_flushed_by_the_flusher_before_its_answer():
    fs, lm, asked = managed(LogConfig(flush_messages=2))
    log = lm.get_or_create("t", 0, topic_id=TOPIC_ID)
    lm.write_pending_state()
    main = threading.get_ident()
    fsyncs = fs.fsyncs_by_thread.get(main, 0)
    first = log.append(batch([b"a"], ts=1), now_ms=1, flush_later=True)  # below flush.messages
    assert not asked and log.flush_wanted_upto <= first.last_offset
    second = log.append(batch([b"b"], ts=1), now_ms=1, flush_later=True)  # reaches it: asks
    assert asked == [main] and fs.fsyncs_by_thread.get(main, 0) == fsyncs
    assert log.flush_wanted_upto > second.last_offset and not log.flushed(second.last_offset + 1)
    log.append(batch([b"c"], ts=1), now_ms=1, flush_later=True)  # asked already: waits for the same pass
    assert asked == [main]
    in_worker(lm.run_requested_flushes)
    assert fs.fsyncs_by_thread.get(main, 0) == fsyncs
    assert log.flushed(log.log_end_offset) and log.recovery_point == 3 and log.unflushed_messages == 0
    lost = LogManager("/data", fs=fs.restart("lost"), default_config=LogConfig(flush_messages=2))
    assert [v for _, _, v in read_all(lost.get("t", 0))] == [b"a", b"b", b"c"]  # a power loss now keeps them
    lost.close()
    # without flush_later (a follower's or a coordinator's append): flushed at once, as before
    log.append(batch([b"d", b"e"], ts=1), now_ms=1)
    assert log.recovery_point == 5 and fs.fsyncs_by_thread[main] > fsyncs
    lm.close()


def test_without_a_flusher_the_asked_flush_runs_at_once():
    fs = FaultyFileSystem()
    lm = LogManager("/data", fs=fs, default_config=LogConfig(flush_messages=1))
    log = lm.get_or_create("t", 0, topic_id=TOPIC_ID)
    info = log.append(batch([b"a"], ts=1), now_ms=1, flush_later=True)
    assert log.flushed(info.last_offset + 1) and log.recovery_point == 1
    lm.close()


def test_a_failed_flush_takes_the_log_offline_and_answers_the_waiting_append():
    fs, lm, asked = managed(LogConfig(flush_messages=1))
    log = lm.get_or_create("t", 0, topic_id=TOPIC_ID)
    lm.write_pending_state()
    info = log.append(batch([b"a"], ts=1), now_ms=1, flush_later=True)
    assert not log.flushed(info.last_offset + 1)
    fs.fail_fsync(errno.ENOSPC)  # (any flush failure: Kafka takes the log dir offline)
    in_worker(lm.run_requested_flushes)
    assert log.offline is not None and log.flushed(info.last_offset + 1) and log.recovery_point == 0
    lm.close()


def test_a_truncation_during_the_flush_moves_no_recovery_point_past_it():
    """The follower truncates and appends again while the flusher's fsyncs run without the lock: the
    recovery point is not moved to the log end the flusher took (its records are gone, the new ones
    at those offsets were never fsynced)."""
    fs = GatedFS()
    lm = LogManager("/data", fs=fs, default_config=LogConfig(flush_ms=0))
    lm.flusher = lambda: None
    log = lm.get_or_create("t", 0, topic_id=TOPIC_ID)
    lm.write_pending_state()
    for i in range(4):
        log.append(batch([b"r%d" % i], ts=1), now_ms=1)
    lm.flush_dirty(2)

    def meanwhile() -> None:
        log.truncate_to(2)  # (the loop does not wait for the worker's fsync)
        for i in range(2):  # the new leader's records, at the offsets the flusher took as its own
            log.append_as_follower(batch([b"n%d" % i], ts=1, base_offset=2 + i), now_ms=1)

    during_a_pass(fs, lm, meanwhile)
    assert log.log_end_offset == 4 and log.recovery_point <= 2
    lm.close()


def test_a_truncation_lowers_the_flush_an_append_asked_for_to_the_new_log_end():
    """A follower's flush.messages flush asked up to 12 and done, then a truncation to 5: what is
    awaited is the new log end at most. Else (rev-i finding 1) the replica fetcher's wait for its
    flush never ends once the log end is below the old mark, and a later produce below
    flush.messages waits for a flush nobody asked for (REQUEST_TIMED_OUT, its records written)."""
    fs, lm, asked = managed(LogConfig(flush_messages=4))
    log = lm.get_or_create("t", 0, topic_id=TOPIC_ID)
    lm.write_pending_state()
    for i in range(12):
        log.append(batch([b"x%d" % i], ts=1), now_ms=1, flush_later=True)
    lm.run_requested_flushes()
    assert log.recovery_point == log.flush_wanted_upto == 12
    log.truncate_to(5)
    assert log.flush_wanted_upto == 5 and not log.flush_awaited and log.unflushed_messages == 0
    n = len(asked)
    info = log.append(batch([b"p"], ts=1), now_ms=1, flush_later=True)  # below flush.messages: none asked
    assert len(asked) == n and not lm.flushes_due
    assert log.flush_wanted_upto <= info.last_offset and not log.flush_awaited  # (the produce answers at once)
    log.truncate_fully_and_start_at(20)
    assert log.flush_wanted_upto <= 20 and not log.flush_awaited
    lm.close()


def test_a_truncation_during_the_flush_asks_for_the_flush_still_awaited():
    """The flusher's pass takes offsets 0-3 (an append at flush.messages waits for it), a truncation
    to 2 comes during its fsyncs: the pass moves no recovery point, and what is still awaited, below
    the new log end, is asked again, so the next pass flushes it and the wait ends."""
    fs = GatedFS()
    lm = LogManager("/data", fs=fs, default_config=LogConfig(flush_messages=4))
    lm.flusher = lambda: None
    log = lm.get_or_create("t", 0, topic_id=TOPIC_ID)
    lm.write_pending_state()
    for i in range(4):
        log.append(batch([b"r%d" % i], ts=1), now_ms=1, flush_later=True)
    assert log.flush_awaited and lm.flushes_due
    during_a_pass(fs, lm, lambda: log.truncate_to(2))
    assert log.recovery_point == 0 and log.flush_wanted_upto == 2 and log.flush_awaited
    assert lm.flushes_due  # asked again
    lm.run_requested_flushes()
    assert log.recovery_point == 2 and not log.flush_awaited
    lm.close()


def test_a_flush_covering_a_segment_made_since_the_last_one_fsyncs_the_directory():
    """Kafka's LocalLog.flush fsyncs the log's directory when a flushed segment was made since the
    recovery point, before the recovery point moves (markFlushed): the new segment file's entry is
    durable when the waiting produce is answered (the checkpoint's own directory fsync comes after)."""
    seen: list[int] = []

    class NotingFS(FaultyFileSystem):
        def fsync_dir(self, path: str) -> None:
            if path == "/data/t-0":
                seen.append(log.recovery_point)
            super().fsync_dir(path)

    fs = NotingFS()
    lm = LogManager("/data", fs=fs, default_config=LogConfig(flush_messages=1))
    lm.flusher = lambda: None
    log = lm.get_or_create("t", 0, topic_id=TOPIC_ID)
    lm.write_pending_state()
    log.append(batch([b"a"], ts=1), now_ms=1, flush_later=True)
    seen.clear()
    lm.run_requested_flushes()
    assert log.recovery_point == 1 and 0 in seen  # segment 0, made since recovery point 0
    log.append(batch([b"b"], ts=1), now_ms=1, flush_later=True)
    seen.clear()
    lm.run_requested_flushes()
    assert log.recovery_point == 2 and 1 not in seen  # (the same segment: no directory entry new)
    lm.close()


def test_a_log_whose_pending_state_fails_for_space_leaves_the_others_going():
    """ENOSPC writing one log's partition.metadata puts that log back for the next pass; the pass goes on
    with the other logs (another log dir may have space), not stopping at the first failure."""
    fs = FaultyFileSystem()
    lm = LogManager("/data", fs=fs, default_config=LogConfig())
    lm.get_or_create("t", 0, topic_id=TOPIC_ID, defer_files=True)
    lm.get_or_create("u", 0, topic_id=b"\x0a" * 16, defer_files=True)
    fs.fail_writes(errno.ENOSPC, match=lambda path: "/t-0/" in path)
    lm.write_pending_state()
    assert fs.exists("/data/u-0/partition.metadata")
    assert not fs.exists("/data/t-0/partition.metadata")
    fs.clear_write_faults()
    lm.write_pending_state()  # (retried)
    assert fs.exists("/data/t-0/partition.metadata")
    lm.close()


def test_a_pass_whose_leader_epochs_write_is_overtaken_asks_for_the_flush_again():
    """An append of a new leader epoch at flush.messages waits for its flush; while the pass writes the
    leader-epoch-checkpoint the log start moves (DeleteRecords, retention, a follower following the
    leader's log start), replacing the epochs cache: the pass fsyncs the records but cannot move the
    recovery point, so it asks for the flush again and the next pass ends the wait (rev-k finding 1:
    nothing asked again, the produce was answered REQUEST_TIMED_OUT with its records durable)."""
    fs = EpochsGate()
    lm = LogManager("/data", fs=fs, default_config=LogConfig(flush_messages=1))
    lm.flusher = lambda: None
    log = lm.get_or_create("t", 0, topic_id=TOPIC_ID)
    lm.write_pending_state()
    log.assign_epoch(3, 0)
    for i in range(3):
        log.append(batch([b"r%d" % i], ts=1), now_ms=1)
    lm.run_requested_flushes()
    assert log.recovery_point == 3
    log.assign_epoch(4, log.log_end_offset)
    info = log.append(batch([b"p"], ts=1, partition_leader_epoch=4), now_ms=1, flush_later=True)
    log.high_watermark = log.log_end_offset
    fs.armed = True
    worker = threading.Thread(target=lm.run_requested_flushes)
    worker.start()
    assert fs.entered.wait(30)
    log.delete_records(1)
    fs.gate.set()
    worker.join(30)
    assert not worker.is_alive()
    assert log.flush_awaited and lm.flushes_due  # asked again
    fs.armed = False
    lm.run_requested_flushes()
    assert log.flushed(info.last_offset + 1) and not log.flush_awaited and log.recovery_point == 4
    lm.close()
