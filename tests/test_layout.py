"""Test modules outside packages are imported by basename (pytest's default import mode):
two with the same file name anywhere under tests/ and compat_tests/ stop collection."""

from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_test_module_basenames_are_unique():
    names = Counter(p.name for d in ("tests", "compat_tests") for p in (ROOT / d).rglob("*.py")
                    if not (p.parent / "__init__.py").exists())
    dupes = sorted(n for n, c in names.items() if c > 1 and n != "conftest.py")
    assert not dupes, f"rename one of each: {dupes}"
