"""The share coordinator's keys (KIP-932): each share-partition's state belongs to one partition of
__share_group_state, found by FindCoordinator v6 with key type 2 and the key
"groupId:topicId:partition" (topicId in Kafka's base64 form).

Partition of a key = Utils.abs(key.hashCode()) % partitions over the canonical key, as Kafka's
ShareCoordinatorService.partitionFor.
"""

from __future__ import annotations

import base64
import binascii
import re

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
