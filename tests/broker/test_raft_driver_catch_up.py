"""The raft driver runs every tick that came due before it steps an input (broker/raft_driver.py
_catch_up), as Kafka's KafkaRaftClient.poll() evaluates its state at the current time before each
inbound message. After a gap in which the process was not scheduled (here: a fake clock moved on
with no turn of the event loop), a request is answered by a node whose timers saw the gap: a
follower whose fetch timeout ran out in it grants another voter's pre-vote; before, the missed ticks
came one per turn of the loop, after the waiting requests, and it refused as if its leader were live.

Between inputs the driver sleeps until the tick at which the core's timers act next (RaftNode.next_tick_due)
instead of waking every TICK_MS: with no input at all, the timers still act on time (that no tick before the
one named acts is checked at every tick of the seeded simulation, tests/raft/raft_sim.py)."""
from __future__ import annotations

import asyncio
from types import SimpleNamespace

import pytest

from odradek.broker.raft_driver import TICK_MS, RaftDriver
from odradek.raft import rpc
from odradek.raft.quorum_state import Follower, Prospective
from odradek.raft.types import RaftConfig

FETCH_TIMEOUT_TICKS = 40  # 2 s, Kafka's controller.quorum.fetch.timeout.ms
UNREACHABLE = ("127.0.0.1", 1)


class StateMachine:
    def apply_batch(self, base_offset, values) -> None: ...

    def restore_snapshot(self, data, end_offset) -> None: ...

    def snapshot_bytes(self, end_offset) -> bytes:
        return b""

    def snapshot_ready(self) -> bool:
        return True

    def on_change(self) -> None: ...


def _pre_vote_granted_after(gap_s: float, metadata_dir: str) -> bool:
    """Node 1 follows node 2 (epoch 1); after ``gap_s`` with no turn of the loop, node 3 asks for a pre-vote."""
    clock = SimpleNamespace(s=1000.0)

    async def main() -> bool:
        driver = RaftDriver(1, {1: UNREACHABLE, 2: UNREACHABLE, 3: UNREACHABLE}, metadata_dir,
                            RaftConfig(election_timeout=20, fetch_timeout=FETCH_TIMEOUT_TICKS, request_timeout=6,
                                       tick_ms=TICK_MS), StateMachine(), clock=lambda: clock.s)
        driver.start()
        try:
            driver.step_request(rpc.begin_quorum_epoch_request(None, 2, 1, 1))
            assert isinstance(driver.node.state, Follower) and driver.node.leader_id == 2
            clock.s += gap_s
            answer = driver.step_request(rpc.vote_request(None, 3, 2, 0, 0, True, 1))
            # (stepped once the quorum state naming the leader is written, on the raft IO thread: after
            # the ticks of the gap, as a request that arrives while the loop is not scheduled)
            return rpc.part(await asyncio.wait_for(answer, 10)).vote_granted
        finally:
            driver.close()

    return asyncio.run(main())


@pytest.mark.timeout(30)
def test_a_request_after_a_gap_sees_the_timers_of_the_gap(tmp_path):
    assert _pre_vote_granted_after(3.0, str(tmp_path / "gap")) is True  # 60 ticks > the fetch timeout


@pytest.mark.timeout(30)
def test_within_the_fetch_timeout_the_leader_is_live(tmp_path):
    assert _pre_vote_granted_after(0.5, str(tmp_path / "short")) is False  # 10 ticks


async def _until(pred, timeout_s: float = 20.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout_s
    while not pred():
        assert loop.time() < deadline, "condition not reached"
        await asyncio.sleep(0.02)


@pytest.mark.timeout(60)
def test_a_silent_leader_is_timed_out_with_no_input(tmp_path):
    """Node 1 follows node 2, which never answers; nothing else arrives: the fetch resends and then the
    fetch timeout come from the driver's own wake-ups, and node 1 starts a pre-vote."""

    async def main() -> None:
        driver = RaftDriver(1, {1: UNREACHABLE, 2: UNREACHABLE, 3: UNREACHABLE}, str(tmp_path),
                            RaftConfig(election_timeout=10, fetch_timeout=12, request_timeout=2, fetch_max_wait=1),
                            StateMachine())
        driver.start()
        try:
            driver.step_request(rpc.begin_quorum_epoch_request(None, 2, 1, 1))
            assert isinstance(driver.node.state, Follower)
            start = driver.node.now
            await _until(lambda: isinstance(driver.node.state, Prospective))
            assert driver.node.now - start >= 12  # the fetch timeout's ticks all counted
        finally:
            driver.close()

    asyncio.run(main())


def test_describe_quorum_counts_the_ticks_a_write_holds_back():
    """While a Ready is being written the core steps no tick, so its tick clock lags the real one by
    the write: DescribeQuorum's timestamps (now - the core's ticks since a replica's last fetch) came
    out that much fresher than they are. The ticks held back (RaftDriver.ticks_behind) are counted."""
    from test_raft_driver_apply_faults import GatedFS
    from test_raft_driver_faults import StateMachine as AppliedValues, lone_leader

    from odradek.api_handlers.describe_quorum import from_node

    fs, offset = GatedFS(), SimpleNamespace(s=0.0)

    async def main() -> None:
        loop = asyncio.get_running_loop()
        d = await lone_leader(AppliedValues(), fs, clock=lambda: loop.time() + offset.s)
        try:
            await asyncio.wait_for(d.step_request(rpc.fetch_request(None, 7, d.node.epoch, 0, 0, 0, 0, 0)), 10)
            fs.gate.clear()
            d.propose([b"v1"], 0)
            assert d._writing is not None
            offset.s += 1.0  # (a second passes while the write is under way: 20 ticks held back)
            d.catch_up()
            now_ms = 10_000_000
            part = from_node(d.node, now_ms, TICK_MS, {}, d.ticks_behind()).topics[0].partitions[0]
            (observer,) = part.observers
            assert now_ms - observer.last_fetch_timestamp >= 1000
        finally:
            fs.gate.set()
            d.close()

    asyncio.run(main())
