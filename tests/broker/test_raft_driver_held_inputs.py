"""Inputs held while a Ready is written on the raft IO thread are all stepped once it is, even when
proposals keep coming during every write (review rev-h of 38dccbd): the driver stepped one held input
per write at most, and none when a tick was due at the write's end (a write as long as a tick, 50 ms),
so a leader under a steady stream of proposals never stepped its followers' fetches: no commit, and
check-quorum made it resign."""

import asyncio
import threading
import time

from odradek.log.fs import FaultyFileSystem
from odradek.raft import rpc

from test_raft_driver_faults import StateMachine, lone_leader, until


class OneFsyncAtATime(FaultyFileSystem):
    """Each file fsync off the loop's thread takes a permit (a disk the test lets go one fsync at a time)."""

    def __init__(self):
        super().__init__()
        self.permits = threading.Semaphore(0)
        self.free = True
        self.loop_thread = threading.get_ident()

    def _fsync(self, path, inode) -> None:
        if not self.free and threading.get_ident() != self.loop_thread:
            assert self.permits.acquire(timeout=10)
        super()._fsync(path, inode)


def test_held_inputs_are_stepped_at_the_end_of_a_write_whatever_proposals_came_meanwhile():
    fs = OneFsyncAtATime()
    fs.makedirs("/meta")
    halted: list = []
    skew = [0.0]  # (the driver's clock: monotonic, moved on by the test)

    async def scenario():
        d = await lone_leader(StateMachine(), fs, clock=lambda: time.monotonic() + skew[0], halt=halted.append)
        try:
            fs.free = False
            d.propose([b"p0"], 0)
            assert d._writing is not None
            answer = d.step_request(rpc.fetch_request(None, 7, d.node.epoch, 0, 0, 0, 0, 0))  # (held)
            for k in range(1, 6):  # every write ends a tick later, a new proposal having come meanwhile
                d.propose([b"p%d" % k], 0)
                skew[0] += 0.06  # (a tick due at the write's end)
                written = d._writing
                fs.permits.release()
                await until(lambda: d._writing is not written)
                if answer.done():
                    break
            assert not halted
            assert answer.done() and rpc.part(answer.result()).error_code == 0
        finally:
            fs.free = True
            fs.permits.release(10)
            d.close()

    asyncio.run(scenario())
