"""Offsets committed inside a transaction (TxnOffsetCommit): written to
__consumer_offsets as a transactional batch of the producer, held back as pending,
and handed to the group coordinator only when the commit marker lands there.

Load: the group coordinator ignores transactional batches; ``load_partition``
replays them with their markers (a later plain commit of the same partition wins,
as its record is newer).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Generator

from odradek.log.errors import InvalidProducerEpochError
from odradek.wire import records as wire_records
from odradek.wire.errors import ErrorCode

from . import group_records as grec
from . import offset_store

if TYPE_CHECKING:
    from .group_coordinator import GroupCoordinator

E = ErrorCode


class TxnOffsetStore:
    def __init__(self, groups: GroupCoordinator, append_batch: Callable[[int, bytes, int], None] | None = None):
        """groups: the GroupCoordinator (its partitions of __consumer_offsets, its
        offset.metadata.max.bytes); append_batch(partition, batch bytes, now_ms) raises a log error
        (InvalidProducerEpochError for a fenced producer) on failure."""
        self.groups = groups
        self.append_batch = append_batch
        self.num_partitions = groups.num_partitions
        # producer id -> group id -> {(topic, partition): OffsetAndMetadata}
        self.pending: dict[int, dict[str, dict]] = {}

    def partition_for(self, group_id: str) -> int:
        return grec.partition_for(group_id, self.num_partitions)

    def stage(self, group_id: str, offsets: dict, now_ms: int, topic_ids: dict | None = None,
              due: Callable[[], bool] = lambda: False) -> Generator[None, None, offset_store.Staged]:
        """A large commit's ``offsets`` made ready for ``commit`` (their OffsetAndMetadata and records),
        yielding whenever ``due()``: done in the commit's steps before its atomic one (issue 27)."""
        return offset_store.stage_steps(group_id, offsets, now_ms, topic_ids,
                                        self.groups.config.offset_metadata_max_bytes, due=due, encode=True)

    def commit(self, group_id: str, pid: int, epoch: int, offsets: dict, now_ms: int,
               topic_ids: dict | None = None, staged: offset_store.Staged | None = None) -> dict:
        """offsets {(topic, partition): (offset, leader_epoch, metadata)}, topic_ids {topic: id} stored with
        them (so that they go with the topic if it is deleted: group_records.is_stale) -> {tp: error};
        ``staged``: ``offsets`` made ready beforehand (``stage``)."""
        if staged is None:
            staged = offset_store.stage(group_id, offsets, now_ms, topic_ids,
                                        self.groups.config.offset_metadata_max_bytes)
        result = dict(staged.errors)
        ready, records = staged.staged, staged.records
        if records and self.append_batch is not None:
            if isinstance(records, wire_records.KeyedRecords):  # (its section encoded in the staging)
                batch = records.batch(producer_id=pid, producer_epoch=epoch, is_transactional=True)
            else:
                batch = wire_records.build_batch([(k, v, (), now_ms) for k, v in records], base_timestamp=now_ms,
                                                 producer_id=pid, producer_epoch=epoch, is_transactional=True)
            try:
                self.append_batch(self.partition_for(group_id), batch, now_ms)
            except Exception as e:
                code = E.INVALID_PRODUCER_EPOCH if isinstance(e, InvalidProducerEpochError) else E.UNKNOWN_SERVER_ERROR
                for tp in ready:
                    result[tp] = code
                return result
        self.pending.setdefault(pid, {}).setdefault(group_id, {}).update(ready)
        for tp in ready:
            result[tp] = E.NONE
        return result

    def complete(self, pid: int, partition: int, commit: bool, now_ms: int) -> None:
        """The marker of producer pid reached __consumer_offsets partition `partition`."""
        groups = self.pending.get(pid)
        if not groups:
            return
        for gid in [g for g in groups if self.partition_for(g) == partition]:
            offsets = groups.pop(gid)
            if commit:
                self.groups.apply_committed_offsets(gid, offsets, now_ms)
        if not groups:
            self.pending.pop(pid, None)

    def partition_error(self, partition: int) -> ErrorCode:
        """NONE when the group coordinator here has __consumer_offsets ``partition`` loaded; else
        NOT_COORDINATOR or COORDINATOR_LOAD_IN_PROGRESS (a marker must not complete offsets a load
        has not brought in yet)."""
        return self.groups.runtime.partition_error(partition)

    def unload_partition(self, partition: int) -> None:
        """The groups of ``partition`` are coordinated elsewhere now: their pending commits go (the
        new coordinator replays them from the log)."""
        for pid in list(self.pending):
            groups = self.pending[pid]
            for gid in [g for g in groups if self.partition_for(g) == partition]:
                del groups[gid]
            if not groups:
                del self.pending[pid]

    def has_pending(self, group_id: str, tp) -> bool:
        return any(tp in groups.get(group_id, ()) for groups in self.pending.values())

    def pending_partitions(self, group_id: str) -> set:
        out = set()
        for groups in self.pending.values():
            out.update(groups.get(group_id, ()))
        return out

    # ------------------------------------------------------------------ load

    def load_partition(self, partition: int, batches, now_ms: int) -> None:
        """Replay one __consumer_offsets partition: batches = iterable of (header, records)."""
        # per producer: group -> {tp: (om, record offset)}
        open_: dict[int, dict[str, dict]] = {}
        last_plain: dict[tuple, int] = {}  # (group, topic, partition) -> offset of the newest plain commit
        for h, recs in batches:
            if h.is_control:
                if h.producer_id < 0 or not recs:
                    continue
                rtype, _ = wire_records.parse_control_record(recs[0])
                if rtype not in (wire_records.ControlRecordType.COMMIT, wire_records.ControlRecordType.ABORT):
                    continue
                groups = open_.pop(h.producer_id, None)
                if groups and rtype == wire_records.ControlRecordType.COMMIT:
                    for gid, per in groups.items():
                        fresh = {tp: om for tp, (om, off) in per.items()
                                 if last_plain.get((gid, tp[0], tp[1]), -1) < off}
                        if fresh:
                            self.groups.apply_committed_offsets(gid, fresh, now_ms)
                continue
            for r in recs:
                if r.key is None:
                    continue
                try:
                    k = grec.decode_key(r.key)
                except Exception:
                    continue
                if k.kind != "offset":
                    continue
                off = h.base_offset + r.offset_delta
                if not h.is_transactional:
                    last_plain[(k.group, k.topic, k.partition)] = off
                    continue
                if r.value is None:
                    continue
                per = open_.setdefault(h.producer_id, {}).setdefault(k.group, {})
                per[(k.topic, k.partition)] = (grec.decode_offset_value(r.value), off)
        for pid, groups in open_.items():  # still open: pending until their marker comes
            for gid, per in groups.items():
                self.pending.setdefault(pid, {}).setdefault(gid, {}).update({tp: om for tp, (om, _) in per.items()})
