"""The README's examples of odradek for tests in other languages run as written: examples/testing-go
(a Go test with franz-go) and examples/testing-junit (JUnit 5 with kafka-clients 4.3): each starts
odradek serve itself and injects a fault over the HTTP control API."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from builds import CHECK_JVM
from odradek.testing.broker import serve_env

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


@pytest.mark.skipif(shutil.which("go") is None, reason="needs Go")
def test_go_example():
    env = dict(serve_env(), ODRADEK=f"{sys.executable} -m odradek")
    r = subprocess.run(["go", "test", "-count=1", "./..."], cwd=EXAMPLES / "testing-go", env=env,
                       capture_output=True, text=True, timeout=900)
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr[-4000:]
    assert r.stdout.startswith("ok"), r.stdout


@pytest.mark.skipif(shutil.which("mvn") is None or shutil.which("java") is None, reason="needs Java 17 and Maven")
def test_junit_example():
    # Maven's JVM and the tests' forked JVM with C1 only and the serial collector (builds.CHECK_JVM):
    # they live seconds, and C2 and G1's threads were much of their CPU
    jvm = " ".join(CHECK_JVM)
    env = dict(serve_env(), ODRADEK=f"{sys.executable} -m odradek", MAVEN_OPTS=jvm)
    r = subprocess.run(["mvn", "-q", "-B", "test", f"-DargLine={jvm}"], cwd=EXAMPLES / "testing-junit", env=env, capture_output=True,
                       text=True, timeout=900)
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr[-4000:]
    report = (EXAMPLES / "testing-junit" / "target" / "surefire-reports" / "example.OrdersTest.txt").read_text()
    assert "Tests run: 2, Failures: 0, Errors: 0, Skipped: 0" in report, report
