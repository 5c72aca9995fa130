"""Build a coordinator's integer settings from the broker config or a dict of Kafka names."""

from __future__ import annotations

from dataclasses import fields
from typing import Any


def int_settings(cls, obj: Any, prefix: str = ""):
    """An instance of dataclass `cls` whose int fields come from `obj`: a `cls` (kept), None
    (defaults), a dict keyed by field name or Kafka's dotted name, or an object with the
    same attribute names (the broker's config); ``prefix`` + a field's name is its setting's name
    (``group_streams_`` + ``session_timeout_ms``)."""
    if obj is None:
        return cls()
    if isinstance(obj, cls):
        return obj
    kw = {}
    for f in fields(cls):
        name = prefix + f.name
        if isinstance(obj, dict):
            for k in (name, name.replace("_", ".")):
                if k in obj:
                    kw[f.name] = int(obj[k])
        elif getattr(obj, name, None) is not None:
            kw[f.name] = int(getattr(obj, name))
    return cls(**kw)
