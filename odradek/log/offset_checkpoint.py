"""Kafka's OffsetCheckpointFile layout: version 0, the count, then "topic partition offset"
per line. The log directory's `replication-offset-checkpoint` (each partition's high
watermark) is kept in it by the LogManager."""

from __future__ import annotations

from typing import Iterable, Mapping

from . import checkpoint_file
from .checkpoint_file import CheckpointError, to_int

__all__ = ["CheckpointError", "Encoder", "REPLICATION_OFFSET_CHECKPOINT", "decode", "encode"]

REPLICATION_OFFSET_CHECKPOINT = "replication-offset-checkpoint"
VERSION = 0


class Encoder:
    """checkpoint_file.encode's bytes, one f-string a line (a broker's 100,000 partitions every
    replica.high.watermark.checkpoint.interval.ms: about half the time of the generic encoder),
    added as they come to one growing buffer: no object per partition is held until the end (a
    pass in a worker thread while the event loop makes objects that stay, as partitions are
    created, would leave them scattered over the heap: about 13 MB more RSS at 100,000
    partitions), and one byte a character (a StringIO holds four)."""

    def __init__(self) -> None:
        self._lines = bytearray()
        self.count = 0

    def add(self, topic: str, partition: int, offset: int) -> None:
        self._lines += f"{topic} {partition} {offset}\n".encode()
        self.count += 1

    def bytes(self) -> bytes:
        return b"%d\n%d\n%s" % (VERSION, self.count, self._lines)


def encode(offsets: Mapping[tuple[str, int], int] | Iterable[tuple[tuple[str, int], int]]) -> bytes:
    items = offsets.items() if isinstance(offsets, Mapping) else offsets
    out = Encoder()
    for (t, p), o in items:
        out.add(t, p, o)
    return out.bytes()


def decode(data: bytes) -> dict[tuple[str, int], int]:
    return {(t, to_int(p)): to_int(o) for t, p, o in checkpoint_file.decode(data, VERSION, 3)}
