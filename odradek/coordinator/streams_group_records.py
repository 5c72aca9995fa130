"""StreamsGroup* records of __consumer_offsets (KIP-1071 streams groups), framed as Kafka frames them.

key = int16 record type + key struct v0; value = int16 version (0) + flexible value struct v0; value
None is a tombstone. Types: 17 group metadata (epoch, metadata hash, validated topology epoch),
19 member metadata, 20 target assignment metadata, 21 target assignment of a member, 22 current
member assignment, 23 topology.

Tasks are {subtopology id: set(partitions)}; a member's tasks are a Tasks (active, standby, warm-up).
"""

from __future__ import annotations


from odradek.wire.messages import streams_group_current_member_assignment_value as cur_v
from odradek.wire.messages import streams_group_member_metadata_value as mem_v
from odradek.wire.messages import streams_group_metadata_value as meta_v
from odradek.wire.messages import streams_group_target_assignment_member_value as tgt_v
from odradek.wire.messages import streams_group_topology_value as topo_v
from odradek.wire.messages.streams_group_current_member_assignment_key import (
    StreamsGroupCurrentMemberAssignmentKey,
)
from odradek.wire.messages.streams_group_member_metadata_key import StreamsGroupMemberMetadataKey
from odradek.wire.messages.streams_group_metadata_key import StreamsGroupMetadataKey
from odradek.wire.messages.streams_group_target_assignment_member_key import StreamsGroupTargetAssignmentMemberKey
from odradek.wire.messages.streams_group_target_assignment_metadata_key import (
    StreamsGroupTargetAssignmentMetadataKey,
)
from odradek.wire.messages.streams_group_target_assignment_metadata_value import (
    StreamsGroupTargetAssignmentMetadataValue,
)
from odradek.wire.messages.streams_group_topology_key import StreamsGroupTopologyKey

from .record_family import RecordFamily

GROUP_METADATA = 17
MEMBER_METADATA = 19
TARGET_METADATA = 20
TARGET_MEMBER = 21
CURRENT_MEMBER = 22
TOPOLOGY = 23
TYPES = {GROUP_METADATA, MEMBER_METADATA, TARGET_METADATA, TARGET_MEMBER, CURRENT_MEMBER, TOPOLOGY}

_KEYS = {
    GROUP_METADATA: StreamsGroupMetadataKey,
    MEMBER_METADATA: StreamsGroupMemberMetadataKey,
    TARGET_METADATA: StreamsGroupTargetAssignmentMetadataKey,
    TARGET_MEMBER: StreamsGroupTargetAssignmentMemberKey,
    CURRENT_MEMBER: StreamsGroupCurrentMemberAssignmentKey,
    TOPOLOGY: StreamsGroupTopologyKey,
}
_VALUES = {
    GROUP_METADATA: meta_v.StreamsGroupMetadataValue,
    MEMBER_METADATA: mem_v.StreamsGroupMemberMetadataValue,
    TARGET_METADATA: StreamsGroupTargetAssignmentMetadataValue,
    TARGET_MEMBER: tgt_v.StreamsGroupTargetAssignmentMemberValue,
    CURRENT_MEMBER: cur_v.StreamsGroupCurrentMemberAssignmentValue,
    TOPOLOGY: topo_v.StreamsGroupTopologyValue,
}


_FAMILY = RecordFamily(_KEYS, _VALUES)
record_type = _FAMILY.record_type
decode = _FAMILY.decode
_record = _FAMILY.record


def tasks_list(tasks: dict, cls) -> list:
    """{subtopology: set(partitions)} -> [TaskIds] sorted by subtopology id, partitions sorted."""
    return [cls(subtopology_id=s, partitions=sorted(ps)) for s, ps in sorted(tasks.items()) if ps]


def tasks_from(items) -> dict:
    return {t.subtopology_id: set(t.partitions) for t in items or [] if t.partitions}


# ---------------------------------------------------------------- builders


def group_metadata(group_id: str, epoch: int | None, metadata_hash: int = 0, validated_topology_epoch: int = -1,
                   assignment_configs: dict | None = None):
    if epoch is None:
        return _record(GROUP_METADATA, None, group_id=group_id)
    configs = [meta_v.LastAssignmentConfig(key=k, value=v) for k, v in sorted((assignment_configs or {}).items())]
    return _record(GROUP_METADATA, meta_v.StreamsGroupMetadataValue(
        epoch=epoch, metadata_hash=metadata_hash, validated_topology_epoch=validated_topology_epoch,
        last_assignment_configs=configs), group_id=group_id)


def member_metadata(group_id: str, m) -> tuple:
    """m: a StreamsMember, or a member id for the tombstone."""
    if isinstance(m, str):
        return _record(MEMBER_METADATA, None, group_id=group_id, member_id=m)
    endpoint = None if m.user_endpoint is None else mem_v.Endpoint(host=m.user_endpoint[0], port=m.user_endpoint[1])
    return _record(MEMBER_METADATA, mem_v.StreamsGroupMemberMetadataValue(
        instance_id=m.instance_id, rack_id=m.rack_id, client_id=m.client_id, client_host=m.client_host,
        rebalance_timeout_ms=m.rebalance_timeout_ms, topology_epoch=m.topology_epoch, process_id=m.process_id,
        user_endpoint=endpoint,
        client_tags=[mem_v.KeyValue(key=k, value=v) for k, v in sorted(m.client_tags.items())]),
        group_id=group_id, member_id=m.member_id)


def target_metadata(group_id: str, epoch: int | None, timestamp_ms: int = 0):
    value = None if epoch is None else StreamsGroupTargetAssignmentMetadataValue(
        assignment_epoch=epoch, assignment_timestamp=timestamp_ms)
    return _record(TARGET_METADATA, value, group_id=group_id)


def target_member(group_id: str, member_id: str, tasks):
    """tasks: a Tasks, or None for the tombstone."""
    value = None if tasks is None else tgt_v.StreamsGroupTargetAssignmentMemberValue(
        active_tasks=tasks_list(tasks.active, tgt_v.TaskIds), standby_tasks=tasks_list(tasks.standby, tgt_v.TaskIds),
        warmup_tasks=tasks_list(tasks.warmup, tgt_v.TaskIds))
    return _record(TARGET_MEMBER, value, group_id=group_id, member_id=member_id)


def current_member(group_id: str, m) -> tuple:
    """m: a StreamsMember, or a member id for the tombstone."""
    if isinstance(m, str):
        return _record(CURRENT_MEMBER, None, group_id=group_id, member_id=m)
    a, r = m.assigned, m.pending_revocation
    T = cur_v.TaskIds
    return _record(CURRENT_MEMBER, cur_v.StreamsGroupCurrentMemberAssignmentValue(
        member_epoch=m.member_epoch, previous_member_epoch=m.previous_member_epoch, state=m.state,
        active_tasks=_with_epochs(a.active, m), standby_tasks=tasks_list(a.standby, T),
        warmup_tasks=tasks_list(a.warmup, T), active_tasks_pending_revocation=_with_epochs(r.active, m),
        standby_tasks_pending_revocation=tasks_list(r.standby, T),
        warmup_tasks_pending_revocation=tasks_list(r.warmup, T)), group_id=group_id, member_id=m.member_id)


def _with_epochs(tasks: dict, m) -> list:
    """Active tasks with the epoch each was assigned at (AssignmentEpochs, tagged)."""
    out = []
    for s, ps in sorted(tasks.items()):
        if ps:
            parts = sorted(ps)
            out.append(cur_v.TaskIds(subtopology_id=s, partitions=parts,
                                     assignment_epochs=[m.active_epochs.get((s, p), m.member_epoch) for p in parts]))
    return out


def active_epochs_from(items, default_epoch: int) -> dict:
    """[TaskIds] of a current assignment value -> {(subtopology, partition): assignment epoch}."""
    out = {}
    for t in items or []:
        eps = list(t.assignment_epochs or [])
        if len(eps) != len(t.partitions):
            eps = [default_epoch] * len(t.partitions)
        for p, e in zip(t.partitions, eps):
            out[(t.subtopology_id, p)] = e
    return out


def topology(group_id: str, value) -> tuple:
    """value: a StreamsGroupTopologyValue (streams_topology.to_record), or None for the tombstone."""
    return _record(TOPOLOGY, value, group_id=group_id)
