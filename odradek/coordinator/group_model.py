"""The one group model: what the group coordinator asks of every group, whatever its protocol
(Kafka's Group interface). Classic (group_state.Group), consumer (consumer_group_state.ConsumerGroup),
streams (streams_group_state.StreamsGroup) and share (share_group_coordinator.ShareGroup) groups
implement it and live in one map, ``GroupCoordinator.groups``; a group id names one group of one
type. The share group coordinator keeps its groups in that map too (a ``TypedGroups`` view of it)
beside their share-partitions.
"""

from __future__ import annotations

import copy
from collections.abc import MutableMapping
from dataclasses import dataclass, field
from typing import Callable, Generic, Protocol, TypeVar

from odradek.wire.errors import ErrorCode

from .group_records import OffsetAndMetadata
from .uncommitted import ABSENT, take_back

E = ErrorCode

CLASSIC, CONSUMER, STREAMS, SHARE = "classic", "consumer", "streams", "share"
# Kafka 4.3 (ModernGroup, StreamsGroup, TargetAssignmentMetadata.INITIAL): a new consumer or streams
# group is at epoch 1, its target assignment too, so the first member's join makes the group epoch 2
INITIAL_GROUP_EPOCH = 1
TYPE_ORDER = (CLASSIC, CONSUMER, STREAMS, SHARE)  # the order ListGroups lists them in
G = TypeVar("G")


def release_emptied(*tables) -> None:
    """Give back the table of each emptied dict or set: neither shrinks on deletes, so the table a
    10,000-member group grew would stay with the emptied group for as long as it lives (issue 27).
    clear() drops it."""
    for table in tables:
        if not table:
            table.clear()


class UndoDict(dict):
    """A dict that keeps, while ``undo`` is a dict (a group timeline note is open on it:
    group_timeline.py), the value each key had before its first change since (``ABSENT``: none), so
    that a committed view costs what changed rather than a copy of the whole map at each write."""

    undo: dict | None = None

    def _keep(self, key) -> None:
        u = self.undo
        if u is not None and key not in u:
            u[key] = dict.get(self, key, ABSENT)

    def __setitem__(self, key, value) -> None:
        self._keep(key)
        dict.__setitem__(self, key, value)

    def __delitem__(self, key) -> None:
        self._keep(key)
        dict.__delitem__(self, key)

    def pop(self, key, *default):
        if key in self:
            self._keep(key)
        return dict.pop(self, key, *default)

    def popitem(self):
        key, value = dict.popitem(self)
        u = self.undo
        if u is not None and key not in u:
            u[key] = value
        return key, value

    def clear(self) -> None:
        u = self.undo
        if u is not None:
            for key, value in dict.items(self):
                u.setdefault(key, value)
        dict.clear(self)

    def update(self, *args, **kwargs) -> None:
        for key, value in dict(*args, **kwargs).items():
            self[key] = value

    def setdefault(self, key, default=None):
        if key not in self:
            self[key] = default
        return dict.__getitem__(self, key)

    def __ior__(self, other):
        self.update(other)
        return self


def undone(live: UndoDict, undos: list[dict]) -> dict:
    """``live``'s contents with ``undos`` (newest first) taken back: what it held when the oldest was
    opened."""
    out = dict(live)
    for undo in undos:
        take_back(out, undo)
    return out


class IndexedMembers(UndoDict):
    """A group's members (member_id -> member) with indexes over them that follow every change:
    ``_count(member, +1 or -1)`` adds a member to or takes it out of the indexes, ``_reset()`` empties
    them. Members are replaced, never changed in place, so storing one (``members[id] = m``) is where
    the indexes follow (consumer_group_state.ConsumerMembers, streams_group_state.StreamsMembers)."""

    def __setitem__(self, member_id: str, m) -> None:
        old = super().get(member_id)
        if old is not None:
            self._count(old, -1)
        super().__setitem__(member_id, m)
        self._count(m, 1)

    def __delitem__(self, member_id: str) -> None:
        self._count(super().pop(member_id), -1)

    def pop(self, member_id: str, *default):
        if member_id not in self:
            return super().pop(member_id, *default)
        m = super().pop(member_id)
        self._count(m, -1)
        return m

    def clear(self) -> None:
        super().clear()
        self._reset()

    def frozen(self, contents: dict):
        """Members holding ``contents`` for a committed view (group_timeline.py), read only: its
        indexes are left empty (a subclass makes those a describe reads)."""
        c = type(self)()
        dict.update(c, contents)
        return c

    def _count(self, m, by: int) -> None:
        raise NotImplementedError

    def _reset(self) -> None:
        raise NotImplementedError


def assignment_diff(current: dict, target: dict, unreleased: Callable[[object, int], bool]) -> tuple:
    """One step of Kafka's CurrentAssignmentBuilder for a member, by key (a topic id, a subtopology):
    ``current`` and ``target`` map a key to partitions (or tasks). -> (kept, to revoke, to assign
    now, whether any was held back): a partition of the target still ``unreleased(key, p)`` by its
    previous owner waits. Each result maps a key to a non-empty set."""
    kept, revoke, assign = {}, {}, {}
    blocked_any = False
    for key in set(current) | set(target):
        cur = set(current.get(key, ()))
        want = target.get(key, set())
        k = cur & want
        r = cur - k
        a = want - k
        blocked = {p for p in a if unreleased(key, p)}
        if blocked:
            blocked_any = True
            a -= blocked
        if k:
            kept[key] = k
        if r:
            revoke[key] = r
        if a:
            assign[key] = a
    return kept, revoke, assign, blocked_any


class GroupModel(Protocol):
    group_id: str
    group_type: str  # CLASSIC, CONSUMER, STREAMS or SHARE
    offsets: dict  # (topic, partition) -> OffsetAndMetadata
    members: dict
    state_timestamp_ms: int

    def is_empty(self) -> bool: ...

    def list_row(self) -> tuple[str, str, str, str] | None:
        """ListGroups: (group id, protocol type, state, group type); None: not listed (dead)."""

    def state_key(self) -> str:
        """The state as ListGroups' states filter names it (lower case)."""

    def validate_commit(self, member_id: str, instance_id: str | None, epoch: int, partitions: list,
                        transactional: bool, api_version: int, now_ms: int, topics: dict) -> ErrorCode | dict:
        """Who may commit: an error for the whole request, or {(topic, partition): error}."""

    def validate_offset_fetch(self, member_id: str | None, member_epoch: int) -> ErrorCode: ...

    def offsets_subscribed(self) -> set | None:
        """OffsetDelete: topics the group reads (their offsets are not deleted); None: not known
        while the group is not empty (NON_EMPTY_GROUP)."""

    def offset_expiry(self) -> tuple[set, Callable[[OffsetAndMetadata], int]] | None:
        """Retention: (topics whose offsets never expire, an offset's base time); None: none expire now."""

    def tombstones(self) -> list:
        """The records that delete the group (its offsets aside)."""

    def rebalance_timeout_ms(self) -> int: ...

    def committed_copy(self) -> "GroupModel | MapsBefore":
        """The group as readers are to see it until a write about to change it is committed
        (group_timeline.py): what a describe and ListGroups read, as it is now (MapsBefore: its
        members and target assignment as they change from now on are to be taken back)."""


def commit_timestamp(om: OffsetAndMetadata) -> int:
    return om.commit_timestamp_ms


@dataclass(slots=True)
class MemberEpochMember:
    """What a member of a member-epoch protocol (consumer, streams) has whatever its protocol
    (Kafka's ModernGroupMember); each protocol's member adds its subscription and assignment."""
    member_id: str
    instance_id: str | None = None
    rack_id: str | None = None
    client_id: str = ""
    client_host: str = ""
    rebalance_timeout_ms: int = -1
    member_epoch: int = 0
    previous_member_epoch: int = 0
    state: int = 0  # the protocol's MemberState byte (0: STABLE)
    # timers (not persisted; re-armed at load)
    session_deadline_ms: int = 0
    rebalance_deadline_ms: int | None = None

    def copy(self):
        return copy.deepcopy(self)

    def uses_classic_protocol(self) -> bool:
        """A member of a consumer group may use the classic protocol (consumer_group_state.ConsumerMember)."""
        return False

    def fenced_at_rebalance_deadline(self, revoking_state: int) -> bool:
        """Whether passing its rebalance deadline fences the member (one revoking partitions)."""
        return self.state == revoking_state


@dataclass
class MemberEpochGroup:
    """What consumer and streams groups (member-epoch protocols) have alike (Kafka's ModernGroup):
    the epochs, the members (MemberEpochMember) and their target assignment, the committed offsets."""
    group_id: str
    group_epoch: int = 0
    assignment_epoch: int = 0
    members: dict = field(default_factory=dict)  # member_id -> the protocol's member
    target: dict = field(default_factory=dict)  # member_id -> the protocol's assignment
    metadata_hash: int = 0
    offsets: dict = field(default_factory=dict)  # (topic, partition) -> OffsetAndMetadata
    state_timestamp_ms: int = -1

    def is_empty(self) -> bool:
        return not self.members

    def list_row(self) -> tuple:
        return self.group_id, self.group_type, self.state, self.group_type

    def state_key(self) -> str:
        return self.state.lower()

    def validate_offset_fetch(self, member_id: str | None, member_epoch: int) -> ErrorCode:
        """OffsetFetch v9+: the member and its epoch (Kafka's validateOffsetFetch)."""
        if not member_id and member_epoch < 0:
            return E.NONE
        m = self.members.get(member_id)
        if m is None:
            return E.UNKNOWN_MEMBER_ID
        if member_epoch != m.member_epoch:
            return E.ILLEGAL_GENERATION if m.uses_classic_protocol() else E.STALE_MEMBER_EPOCH
        return E.NONE

    def committing_member(self, member_id: str, transactional: bool, api_version: int):
        """The member an OffsetCommit (v9+) or TxnOffsetCommit names, or the error for it."""
        m = self.members.get(member_id)
        if m is None:
            return E.UNKNOWN_MEMBER_ID
        if not transactional and api_version < 9 and not m.uses_classic_protocol():
            return E.UNSUPPORTED_VERSION
        return m

    def offsets_subscribed(self) -> set: ...

    def offset_expiry(self):
        return self.offsets_subscribed(), commit_timestamp

    def rebalance_timeout_ms(self) -> int:
        return max((m.rebalance_timeout_ms for m in self.members.values()), default=0)

    def committed_copy(self) -> "MapsBefore":
        """Kafka reads every described field of a consumer or streams group at the committed offset:
        a copy of the group's fields, and what its members and target assignment change from now on
        (their entries are replaced, never changed in place, so the values replaced are the maps as
        they are now); read only."""
        if type(self.target) is not UndoDict:  # (a new target assignment is a plain dict)
            self.target = UndoDict(self.target)
        return MapsBefore(copy.copy(self), self.members, self.target)


class MapsBefore:
    """A consumer or streams group as a write is about to change it (group_timeline.py): its fields
    (a shallow copy: their maps are the live ones) and, for its members and target assignment, the
    values each key had before it changed since (the note opened on both maps until a later note
    takes them or this one is closed)."""

    __slots__ = ("fields", "members", "target", "members_undo", "target_undo")

    def __init__(self, fields, members: UndoDict, target: UndoDict):
        self.fields, self.members, self.target = fields, members, target
        self.members_undo: dict = {}
        self.target_undo: dict = {}
        members.undo, target.undo = self.members_undo, self.target_undo

    def close(self) -> None:
        """Committed: its maps stop keeping what they replace for it."""
        if self.members.undo is self.members_undo:
            self.members.undo = None
        if self.target.undo is self.target_undo:
            self.target.undo = None

    def group(self, notes: list) -> MemberEpochGroup:
        """The group as it was: ``notes`` are this note and the group id's later ones (oldest first);
        the changes of those on the same maps are taken back too, newest first."""
        later = [n for n in reversed(notes) if isinstance(n, MapsBefore)]
        members = undone(self.members, [n.members_undo for n in later if n.members is self.members])
        target = undone(self.target, [n.target_undo for n in later if n.target is self.target])
        c = copy.copy(self.fields)
        c.members = self.members.frozen(members)
        c.target = target
        return c


def member_tombstones(recs, group_id: str, members, targets) -> list:
    """The consumer_group_records / streams_group_records tombstones of a group's members: current
    and target assignments, the target metadata, member metadata."""
    out = [recs.current_member(group_id, mid) for mid in members]
    out += [recs.target_member(group_id, mid, None) for mid in targets]
    out.append(recs.target_metadata(group_id, None))
    out += [recs.member_metadata(group_id, mid) for mid in members]
    return out


class TypedGroups(MutableMapping, Generic[G]):
    """The groups of one type in the one map: reads see only groups of ``cls``; a group set here
    takes its id in the map (after the groups already there, as a new group is listed); a delete
    removes only a group of ``cls``."""

    def __init__(self, groups: dict, cls: type):
        self._groups, self._cls = groups, cls

    def __getitem__(self, group_id: str) -> G:
        g = self._groups[group_id]
        if not isinstance(g, self._cls):
            raise KeyError(group_id)
        return g

    def __setitem__(self, group_id: str, g: G) -> None:
        self._groups.pop(group_id, None)
        self._groups[group_id] = g

    def __delitem__(self, group_id: str) -> None:
        self[group_id]  # KeyError unless it is one of ours
        del self._groups[group_id]

    def __iter__(self):
        return (gid for gid, g in list(self._groups.items()) if isinstance(g, self._cls))

    def __len__(self) -> int:
        return sum(1 for g in self._groups.values() if isinstance(g, self._cls))
