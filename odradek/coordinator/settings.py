"""Build a coordinator's integer settings from the broker config or a dict of Kafka names."""

from __future__ import annotations

from dataclasses import fields
from typing import Any


def int_settings(cls, obj: Any):
    """An instance of dataclass `cls` whose int fields come from `obj`: a `cls` (kept), None
    (defaults), a dict keyed by field name or Kafka's dotted name, or an object with the
    same attribute names (the broker's config)."""
    if obj is None:
        return cls()
    if isinstance(obj, cls):
        return obj
    kw = {}
    for f in fields(cls):
        if isinstance(obj, dict):
            for k in (f.name, f.name.replace("_", ".")):
                if k in obj:
                    kw[f.name] = int(obj[k])
        elif getattr(obj, f.name, None) is not None:
            kw[f.name] = int(getattr(obj, f.name))
    return cls(**kw)
