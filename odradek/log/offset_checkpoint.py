"""Kafka's OffsetCheckpointFile layout: version 0, the count, then "topic partition offset"
per line. The log directory's `replication-offset-checkpoint` (each partition's high
watermark) is kept in it by the LogManager."""

from __future__ import annotations

from typing import Iterable, Mapping

from . import checkpoint_file
from .checkpoint_file import CheckpointError, to_int

__all__ = ["CheckpointError", "REPLICATION_OFFSET_CHECKPOINT", "decode", "encode"]

REPLICATION_OFFSET_CHECKPOINT = "replication-offset-checkpoint"
VERSION = 0


def encode(offsets: Mapping[tuple[str, int], int] | Iterable[tuple[tuple[str, int], int]]) -> bytes:
    """checkpoint_file.encode's bytes, one f-string a line (a broker's 100,000 partitions every
    replica.high.watermark.checkpoint.interval.ms: about half the time of the generic encoder)."""
    items = offsets.items() if isinstance(offsets, Mapping) else offsets
    rows = [f"{t} {p} {o}\n" for (t, p), o in items]
    return f"{VERSION}\n{len(rows)}\n{''.join(rows)}".encode()


def decode(data: bytes) -> dict[tuple[str, int], int]:
    return {(t, to_int(p)): to_int(o) for t, p, o in checkpoint_file.decode(data, VERSION, 3)}
