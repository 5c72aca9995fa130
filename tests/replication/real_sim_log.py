"""The replication simulation over real logs: SimLog's interface on an odradek PartitionLog in
an in-memory FaultyFileSystem. Each simulated batch is a real record batch (its payload the
record's value); a leader's produce goes through PartitionLog.append(leader_epoch=E), a
follower's through append_as_follower, the epochs are the log's own leader-epoch cache,
and a crash is the file system's restart in torn mode (fsynced bytes plus a random part
of the rest) followed by a reopen, which recovers the log and its leader-epoch checkpoint.

`batches` mirrors the log for the simulation's reads; `check()` compares it with what the
log holds, and the simulation compares replicas through it."""

from __future__ import annotations

import random

from odradek.log import FaultyFileSystem, LogConfig, PartitionLog
from odradek.log.leader_epoch_cache import LeaderEpochCache
from odradek.wire.records import build_batch, iter_batches

from repl_sim import T0, Batch

DIR = "/data/t-0"
CFG = LogConfig(segment_bytes=700, index_interval_bytes=100)


def encode(batch: Batch) -> bytes:
    return build_batch([(None, batch.payload.encode(), (), T0)], base_offset=batch.base_offset,
                       partition_leader_epoch=batch.leader_epoch)


class RealSimLog:
    def __init__(self, seed: int):
        self.fs = FaultyFileSystem(seed)
        self.fs.makedirs("/data")
        self.plog = PartitionLog(self.fs, DIR, CFG, now_ms=T0)
        self.batches: list[Batch] = []
        self.verified = 0
        self.crashes = 0

    # LogView
    @property
    def log_start_offset(self) -> int:
        return self.plog.log_start_offset

    @property
    def log_end_offset(self) -> int:
        return self.plog.log_end_offset

    @property
    def epochs(self) -> LeaderEpochCache:
        return self.plog.epochs

    # what the simulation does to a log
    def append(self, batch: Batch) -> None:
        info = self.plog.append_as_follower(encode(batch), T0)
        assert info[0] == batch.base_offset
        self.batches.append(batch)

    def leader_append(self, batch: Batch) -> None:
        data = build_batch([(None, batch.payload.encode(), (), T0)])
        info = self.plog.append(data, T0, leader_epoch=batch.leader_epoch)
        assert info[0] == batch.base_offset, (info, batch)
        self.batches.append(batch)

    def assign_epoch(self, epoch: int, start_offset: int) -> None:
        self.plog.assign_epoch(epoch, start_offset)

    def truncate_to(self, offset: int) -> None:
        self.plog.truncate_to(offset)
        del self.batches[self.plog.log_end_offset:]
        self.verified = min(self.verified, offset)

    def truncate_fully_and_start_at(self, offset: int) -> None:
        self.plog.truncate_fully_and_start_at(offset)
        self.batches.clear()
        self.verified = 0

    def flush(self) -> None:
        self.plog.flush()

    @property
    def flushed(self) -> int:
        return self.plog.recovery_point

    def crash(self, rng: random.Random) -> None:
        """A power loss: what was fsynced stays, a random part of the rest with it; the log
        is opened again (recovered) from what the disk kept."""
        flushed, before = self.plog.recovery_point, list(self.batches)
        self.fs = self.fs.restart("torn", seed=rng.randrange(1 << 30))
        self.plog = PartitionLog(self.fs, DIR, CFG, now_ms=T0)
        self.crashes += 1
        self.batches = self.read_back()
        assert self.batches == before[:len(self.batches)], "recovery invented or changed batches"
        assert len(self.batches) >= flushed, "recovery lost fsynced batches"
        self.verified = min(self.verified, len(self.batches))
        self.check()

    # checks
    def read_back(self) -> list[Batch]:
        if self.plog.log_end_offset == self.plog.log_start_offset:
            return []
        data = self.plog.read(self.plog.log_start_offset, 1 << 30).read_bytes()
        return [Batch(h.base_offset, h.partition_leader_epoch, recs[0].value.decode())
                for h, recs in iter_batches(data)]

    def check(self) -> None:
        """The log holds the mirror's batches, and its epoch cache is the one those batches
        make (an epoch may also start at the log end: a leader that wrote nothing yet)."""
        assert self.read_back() == self.batches
        want = LeaderEpochCache()
        for b in self.batches:
            want = want.assign(b.leader_epoch, b.base_offset)
        got = self.plog.epochs.truncate_from_end(self.plog.log_end_offset)
        assert got == want, (got, want)

    def log_bytes(self) -> bytes:
        segs = {p: bytes(i.data) for p, i in self.fs.files.items()
                if p.startswith(DIR + "/") and p.endswith(".log")}
        return b"".join(segs[p] for p in sorted(segs))
