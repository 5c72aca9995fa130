"""tools/gen_wire.py loaded as a module (it is a script, not part of the package)."""

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def load():
    spec = importlib.util.spec_from_file_location("gen_wire", ROOT / "tools" / "gen_wire.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules["gen_wire"] = mod
    spec.loader.exec_module(mod)
    return mod
