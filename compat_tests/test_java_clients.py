"""Java kafka-clients against the broker: producer, consumer and Admin.

compat_tests/java is a small Maven project (JavaClientsCheck). It is built once per
kafka-clients version — 3.9.2, the one Spark's Kafka connector 4.2.0 pins, and 4.3.0,
the newest — then run once per version against this module's broker. The program
prints "PASS name" / "FAIL name: reason" per check; each check is a test here.
Maven resolves from ~/.m2 offline first and goes online only when something is missing.
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from builds import CHECK_JVM, JAVA_CLIENT_VERSIONS, java_clients_classpath
from harness import CheckProgram

JAVA_DIR = Path(__file__).resolve().parent / "java"
VERSIONS = list(JAVA_CLIENT_VERSIONS)
CHECKS = [
    "admin.describeCluster",
    "admin.createTopics",
    "admin.listTopics",
    "admin.describeTopics",
    "producer.everyCodecWithHeaders",
    "producer.acks",
    "consumer.groupCommitSyncAsync",
    "consumer.seek",
    "consumer.offsetsForTimes",
    "admin.listOffsetsMaxTimestamp",
    "consumer.pauseResume",
    "admin.consumerGroups",
    "admin.deleteRecords",
    "admin.incrementalAlterConfigs",
    "offsets.latestNeverBackwards",
    "consumer.incrementalFetch",
    "producer.transactions",
    "producer.transactionEpochs",
]
# the checks' consumers join empty classic groups (three per run): assigned at once, not after Kafka's 3 s
# initial delay
BROKER_OVERRIDES = {"group.initial.rebalance.delay.ms": "0"}
# Checks that fail on odradek for a known broker bug (strict: they flip to an error once fixed).
KNOWN_BROKER_BUGS: dict[str, str] = {}

pytestmark = pytest.mark.skipif(shutil.which("mvn") is None or shutil.which("java") is None,
                                reason="needs Java 17 and Maven")


@pytest.fixture(scope="session")
def java_classpaths() -> dict[str, str]:
    t0 = time.monotonic()
    cps = {v: java_clients_classpath(v) for v in VERSIONS}
    print(f"\njava compat build: {time.monotonic() - t0:.1f}s")
    return cps


@pytest.fixture(scope="module")
def java_programs(java_classpaths, bootstrap) -> Iterator[dict[str, CheckProgram]]:
    """JavaClientsCheck started once per kafka-clients version, both at once: each run mostly waits on the
    broker (group joins, transactions, polls), and each works on topics, groups and transactional ids of
    its own (named after its version and start time), so the two waits overlap."""
    programs = {version: CheckProgram(["java", *CHECK_JVM, "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "-cp",
                                       java_classpaths[version], "odradek.compat.JavaClientsCheck", bootstrap])
                for version in VERSIONS}
    try:
        yield programs
    finally:
        for program in programs.values():
            program.kill()


@pytest.fixture(scope="module", params=VERSIONS)
def java_results(request, java_programs) -> dict[str, str]:
    results = dict(java_programs[request.param].results())
    results["_version"] = request.param
    return results


@pytest.mark.parametrize("check", CHECKS)
def test_java_client_check(java_results, check, request, broker):
    if check in KNOWN_BROKER_BUGS and getattr(broker, "controllable", False):
        request.applymarker(pytest.mark.xfail(reason=KNOWN_BROKER_BUGS[check], strict=True))
    got = java_results.get(check)
    assert got is not None, f"check {check} did not report (kafka-clients {java_results['_version']}):\n" \
                            + java_results["_output"]
    assert got == "PASS", got + "\n" + java_results["_output"]


def test_java_program_exit_code(java_results):
    failing = [k for k, v in java_results.items() if not k.startswith("_") and v != "PASS"]
    expected = 1 if failing else 0
    assert java_results["_exit"] == str(expected), java_results["_output"]
