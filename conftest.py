"""Repository-wide test set-up.

- The session header says which external tools the suite uses are on this machine (tests that need a
  missing one skip, naming it).
- Parallel runs (pytest-xdist, `-n auto --dist loadscope` in pyproject.toml): every test module runs
  whole on one worker, as its module-scoped brokers expect; the Spark tests share one SparkSession, so
  they stay together on one worker. Workers take modules in collection order, so the long ones (Spark,
  the Java/Go/Node client checks, broker kills) come first and the many short unit-test modules fill
  the end. `-n auto` is one worker more than the cores: most of a compat test's time is spent waiting
  for brokers and client processes.
"""
from __future__ import annotations

import os
import shutil

TOOLS = (("java", "Java clients, Kafka Streams, Kafka's CLI tools, Spark"), ("mvn", "the same, first run"),
         ("go", "franz-go"), ("node", "kafkajs"), ("npm", "kafkajs"))


def pytest_report_header(config):
    found = [name for name, _ in TOOLS if shutil.which(name)]
    missing = [f"{name} ({what})" for name, what in TOOLS if not shutil.which(name)]
    line = "external tools: " + (" ".join(found) or "none")
    if missing:
        line += "; missing, their tests skip: " + ", ".join(missing)
    return line


# the longest modules (measured with --durations and a per-worker timeline of a clean-clone run), started
# first; the long unit-test modules among them, so that none is the last unit a worker takes (a
# clean-clone run ended with one worker alone on test_message_roundtrip's 720 tests)
LONG_FIRST = ["spark_tests", "compat_tests/test_kafka_streams.py", "compat_tests/test_java_clients.py",
              "compat_tests/test_franz_go.py", "compat_tests/test_fetch_sessions.py", "compat_tests/test_kafkajs.py",
              "compat_tests/test_replication_isr.py", "compat_tests/test_replication_failover.py",
              "compat_tests/test_cluster_kafka_tools_elections.py", "compat_tests/test_replica_fetcher_kafka.py",
              "compat_tests/test_cluster_clean_shutdown.py", "compat_tests/test_cluster_coordinator_acks.py",
              "compat_tests/test_transactions.py", "compat_tests/test_raft_cluster.py",
              "tests/raft/test_simulation.py", "tests/wire/test_message_roundtrip.py",
              "tests/wire/test_kafka_python_differential.py", "tests/test_fresh_clone.py"]


def _group(nodeid: str) -> str:
    """The unit of work a parallel worker takes whole: a test module, or all the Spark tests."""
    module = nodeid.split("::", 1)[0]
    return "spark_tests" if module.startswith("spark_tests/") else module


def _rank(group: str) -> int:
    if group in LONG_FIRST:
        return LONG_FIRST.index(group)
    return len(LONG_FIRST) + (0 if group.startswith("compat_tests/") else 1)


def pytest_collection_modifyitems(config, items):
    items.sort(key=lambda item: _rank(_group(item.nodeid)))  # stable: a module keeps its own order


def pytest_xdist_make_scheduler(config, log):
    """xdist's load-by-scope scheduling with _group as the scope (its loadgroup marks do not reach
    the scheduler under pytest 9, which made node ids read-only)."""
    from xdist.scheduler import LoadScopeScheduling

    class GroupScheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return _group(nodeid)

    return GroupScheduling(config, log)


def pytest_addoption(parser):
    """The seeded simulations' options (tests/raft, tests/replication): registered here, once, so they
    work whichever directories a run names (tests/sim_seeds.py reads them)."""
    group = parser.getgroup("simulation")
    group.addoption("--sim-seeds", type=int, default=None,
                    help="number of simulation seeds to run (also ODRADEK_SIM_SEEDS)")
    group.addoption("--sim-seed", type=int, default=None, help="run (replay) this one seed (also ODRADEK_SIM_SEED)")


def pytest_xdist_auto_num_workers(config):
    return (os.cpu_count() or 1) + 1
