"""Committed offsets, one store for every group type (Kafka's OffsetMetadataManager in spirit).

Each group (classic, consumer, streams) holds its offsets as {(topic, partition): OffsetAndMetadata};
what differs by type is only who may commit (the group's ``validate_commit``), which topics it
still reads (``subscribed_topics``: OffsetDelete refuses those, retention keeps them) and when an
offset's age counts from (``offset_base_time``). The records are OffsetCommit records in
__consumer_offsets (group_records.py); the caller appends them, then applies.
"""

from __future__ import annotations

from typing import Callable

from odradek.wire.errors import ErrorCode

from . import group_records as rec
from .group_records import OffsetAndMetadata

E = ErrorCode


def stage(group_id: str, offsets: dict, now_ms: int, topic_ids: dict | None, max_metadata_bytes: int,
          expire_timestamp_ms: int = -1) -> tuple[dict, dict, list]:
    """offsets {(topic, partition): (offset, leader_epoch, metadata)} -> (errors {tp: error} of those
    refused, staged {tp: OffsetAndMetadata}, their records)."""
    errors, staged, records = {}, {}, []
    for tp, (offset, leader_epoch, metadata) in offsets.items():
        if metadata is not None and len(metadata.encode()) > max_metadata_bytes:
            errors[tp] = E.OFFSET_METADATA_TOO_LARGE
            continue
        om = OffsetAndMetadata(offset, leader_epoch if leader_epoch is not None else -1, metadata or "",
                               now_ms, expire_timestamp_ms, rec.topic_id_of(topic_ids, tp[0]))
        staged[tp] = om
        records.append((rec.offset_commit_key(group_id, tp[0], tp[1]), rec.offset_commit_value(om)))
    return errors, staged, records


def expire_timestamp(now_ms: int, retention_time_ms: int | None) -> int:
    """OffsetCommit v2-v4's retention_time_ms -> the offsets' expire timestamp (-1: none)."""
    return now_ms + retention_time_ms if retention_time_ms is not None and retention_time_ms >= 0 else -1


def fetch(offsets: dict, partitions: list | None, topic_ids: dict | None) -> dict:
    """partitions None: every offset, sorted; else {tp: OffsetAndMetadata | None} (group_records.lookup_offsets)."""
    if partitions is None:
        return dict(sorted(offsets.items()))
    return rec.lookup_offsets(offsets, partitions, topic_ids)


def delete_unsubscribed(group_id: str, offsets: dict, subscribed: set, partitions: list) -> tuple[dict, list]:
    """OffsetDelete: tombstones for the committed offsets of partitions whose topic the group is not
    subscribed to (GROUP_SUBSCRIBED_TO_TOPIC for the others) -> ({tp: error}, records)."""
    result, records = {}, []
    for tp in partitions:
        if tp[0] in subscribed:
            result[tp] = E.GROUP_SUBSCRIBED_TO_TOPIC
            continue
        result[tp] = E.NONE
        if tp in offsets:
            records.append((rec.offset_commit_key(group_id, tp[0], tp[1]), None))
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
