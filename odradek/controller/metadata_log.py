"""The metadata log: KRaft records in Kafka record batches on the Raft core.

A thin record-level face over ``odradek.raft.local_log.LocalRaftLog`` (one voter:
an append returns once fsynced and committed). The layout is Kafka's
``__cluster_metadata-0/00000000000000000000.log`` plus ``quorum-state``; the
leader's LeaderChange control record sits at offset 0 as in real Kafka, so Kafka's
dump-log and odradek's read it. Each controller decision is one batch, applied
atomically: a torn tail batch (crash mid-write) is cut off at open.
Multi-voter quorums use odradek.broker.raft_driver instead.
"""

from __future__ import annotations

from typing import Iterator

from odradek.log.fs import FileSystem
from odradek.raft.codec import Prepared
from odradek.raft.file_storage import SEGMENT
from odradek.raft.local_log import DIR_NAME, LocalRaftLog

from .records import decode_record, encode_record

SEGMENT_NAME = SEGMENT
__all__ = ["DIR_NAME", "SEGMENT_NAME", "MetadataLog"]


class MetadataLog:
    def __init__(self, data_dir: str, node_id: int = 1, fs: FileSystem | None = None):
        self._raft = LocalRaftLog(data_dir, node_id, fs)

    @property
    def raft_node(self):
        """The Raft core under the log (DescribeQuorum)."""
        return self._raft.node

    @property
    def next_offset(self) -> int:
        """0 until the first metadata record (a fresh log needs bootstrapping)."""
        return self._raft.next_offset

    def replay(self) -> Iterator[tuple[int, object]]:
        """(offset, record) for every committed metadata record on disk, in order."""
        for offset, value in self._raft.replay():
            record, _ = decode_record(value)
            yield offset, record

    def append(self, records: list, now_ms: int, prepared: Prepared | None = None) -> int:
        """Append records as one batch, committed; returns the offset of the last one.
        ``prepared``: the records' batch made already (encoded_steps). A failed write raises
        OSError and leaves none of them on disk."""
        if not records:
            return self.next_offset - 1
        return self._raft.append(prepared if prepared is not None else [encode_record(r) for r in records], now_ms)

    def begin_append(self, records: list, now_ms: int, prepared: Prepared | None = None) -> int:
        """append in parts (LocalRaftLog.begin_append): written, durable once pending_sync ran,
        committed by end_append."""
        return self._raft.begin_append(prepared if prepared is not None else [encode_record(r) for r in records],
                                       now_ms)

    @property
    def pending_sync(self):
        return self._raft.pending_sync

    def end_append(self) -> None:
        self._raft.end_append()

    def close(self) -> None:
        self._raft.close()
