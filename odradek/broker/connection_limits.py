"""What the connections of one broker may take, as Kafka bounds it.

`RequestMemory` is `queued.max.request.bytes`: the bytes of requests being read or
waiting to be handled, over every connection. As Kafka's MemoryPool, a request's
declared size is taken from it when its size prefix has been read, and a connection
that starts a request while the pool is spent stops reading until requests finish
(a request already started is read to its end, so the pool can go over, by less than
one request per connection). -1: no bound (then socket.request.max.bytes still bounds
each request).

`ConnectionQuotas` is `max.connections`, `max.connections.per.ip` (with
`max.connections.per.ip.overrides`) and `max.connection.creation.rate`. A connection
over `max.connections` waits, unserved, until another connection closes (Kafka's acceptor
waits for a slot in ConnectionQuotas.waitForConnectionSlot); the waiting ones are let in
oldest first. A connection over its per-IP limit is closed at once (Kafka: "Rejected
connection from ..."); one over the broker-wide creation rate is throttled: it is served
only after the delay that keeps the rate (Kafka's acceptor waits that long before
accepting it). The four are dynamic (`reconfigure`, as Kafka's SocketServer.reconfigure):
the connections there are stay, but those over a lowered max.connections, which the broker
closes least recently active first (`excess`, Kafka's closeExcessConnections); the ones
waiting for a slot are let in if it was raised.
"""
from __future__ import annotations

import ipaddress
import logging
import socket
from collections import deque
from typing import Callable, Protocol

from odradek.config import parse_host_counts

log = logging.getLogger("odradek.broker.connection")


class Pausable(Protocol):
    def resume_reading_for_memory(self) -> None: ...


class SlotWaiter(Protocol):
    def connection_slot_free(self) -> None: ...


class _WaitList:
    """Connections waiting for room (memory, a connection slot), oldest first."""
    __slots__ = ("_waiting",)

    def __init__(self):
        self._waiting: deque = deque()

    def wait(self, conn: Pausable | SlotWaiter) -> None:
        """conn waits until there is room again."""
        self._waiting.append(conn)

    def forget(self, conn: Pausable | SlotWaiter) -> None:
        try:
            self._waiting.remove(conn)
        except ValueError:
            pass


class RequestMemory(_WaitList):
    """queued.max.request.bytes: what the connections' requests in flight hold; a connection
    that finds it spent stops reading (Pausable) until it has room again."""
    __slots__ = ("limit", "used")

    def __init__(self, limit: int):
        super().__init__()
        self.limit = limit  # <= 0: unbounded
        self.used = 0

    @property
    def bounded(self) -> bool:
        return self.limit > 0

    @property
    def spent(self) -> bool:
        return self.used >= self.limit

    def take(self, n: int) -> None:
        self.used += n

    def give(self, n: int) -> None:
        self.used -= n
        waiting = self._waiting
        while waiting and self.used < self.limit:
            waiting.popleft().resume_reading_for_memory()


def _canonical(host: str) -> str:
    try:
        return str(ipaddress.ip_address(host))
    except ValueError:
        return host


class ConnectionQuotas(_WaitList):
    """max.connections (a connection over it waits for a slot: SlotWaiter), per IP and its
    overrides, max.connection.creation.rate."""

    def __init__(self, max_connections: int, per_ip: int, overrides: tuple[tuple[str, int], ...],
                 creation_rate: int, resolve: Callable[[str], str] = socket.gethostbyname):
        super().__init__()
        self.max_connections = max_connections
        self.per_ip = per_ip
        # Kafka resolves the override host names when they are set (at start, or reconfigured)
        self.overrides: dict[str, int] = resolve_overrides(overrides, resolve)
        self.creation_rate = creation_rate
        self.total = 0
        self.by_ip: dict[str, int] = {}
        self._accepted: deque[int] = deque()  # ms of the connections admitted in the last second

    def reconfigure(self, max_connections: int, per_ip: int, overrides: dict[str, int], creation_rate: int) -> None:
        """New limits (``overrides`` resolved: resolve_overrides) for the connections to come; a
        raised max.connections lets the waiting ones in."""
        self.max_connections = max_connections
        self.per_ip = per_ip
        self.overrides = overrides
        self.creation_rate = creation_rate
        self._admit_waiting()

    def excess(self) -> int:
        """How many connections are over max.connections (it was lowered below them)."""
        return max(self.total - self.max_connections, 0)

    def must_wait(self) -> bool:
        """A new connection waits for a slot (max.connections reached, or others wait)."""
        return self.total >= self.max_connections or bool(self._waiting)

    def admit(self, host: str, now_ms: int) -> int | None:
        """Count a new connection from host (a slot is free: see must_wait): None when it
        must be closed, else the ms to wait before serving it (the creation-rate throttle)."""
        ip = _canonical(host)
        limit = self.overrides.get(ip, self.per_ip)
        have = self.by_ip.get(ip, 0)
        if have >= limit:
            log.info("Rejected connection from /%s, address already has the configured maximum "
                     "of %d connections.", ip, limit)
            return None
        self.by_ip[ip] = have + 1
        self.total += 1
        # the last second's connections are counted even with no rate set (Kafka's broker-wide
        # sensor records them all): a rate set at run time counts them
        acc = self._accepted
        while acc and acc[0] <= now_ms - 1000:
            acc.popleft()
        start = now_ms
        if len(acc) >= self.creation_rate:
            # served when the one `rate` places earlier is a second old
            start = max(now_ms, acc[-self.creation_rate] + 1000) if self.creation_rate else now_ms + 1000
        acc.append(start)
        return start - now_ms

    def release(self, host: str) -> None:
        ip = _canonical(host)
        n = self.by_ip.get(ip, 0) - 1
        if n > 0:
            self.by_ip[ip] = n
        else:
            self.by_ip.pop(ip, None)
        self.total -= 1
        self._admit_waiting()

    def _admit_waiting(self) -> None:
        waiting = self._waiting
        while waiting and self.total < self.max_connections:
            waiting.popleft().connection_slot_free()  # admits it (or closes it) at once


class UnknownHost(OSError):
    """An override host that does not resolve (Kafka's java.net.UnknownHostException: the broker
    does not start with it; a dynamic update with it is not applied)."""


def resolve_overrides(overrides: tuple[tuple[str, int], ...],
                      resolve: Callable[[str], str] = socket.gethostbyname) -> dict[str, int]:
    """max.connections.per.ip.overrides by address, as Kafka's InetAddress.getByName of each host:
    UnknownHost for the first one that does not resolve."""
    out: dict[str, int] = {}
    for host, n in overrides:
        try:
            out[_canonical(resolve(host))] = n
        except OSError as e:
            reason = e.strerror if isinstance(e, socket.gaierror) and e.strerror else str(e)
            raise UnknownHost(f"{host}: {reason}") from None
    return out


class ConnectionLimits:
    """The limits of the broker's client connections (memory None where the config sets no bound)."""
    __slots__ = ("memory", "quotas")

    def __init__(self, memory: RequestMemory | None, quotas: ConnectionQuotas):
        self.memory = memory
        self.quotas = quotas

    @classmethod
    def from_config(cls, config) -> "ConnectionLimits":
        memory = RequestMemory(config.queued_max_request_bytes) if config.queued_max_request_bytes > 0 else None
        # counted even unbounded: the limits are dynamic (IncrementalAlterConfigs on a broker)
        quotas = ConnectionQuotas(config.max_connections, config.max_connections_per_ip,
                                  parse_host_counts(config.max_connections_per_ip_overrides),
                                  config.max_connection_creation_rate)
        return cls(memory, quotas)
