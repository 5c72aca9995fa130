"""The `.kafka_cleanshutdown` file of a log dir (Kafka's CleanShutdownFileHandler): a broker
that closed its logs cleanly records there the broker epoch it shut down in, as JSON
``{"version":0,"brokerEpoch":E}``. At the next start the broker reads it (its
BrokerRegistration's previous_broker_epoch; -1 when any log dir has none, or they differ)
and deletes it before it loads the logs, so a crash from then on counts as unclean. With
Eligible Leader Replicas the controller keeps a replica in the ELR only when that epoch is
the one it registered before (KIP-966).

(Each log keeps its own `.clean-shutdown` marker too, see partition_log.py: that one
decides whether the log needs recovery; this one speaks for the broker.)"""
from __future__ import annotations

import json
import posixpath

from .fs import FileSystem, read_whole, write_atomic

FILE = ".kafka_cleanshutdown"
VERSION = 0


def encode(broker_epoch: int) -> bytes:
    return json.dumps({"version": VERSION, "brokerEpoch": broker_epoch}, separators=(",", ":")).encode()


def decode(data: bytes) -> int | None:
    """The broker epoch in the file's content; None when it cannot be read (as Kafka, any
    version is accepted and unknown fields are ignored)."""
    try:
        content = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None
    if not isinstance(content, dict):
        return None
    epoch = content.get("brokerEpoch")
    if not isinstance(epoch, int) or isinstance(epoch, bool):
        return None
    return epoch


def read(fs: FileSystem, log_dir: str) -> int | None:
    """The epoch recorded in ``log_dir``; None without a readable file."""
    path = posixpath.join(log_dir, FILE)
    if not fs.exists(path):
        return None
    try:
        return decode(read_whole(fs, path))
    except OSError:
        return None


def write(fs: FileSystem, log_dir: str, broker_epoch: int) -> None:
    """Record a clean shutdown in ``broker_epoch`` (durably: a crash leaves no file or the whole file)."""
    write_atomic(fs, posixpath.join(log_dir, FILE), encode(broker_epoch))


def delete(fs: FileSystem, log_dir: str) -> None:
    path = posixpath.join(log_dir, FILE)
    if fs.exists(path):
        fs.remove(path)
        fs.fsync_dir(log_dir)


def previous_broker_epoch(epochs: list[int | None]) -> int:
    """The epoch a broker registers as its previous one, from every log dir's file: -1 when
    one has none or they disagree (Kafka's readBrokerEpochFromCleanShutdownFiles)."""
    if not epochs or any(e is None for e in epochs) or len(set(epochs)) != 1:
        return -1
    return epochs[0]
