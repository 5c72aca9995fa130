"""Property test: PartitionLog against an in-memory model under random appends,
reads, rolls, retention, DeleteRecords, truncation, clean and unclean reopen."""
from __future__ import annotations

import dataclasses
import os

from hypothesis import HealthCheck, settings, strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from odradek.log import FaultyFileSystem, LogConfig, PartitionLog
from odradek.log import errors
from odradek.wire.records import build_batch

from log_helpers import batches_of, read_all, records_of

DIR = "/data/t-0"


class LogModel(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        self.fs = FaultyFileSystem()
        self.fs.makedirs("/data")
        self.cfg = LogConfig(segment_bytes=1000, index_interval_bytes=150, segment_index_bytes=64)
        self.log = PartitionLog(self.fs, DIR, self.cfg, now_ms=0)
        self.now = 1000
        self.batches: list[tuple[int, int]] = []    # (base, last) of live batches
        self.values: dict[int, bytes] = {}
        # every batch and value not truncated away, also below the log start: a log start moved
        # in memory (DeleteRecords, Kafka's maybeIncrementLogStartOffset) and not yet checkpointed
        # goes back at a kill -9, and what lies between is read again
        self.kept_batches: list[tuple[int, int]] = []
        self.kept: dict[int, bytes] = {}
        self.start = 0
        self.end = 0
        self.hw = 0
        self.counter = 0

    # ---------------------------------------------------------------- rules

    @rule(n=st.integers(1, 5), size=st.integers(0, 120), dt=st.integers(0, 50))
    def append(self, n, size, dt):
        self.now += dt
        vals = []
        for _ in range(n):
            self.counter += 1
            vals.append(b"%d:" % self.counter + b"x" * size)
        info = self.log.append(build_batch([(None, v, (), self.now) for v in vals]), now_ms=self.now)
        assert info.base_offset == self.end and info.last_offset == self.end + n - 1
        self.batches.append((self.end, self.end + n - 1))
        self.kept_batches.append((self.end, self.end + n - 1))
        for i, v in enumerate(vals):
            self.values[self.end + i] = v
            self.kept[self.end + i] = v
        self.end += n

    @rule(data=st.data(), max_bytes=st.integers(1, 2000), upper=st.booleans(),
          one=st.booleans())
    def read(self, data, max_bytes, upper, one):
        off = data.draw(st.integers(self.start, self.end))
        ub = self.hw if upper else None
        fs = self.log.read(off, max_bytes, upper_bound_offset=ub, min_one_batch=one)
        limit = self.end if ub is None else ub
        raw = fs.read_bytes()
        hs = batches_of(raw)
        assert len(raw) == fs.total_bytes
        if hs:
            assert fs.next_offset == hs[-1].last_offset + 1
        if off >= limit:
            assert not hs
            return
        if not hs:
            assert not one or off >= limit
            return
        assert hs[0].base_offset <= off
        assert hs[0].last_offset >= off
        assert all(h.last_offset < limit for h in hs)
        if len(hs) > 1 or not one:
            assert fs.total_bytes <= max_bytes
        for o, _, v in records_of(raw):
            if o >= self.start:
                assert self.values[o] == v
        offs = [o for o, _, _ in records_of(raw)]
        assert offs == list(range(offs[0], offs[-1] + 1))

    @rule()
    def roll(self):
        self.log.roll(self.now)

    @rule(data=st.data())
    def advance_hw(self, data):
        # replication moves the high watermark at batch boundaries
        choices = sorted({self.hw, self.end} | {b[1] + 1 for b in self.batches if b[1] + 1 > self.hw})
        self.hw = data.draw(st.sampled_from(choices))
        self.log.high_watermark = self.hw

    @rule(retention_bytes=st.integers(0, 2000), retention_ms=st.integers(-1, 300))
    def retention(self, retention_bytes, retention_ms):
        self.log.config = dataclasses.replace(self.cfg, retention_bytes=retention_bytes,
                                              retention_ms=retention_ms)
        old = self.start
        self.log.apply_retention(self.now)
        self.log.config = self.cfg
        new = self.log.log_start_offset
        assert old <= new <= max(self.hw, old)
        self._set_start(new)

    @rule(data=st.data())
    def delete_records(self, data):
        off = data.draw(st.integers(self.start, self.hw))
        assert self.log.delete_records(off) == max(off, self.start)
        self._set_start(max(off, self.start))

    @precondition(lambda self: self.end > self.start)
    @rule(data=st.data())
    def truncate(self, data):
        off = data.draw(st.integers(self.start, self.end))
        self.log.truncate_to(off, self.now)
        # whole batches holding offsets >= off go
        while self.batches and self.batches[-1][1] >= off:
            self.batches.pop()
        new_end = self.batches[-1][1] + 1 if self.batches else self.start
        for o in range(new_end, self.end):
            self.values.pop(o, None)
        while self.kept_batches and self.kept_batches[-1][1] >= new_end:
            self.kept_batches.pop()
        self.kept = {o: v for o, v in self.kept.items() if o < new_end}
        if not self.batches and (self.kept_batches[-1][1] + 1 if self.kept_batches else None) != self.start:
            # (the batch holding the log start went: the log starts afresh there; a cut to a log
            # start at a batch boundary keeps the records below, read again if a kill -9 takes the
            # log start back, as on Kafka)
            self.kept_batches, self.kept = [], {}
        self.end = new_end
        assert self.log.log_end_offset == new_end
        self.hw = min(self.hw, self.end)

    @rule()
    def reopen_clean(self):
        self.log.close()
        self.log = PartitionLog(self.fs, DIR, self.cfg, now_ms=self.now)
        assert not self.log.recovered_unclean

    @rule()
    def reopen_after_kill(self):
        # kill -9: the page cache survives, nothing is lost, but recovery runs
        self.fs = self.fs.restart("kept")
        self.log = PartitionLog(self.fs, DIR, self.cfg, now_ms=self.now)
        # the log start moved in memory may go back (never forward), and the records between are
        # read again, as on Kafka (log.flush.start.offset.checkpoint.interval.ms)
        start = self.log.log_start_offset
        assert start <= self.start
        if start < self.start:
            self.start = start
            self.batches = [b for b in self.kept_batches if b[1] >= start]
            self.values = {o: v for o, v in self.kept.items() if o >= start}
        # the high watermark is checkpointed, not fsynced on every move (like Kafka)
        assert self.start <= self.log.high_watermark <= self.hw
        self.hw = self.log.high_watermark

    def _set_start(self, new):
        self.start = new
        self.batches = [b for b in self.batches if b[1] >= new]
        for o in [o for o in self.values if o < new]:
            del self.values[o]
        if self.end < new:
            self.end = new

    # ---------------------------------------------------------- invariants

    @invariant()
    def offsets_agree(self):
        assert self.log.log_start_offset == self.start
        assert self.log.log_end_offset == self.end
        assert self.log.high_watermark == self.hw

    @invariant()
    def content_agrees(self):
        got = read_all(self.log)
        assert [o for o, _, _ in got] == list(range(self.start, self.end))
        assert all(self.values[o] == v for o, _, v in got)

    def teardown(self):
        self.log.close()


LogModel.TestCase.settings = settings(max_examples=int(os.environ.get("LOG_MODEL_EXAMPLES", 150)), stateful_step_count=50, deadline=None,
                                      suppress_health_check=[HealthCheck.too_slow])
TestPartitionLogModel = LogModel.TestCase
