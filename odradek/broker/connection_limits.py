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
waiting for a slot are let in if it was raised. Each listener has its own
`listener.name.<l>.max.connections` and `.max.connection.creation.rate` (ListenerQuota), and the
inter-broker listener of a broker with more than one listener is protected: its connections are let in
over max.connections and then the other listeners' least recently active ones are closed for them
(Kafka's protectedListener and closeExcessConnections).
"""
from __future__ import annotations

import ipaddress
import logging
import socket
from collections import deque
from typing import Callable, Iterable, Protocol

from odradek.config import INT_MAX, parse_host_counts

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


class _Window:
    """A creation rate's window: the ms the connections of the last second were (or will be) served at."""
    __slots__ = ("_accepted",)

    def __init__(self):
        self._accepted: deque[int] = deque()

    def delay(self, now_ms: int, rate: int) -> int:
        """The ms a connection created now waits to keep ``rate`` (it is counted)."""
        acc = self._accepted
        while acc and acc[0] <= now_ms - 1000:
            acc.popleft()
        start = now_ms
        if len(acc) >= rate:
            # served when the one `rate` places earlier is a second old
            start = max(now_ms, acc[-rate] + 1000) if rate else now_ms + 1000
        acc.append(start)
        return start - now_ms


class ListenerQuota:
    """listener.name.<l>.max.connections and .max.connection.creation.rate (Kafka's
    ListenerConnectionQuota; None: the broker-wide value, as Kafka configures it with the listener's
    values over the broker's) and the listener's connection count."""
    __slots__ = ("max_connections", "creation_rate", "window", "count", "waiting")

    def __init__(self, max_connections: int | None = None, creation_rate: int | None = None):
        self.max_connections = max_connections
        self.creation_rate = creation_rate
        self.window = _Window()
        self.count = 0
        self.waiting: deque = deque()  # its connections waiting for a slot, oldest first


class ConnectionQuotas:
    """max.connections (a connection over it waits for a slot: SlotWaiter), per IP and its
    overrides, max.connection.creation.rate, and the listeners' own limits (``listeners``: name ->
    ListenerQuota; a connection of a listener not there is counted by the broker-wide ones only).

    As Kafka's ConnectionQuotas, the inter-broker listener is protected when the broker has more
    than one listener: its connections do not count against max.connections nor the broker-wide
    creation rate (only their listener's limits), are not closed when max.connections is lowered
    below the connections there (``protected``), and do not wait behind other listeners' ones."""

    def __init__(self, max_connections: int, per_ip: int, overrides: tuple[tuple[str, int], ...],
                 creation_rate: int, resolve: Callable[[str], str] = socket.gethostbyname,
                 listeners: dict[str, ListenerQuota] | None = None, inter_broker_listener: str = ""):
        self.max_connections = max_connections
        self.per_ip = per_ip
        # Kafka resolves the override host names when they are set (at start, or reconfigured)
        self.overrides: dict[str, int] = resolve_overrides(overrides, resolve)
        self.total = 0
        self.by_ip: dict[str, int] = {}
        # the last second's connections are counted even with no rate set (Kafka's broker-wide
        # sensor records them all): a rate set at run time counts them
        self.creation_rate = creation_rate
        self._window = _Window()
        self.listeners: dict[str, ListenerQuota] = listeners if listeners is not None else {}
        self.inter_broker_listener = inter_broker_listener
        self._waiting: deque = deque()  # the waiting connections of listeners not in self.listeners

    def reconfigure(self, max_connections: int, per_ip: int, overrides: dict[str, int], creation_rate: int) -> None:
        """New limits (``overrides`` resolved: resolve_overrides) for the connections to come; a
        raised max.connections lets the waiting ones in."""
        self.max_connections = max_connections
        self.per_ip = per_ip
        self.overrides = overrides
        self.creation_rate = creation_rate
        self._admit_waiting()

    def reconfigure_listener(self, listener: str, max_connections: int | None, creation_rate: int | None) -> None:
        """A listener's own limits (Kafka's ListenerConnectionQuota.reconfigure; None: the broker-wide)."""
        quota = self.listeners.get(listener)
        if quota is None:
            return
        quota.max_connections = max_connections
        quota.creation_rate = creation_rate
        self._admit_waiting()

    def protected(self, listener: str) -> bool:
        """Kafka's protectedListener: the inter-broker listener of a broker with more than one."""
        return listener == self.inter_broker_listener and listener in self.listeners and len(self.listeners) > 1

    def excess(self) -> int:
        """How many connections are over max.connections (it was lowered below them): the broker
        closes that many of its unprotected listeners' connections."""
        return max(self.total - self.max_connections, 0)

    def _slot_available(self, listener: str) -> bool:
        quota = self.listeners.get(listener)
        if quota is not None and quota.count >= _or(quota.max_connections, self.max_connections):
            return False
        return self.protected(listener) or self.total < self.max_connections

    def _queue(self, listener: str) -> deque:
        quota = self.listeners.get(listener)
        return quota.waiting if quota is not None else self._waiting

    def must_wait(self, listener: str = "") -> bool:
        """A new connection of listener waits for a slot (max.connections or the listener's reached,
        or others of the listener wait)."""
        return not self._slot_available(listener) or bool(self._queue(listener))

    def wait(self, conn: SlotWaiter, listener: str = "") -> None:
        """conn waits until there is a slot for it (oldest first, in its listener)."""
        self._queue(listener).append(conn)

    def forget(self, conn: SlotWaiter, listener: str = "") -> None:
        try:
            self._queue(listener).remove(conn)
        except ValueError:
            pass

    def admit(self, host: str, now_ms: int, listener: str = "") -> int | None:
        """Count a new connection from host (a slot is free: see must_wait): None when it
        must be closed, else the ms to wait before serving it (the creation-rate throttle:
        the broker-wide one unless the listener is protected, and the listener's own)."""
        ip = _canonical(host)
        limit = self.overrides.get(ip, self.per_ip)
        have = self.by_ip.get(ip, 0)
        if have >= limit:
            log.info("Rejected connection from /%s, address already has the configured maximum "
                     "of %d connections.", ip, limit)
            return None
        self.by_ip[ip] = have + 1
        self.total += 1
        delay = 0 if self.protected(listener) else self._window.delay(now_ms, self.creation_rate)
        quota = self.listeners.get(listener)
        if quota is not None:
            quota.count += 1
            delay = max(delay, quota.window.delay(now_ms, _or(quota.creation_rate, self.creation_rate)))
        return delay

    def release(self, host: str, listener: str = "") -> None:
        ip = _canonical(host)
        n = self.by_ip.get(ip, 0) - 1
        if n > 0:
            self.by_ip[ip] = n
        else:
            self.by_ip.pop(ip, None)
        self.total -= 1
        quota = self.listeners.get(listener)
        if quota is not None:
            quota.count -= 1
        self._admit_waiting()

    def _admit_waiting(self) -> None:
        for listener, quota in ((name, q) for name, q in (*self.listeners.items(), ("", None))):
            waiting = quota.waiting if quota is not None else self._waiting
            while waiting and self._slot_available(listener):
                waiting.popleft().connection_slot_free()  # admits it (or closes it) at once


def _or(own: int | None, broker_wide: int) -> int:
    return broker_wide if own is None else own


class QuotaConnection(Protocol):
    counted: bool
    listener_name: str
    idle_since_ms: int | None
    seq: int

    def close(self) -> None: ...


def close_excess(quotas: ConnectionQuotas, connections: Iterable[QuotaConnection]) -> None:
    """Kafka's closeExcessConnections: while the connections are over max.connections (lowered below
    them, or the protected listener's let in over it), the least recently active of the other
    listeners' go (Kafka's maxConnectionsExceeded is false on the protected listener)."""
    excess = quotas.excess()
    if not excess:
        return
    counted = [c for c in connections if c.counted and not quotas.protected(c.listener_name)]
    # (idle since the same ms: the older connection first; busy ones are the most recent)
    counted.sort(key=lambda c: (c.idle_since_ms if c.idle_since_ms is not None else float("inf"), c.seq))
    for conn in counted[:excess]:
        conn.close()


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
        listeners = {lst.name: ListenerQuota(config.listener_connection_limit(lst.name, "max.connections"),
                                             config.listener_connection_limit(lst.name, "max.connection.creation.rate"))
                     for lst in config.listeners}
        quotas = ConnectionQuotas(config.max_connections, config.max_connections_per_ip,
                                  parse_host_counts(config.max_connections_per_ip_overrides),
                                  config.max_connection_creation_rate, listeners=listeners,
                                  inter_broker_listener=config.inter_broker_listener)
        return cls(memory, quotas)
