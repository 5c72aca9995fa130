"""kafkajs (Node) against the broker: admin, producer, consumer groups, transactions.

compat_tests/js is a small Node project pinned by package-lock.json (kafkajs 2.2.4, the
latest 2.x, plus kafkajs-snappy and lz4js for the Snappy and LZ4 codecs). `npm ci`
installs it into compat_tests/js/node_modules once (again only when the lock file
changes); check.js then runs every check against this module's broker and prints
"PASS name" / "FAIL name: reason" per check; each check is a test here.
"""

from __future__ import annotations

import shutil

import pytest

import builds
from harness import assert_check_passed, assert_exit_code_matches, run_check_program

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


@pytest.fixture(scope="session")
def kafkajs_installed() -> None:
    builds.kafkajs_install()


@pytest.fixture(scope="module")
def kafkajs_results(kafkajs_installed, bootstrap) -> dict[str, str]:
    return run_check_program(["node", "check.js", bootstrap], cwd=builds.JS_DIR)


@pytest.mark.parametrize("check", CHECKS)
def test_kafkajs_check(kafkajs_results, check):
    assert_check_passed(kafkajs_results, check)


def test_kafkajs_program_exit_code(kafkajs_results):
    assert_exit_code_matches(kafkajs_results)
