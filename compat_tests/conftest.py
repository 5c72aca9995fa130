"""Fixtures for the compatibility suite: stock Kafka clients against a live broker.

By default each test module gets its own `odradek serve` subprocess on a free port
with a temporary data directory. `pytest compat_tests --bootstrap HOST:PORT` runs
the same tests against any running Kafka-compatible broker instead; tests that need
to restart or kill the broker are skipped then.

The multi-node tests (cluster.py: test_replication_*) start 3 controllers + 3 brokers of their own;
`--cluster-kafka` starts Apache Kafka 4.3 nodes for them instead (the reference answers), and
`--failover-cycles N` sets the length of their kill -9 loops.

Fixtures:
    broker      the BrokerProcess (or ExternalBroker) controlling the server
    bootstrap   "host:port" for clients
    topic_name  a fresh, unique topic name per test
    kafka_jars  Kafka 4.3's jars fetched (skips without Java or Maven), before a test's clock starts
"""

from __future__ import annotations

import uuid

import pytest

import apache_kafka
import builds
from harness import BrokerProcess, ExternalBroker


def pytest_addoption(parser):
    parser.addoption("--bootstrap", action="store", default=None,
                     help="run against an already running broker at HOST:PORT (restart/kill tests skip)")
    parser.addoption("--cluster-kafka", action="store_true", default=False,
                     help="the multi-node tests (cluster.py) start Apache Kafka 4.3 nodes instead of odradek's "
                          "(also ODRADEK_CLUSTER=kafka)")
    parser.addoption("--failover-cycles", type=int, default=None,
                     help="kill -9 cycles of the replication failover loops (also ODRADEK_FAILOVER_CYCLES; "
                          "default a few, issue 20 asks >= 20)")


def pytest_collection_finish(session):
    """Start the client builds this session's compat tests use (Java, Go, npm, Kafka's jars) in the
    background, so that they overlap the tests that need none. With parallel workers the first one
    does it; the others find the builds done or wait on their lock. A --collect-only run builds nothing
    (it ends before a build would: .ci/run's byte-code warm-up, the fresh-clone test's collection)."""
    if session.config.option.collectonly:
        return
    if getattr(session.config, "workerinput", {}).get("workerid", "gw0") != "gw0":
        return
    builds.prebuild(builds.needed({item.path.name for item in session.items}))


def make_broker(request, tmp_path_factory, overrides: dict[str, str] | None = None):
    external = request.config.getoption("--bootstrap")
    if external:
        return ExternalBroker(external), None
    data_dir = str(tmp_path_factory.mktemp("odradek-data"))
    b = BrokerProcess(data_dir, overrides)
    b.start()
    return b, b


@pytest.fixture(scope="module")
def broker(request, tmp_path_factory):
    """One broker per test module (module-level BROKER_OVERRIDES dict adds properties), killed after it."""
    overrides = getattr(request.module, "BROKER_OVERRIDES", None)
    b, owned = make_broker(request, tmp_path_factory, overrides)
    yield b
    if owned is not None:
        owned.kill9()  # the module is done with it: a clean stop (0.3-0.6 s) checks nothing here


@pytest.fixture(scope="module")
def bootstrap(broker) -> str:
    return broker.bootstrap


@pytest.fixture
def controllable_broker(broker):
    if not broker.controllable:
        pytest.skip("needs a broker this suite controls (not with --bootstrap)")
    return broker


@pytest.fixture
def fresh_broker(tmp_path):
    """Starts a broker of the test's own (``fresh_broker(overrides)``, as many as it needs), killed after it."""
    started = []

    def run(overrides: dict[str, str] | None = None) -> BrokerProcess:
        b = BrokerProcess(str(tmp_path / f"data{len(started)}"), overrides)
        started.append(b)
        b.start()
        return b

    yield run
    for b in started:
        b.kill9()


@pytest.fixture
def topic_name(request) -> str:
    base = "".join(c if c.isalnum() else "-" for c in request.node.name)[:80]
    return f"{base}-{uuid.uuid4().hex[:8]}"


@pytest.fixture(scope="session")
def kafka_jars():
    """Kafka 4.3's jars in the cache, so that a tool's first call does not include their download."""
    reason = apache_kafka.missing()
    if reason:
        pytest.skip(reason)
    return apache_kafka.jars()
