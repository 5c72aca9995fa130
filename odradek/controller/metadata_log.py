"""The metadata log: KRaft records in Kafka record batches, one file, fsynced per append.

Layout matches Kafka's ``__cluster_metadata-0/00000000000000000000.log`` (magic-2
batches whose record values are ApiMessageAndVersion frames), so Kafka's dump-log
and odradek's read it. Each controller decision is one batch, so it is applied
atomically: a torn tail batch (crash mid-write) is cut off at open.
This stands in until the metadata partition moves onto PartitionLog / Raft (issue 9).
"""

from __future__ import annotations

import os
from typing import Iterator

from odradek.wire.exceptions import WireError
from odradek.wire.records import LOG_OVERHEAD, build_batch, decode_records, read_batch_header

from .records import decode_record, encode_record

DIR_NAME = "__cluster_metadata-0"
SEGMENT_NAME = "00000000000000000000.log"
LEADER_EPOCH = 1


class MetadataLog:
    def __init__(self, data_dir: str):
        self.dir = os.path.join(data_dir, DIR_NAME)
        os.makedirs(self.dir, exist_ok=True)
        self.path = os.path.join(self.dir, SEGMENT_NAME)
        self.next_offset = 0
        self._batches: list[tuple[int, list[bytes]]] = []  # read at open, handed out by replay()
        self._recover()
        self._f = open(self.path, "ab")

    def _recover(self) -> None:
        if not os.path.exists(self.path):
            return
        with open(self.path, "rb") as f:
            data = f.read()
        pos = 0
        while pos < len(data):
            try:
                h = read_batch_header(data, pos)
                header, records = decode_records(data, pos)
            except WireError:
                break  # torn or corrupt tail: everything from here was never acknowledged
            self._batches.append((header.base_offset, [r.value for r in records]))
            self.next_offset = header.base_offset + header.last_offset_delta + 1
            pos += h.batch_length + LOG_OVERHEAD
        if pos < len(data):
            with open(self.path, "r+b") as f:
                f.truncate(pos)
                f.flush()
                os.fsync(f.fileno())

    def replay(self) -> Iterator[tuple[int, object]]:
        """(offset, record) for every record on disk, in order."""
        for base, values in self._batches:
            for i, v in enumerate(values):
                record, _ = decode_record(v)
                yield base + i, record
        self._batches = []

    def append(self, records: list, now_ms: int) -> int:
        """Append records as one batch, durably; returns the offset of the last one."""
        if not records:
            return self.next_offset - 1
        batch = build_batch(
            [(None, encode_record(r), (), now_ms) for r in records],
            base_offset=self.next_offset,
            partition_leader_epoch=LEADER_EPOCH,
        )
        self._f.write(batch)
        self._f.flush()
        os.fsync(self._f.fileno())
        self.next_offset += len(records)
        return self.next_offset - 1

    def close(self) -> None:
        if not self._f.closed:
            self._f.close()
