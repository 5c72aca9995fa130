"""One module per Kafka API. The broker dispatches decoded requests through REGISTRY.

Each handler module defines:
    API_KEY: int
    MIN_VERSION, MAX_VERSION: the versions this handler fully implements; these
        are exactly what ApiVersions advertises. tools/gen_api_table.py copies
        all three into _table.py, so that REGISTRY imports a module only on the
        first request of its API.
    def handle(ctx: RequestContext, request) -> response | Delayed
Handlers never touch sockets, the event loop or files: they call the typed ports on
``ctx.services`` (ports.py: partitions, metadata, groups, txns, shares, ...) and return
either a response object or a ``Delayed`` the broker parks in its purgatory.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterator, Mapping
from types import ModuleType

from odradek.wire.api import request_class

from ._table import TABLE
from .context import Delayed, RequestContext  # noqa: F401

_SKIP = {"context", "common", "ports", "group_common"}
# APIs a client uses together (a classic group member: JoinGroup, SyncGroup, Heartbeat, LeaveGroup,
# OffsetCommit, OffsetFetch): the first request of one imports the handler and request modules of
# all. A module imported in the middle of a storm keeps its code, names and tables in the storm's
# pymalloc arenas for good: the first LeaveGroup, at the peak of a 10,000-member group, pinned arenas
# that would have gone back to the OS (issue 27)
FAMILIES = (frozenset({8, 9, 11, 12, 13, 14}),)


def discover() -> dict[int, ModuleType]:
    """Import every handler module (API_KEY and handle defined); tools/gen_api_table.py
    writes _table.py from this."""
    found: dict[int, ModuleType] = {}
    for info in pkgutil.iter_modules(__path__):
        if info.name in _SKIP or info.name.startswith("_"):
            continue
        mod = importlib.import_module(f"{__name__}.{info.name}")
        key = getattr(mod, "API_KEY", None)
        if key is None or not hasattr(mod, "handle"):
            continue
        if key in found:
            raise RuntimeError(f"two handlers for api key {key}: {found[key].__name__}, {mod.__name__}")
        found[key] = mod
    return found


class _Registry(Mapping):
    """api key -> handler module, each module imported on the first request of its API
    (start-up imports only what the first requests need). The versions come from the
    generated _table.py and are checked against the module when it is imported."""

    def __init__(self, table: dict[int, tuple[str, int, int]]):
        self._table = table
        self._modules: dict[int, ModuleType] = {}

    def __getitem__(self, key: int) -> ModuleType:
        mod = self._modules.get(key)
        if mod is None:
            mod = self._load(key)
            for family in FAMILIES:
                if key in family:
                    for other in family:
                        if other not in self._modules:
                            self._load(other)
                        request_class(other)
        return mod

    def _load(self, key: int) -> ModuleType:
        name, lo, hi = self._table[key]
        mod = importlib.import_module(f"{__name__}.{name}")
        if (mod.API_KEY, mod.MIN_VERSION, mod.MAX_VERSION) != (key, lo, hi):
            raise RuntimeError(f"{mod.__name__} differs from api_handlers/_table.py: "
                               "run python tools/gen_api_table.py")
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


REGISTRY: Mapping = _Registry(TABLE)


def supported_versions() -> list[tuple[int, int, int]]:
    """(api_key, min, max) for every implemented API, sorted by key."""
    return REGISTRY.versions()
