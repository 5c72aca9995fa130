"""franz-go (kgo + kadm) against the broker: admin, produce, classic and KIP-848 groups, transactions.

compat_tests/go is a Go module pinned by go.mod/go.sum (github.com/twmb/franz-go). It is
built once per session into .cache/franz-go/ (Go's build cache makes later builds quick;
modules come from the Go module proxy the first time), then run against this module's
broker; it prints "PASS name" / "FAIL name: reason" per check; each check is a test here.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import builds
from harness import assert_check_passed, assert_exit_code_matches, run_check_program

CHECKS = [
    "admin.topicsConfigsPartitions",
    "admin.listOffsetsDeleteRecords",
    "produce.codecsKeysHeadersTimestamps",
    "produce.acks",
    "produce.idempotentSequences",
    "group.classic",
    "group.kip848",
    "txn.commitAbortReadCommitted",
    "txn.groupTransactSession",
]
BROKER_OVERRIDES = {"group.initial.rebalance.delay.ms": "0"}

pytestmark = pytest.mark.skipif(shutil.which("go") is None, reason="needs Go")


@pytest.fixture(scope="session")
def franz_go_binary() -> Path:
    return builds.franz_go_binary()


@pytest.fixture(scope="module")
def franz_go_results(franz_go_binary, bootstrap) -> dict[str, str]:
    return run_check_program([str(franz_go_binary), bootstrap])


@pytest.mark.parametrize("check", CHECKS)
def test_franz_go_check(franz_go_results, check):
    assert_check_passed(franz_go_results, check)


def test_franz_go_program_exit_code(franz_go_results):
    assert_exit_code_matches(franz_go_results)
