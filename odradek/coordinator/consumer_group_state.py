"""The data of one KIP-848 consumer group, and the member reconciliation state machine.

Assignments are {topic_id: {partition: assignment epoch}} for what a member owns (the epoch at which
it was given each partition, KIP-1251) and {topic_id: set(partitions)} for target assignments.
reconcile() is Kafka's CurrentAssignmentBuilder: a member moves towards its target assignment by
first revoking (UNREVOKED_PARTITIONS, epoch unchanged), then taking partitions nobody else owns
(epoch = target epoch; UNRELEASED_PARTITIONS while some are still owned by others).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Callable, ClassVar, Iterable

from odradek.wire.errors import ErrorCode

from . import consumer_group_records as crec
from .group_model import (
    CONSUMER,
    INITIAL_GROUP_EPOCH,
    IndexedMembers,
    MemberEpochGroup,
    MemberEpochMember,
    assignment_diff,
    member_tombstones,
)

E = ErrorCode
CLASSIC_PROTOCOL_TYPE = "consumer"  # the protocol type of classic members a consumer group hosts

# Kafka's MemberState bytes
STABLE = 0
UNREVOKED_PARTITIONS = 1
UNRELEASED_PARTITIONS = 2
UNKNOWN = 127
MEMBER_STATE_NAMES = {STABLE: "STABLE", UNREVOKED_PARTITIONS: "UNREVOKED_PARTITIONS",
                      UNRELEASED_PARTITIONS: "UNRELEASED_PARTITIONS", UNKNOWN: "UNKNOWN"}

LEAVE_GROUP_MEMBER_EPOCH = -1
LEAVE_GROUP_STATIC_MEMBER_EPOCH = -2


@dataclass(frozen=True, slots=True)
class ClassicMetadata:
    """What a member using the classic protocol inside a consumer group keeps (Kafka's
    ClassicMemberMetadata, in its ConsumerGroupMemberMetadataValue): its session timeout and the
    protocols of its last JoinGroup, in its preference order."""
    session_timeout_ms: int
    protocols: tuple  # ((name, metadata bytes), ...)

    @property
    def protocol_name(self) -> str:
        """The protocol the member is answered with (Kafka: the first it names)."""
        return self.protocols[0][0]

    def metadata_for(self, name: str | None) -> bytes:
        return next((md for n, md in self.protocols if n == name), b"")


@dataclass(slots=True)
class ConsumerMember(MemberEpochMember):
    """A member of a consumer-protocol (KIP-848) group; ``classic``: it uses the classic protocol
    (JoinGroup/SyncGroup/Heartbeat, classic_members.py), as after an online upgrade."""
    subscribed_topic_names: list = field(default_factory=list)
    subscribed_topic_regex: str | None = None
    server_assignor: str | None = None
    assigned: dict = field(default_factory=dict)  # topic_id -> {partition: assignment epoch}
    pending_revocation: dict = field(default_factory=dict)  # topic_id -> {partition: assignment epoch}
    classic: ClassicMetadata | None = None

    def uses_classic_protocol(self) -> bool:
        return self.classic is not None

    def fenced_at_rebalance_deadline(self, revoking_state: int) -> bool:
        """A classic member's rebalance deadline is its join or sync timer (Kafka's), whatever its state."""
        return self.classic is not None or self.state == revoking_state

    def assigned_sets(self) -> dict:
        return {t: set(ps) for t, ps in self.assigned.items() if ps}

    def owns(self, tid: bytes, p: int) -> bool:
        return p in self.assigned.get(tid, {}) or p in self.pending_revocation.get(tid, {})

    def assignment_epoch(self, tid: bytes, p: int) -> int | None:
        for d in (self.assigned, self.pending_revocation):
            if p in d.get(tid, {}):
                return d[tid][p]
        return None

    def is_reconciled_to(self, epoch: int) -> bool:
        return self.state == STABLE and self.member_epoch == epoch

    def copy(self) -> "ConsumerMember":
        """A shallow copy: a member's lists and maps are never changed in place (a heartbeat gives
        the copy new ones), so the copy may share them, and a heartbeat costs no deep copy of its
        member's assignment (the group's indexes rely on the same: ConsumerMembers)."""
        return copy.copy(self)


def _bump(counts: dict, key, by: int) -> None:
    n = counts.get(key, 0) + by
    if n:
        counts[key] = n
    else:
        del counts[key]


class ConsumerMembers(IndexedMembers):
    """A consumer group's members (member_id -> ConsumerMember) with what a heartbeat asks of all of
    them kept as they change, so that a heartbeat costs what its own member has rather than a walk
    over the group (Kafka's ConsumerGroup keeps the same: subscribedTopicNames, the regular
    expressions' counts, currentPartitionEpoch): how many members subscribe to each topic name, use
    each regular expression and prefer each server assignor, and which member owns each partition
    (assigned or pending revocation). Members are replaced, never changed in place, so storing one
    (``members[id] = m``) is where the counts follow."""

    def __init__(self, *args, **kwargs):
        super().__init__()
        self.topic_name_counts: dict[str, int] = {}
        self.regex_counts: dict[str, int] = {}
        self.assignor_counts: dict[str, int] = {}
        self.owners: dict[bytes, dict[int, object]] = {}  # topic id -> partition -> member id (a tuple if shared)
        self.classic_count = 0  # members using the classic protocol (KIP-848 migration)
        self.classic_protocol_counts: dict[str, int] = {}  # how many of them support each protocol name
        self.subscriptions_version = 0  # moves whenever a member comes, goes or changes its subscription
        for mid, m in dict(*args, **kwargs).items():
            self[mid] = m

    def __setitem__(self, member_id: str, m: "ConsumerMember") -> None:
        old = super().get(member_id)
        if old is None or (old.subscribed_topic_names, old.subscribed_topic_regex) != (
                m.subscribed_topic_names, m.subscribed_topic_regex):
            self.subscriptions_version += 1
        super().__setitem__(member_id, m)

    def __delitem__(self, member_id: str) -> None:
        super().__delitem__(member_id)
        self.subscriptions_version += 1

    def pop(self, member_id: str, *default):
        if member_id not in self:
            return super().pop(member_id, *default)
        self.subscriptions_version += 1
        return super().pop(member_id)

    def frozen(self, contents: dict) -> "ConsumerMembers":
        c = super().frozen(contents)
        for m in contents.values():  # (preferred_assignor: ConsumerGroupDescribe)
            if m.server_assignor:
                _bump(c.assignor_counts, m.server_assignor, 1)
        return c

    def _reset(self) -> None:
        self.subscriptions_version += 1
        for table in (self.topic_name_counts, self.regex_counts, self.assignor_counts, self.owners,
                      self.classic_protocol_counts):
            table.clear()
        self.classic_count = 0

    def _count(self, m: "ConsumerMember", by: int) -> None:
        for name in m.subscribed_topic_names:
            _bump(self.topic_name_counts, name, by)
        if m.subscribed_topic_regex:
            _bump(self.regex_counts, m.subscribed_topic_regex, by)
        if m.server_assignor:
            _bump(self.assignor_counts, m.server_assignor, by)
        if m.classic is not None:
            self.classic_count += by
            for name in {n for n, _ in m.classic.protocols}:
                _bump(self.classic_protocol_counts, name, by)
        for d in (m.assigned, m.pending_revocation):
            for tid, ps in d.items():
                for p in ps:
                    self._own(tid, p, m.member_id, by)

    def _own(self, tid: bytes, p: int, member_id: str, by: int) -> None:
        parts = self.owners.setdefault(tid, {})
        held = parts.get(p)
        ids = () if held is None else held if isinstance(held, tuple) else (held,)
        if by > 0:
            ids += (member_id,)
        elif member_id in ids:
            i = ids.index(member_id)
            ids = ids[:i] + ids[i + 1:]
        if not ids:
            parts.pop(p, None)
            if not parts:
                del self.owners[tid]
        else:
            parts[p] = ids[0] if len(ids) == 1 else ids

    def owned_by_other(self, tid: bytes, p: int, others_than: tuple) -> bool:
        """Whether a member other than ``others_than`` owns the partition (assigned or revoking)."""
        held = self.owners.get(tid, {}).get(p)
        if held is None:
            return False
        ids = held if isinstance(held, tuple) else (held,)
        return any(mid not in others_than and self[mid].member_epoch != -1 for mid in ids)

    def counts_with(self, field: str, removed: Iterable, added: Iterable) -> dict:
        """A copy of the counts named (``topic_name_counts``...) with the members ``removed`` taken
        out and ``added`` put in: what they would be once the heartbeat in the making is applied."""
        counts = dict(getattr(self, field))
        for by, ms in ((-1, removed), (1, added)):
            for m in ms:
                keys = {"topic_name_counts": m.subscribed_topic_names,
                        "regex_counts": [m.subscribed_topic_regex] if m.subscribed_topic_regex else [],
                        "assignor_counts": [m.server_assignor] if m.server_assignor else []}[field]
                for k in keys:
                    _bump(counts, k, by)
        return counts


@dataclass
class ConsumerGroup(MemberEpochGroup):
    """A KIP-848 consumer group (GroupModel)."""
    group_type: ClassVar[str] = CONSUMER
    # members: member_id -> ConsumerMember; target: member_id -> {topic_id: set(partitions)}
    members: ConsumerMembers = field(default_factory=ConsumerMembers)
    group_epoch: int = INITIAL_GROUP_EPOCH
    assignment_epoch: int = INITIAL_GROUP_EPOCH
    assignment_timestamp_ms: int = 0  # when the target assignment was last computed (0: not known)
    # no member is past a deadline before this (the tick walks the members from then on; 0: walk)
    deadlines_checked_until: int = 0
    # (topics table version, subscriptions version) metadata_hash was computed for (None: not known)
    metadata_hash_of: tuple | None = None
    static_members: dict = field(default_factory=dict)  # instance_id -> member_id
    resolved_regexes: dict = field(default_factory=dict)  # regex -> (frozenset(topic names), version)

    @property
    def state(self) -> str:
        if not self.members:
            return "Empty"
        if self.group_epoch > self.assignment_epoch:
            return "Assigning"
        for m in self.members.values():
            if not m.is_reconciled_to(self.assignment_epoch):
                return "Reconciling"
        return "Stable"

    def subscribed_topic_names(self) -> set:
        names: set = set()
        for m in self.members.values():
            names |= self.member_topic_names(m)
        return names

    def member_topic_names(self, m: ConsumerMember) -> set:
        names = set(m.subscribed_topic_names)
        if m.subscribed_topic_regex:
            r = self.resolved_regexes.get(m.subscribed_topic_regex)
            if r is not None:
                names.update(r[0])
        return names

    def preferred_assignor(self, default: str) -> str:
        return preferred_assignor(self.members.assignor_counts, default)

    # ------------------------------------------------------------------ classic members (KIP-848 migration)

    def supports_classic_protocols(self, protocol_type: str, names: set) -> bool:
        """Kafka's supportsClassicProtocols: a JoinGroup of the "consumer" protocol type naming a
        protocol every classic member supports (any, while none is classic)."""
        if protocol_type != CLASSIC_PROTOCOL_TYPE:
            return False
        if not self.members:
            return bool(names)
        counts, everyone = self.members.classic_protocol_counts, self.members.classic_count
        return any(counts.get(name, 0) == everyone for name in names)

    def only_classic_members_but(self, leaving: Iterable[str]) -> bool:
        """Kafka's allMembersUseClassicProtocolExcept: every member but ``leaving`` uses the classic protocol."""
        gone = [self.members[mid] for mid in set(leaving) if mid in self.members]
        classic_gone = sum(1 for m in gone if m.classic is not None)
        return self.members.classic_count - classic_gone == len(self.members) - len(gone)

    def waiting_on_unreleased_partition(self, m: ConsumerMember) -> bool:
        """Kafka's waitingOnUnreleasedPartition: a partition of its target another member still owns."""
        if m.state != UNRELEASED_PARTITIONS:
            return False
        for tid, ps in self.target.get(m.member_id, {}).items():
            have = m.assigned.get(tid, {})
            if any(p not in have and self.members.owned_by_other(tid, p, (m.member_id,)) for p in ps):
                return True
        return False

    # ------------------------------------------------------------------ GroupModel

    def validate_commit(self, member_id, instance_id, epoch, partitions, transactional, api_version, now_ms,
                        topics) -> ErrorCode:
        """topics: {name: (topic_id, partitions)} of the metadata image."""
        if epoch < 0 and not self.members:
            return E.NONE
        if transactional and epoch == -1 and not member_id and instance_id is None:
            return E.NONE
        m = self.committing_member(member_id, transactional, api_version)
        if isinstance(m, ErrorCode):
            return m
        if epoch == m.member_epoch:
            return E.NONE
        # (a classic member's generation is its member epoch: ILLEGAL_GENERATION where others are stale)
        stale = E.ILLEGAL_GENERATION if m.classic is not None else E.STALE_MEMBER_EPOCH
        if epoch > m.member_epoch:
            return stale
        # KIP-1251 (Kafka 4.3): an older epoch commits a partition the member still holds since then
        for topic, p in partitions:
            t = topics.get(topic)
            at = m.assignment_epoch(t[0], p) if t is not None else None
            if at is None or epoch < at:
                return stale
        return E.NONE

    def offsets_subscribed(self) -> set:
        return self.subscribed_topic_names()

    def tombstones(self) -> list:
        gid = self.group_id
        out = member_tombstones(crec, gid, self.members, self.target)
        out += [crec.regular_expression(gid, r, None) for r in self.resolved_regexes]
        out.append(crec.partition_metadata_tombstone(gid))
        out.append(crec.group_metadata(gid, None))
        return out


def preferred_assignor(counts: dict, default: str) -> str:
    """The server assignor most members name (the first by name among equals), else ``default``."""
    if not counts:
        return default
    return max(sorted(counts), key=lambda k: counts[k])


def _owns_any(owned: list | None, revoking: dict) -> bool:
    """owned: [(topic_id, [partitions])] from the request, or None (not sent: assume it still owns)."""
    if owned is None:
        return True
    for tid, parts in owned:
        d = revoking.get(tid)
        if d and any(p in d for p in parts):
            return True
    return False


def reconcile(member: ConsumerMember, target_epoch: int, target: dict, owned_by_other: Callable[[bytes, int], bool],
              subscribed_ids: set, owned: list | None) -> ConsumerMember:
    """Kafka's CurrentAssignmentBuilder.build(): the member's next state (a new object, or the same one).
    owned_by_other(topic id, partition): whether another member still owns it (assigned or revoking)."""
    st = member.state
    if st == STABLE:
        if member.member_epoch != target_epoch:
            return _compute_next(member, member.member_epoch, target_epoch, target, owned_by_other,
                                 subscribed_ids, owned)
        return _enforce_subscription(member, subscribed_ids, owned)
    if st == UNREVOKED_PARTITIONS:
        if _owns_any(owned, member.pending_revocation):
            return _enforce_subscription(member, subscribed_ids, owned)
        return _compute_next(member, member.member_epoch, target_epoch, target, owned_by_other,
                             subscribed_ids, owned)
    if st == UNRELEASED_PARTITIONS:
        return _compute_next(member, member.member_epoch, target_epoch, target, owned_by_other,
                             subscribed_ids, owned)
    return _compute_next(member, target_epoch, target_epoch, target, owned_by_other, subscribed_ids, owned)


def _with(member: ConsumerMember, state: int, epoch: int, assigned: dict, pending: dict,
          next_epoch: bool = False) -> ConsumerMember:
    """The member in its next state; ``next_epoch``: Kafka's computeNextAssignment, whose
    updateMemberEpoch makes the member's epoch its previous one even when the epoch stays."""
    m = member.copy()
    m.state = state
    if next_epoch or epoch != member.member_epoch:
        m.previous_member_epoch = member.member_epoch
    m.member_epoch = epoch
    m.assigned = {t: ps for t, ps in assigned.items() if ps}
    m.pending_revocation = {t: ps for t, ps in pending.items() if ps}
    return m


def _enforce_subscription(member, subscribed_ids, owned):
    """Drop partitions of topics the member no longer subscribes to (Kafka's updateCurrentAssignment)."""
    gone = {t: ps for t, ps in member.assigned.items() if t not in subscribed_ids}
    if not gone:
        return member
    assigned = {t: dict(ps) for t, ps in member.assigned.items() if t in subscribed_ids}
    pending = {t: dict(ps) for t, ps in member.pending_revocation.items()}
    for t, ps in gone.items():
        pending.setdefault(t, {}).update(ps)
    if _owns_any(owned, pending):
        return _with(member, UNREVOKED_PARTITIONS, member.member_epoch, assigned, pending)
    return _with(member, member.state, member.member_epoch, assigned, member.pending_revocation)


def _compute_next(member, member_epoch, target_epoch, target, owned_by_other, subscribed_ids, owned):
    def unreleased(tid, p):
        return owned_by_other(tid, p) and p not in member.pending_revocation.get(tid, {})

    cur = member.assigned
    kept, revoke, new_to_assign, unreleased_any = assignment_diff(
        cur, {t: set(ps) for t, ps in target.items() if t in subscribed_ids}, unreleased)
    new_assigned = {t: {p: cur[t][p] for p in ps} for t, ps in kept.items()}
    new_pending = {t: {p: cur[t][p] for p in ps} for t, ps in revoke.items()}
    if new_pending and _owns_any(owned, new_pending):
        return _with(member, UNREVOKED_PARTITIONS, member_epoch, new_assigned, new_pending, True)
    if new_to_assign:
        for tid, ps in new_to_assign.items():
            d = new_assigned.setdefault(tid, {})
            for p in ps:
                d[p] = target_epoch
        return _with(member, UNRELEASED_PARTITIONS if unreleased_any else STABLE, target_epoch, new_assigned, {}, True)
    if unreleased_any:
        return _with(member, UNRELEASED_PARTITIONS, target_epoch, new_assigned, {}, True)
    return _with(member, STABLE, target_epoch, new_assigned, {}, True)
