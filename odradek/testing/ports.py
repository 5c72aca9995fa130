"""Free ports for test brokers, safe when several test processes (pytest-xdist workers) pick at once."""

from __future__ import annotations

import random
import socket


def _ephemeral_low() -> int:
    """The first port of the kernel's ephemeral range (Linux's default 32768)."""
    try:
        with open("/proc/sys/net/ipv4/ip_local_port_range") as f:
            return int(f.read().split()[0])
    except (OSError, ValueError, IndexError):
        return 32768


def ports_free(ports: list[int]) -> bool:
    for port in ports:
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                return False
    return True


def free_port(span: tuple[int, ...] = (0,)) -> int:
    """A port p with every p + k (k in ``span``) free now, below the kernel's ephemeral range: a
    broker restarted on its port must not find it taken by the local end of a client's connection,
    which the kernel picks from that range. Picked at random, so parallel workers rarely collide
    (a collision shows as 'address already in use' at start, and the start is retried)."""
    low = _ephemeral_low() - 200
    pick = random.SystemRandom()
    top = max(span)
    for _ in range(200) if low > 10_000 else ():
        port = pick.randrange(10_000, low - top)
        if ports_free([port + k for k in span]):
            return port
    with socket.socket() as s:  # no room below the ephemeral range
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
