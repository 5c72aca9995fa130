"""The asyncio Raft driver on a disk that fills up: a Ready that cannot be written is not
acted on (nothing applied, nothing sent) and is written once space returns, exactly once. With its
writes on the raft IO thread: a state machine failing after a write leaves no input unanswered, and
a close during a write waits for it."""

import asyncio
import errno
import threading

from odradek.broker.raft_driver import RaftDriver
from odradek.log.fs import FaultyFileSystem
from odradek.raft.file_storage import FileStorage
from odradek.raft import rpc
from odradek.raft.local_log import DIR_NAME
from odradek.raft.types import RaftConfig


class StateMachine:
    def __init__(self):
        self.values = []

    def apply_batch(self, base_offset, values):
        self.values += list(values)

    def restore_snapshot(self, data, end_offset):
        raise AssertionError("no snapshot expected")

    def snapshot_bytes(self, end_offset):
        return b""

    def snapshot_ready(self):
        return True

    def on_change(self):
        pass


async def until(pred, timeout_s=10.0):
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout_s
    while not pred():
        assert loop.time() < deadline, "condition not reached"
        await asyncio.sleep(0.01)


async def lone_leader(sm, fs, **kw) -> RaftDriver:
    """A single voter's driver on ``fs`` (metadata in /meta), started and leading, its LeaderChange applied."""
    d = RaftDriver(1, {1: ("127.0.0.1", 1)}, "/meta", RaftConfig(election_timeout=2), sm, fs=fs, **kw)
    d.start()
    await until(lambda: d.node.is_leader and d.node.applied > d.node.state.epoch_start_offset)
    return d


def test_a_full_disk_holds_the_write_back_until_space_returns():
    fs = FaultyFileSystem()
    fs.makedirs("/meta")
    sm = StateMachine()

    async def scenario():
        d = await lone_leader(sm, fs)
        try:
            fs.fail_writes(errno.ENOSPC)
            last = d.propose([b"v1"], 0)
            await until(lambda: d.write_error is not None and fs.failed_writes > 1)  # retried, still failing
            assert sm.values == [] and d.node.applied <= last
            fs.clear_write_faults()
            await asyncio.wait_for(d.wait_applied(last), 10)
            assert sm.values == [b"v1"] and d.write_error is None
        finally:
            d.close()

    asyncio.run(scenario())
    state = FileStorage("/meta/" + DIR_NAME, fs).load()
    data = [v for b in state.batches if not b.control for v in b.records]
    assert data == [b"v1"]


def test_a_failing_disk_halts_the_node_as_kafkas_raft_io_thread():
    fs = FaultyFileSystem()
    fs.makedirs("/meta")
    sm = StateMachine()
    halted = []

    async def scenario():
        d = await lone_leader(sm, fs, halt=halted.append)
        try:
            fs.fail_writes(errno.EIO)
            d.propose([b"v1"], 0)
            await until(lambda: halted)
            assert halted[0] == 1 and sm.values == []
        finally:
            d.close()

    asyncio.run(scenario())



def test_a_failed_apply_after_a_write_leaves_no_input_unanswered():
    """Two observers' fetches come while a proposal is written on the raft IO thread (held); once it
    is written, the first one is stepped and the state machine fails on the batch that write committed
    (its apply raises, once): logged, and the second fetch is stepped and answered all the same (a
    failure there once left every later input held for good). A broker's driver (the default): the
    fault is counted and the batch not applied again, as Kafka's MetadataLoader; the next one is."""
    fs = FaultyFileSystem()
    fs.makedirs("/meta")

    class FailsOnce(StateMachine):
        failed = False

        def apply_batch(self, base_offset, values):
            if not self.failed:
                self.failed = True
                raise ValueError("a record the state machine cannot apply (once)")
            super().apply_batch(base_offset, values)

    sm = FailsOnce()

    async def scenario():
        d = await lone_leader(sm, fs)
        try:
            last = d.propose([b"v1"], 0)
            assert d._writing is not None  # (the proposal's write under way: the fetches wait for it)
            epoch = d.node.epoch
            first, second = (d.step_request(rpc.fetch_request(None, r, epoch, 0, 0, 0, 0, 0)) for r in (7, 8))
            answers = await asyncio.wait_for(asyncio.gather(first, second), 10)
            assert all(rpc.part(a).error_code == 0 for a in answers)
            await asyncio.wait_for(d.wait_applied(last), 10)
            assert sm.failed and sm.values == [] and d.apply_faults == 1
            await asyncio.wait_for(d.wait_applied(d.propose([b"v2"], 0)), 10)
            assert sm.values == [b"v2"] and d.apply_faults == 1
        finally:
            d.close()

    asyncio.run(scenario())


def test_close_during_a_write_waits_for_it_then_resigns():
    """close() while a proposal is being written on the raft IO thread (a slow disk): it waits for that
    write and carries it out (applied; the batch on disk whole after a power loss) before it resigns,
    whatever it writes then on the caller's thread (the loop is stopping)."""

    class SlowFS(FaultyFileSystem):
        """File fsyncs off the loop's thread wait for ``gate`` (a slow disk); ``entered``: one waits."""

        def __init__(self):
            super().__init__()
            self.gate, self.entered, self.loop_thread = threading.Event(), threading.Event(), threading.get_ident()

        def _fsync(self, path, inode) -> None:
            if threading.get_ident() != self.loop_thread:
                self.entered.set()
                assert self.gate.wait(10)
            super()._fsync(path, inode)

    fs = SlowFS()
    fs.makedirs("/meta")
    fs.gate.set()
    sm = StateMachine()

    async def scenario():
        d = await lone_leader(sm, fs)
        fs.entered.clear()
        fs.gate.clear()
        d.propose([b"v1"], 0)
        assert d._writing is not None
        disk = threading.Thread(target=lambda: fs.entered.wait(10) and fs.gate.set())  # (answers once asked)
        disk.start()
        d.close()
        assert d._writing is None and sm.values == [b"v1"]  # written, then carried out by close
        disk.join(10)

    asyncio.run(scenario())
    state = FileStorage("/meta/" + DIR_NAME, fs.restart("lost")).load()
    assert [v for b in state.batches if not b.control for v in b.records] == [b"v1"]
