"""The driver's disk for a Raft log, in Kafka's layout (not used by the pure core):

  <dir>/00000000000000000000.log                 record batches, as on the wire
  <dir>/quorum-state                             JSON, as Kafka's FileQuorumStateStore
  <dir>/<end offset:20>-<epoch:10>.checkpoint    the latest snapshot

`apply(ready)` makes a Ready durable (fsync) before the driver sends its messages.
A torn tail batch (crash mid-write) is cut off at load.
"""

from __future__ import annotations

import os

from odradek.wire.exceptions import WireError
from odradek.wire.records import LOG_OVERHEAD, read_batch_header

from . import codec
from .quorum_state import from_json, to_json
from .types import Snapshot, SnapshotId, StorageState

SEGMENT = "00000000000000000000.log"
QUORUM_STATE = "quorum-state"


def _fsync_write(path: str, data: bytes) -> None:
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


class FileStorage:
    def __init__(self, directory: str):
        self.dir = directory
        os.makedirs(directory, exist_ok=True)
        self.log_path = os.path.join(directory, SEGMENT)
        self._positions: list[tuple[int, int]] = []  # (base offset, file position) per batch

    def load(self) -> StorageState:
        qs = None
        qpath = os.path.join(self.dir, QUORUM_STATE)
        if os.path.exists(qpath):
            with open(qpath, "rb") as f:
                qs = from_json(f.read())
        snap = None
        cps = sorted(n for n in os.listdir(self.dir) if n.endswith(".checkpoint"))
        if cps:
            name = cps[-1]
            end, epoch = name[:-len(".checkpoint")].split("-")
            with open(os.path.join(self.dir, name), "rb") as f:
                snap = Snapshot(SnapshotId(int(end), int(epoch)), f.read())
        batches = []
        self._positions = []
        if os.path.exists(self.log_path):
            with open(self.log_path, "rb") as f:
                data = f.read()
            pos = 0
            while pos < len(data):
                try:
                    h = read_batch_header(data, pos)
                    size = h.batch_length + LOG_OVERHEAD
                    if pos + size > len(data):
                        break
                    (b,) = codec.decode_batches(data[pos:pos + size])
                except (WireError, ValueError):
                    break  # torn or corrupt tail: never acknowledged
                batches.append(b)
                self._positions.append((b.base_offset, pos))
                pos += size
            if pos < len(data):
                with open(self.log_path, "r+b") as f:
                    f.truncate(pos)
                    os.fsync(f.fileno())
        return StorageState(qs, snap, batches)

    def apply(self, ready) -> None:
        if ready.truncate_log_from is not None:
            keep = [(o, p) for o, p in self._positions if o < ready.truncate_log_from]
            cut = self._positions[len(keep)][1] if len(keep) < len(self._positions) else None
            if cut is not None:
                with open(self.log_path, "r+b") as f:
                    f.truncate(cut)
            self._positions = keep
        if ready.entries:
            with open(self.log_path, "ab") as f:
                pos = f.tell()
                for b in ready.entries:
                    self._positions.append((b.base_offset, pos))
                    f.write(b.raw)
                    pos += len(b.raw)
                f.flush()
                os.fsync(f.fileno())
        if ready.quorum_state is not None:
            _fsync_write(os.path.join(self.dir, QUORUM_STATE), to_json(ready.quorum_state))
        if ready.snapshot is not None:
            sid = ready.snapshot.id
            name = f"{sid.end_offset:020d}-{sid.epoch:010d}.checkpoint"
            _fsync_write(os.path.join(self.dir, name), ready.snapshot.data)
            for n in os.listdir(self.dir):
                if n.endswith(".checkpoint") and n < name:
                    os.remove(os.path.join(self.dir, n))
        if ready.delete_log_before is not None:
            self._rewrite_from(ready.delete_log_before)

    def _rewrite_from(self, offset: int) -> None:
        """Drop batches wholly below offset (one segment, so rewrite the file)."""
        if not os.path.exists(self.log_path):
            return
        with open(self.log_path, "rb") as f:
            data = f.read()
        start = len(data)
        for i, (o, p) in enumerate(self._positions):
            nxt = self._positions[i + 1][0] if i + 1 < len(self._positions) else None
            if nxt is None or nxt > offset:
                start = p
                break
        _fsync_write(self.log_path, data[start:])
        self._positions = [(o, p - start) for o, p in self._positions if p >= start]
