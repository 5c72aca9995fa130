"""The data of one classic consumer group: states, members, and the slots pending requests wait on."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any, ClassVar

from odradek.wire.errors import ErrorCode

from . import group_records as rec
from .errors import CoordinatorError
from .group_model import CLASSIC, commit_timestamp, release_emptied

E = ErrorCode


class GroupState(enum.Enum):
    EMPTY = "Empty"
    PREPARING_REBALANCE = "PreparingRebalance"
    COMPLETING_REBALANCE = "CompletingRebalance"
    STABLE = "Stable"
    DEAD = "Dead"


# Kafka's ClassicGroupState.validPreviousStates
VALID_PREVIOUS = {
    GroupState.EMPTY: {GroupState.PREPARING_REBALANCE},
    GroupState.PREPARING_REBALANCE: {GroupState.STABLE, GroupState.COMPLETING_REBALANCE, GroupState.EMPTY},
    GroupState.COMPLETING_REBALANCE: {GroupState.PREPARING_REBALANCE},
    GroupState.STABLE: {GroupState.COMPLETING_REBALANCE},
    GroupState.DEAD: {GroupState.STABLE, GroupState.PREPARING_REBALANCE, GroupState.COMPLETING_REBALANCE,
                      GroupState.EMPTY, GroupState.DEAD},
}


class ClassicMembers(dict):
    """A classic group's members (member_id -> Member) with, per protocol name, how many of them
    support it (Kafka's ClassicGroup.supportedProtocols). A member whose protocols change in
    place is stored again (``members[id] = m``) so that the counts follow."""

    def __init__(self):
        super().__init__()
        self.protocol_counts: dict[str, int] = {}
        self._counted: dict[str, frozenset] = {}
        self._last: tuple[list, frozenset] | None = None  # the protocols last stored, and their names

    def shared(self, protocols: list) -> list:
        """``protocols`` as a member is to keep them: the list of the member stored last when equal.
        A group's members mostly send the same protocols and metadata: a 10,000-member group keeps
        one list and one set of names for them, not 10,000 of each."""
        last = self._last
        return last[0] if last is not None and last[0] == protocols else protocols

    def __setitem__(self, member_id: str, m) -> None:
        self._uncount(member_id)
        last = self._last
        if last is not None and m.protocols is last[0]:
            names = last[1]
        else:
            names = frozenset(n for n, _ in m.protocols)
            self._last = (m.protocols, names)
        counts = self.protocol_counts
        for n in names:
            counts[n] = counts.get(n, 0) + 1
        self._counted[member_id] = names
        super().__setitem__(member_id, m)

    def __delitem__(self, member_id: str) -> None:
        super().__delitem__(member_id)
        self._uncount(member_id)
        self._release_if_empty()

    def pop(self, member_id: str, *default):
        self._uncount(member_id)
        m = super().pop(member_id, *default)
        self._release_if_empty()
        return m

    def _release_if_empty(self) -> None:
        """A dict never shrinks on deletes: the table a 10,000-member group grew would stay with
        the empty group until it is deleted. clear() gives it back."""
        if not self:
            self.clear()

    def clear(self) -> None:
        super().clear()
        self.protocol_counts.clear()
        self._counted.clear()
        self._last = None

    def _uncount(self, member_id: str) -> None:
        names = self._counted.pop(member_id, None)
        if names:
            counts = self.protocol_counts
            for n in names:
                left = counts[n] - 1
                if left:
                    counts[n] = left
                else:
                    del counts[n]

    # (a dict's other ways in would bypass the counts)
    def update(self, *a, **kw):
        raise TypeError("ClassicMembers: assign members one by one")

    setdefault = popitem = update


class Slot:
    """Where a parked JoinGroup/SyncGroup request finds its answer once the coordinator has one."""

    __slots__ = ("result",)

    def __init__(self, result: Any = None):
        self.result = result

    @property
    def done(self) -> bool:
        return self.result is not None


@dataclass
class JoinResult:
    """The coordinator's answer to a JoinGroup."""
    error: ErrorCode = ErrorCode.NONE
    generation_id: int = -1
    protocol_type: str | None = None
    protocol_name: str | None = None
    leader: str = ""
    member_id: str = ""
    members: list = field(default_factory=list)  # [(member_id, group_instance_id, metadata)]
    skip_assignment: bool = False


@dataclass
class SyncResult:
    """The coordinator's answer to a SyncGroup."""
    error: ErrorCode = ErrorCode.NONE
    protocol_type: str | None = None
    protocol_name: str | None = None
    assignment: bytes = b""


@dataclass(slots=True)
class Member:
    """A member of a classic group (slots: a group may hold 10,000)."""
    member_id: str
    group_instance_id: str | None
    client_id: str
    client_host: str
    rebalance_timeout_ms: int
    session_timeout_ms: int
    protocol_type: str
    protocols: list  # [(name, metadata bytes)] in the member's preference order
    assignment: bytes = b""
    join_slot: Slot | None = None
    sync_slot: Slot | None = None
    heartbeat_deadline_ms: int = 0

    @property
    def awaiting_join(self) -> bool:
        return self.join_slot is not None

    @property
    def awaiting_sync(self) -> bool:
        return self.sync_slot is not None

    def answer_parked(self, error: ErrorCode) -> None:
        """The member's parked JoinGroup and SyncGroup, if any, are answered with ``error``."""
        if self.join_slot is not None:
            self.join_slot.result = JoinResult(error=error, member_id=self.member_id)
            self.join_slot = None
        if self.sync_slot is not None:
            self.sync_slot.result = SyncResult(error=error)
            self.sync_slot = None

    def metadata_for(self, protocol: str | None) -> bytes:
        for name, meta in self.protocols:
            if name == protocol:
                return meta
        return b""

    def matches(self, protocols: list) -> bool:
        return list(protocols) == list(self.protocols)


@dataclass
class Group:
    """A classic group (GroupModel)."""
    group_type: ClassVar[str] = CLASSIC
    group_id: str
    state: GroupState = GroupState.EMPTY
    state_timestamp_ms: int = -1
    generation_id: int = 0
    protocol_type: str | None = None
    protocol_name: str | None = None
    leader_id: str | None = None
    members: ClassicMembers = field(default_factory=lambda: ClassicMembers())  # member_id -> Member, in join order
    static_members: dict = field(default_factory=dict)  # group_instance_id -> member_id
    pending_members: dict = field(default_factory=dict)  # member_id -> deadline (MEMBER_ID_REQUIRED issued)
    pending_sync: set = field(default_factory=set)
    offsets: dict = field(default_factory=dict)  # (topic, partition) -> OffsetAndMetadata
    # rebalance timers
    join_deadline_ms: int | None = None
    initial_delay_active: bool = False
    initial_remaining_ms: int = 0
    new_member_added: bool = False
    sync_deadline_ms: int | None = None

    def release_empty_tables(self) -> None:
        """Give back the table of each emptied member map: a dict or set never shrinks on deletes,
        so what a 10,000-member join storm grew would stay with the group until it is deleted."""
        release_emptied(self.static_members, self.pending_members, self.pending_sync)

    def transition(self, to: GroupState, now_ms: int) -> None:
        if self.state not in VALID_PREVIOUS[to]:
            raise AssertionError(f"group {self.group_id}: illegal transition {self.state.value} -> {to.value}")
        self.state = to
        self.state_timestamp_ms = now_ms

    def rebalance_timeout_ms(self) -> int:
        return max((m.rebalance_timeout_ms for m in self.members.values()), default=0)

    def committed_copy(self) -> "Group":
        """Kafka reads a committed classic group's own fields as they are now (not timeline
        structures): the group itself."""
        return self

    def fail_parked(self, error: ErrorCode) -> None:
        """Answer every parked JoinGroup and SyncGroup with ``error`` (the coordinator moved)."""
        for m in self.members.values():
            m.answer_parked(error)

    def all_members_joined(self) -> bool:
        return not self.pending_members and all(m.awaiting_join for m in self.members.values())

    def is_leader(self, member_id: str) -> bool:
        return self.leader_id == member_id

    def select_protocol(self) -> str | None:
        """Kafka's vote: candidates every member supports, each member votes for its favourite candidate."""
        members = list(self.members.values())
        if not members:
            return None
        candidates = [name for name, _ in members[0].protocols]
        for m in members[1:]:
            names = {name for name, _ in m.protocols}
            candidates = [c for c in candidates if c in names]
        if not candidates:
            return None
        votes: dict[str, int] = {c: 0 for c in candidates}
        for m in members:
            for name, _ in m.protocols:
                if name in votes:
                    votes[name] += 1
                    break
        return max(candidates, key=lambda c: votes[c])

    def supports_protocols(self, protocol_type: str, names: set) -> bool:
        """Kafka's ClassicGroup.supportsProtocols: one of ``names`` is supported by every member
        (counted as members come and go: a check per join over every member made a 10,000-member
        group's joins quadratic)."""
        if not self.members:
            return bool(protocol_type) and bool(names)
        if protocol_type != self.protocol_type:
            return False
        everyone = len(self.members)
        counts = self.members.protocol_counts
        return any(counts.get(n, 0) == everyone for n in names)

    def subscribed_topics(self) -> set | None:
        """Topics the members subscribe to (consumer protocol); None when unknown."""
        if self.protocol_type != "consumer" or not self.protocol_name:
            return None
        from odradek.wire.messages.consumer_protocol_subscription import ConsumerProtocolSubscription

        topics: set = set()
        for m in self.members.values():
            meta = m.metadata_for(self.protocol_name)
            try:
                version = int.from_bytes(meta[:2], "big", signed=True)
                version = min(max(version, 0), 3)
                sub = ConsumerProtocolSubscription.decode(meta, version, 2)
            except Exception:
                return None
            topics.update(sub.topics)
        return topics

    # ------------------------------------------------------------------ GroupModel

    def is_empty(self) -> bool:
        return self.state is GroupState.EMPTY

    def timerless(self) -> bool:
        """No timer of the group can fire: Empty, without members or pending members (a tick skips
        it: the many groups that only hold offsets cost the tick nothing, issue 27)."""
        return self.state is GroupState.EMPTY and not self.members and not self.pending_members

    def list_row(self) -> tuple | None:
        if self.state is GroupState.DEAD:
            return None
        return self.group_id, self.protocol_type or "", self.state.value, CLASSIC

    def state_key(self) -> str:
        return self.state.value.lower()

    def validate_member(self, member_id: str, instance_id: str | None) -> Member:
        if instance_id is not None:
            existing = self.static_members.get(instance_id)
            if existing is None:
                raise CoordinatorError(E.UNKNOWN_MEMBER_ID)
            if existing != member_id:
                raise CoordinatorError(E.FENCED_INSTANCE_ID)
        m = self.members.get(member_id)
        if m is None:
            raise CoordinatorError(E.UNKNOWN_MEMBER_ID)
        return m

    def member_of_generation(self, member_id: str, instance_id: str | None, generation_id: int) -> Member:
        """The member, if it is one of this generation (CoordinatorError: unknown, fenced, or
        ILLEGAL_GENERATION)."""
        m = self.validate_member(member_id, instance_id)
        if generation_id != self.generation_id:
            raise CoordinatorError(E.ILLEGAL_GENERATION)
        return m

    def validate_commit(self, member_id, instance_id, epoch, partitions, transactional, api_version, now_ms,
                        topics) -> ErrorCode:
        """OffsetCommit / TxnOffsetCommit: the member and its generation (a commit without one: an
        empty group only); the member's session is extended."""
        if self.state is GroupState.DEAD:
            return E.COORDINATOR_NOT_AVAILABLE
        if epoch < 0 and self.state is GroupState.EMPTY:
            return E.NONE
        if epoch >= 0 or member_id or instance_id is not None:
            try:
                m = self.member_of_generation(member_id, instance_id, epoch)
            except CoordinatorError as e:
                return e.code
            m.heartbeat_deadline_ms = now_ms + m.session_timeout_ms
        elif self.state is not GroupState.EMPTY:
            return E.UNKNOWN_MEMBER_ID
        if self.state is GroupState.COMPLETING_REBALANCE:
            return E.REBALANCE_IN_PROGRESS
        return E.NONE

    def validate_offset_fetch(self, member_id, member_epoch) -> ErrorCode:
        return E.NONE

    def offsets_subscribed(self) -> set | None:
        return set() if self.state is GroupState.EMPTY else self.subscribed_topics()

    def offset_expiry(self):
        """Kafka's ClassicGroup.offsetExpirationCondition."""
        if not self.protocol_type:
            return set(), commit_timestamp  # a simple (standalone) consumer
        if self.state is GroupState.EMPTY:
            ts = self.state_timestamp_ms
            return set(), lambda om: ts if ts >= 0 else om.commit_timestamp_ms
        if self.state is GroupState.STABLE:
            subscribed = self.subscribed_topics()
            if subscribed is not None:
                return subscribed, commit_timestamp
        return None

    def tombstones(self) -> list:
        return [(rec.group_metadata_key(self.group_id), None)]

