"""examples/clickstream.py names what is missing in one line (exit 2) instead of a traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "clickstream.py"


def _run(code: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                          env=env or dict(os.environ))


def test_without_pyspark():
    r = _run(f"import sys, runpy; sys.modules['pyspark'] = None; sys.argv = ['clickstream.py', 'run']; "
             f"runpy.run_path({str(EXAMPLE)!r}, run_name='__main__')")
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    assert r.stderr.splitlines() == ["clickstream: pyspark is not installed: pip install -e '.[spark]' "
                                     "(from the repository's root)"]


def test_without_java(tmp_path):
    r = _run(f"import sys, runpy; sys.argv = ['clickstream.py', 'run']; "
             f"runpy.run_path({str(EXAMPLE)!r}, run_name='__main__')", env=dict(os.environ, PATH=str(tmp_path)))
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    assert len(r.stderr.splitlines()) == 1 and "Spark needs Java 17 or newer (java not found" in r.stderr
