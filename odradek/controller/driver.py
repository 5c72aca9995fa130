"""The metadata driver: what takes a decision's records, writes them as one batch and
says where they went (Commit). Two kinds, one interface: the single voter below, and
the Raft quorum's active controller (broker/controller_server.py)."""

from __future__ import annotations

from typing import Callable, Protocol

from odradek.raft.codec import Prepared

from .metadata_log import MetadataLog
from .result import Commit


class MetadataDriver(Protocol):
    def propose(self, records: list, now_ms: int, prepared: Prepared | None = None) -> Commit:
        """``prepared``: the records' batch made already (records.encoded_steps), else made here."""


class LocalDriver:
    """The single voter of `odradek serve`: the batch is appended, fsynced and committed
    (the Raft core of one voter), then applied, before propose returns.

    Inside a deferring() scope (the broker's large admin writes, a step at a time) a batch is
    only written: its fsync (the scope's last PendingSync, callable from any thread) is left to
    the caller, who then calls settle() to commit and apply it. Nothing is applied before its
    fsync returned; any other write, and the next deferred one, settles the pending one first."""

    def __init__(self, log: MetadataLog, apply: Callable[[int, list], None]):
        self._log = log
        self._apply = apply
        self._pending: tuple | None = None  # (first offset, records, PendingSync) written, not applied
        self._scope: list | None = None  # the PendingSyncs of the deferring scope in progress

    def propose(self, records: list, now_ms: int, prepared: Prepared | None = None) -> Commit:
        self._settle_pending(raise_for=self._scope)
        if self._scope is not None:
            last = self._log.begin_append(records, now_ms, prepared)
            sync = self._log.pending_sync
            self._pending = (last - len(records) + 1, records, sync)
            self._scope.append(sync)
            return Commit(last, applied=False)
        last = self._log.append(records, now_ms, prepared)
        self._apply(last - len(records) + 1, records)
        return Commit(last, applied=True)

    def deferring(self) -> "Deferring":
        return Deferring(self)

    def settle_any(self) -> None:
        """Settle the pending batch, whoever wrote it (before a decision reads the image)."""
        self._settle_pending(raise_for=self._scope)

    def settle(self, syncs: list) -> None:
        """Commit and apply the pending batch (waiting for its fsync if no other thread ran it);
        raises the OSError of any of ``syncs`` (a scope's) whose write failed: none of that
        batch is then on disk or applied."""
        if self._pending is not None and self._pending[2] in syncs:
            self._settle_pending(raise_for=None)  # (another write may have settled it already)
        for s in syncs:
            if s.error is not None:
                raise s.error

    def _settle_pending(self, raise_for: list | None) -> None:
        p, self._pending = self._pending, None
        if p is None:
            return
        first, records, sync = p
        try:
            self._log.end_append()
        except OSError:
            if raise_for is not None and sync in raise_for:
                raise  # the same scope's earlier write: its caller hears it now
            return  # kept in sync.error for the scope that wrote it
        self._apply(first, records)


class Deferring:
    """The scope of LocalDriver.deferring() (without a driver: a scope that defers nothing);
    ``syncs``: the fsyncs its writes left pending, the last one the one to run."""

    def __init__(self, driver: LocalDriver | None = None):
        self._driver = driver
        self.syncs: list = []

    @property
    def pending_sync(self):
        """The fsync to run (callable once, from any thread) before settle(), or None."""
        return self.syncs[-1] if self.syncs else None

    def __enter__(self) -> "Deferring":
        if self._driver is not None:
            self._driver._scope = self.syncs
        return self

    def __exit__(self, *exc) -> None:
        if self._driver is not None:
            self._driver._scope = None
