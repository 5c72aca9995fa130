"""The Raft driver applies a committed large batch a part at a time (issue 27): more than
STEPPED_APPLY records go through the state machine's apply_batch_steps, one part a loop turn, the
batches committed after it wait behind it in order, and the driver's ``applied`` (what the state
machine holds: wait_applied, the active controller's own check) moves past the batch only once its
last part is done. Counted in parts and order, not timed."""
from __future__ import annotations

import asyncio

from odradek.broker.raft_driver import STEPPED_APPLY, RaftDriver
from odradek.log import FaultyFileSystem
from odradek.raft.types import RaftConfig

from test_raft_driver_faults import StateMachine as Values, until


class StateMachine(Values):
    """Records how each batch was applied: whole, or in parts (apply_batch_steps)."""

    def __init__(self):
        super().__init__()
        self.applied: list[tuple[str, int, int]] = []  # (how, base offset, records)
        self.parts = 0

    def apply_batch(self, base_offset, values):
        self.applied.append(("whole", base_offset, len(values)))

    def apply_batch_steps(self, base_offset, values):
        for _ in range(0, len(values), STEPPED_APPLY):
            self.parts += 1
            yield
        self.applied.append(("steps", base_offset, len(values)))


def test_a_large_committed_batch_is_applied_in_parts_and_the_next_waits_behind_it():
    fs = FaultyFileSystem()
    fs.makedirs("/meta")
    sm = StateMachine()
    n = 3 * STEPPED_APPLY + 5

    async def scenario():
        d = RaftDriver(1, {1: ("127.0.0.1", 1)}, "/meta", RaftConfig(election_timeout=2), sm, fs=fs)
        d.start()
        try:
            await until(lambda: d.node.is_leader and d.applied > d.node.state.epoch_start_offset)
            large = d.propose([b"v%d" % i for i in range(n)], 0)
            small = d.propose([b"after"], 0)  # (while the large one is written: the next write)
            assert d.applied <= large - n + 1 and sm.applied == []  # nothing of it applied in that turn
            done = d.wait_applied(small)
            seen = []
            while not done.done():
                seen.append((sm.parts, d.applied))
                await asyncio.sleep(0)
            assert sm.applied == [("steps", large - n + 1, n), ("whole", small, 1)]
            assert sm.parts == 4 and len({p for p, _ in seen}) >= 3  # one part a loop turn
            assert all(applied <= large for _, applied in seen)  # not past it before its last part
            assert d.applied == small + 1 and d.node.applied > small
        finally:
            d.close()

    asyncio.run(scenario())
