"""A user's clone has nothing beside it: the README's test command collects there without errors,
and no test skips for a folder outside the repository (only for a missing tool: Java, Maven, Go,
Node). The repository's committed HEAD is cloned into an empty temporary folder and collected with
that clone first on PYTHONPATH; a small plugin evaluates every skip/skipif marker at collection."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]

# reports every skip a marker would make; module-level skips show in the -rs footer
PLUGIN = '''
import pytest

def pytest_collection_modifyitems(items):
    for item in items:
        for mark in item.iter_markers("skip"):
            print("SKIP-REASON", mark.kwargs.get("reason", mark.args[0] if mark.args else ""))
        for mark in item.iter_markers("skipif"):
            if any(c is True for c in mark.args):
                print("SKIP-REASON", mark.kwargs.get("reason", ""))
'''


def _outside_names(reason: str, clone: Path) -> bool:
    """Does a skip reason point at a folder outside the clone?"""
    return "../" in reason or "shared" in reason or (str(clone.parent) in reason and str(clone) not in reason)


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_fresh_clone_collects_and_skips_only_for_missing_tools(tmp_path):
    if not (REPO / ".git").exists():
        pytest.skip("not a git checkout")
    clone = tmp_path / "alone" / "odradek"
    r = subprocess.run(["git", "clone", "-q", "--no-hardlinks", str(REPO), str(clone)],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert sorted(p.name for p in clone.parent.iterdir()) == ["odradek"]
    plugins = tmp_path / "plugins"
    plugins.mkdir()
    (plugins / "skip_reasons.py").write_text(PLUGIN)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ODRADEK_", "PYTEST_"))}
    env["PYTHONPATH"] = os.pathsep.join([str(clone), str(plugins)])
    # --assert=plain: collection runs no test, so the assert rewriting of every test module (two thirds
    # of the collection's CPU in a clone without byte code) would be work for nothing
    r = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-rs", "-n", "0", "-p", "skip_reasons",
                        "-p", "no:cacheprovider", "--assert=plain"], cwd=clone, env=env, capture_output=True,
                       text=True, timeout=300)
    out = r.stdout + r.stderr
    assert r.returncode == 0, out[-6000:]
    assert not [ln for ln in out.splitlines() if ln.startswith("ERROR") or "ERRORS" in ln], out[-6000:]
    collected = [ln for ln in r.stdout.splitlines() if "::" in ln]
    assert len(collected) > 1000, out[-3000:]
    reasons = {ln.split("SKIP-REASON", 1)[1].strip() for ln in r.stdout.splitlines() if "SKIP-REASON" in ln}
    reasons |= {ln.split(":", 2)[-1].strip() for ln in r.stdout.splitlines() if ln.startswith("SKIPPED")}
    bad = sorted(x for x in reasons if _outside_names(x, clone))
    assert not bad, f"skip reasons naming a folder outside the repository: {bad}"
