"""Requests from this broker to another broker's listener (the transaction coordinator's
markers, a partition leader's transaction verification): one connection per destination, one
request at a time on it, the destination's endpoint from the current metadata image."""

from __future__ import annotations

import asyncio
from typing import Callable, Protocol

from odradek.broker.node_link import PLAINTEXT_LINK, NodeLink
from odradek.broker.replica_fetcher import LeaderConnection
from odradek.broker.wire_client import WireClientError
from odradek.wire.exceptions import WireError


class NotDelivered(Exception):
    """No answer: the broker is not registered or fenced, unreachable, gone mid-request, too slow,
    or without a common version of the API."""


class BrokerCalls(Protocol):
    """What the marker channel and the verifier need of the connections (tests give a fake)."""

    async def call(self, broker_id: int, request, max_version: int, min_version: int = 0): ...

    def close(self) -> None: ...


_FAILURES = (OSError, EOFError, TimeoutError, asyncio.IncompleteReadError, WireError, WireClientError)


class InterBrokerClient:
    def __init__(self, node_id: int, purpose: str, image: Callable[[], object], timeout_s: float,
                 link: NodeLink = PLAINTEXT_LINK):
        self.client_id = f"broker-{node_id}-{purpose}"
        self.link = link  # TLS/SASL of the inter-broker listener (broker/node_link.py)
        self._image = image
        self.timeout_s = timeout_s
        self._conns: dict[int, LeaderConnection] = {}
        self._locks: dict[int, asyncio.Lock] = {}

    async def call(self, broker_id: int, request, max_version: int, min_version: int = 0):
        """The answer of ``broker_id`` to ``request`` (at the highest common version up to
        ``max_version``); NotDelivered otherwise (the connection is dropped)."""
        async with self._locks.setdefault(broker_id, asyncio.Lock()):
            try:
                conn = self._conns.get(broker_id)
                if conn is None:
                    b = self._image().brokers.get(broker_id)
                    if b is None or b.fenced:
                        raise NotDelivered(f"broker {broker_id} is not available")
                    conn = await LeaderConnection.open(b.host, b.port, self.client_id, self.timeout_s, self.link)
                    self._conns[broker_id] = conn
                version = conn.version_for(type(request), max_version)
                if version < min_version:
                    raise NotDelivered(f"broker {broker_id} answers {type(request).__name__} up to v{version} only")
                return await conn.call(request, version, self.timeout_s)
            except _FAILURES as e:
                self._disconnect(broker_id)
                raise NotDelivered(f"broker {broker_id}: {e or type(e).__name__}") from e
            except NotDelivered:
                self._disconnect(broker_id)
                raise

    def _disconnect(self, broker_id: int) -> None:
        conn = self._conns.pop(broker_id, None)
        if conn is not None:
            conn.close()

    def close(self) -> None:
        for conn in self._conns.values():
            conn.close()
        self._conns.clear()


async def cancel_all(tasks: set[asyncio.Task]) -> None:
    """Cancel ``tasks`` and wait for them to end."""
    tasks = set(tasks)
    for t in tasks:
        t.cancel()
    for t in tasks:
        try:
            await t
        except BaseException:  # cancelled, or what it failed with: we are closing
            pass
