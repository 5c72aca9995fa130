"""What a parked JoinGroup costs the broker (issue 27): a 10,000-member group parks 10,000 joins,
one per connection, until the group stabilises. Measured in-process over real sockets with
tracemalloc and a count of live objects by type: memory bounds and structure, not times."""
from __future__ import annotations

import asyncio
import collections
import gc
import socket
import time
import tracemalloc

from odradek.api_handlers.context import Delayed, RequestContext
from odradek.api_handlers.join_group import _Parked
from odradek.broker.connection import KafkaConnection
from odradek.broker.purgatory import _Op
from odradek.coordinator.group_state import Member
from odradek.wire.api import encode_request
from odradek.wire.messages.find_coordinator_request import FindCoordinatorRequest
from odradek.wire.messages.join_group_request import JoinGroupRequest, JoinGroupRequestProtocol

from connection_stand_in import stand_in_server
from test_server import Client, Running

MEMBERS = 200
# Python memory per parked join, its connection included (asyncio's loop; uvloop's objects are
# smaller): 12.7 KB before issue 27's cuts, 6.6 KB after
PARKED_BOUND = 8500

JOIN = JoinGroupRequest(group_id="g", session_timeout_ms=300_000, rebalance_timeout_ms=300_000, member_id="",
                        protocol_type="consumer",
                        protocols=[JoinGroupRequestProtocol(name="range", metadata=b"\0" * 16)])


def test_what_a_broker_holds_per_client_and_member_has_no_instance_dict():
    """Slots: an instance dict costs 100-1,500 bytes more per object (KafkaConnection's, past 30
    attributes, is a dict of its own)."""
    for obj in (KafkaConnection(stand_in_server()), Delayed(try_complete=print, on_expire=print, deadline_ms=0),
                RequestContext(api_key=11, api_version=3, correlation_id=1, client_id="c", now_ms=0, services=None),
                Member("m", None, "c", "/h", 1, 1, "consumer", []), _Parked(None, 3, print, print, ""),
                _Op(None, print)):
        assert not hasattr(obj, "__dict__"), type(obj)


def _census() -> collections.Counter:
    gc.collect()
    return collections.Counter(type(o).__name__ for o in gc.get_objects())


def test_parked_joins_cost_a_bounded_few_kilobytes_and_no_closures(tmp_path):
    running = Running(tmp_path, **{"group.initial.rebalance.delay.ms": "300000"})  # the joins stay parked
    sockets: list[socket.socket] = []
    try:
        c = Client(running.port)
        while c.call(FindCoordinatorRequest(key="g", key_type=0), 2).error_code:
            time.sleep(0.05)

        def on_loop(fn):
            async def call():
                return fn()
            return asyncio.run_coroutine_threadsafe(call(), running.loop).result(60)

        def park(n: int) -> None:
            for _ in range(n):
                s = socket.create_connection(("127.0.0.1", running.port))
                s.sendall(encode_request(JOIN, 3, 1, client_id="consumer-1"))
                sockets.append(s)
            while on_loop(lambda: len(running.server.broker.purgatory)) < len(sockets):
                time.sleep(0.02)

        park(5)  # whatever a first group and its first joins make once
        tracemalloc.start()
        try:
            before = on_loop(lambda: (_census(), tracemalloc.get_traced_memory()[0]))
            park(MEMBERS)
            after = on_loop(lambda: (_census(), tracemalloc.get_traced_memory()[0]))
        finally:
            tracemalloc.stop()
        per_member = (after[1] - before[1]) / MEMBERS
        assert per_member < PARKED_BOUND, per_member
        objects = {k: (n - before[0][k]) / MEMBERS for k, n in after[0].items()}
        assert objects.get("cell", 0) < 0.1, objects  # no closure keeps a parked join's request or frame
        assert objects.get("JoinGroupRequestProtocol", 0) <= 1.01  # (its request's, until answered)
        assert objects.get("dict", 0) < 1.1, objects  # (the task's: no per-object dicts)
    finally:
        for s in sockets:
            s.close()
        deadline = time.monotonic() + 60  # their tasks end before the loop does
        while len(running.server.connections) > 1 and time.monotonic() < deadline:
            time.sleep(0.02)
        running.stop()


def test_an_answered_connection_keeps_no_coroutine_of_its_request(tmp_path):
    """Once answered, an idle connection holds its task's coroutine only (a finished request's
    coroutine keeps its frame's memory: ~600 bytes on each of 10,000 idle members' connections)."""
    from odradek.wire.messages.api_versions_request import ApiVersionsRequest

    running = Running(tmp_path)
    clients: list[Client] = []
    try:
        clients.append(Client(running.port))
        clients[0].call(ApiVersionsRequest(), 0)

        def on_loop(fn):
            async def call():
                return fn()
            return asyncio.run_coroutine_threadsafe(call(), running.loop).result(60)

        before = on_loop(_census)
        for _ in range(50):
            c = Client(running.port)
            c.call(ApiVersionsRequest(), 0)
            clients.append(c)
        after = on_loop(_census)
        assert (after["coroutine"] - before["coroutine"]) / 50 <= 1.0
    finally:
        for c in clients:
            c.sock.close()
        running.stop()
