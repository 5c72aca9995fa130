"""The handler registry: versions read from the handler modules' source text, without
importing them, are exactly the imported modules' constants; modules load on first use."""
import subprocess
import sys

from odradek import api_handlers
from odradek.api_handlers import REGISTRY, supported_versions


def test_scanned_versions_are_the_modules_constants():
    imported = api_handlers._discover()
    assert set(REGISTRY) == set(imported)
    assert supported_versions() == sorted((k, m.MIN_VERSION, m.MAX_VERSION) for k, m in imported.items())
    for key, mod in imported.items():
        assert REGISTRY[key] is mod and REGISTRY.get(key) is mod


def test_unknown_key():
    assert REGISTRY.get(9999) is None and 9999 not in REGISTRY


def test_handlers_load_on_first_use():
    script = (
        "import sys\n"
        "from odradek.api_handlers import REGISTRY, supported_versions\n"
        "loaded = lambda: sorted(m for m in sys.modules if m.startswith('odradek.api_handlers.')\n"
        "                        and m.rsplit('.', 1)[1] not in ('context', 'common'))\n"
        "assert loaded() == [], loaded()\n"
        "assert len(supported_versions()) == len(REGISTRY) > 50 and loaded() == []\n"
        "REGISTRY.get(3)\n"
        "assert 'odradek.api_handlers.metadata' in loaded(), loaded()\n"
        "print('ok')\n")
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr


def test_sourceless_install_imports_everything(monkeypatch):
    monkeypatch.setattr(api_handlers, "_scan", lambda: None)
    reg = api_handlers._registry()
    assert reg.versions() == supported_versions()
