"""Shared helpers for the log tests: build batches, decode fetched slices."""
from __future__ import annotations

from odradek.wire.records import build_batch, iter_batches


def batch(values, *, ts=1000, keys=None, **kw) -> bytes:
    keys = keys if keys is not None else [None] * len(values)
    return build_batch([(k, v, (), ts) for k, v in zip(keys, values)], **kw)


def records_of(data: bytes) -> list[tuple[int, bytes | None, bytes | None]]:
    out = []
    for h, recs in iter_batches(data):
        for r in recs:
            out.append((r.offset(h), r.key, r.value))
    return out


def batches_of(data: bytes):
    return [h for h, _ in iter_batches(data)]


def read_all(log, start=None, upper=None):
    """Every record from start (default log start) up to the upper bound."""
    off = log.log_start_offset if start is None else start
    out = []
    while True:
        fs = log.read(off, 1 << 20, upper_bound_offset=upper)
        if not fs.total_bytes:
            return out
        hs = batches_of(fs.read_bytes())
        out.extend(r for r in records_of(fs.read_bytes()) if r[0] >= off)
        off = hs[-1].last_offset + 1
