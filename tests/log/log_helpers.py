"""Shared helpers for the log tests: build batches, decode fetched slices."""
from __future__ import annotations

import threading

from odradek.log import FaultyFileSystem, SimulatedCrash
from odradek.log.fs import FaultyFile
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


class SteppedFS(FaultyFileSystem):
    """A FaultyFileSystem whose fsyncs (of a file or a directory), renames and removes are counted
    as steps: with ``crash_at`` N the N-th step (from 0) crashes instead (a kill -9 there: then
    ``restart``); with ``watch`` set to a log's lock, each step (and each read of a cleaner's
    ``.cleaned`` file) notes in ``under_lock`` whether another thread (the event loop) could have
    taken that lock then."""

    def __init__(self, seed: int = 0):
        super().__init__(seed)
        self.steps = 0
        self.crash_at: int | None = None
        self.watch = None
        self.under_lock: list[tuple[str, str]] = []  # (step, path) done while the lock was held
        self.lock_free: list[tuple[str, str]] = []

    def step(self, what: str, path: str) -> None:
        self._check()
        if self.crash_at is not None and self.steps >= self.crash_at:
            self.crashed = True
            raise SimulatedCrash(f"crashed at step {self.steps}: {what} {path}")
        self.steps += 1
        self.note(what, path)

    def note(self, what: str, path: str) -> None:
        lock = self.watch
        if lock is not None:
            taken: list[bool] = []

            def probe() -> None:
                taken.append(lock.acquire(blocking=False))
                if taken[0]:
                    lock.release()

            t = threading.Thread(target=probe)
            t.start()
            t.join()
            (self.lock_free if taken[0] else self.under_lock).append((what, path))

    def open(self, path: str) -> FaultyFile:
        f = super().open(path)
        return _SteppedFile(self, f.path, f.inode)

    def fsync_dir(self, path: str) -> None:
        self.step("fsync_dir", path)
        super().fsync_dir(path)

    def rename(self, src: str, dst: str) -> None:
        self.step("rename", src)
        super().rename(src, dst)

    def remove(self, path: str) -> None:
        self.step("remove", path)
        super().remove(path)


class _SteppedFile(FaultyFile):
    def read(self, position: int, length: int) -> bytes:
        if self.fs.watch is not None and self.path.endswith(".cleaned"):  # (a read is no crash point)
            self.fs.note("read", self.path)
        return super().read(position, length)

    def fsync(self) -> None:
        self.fs.step("fsync", self.path)
        super().fsync()


class EpochsGate(FaultyFileSystem):
    """Once ``armed``, the write of a leader-epoch-checkpoint temp file waits for ``gate`` (``entered``
    set first): the flusher's pass stopped in its leader epochs' write."""

    def __init__(self) -> None:
        super().__init__()
        self.gate, self.entered, self.armed = threading.Event(), threading.Event(), False

    def open(self, path, *a, **kw):
        if self.armed and "leader-epoch-checkpoint" in path and path.endswith(".tmp"):
            self.entered.set()
            assert self.gate.wait(30)
        return super().open(path, *a, **kw)
