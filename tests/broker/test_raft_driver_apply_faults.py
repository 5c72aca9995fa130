"""The asyncio Raft driver when the state machine fails on a committed batch, when a write fails with
responses in its Ready, and at close. Kafka's policy per role: a controller's replay fault is fatal
(QuorumController's fatal fault handler), a broker's metadata loader counts it and goes on; either way
a committed batch is applied once at most and a written Ready is never written again. A Ready whose
write failed keeps its responses for the Ready that is written; a close answers what it holds."""

import asyncio
import errno
import threading

import pytest

from odradek.log.fs import FaultyFileSystem
from odradek.raft import rpc

from test_raft_driver_faults import StateMachine, lone_leader, until


class GatedFS(FaultyFileSystem):
    """File fsyncs off the loop's thread wait for ``gate`` (a slow disk); ``fsyncs``: how many ran."""

    def __init__(self):
        super().__init__()
        self.gate, self.loop_thread, self.fsyncs = threading.Event(), threading.get_ident(), 0
        self.gate.set()
        self.makedirs("/meta")

    def _fsync(self, path, inode) -> None:
        if threading.get_ident() != self.loop_thread:
            assert self.gate.wait(10)
        self.fsyncs += 1
        super()._fsync(path, inode)


class FailsOn(StateMachine):
    """Raises applying the batch holding ``poison`` (``times`` times, then applies it)."""

    def __init__(self, poison: bytes, times: int):
        super().__init__()
        self.poison, self.times = poison, times

    def apply_batch(self, base_offset, values):
        if self.poison in values and self.times > 0:
            self.times -= 1
            raise ValueError("a record the state machine cannot apply")
        super().apply_batch(base_offset, values)


async def two_batches_in_one_ready(d, fs) -> int:
    """b0 written (slowly) while b1 and b2 are proposed: one later Ready commits both; b2's last offset."""
    fs.gate.clear()
    d.propose([b"b0"], 0)
    assert d._writing is not None
    d.propose([b"b1"], 0)
    last = d.propose([b"b2"], 0)
    fs.gate.set()
    return last


def test_a_batch_is_never_applied_twice_when_a_later_one_in_its_ready_fails():
    """b1 and b2 committed by one Ready; the state machine raises once, on b2: b1 was applied again
    when the Ready was offered again (a controller's PartitionChange replay then bumped the partition
    epoch twice). A broker's driver counts the fault; b2 is not applied again, the next batch is."""
    fs, sm = GatedFS(), FailsOn(b"b2", times=1)

    async def scenario():
        d = await lone_leader(sm, fs)
        try:
            await asyncio.wait_for(d.wait_applied(await two_batches_in_one_ready(d, fs)), 10)
            await asyncio.wait_for(d.wait_applied(d.propose([b"b3"], 0)), 10)
            assert sm.values == [b"b0", b"b1", b"b3"] and d.apply_faults == 1
        finally:
            d.close()

    asyncio.run(scenario())


def test_a_poison_batch_is_neither_rewritten_nor_blocks_the_log():
    """The state machine always fails on one batch: the driver wrote its Ready again and re-applied it
    every tick, and no later batch was ever applied. Now: counted once, the next batch applied, and
    the disk idle meanwhile (the written Ready is never written again)."""
    fs, sm = GatedFS(), FailsOn(b"poison", times=1 << 30)

    async def scenario():
        d = await lone_leader(sm, fs)
        try:
            await asyncio.wait_for(d.wait_applied(d.propose([b"poison"], 0)), 10)
            after = d.propose([b"after"], 0)
            await asyncio.wait_for(d.wait_applied(after), 10)
            assert sm.values == [b"after"] and d.apply_faults == 1
            fsyncs, now = fs.fsyncs, d.node.now
            await until(lambda: d.node.now >= now + 4)  # (ticks, with nothing to write)
            assert fs.fsyncs == fsyncs and d.apply_faults == 1
        finally:
            d.close()

    asyncio.run(scenario())


def test_a_controllers_apply_fault_is_fatal_as_kafkas_quorum_controller():
    """A controller's driver (apply_faults_fatal): the fault halts the node (Kafka's fatal fault
    handler); with a halt that returns, the driver applies and steps nothing more, and b1 stays
    applied once."""
    fs, sm = GatedFS(), FailsOn(b"b2", times=1)
    halted = []

    async def scenario():
        d = await lone_leader(sm, fs, halt=halted.append, apply_faults_fatal=True)
        try:
            await two_batches_in_one_ready(d, fs)
            await until(lambda: halted)
            assert halted == [1] and sm.values == [b"b0", b"b1"]
            with pytest.raises(ConnectionError):
                await d.step_request(rpc.fetch_request(None, 7, d.node.epoch, 0, 0, 0, 0, 0))
            now = d.node.now
            await asyncio.sleep(0.3)  # (nothing to wait for: a halted driver does not tick)
            assert d.node.now == now and sm.values == [b"b0", b"b1"]
        finally:
            d.close()

    asyncio.run(scenario())


def test_a_response_in_a_ready_whose_write_failed_is_sent_after_the_retried_write():
    """A full disk fails the Ready that carries an observer's fetch response: the response was dropped
    (its requester's connection waited 30 s). Now it is not sent while the write fails, and is once
    the write is retried with space back."""
    fs, sm = GatedFS(), StateMachine()

    async def scenario():
        d = await lone_leader(sm, fs)
        try:
            fs.fail_writes(errno.ENOSPC)
            d.propose([b"v1"], 0)
            await until(lambda: d.write_error is not None)
            fetch = d.step_request(rpc.fetch_request(None, 7, d.node.epoch, 0, 0, 0, 0, 0))
            failed = fs.failed_writes
            await until(lambda: fs.failed_writes > failed + 1)  # (its Ready failed, and again)
            assert not fetch.done()  # (never sent before its Ready is written)
            fs.clear_write_faults()
            answer = await asyncio.wait_for(fetch, 10)
            assert rpc.part(answer).error_code == 0
        finally:
            d.close()

    asyncio.run(scenario())


def test_close_fails_the_requests_it_holds_and_a_closed_driver_takes_none():
    """A request that came while a write was under way is held; close() carried the write out and
    dropped the request unanswered (its connection waited 30 s). Now it fails at once (the connection
    closes), as does a request after the close."""
    fs, sm = GatedFS(), StateMachine()

    async def scenario():
        d = await lone_leader(sm, fs)
        fs.gate.clear()
        d.propose([b"v1"], 0)
        assert d._writing is not None
        held = d.step_request(rpc.fetch_request(None, 7, d.node.epoch, 0, 0, 0, 0, 0))
        fs.gate.set()
        d.close()
        with pytest.raises(ConnectionError):
            await asyncio.wait_for(held, 10)
        with pytest.raises(ConnectionError):
            await d.step_request(rpc.fetch_request(None, 8, d.node.epoch, 0, 0, 0, 0, 0))
        assert sm.values == [b"v1"]

    asyncio.run(scenario())
