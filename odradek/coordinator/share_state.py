"""The share coordinator (KIP-932): its keys, and the records that persist share groups.

Each share-partition's state belongs to one partition of __share_group_state, found by
FindCoordinator v6 with key type 2 and the key "groupId:topicId:partition" (topicId in Kafka's
base64 form). Partition of a key = Utils.abs(key.hashCode()) % partitions over the canonical key,
as Kafka's ShareCoordinatorService.partitionFor.

Records (value None: a tombstone, the state or group was deleted):
- a share group's epoch: ShareGroupMetadata key (type 11) and value (version 0) in the group's
  __consumer_offsets partition, framed exactly as Kafka's group coordinator writes them;
- a share-partition's state in its __share_group_state partition: key = the canonical coordinator
  key in UTF-8; value = int16 version + the WriteShareGroupStateRequest body the share coordinator
  is asked to write for it (SPSO, state epoch, state batches), at that version. Every record is a
  whole snapshot (the last one of a key wins). Kafka frames these as ShareSnapshot/ShareUpdate
  records, whose specs are not among the message specs the generator reads, so Kafka's
  kafka-dump-log share-state decoder does not read odradek's (nor odradek Kafka's).
"""

from __future__ import annotations

import base64
import binascii
import re
import struct

from odradek.wire.messages.share_group_metadata_key import ShareGroupMetadataKey
from odradek.wire.messages.share_group_metadata_value import ShareGroupMetadataValue
from odradek.wire.messages.share_group_state_partition_metadata_key import ShareGroupStatePartitionMetadataKey
from odradek.wire.messages.share_group_state_partition_metadata_value import (
    ShareGroupStatePartitionMetadataValue,
    TopicPartitionsInfo,
)
from odradek.wire.messages.write_share_group_state_request import (
    PartitionData,
    StateBatch,
    WriteShareGroupStateRequest,
    WriteStateData,
)

from .group_records import java_string_hash, kafka_abs

SHARE_STATE_TOPIC = "__share_group_state"
DEFAULT_SHARE_STATE_PARTITIONS = 50  # share.coordinator.state.topic.num.partitions

_UUID = re.compile(r"[A-Za-z0-9_-]{22}(==)?")
_INT = re.compile(r"[+-]?[0-9]+")


def uuid_str(topic_id: bytes) -> str:
    """Kafka's Uuid.toString(): URL-safe base64 without padding."""
    return base64.urlsafe_b64encode(bytes(topic_id)).decode().rstrip("=")


def parse_share_key(key: str) -> tuple[str, bytes, int]:
    """"groupId:topicId:partition" -> (group id, topic id, partition); ValueError when Kafka 4.3
    refuses it (INVALID_REQUEST). The group id is what precedes the last two fields (it may hold
    ':'), and must not be blank; the topic id a base64 Uuid; the partition a Java int."""
    parts = key.rsplit(":", 2)
    if len(parts) != 3:
        raise ValueError(f"Invalid key format: expected - groupId:topicId:partition, found - {key}")
    group, topic, partition = parts
    group = group.strip(" \t\n\r\x0b\x0c\x00")  # Java's String.trim()
    if not group:
        raise ValueError("GroupId must be alphanumeric string")
    if not _UUID.fullmatch(topic):
        raise ValueError(f"Invalid topic ID: {topic}")
    try:
        topic_id = base64.urlsafe_b64decode(topic[:22] + "==")
    except (binascii.Error, ValueError):
        raise ValueError(f"Invalid topic ID: {topic}") from None
    if not _INT.fullmatch(partition) or not -(1 << 31) <= int(partition) < (1 << 31):
        raise ValueError(f"Invalid partition: {partition}")
    return group, topic_id, int(partition)


def coordinator_key(group_id: str, topic_id: bytes, partition: int) -> str:
    return f"{group_id}:{uuid_str(topic_id)}:{partition}"


def partition_for(group_id: str, topic_id: bytes, partition: int,
                  partitions: int = DEFAULT_SHARE_STATE_PARTITIONS) -> int:
    return kafka_abs(java_string_hash(coordinator_key(group_id, topic_id, partition))) % partitions


# ---------------------------------------------------------------- records

_I16 = struct.Struct(">h")
SHARE_GROUP_METADATA = 11  # the record type of ShareGroupMetadataKey in __consumer_offsets
SHARE_GROUP_STATE_PARTITION_METADATA = 15  # ShareGroupStatePartitionMetadataKey's
STATE_VALUE_VERSION = 1    # the WriteShareGroupStateRequest version a state value is encoded at (0: before
#                            DeliveryCompleteCount; still read)


def group_metadata_key(group_id: str) -> bytes:
    return _I16.pack(SHARE_GROUP_METADATA) + ShareGroupMetadataKey(group_id=group_id).encode(0)


def group_metadata_value(epoch: int, metadata_hash: int) -> bytes:
    return _I16.pack(0) + ShareGroupMetadataValue(epoch=epoch, metadata_hash=metadata_hash).encode(0)


def decode_group_metadata(key: bytes, value: bytes | None):
    """A __consumer_offsets record -> (group_id, epoch | None, metadata_hash) if it is a share
    group's metadata (epoch None: a tombstone), else None."""
    if key is None or len(key) < 2 or _I16.unpack_from(key, 0)[0] != SHARE_GROUP_METADATA:
        return None
    k = ShareGroupMetadataKey.decode(bytes(key), 0, 2)
    if value is None:
        return k.group_id, None, 0
    v = ShareGroupMetadataValue.decode(bytes(value), 0, 2)
    return k.group_id, v.epoch, v.metadata_hash


def initialized_key(group_id: str) -> bytes:
    return _I16.pack(SHARE_GROUP_STATE_PARTITION_METADATA) + \
        ShareGroupStatePartitionMetadataKey(group_id=group_id).encode(0)


def initialized_value(initialized: dict, initializing: dict | None = None) -> bytes:
    """{topic_id: (name, partitions)} initialized and initializing -> a
    ShareGroupStatePartitionMetadataValue (version 0; nothing deleting: odradek deletes at once)."""
    def infos(topics: dict) -> list:
        return [TopicPartitionsInfo(topic_id=bytes(t), topic_name=name, partitions=list(ps))
                for t, (name, ps) in sorted(topics.items())]

    return _I16.pack(0) + ShareGroupStatePartitionMetadataValue(
        initializing_topics=infos(initializing or {}), deleting_topics=[],
        initialized_topics=infos(initialized)).encode(0)


def decode_initialized(key: bytes | None, value: bytes | None):
    """A __consumer_offsets record -> (group_id, {topic_id: (name, partitions)} initialized, the same
    initializing) if it is a share group's ShareGroupStatePartitionMetadata (a tombstone: {}, {}),
    else None."""
    if key is None or len(key) < 2 or _I16.unpack_from(key, 0)[0] != SHARE_GROUP_STATE_PARTITION_METADATA:
        return None
    k = ShareGroupStatePartitionMetadataKey.decode(bytes(key), 0, 2)
    if value is None:
        return k.group_id, {}, {}
    v = ShareGroupStatePartitionMetadataValue.decode(bytes(value), 0, 2)
    return k.group_id, {bytes(t.topic_id): (t.topic_name, list(t.partitions)) for t in v.initialized_topics}, \
        {bytes(t.topic_id): (t.topic_name, list(t.partitions)) for t in v.initializing_topics}


def partition_state_key(group_id: str, topic_id: bytes, partition: int) -> bytes:
    return coordinator_key(group_id, topic_id, partition).encode()


def partition_state_value(group_id: str, topic_id: bytes, partition: int, start_offset: int, batches,
                          state_epoch: int = 0, leader_epoch: int = 0, delivery_complete_count: int = -1) -> bytes:
    body = WriteShareGroupStateRequest(group_id=group_id, topics=[WriteStateData(topic_id=bytes(topic_id), partitions=[
        PartitionData(partition=partition, state_epoch=state_epoch, leader_epoch=leader_epoch,
                      start_offset=start_offset, delivery_complete_count=delivery_complete_count, state_batches=[
                          StateBatch(first_offset=f, last_offset=last, delivery_state=st, delivery_count=n)
                          for f, last, st, n in batches])])])
    return _I16.pack(STATE_VALUE_VERSION) + body.encode(STATE_VALUE_VERSION)


def decode_partition_state(key: bytes, value: bytes | None):
    """A __share_group_state record -> ((group_id, topic_id, partition), start_offset | None, batches,
    state epoch, leader epoch, delivery complete count) (start_offset None: a tombstone); None for a
    record this version does not know."""
    try:
        group, topic, partition = bytes(key).decode().rsplit(":", 2)  # the group id exactly, untrimmed
        topic_id, partition = base64.urlsafe_b64decode(topic + "=="), int(partition)
    except (ValueError, UnicodeDecodeError, TypeError, binascii.Error):
        return None
    if len(topic_id) != 16:
        return None
    if value is None:
        return (group, topic_id, partition), None, [], 0, 0, -1
    version = _I16.unpack_from(value, 0)[0]
    if version not in (0, STATE_VALUE_VERSION):
        return None
    body = WriteShareGroupStateRequest.decode(bytes(value), version, 2)
    p = body.topics[0].partitions[0]
    batches = [(b.first_offset, b.last_offset, b.delivery_state, b.delivery_count) for b in p.state_batches]
    return (group, topic_id, partition), p.start_offset, batches, p.state_epoch, p.leader_epoch, \
        p.delivery_complete_count
