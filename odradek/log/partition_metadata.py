"""The `partition.metadata` file of a partition directory: the topic id the log belongs to.

Kafka's format, byte for byte: ``version: 0\\ntopic_id: <id>`` where <id> is the topic
id as Kafka prints a Uuid (URL-safe base64 without padding); no newline at the end.
A broker checks it when it opens a log after a restart: the same topic name with another
id is the left-over of a deleted topic, not the partition of the topic now in the metadata.
"""
from __future__ import annotations

import base64
import binascii
import posixpath

from .fs import FileSystem, read_whole, write_atomic

FILE = "partition.metadata"
VERSION = 0


class PartitionMetadataError(ValueError):
    """A partition.metadata file that cannot be read."""


def encode(topic_id: bytes) -> bytes:
    tid = base64.urlsafe_b64encode(bytes(topic_id)).decode().rstrip("=")
    return f"version: {VERSION}\ntopic_id: {tid}".encode()


def decode(data: bytes) -> bytes:
    """The topic id in a partition.metadata file's content."""
    try:
        lines = data.decode("ascii").splitlines()
    except UnicodeDecodeError as e:
        raise PartitionMetadataError(f"not text: {e}") from None
    if len(lines) < 2 or lines[0].strip() != f"version: {VERSION}" or not lines[1].startswith("topic_id: "):
        raise PartitionMetadataError(f"unexpected content {data[:80]!r}")
    text = lines[1][len("topic_id: "):].strip()
    try:
        tid = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        raise PartitionMetadataError(f"bad topic id {text!r}") from None
    if len(tid) != 16:
        raise PartitionMetadataError(f"bad topic id {text!r}")
    return tid


def read(fs: FileSystem, directory: str, decoded: dict[bytes, bytes] | None = None) -> bytes | None:
    """The topic id recorded in `directory`, None when the file is missing. ``decoded``: file
    contents already decoded -> their id (a start reads one such file per partition, the same
    content for every partition of a topic)."""
    path = posixpath.join(directory, FILE)
    if not fs.exists(path):
        return None
    data = read_whole(fs, path)
    if decoded is None:
        return decode(data)
    tid = decoded.get(data)
    if tid is None:
        tid = decoded[data] = decode(data)
    return tid


def write(fs: FileSystem, directory: str, topic_id: bytes) -> None:
    """Record the topic id (atomically and durably: a crash leaves the old file or the new)."""
    write_atomic(fs, posixpath.join(directory, FILE), encode(topic_id))
