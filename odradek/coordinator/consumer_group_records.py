"""ConsumerGroup* records of __consumer_offsets (KIP-848 groups), framed exactly as Kafka frames them.

key   = int16 record type + key struct v0; value = int16 version (0) + flexible value struct v0;
value None is a tombstone. Types: 3 group metadata (epoch), 4 partition metadata (deprecated, only
read), 5 member metadata, 6 target assignment metadata, 7 target assignment of a member, 8 current
member assignment, 16 resolved regular expression.
"""

from __future__ import annotations


from odradek.wire.messages.consumer_group_current_member_assignment_key import (
    ConsumerGroupCurrentMemberAssignmentKey,
)
from odradek.wire.messages.consumer_group_current_member_assignment_value import (
    ConsumerGroupCurrentMemberAssignmentValue,
)
from odradek.wire.messages.consumer_group_current_member_assignment_value import (
    TopicPartitions as CurrentTopicPartitions,
)
from odradek.wire.messages.consumer_group_member_metadata_key import ConsumerGroupMemberMetadataKey
from odradek.wire.messages.consumer_group_member_metadata_value import (
    ClassicMemberMetadata,
    ClassicProtocol,
    ConsumerGroupMemberMetadataValue,
)
from odradek.wire.messages.consumer_group_metadata_key import ConsumerGroupMetadataKey
from odradek.wire.messages.consumer_group_metadata_value import ConsumerGroupMetadataValue
from odradek.wire.messages.consumer_group_partition_metadata_key import ConsumerGroupPartitionMetadataKey
from odradek.wire.messages.consumer_group_regular_expression_key import ConsumerGroupRegularExpressionKey
from odradek.wire.messages.consumer_group_regular_expression_value import ConsumerGroupRegularExpressionValue
from odradek.wire.messages.consumer_group_target_assignment_member_key import (
    ConsumerGroupTargetAssignmentMemberKey,
)
from odradek.wire.messages.consumer_group_target_assignment_member_value import (
    ConsumerGroupTargetAssignmentMemberValue,
)
from odradek.wire.messages.consumer_group_target_assignment_member_value import (
    TopicPartition as TargetTopicPartition,
)
from odradek.wire.messages.consumer_group_target_assignment_metadata_key import (
    ConsumerGroupTargetAssignmentMetadataKey,
)
from odradek.wire.messages.consumer_group_target_assignment_metadata_value import (
    ConsumerGroupTargetAssignmentMetadataValue,
)

from .record_family import RecordFamily

GROUP_METADATA = 3
PARTITION_METADATA = 4
MEMBER_METADATA = 5
TARGET_METADATA = 6
TARGET_MEMBER = 7
CURRENT_MEMBER = 8
REGULAR_EXPRESSION = 16
TYPES = {GROUP_METADATA, PARTITION_METADATA, MEMBER_METADATA, TARGET_METADATA, TARGET_MEMBER,
         CURRENT_MEMBER, REGULAR_EXPRESSION}

_KEYS = {
    GROUP_METADATA: ConsumerGroupMetadataKey,
    PARTITION_METADATA: ConsumerGroupPartitionMetadataKey,
    MEMBER_METADATA: ConsumerGroupMemberMetadataKey,
    TARGET_METADATA: ConsumerGroupTargetAssignmentMetadataKey,
    TARGET_MEMBER: ConsumerGroupTargetAssignmentMemberKey,
    CURRENT_MEMBER: ConsumerGroupCurrentMemberAssignmentKey,
    REGULAR_EXPRESSION: ConsumerGroupRegularExpressionKey,
}
_VALUES = {
    GROUP_METADATA: ConsumerGroupMetadataValue,
    MEMBER_METADATA: ConsumerGroupMemberMetadataValue,
    TARGET_METADATA: ConsumerGroupTargetAssignmentMetadataValue,
    TARGET_MEMBER: ConsumerGroupTargetAssignmentMemberValue,
    CURRENT_MEMBER: ConsumerGroupCurrentMemberAssignmentValue,
    REGULAR_EXPRESSION: ConsumerGroupRegularExpressionValue,
}


_FAMILY = RecordFamily(_KEYS, _VALUES)
record_type = _FAMILY.record_type
decode = _FAMILY.decode
_record = _FAMILY.record


# ---------------------------------------------------------------- builders


def group_metadata(group_id: str, epoch: int | None, metadata_hash: int = 0):
    value = None if epoch is None else ConsumerGroupMetadataValue(epoch=epoch, metadata_hash=metadata_hash)
    return _record(GROUP_METADATA, value, group_id=group_id)


def member_metadata(group_id: str, m) -> tuple:
    """m: a ConsumerMember, or a member id for the tombstone."""
    if isinstance(m, str):
        return _record(MEMBER_METADATA, None, group_id=group_id, member_id=m)
    return _record(MEMBER_METADATA, ConsumerGroupMemberMetadataValue(
        instance_id=m.instance_id, rack_id=m.rack_id, client_id=m.client_id, client_host=m.client_host,
        subscribed_topic_names=sorted(m.subscribed_topic_names),
        subscribed_topic_regex=m.subscribed_topic_regex or "",  # (Kafka's member: "" without one)
        rebalance_timeout_ms=m.rebalance_timeout_ms, server_assignor=m.server_assignor,
        classic_member_metadata=None if m.classic is None else ClassicMemberMetadata(
            session_timeout_ms=m.classic.session_timeout_ms,
            supported_protocols=[ClassicProtocol(name=n, metadata=md) for n, md in m.classic.protocols])),
        group_id=group_id, member_id=m.member_id)


def partition_metadata_tombstone(group_id: str):
    """The (deprecated) subscription metadata record's tombstone, which Kafka writes when a group goes."""
    return _record(PARTITION_METADATA, None, group_id=group_id)


def target_metadata(group_id: str, epoch: int | None, timestamp_ms: int = 0):
    value = None if epoch is None else ConsumerGroupTargetAssignmentMetadataValue(
        assignment_epoch=epoch, assignment_timestamp=timestamp_ms)
    return _record(TARGET_METADATA, value, group_id=group_id)


def target_member(group_id: str, member_id: str, assignment: dict | None):
    """assignment: {topic_id: set(partitions)}."""
    value = None if assignment is None else ConsumerGroupTargetAssignmentMemberValue(topic_partitions=[
        TargetTopicPartition(topic_id=tid, partitions=sorted(ps)) for tid, ps in sorted(assignment.items()) if ps])
    return _record(TARGET_MEMBER, value, group_id=group_id, member_id=member_id)


def _epochs_list(d: dict) -> list:
    """{topic_id: {partition: assignment epoch}} -> [TopicPartitions] with assignment_epochs."""
    out = []
    for tid, parts in sorted(d.items()):
        if not parts:
            continue
        ps = sorted(parts)
        out.append(CurrentTopicPartitions(topic_id=tid, partitions=ps, assignment_epochs=[parts[p] for p in ps]))
    return out


def current_member(group_id: str, m) -> tuple:
    """m: a ConsumerMember, or a member id for the tombstone."""
    if isinstance(m, str):
        return _record(CURRENT_MEMBER, None, group_id=group_id, member_id=m)
    return _record(CURRENT_MEMBER, ConsumerGroupCurrentMemberAssignmentValue(
        member_epoch=m.member_epoch, previous_member_epoch=m.previous_member_epoch, state=m.state,
        assigned_partitions=_epochs_list(m.assigned), partitions_pending_revocation=_epochs_list(m.pending_revocation)),
        group_id=group_id, member_id=m.member_id)


def regular_expression(group_id: str, regex: str, topics: list | None, version: int = 0, timestamp_ms: int = 0):
    value = None if topics is None else ConsumerGroupRegularExpressionValue(topics=sorted(topics), version=version,
                                                                            timestamp=timestamp_ms)
    return _record(REGULAR_EXPRESSION, value, group_id=group_id, regular_expression=regex)


def epochs_from(tps: list, default_epoch: int) -> dict:
    """[TopicPartitions] (current assignment value) -> {topic_id: {partition: assignment epoch}}."""
    out: dict = {}
    for t in tps or []:
        eps = list(t.assignment_epochs or [])
        d = out.setdefault(bytes(t.topic_id), {})
        for i, p in enumerate(t.partitions):
            d[p] = eps[i] if i < len(eps) else default_epoch
    return out
