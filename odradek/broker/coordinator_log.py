"""CoordinatorLog: the group and transaction coordinators' view of their internal
compacted topic: append key/value records, read them back at load time, and which
partitions this node holds (the keys it coordinates)."""

from __future__ import annotations

from odradek.wire import records as wire_records


class CoordinatorLog:
    def __init__(self, replicas, topic: str):
        self.replicas = replicas
        self.topic = topic

    def has_partition(self, partition: int) -> bool:
        """This node leads the partition (False while the topic does not exist yet)."""
        return self.replicas.get(self.topic, partition) is not None

    def append(self, partition: int, recs: list, now_ms: int) -> int:
        """Append (key, value|None) records as one batch; returns the last offset."""
        batch = wire_records.build_batch([(k, v, (), now_ms) for k, v in recs], base_timestamp=now_ms)
        info = self.replicas.append(self.topic, partition, batch, now_ms)
        return info.last_offset

    def read(self, partition: int):
        """Every (offset, key, value) from the log start, in order."""
        plog = self.replicas.get(self.topic, partition)
        if plog is None:
            return
        start = plog.log_start_offset
        for h, recs in self.read_batches(partition):
            if h.is_control or h.is_transactional:
                continue  # transactional offset commits: TxnOffsetStore.load_partition
            for r in recs:
                off = h.base_offset + r.offset_delta
                if off >= start:
                    yield off, r.key, r.value

    def read_batches(self, partition: int):
        """Every (header, records) from the log start, control batches included."""
        plog = self.replicas.get(self.topic, partition)
        if plog is None:
            return
        offset = plog.log_start_offset
        end = plog.log_end_offset
        while offset < end:
            sl = plog.read(offset, 1 << 20, upper_bound_offset=end)
            if not sl.slices:
                break
            last = offset - 1
            for h, recs in wire_records.iter_batches(sl.read_bytes()):
                last = h.last_offset
                if last >= offset:
                    yield h, recs
            if last < offset:
                break
            offset = last + 1

    def end_offset(self, partition: int) -> int:
        plog = self.replicas.get(self.topic, partition)
        return -1 if plog is None else plog.log_end_offset

    def start_offset(self, partition: int) -> int:
        plog = self.replicas.get(self.topic, partition)
        return -1 if plog is None else plog.log_start_offset
