"""The metadata driver: what takes a decision's records, writes them as one batch and
says where they went (Commit). Two kinds, one interface: the single voter below, and
the Raft quorum's active controller (broker/controller_server.py)."""

from __future__ import annotations

from typing import Callable, Protocol

from .metadata_log import MetadataLog
from .result import Commit


class MetadataDriver(Protocol):
    def propose(self, records: list, now_ms: int) -> Commit: ...


class LocalDriver:
    """The single voter of `odradek serve`: the batch is appended, fsynced and committed
    (the Raft core of one voter), then applied, before propose returns."""

    def __init__(self, log: MetadataLog, apply: Callable[[int, list], None]):
        self._log = log
        self._apply = apply

    def propose(self, records: list, now_ms: int) -> Commit:
        last = self._log.append(records, now_ms)
        self._apply(last - len(records) + 1, records)
        return Commit(last, applied=True)
