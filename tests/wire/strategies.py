"""Hypothesis strategies that build random generated-message objects for a version."""

from __future__ import annotations

import functools
import importlib

from hypothesis import strategies as st

INT_RANGES = {
    "int8": (-(2**7), 2**7 - 1),
    "int16": (-(2**15), 2**15 - 1),
    "uint16": (0, 2**16 - 1),
    "int32": (-(2**31), 2**31 - 1),
    "uint32": (0, 2**32 - 1),
    "int64": (-(2**63), 2**63 - 1),
}


def _in(v, lo, hi):
    return lo >= 0 and lo <= v <= hi


def scalar(t: str):
    if t in INT_RANGES:
        lo, hi = INT_RANGES[t]
        return st.integers(lo, hi)
    if t == "bool":
        return st.booleans()
    if t == "float64":
        return st.floats(allow_nan=False)
    if t == "uuid":
        return st.binary(min_size=16, max_size=16)
    if t == "string":
        return st.text(max_size=8)
    if t in ("bytes", "records"):
        return st.binary(max_size=12)
    raise ValueError(t)


@functools.cache
def message(cls, version: int, flexible: bool, depth: int = 0):
    """The strategy of `cls` objects at `version` (built once per class and version: hypothesis validates a
    strategy on its first draw, most of a draw's cost for these deep trees)."""
    module = importlib.import_module(cls.__module__)
    parts = {}
    tags_used = set()
    for (attr, t, vlo, vhi, nlo, nhi, tag, tlo, struct_name) in cls._FIELDS:
        if not _in(version, vlo, vhi):
            continue
        if tag is not None and tlo >= 0 and version >= tlo:
            tags_used.add(tag)
        is_array = t.startswith("[]")
        et = t[2:] if is_array else t
        if struct_name is not None:
            inner = message(getattr(module, struct_name), version, flexible, depth + 1)
        else:
            inner = scalar(et)
        if is_array:
            value = st.lists(inner, max_size=2 if depth < 2 else 0)
        else:
            value = inner
        if _in(version, nlo, nhi):
            value = st.one_of(st.none(), value)
        parts[attr] = value
    if flexible:
        unknown = st.lists(
            st.tuples(st.integers(200, 400), st.binary(max_size=6)), max_size=2, unique_by=lambda x: x[0]
        ).map(lambda xs: sorted(xs) or None)
        parts["_unknown_tagged"] = unknown

    return st.fixed_dictionaries(parts).map(lambda kw: cls(**kw))
