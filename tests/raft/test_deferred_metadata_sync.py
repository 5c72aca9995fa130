"""A metadata write whose fsync runs off the event loop (issue 27 fairness): the single voter's
append in three parts (LocalRaftLog.begin_append / its PendingSync / end_append) and the
controller's deferring scope around a large admin write's step.

What must hold: nothing is committed, replayed or applied before its fsync returned; a crash
at any byte (power loss or kill -9) recovers a committed prefix holding everything
acknowledged; a failed fsync cuts the batch off, fails only the write that made it, and later
writes succeed.
"""

from __future__ import annotations

import errno
import threading

import pytest

from odradek.controller.controller import Controller, CreateTopicSpec
from odradek.controller.image import BrokerImage
from odradek.log.fs import FaultyFileSystem
from odradek.raft.local_log import LocalRaftLog
from test_metadata_log_faults import DATA, VALUES, crash_at_every_byte, new_fs, state

def deferred_workload(fs: FaultyFileSystem, acked: list[bytes]) -> None:
    """Appends in three parts (one of them ended by the next append instead of end_append), a
    snapshot, a restart, more appends."""
    log = LocalRaftLog(DATA, 1, fs)
    applied: list[bytes] = []
    for i, v in enumerate(VALUES):
        log.begin_append([v])
        if i == 3:  # ended by the next call (as another client's write settles it)
            log.append([b"sync"])
            acked.append(v)
            acked.append(b"sync")
            applied += [v, b"sync"]
            continue
        log.pending_sync()  # (a worker thread in the broker)
        log.end_append()
        acked.append(v)
        applied.append(v)
        if i == 1:
            log.snapshot(b",".join(applied))
        if i == 2:
            log = LocalRaftLog(DATA, 1, fs)
            applied = state(log)


def expected_order() -> list[bytes]:
    acked: list[bytes] = []
    deferred_workload(new_fs(), acked)
    return acked


@pytest.mark.parametrize("mode", ["lost", "kept", "torn"])
def test_crash_at_every_byte_of_deferred_appends_recovers_a_committed_prefix(mode):
    crash_at_every_byte(deferred_workload, expected_order(), mode)


def test_nothing_is_committed_or_durable_before_the_fsync():
    fs = new_fs()
    log = LocalRaftLog(DATA, 1, fs)
    log.append([b"a"])
    hw = log.node.hw
    last = log.begin_append([b"b"])
    assert log.node.hw == hw <= last  # not committed
    assert state(LocalRaftLog(DATA, 1, fs.restart("lost"))) == [b"a"]  # not durable
    fsyncs = fs.fsyncs
    log.pending_sync()
    assert fs.fsyncs == fsyncs + 1
    log.pending_sync()  # once only, whoever calls it
    assert fs.fsyncs == fsyncs + 1
    assert log.node.hw == hw  # durable, still not committed until end_append
    log.end_append()
    assert log.node.hw > last
    assert state(LocalRaftLog(DATA, 1, fs.restart("lost"))) == [b"a", b"b"]


class NotingFS(FaultyFileSystem):
    """Notes the thread of every file fsync (FaultyFile counts them in ``fsyncs``); while ``gate``
    is set, an fsync waits for it before it returns (a slow disk)."""

    def __init__(self, seed: int = 0):
        self.threads: list[int] = []
        self.gate: threading.Event | None = None
        self.entered = threading.Event()
        super().__init__(seed)
        self.makedirs(DATA)

    @property
    def fsyncs(self) -> int:
        return self._fsyncs

    @fsyncs.setter
    def fsyncs(self, n: int) -> None:
        self._fsyncs = n
        if n:
            self.threads.append(threading.get_ident())
            if self.gate is not None:
                self.entered.set()
                assert self.gate.wait(10)


def test_end_append_waits_for_the_fsync_running_on_another_thread():
    fs = NotingFS()
    log = LocalRaftLog(DATA, 1, fs)
    log.begin_append([b"a"])
    fs.threads.clear()
    fs.gate = threading.Event()
    worker = threading.Thread(target=log.pending_sync)
    worker.start()
    assert fs.entered.wait(10)
    ended = threading.Thread(target=log.end_append)
    ended.start()
    ended.join(0.2)
    assert ended.is_alive()  # waits for the worker's fsync
    fs.gate.set()
    worker.join(10)
    ended.join(10)
    assert not ended.is_alive() and not worker.is_alive()
    assert fs.threads == [worker.ident]  # run once, by the worker
    assert log.node.hw > 1
    assert state(LocalRaftLog(DATA, 1, fs.restart("lost"))) == [b"a"]


def test_a_failed_deferred_fsync_cuts_the_batch_and_later_writes_succeed():
    fs = new_fs()
    log = LocalRaftLog(DATA, 1, fs)
    log.append([b"a"])
    log.begin_append([b"b"])
    fs.fail_fsync(errno.EIO)
    log.pending_sync()
    assert log.pending_sync.error.errno == errno.EIO
    with pytest.raises(OSError):
        log.end_append()
    log.append([b"c"])
    for mode in ("lost", "kept"):
        assert state(LocalRaftLog(DATA, 1, fs.restart(mode))) == [b"a", b"c"], mode


def start_controller(fs) -> Controller:
    c = Controller(DATA, 1, {}, 0, fs=fs)
    c.start(BrokerImage(1, "127.0.0.1", 9092), 0)
    return c


def test_a_deferred_controller_write_is_applied_only_after_its_fsync():
    fs = new_fs()
    c = start_controller(fs)
    seen: list[set] = []
    c.add_listener(lambda old, new: seen.append(set(new.topics)))
    with c.deferring() as scope:
        assert c.create_topics([CreateTopicSpec("t1", 2, 1)], False, 1)[0].error_code == 0
    assert scope.pending_sync is not None
    assert "t1" not in c.image.topics and not seen  # written, not applied
    assert set(start_controller(fs.restart("lost")).image.topics) == set()  # nor durable
    scope.pending_sync()  # (the broker's worker thread)
    c.settle(scope)
    assert "t1" in c.image.topics and seen == [{"t1"}]
    assert set(start_controller(fs.restart("lost")).image.topics) == {"t1"}


def test_a_second_write_in_one_scope_and_a_write_outside_settle_the_pending_one_first():
    fs = new_fs()
    c = start_controller(fs)
    with c.deferring() as scope:
        c.create_topics([CreateTopicSpec("t1", 1, 1)], False, 1)
        # decided on an image with t1: a second create of it is refused
        assert c.create_topics([CreateTopicSpec("t1", 1, 1)], False, 2)[0].error_code == 36
        c.create_topics([CreateTopicSpec("t2", 1, 1)], False, 3)
    assert "t1" in c.image.topics and "t2" not in c.image.topics
    assert c.create_topics([CreateTopicSpec("t3", 1, 1)], False, 4)[0].error_code == 0  # not deferred
    assert {"t1", "t2", "t3"} <= set(c.image.topics)
    scope.pending_sync()  # already run by the write that settled it: nothing left to do
    c.settle(scope)
    assert set(start_controller(fs.restart("lost")).image.topics) == {"t1", "t2", "t3"}


def test_a_failed_deferred_fsync_fails_its_own_request_only():
    fs = new_fs()
    c = start_controller(fs)
    c.create_topics([CreateTopicSpec("t0", 1, 1)], False, 1)
    with c.deferring() as scope:
        c.create_topics([CreateTopicSpec("t1", 1, 1)], False, 2)
    fs.fail_fsync(errno.EIO)
    scope.pending_sync()
    # another client's write settles it first: its own write succeeds
    assert c.create_topics([CreateTopicSpec("t2", 1, 1)], False, 3)[0].error_code == 0
    with pytest.raises(OSError):
        c.settle(scope)  # the request that wrote t1 hears the failure
    assert set(c.image.topics) == {"t0", "t2"}
    for mode in ("lost", "kept"):
        assert set(start_controller(fs.restart(mode)).image.topics) == {"t0", "t2"}, mode


def test_the_connection_runs_a_steps_fsync_off_the_loop_then_applies_it():
    """broker/connection.py's step driver: the step's write is made in the controller's deferring
    scope, its fsync runs in the loop's worker threads, the apply follows on the loop; a failed
    fsync is the request's error."""
    import asyncio

    from odradek.api_handlers.context import Stepped
    from odradek.broker.connection import _metadata_durable, _next_step

    fs = NotingFS(seed=3)
    c = start_controller(fs)
    names = iter(["s1", "s2", "s3"])

    def step(now_ms):
        name = next(names, None)
        if name is None:
            return "done"
        c.create_topics([CreateTopicSpec(name, 1, 1)], False, now_ms)
        return None

    async def drive(resp):
        fs.threads.clear()
        while isinstance(resp, Stepped):
            scope = c.deferring()
            resp = _next_step(resp, scope)
            if scope.syncs:
                written = c.image.topics.keys() | set()
                failed = await _metadata_durable(c, scope)
                if failed is not None:
                    return failed, written
        assert len(fs.threads) == 3 and threading.get_ident() not in fs.threads  # one per step, none here
        return resp, None

    got, _ = asyncio.run(drive(Stepped(step)))
    assert got == "done" and {"s1", "s2", "s3"} <= set(c.image.topics)
    assert {"s1", "s2", "s3"} <= set(start_controller(fs.restart("lost")).image.topics)

    names = iter(["f1"])
    fs.fail_fsync(errno.EIO)
    failed, before = asyncio.run(drive(Stepped(step)))
    assert isinstance(failed, OSError) and "f1" not in before and "f1" not in c.image.topics
    assert "f1" not in start_controller(fs.restart("kept")).image.topics
