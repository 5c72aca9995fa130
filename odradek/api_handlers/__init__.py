"""One module per Kafka API. The broker dispatches decoded requests through REGISTRY.

Each handler module defines:
    API_KEY: int
    MIN_VERSION, MAX_VERSION: the versions this handler fully implements; these
        are exactly what ApiVersions advertises.
    def handle(ctx: RequestContext, request) -> response | Delayed
Handlers never touch sockets, the event loop or files: they call the services
on ``ctx.broker`` (replica manager, controller, coordinators) and return either a
response object or a ``Delayed`` the broker parks in its purgatory.
"""

from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType

from .context import Delayed, RequestContext  # noqa: F401

_SKIP = {"context", "common"}


def _discover() -> dict[int, ModuleType]:
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


REGISTRY: dict[int, ModuleType] = _discover()


def supported_versions() -> list[tuple[int, int, int]]:
    """(api_key, min, max) for every implemented API, sorted by key."""
    return sorted((k, m.MIN_VERSION, m.MAX_VERSION) for k, m in REGISTRY.items())
