"""franz-go (kgo + kadm) against the broker: admin, produce, classic and KIP-848 groups, transactions.

compat_tests/go is a Go module pinned by go.mod/go.sum (github.com/twmb/franz-go). It is
built once per session into .cache/franz-go/ (Go's build cache makes later builds quick;
modules come from the Go module proxy the first time), then run against this module's
broker; it prints "PASS name" / "FAIL name: reason" per check; each check is a test here.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

GO_DIR = Path(__file__).resolve().parent / "go"
BIN = GO_DIR.parent.parent / ".cache" / "franz-go" / "franzgo-check"
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
    BIN.parent.mkdir(parents=True, exist_ok=True)
    r = subprocess.run(["go", "build", "-o", str(BIN), "."], cwd=GO_DIR, capture_output=True, text=True, timeout=900)
    if r.returncode != 0:
        raise RuntimeError(f"go build failed:\n{r.stdout[-5000:]}\n{r.stderr[-5000:]}")
    return BIN


@pytest.fixture(scope="module")
def franz_go_results(franz_go_binary, bootstrap) -> dict[str, str]:
    r = subprocess.run([str(franz_go_binary), bootstrap], capture_output=True, text=True, timeout=600)
    results: dict[str, str] = {}
    for line in r.stdout.splitlines():
        m = re.match(r"(PASS|FAIL) (\S+?)(?::| \()(.*)", line)
        if m:
            results[m.group(2)] = "PASS" if m.group(1) == "PASS" else line
    results["_output"] = f"exit {r.returncode}\n--- stdout\n{r.stdout[-8000:]}\n--- stderr\n{r.stderr[-4000:]}"
    results["_exit"] = str(r.returncode)
    return results


@pytest.mark.parametrize("check", CHECKS)
def test_franz_go_check(franz_go_results, check):
    got = franz_go_results.get(check)
    assert got is not None, f"check {check} did not report:\n" + franz_go_results["_output"]
    assert got == "PASS", got + "\n" + franz_go_results["_output"]


def test_franz_go_program_exit_code(franz_go_results):
    failing = [k for k, v in franz_go_results.items() if not k.startswith("_") and v != "PASS"]
    assert franz_go_results["_exit"] == ("1" if failing else "0"), franz_go_results["_output"]
