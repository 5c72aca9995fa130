"""Online migration between classic and consumer groups with members in them (KIP-848's upgrade and
downgrade, Kafka 4.3's ConsumerGroup.fromClassicGroup / ClassicGroup.fromConsumerGroup and the
checks around them in GroupMetadataManager), and the consumer embedded protocol's bytes they read
and write. Pure: groups in, groups and records out; the protocols (consumer_heartbeat.py,
classic_members.py) decide when, write the records and install the result.

Upgrade: a ConsumerGroupHeartbeat joining a non-empty classic group of the "consumer" protocol type
turns it into a consumer group (group.consumer.migration.policy upgrade or bidirectional): each
classic member becomes a member at the group's generation, Stable, owning and targeted what its last
SyncGroup gave it, and stays classic (classic_members.py serves its JoinGroup/SyncGroup/Heartbeat).
Downgrade: when the last member using the consumer protocol leaves or is fenced (policy downgrade or
bidirectional, the classic members no more than group.max.size), the group becomes a classic group at
the group epoch, Stable with each member's target assignment, and rebalances at once.
"""

from __future__ import annotations

import logging
import struct

from odradek.wire.errors import ErrorCode
from odradek.wire.messages.consumer_protocol_assignment import ConsumerProtocolAssignment
from odradek.wire.messages.consumer_protocol_assignment import TopicPartition as AssignedPartitions
from odradek.wire.messages.consumer_protocol_subscription import ConsumerProtocolSubscription

from . import consumer_group_records as crec
from .consumer_group_state import CLASSIC_PROTOCOL_TYPE, STABLE, ClassicMetadata, ConsumerGroup, ConsumerMember
from .errors import CoordinatorError
from .group_state import Group, GroupState, Member

E = ErrorCode
log = logging.getLogger(__name__)

# group.consumer.migration.policy -> (upgrade enabled, downgrade enabled); Kafka's parse: another value
# (not accepted by the config's validation anyway) is DISABLED
POLICIES = {"bidirectional": (True, True), "upgrade": (True, False), "downgrade": (False, True),
            "disabled": (False, False)}
_HIGHEST_VERSION = 3


def policy(name: str | None) -> tuple[bool, bool]:
    return POLICIES.get((name or "").lower(), (False, False))


# ---------------------------------------------------------------- the consumer embedded protocol


def protocol_version(data: bytes) -> int:
    """The version a member's subscription (or assignment) is written at (Kafka's deserializeVersion)."""
    if len(data) < 2:
        raise ValueError("no version")
    return struct.unpack_from(">h", data)[0]


def decode_subscription(data: bytes) -> ConsumerProtocolSubscription:
    """Kafka's deserializeConsumerProtocolSubscription: a version below 0 is malformed, one above
    the highest known is read as the highest. ValueError when malformed."""
    version = protocol_version(data)
    if version < 0:
        raise ValueError(f"Unsupported subscription version: {version}")
    try:
        return ConsumerProtocolSubscription.decode(bytes(data), min(version, _HIGHEST_VERSION), 2)
    except Exception as e:  # noqa: BLE001 - any decoding failure is Kafka's SchemaException
        raise ValueError(str(e)) from None


def decode_assignment(data: bytes) -> ConsumerProtocolAssignment:
    version = protocol_version(data)
    if version < 0:
        raise ValueError(f"Unsupported assignment version: {version}")
    try:
        return ConsumerProtocolAssignment.decode(bytes(data), min(version, _HIGHEST_VERSION), 2)
    except Exception as e:  # noqa: BLE001
        raise ValueError(str(e)) from None


def encode_assignment(assigned: dict, names_by_id: dict, version: int) -> bytes:
    """{topic id: partitions} -> a ConsumerProtocolAssignment at ``version`` (clamped to the known
    ones, as Kafka's serializeAssignment), topics by name (topics no longer known are left out)."""
    version = min(max(version, 0), _HIGHEST_VERSION)
    parts = [AssignedPartitions(topic=names_by_id[tid], partitions=sorted(ps))
             for tid, ps in sorted(assigned.items(), key=lambda kv: names_by_id.get(kv[0], ""))
             if ps and tid in names_by_id]
    body = ConsumerProtocolAssignment(assigned_partitions=parts, user_data=None).encode(version)
    return struct.pack(">h", version) + bytes(body)


def owned_ids(subscription: ConsumerProtocolSubscription, topics: dict) -> list:
    """The owned partitions a classic member's subscription names -> [(topic id, [partitions])]
    (topics not in the metadata image are left out, as Kafka's toTopicPartitions)."""
    out = []
    for tp in subscription.owned_partitions or ():
        t = topics.get(tp.topic)
        if t is not None:
            out.append((t[0], list(tp.partitions)))
    return out


# ---------------------------------------------------------------- upgrade: classic -> consumer


def check_upgrade(classic: Group, upgrade_enabled: bool, consumer_max_size: int) -> None:
    """Kafka's validateOnlineUpgrade: GROUP_ID_NOT_FOUND with its message when the group cannot go."""
    gid = classic.group_id
    if not upgrade_enabled:
        why = "online upgrade is disabled"
    elif classic.protocol_type != CLASSIC_PROTOCOL_TYPE:
        why = "the group does not use the consumer embedded protocol"
    elif len(classic.members) > consumer_max_size:
        why = "the group size exceeds the consumer group maximum size"
    else:
        return
    log.info("Cannot upgrade classic group %s to consumer group because %s.", gid, why)
    raise CoordinatorError(E.GROUP_ID_NOT_FOUND, f"Cannot upgrade classic group {gid} to consumer group because {why}.")


def consumer_group_from_classic(classic: Group, topics: dict, now_ms: int) -> ConsumerGroup:
    """Kafka's ConsumerGroup.fromClassicGroup: the group and target epochs at the classic generation
    (the target's timestamp 0), every member at that epoch, Stable, owning and targeted its last
    assignment; its committed offsets kept. ``topics``: {name: (topic id, partitions)}."""
    gid, gen = classic.group_id, classic.generation_id
    g = ConsumerGroup(gid, group_epoch=gen, assignment_epoch=gen, assignment_timestamp_ms=0,
                      state_timestamp_ms=now_ms, offsets=classic.offsets)
    for cm in classic.members.values():
        try:
            if cm.assignment:
                a = decode_assignment(cm.assignment)
                if a.user_data:
                    raise CoordinatorError(E.GROUP_ID_NOT_FOUND, (
                        f"Cannot upgrade classic group {gid} to consumer group because an unsupported custom "
                        f"assignor is in use. Please refer to the documentation or switch to a default assignor "
                        f"before re-attempting the upgrade."))
                assigned: dict = {}
                for tp in a.assigned_partitions:
                    t = topics.get(tp.topic)
                    if t is not None:
                        assigned.setdefault(t[0], set()).update(tp.partitions)
            else:
                assigned = {}
            sub = decode_subscription(cm.metadata_for(classic.protocol_name))
        except ValueError as e:
            log.warning("Cannot upgrade classic group %s to consumer group because the embedded consumer protocol "
                        "is malformed: %s.", gid, e)
            raise CoordinatorError(E.GROUP_ID_NOT_FOUND, f"Cannot upgrade classic group {gid} to consumer group "
                                                         f"because the embedded consumer protocol is malformed.")
        m = ConsumerMember(
            cm.member_id, instance_id=cm.group_instance_id, rack_id=sub.rack_id, client_id=cm.client_id,
            client_host=cm.client_host, rebalance_timeout_ms=cm.rebalance_timeout_ms, member_epoch=gen,
            previous_member_epoch=gen, state=STABLE, subscribed_topic_names=sorted(set(sub.topics)),
            assigned={tid: dict.fromkeys(ps, gen) for tid, ps in assigned.items() if ps},
            classic=ClassicMetadata(cm.session_timeout_ms, tuple((n, bytes(md)) for n, md in cm.protocols)))
        m.session_deadline_ms = now_ms + cm.session_timeout_ms
        g.target[m.member_id] = {tid: set(ps) for tid, ps in assigned.items() if ps}
        g.members[m.member_id] = m
        if m.instance_id is not None:
            g.static_members[m.instance_id] = m.member_id
    return g


def consumer_group_records(g: ConsumerGroup) -> list:
    """Kafka's createConsumerGroupRecords: every member's metadata, the group epoch, every member's
    target assignment, the target's metadata, every member's current assignment."""
    gid = g.group_id
    out = [crec.member_metadata(gid, m) for m in g.members.values()]
    out.append(crec.group_metadata(gid, g.group_epoch, g.metadata_hash))
    out += [crec.target_member(gid, mid, g.target.get(mid, {})) for mid in g.members]
    out.append(crec.target_metadata(gid, g.assignment_epoch, g.assignment_timestamp_ms))
    out += [crec.current_member(gid, m) for m in g.members.values()]
    return out


# ---------------------------------------------------------------- downgrade: consumer -> classic


def may_downgrade(g: ConsumerGroup, leaving: set, downgrade_enabled: bool, classic_max_size: int) -> bool:
    """Kafka's validateOnlineDowngradeWithFencedMembers: the members left all use the classic
    protocol, there are some, the policy allows it and they fit in a classic group."""
    if not g.only_classic_members_but(leaving):
        return False
    left = len(g.members) - len(leaving & set(g.members))
    if left <= 0:
        return False
    if not downgrade_enabled:
        log.info("Cannot downgrade consumer group %s to classic group because the online downgrade is disabled.",
                 g.group_id)
        return False
    if left > classic_max_size:
        log.info("Cannot downgrade consumer group %s to classic group because its group size is greater than "
                 "classic group max size.", g.group_id)
        return False
    return True


def tombstones_replacing(g: ConsumerGroup, replaced: str, joining: str) -> list:
    """Kafka's createGroupTombstoneRecordsWithReplacedMember: the group's tombstones, the replaced
    member's records named by the member replacing it."""
    gid = g.group_id
    ids = [joining if mid == replaced else mid for mid in g.members]
    out = [crec.current_member(gid, mid) for mid in ids]
    out += [crec.target_member(gid, mid, None) for mid in ids]
    out.append(crec.target_metadata(gid, None))
    out += [crec.member_metadata(gid, mid) for mid in ids]
    out += [crec.regular_expression(gid, r, None) for r in g.resolved_regexes]
    out += [crec.partition_metadata_tombstone(gid), crec.group_metadata(gid, None)]
    return out


def may_downgrade_replacing(g: ConsumerGroup, replaced: ConsumerMember, downgrade_enabled: bool,
                            classic_max_size: int) -> bool:
    """Kafka's validateOnlineDowngradeWithReplacedMember: a classic static member takes the place of
    the group's only consumer-protocol member."""
    if replaced.classic is not None or g.members.classic_count != len(g.members) - 1:
        return False
    if not downgrade_enabled:
        log.info("Cannot downgrade consumer group %s to classic group because the online downgrade is disabled.",
                 g.group_id)
        return False
    if len(g.members) > classic_max_size:
        log.info("Cannot downgrade consumer group %s to classic group because its group size is greater than "
                 "classic group max size.", g.group_id)
        return False
    return True


def classic_group_from_consumer(g: ConsumerGroup, leaving: set, names_by_id: dict, now_ms: int,
                                joining: ConsumerMember | None = None) -> Group:
    """Kafka's ClassicGroup.fromConsumerGroup: Stable at the group epoch, protocol type "consumer",
    the members but ``leaving`` (the first the leader), the protocol they vote for, each member's
    target assignment written at its subscription's version; its committed offsets kept.
    ``joining``: a classic static member replacing the member of its instance id (it comes last,
    with the replaced member's target assignment)."""
    cg = Group(g.group_id, state=GroupState.STABLE, state_timestamp_ms=now_ms, generation_id=g.group_epoch,
               protocol_type=CLASSIC_PROTOCOL_TYPE, offsets=g.offsets)
    targets = dict(g.target)
    replaced = None
    if joining is not None:
        replaced = g.static_members.get(joining.instance_id)
        targets[joining.member_id] = g.target.get(replaced, {})
    for mid, m in list(g.members.items()) + ([(joining.member_id, joining)] if joining is not None else []):
        if mid in leaving or mid == replaced:
            continue
        c = m.classic
        member = Member(mid, m.instance_id, m.client_id, m.client_host, m.rebalance_timeout_ms, c.session_timeout_ms,
                        CLASSIC_PROTOCOL_TYPE, list(c.protocols), heartbeat_deadline_ms=now_ms + c.session_timeout_ms)
        cg.members[mid] = member
        if m.instance_id is not None:
            cg.static_members[m.instance_id] = mid
        if cg.leader_id is None:
            cg.leader_id = mid
    cg.protocol_name = cg.select_protocol()
    for mid, member in cg.members.items():
        meta = member.metadata_for(cg.protocol_name)
        try:
            version = protocol_version(meta)
        except ValueError:
            version = 0
        member.assignment = encode_assignment(targets.get(mid, {}), names_by_id, version)
    return cg
