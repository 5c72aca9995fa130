"""odradek for tests: a real broker (or cluster) per test, protocol-level fault injection and a
virtual clock, from pytest (the ``odradek_broker`` / ``odradek_cluster`` fixtures of
odradek.testing.pytest_plugin), from any Python test framework (``Broker``, ``Cluster``: context
managers) and from any language (the HTTP control API and ``odradek fault`` / ``odradek clock``).

The broker side (fault rules, clock, trace, control API) is in faults.py, clock.py, trace.py and
control_api.py, which broker/ consults; the harness is imported on first use, so a broker
process that imports the rules does not load it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .broker import Broker
    from .cluster import Cluster
    from .control import Clock, FaultHandle, Faults
    from .faults import FaultError

__all__ = ["Broker", "Cluster", "Clock", "FaultError", "FaultHandle", "Faults"]

_WHERE = {"Broker": "broker", "Cluster": "cluster", "Clock": "control", "FaultHandle": "control",
          "Faults": "control", "FaultError": "faults"}


def __getattr__(name: str):  # PEP 562: the harness loads when a test first asks for it
    where = _WHERE.get(name)
    if where is None:
        raise AttributeError(f"module 'odradek.testing' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(f"odradek.testing.{where}"), name)
