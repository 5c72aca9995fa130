"""Free ports for test brokers, leased so that no two processes of the machine (pytest-xdist workers,
other test runs) hand out the same port while it is in use, also while a node that owns it is
down between a stop and its restart.

A lease is an exclusive POSIX record lock (fcntl) on the byte at offset ``port`` of one lock file
shared by every process of the machine (in the temp dir). The kernel drops a process's locks when
it exits, kill -9 included, so a lease never outlives its process: nothing to clean up.

    lease = lease_ports((0, 1, 101))   # base, base+1 and base+101, held by this process
    ... a cluster on them, its nodes stopped and restarted on the same ports ...
    lease.release()

``free_port()`` leases one port and returns it; the lease is held until ``release_ports`` or the
end of the process, or (a test run with odradek's pytest plugin) the end of the test that took it.

Two rules of POSIX locks shape the code: a process's locks are not conflicts to itself (a set of
the ports held here answers for this process), and closing any descriptor of the file drops every
lock the process holds on it (the file is opened once per process and never closed).
"""

from __future__ import annotations

import errno
import fcntl
import os
import random
import socket
import tempfile
import threading
from collections.abc import Iterable

LOCK_FILE_NAME = "odradek-test-ports.lock"
TRIES = 200


class NoFreePort(RuntimeError):
    """No port (or span of ports) both unleased and free in the range asked."""


def _ephemeral_low() -> int:
    """The first port of the kernel's ephemeral range (Linux's default 32768)."""
    try:
        with open("/proc/sys/net/ipv4/ip_local_port_range") as f:
            return int(f.read().split()[0])
    except (OSError, ValueError, IndexError):
        return 32768


def default_range() -> tuple[int, int]:
    """[low, high) of the ports handed out: below the kernel's ephemeral range, so that a broker
    restarted on its port never finds it taken by the local end of a client's connection (which the
    kernel picks from that range)."""
    return 10_000, max(_ephemeral_low() - 200, 10_100)


def ports_free(ports: list[int]) -> bool:
    """Every port of ``ports`` bindable on 127.0.0.1 now by a server (leases aside): nothing listens
    there (SO_REUSEADDR, as a server sets it: connections of an earlier one in TIME_WAIT do not count)."""
    for port in ports:
        with socket.socket() as s:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                return False
    return True


def _open_lock_file() -> int:
    """The machine's lock file, made writable by every user (their test runs share it); if another
    user made it without that, a file of this user's own (shared by this user's runs only)."""
    path = os.path.join(tempfile.gettempdir(), LOCK_FILE_NAME)
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o666)
    except PermissionError:
        return os.open(f"{path}.{os.getuid()}", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    try:
        os.fchmod(fd, 0o666)  # (the umask aside)
    except OSError:
        pass  # another user's file, writable here: already shared
    return fd


class _Leases:
    """The leases of this process: the lock file's descriptor and the ports locked through it."""

    def __init__(self) -> None:
        self.mutex = threading.Lock()
        self.pid = -1
        self.fd = -1
        self.held: set[int] = set()

    def _file(self) -> int:
        if self.pid != os.getpid():  # first use, or a forked child: it inherits no lock of its parent
            self.pid, self.fd, self.held = os.getpid(), _open_lock_file(), set()
        return self.fd

    def take(self, ports: list[int]) -> bool:
        """Every port of ``ports`` leased to this process, or none of them (False)."""
        with self.mutex:
            fd = self._file()
            if any(p in self.held for p in ports):
                return False
            got: list[int] = []
            for port in ports:
                try:
                    fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, port, os.SEEK_SET)
                except OSError as e:
                    if e.errno not in (errno.EACCES, errno.EAGAIN):
                        raise
                    for p in got:
                        fcntl.lockf(fd, fcntl.LOCK_UN, 1, p, os.SEEK_SET)
                    return False
                got.append(port)
            self.held.update(got)
            return True

    def give_back(self, ports: Iterable[int]) -> None:
        with self.mutex:
            if self.pid != os.getpid():
                return
            for port in ports:
                if port in self.held:
                    fcntl.lockf(self.fd, fcntl.LOCK_UN, 1, port, os.SEEK_SET)
                    self.held.discard(port)

    def snapshot(self) -> frozenset[int]:
        with self.mutex:
            return frozenset(self.held) if self.pid == os.getpid() else frozenset()


_LEASES = _Leases()


class PortLease:
    """Ports leased to this process until ``release()`` (or its end): ``port`` + k for k in the span."""

    def __init__(self, ports: tuple[int, ...]) -> None:
        self.ports = ports

    @property
    def port(self) -> int:
        return self.ports[0]

    def release(self) -> None:
        _LEASES.give_back(self.ports)

    def __enter__(self) -> PortLease:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def lease_ports(span: tuple[int, ...] = (0,), within: tuple[int, int] | None = None) -> PortLease:
    """A lease of port p + k for every k in ``span`` (offsets, the first 0), each leased by no
    process of the machine and bindable now, all in [low, high) = ``within`` (default:
    default_range()); p drawn at random, so that parallel pickers rarely try the same one."""
    low, high = within or default_range()
    top = max(span)
    if high - top <= low:
        raise NoFreePort(f"no room for a span of {top + 1} ports in [{low}, {high})")
    pick = random.SystemRandom()
    for _ in range(TRIES):
        base = pick.randrange(low, high - top)
        ports = [base + k for k in span]
        if not _LEASES.take(ports):
            continue
        if ports_free(ports):
            return PortLease(tuple(ports))
        _LEASES.give_back(ports)  # in use by a process that leases nothing
    raise NoFreePort(f"no free span {span} in [{low}, {high}) after {TRIES} tries")


class PortLeases:
    """The leases of one owner (a test broker, a test cluster): taken one by one, released together."""

    def __init__(self) -> None:
        self._leases: list[PortLease] = []

    def take(self, span: tuple[int, ...] = (0,)) -> int:
        """The first port of a new lease (lease_ports) of ``span``."""
        lease = lease_ports(span)
        self._leases.append(lease)
        return lease.port

    def release(self) -> None:
        for lease in self._leases:
            lease.release()
        self._leases = []


def free_port(span: tuple[int, ...] = (0,)) -> int:
    """A port p, leased (lease_ports) with p + k for every k in ``span``, until ``release_ports`` or
    the end of the process (the end of the test, under odradek's pytest plugin)."""
    return lease_ports(span).port


def held_ports() -> frozenset[int]:
    """The ports this process holds leases on now."""
    return _LEASES.snapshot()


def release_ports(ports: Iterable[int | None]) -> None:
    """The leases this process holds on ``ports`` released (others, and None, ignored)."""
    _LEASES.give_back(p for p in ports if p is not None)
