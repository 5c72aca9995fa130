"""Kafka's checkpoint text files (CheckpointFile): a version line, an entry-count line,
then one entry per line, its fields separated by a space (read: by any whitespace), every
line ended by a newline. `leader-epoch-checkpoint` (leader_epoch_cache.py) and the log
directory's `replication-offset-checkpoint` (offset_checkpoint.py) are written this way.
Pure: bytes in, bytes out; the log writes them with fs.write_atomic."""

from __future__ import annotations

from typing import Iterable, Sequence


class CheckpointError(ValueError):
    pass


def encode(version: int, entries: Iterable[Sequence[object]]) -> bytes:
    rows = [" ".join(str(f) for f in e) for e in entries]
    return ("\n".join([str(version), str(len(rows))] + rows) + "\n").encode()


def decode(data: bytes, version: int, fields: int) -> list[list[str]]:
    """The entries' fields; an empty file has none, as in Kafka. A wrong version, a line
    without `fields` fields or a count that does not match raises CheckpointError."""
    lines = data.decode("utf-8", errors="replace").splitlines()
    if not lines:
        return []
    try:
        found = int(lines[0])
    except ValueError:
        raise CheckpointError(f"malformed version line {lines[0]!r}") from None
    if found != version:
        raise CheckpointError(f"unrecognised checkpoint version {found}")
    if len(lines) < 2:
        raise CheckpointError("checkpoint has no entry count")
    try:
        expected = int(lines[1])
    except ValueError:
        raise CheckpointError(f"malformed count line {lines[1]!r}") from None
    entries = [line.split() for line in lines[2:]]
    for line, parts in zip(lines[2:], entries):
        if len(parts) != fields:
            raise CheckpointError(f"malformed line {line!r}")
    if len(entries) != expected:
        raise CheckpointError(f"expected {expected} entries but found {len(entries)}")
    return entries


def to_int(field: str) -> int:
    try:
        return int(field)
    except ValueError:
        raise CheckpointError(f"malformed number {field!r}") from None
