"""Fakes for transaction-coordinator tests: __transaction_state in memory and a marker writer."""
from __future__ import annotations

from tests.coordinator.committed_log import CommittedAtOnce


class MemLog(CommittedAtOnce):
    """__transaction_state in memory: partition -> [(offset, key, value)]."""

    def __init__(self, held=None):
        self.parts: dict[int, list] = {}
        self.held = held  # partitions this node holds (None: all)
        self.appends: list[int] = []  # the records of each append (one batch of the real log)

    def has_partition(self, partition):
        return self.held is None or partition in self.held

    def append(self, partition, recs, now_ms):
        self.appends.append(len(recs))
        lst = self.parts.setdefault(partition, [])
        for k, v in recs:
            lst.append((len(lst), k, v))
        return len(lst) - 1

    def read(self, partition):
        return list(self.parts.get(partition, []))


class FailingLog(MemLog):
    """MemLog whose appends fail while ``failing`` is set (a full disk, a lost leadership), with the
    log start and end offsets share_persistence asks of its logs."""

    failing = False

    def append(self, partition, recs, now_ms):
        if self.failing:
            raise OSError("append failed")
        return super().append(partition, recs, now_ms)

    def start_offset(self, partition):
        return 0

    def end_offset(self, partition):
        return len(self.parts.get(partition, []))


class Markers:
    """write_marker that records (topic, partition, pid, epoch, commit); can crash on demand."""

    def __init__(self):
        self.written = []
        self.fail_after = None

    def __call__(self, topic, p, pid, epoch, commit, coord_epoch, now_ms):
        if self.fail_after is not None and len(self.written) >= self.fail_after:
            raise RuntimeError("crash while writing markers")
        self.written.append((topic, p, pid, epoch, commit))
        return 0
