"""Messages with long arrays, made from any generated message class's field table (the stepped
decode and encode tests, issue 27 fairness), and a step generator run through."""

import sys

LARGE_BYTES = 60_000  # (three steps or so)


def drive_to(steps):
    """(what a step generator returns, the yields it took) once run through."""
    yields = 0
    try:
        while True:
            assert next(steps) is None
            yields += 1
    except StopIteration as done:
        return done.value, yields


def drive(steps):
    """(object, end position, yields) of a decode_steps generator run through."""
    (obj, end), yields = drive_to(steps)
    return obj, end, yields


def large(cls, version: int, entries: int = 0):
    """A request of `cls` at `version` whose top-level arrays hold ``entries`` entries each (by
    default: enough for LARGE_BYTES or more)."""
    if not entries:
        return large(cls, version, LARGE_BYTES // (len(large(cls, version, 100).encode(version)) // 100) + 1)
    mod = sys.modules[cls.__module__]
    kw = {}
    for attr, typ, vmin, vmax, *_rest, struct_name in cls._FIELDS:
        if not vmin <= version <= vmax or not typ.startswith("[]"):
            continue
        if struct_name is not None:
            elem = getattr(mod, struct_name)
            names = [f for f, t, lo, hi, *_ in elem._FIELDS if t == "string" and lo <= version <= hi]
            kw[attr] = [elem(**{n: f"{n}-{i}" for n in names}) for i in range(entries)]
        elif typ == "[]string":
            kw[attr] = [f"s-{i}" for i in range(entries)]
    return cls(**kw)


def wide(cls, version: int, entries: int = 0):
    """A request of `cls` at `version` whose top-level arrays hold one entry each, and that entry's
    own arrays of structs or strings ``entries`` entries each (one topic of many partitions; by
    default: enough for LARGE_BYTES or more)."""
    if not entries:
        return wide(cls, version, LARGE_BYTES // max(1, len(wide(cls, version, 100).encode(version)) // 100) + 1)
    mod = sys.modules[cls.__module__]

    def fill(struct, depth: int):
        kw = {}
        for attr, typ, vmin, vmax, *_rest, struct_name in struct._FIELDS:
            if not vmin <= version <= vmax:
                continue
            if typ == "string":
                kw[attr] = f"{attr}-{depth}"
            elif typ.startswith("[]") and struct_name is not None:
                elem = getattr(mod, struct_name)
                kw[attr] = [fill(elem, depth + 1) for _ in range(entries if depth == 1 else 1)]
            elif typ == "[]string":
                kw[attr] = [f"s-{i}" for i in range(entries if depth == 1 else 1)]
        return struct(**kw)

    return fill(cls, 0)
