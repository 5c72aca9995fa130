"""kafkajs (Node) against the broker: admin, producer, consumer groups, transactions.

compat_tests/js is a small Node project pinned by package-lock.json (kafkajs 2.2.4, the
latest 2.x, plus kafkajs-snappy and lz4js for the Snappy and LZ4 codecs). `npm ci`
installs it into compat_tests/js/node_modules once (again only when the lock file
changes); check.js then runs every check against this module's broker and prints
"PASS name" / "FAIL name: reason" per check; each check is a test here.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from harness import assert_check_passed, assert_exit_code_matches, run_check_program

JS_DIR = Path(__file__).resolve().parent / "js"
CHECKS = [
    "admin.createTopicsAndMetadata",
    "admin.configs",
    "admin.createPartitions",
    "admin.deleteTopics",
    "admin.deleteTopicRecords",
    "admin.fetchTopicOffsetsByTimestamp",
    "producer.acks",
    "producer.codecsKeysHeadersTimestamps",
    "producer.logAppendTime",
    "producer.errors",
    "producer.idempotent",
    "consumer.groupRebalance",
    "consumer.commitResumeResetOffsets",
    "consumer.seekPauseResume",
    "consumer.eachBatch",
    "transactions.commitAbortReadCommitted",
    "transactions.sendOffsets",
]
# kafkajs joins groups the classic way; Kafka's default 3 s initial rebalance delay only slows it.
BROKER_OVERRIDES = {"group.initial.rebalance.delay.ms": "0"}

pytestmark = pytest.mark.skipif(shutil.which("node") is None or shutil.which("npm") is None,
                                reason="needs Node.js and npm")


def install() -> None:
    """npm ci, unless node_modules already matches package-lock.json."""
    lock = JS_DIR / "package-lock.json"
    stamp = JS_DIR / "node_modules" / ".package-lock.json"  # npm writes it on install
    if stamp.exists() and stamp.stat().st_mtime >= lock.stat().st_mtime:
        return
    r = subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=JS_DIR, capture_output=True, text=True,
                       timeout=600)
    if r.returncode != 0:
        raise RuntimeError(f"npm ci failed:\n{r.stdout[-5000:]}\n{r.stderr[-5000:]}")


@pytest.fixture(scope="session")
def kafkajs_installed() -> None:
    install()


@pytest.fixture(scope="module")
def kafkajs_results(kafkajs_installed, bootstrap) -> dict[str, str]:
    return run_check_program(["node", "check.js", bootstrap], cwd=JS_DIR)


@pytest.mark.parametrize("check", CHECKS)
def test_kafkajs_check(kafkajs_results, check):
    assert_check_passed(kafkajs_results, check)


def test_kafkajs_program_exit_code(kafkajs_results):
    assert_exit_code_matches(kafkajs_results)
