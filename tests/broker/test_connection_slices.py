"""A connection's pipelined requests are served in slices: once one connection has held the event
loop for connection.SERVE_SLICE_S, the other connections' ready requests go first (Kafka serves a
connection's next request only after the previous one's response), so a client's backlog never
holds the broker."""

from __future__ import annotations

import asyncio
import socket
import struct
import time

from odradek.broker.connection import KafkaConnection
from connection_stand_in import stand_in_server, until

BACKLOG = 20
COST_S = 0.001  # what handling one request of the backlog takes


class _Recording(KafkaConnection):
    """A connection whose requests are handled by taking COST_S of the loop and noting the order."""

    def __init__(self, server, name: str, handled: list):
        super().__init__(server)
        self.label = name
        self.handled = handled

    async def _handle(self, frame, loop, queued: float = 0.0) -> None:
        end = time.perf_counter() + COST_S
        while time.perf_counter() < end:  # CPU on the loop, no await: as a synchronous handler
            pass
        self.handled.append((self.label, bytes(frame)))


def _frame(i: int) -> bytes:
    body = struct.pack(">hhi", 3, 12, i)  # a request header's key, version, correlation id
    return struct.pack(">i", len(body)) + body


async def _pair(name: str, handled: list):
    server_sock, client_sock = socket.socketpair()
    conn = _Recording(stand_in_server(), name, handled)
    await asyncio.get_running_loop().connect_accepted_socket(lambda: conn, sock=server_sock)
    return conn, client_sock


def test_another_connections_request_is_served_within_a_backlog():
    async def main():
        handled: list = []
        (a, a_sock), (b, b_sock) = await _pair("backlog", handled), await _pair("other", handled)
        try:
            a_sock.sendall(b"".join(_frame(i) for i in range(BACKLOG)))
            b_sock.sendall(_frame(0))
            await until(lambda: len(handled) == BACKLOG + 1)
        finally:
            for conn, sock in ((a, a_sock), (b, b_sock)):
                conn.close(abort=True)
                sock.close()
        order = [name for name, _ in handled]
        assert order.index("other") < BACKLOG  # served before the backlog's last request
        assert [f for name, f in handled if name == "backlog"] == [_frame(i)[4:] for i in range(BACKLOG)]

    asyncio.run(main())
