"""One module per Kafka API. The broker dispatches decoded requests through REGISTRY.

Each handler module defines:
    API_KEY: int
    MIN_VERSION, MAX_VERSION: the versions this handler fully implements; these
        are exactly what ApiVersions advertises. All three are plain integer
        literals: REGISTRY reads them from the source text and imports a module
        on the first request of its API.
    def handle(ctx: RequestContext, request) -> response | Delayed
Handlers never touch sockets, the event loop or files: they call the services
on ``ctx.broker`` (replica manager, controller, coordinators) and return either a
response object or a ``Delayed`` the broker parks in its purgatory.
"""

from __future__ import annotations

import importlib
import os
import pkgutil
import re
from collections.abc import Iterator, Mapping
from types import ModuleType

from .context import Delayed, RequestContext  # noqa: F401

_SKIP = {"context", "common"}
_CONSTANT = re.compile(r"^(API_KEY|MIN_VERSION|MAX_VERSION) = (\d+)\b", re.M)
_HANDLE = re.compile(r"^def handle\(", re.M)


def _handler_names() -> Iterator[str]:
    for info in pkgutil.iter_modules(__path__):
        if info.name not in _SKIP and not info.name.startswith("_"):
            yield info.name


def _discover() -> dict[int, ModuleType]:
    """Import every handler module (API_KEY and handle defined)."""
    found: dict[int, ModuleType] = {}
    for name in _handler_names():
        mod = importlib.import_module(f"{__name__}.{name}")
        key = getattr(mod, "API_KEY", None)
        if key is None or not hasattr(mod, "handle"):
            continue
        if key in found:
            raise RuntimeError(f"two handlers for api key {key}: {found[key].__name__}, {mod.__name__}")
        found[key] = mod
    return found


def _scan() -> dict[int, tuple[str, int, int]] | None:
    """api key -> (module name, min, max) read from the handler modules' source text, so
    that none is imported before its first request; None without sources. Each module's
    constants are checked against the text when it is imported (_Registry.__getitem__)."""
    found: dict[int, tuple[str, int, int]] = {}
    for name in _handler_names():
        try:
            with open(os.path.join(__path__[0], name + ".py"), encoding="utf-8") as f:
                text = f.read()
        except OSError:
            return None
        constants = dict(_CONSTANT.findall(text))
        if "API_KEY" not in constants or not _HANDLE.search(text):
            continue
        key = int(constants["API_KEY"])
        if key in found:
            raise RuntimeError(f"two handlers for api key {key}: {found[key][0]}, {name}")
        found[key] = (name, int(constants["MIN_VERSION"]), int(constants["MAX_VERSION"]))
    return found


class _Registry(Mapping):
    """api key -> handler module, each module imported on the first request of its API
    (start-up imports only what the first requests need)."""

    def __init__(self, table: dict[int, tuple[str, int, int]]):
        self._table = table
        self._modules: dict[int, ModuleType] = {}

    def __getitem__(self, key: int) -> ModuleType:
        mod = self._modules.get(key)
        if mod is None:
            name, lo, hi = self._table[key]
            mod = importlib.import_module(f"{__name__}.{name}")
            if (mod.API_KEY, mod.MIN_VERSION, mod.MAX_VERSION) != (key, lo, hi) or not hasattr(mod, "handle"):
                raise RuntimeError(f"{mod.__name__}: API_KEY/MIN_VERSION/MAX_VERSION not plain literals")
            self._modules[key] = mod
        return mod

    def get(self, key, default=None):
        mod = self._modules.get(key)
        if mod is not None:
            return mod
        return self[key] if key in self._table else default

    def __contains__(self, key) -> bool:
        return key in self._table

    def __iter__(self) -> Iterator[int]:
        return iter(self._table)

    def __len__(self) -> int:
        return len(self._table)

    def versions(self) -> list[tuple[int, int, int]]:
        return sorted((k, lo, hi) for k, (_, lo, hi) in self._table.items())


def _registry() -> Mapping:
    table = _scan()
    if table is None:  # no sources to read: import them all
        mods = _discover()
        table = {k: (m.__name__.rsplit(".", 1)[1], m.MIN_VERSION, m.MAX_VERSION) for k, m in mods.items()}
    return _Registry(table)


REGISTRY: Mapping = _registry()


def supported_versions() -> list[tuple[int, int, int]]:
    """(api_key, min, max) for every implemented API, sorted by key."""
    return REGISTRY.versions()
