"""The test control API's routes on a node's HTTP listener (odradek.testing.control.enable=true):
/control/faults, /control/clock, /control/connections, /control/pause|resume, /control/network,
answered by odradek/testing/control_api.py; and NodeControl, what those routes do to the node's
own listeners (pause them, reset a client's connections, the test network of
odradek/testing/network.py), which its connections (broker/connection.py) consult."""

from __future__ import annotations

import asyncio

from odradek.broker.http_server import Request, Response, Routes
from odradek.testing import control_api
from odradek.testing.clock import SystemClock, VirtualClock
from odradek.testing.faults import FaultTable
from odradek.testing.network import Network

ROUTES = (("POST", "/control/faults"), ("GET", "/control/faults"), ("DELETE", "/control/faults"),
          ("DELETE", "/control/faults/"), ("GET", "/control/clock"), ("POST", "/control/clock/advance"),
          ("POST", "/control/connections/drop"), ("POST", "/control/pause"), ("GET", "/control/pause"),
          ("POST", "/control/resume"), ("GET", "/control/network"), ("POST", "/control/network"),
          ("DELETE", "/control/network"))


class NodeControl:
    """A node's pause switch, test network and the connections of its listeners (the broker's and,
    on a controller, the CONTROLLER listener's). Lives on the node's event loop."""

    def __init__(self) -> None:
        self.network = Network()
        self._listeners: list[set] = []
        self._running = asyncio.Event()
        self._running.set()

    def govern(self, connections: set) -> None:
        """A listener's set of live connections (KafkaConnection objects)."""
        self._listeners.append(connections)

    @property
    def paused(self) -> bool:
        return not self._running.is_set()

    def pause(self) -> None:
        self._running.clear()

    def resume(self) -> None:
        self._running.set()

    async def wait_running(self) -> None:
        """Returns at once unless paused; then when resumed."""
        if not self._running.is_set():
            await self._running.wait()

    def drop_connections(self, client_id: str) -> int:
        """Reset (abort) every connection whose requests carry ``client_id``."""
        dropped = [c for conns in self._listeners for c in list(conns) if c.client_id == client_id and not c.closed]
        for c in dropped:
            c.close(abort=True)
        return len(dropped)


def add_control_routes(routes: Routes, faults: FaultTable | None, clock: SystemClock | VirtualClock,
                       node: NodeControl) -> None:
    def answer(req: Request) -> Response:
        status, body = control_api.handle(req.method, req.path, req.body, faults, clock, node)
        return Response.json(status, body)

    for method, path in ROUTES:
        routes.add(method, path, answer)
