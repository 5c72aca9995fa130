"""The odradek pytest plugin as a user's suite sees it (pytester, the plugin loaded with -p as the
pytest11 entry point loads it): fixtures, the marker's settings, faults, clock, trace, sharing."""

import os
from pathlib import Path

import pytest

import odradek

pytest_plugins = ["pytester"]


@pytest.fixture(autouse=True)
def this_odradek(monkeypatch):
    """The inner pytest imports the odradek under test (a worktree's, not another install's)."""
    root = str(Path(odradek.__file__).resolve().parent.parent)
    monkeypatch.setenv("PYTHONPATH", root + os.pathsep + os.environ.get("PYTHONPATH", ""))

USER_TESTS = '''
import pytest
from odradek.testing import FaultError

@pytest.mark.odradek(trace=True, virtual_clock=True, properties={"num.partitions": 2}, in_process=IN_PROCESS)
def test_produce_retried_after_injected_errors(odradek_broker, odradek_bootstrap):
    assert odradek_bootstrap == odradek_broker.bootstrap
    t0 = odradek_broker.clock.now_ms()
    assert odradek_broker.clock.advance(60_000) == t0 + 60_000
    odradek_broker.create_topic("orders", partitions=1)
    with odradek_broker.faults.inject("Produce", "NOT_LEADER_OR_FOLLOWER", times=2, topic="orders") as f:
        assert odradek_broker.produce("orders", "a", "b") == [0, 1]
        assert not f.active
    answers = [p["error_code"] for x in odradek_broker.trace("Produce") if x["dir"] == "response"
               for t in x["fields"]["responses"] for p in t["partition_responses"]]
    assert answers[:2] == [6, 6] and answers[-1] == 0
    assert odradek_broker.consume("orders", 2) == [b"a", b"b"]

@pytest.mark.odradek(in_process=IN_PROCESS)
def test_system_clock_does_not_advance_and_bad_faults_are_refused(odradek_broker):
    with pytest.raises(FaultError, match="virtual.clock=true"):
        odradek_broker.clock.advance(1)
    with pytest.raises(FaultError, match="unknown API 'Produse'"):
        odradek_broker.faults.inject("Produse", "NOT_LEADER_OR_FOLLOWER")

@pytest.mark.odradek(brokers=1, controllers=1)
def test_cluster_fixture(odradek_cluster):
    if IN_PROCESS:
        pytest.skip("a cluster's nodes are processes: checked once")
    assert odradek_cluster.brokers == [2] and odradek_cluster.controllers == [1]
    odradek_cluster.create_topic("c")
    with odradek_cluster.faults.inject("Produce", "NOT_LEADER_OR_FOLLOWER", times=1) as f:
        assert odradek_cluster.produce("c", "v") == [0]
        assert not f.active
    odradek_cluster.kill(2)
    odradek_cluster.restart(2)
    assert odradek_cluster.consume("c", 1) == [b"v"]

pytestmark = pytest.mark.odradek(in_process=IN_PROCESS)
seen = []

def test_module_broker_first(odradek_module_broker):
    seen.append(odradek_module_broker.bootstrap)
    odradek_module_broker.faults.inject("Metadata", delay_ms=5)
    odradek_module_broker.faults.network(clients=True)
    odradek_module_broker.faults.pause()

def test_module_broker_shared_and_faults_cleared(odradek_module_broker):
    assert seen == [odradek_module_broker.bootstrap]
    assert odradek_module_broker.faults.list() == []
    assert not odradek_module_broker.faults.paused
    assert odradek_module_broker.faults.network()["clients_cut"] is False
'''


def plugin_args() -> list[str]:
    """-p for the plugin, unless pytest loads it already from the installed entry point (pytest11): a
    second registration under the module's name is refused."""
    from importlib.metadata import entry_points

    installed = any(ep.value == "odradek.testing.pytest_plugin" for ep in entry_points(group="pytest11"))
    autoload = not os.environ.get("PYTEST_DISABLE_PLUGIN_AUTOLOAD")
    return [] if installed and autoload else ["-p", "odradek.testing.pytest_plugin"]


@pytest.mark.parametrize("in_process", [True, False], ids=["thread", "subprocess"])
def test_plugin_fixtures_in_a_user_suite(pytester, in_process):
    """The broker in a thread: the user's pytest runs in this process (pytester's in-process run, a pytest
    and plugin manager of its own: no second interpreter and imports); as processes: in a pytest process
    of its own, as a user's suite starts it."""
    pytester.makepyfile(test_user=USER_TESTS.replace("IN_PROCESS", repr(in_process)))
    run = pytester.runpytest_inprocess if in_process else pytester.runpytest_subprocess
    result = run(*plugin_args(), "-p", "no:cacheprovider", "-q")
    result.assert_outcomes(passed=4 if in_process else 5, skipped=1 if in_process else 0)


def test_plugin_leaves_a_suite_without_its_fixtures_alone(pytester):
    pytester.makepyfile(test_plain="def test_nothing_started(request):\n"
                                   "    assert 'odradek_broker' not in request.fixturenames\n")
    result = pytester.runpytest_inprocess(*plugin_args(), "-p", "no:cacheprovider", "-q")
    result.assert_outcomes(passed=1)
