"""The test control API's routes on the broker's HTTP listener (odradek.testing.control.enable=true):
/control/faults and /control/clock, answered by odradek/testing/control_api.py."""

from __future__ import annotations

from odradek.broker.http_server import Request, Response, Routes
from odradek.testing import control_api
from odradek.testing.clock import SystemClock, VirtualClock
from odradek.testing.faults import FaultTable

ROUTES = (("POST", "/control/faults"), ("GET", "/control/faults"), ("DELETE", "/control/faults"),
          ("DELETE", "/control/faults/"), ("GET", "/control/clock"), ("POST", "/control/clock/advance"))


def add_control_routes(routes: Routes, faults: FaultTable, clock: SystemClock | VirtualClock) -> None:
    def answer(req: Request) -> Response:
        status, body = control_api.handle(req.method, req.path, req.body, faults, clock)
        return Response.json(status, body)

    for method, path in ROUTES:
        routes.add(method, path, answer)
