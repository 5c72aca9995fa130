"""The HTTP control API of a test broker (``odradek.testing.control.enable=true``), as a pure
function of (method, path, body): the broker's HTTP listener (broker/http_server.py) hands the
/control requests here and writes back the status and JSON.

    POST   /control/faults           {"api": "Produce", "error": "NOT_LEADER_OR_FOLLOWER", "times": 2, ...}
                                     -> 201 {"id": 1}
    GET    /control/faults           -> 200 {"faults": [...]} (each with its hits and what is left)
    DELETE /control/faults/{id}      -> 200 {"removed": true} / 404
    DELETE /control/faults           -> 200 {"removed": N}
    GET    /control/clock            -> 200 {"now_ms": N, "virtual": bool}
    POST   /control/clock/advance    {"ms": N} -> 200 {"now_ms": N} (409 without the virtual clock)
    POST   /control/connections/drop {"client_id": "c"} -> 200 {"dropped": N} (each reset)
    POST   /control/pause            -> 200 {"paused": true}: the node's listeners read and answer nothing
    POST   /control/resume           -> 200 {"paused": false}
    GET    /control/pause            -> 200 {"paused": bool}
    GET    /control/network          -> 200 {"cut": [ids], "clients_cut": bool, "slow": {"id": ms}}
    POST   /control/network          {"cut": [ids], "clients": bool, "slow": {"id": ms}, "heal": bool} -> 200 (the same)
    DELETE /control/network          -> 200 (healed: nothing cut, nothing slow)

A controller-only node has no faults (404) and a system clock; its pause and network routes work.
"""

from __future__ import annotations

import json
from typing import Protocol

from .clock import SystemClock, VirtualClock
from .faults import FaultError, FaultTable, parse
from .network import Network, NetworkError


class NodePort(Protocol):
    """What the control API does to the node itself (broker/control_routes.NodeControl)."""

    network: Network

    @property
    def paused(self) -> bool: ...

    def pause(self) -> None: ...

    def resume(self) -> None: ...

    def drop_connections(self, client_id: str) -> int: ...

PREFIX = "/control"


def _json(body: bytes):
    try:
        return json.loads(body or b"null")
    except ValueError as e:
        raise FaultError(f"the body is not JSON: {e}") from None


def handle(method: str, path: str, body: bytes, faults: FaultTable | None, clock: SystemClock | VirtualClock,
           node: NodePort | None = None) -> tuple[int, dict]:
    """(HTTP status, JSON answer) of one control request."""
    parts = [p for p in path.removeprefix(PREFIX).split("/") if p]
    try:
        if parts and parts[0] in ("connections", "pause", "resume", "network"):
            if node is None:
                return 404, {"error": f"no control resource {path} on this node"}
            return _node(method, path, parts, body, node)
        if parts and parts[0] == "faults" and faults is None:
            return 404, {"error": "this node takes no faults (a controller-only node: inject them on a broker)"}
        if parts == ["faults"]:
            if method == "POST":
                return 201, {"id": faults.add(parse(_json(body)))}
            if method == "GET":
                return 200, {"faults": faults.rules()}
            if method == "DELETE":
                return 200, {"removed": faults.clear()}
        elif len(parts) == 2 and parts[0] == "faults":
            if method == "DELETE":
                if not parts[1].isdigit():
                    return 400, {"error": f"a fault id is a number, not {parts[1]!r}"}
                removed = faults.remove(int(parts[1]))
                return (200 if removed else 404), {"removed": removed}
        elif parts == ["clock"]:
            if method == "GET":
                return 200, {"now_ms": clock.now_ms(), "virtual": clock.virtual}
        elif parts == ["clock", "advance"]:
            if method == "POST":
                if not isinstance(clock, VirtualClock):
                    return 409, {"error": "this broker runs on the system clock: start it with "
                                          "odradek.testing.virtual.clock=true to advance its clock"}
                req = _json(body)
                ms = req.get("ms") if isinstance(req, dict) else None
                if isinstance(ms, bool) or not isinstance(ms, int) or ms < 0:
                    return 400, {"error": f'the body is {{"ms": N}} with N a whole number >= 0, not {req!r}'}
                return 200, {"now_ms": clock.advance(ms)}
        else:
            return 404, {"error": f"no control resource {path}"}
    except FaultError as e:
        return 400, {"error": str(e)}
    return 405, {"error": f"{method} is not allowed on {path}"}


def _node(method: str, path: str, parts: list[str], body: bytes, node: NodePort) -> tuple[int, dict]:
    if parts == ["connections", "drop"] and method == "POST":
        req = _json(body)
        client_id = req.get("client_id") if isinstance(req, dict) else None
        if not isinstance(client_id, str):
            return 400, {"error": f'the body is {{"client_id": "..."}}, not {req!r}'}
        return 200, {"dropped": node.drop_connections(client_id)}
    if parts == ["pause"] and method in ("POST", "GET"):
        if method == "POST":
            node.pause()
        return 200, {"paused": node.paused}
    if parts == ["resume"] and method == "POST":
        node.resume()
        return 200, {"paused": node.paused}
    if parts == ["network"]:
        try:
            if method == "GET":
                return 200, node.network.describe()
            if method == "POST":
                return 200, node.network.update(_json(body))
            if method == "DELETE":
                node.network.heal()
                return 200, node.network.describe()
        except NetworkError as e:
            return 400, {"error": str(e)}
    if len(parts) <= 2 and parts[0] in ("connections", "pause", "resume", "network"):
        return 405, {"error": f"{method} is not allowed on {path}"}
    return 404, {"error": f"no control resource {path}"}
