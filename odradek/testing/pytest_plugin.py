"""The odradek pytest plugin (entry point ``pytest11``: loaded wherever odradek is installed; or
``-p odradek.testing.pytest_plugin``).

Fixtures (each yields a started broker/cluster with ``.bootstrap``, ``.faults``, ``.clock``):

- ``odradek_broker``: a broker for one test; ``odradek_module_broker`` / ``odradek_session_broker``
  shared by a module / the whole session (its faults are cleared after each test);
- ``odradek_bootstrap``: the bootstrap string of ``odradek_broker``;
- ``odradek_cluster``: a cluster for one test (``.brokers``, ``.kill(id)``, ``.restart(id)``);
  ``odradek_module_cluster`` shared by a module.

Settings: ``@pytest.mark.odradek(virtual_clock=True, properties={"num.partitions": "3"}, trace=True,
in_process=False, brokers=3, controllers=1, racks=[...])`` on a test (or a module's ``pytestmark``
for the module-scoped fixtures). Parallel-safe (pytest-xdist): free ports, a temp dir each.
Nothing happens unless a test asks for one of these fixtures.

Every test: the port leases (odradek.testing.ports.free_port) the test took in this process are
released at its end (those of module- and session-scoped fixtures, set up before it, stay).
"""

from __future__ import annotations

import pytest

from . import ports
from .broker import Broker
from .cluster import Cluster

BROKER_OPTIONS = ("virtual_clock", "properties", "trace", "in_process", "control")
CLUSTER_OPTIONS = ("virtual_clock", "properties", "brokers", "controllers", "racks", "control")


def pytest_configure(config) -> None:
    config.addinivalue_line(
        "markers", "odradek(**settings): settings of the odradek_broker/odradek_cluster fixtures: "
                   "virtual_clock, properties (Kafka names), trace, in_process, brokers, controllers, racks")


@pytest.fixture(autouse=True)
def _odradek_port_leases():
    """The ports a test leased with free_port() (and did not release) released at its end: an
    autouse fixture is set up after the higher-scoped ones and torn down after the test's own."""
    before = ports.held_ports()
    yield
    ports.release_ports(ports.held_ports() - before)


def _settings(node, allowed: tuple[str, ...]) -> dict:
    """The odradek marker's keyword arguments on ``node`` (closest wins), those ``allowed``."""
    out: dict = {}
    for m in reversed(list(node.iter_markers("odradek"))):
        out.update(m.kwargs)
    unknown = sorted(set(out) - set(BROKER_OPTIONS) - set(CLUSTER_OPTIONS))
    if unknown:
        raise pytest.UsageError(f"@pytest.mark.odradek: unknown setting(s) {', '.join(unknown)}")
    return {k: v for k, v in out.items() if k in allowed}


def _start_broker(request, tmp_path_factory, node) -> Broker:
    s = _settings(node, BROKER_OPTIONS)
    trace = None
    if s.pop("trace", False):
        trace = tmp_path_factory.mktemp("odradek-trace") / "trace.jsonl"
    b = Broker(s.pop("properties", None), trace=trace, data_dir=tmp_path_factory.mktemp("odradek-broker"), **s)
    return _started(b)


def _started(thing):
    try:
        return thing.start()
    except BaseException:
        thing.close()  # no process left behind by a failed start
        raise


def _running(thing):
    """Yield a started broker/cluster, closed (processes ended, data dir removed) after."""
    try:
        yield thing
    finally:
        thing.close()


@pytest.fixture
def odradek_broker(request, tmp_path_factory):
    yield from _running(_start_broker(request, tmp_path_factory, request.node))


@pytest.fixture(scope="module")
def _odradek_module_broker(request, tmp_path_factory):
    yield from _running(_start_broker(request, tmp_path_factory, request.node))


@pytest.fixture(scope="session")
def _odradek_session_broker(request, tmp_path_factory):
    yield from _running(_start_broker(request, tmp_path_factory, request.node))


def _shared(b):
    yield b
    if b.control and b.running:  # a test's faults, pause and network do not reach the next test
        b.resume()  # (SIGCONT of a subprocess broker that Broker.pause stopped)
        b.faults.resume()
        b.faults.clear()
        b.faults.heal()


@pytest.fixture
def odradek_module_broker(_odradek_module_broker):
    yield from _shared(_odradek_module_broker)


@pytest.fixture
def odradek_session_broker(_odradek_session_broker):
    yield from _shared(_odradek_session_broker)


@pytest.fixture
def odradek_bootstrap(odradek_broker) -> str:
    return odradek_broker.bootstrap


def _start_cluster(tmp_path_factory, node) -> Cluster:
    s = _settings(node, CLUSTER_OPTIONS)
    c = Cluster(s.pop("brokers", 3), s.pop("controllers", 1), properties=s.pop("properties", None),
                data_dir=tmp_path_factory.mktemp("odradek-cluster"), **s)
    return _started(c)


@pytest.fixture
def odradek_cluster(request, tmp_path_factory):
    yield from _running(_start_cluster(tmp_path_factory, request.node))


@pytest.fixture(scope="module")
def odradek_module_cluster(request, tmp_path_factory):
    yield from _running(_start_cluster(tmp_path_factory, request.node))
