"""A share coordinator's StateLog in memory (coordinator/share_coordinator.py): every append kept, in order."""
from __future__ import annotations


class MemoryStateLog:
    def __init__(self):
        self.records = []

    def append(self, partition, records, now_ms):
        self.records += records
        return len(self.records) - 1

    def has_partition(self, partition):
        return True

    def start_offset(self, partition):
        return 0

    def end_offset(self, partition):
        return len(self.records)
