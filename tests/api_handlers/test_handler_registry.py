"""The handler registry: the generated version table (odradek/api_handlers/_table.py) is
exactly the handler modules' constants, and modules load on first use."""
import importlib.util
import subprocess
import sys
from pathlib import Path

from odradek import api_handlers
from odradek.api_handlers import REGISTRY, supported_versions

ROOT = Path(__file__).resolve().parents[2]


def _generator():
    spec = importlib.util.spec_from_file_location("gen_api_table", ROOT / "tools" / "gen_api_table.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_table_is_current():
    committed = (ROOT / "odradek" / "api_handlers" / "_table.py").read_text()
    assert committed == _generator().render(), "run python tools/gen_api_table.py"


def test_table_versions_are_the_modules_constants():
    imported = api_handlers.discover()
    assert set(REGISTRY) == set(imported)
    assert supported_versions() == sorted((k, m.MIN_VERSION, m.MAX_VERSION) for k, m in imported.items())
    for key, mod in imported.items():
        assert REGISTRY[key] is mod and REGISTRY.get(key) is mod


def test_unknown_key():
    assert REGISTRY.get(9999) is None and 9999 not in REGISTRY


def _passes_in_a_fresh_interpreter(script: str) -> None:
    r = subprocess.run([sys.executable, "-c", script + "print('ok')\n"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr


def test_handlers_load_on_first_use():
    script = (
        "import sys\n"
        "from odradek.api_handlers import REGISTRY, supported_versions\n"
        "loaded = lambda: sorted(m for m in sys.modules if m.startswith('odradek.api_handlers.')\n"
        "                        and m.rsplit('.', 1)[1] not in ('context', 'common', '_table'))\n"
        "assert loaded() == [], loaded()\n"
        "assert len(supported_versions()) == len(REGISTRY) > 50 and loaded() == []\n"
        "REGISTRY.get(3)\n"
        "assert 'odradek.api_handlers.metadata' in loaded(), loaded()\n")
    _passes_in_a_fresh_interpreter(script)


def test_a_group_members_apis_load_together():
    """The first request of one of a classic group member's APIs imports the handler and request
    modules of all of them (FAMILIES), so that none is imported later, in the middle of a storm:
    a module's objects live as long as the process, and made at the peak of a 10,000-member group
    (its first LeaveGroup) they pinned the storm's pymalloc arenas (issue 27)."""
    script = (
        "import sys\n"
        "from odradek.api_handlers import REGISTRY\n"
        "names = ('join_group', 'sync_group', 'heartbeat', 'leave_group', 'offset_commit', 'offset_fetch')\n"
        "loaded = lambda: [n for n in names if f'odradek.api_handlers.{n}' in sys.modules\n"
        "                  and f'odradek.wire.messages.{n}_request' in sys.modules]\n"
        "assert loaded() == [], loaded()\n"
        "REGISTRY.get(11)\n"
        "assert loaded() == list(names), loaded()\n")
    _passes_in_a_fresh_interpreter(script)
