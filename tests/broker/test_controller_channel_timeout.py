"""A request to the controller that is not answered in time closes its connection, as Kafka's
NetworkClient does on a request timeout. A controller answers a connection's requests strictly in
order, so a retry sent behind the unanswered request on the same connection would wait with it:
under load a broker's heartbeats stayed queued behind a write waiting for its commit, and the
controller fenced a live broker. Here a controller holds the first request of the first
connection forever; the next call must reach it on a new connection and be answered."""
from __future__ import annotations

import asyncio
import struct
from types import SimpleNamespace

import pytest

from odradek.broker.controller_api import BROKER_HEARTBEAT
from odradek.broker.controller_channel import ControllerChannel
from odradek.broker.node_link import PLAINTEXT_LINK
from odradek.wire.api import decode_request, encode_response
from odradek.wire.errors import ErrorCode
from odradek.wire.messages import broker_heartbeat_request as bhq, broker_heartbeat_response as bhr

_size = struct.Struct(">i")


class FakeController:
    """A controller listener on a free port, serving each connection with _serve."""

    server: asyncio.Server | None = None

    async def start(self) -> int:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        return self.server.sockets[0].getsockname()[1]


class InOrderController(FakeController):
    """A controller listener that answers each connection's requests in order (BrokerHeartbeat:
    no error), except the very first request it gets, which it never answers."""

    def __init__(self):
        self.connections = 0
        self.answered = 0

    async def _serve(self, reader, writer):
        self.connections += 1
        first_connection = self.connections == 1
        try:
            while True:
                (size,) = _size.unpack(await reader.readexactly(4))
                header, _ = decode_request(await reader.readexactly(size))
                if first_connection:
                    await asyncio.Event().wait()  # held: everything behind it on this connection waits
                writer.write(encode_response(header.request_api_key, header.request_api_version,
                                             header.correlation_id, bhr.BrokerHeartbeatResponse(error_code=0)))
                self.answered += 1
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()


def _channel(port: int) -> ControllerChannel:
    server = SimpleNamespace(voters={1: ("127.0.0.1", port)}, node_id=4, controller_link=PLAINTEXT_LINK,
                             leader_id=1, is_controller=False)
    return ControllerChannel(server)


def _heartbeat() -> bhq.BrokerHeartbeatRequest:
    return bhq.BrokerHeartbeatRequest(broker_id=4, broker_epoch=7, current_metadata_offset=10)


@pytest.mark.timeout(30)
def test_a_request_timed_out_at_the_controller_does_not_hold_up_the_next():
    async def run():
        controller = InOrderController()
        channel = _channel(await controller.start())
        try:
            stuck = await channel.call(_heartbeat(), 2, BROKER_HEARTBEAT, timeout_s=0.5)
            assert stuck.error_code == ErrorCode.NOT_CONTROLLER  # no answer in time
            resp = await channel.call(_heartbeat(), 2, BROKER_HEARTBEAT, timeout_s=10)
            assert resp.error_code == ErrorCode.NONE
            assert controller.connections == 2 and controller.answered == 1
        finally:
            channel.close()
            controller.server.close()
    asyncio.run(run())


class SilentController(FakeController):
    """A controller listener that reads every request and answers none."""

    def __init__(self):
        self.requests = 0

    async def _serve(self, reader, writer):
        try:
            while True:
                (size,) = _size.unpack(await reader.readexactly(4))
                await reader.readexactly(size)
                self.requests += 1
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()


@pytest.mark.timeout(30)
def test_a_forwarded_request_is_sent_once_and_times_out_as_kafka():
    """A client's admin request relayed to the controller (Kafka's ForwardingManager) waits its whole
    timeout for the one answer - an admin write is not sent twice - then gets what ``timed_out``
    makes (Forwarding: REQUEST_TIMED_OUT, FORWARD_TIMEOUT_S = request.timeout.ms's 30 s)."""
    async def run():
        controller = SilentController()
        channel = _channel(await controller.start())
        try:
            got = await channel.call(_heartbeat(), 2, BROKER_HEARTBEAT, timeout_s=1.5, attempt_s=1.5,
                                     timed_out=lambda: "timed out")
            assert got == "timed out"
            assert controller.requests == 1
        finally:
            channel.close()
            controller.server.close()
    asyncio.run(run())
