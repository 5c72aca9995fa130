"""Committed offsets, one store for every group type (Kafka's OffsetMetadataManager in spirit).

Each group (classic, consumer, streams) holds its offsets as {(topic, partition): OffsetAndMetadata};
what differs by type is only who may commit (the group's ``validate_commit``), which topics it
still reads (``subscribed_topics``: OffsetDelete refuses those, retention keeps them) and when an
offset's age counts from (``offset_base_time``). The records are OffsetCommit records in
__consumer_offsets (group_records.py); the caller appends them, then applies.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Generator

from odradek.wire.records import KeyedRecords

from odradek.wire.errors import ErrorCode

from . import group_records as rec
from .group_records import OffsetAndMetadata

E = ErrorCode


@dataclass(slots=True)
class Staged:
    """A commit's offsets made ready before its atomic step (issue 27: staged a slice at a time):
    ``errors`` {tp: error} of those refused (OFFSET_METADATA_TOO_LARGE), ``staged`` {tp:
    OffsetAndMetadata} of the others and ``records`` their records in the same order (KeyedRecords:
    their batch's records section encoded too, at the staging's time)."""
    errors: dict
    staged: dict
    records: list

    def without(self, refused) -> tuple[dict, list]:
        """(staged, records) of the partitions not in ``refused`` (a collection of tps): all of them as
        staged (the records' section kept) when ``refused`` is empty."""
        if not refused:
            return self.staged, self.records
        return ({tp: om for tp, om in self.staged.items() if tp not in refused},
                [r for tp, r in zip(self.staged, self.records) if tp not in refused])


def stage_steps(group_id: str, offsets: dict, now_ms: int, topic_ids: dict | None, max_metadata_bytes: int,
                expire_timestamp_ms: int = -1, due: Callable[[], bool] = lambda: False, encode: bool = False
                ) -> Generator[None, None, Staged]:
    """offsets {(topic, partition): (offset, leader_epoch, metadata)} -> their Staged, as a generator that
    yields whenever ``due()`` (after each offset; ~5-10 us each: the OffsetAndMetadata, its two
    records encoded), for a large commit made ready in steps before its atomic one; ``encode``:
    their batch's records section too (KeyedRecords: the batch is framed at once, written alone)."""
    errors, staged = {}, {}
    records: list = KeyedRecords(now_ms) if encode else []
    part: list = []
    for tp, value in offsets.items():
        if due():
            _add(records, part)
            part = []
            yield
        _stage_one(group_id, tp, value, now_ms, topic_ids, max_metadata_bytes, expire_timestamp_ms, errors,
                   staged, part)
    _add(records, part)
    return Staged(errors, staged, records)


def _stage_one(group_id: str, tp: tuple, value: tuple, now_ms: int, topic_ids: dict | None, max_metadata_bytes: int,
               expire_timestamp_ms: int, errors: dict, staged: dict, records: list) -> None:
    """One offset of a commit: its error, or its OffsetAndMetadata and records."""
    offset, leader_epoch, metadata = value
    if metadata is not None and len(metadata.encode()) > max_metadata_bytes:
        errors[tp] = E.OFFSET_METADATA_TOO_LARGE
        return
    om = OffsetAndMetadata(offset, leader_epoch if leader_epoch is not None else -1, metadata or "",
                           now_ms, expire_timestamp_ms, rec.topic_id_of(topic_ids, tp[0]))
    staged[tp] = om
    records.append((rec.offset_commit_key(group_id, tp[0], tp[1]), rec.offset_commit_value(om)))


def _add(records: list, part: list) -> None:
    if isinstance(records, KeyedRecords):
        records.add(part)
    else:
        records.extend(part)


def stage(group_id: str, offsets: dict, now_ms: int, topic_ids: dict | None, max_metadata_bytes: int,
          expire_timestamp_ms: int = -1) -> Staged:
    """stage_steps in one piece (a small commit: no generator)."""
    errors: dict = {}
    staged: dict = {}
    records: list = []
    for tp, value in offsets.items():
        _stage_one(group_id, tp, value, now_ms, topic_ids, max_metadata_bytes, expire_timestamp_ms, errors,
                   staged, records)
    return Staged(errors, staged, records)


def expire_timestamp(now_ms: int, retention_time_ms: int | None) -> int:
    """OffsetCommit v2-v4's retention_time_ms -> the offsets' expire timestamp (-1: none)."""
    return now_ms + retention_time_ms if retention_time_ms is not None and retention_time_ms >= 0 else -1


def fetch(offsets: dict, partitions: list | None, topic_ids: dict | None) -> dict:
    """partitions None: every offset, sorted; else {tp: OffsetAndMetadata | None} (group_records.lookup_offsets)."""
    if partitions is None:
        return dict(sorted(offsets.items()))
    return rec.lookup_offsets(offsets, partitions, topic_ids)


def offset_keys_steps(group_id: str, partitions, due: Callable[[], bool]) -> Generator[None, None, dict]:
    """{tp: its OffsetCommit record's key} of ``partitions``, as a generator that yields whenever ``due()``
    (after each key, ~3-5 us): an OffsetDelete's tombstone keys made before its atomic step."""
    keys = {}
    for tp in partitions:
        if due():
            yield
        keys[tp] = rec.offset_commit_key(group_id, tp[0], tp[1])
    return keys


def delete_unsubscribed(group_id: str, offsets: dict, subscribed: set, partitions: list,
                        keys: dict | None = None) -> tuple[dict, list]:
    """OffsetDelete: tombstones for the committed offsets of partitions whose topic the group is not
    subscribed to (GROUP_SUBSCRIBED_TO_TOPIC for the others) -> ({tp: error}, records); ``keys``:
    {tp: record key} made beforehand (offset_keys_steps; those missing are made here)."""
    result, records = {}, []
    for tp in partitions:
        if tp[0] in subscribed:
            result[tp] = E.GROUP_SUBSCRIBED_TO_TOPIC
            continue
        result[tp] = E.NONE
        if tp in offsets:
            key = keys.get(tp) if keys is not None else None
            records.append((key if key is not None else rec.offset_commit_key(group_id, tp[0], tp[1]), None))
    return result, records


def expired(offsets: dict, subscribed: set, base_time: Callable[[OffsetAndMetadata], int], now_ms: int,
            retention_ms: int) -> list:
    """offsets.retention.minutes: the partitions whose offset is due (those of subscribed topics never are)."""
    gone = []
    for tp, om in offsets.items():
        if tp[0] in subscribed:
            continue
        if om.expire_timestamp_ms >= 0:
            due = now_ms >= om.expire_timestamp_ms
        else:
            due = now_ms - base_time(om) >= retention_ms
        if due:
            gone.append(tp)
    return gone


def tombstones(group_id: str, partitions) -> list:
    return [(rec.offset_commit_key(group_id, t, p), None) for (t, p) in partitions]
