"""Transactions of one partition as the log sees them: which producers have an open
transaction (and from which offset), hence the last stable offset; abort markers
become aborted-transaction index entries.

Persisted beside the producer snapshot as `txn-state.checkpoint` (the open
transactions at a given log offset), so recovery replays only the tail; without a
matching checkpoint the log is scanned from its start.
"""
from __future__ import annotations

import posixpath

from odradek.wire import records

from .fs import FileSystem, read_whole
from .txn_index import AbortedTxn

CHECKPOINT_FILE = "txn-state.checkpoint"


def read_marker(buf, pos: int = 0) -> tuple[bool | None, int]:
    """(COMMIT -> True, ABORT -> False, other control records -> None; the coordinator epoch, -1
    for other control records)."""
    _, recs = records.decode_records(buf, pos, check_crc=False)
    if not recs:
        return None, -1
    rtype, epoch = records.parse_control_record(recs[0])
    if rtype == records.ControlRecordType.COMMIT:
        return True, epoch
    if rtype == records.ControlRecordType.ABORT:
        return False, epoch
    return None, -1


class PartitionTxnState:
    def __init__(self):
        self.ongoing: dict[int, int] = {}  # producer id -> first offset of its open transaction

    def first_unstable_offset(self) -> int | None:
        return min(self.ongoing.values()) if self.ongoing else None

    def last_stable_offset(self, high_watermark: int) -> int:
        first = self.first_unstable_offset()
        return high_watermark if first is None else min(first, high_watermark)

    def on_data(self, producer_id: int, base_offset: int) -> None:
        """A transactional data batch was appended at base_offset."""
        if producer_id not in self.ongoing:
            self.ongoing[producer_id] = base_offset

    def on_marker(self, producer_id: int, marker_offset: int, commit: bool) -> AbortedTxn | None:
        """A commit/abort marker at marker_offset; returns the index entry for an abort."""
        first = self.ongoing.pop(producer_id, None)
        if commit or first is None:
            return None
        # LSO as Kafka records it (ProducerStateManager.lastStableOffset(completedTxn)): the
        # first offset of another open transaction, else the one after the marker. It does
        # not depend on the high watermark, so a leader, its followers and a rebuild after a
        # restart write the same entry.
        return AbortedTxn(producer_id, first, marker_offset, self.last_stable_offset(marker_offset + 1))

    def truncate_to(self, offset: int) -> None:
        for pid in [p for p, f in self.ongoing.items() if f >= offset]:
            del self.ongoing[pid]

    # ------------------------------------------------------------ checkpoint

    def checkpoint_bytes(self, offset: int) -> bytes:
        lines = [f"0 {offset}"] + [f"{pid} {first}" for pid, first in sorted(self.ongoing.items())]
        return ("\n".join(lines) + "\n").encode()

    @classmethod
    def load_checkpoint(cls, fs: FileSystem, directory: str) -> tuple[int, "PartitionTxnState"] | None:
        path = posixpath.join(directory, CHECKPOINT_FILE)
        if not fs.exists(path):
            return None
        try:
            lines = read_whole(fs, path).decode().split("\n")
            version, offset = lines[0].split()
            if version != "0":
                return None
            st = cls()
            for ln in lines[1:]:
                if ln.strip():
                    pid, first = ln.split()
                    st.ongoing[int(pid)] = int(first)
            return int(offset), st
        except (ValueError, IndexError, UnicodeDecodeError):
            return None
