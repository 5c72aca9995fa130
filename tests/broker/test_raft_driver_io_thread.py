"""A Raft quorum's metadata log is written on each driver's raft IO thread, never on the event loop
(issue 27): three RaftDrivers in one event loop, each on its own in-memory disk that notes the thread
of every file fsync, elect a leader and commit a stream of metadata batches through
real sockets (the Kafka raft RPCs), with snapshots every few KiB (each moving the log start: the log
after it rewritten). Not one fsync ran on the loop's thread (before: 20, 20 and 127 on the three
nodes); once all is applied, the committed records are on the disk of a majority after a power loss
(only fsynced bytes kept)."""
from __future__ import annotations

import asyncio
import struct
import threading

import pytest

from odradek.broker.raft_driver import RaftDriver
from odradek.log.fs import FaultyFileSystem
from odradek.raft.file_storage import FileStorage
from odradek.raft.local_log import DIR_NAME
from odradek.raft.types import RaftConfig
from odradek.wire.api import decode_request, encode_response

from test_raft_driver_faults import StateMachine, until

_size = struct.Struct(">i")
BATCHES = 120


def disk() -> FaultyFileSystem:
    fs = FaultyFileSystem()  # (it counts the file fsyncs of each thread: fsyncs_by_thread)
    fs.makedirs("/meta")
    return fs


class Values(StateMachine):
    """The record values applied, in order; its snapshot holds them all."""

    def apply_batch_steps(self, base_offset, values):
        self.apply_batch(base_offset, values)
        yield

    def restore_snapshot(self, data, end_offset) -> None:
        self.values = data.split(b",") if data else []

    def snapshot_bytes(self, end_offset) -> bytes:
        return b",".join(self.values)


async def _serve(drivers: dict, node_id: int, reader, writer) -> None:
    """The CONTROLLER listener's raft RPCs, one request at a time per connection (as Kafka's)."""
    try:
        while True:
            (n,) = _size.unpack(await reader.readexactly(4))
            header, req = decode_request(await reader.readexactly(n))
            resp = await drivers[node_id].step_request(req)
            writer.write(encode_response(header.request_api_key, header.request_api_version,
                                         header.correlation_id, resp))
    except (asyncio.IncompleteReadError, ConnectionError, asyncio.CancelledError):
        pass
    finally:
        writer.close()


@pytest.mark.timeout(120)
def test_a_quorum_commits_with_no_fsync_on_the_event_loop():
    disks = {i: disk() for i in (1, 2, 3)}
    sms = {i: Values() for i in (1, 2, 3)}
    loop_thread = threading.get_ident()
    proposed: list[bytes] = []

    async def main() -> None:
        drivers: dict[int, RaftDriver] = {}
        servers = {i: await asyncio.start_server(lambda r, w, i=i: _serve(drivers, i, r, w), "127.0.0.1", 0)
                   for i in disks}
        voters = {i: ("127.0.0.1", s.sockets[0].getsockname()[1]) for i, s in servers.items()}
        config = RaftConfig(election_timeout=4, fetch_timeout=20, request_timeout=6, fetch_max_wait=2, tick_ms=50)
        for i in disks:
            drivers[i] = RaftDriver(i, voters, "/meta", config, sms[i], snapshot_every_bytes=4096, fs=disks[i])
        for d in drivers.values():
            d.start()
        try:
            def leader():
                return next((d for d in drivers.values()
                             if d.node.is_leader and d.applied > d.node.state.epoch_start_offset), None)

            await until(lambda: leader() is not None, 60)
            last = -1
            for k in range(BATCHES):
                d = leader()
                if d is None:  # (an election meanwhile: propose again on the next leader)
                    await until(lambda: leader() is not None, 60)
                    d = leader()
                batch = [b"v%d-%d" % (k, j) for j in range(3)]
                last = d.propose(batch, 0)
                proposed.extend(batch)
                if k % 10 == 9:
                    await asyncio.wait_for(d.wait_applied(last), 30)
            await until(lambda: all(d.applied > last for d in drivers.values()), 60)
            snapshots = sum(1 for d in drivers.values() if d.node.log.start_offset > 0)
            assert snapshots == 3  # every node took snapshots and moved its log start
            on_loop = {i: fs.fsyncs_by_thread.get(loop_thread, 0) for i, fs in disks.items()}
            assert on_loop == {1: 0, 2: 0, 3: 0}
            assert all(fs.fsyncs > BATCHES // 10 for fs in disks.values())  # (they did write)
        finally:
            for d in drivers.values():
                d.close()
            for s in servers.values():
                s.close()

    asyncio.run(main())
    leader_values = [sm.values for sm in sms.values() if len(sm.values) >= len(proposed)]
    assert leader_values and all(v[-len(proposed):] == proposed for v in leader_values)
    # after a power loss (only fsynced bytes kept), a majority holds every committed record
    holding = 0
    for fs in disks.values():
        state = FileStorage("/meta/" + DIR_NAME, fs.restart("lost")).load()
        values = state.snapshot.data.split(b",") if state.snapshot else []
        values += [v for b in state.batches if not b.control and b.base_offset >= state.snapshot.id.end_offset
                   for v in b.records]
        holding += values[-len(proposed):] == proposed
    assert holding >= 2
