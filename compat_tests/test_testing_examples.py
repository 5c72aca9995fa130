"""The README's examples of odradek for tests in other languages run as written: examples/testing-go
(a Go test with franz-go: odradek serve started by TestMain, a fault injected over HTTP)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from odradek.testing.broker import serve_env

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


@pytest.mark.skipif(shutil.which("go") is None, reason="needs Go")
def test_go_example():
    env = dict(serve_env(), ODRADEK=f"{sys.executable} -m odradek")
    r = subprocess.run(["go", "test", "-count=1", "./..."], cwd=EXAMPLES / "testing-go", env=env,
                       capture_output=True, text=True, timeout=900)
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr[-4000:]
    assert r.stdout.startswith("ok"), r.stdout
