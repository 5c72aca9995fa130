"""Port leases (odradek/testing/ports.py): processes racing for ports in a narrow range never get the
same one, a lease dies with its process (kill -9 too), and a cluster's node restarted keeps its port
while no other process can lease it in between."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

from odradek.testing import Cluster
from odradek.testing.broker import serve_env
from odradek.testing.ports import NoFreePort, free_port, held_ports, lease_ports, release_ports

pytest_plugins = ["pytester"]

# a process that leases N ports of [LOW, HIGH) once the parent says go (a line on stdin), prints
# them, and holds them until its stdin closes
HOLDER = """
import sys
from odradek.testing.ports import lease_ports
low, high, n, span = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), tuple(map(int, sys.argv[4].split(",")))
sys.stdin.readline()
leases = [lease_ports(span, within=(low, high)) for _ in range(n)]
print(" ".join(str(p) for lease in leases for p in lease.ports), flush=True)
sys.stdin.read()
"""
# a process that tries to lease one of the ports [LOW, HIGH) and says which, or "none"
PROBE = """
import sys
from odradek.testing.ports import NoFreePort, lease_ports
try:
    print(lease_ports(within=(int(sys.argv[1]), int(sys.argv[2]))).port)
except NoFreePort:
    print("none")
"""


def _window(size: int) -> tuple[int, int]:
    """`size` ports in a row that no process leases or binds now (other test runs lease ports too)."""
    with lease_ports(tuple(range(size))) as lease:
        return lease.port, lease.port + size


def _holder(low: int, high: int, n: int, span: tuple[int, ...] = (0,)) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", HOLDER, str(low), str(high), str(n), ",".join(map(str, span))],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=serve_env())


def _probe(low: int, high: int) -> str:
    r = subprocess.run([sys.executable, "-c", PROBE, str(low), str(high)], capture_output=True, text=True,
                       timeout=60, env=serve_env(), check=True)
    return r.stdout.strip()


def test_processes_racing_for_ports_never_share_one():
    """6 processes lease 8 ports each (three of them as 4 spans of 2) of the same 200 at once: 48 of
    the 200, where random picks alone would collide about 6 times; every port is leased once."""
    low, high = _window(200)
    procs = [_holder(low, high, 8) for _ in range(3)] + [_holder(low, high, 4, (0, 1)) for _ in range(3)]
    try:
        for p in procs:  # all start picking together
            p.stdin.write("go\n")
            p.stdin.flush()
        leased = [[int(x) for x in p.stdout.readline().split()] for p in procs]
    finally:
        for p in procs:
            p.stdin.close()
            p.wait(30)
    every = [port for ports in leased for port in ports]
    assert [len(ports) for ports in leased] == [8, 8, 8, 8, 8, 8]
    assert len(set(every)) == len(every) == 48, sorted(every)
    assert all(low <= port < high for port in every)
    for ports in leased[3:]:  # the spans: p and p + 1
        assert all(ports[i + 1] == ports[i] + 1 for i in range(0, len(ports), 2)), ports


def test_a_lease_ends_with_its_process_even_by_kill_9():
    low, high = _window(50)
    holder = _holder(low, low + 1, 1)
    try:
        holder.stdin.write("go\n")
        holder.stdin.flush()
        port = int(holder.stdout.readline())
        assert port == low
        assert _probe(low, low + 1) == "none"  # held by another process
        with pytest.raises(NoFreePort):
            lease_ports(within=(low, low + 1))
    finally:
        holder.kill()
        holder.wait()
    with lease_ports(within=(low, low + 1)) as mine:  # no stale lease left behind
        assert mine.port == low
        assert _probe(low, low + 1) == "none"  # now held here
        assert low in held_ports()
    assert low not in held_ports()
    assert _probe(low, low + 1) == str(low)


def test_a_span_is_leased_whole_or_not_at_all():
    low, _ = _window(50)
    holder = _holder(low + 2, low + 3, 1)  # another process holds low + 2
    try:
        holder.stdin.write("go\n")
        holder.stdin.flush()
        assert int(holder.stdout.readline()) == low + 2
        with pytest.raises(NoFreePort, match="no free span"):
            lease_ports((0, 1, 2), within=(low, low + 3))
        assert not held_ports() & {low, low + 1, low + 2}  # nothing of the refused span kept
        assert _probe(low, low + 2) in (str(low), str(low + 1))
    finally:
        holder.stdin.close()
        holder.wait(30)
    with lease_ports((0, 1, 2), within=(low, low + 3)) as lease:
        assert lease.ports == (low, low + 1, low + 2)


def test_free_port_is_held_until_released():
    port = free_port()
    assert port in held_ports()
    assert _probe(port, port + 1) == "none"
    release_ports([port])
    assert _probe(port, port + 1) == str(port)


@pytest.mark.timeout(180)
def test_a_restarted_node_keeps_its_port_and_no_other_process_leases_it_meanwhile(tmp_path):
    with Cluster(brokers=1, controllers=1, data_dir=tmp_path) as c:
        broker = c.brokers[0]
        port = c.nodes[broker].port
        ports = [port, c.nodes[broker].http_port] + [n.http_port for n in c.nodes.values()]
        c.stop(broker)  # nothing listens on its port now
        for p in ports:
            assert _probe(p, p + 1) == "none"
        c.restart(broker)
        assert c.nodes[broker].port == port
        deadline = time.monotonic() + 60
        while c.metadata_brokers() != [broker]:  # a client reaches it on the same port, unfenced
            assert time.monotonic() < deadline, "the restarted broker not back in the metadata"
            time.sleep(0.1)
    for p in ports:  # the cluster closed: its leases released
        assert _probe(p, p + 1) == str(p)


USER_TESTS = '''
import pytest
from odradek.testing.ports import free_port, held_ports

TAKEN = {}

@pytest.fixture(scope="module")
def module_port():
    return free_port()

def test_one(module_port):
    TAKEN["one"] = free_port()
    assert {module_port, TAKEN["one"]} <= held_ports()

def test_two(module_port):
    assert module_port in held_ports()  # the module's fixture keeps its lease
    assert TAKEN["one"] not in held_ports()  # released at the end of test_one
'''


def test_the_plugin_releases_a_tests_free_ports_at_its_end(pytester):
    pytester.makepyfile(USER_TESTS)
    pytester.runpytest_inprocess("-p", "no:cacheprovider", "-n", "0").assert_outcomes(passed=2)
