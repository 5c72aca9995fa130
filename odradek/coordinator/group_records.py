"""Records of the internal topic __consumer_offsets, framed exactly as Kafka frames them.

key   = int16 record type (the key's "apiKey": 0/1 offset commit, 2 group metadata) + key struct v0
value = int16 value version + value struct; None is a tombstone.
Partition of a group = Utils.abs(groupId.hashCode()) % partitions, as in Kafka.
"""

from __future__ import annotations

import functools
import struct
import sys
from dataclasses import dataclass

from odradek.wire.messages.group_metadata_key import GroupMetadataKey
from odradek.wire.messages.group_metadata_value import GroupMetadataValue, MemberMetadata
from odradek.wire.messages.offset_commit_key import OffsetCommitKey
from odradek.wire.messages.offset_commit_value import OffsetCommitValue
from odradek.wire.primitives import ZERO_UUID

OFFSETS_TOPIC = "__consumer_offsets"
DEFAULT_OFFSETS_PARTITIONS = 50

LEGACY_OFFSET_COMMIT_KEY = 0
OFFSET_COMMIT_KEY = 1
GROUP_METADATA_KEY = 2

# Versions Kafka 4.3 writes: offset commit value v4, which carries the topic id as a tagged
# field (v1 when an expire timestamp is set), group metadata value v3.
OFFSET_COMMIT_VALUE_VERSION = 4
GROUP_METADATA_VALUE_VERSION = 3

_I16 = struct.Struct(">h")


# UTF-16 code units in the machine's byte order (memoryview.cast("H") reads them so)
_UTF16_NATIVE = "utf-16-le" if sys.byteorder == "little" else "utf-16-be"
# a string this long or shorter is hashed without a mask at each unit (the unmasked sum stays under
# ~320 bits); a longer one (a hostile id, up to 32,767 units) is masked at each unit
_UNMASKED_UNITS = 64


def java_string_hash(s: str) -> int:
    """java.lang.String.hashCode(): s[0]*31^(n-1) + ... over UTF-16 code units, int32 wrap-around.
    (Asked of each group of a DescribeGroups of 5,000 groups, past partition_for's cache: an ASCII id's
    bytes are its code units, summed unmasked: ~7x faster than a masked loop over UTF-16 pairs.)"""
    units = s.encode() if s.isascii() else memoryview(s.encode(_UTF16_NATIVE)).cast("H")
    h = 0
    if len(units) <= _UNMASKED_UNITS:
        for c in units:
            h = h * 31 + c
        h &= 0xFFFFFFFF
    else:
        for c in units:
            h = (h * 31 + c) & 0xFFFFFFFF
    return h - (1 << 32) if h & 0x80000000 else h


def kafka_abs(n: int) -> int:
    """org.apache.kafka.common.utils.Utils.abs: Integer.MIN_VALUE maps to 0."""
    return 0 if n == -(1 << 31) else abs(n)


@functools.lru_cache(maxsize=4096)
def partition_for(group_id: str, partitions: int = DEFAULT_OFFSETS_PARTITIONS) -> int:
    """The __consumer_offsets partition of a group (asked at every write of a heartbeat or commit:
    the groups in use are remembered)."""
    return kafka_abs(java_string_hash(group_id)) % partitions


@dataclass
class OffsetAndMetadata:
    """A committed offset of one partition, as the offsets topic stores it."""
    offset: int
    leader_epoch: int = -1
    metadata: str = ""
    commit_timestamp_ms: int = 0
    expire_timestamp_ms: int = -1  # only from OffsetCommit v2-v4 retention_time_ms
    topic_id: bytes = ZERO_UUID  # the topic's id when committed (zero: unknown, a record older than v4)


def topic_id_of(topic_ids: dict | None, topic: str) -> bytes:
    return topic_ids.get(topic, ZERO_UUID) if topic_ids else ZERO_UUID


def is_stale(om: OffsetAndMetadata, current_topic_id: bytes) -> bool:
    """An offset committed for a topic that is gone: stored with an id the topic's name no longer has
    (zero ``current_topic_id``: no topic of that name). Kafka deletes such offsets when the topic is
    deleted (OffsetMetadataManager.onTopicsDeleted) and, between deletion and re-creation, does not
    show them for the new id (isOffsetInvalid); odradek keeps them and reads them as none."""
    return om.topic_id != ZERO_UUID and om.topic_id != current_topic_id


def lookup_offsets(stored: dict, partitions: list, topic_ids: dict | None) -> dict:
    """{tp: OffsetAndMetadata | None} for an OffsetFetch of ``partitions``; topic_ids: {topic: its
    current id} (a topic left out is not checked): a stale offset (is_stale) reads as none."""
    return {tp: lookup_offset(stored, tp, topic_ids) for tp in partitions}


def lookup_offset(stored: dict, tp: tuple[str, int], topic_ids: dict | None) -> OffsetAndMetadata | None:
    """lookup_offsets of one partition."""
    om = stored.get(tp)
    if om is not None and topic_ids and tp[0] in topic_ids and is_stale(om, topic_ids[tp[0]]):
        return None
    return om


def offset_commit_key(group: str, topic: str, partition: int) -> bytes:
    return _I16.pack(OFFSET_COMMIT_KEY) + OffsetCommitKey(group=group, topic=topic, partition=partition).encode(0)


def offset_commit_value(om: OffsetAndMetadata) -> bytes:
    version = 1 if om.expire_timestamp_ms >= 0 else OFFSET_COMMIT_VALUE_VERSION
    v = OffsetCommitValue(
        offset=om.offset,
        leader_epoch=om.leader_epoch,
        metadata=om.metadata or "",
        commit_timestamp=om.commit_timestamp_ms,
        expire_timestamp=om.expire_timestamp_ms,
        topic_id=om.topic_id,
    )
    return _I16.pack(version) + v.encode(version)


def group_metadata_key(group: str) -> bytes:
    return _I16.pack(GROUP_METADATA_KEY) + GroupMetadataKey(group=group).encode(0)


def group_metadata_value(
    protocol_type: str,
    generation: int,
    protocol: str | None,
    leader: str | None,
    current_state_timestamp_ms: int,
    members: list[MemberMetadata],
) -> bytes:
    v = GroupMetadataValue(
        protocol_type=protocol_type or "",
        generation=generation,
        protocol=protocol,
        leader=leader,
        current_state_timestamp=current_state_timestamp_ms,
        members=members,
    )
    return _I16.pack(GROUP_METADATA_VALUE_VERSION) + v.encode(GROUP_METADATA_VALUE_VERSION)


@dataclass
class DecodedKey:
    """The key of a __consumer_offsets record: an offset, a group, or another kind."""
    kind: str  # "offset" | "group" | "other"
    group: str
    topic: str = ""
    partition: int = -1


def decode_key(key: bytes) -> DecodedKey:
    (version,) = _I16.unpack_from(key, 0)
    if version in (LEGACY_OFFSET_COMMIT_KEY, OFFSET_COMMIT_KEY):
        k = OffsetCommitKey.decode(key, 0, 2)
        return DecodedKey("offset", k.group, k.topic, k.partition)
    if version == GROUP_METADATA_KEY:
        k = GroupMetadataKey.decode(key, 0, 2)
        return DecodedKey("group", k.group)
    return DecodedKey("other", "")


def decode_offset_value(value: bytes) -> OffsetAndMetadata:
    (version,) = _I16.unpack_from(value, 0)
    v = OffsetCommitValue.decode(value, version, 2)
    return OffsetAndMetadata(
        offset=v.offset,
        leader_epoch=v.leader_epoch if version >= 3 else -1,
        metadata=v.metadata or "",
        commit_timestamp_ms=v.commit_timestamp,
        expire_timestamp_ms=v.expire_timestamp if version == 1 else -1,
        topic_id=bytes(v.topic_id) if version >= 4 else ZERO_UUID,
    )


def decode_group_value(value: bytes) -> GroupMetadataValue:
    (version,) = _I16.unpack_from(value, 0)
    return GroupMetadataValue.decode(value, version, 2)
