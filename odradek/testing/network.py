"""A node's test network (network partitions and slow peers without root): which peers' requests
this node refuses, which it answers late, and whether it refuses clients.

A partition between nodes A and B is both sides refusing the other: each node drops the connection
a request of a cut peer came on (so the peer's replica fetches, heartbeats, metadata fetches,
AlterPartition and inter-broker calls fail as on a lost link, and it reconnects and fails again
until the partition heals). ``odradek.testing.Cluster.partition`` tells every node of both sides.
A slow peer's requests wait ``delay_ms`` before they are handled (a leader that delays a
follower's fetches: the follower falls behind). ``clients`` cut: every request that is not a
peer's drops its connection too (the node is cut from the clients' network as well).

Peers are known by the client ids odradek's nodes use (``broker-N-...`` for replica fetchers and
inter-broker calls, ``odradek-N`` for the controller channel, ``raft-N`` for the metadata quorum)
and by a Fetch's replica id. Pure: the connection (broker/connection.py) asks ``verdict``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

FETCH = 1
_PEER_CLIENT = re.compile(r"^(?:broker-(\d+)-|odradek-(\d+)$|raft-(\d+)$)")


class NetworkError(ValueError):
    """A network rule that cannot be set (bad node ids, a bad delay)."""


def peer_of(client_id: str | None, api_key: int, body) -> int | None:
    """The node id of the odradek node that sent a request, None for a client's."""
    if api_key == FETCH:
        rid = body.replica_state.replica_id if body.replica_state.replica_id >= 0 else body.replica_id
        if rid >= 0:
            return rid
    m = _PEER_CLIENT.match(client_id or "")
    if m is None:
        return None
    return int(next(g for g in m.groups() if g is not None))


@dataclass(frozen=True)
class Verdict:
    close: bool = False
    delay_ms: int = 0


class Network:
    def __init__(self) -> None:
        self.cut: set[int] = set()
        self.slow: dict[int, int] = {}
        self.clients_cut = False

    def verdict(self, client_id: str | None, api_key: int, body) -> Verdict | None:
        if not self.cut and not self.slow and not self.clients_cut:
            return None
        peer = peer_of(client_id, api_key, body)
        if peer is None:
            return Verdict(close=True) if self.clients_cut else None
        if peer in self.cut:
            return Verdict(close=True)
        ms = self.slow.get(peer)
        return None if ms is None else Verdict(delay_ms=ms)

    def describe(self) -> dict:
        return {"cut": sorted(self.cut), "clients_cut": self.clients_cut,
                "slow": {str(k): v for k, v in sorted(self.slow.items())}}

    def update(self, req: object) -> dict:
        """``{"cut": [node ids], "clients": bool, "slow": {"node id": delay_ms}}`` (each optional):
        adds to what is in place; ``{"heal": true}`` first removes everything."""
        if not isinstance(req, dict):
            raise NetworkError('the body is {"cut": [ids], "clients": bool, "slow": {"id": ms}, "heal": bool}')
        unknown = sorted(set(req) - {"cut", "clients", "slow", "heal"})
        if unknown:
            raise NetworkError(f"unknown field(s) {', '.join(unknown)}; the fields are cut, clients, slow, heal")
        cut = req.get("cut", [])
        if not isinstance(cut, list) or not all(_node_id(n) for n in cut):
            raise NetworkError(f"cut is a list of node ids, not {cut!r}")
        slow = req.get("slow", {})
        if not isinstance(slow, dict):
            raise NetworkError(f'slow is {{"node id": delay_ms}}, not {slow!r}')
        delays = {}
        for k, v in slow.items():
            if not str(k).isdigit() or isinstance(v, bool) or not isinstance(v, int) or v < 0:
                raise NetworkError(f"slow maps a node id to a delay in ms >= 0, not {k!r}: {v!r}")
            delays[int(k)] = v
        clients = req.get("clients")
        if clients is not None and not isinstance(clients, bool):
            raise NetworkError(f"clients is true or false, not {clients!r}")
        if req.get("heal"):
            self.heal()
        self.cut.update(cut)
        for k, v in delays.items():
            if v:
                self.slow[k] = v
            else:
                self.slow.pop(k, None)
        if clients is not None:
            self.clients_cut = clients
        return self.describe()

    def heal(self) -> None:
        self.cut.clear()
        self.slow.clear()
        self.clients_cut = False


def _node_id(n: object) -> bool:
    return isinstance(n, int) and not isinstance(n, bool) and n >= 0
