"""Share groups (KIP-932): membership by ShareGroupHeartbeat, the share-partitions of each group,
and the share sessions of ShareFetch / ShareAcknowledge. One node coordinates every group.

Pure: time comes in as now_ms, topics as a {name: (topic_id, partition count)} snapshot of the
metadata image, group configs through ``settings(group_id) -> dict`` (GROUP config resource over
the broker's group.share.* defaults), log offsets through ``offsets(topic, partition) -> (log start,
high watermark) | None``.

Membership as Kafka's: a member joins with epoch 0 and the member id it generated (v1), the group
epoch moves on every membership or subscription (or subscribed-topic metadata) change, the
server-side SimpleAssignor assigns every initialized subscribed partition to at least one member (a
partition is shared by several members when there are more members than partitions), and there is
no revocation: a member takes its new assignment, and the group's epoch, at its next heartbeat.
As Kafka 4.3, a new group is at epoch 1 (its first member joins at 2), and a new target assignment
is computed by a heartbeat at most once per share.assignment.interval.ms (the group's, else
group.share.assignment.interval.ms; 1 s by default): meanwhile a member has its part of the last
target at the assignment epoch; a member leaving or expiring moves the group epoch only.

Initialization as Kafka 4.3's group coordinator: a heartbeat finds the subscribed topic-partitions
the group has not initialized (nor is initializing since less than
group.share.initialize.retry.interval.ms) and has their share state initialized through the
``initialize_state`` port (InitializeShareGroupState at the share coordinators: state epoch = the
group epoch, start offset -1, which the share-partition leader resolves by share.auto.offset.reset
when it first reads it). Only initialized partitions are assigned: those the port initialized at
once are assigned by the same heartbeat; the others, once ``initialize_done`` reports them, at the
member's next heartbeat (the group epoch moves then, as Kafka's initializedAssignmentPending). The
initialized and initializing partitions are persisted (ShareGroupStatePartitionMetadata), so a
restarted or moved group coordinator does not initialize them again; a failed initialization is
forgotten and retried by the next heartbeat.
A member that does not heartbeat within share.session.timeout.ms is removed. A member leaving or
removed keeps its share session and acquired records, as on Kafka (the share-partition leaders are not
told): they go with its final-epoch ShareFetch/ShareAcknowledge, the close of the connection that
opened the session, or the records' acquisition locks expiring.

AlterShareGroupOffsets and DeleteShareGroupOffsets (an empty group only) set or forget the
share-partitions' start offsets; the first creates the group when it does not exist, as Kafka 4.3.

Persisted: each group's epoch (ShareGroupMetadata records in __consumer_offsets, as Kafka) and each
share-partition's state (SPSO and in-flight record states, in __share_group_state); changes() hands
share_persistence what changed, persisted() marks what it wrote (what it could not write stays
pending), restore_*() rebuild at start-up (share_state.py has the records).
Members, assignments and share sessions are not persisted: after a restart the members rejoin.

The operations that make records acquirable again (acknowledge, end_session, a connection closing)
return the share-partitions concerned (``ShareResult.wake``, HeartbeatResult.released): the broker
(its Shares port) persists what changed and wakes the ShareFetches parked on them.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from typing import Callable, Generic, TypeVar

from odradek.wire.errors import ErrorCode

from . import share_state
from .errors import CoordinatorError
from .group_model import INITIAL_GROUP_EPOCH, SHARE, TypedGroups, release_emptied
from .share_partition import SharePartition, ShareSettings

E = ErrorCode
T = TypeVar("T")
NOT_READY = "not ready"  # stored_state: the persisted state is on its way
LEAVE_GROUP_MEMBER_EPOCH = -1
INITIALIZE_RETRY_INTERVAL_MS = 30_000  # Kafka's group.share.initialize.retry.interval.ms default

# Kafka's group configs (GroupConfig) for share groups and the broker property each defaults to
SHARE_GROUP_CONFIGS = {
    "share.session.timeout.ms": "group.share.session.timeout.ms",
    "share.heartbeat.interval.ms": "group.share.heartbeat.interval.ms",
    "share.record.lock.duration.ms": "group.share.record.lock.duration.ms",
    "share.delivery.count.limit": "group.share.delivery.count.limit",
    "share.partition.max.record.locks": "group.share.partition.max.record.locks",
    "share.auto.offset.reset": "share.auto.offset.reset",
    "share.isolation.level": "share.isolation.level",
}




@dataclass
class ShareMember:
    """A member of a share group."""
    member_id: str
    member_epoch: int = 0
    client_id: str = ""
    client_host: str = ""
    rack_id: str | None = None
    subscribed: tuple = ()
    assignment: dict = field(default_factory=dict)  # {topic_id: sorted partitions}
    session_deadline_ms: int = 0


@dataclass
class ShareGroup:
    """A share group: epochs, members and the target assignment."""
    group_id: str
    # Kafka 4.3 (ModernGroup): a new group is at epoch 1, its target assignment too
    group_epoch: int = INITIAL_GROUP_EPOCH
    assignment_epoch: int = INITIAL_GROUP_EPOCH
    assignment_timestamp_ms: int = 0  # when the target assignment was last computed (0: not known)
    members: dict = field(default_factory=dict)  # member_id -> ShareMember
    target: dict = field(default_factory=dict)   # member_id -> {topic_id: sorted partitions}
    metadata_hash: int = 0
    persisted_epoch: int | None = None  # the epoch last written (share_state.py), None: never
    # the share-partitions initialized for the group (assigned, or set by AlterShareGroupOffsets):
    # what DescribeShareGroupOffsets without topics describes, as Kafka's initialized topics
    initialized: dict = field(default_factory=dict)  # {topic_id: set of partitions}
    # the share-partitions whose initialization is under way: {topic_id: (set of partitions, since ms)}
    initializing: dict = field(default_factory=dict)
    topic_names: dict = field(default_factory=dict)  # {topic_id: name} of those (for the record)
    persisted_initialized: dict = field(default_factory=dict)  # as last written
    persisted_initializing: dict = field(default_factory=dict)  # as last written

    def initialized_changed(self) -> bool:
        return {t: ps for t, ps in self.initialized.items() if ps} != self.persisted_initialized or \
            {t: ps for t, (ps, _) in self.initializing.items() if ps} != self.persisted_initializing

    @property
    def state(self) -> str:
        return "Stable" if self.members else "Empty"

    def subscribed_names(self) -> set:
        return {t for m in self.members.values() for t in m.subscribed}

    # the GroupModel (group_model.py): a share group in the one group map commits no offsets

    group_type = SHARE
    state_timestamp_ms = -1

    @property
    def offsets(self) -> dict:
        return {}

    def is_empty(self) -> bool:
        return not self.members

    def list_row(self) -> tuple:
        return self.group_id, SHARE, self.state, SHARE

    def state_key(self) -> str:
        return self.state.lower()

    def validate_commit(self, member_id, instance_id, epoch, partitions, transactional, api_version, now_ms,
                        topics) -> ErrorCode:
        return E.GROUP_ID_NOT_FOUND  # Kafka's ShareGroup.validateOffsetCommit: "not a consumer group"

    def validate_offset_fetch(self, member_id: str | None, member_epoch: int) -> ErrorCode:
        return E.NONE  # Kafka answers no offsets (its GroupIdNotFoundException is not returned)

    def offsets_subscribed(self) -> None:
        return None

    def offset_expiry(self) -> None:
        return None  # no offsets to expire

    def tombstones(self) -> list:
        return [(share_state.group_metadata_key(self.group_id), None),
                (share_state.initialized_key(self.group_id), None)]

    def rebalance_timeout_ms(self) -> int:
        return 0

    def committed_copy(self) -> "ShareGroup":
        """The group itself: a share group's members and assignment change without records here
        (they are not persisted), so no write notes them (group_timeline.py)."""
        return self


@dataclass
class HeartbeatResult:
    """The coordinator's answer to a ShareGroupHeartbeat."""
    member_id: str
    member_epoch: int
    heartbeat_interval_ms: int
    assignment: dict | None  # {topic_id: partitions}, None when unchanged
    released: set = field(default_factory=set)  # share-partitions whose records a leaving member held


@dataclass
class ShareResult(Generic[T]):
    """An operation's answer and the share-partitions (group, topic id, partition) whose records
    became acquirable again by it (the ShareFetches parked on them are woken)."""
    value: T
    wake: set = field(default_factory=set)


def simple_assign(members: dict, topics: dict) -> dict:
    """Kafka's SimpleAssignor in effect: every partition of a subscribed topic to at least one of its
    subscribers; with more subscribers than partitions a partition goes to several of them.

    members: {member_id: set of topic ids}; topics: {topic_id: partition count, or the sorted
    partitions that may be assigned (the initialized ones)}.
    Returns {member_id: {topic_id: sorted partitions}}.
    """
    out: dict = {m: {} for m in members}
    for tid in sorted(topics):
        parts = list(range(topics[tid])) if isinstance(topics[tid], int) else list(topics[tid])
        n = len(parts)
        subs = sorted(m for m, ts in members.items() if tid in ts)
        if not subs or n <= 0:
            continue
        if len(subs) <= n:
            for i, p in enumerate(parts):
                out[subs[i % len(subs)]].setdefault(tid, []).append(p)
        else:
            for i, m in enumerate(subs):
                out[m].setdefault(tid, []).append(parts[i % n])
    return out


def _metadata_hash(topics: dict, names: set) -> int:
    h = hashlib.blake2b(digest_size=8)
    for name in sorted(names):
        t = topics.get(name)
        if t is not None:
            h.update(name.encode() + b"\0" + bytes(t[0]) + int(t[1]).to_bytes(4, "big"))
    return int.from_bytes(h.digest(), "big", signed=True)


class OffsetNotAvailable(Exception):
    """A share-partition's start offset cannot be found yet (Kafka's OffsetNotAvailableException)."""


_ISO_DURATION = re.compile(r"P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?")


def iso_duration_ms(text: str) -> int:
    """An ISO 8601 duration as Kafka's by_duration takes it (PnDTnHnMn.nS, not negative) in ms."""
    m = _ISO_DURATION.fullmatch(text.strip())
    if m is None:
        raise ValueError(f"not a duration: {text}")
    d, h, mi, sec = m.groups()
    return int(d or 0) * 86_400_000 + int(h or 0) * 3_600_000 + int(mi or 0) * 60_000 + round(float(sec or 0) * 1000)


def _int_setting(s: dict, name: str, default: int) -> int:
    try:
        return int(s.get(name, default))
    except (TypeError, ValueError):
        return default


class ShareSession:
    """A share session (KIP-932): the partitions a member fetches, the epoch it must send next, and
    the client connection that opened it (its close ends the session, as Kafka's ShareSessionCache)."""

    def __init__(self, group_id: str, member_id: str, connection_id: str = ""):
        self.group_id = group_id
        self.member_id = member_id
        self.connection_id = connection_id
        self.epoch = 1
        self.partitions: dict = {}  # (topic_id, partition) -> None, in order


class ShareGroupCoordinator:
    def __init__(self, settings: Callable[[str], dict] | None = None,
                 offsets: Callable[[str, int], tuple | None] | None = None,
                 offset_for_timestamp: Callable[[str, int, int], int | None] | None = None,
                 clock_ms: Callable[[], int] | None = None,
                 max_share_sessions: int = 2000, max_group_size: int = 200,
                 stored_state: Callable[[tuple, str, int], object] | None = None,
                 initialize_state: Callable[[str, int, dict], dict] | None = None,
                 initialize_retry_ms: int = INITIALIZE_RETRY_INTERVAL_MS, groups: dict | None = None):
        """stored_state(key, topic, partition): a share-partition's persisted state when this node
        first leads it: (start offset, batches, state epoch) (start offset -1: initialized, not
        started), None when nothing is persisted, NOT_READY while it is being read from the share
        coordinator (the broker's persister).

        initialize_state(group_id, state_epoch, {topic_id: sorted partitions}): initialize those
        share-partitions' state (start offset -1) -> {topic_id: partitions} initialized at once; the
        others are reported later through initialize_done. Without it every one is at once.

        groups: the one group map (GroupCoordinator.groups) the share groups live in (default: a map
        of their own)."""
        self.settings = settings or (lambda gid: {})
        self.initialize_state = initialize_state or (lambda gid, epoch, parts: parts)
        self.initialize_retry_ms = initialize_retry_ms
        self.offsets = offsets or (lambda topic, partition: None)
        # (topic, partition, timestamp) -> the first offset of a record at or after it (None: none yet),
        # for share.auto.offset.reset=by_duration:<duration>; clock_ms: now, for the same
        self.offset_for_timestamp = offset_for_timestamp or (lambda topic, partition, ts: None)
        self.clock_ms = clock_ms or (lambda: 0)
        self.stored_state = stored_state or (lambda key, topic, partition: None)
        self.groups: TypedGroups[ShareGroup] = TypedGroups({} if groups is None else groups, ShareGroup)
        # (group_id, topic_id, partition) -> SharePartition
        self.partitions: dict[tuple, SharePartition] = {}
        self.sessions: dict[tuple, ShareSession] = {}  # (group_id, member_id) -> ShareSession
        self.max_share_sessions = max_share_sessions
        self.max_group_size = max_group_size
        # removed since last persisted: share-partition keys and group ids (tombstones to write)
        self._gone_partitions: set = set()
        self._gone_groups: set = set()
        # groups whose last share session here closed: their share-partitions leave the cache once
        # written (Kafka's ShareGroupListener.onGroupEmpty), so that the next fetch reads the state
        # the share coordinator holds then (AlterShareGroupOffsets' or DeleteShareGroupOffsets' on
        # a group coordinator elsewhere)
        self._emptied: set = set()
        self._topics: dict | None = None  # the metadata snapshot of the last heartbeat

    # ------------------------------------------------------------------ settings

    def share_settings(self, group_id: str) -> ShareSettings:
        s = self.settings(group_id)
        return ShareSettings(
            record_lock_duration_ms=_int_setting(s, "share.record.lock.duration.ms", 30000),
            delivery_count_limit=_int_setting(s, "share.delivery.count.limit", 5),
            max_record_locks=_int_setting(s, "share.partition.max.record.locks", 2000))

    def _session_timeout(self, group_id: str) -> int:
        return _int_setting(self.settings(group_id), "share.session.timeout.ms", 45000)

    def _heartbeat_interval(self, group_id: str) -> int:
        return _int_setting(self.settings(group_id), "share.heartbeat.interval.ms", 5000)

    # ------------------------------------------------------------------ membership

    def heartbeat(self, group_id: str, member_id: str, member_epoch: int, subscribed: list | None,
                  rack_id: str | None, client_id: str, client_host: str, now_ms: int,
                  topics: dict, is_other_group: bool = False) -> HeartbeatResult:
        """ShareGroupHeartbeat v1. Raises CoordinatorError with Kafka's error and message."""
        if not group_id:
            raise CoordinatorError(E.INVALID_REQUEST, "GroupId can't be empty.")
        if not member_id:
            raise CoordinatorError(E.INVALID_REQUEST, "MemberId can't be empty.")
        if rack_id is not None and not rack_id:
            raise CoordinatorError(E.INVALID_REQUEST, "RackId can't be empty.")
        if member_epoch < LEAVE_GROUP_MEMBER_EPOCH:
            raise CoordinatorError(E.INVALID_REQUEST, f"MemberEpoch is {member_epoch}, but must be greater than or "
                                               "equal to -1.")
        if member_epoch == 0 and not subscribed:
            raise CoordinatorError(E.INVALID_REQUEST, "SubscribedTopicNames must be set in first request.")
        if is_other_group:
            raise CoordinatorError(E.GROUP_ID_NOT_FOUND, f"Group {group_id} is not a share group.")
        if member_epoch == LEAVE_GROUP_MEMBER_EPOCH:
            return self._leave(group_id, member_id, now_ms, topics)
        g = self.groups.get(group_id)
        if g is None:
            if member_epoch != 0:
                raise CoordinatorError(E.GROUP_ID_NOT_FOUND, f"Group {group_id} not found.")
            g = self.groups[group_id] = ShareGroup(group_id)
        m = g.members.get(member_id)
        full = member_epoch == 0 or subscribed is not None
        if m is None:
            if member_epoch != 0:
                if not g.members and g.group_epoch == INITIAL_GROUP_EPOCH:
                    del self.groups[group_id]
                raise CoordinatorError(E.UNKNOWN_MEMBER_ID,
                                       f"Member {member_id} is not a member of group {group_id}.")
            if len(g.members) >= self.max_group_size:
                raise CoordinatorError(E.GROUP_MAX_SIZE_REACHED,
                                       f"The share group has reached its maximum capacity of "
                                       f"{self.max_group_size} members.")
            m = g.members[member_id] = ShareMember(member_id)
            bump = True
        else:
            if member_epoch != 0 and member_epoch != m.member_epoch:
                raise CoordinatorError(E.FENCED_MEMBER_EPOCH,
                                       f"The share group member has a smaller member epoch ({member_epoch}) than "
                                       f"the one known by the group coordinator ({m.member_epoch}). The member must "
                                       "abandon all its partitions and rejoin.")
            bump = False
        m.client_id, m.client_host = client_id, client_host
        if rack_id is not None:
            m.rack_id = rack_id
        if subscribed is not None and tuple(sorted(set(subscribed))) != m.subscribed:
            m.subscribed = tuple(sorted(set(subscribed)))
            bump = True
        h = _metadata_hash(topics, g.subscribed_names())
        if h != g.metadata_hash:
            g.metadata_hash = h
            bump = True
        if bump:
            g.group_epoch += 1
        self._initialize(g, topics, now_ms)
        if not bump and g.assignment_epoch >= g.group_epoch and self._assignment_pending(g):
            g.group_epoch += 1  # partitions initialized since the last assignment
        if g.group_epoch > g.assignment_epoch and self._may_assign(g, now_ms):
            self._assign(g, topics, now_ms)
        self._topics = topics
        m.session_deadline_ms = now_ms + self._session_timeout(group_id)
        changed = member_epoch == 0
        if m.member_epoch != g.assignment_epoch:
            new = g.target.get(member_id, {})
            changed = changed or new != m.assignment
            m.assignment = new
            m.member_epoch = g.assignment_epoch
        return HeartbeatResult(member_id, m.member_epoch, self._heartbeat_interval(group_id),
                               dict(m.assignment) if (changed or full) else None)

    def _may_assign(self, g: ShareGroup, now_ms: int) -> bool:
        """Kafka 4.3's canComputeNextTargetAssignment: a group's next target assignment waits for its
        share.assignment.interval.ms (group.share.assignment.interval.ms) after the last one (none
        yet, or an interval of 0: at once); meanwhile a member gets its part of the last target, at
        its epoch."""
        interval = _int_setting(self.settings(g.group_id), "share.assignment.interval.ms", 1000)
        last = g.assignment_timestamp_ms
        return last == 0 or interval == 0 or now_ms >= last + interval

    def _assign(self, g: ShareGroup, topics: dict, now_ms: int) -> None:
        """The target assignment of the group's initialized subscribed partitions."""
        names = {n: topics[n] for n in g.subscribed_names() if n in topics}
        assignable = {bytes(tid): sorted(p for p in g.initialized.get(bytes(tid), ()) if p < n)
                      for _, (tid, n) in names.items()}
        members = {mid: {bytes(topics[t][0]) for t in m.subscribed if t in topics} for mid, m in g.members.items()}
        g.target = simple_assign(members, assignable)
        g.assignment_epoch = g.group_epoch
        g.assignment_timestamp_ms = now_ms

    def _initialize(self, g: ShareGroup, topics: dict, now_ms: int) -> None:
        """Kafka's subscribedTopicsChangeMap and InitializeShareGroupState: the subscribed partitions
        neither initialized nor initializing for less than the retry interval are initialized at the
        group's epoch."""
        pending: dict = {}
        for name in sorted(g.subscribed_names()):
            t = topics.get(name)
            if t is None:
                continue
            tid, count = bytes(t[0]), t[1]
            have = set(g.initialized.get(tid, ()))
            under_way = g.initializing.get(tid)
            if under_way is not None and now_ms - under_way[1] < self.initialize_retry_ms:
                have |= under_way[0]
            missing = [p for p in range(count) if p not in have]
            if missing:
                pending[tid] = missing
                g.topic_names[tid] = name
        if not pending:
            return
        for tid, ps in pending.items():
            before = g.initializing.get(tid)
            g.initializing[tid] = ((before[0] if before else set()) | set(ps), now_ms)
        self.initialize_done(g.group_id, self.initialize_state(g.group_id, g.group_epoch, pending), True)

    def initialize_done(self, group_id: str, parts: dict, ok: bool) -> None:
        """The initialization of share-partitions {topic_id: partitions} finished: they are
        initialized (ok) or forgotten, to be initialized again by a later heartbeat (failed)."""
        g = self.groups.get(group_id)
        if g is None:
            return
        for tid, ps in parts.items():
            under_way = g.initializing.get(tid)
            if under_way is not None:
                rest = under_way[0] - set(ps)
                if rest:
                    g.initializing[tid] = (rest, under_way[1])
                else:
                    del g.initializing[tid]
            if ok and ps:
                g.initialized.setdefault(tid, set()).update(ps)

    def _assignment_pending(self, g: ShareGroup) -> bool:
        """Kafka's initializedAssignmentPending: a subscribed topic whose initialized partitions are not
        the ones assigned (some were initialized since)."""
        if not g.members or not g.initialized:
            return False
        subscribed = g.subscribed_names()
        assigned: dict = {}
        for parts in g.target.values():
            for tid, ps in parts.items():
                assigned.setdefault(tid, set()).update(ps)
        return any(ps and g.topic_names.get(tid) in subscribed and assigned.get(tid, set()) != ps
                   for tid, ps in g.initialized.items())

    def _leave(self, group_id: str, member_id: str, now_ms: int, topics: dict) -> HeartbeatResult:
        g = self.groups.get(group_id)
        if g is None:
            raise CoordinatorError(E.GROUP_ID_NOT_FOUND, f"Group {group_id} not found.")
        if member_id not in g.members:
            raise CoordinatorError(E.UNKNOWN_MEMBER_ID, f"Member {member_id} is not a member of group {group_id}.")
        released = self._remove_member(g, member_id, now_ms, topics)
        return HeartbeatResult(member_id, LEAVE_GROUP_MEMBER_EPOCH, 0, None, released)

    def _remove_member(self, g: ShareGroup, member_id: str, now_ms: int, topics: dict | None) -> set:
        """The member goes from the group. Its share session and the records it holds stay, as
        Kafka's: the group coordinator does not tell the share-partition leaders; the session ends
        with the member's final-epoch ShareFetch/ShareAcknowledge (librdkafka sends its leave first,
        then the final acknowledgements) or its connection's close, and records not acknowledged
        become available when their acquisition locks expire. Nothing is released: empty set."""
        g.members.pop(member_id, None)
        g.target.pop(member_id, None)
        release_emptied(g.members, g.target)
        released: set = set()
        # Kafka 4.3's shareGroupFenceMember: a new group epoch and metadata hash (without the member);
        # the next heartbeat computes the target (once the assignment interval allows)
        g.group_epoch += 1
        topics = topics if topics is not None else self._topics  # a session expiry: the last heartbeat's
        if topics is not None:
            g.metadata_hash = _metadata_hash(topics, g.subscribed_names())
        return released

    # ------------------------------------------------------------------ share-partitions

    def share_partition(self, group_id: str, topic_id: bytes, topic: str, partition: int) -> SharePartition | None:
        """The share-partition led here: as persisted, else started from share.auto.offset.reset (not
        written until something changes, as Kafka's leader). None when the partition is not led
        here, or while its persisted state is being read."""
        key = (group_id, bytes(topic_id), partition)
        sp = self.partitions.get(key)
        if sp is None or sp.start_offset < 0:  # negative: altered to "uninitialized" (-1), as Kafka reads it
            bounds = self.offsets(topic, partition)
            if bounds is None:
                return None
            state_epoch = 0 if sp is None else sp.state_epoch
            if sp is None:
                stored = self.stored_state(key, topic, partition)
                if stored is NOT_READY:
                    return None
                if stored is not None:
                    start, batches, state_epoch = stored
                    if start >= 0 or batches:
                        sp = self.partitions[key] = SharePartition.restore(start, batches, state_epoch)
                        if sp.start_offset >= 0:
                            return sp
            sp = self.partitions[key] = SharePartition(
                self._reset_offset(group_id, topic, partition, bounds), state_epoch, dirty=False)
        return sp

    def _reset_offset(self, group_id: str, topic: str, partition: int, bounds: tuple) -> int:
        """Kafka 4.3's SharePartition.startOffsetDuringInitialization: share.auto.offset.reset's offset,
        the log start (earliest), the high watermark (latest), or the first record at or after now
        less the duration (by_duration:PnDTnHnMn.nS); none there yet is Kafka's OffsetNotAvailable."""
        log_start, log_end = bounds
        reset = str(self.settings(group_id).get("share.auto.offset.reset", "latest")).strip()
        if reset == "earliest":
            return log_start
        if not reset.startswith("by_duration:"):
            return log_end
        ts = self.clock_ms() - iso_duration_ms(reset.removeprefix("by_duration:"))
        offset = self.offset_for_timestamp(topic, partition, ts)
        if offset is None:
            raise OffsetNotAvailable(f"Offset for timestamp {ts} not found for topic partition: {topic}-{partition}")
        return min(offset, log_end)

    def unload_partition(self, topic_id: bytes, partition: int) -> None:
        """This node no longer leads the topic-partition: its share-partitions go (the next leader
        reads them from the share coordinator)."""
        for key in [k for k in self.partitions if k[1] == bytes(topic_id) and k[2] == partition]:
            del self.partitions[key]
        self._gone_partitions -= {k for k in self._gone_partitions if k[1] == bytes(topic_id) and k[2] == partition}

    def forget_topic(self, topic_id: bytes) -> None:
        """A deleted topic's share-partitions go with it (a re-created topic has a new id)."""
        for key in [k for k in self.partitions if k[1] == bytes(topic_id)]:
            del self.partitions[key]
            self._gone_partitions.add(key)
        for g in self.groups.values():
            g.initialized.pop(bytes(topic_id), None)
            g.initializing.pop(bytes(topic_id), None)

    def release_member(self, group_id: str, member_id: str) -> set:
        """Release every record member_id holds in the group; the share-partitions touched."""
        settings = self.share_settings(group_id)
        touched = set()
        for key, sp in self.partitions.items():
            if key[0] == group_id and sp.release_member(member_id, settings):
                touched.add(key)
        return touched

    # ------------------------------------------------------------------ share sessions

    def open_session(self, group_id: str, member_id: str, epoch: int, connection_id: str = ""):
        """ShareFetch/ShareAcknowledge session handling: (session | None, error).

        epoch 0 opens a new session (replacing one the member had) bound to connection_id; -1 closes
        it (the caller releases the member's records); other epochs must match the session's next
        epoch.
        """
        key = (group_id, member_id)
        if epoch == 0:
            if key not in self.sessions and len(self.sessions) >= self.max_share_sessions:
                return None, E.SHARE_SESSION_LIMIT_REACHED
            s = self.sessions[key] = ShareSession(group_id, member_id, connection_id)
            return s, E.NONE
        s = self.sessions.get(key)
        if s is None:
            return None, E.SHARE_SESSION_NOT_FOUND
        if epoch == -1:
            return s, E.NONE
        if epoch != s.epoch:
            return None, E.INVALID_SHARE_SESSION_EPOCH
        s.epoch = s.epoch + 1 if s.epoch < 2**31 - 1 else 1
        return s, E.NONE

    def close_session(self, group_id: str, member_id: str) -> set:
        if self.sessions.pop((group_id, member_id), None) is not None and \
                not any(g == group_id for g, _ in self.sessions):
            self._emptied.add(group_id)
        return self.release_member(group_id, member_id)

    def connection_closed(self, connection_id: str) -> set:
        """A client connection closed: the share sessions it opened end and their members' records
        are released (Kafka's ShareSessionCache disconnect listener -> releaseSession). A session the
        member opened again on another connection is not this connection's. The share-partitions
        released."""
        released: set = set()
        for group_id, member_id in [k for k, s in self.sessions.items() if s.connection_id == connection_id]:
            released |= self.close_session(group_id, member_id)
        return released

    def _drop_emptied(self) -> None:
        """The share-partitions of groups without a share session here, once written and holding no
        acquired record, leave the cache (they are read again at the next fetch)."""
        for gid in list(self._emptied):
            if any(g == gid for g, _ in self.sessions):
                self._emptied.discard(gid)
                continue
            keys = [k for k in self.partitions if k[0] == gid]
            kept = [k for k in keys if self.partitions[k].dirty or self.partitions[k].has_acquired()]
            for k in keys:
                if k not in kept:
                    del self.partitions[k]
            if not kept:
                self._emptied.discard(gid)

    def end_session(self, group_id: str, member_id: str) -> ShareResult[None]:
        """ShareFetch/ShareAcknowledge at the final epoch: the session closes, the member's records
        are released."""
        return ShareResult(None, self.close_session(group_id, member_id))

    def acknowledge(self, group_id: str, member_id: str, batches_by_partition: dict,
                    topic_exists: Callable[[bytes], bool], now_ms: int) -> ShareResult[dict]:
        """ShareFetch/ShareAcknowledge acknowledgements: batches_by_partition {(topic_id, partition):
        [AcknowledgementBatch]} -> {(topic_id, partition): error}; the first failing batch of a
        partition is its error (later ones still apply, as Kafka). The partitions acknowledged are
        woken (released records are acquirable again); the broker persists them before answering."""
        settings = self.share_settings(group_id)
        out = {}
        touched = set()
        for (topic_id, partition), batches in batches_by_partition.items():
            if not topic_exists(topic_id):
                out[(topic_id, partition)] = E.UNKNOWN_TOPIC_ID
                continue
            sp = self.partitions.get((group_id, topic_id, partition))
            if sp is None:
                out[(topic_id, partition)] = E.INVALID_RECORD_STATE
                continue
            err = E.NONE
            for ab in batches:
                e = sp.acknowledge(member_id, ab.first_offset, ab.last_offset, list(ab.acknowledge_types),
                                   now_ms, settings)
                if e and not err:
                    err = e
            out[(topic_id, partition)] = err
            touched.add((group_id, topic_id, partition))
        return ShareResult(out, touched)

    # ------------------------------------------------------------------ admin

    def describe(self, group_id: str, names_by_id: dict) -> dict:
        g = self.groups.get(group_id)
        if g is None:
            raise CoordinatorError(E.GROUP_ID_NOT_FOUND, f"Group {group_id} not found.")
        return {"group_id": g.group_id, "state": g.state, "group_epoch": g.group_epoch,
                "assignment_epoch": g.assignment_epoch, "assignor": "simple",
                "members": list(g.members.values())}

    def list_groups(self) -> list:
        return [(g.group_id, g.state) for g in self.groups.values()]

    def group_partitions(self, group_id: str) -> dict:
        """{(topic_id, partition): SharePartition} of the group led here."""
        return {(k[1], k[2]): sp for k, sp in self.partitions.items() if k[0] == group_id}

    def initialized_partitions(self, group_id: str) -> set:
        """{(topic_id, partition)} the group has initialized (its share-partitions led here too)."""
        g = self.groups.get(group_id)
        out = {(k[1], k[2]) for k in self.partitions if k[0] == group_id}
        if g is not None:
            out.update((tid, p) for tid, ps in g.initialized.items() for p in ps)
        return out

    def alter_offsets(self, group_id: str, requested: list, topics: dict, is_other_group: bool = False) -> list:
        """AlterShareGroupOffsets: set the start offset (SPSO) of share-partitions of an empty group;
        each one named starts afresh there (nothing in flight), as Kafka's share coordinator
        initializes it. A group that does not exist is created (Empty) when a named topic exists.

        requested: [(topic name, [(partition, start offset)])] in request order; topics: {name:
        (topic_id, partition count)}. Returns [(topic name, topic id | None, [(partition, error,
        message)])]: unknown topics first, then the others, a name named twice merged into one.
        Raises CoordinatorError for the group's own errors."""
        if is_other_group:
            raise CoordinatorError(E.GROUP_ID_NOT_FOUND, f"Group {group_id} is not a share group.")
        g = self.groups.get(group_id)
        if g is not None and g.members:
            raise CoordinatorError(E.NON_EMPTY_GROUP, "The group is not empty.")
        unknown: dict = {}
        known: dict = {}
        state_epoch = g.group_epoch if g is not None else 1  # Kafka initializes them at the group's epoch
        for name, parts in requested:
            if name not in topics:
                unknown.setdefault(name, []).extend(
                    (p, E.UNKNOWN_TOPIC_OR_PARTITION, E.UNKNOWN_TOPIC_OR_PARTITION.message) for p, _ in parts)
                continue
            tid, count = topics[name]
            rows = known.setdefault(name, [])
            for p, offset in parts:
                if not 0 <= p < count:
                    rows.append((p, E.UNKNOWN_TOPIC_OR_PARTITION, E.UNKNOWN_TOPIC_OR_PARTITION.message))
                    continue
                key = (group_id, bytes(tid), p)
                sp = self.partitions.get(key)
                if sp is None:
                    self.partitions[key] = SharePartition(offset, state_epoch)
                else:
                    sp.reset(offset)
                    sp.state_epoch = state_epoch
                rows.append((p, E.NONE, None))
        if g is None and known:
            # Kafka's new share group: Empty, epochs 1 (what ShareGroupDescribe shows)
            g = self.groups[group_id] = ShareGroup(group_id, group_epoch=1, assignment_epoch=1)
        if g is not None:
            for name, rows in known.items():
                tid = bytes(topics[name][0])
                done = {p for p, err, _ in rows if not err}
                g.initialized.setdefault(tid, set()).update(done)
                g.topic_names[tid] = name
                self.initialize_done(group_id, {tid: done}, True)
        return [(n, None, rows) for n, rows in unknown.items()] + \
            [(n, bytes(topics[n][0]), rows) for n, rows in known.items()]

    def delete_offsets(self, group_id: str, names: list, topics: dict, is_other_group: bool = False) -> list:
        """DeleteShareGroupOffsets: forget the share-partition state of whole topics of an empty
        group (its next member starts them from share.auto.offset.reset).

        names: topic names in request order; topics: {name: (topic_id, partition count)}. Returns
        [(topic name, topic id | None, error, message)]: the topics deleted, then the others in
        request order, as Kafka. Raises CoordinatorError for the group's own errors."""
        if is_other_group:
            raise CoordinatorError(E.GROUP_ID_NOT_FOUND, f"Group {group_id} is not a share group.")
        g = self.groups.get(group_id)
        if g is None:
            raise CoordinatorError(E.GROUP_ID_NOT_FOUND, f"Group {group_id} not found.")
        if g.members:
            raise CoordinatorError(E.NON_EMPTY_GROUP, "The group is not empty.")
        deleted: dict = {}
        errors = []
        for name in names:
            t = topics.get(name)
            if t is None:
                errors.append((name, None, E.UNKNOWN_TOPIC_OR_PARTITION, E.UNKNOWN_TOPIC_OR_PARTITION.message))
                continue
            tid = bytes(t[0])
            keys = {k for k in self.partitions if k[0] == group_id and k[1] == tid}
            keys.update((group_id, tid, p) for p in g.initialized.get(tid, ()))  # (led elsewhere too)
            if not keys and tid not in deleted:
                errors.append((name, None, E.UNKNOWN_TOPIC_OR_PARTITION, "There is no offset information to delete."))
                continue
            for k in sorted(keys):
                self.partitions.pop(k, None)
                self._gone_partitions.add(k)
            g.initialized.pop(tid, None)
            deleted.setdefault(tid, name)
        return [(name, tid, E.NONE, None) for tid, name in deleted.items()] + errors

    def delete_group(self, group_id: str) -> ErrorCode:
        g = self.groups.get(group_id)
        if g is None:
            return E.GROUP_ID_NOT_FOUND
        if g.members:
            return E.NON_EMPTY_GROUP
        keys = {(group_id, tid, p) for tid, p in self.initialized_partitions(group_id)}
        keys.update((group_id, tid, p) for tid, (ps, _) in g.initializing.items() for p in ps)  # (as Kafka)
        keys = sorted(keys)
        del self.groups[group_id]
        self._gone_groups.add(group_id)
        for key in keys:
            self.partitions.pop(key, None)
            self._gone_partitions.add(key)
        return E.NONE

    # ------------------------------------------------------------------ persistence

    def has_changes(self) -> bool:
        return bool(self._gone_groups or self._gone_partitions) or \
            any(g.persisted_epoch != g.group_epoch or g.initialized_changed() for g in self.groups.values()) or \
            any(sp.dirty for sp in self.partitions.values())

    def changes(self) -> tuple[list, list]:
        """What changed since it was last persisted (share_state.py has the records): groups
        [(group_id, epoch | None for deleted, metadata_hash, {topic_id: (name, sorted partitions)}
        initialized, the same of those initializing)] and share-partitions [((group_id,
        topic_id, partition), SharePartition | None for deleted)]. Nothing is marked: ``persisted``
        does, for what was written."""
        groups = [(gid, None, 0, {}, {}) for gid in sorted(self._gone_groups) if gid not in self.groups]
        groups += [(g.group_id, g.group_epoch, g.metadata_hash,
                    {t: (g.topic_names.get(t, ""), sorted(ps)) for t, ps in g.initialized.items() if ps},
                    {t: (g.topic_names.get(t, ""), sorted(ps)) for t, (ps, _) in g.initializing.items() if ps})
                   for g in self.groups.values() if g.persisted_epoch != g.group_epoch or g.initialized_changed()]
        parts = [(k, None) for k in sorted(self._gone_partitions) if k not in self.partitions]
        parts += [(k, sp) for k, sp in self.partitions.items() if sp.dirty]
        return groups, parts

    def persisted(self, groups: list, parts: list) -> None:
        """These entries of ``changes()`` are written (as they were then: nothing runs in between)."""
        for gid, epoch, _, initialized, initializing in groups:
            g = self.groups.get(gid)
            if epoch is None:
                self._gone_groups.discard(gid)
            elif g is not None:
                g.persisted_epoch = epoch
                g.persisted_initialized = {t: set(ps) for t, (_, ps) in initialized.items()}
                g.persisted_initializing = {t: set(ps) for t, (_, ps) in initializing.items()}
        for key, sp in parts:
            if sp is None:
                self._gone_partitions.discard(key)
            else:
                sp.written()

    def restore_group(self, group_id: str, epoch: int | None, metadata_hash: int = 0) -> None:
        """Start-up: a group as last persisted (epoch None: deleted). Its members are not kept: they
        rejoin (a member heartbeating its old epoch is answered UNKNOWN_MEMBER_ID)."""
        if epoch is None:
            self.groups.pop(group_id, None)
            return
        self.groups[group_id] = ShareGroup(group_id, group_epoch=epoch, assignment_epoch=epoch,
                                           metadata_hash=metadata_hash, persisted_epoch=epoch)

    def restore_initialized(self, group_id: str, initialized: dict, initializing: dict | None = None) -> None:
        """Start-up: the share-partitions a group had initialized and was initializing, {topic_id:
        (name, partitions)} (those initializing are initialized again by the next heartbeat: when
        they were asked is not recorded)."""
        g = self.groups.get(group_id)
        if g is not None:
            initializing = initializing or {}
            g.initialized = {t: set(ps) for t, (_, ps) in initialized.items()}
            g.initializing = {t: (set(ps), -self.initialize_retry_ms) for t, (_, ps) in initializing.items()}
            g.topic_names = {t: name for t, (name, _) in {**initializing, **initialized}.items()}
            g.persisted_initialized = {t: set(ps) for t, ps in g.initialized.items() if ps}
            g.persisted_initializing = {t: set(ps) for t, (ps, _) in g.initializing.items() if ps}

    def restore_partition(self, key: tuple, start_offset: int | None, batches=(), state_epoch: int = 0) -> None:
        """Start-up: a share-partition as last persisted (start_offset None: deleted)."""
        if start_offset is None:
            self.partitions.pop(key, None)
            return
        self.partitions[key] = SharePartition.restore(start_offset, batches, state_epoch)

    # ------------------------------------------------------------------ time

    def tick(self, now_ms: int) -> set:
        """Expire members past their session timeout and acquisition locks past their deadline (and
        let go of the share-partitions of groups without a session here); returns the share-partitions
        (group, topic_id, partition) whose records became available."""
        self._drop_emptied()
        touched = set()
        for g in list(self.groups.values()):
            for m in list(g.members.values()):
                if now_ms >= m.session_deadline_ms:
                    touched |= self._remove_member(g, m.member_id, now_ms, None)
        settings_cache: dict = {}
        for key, sp in self.partitions.items():
            st = settings_cache.get(key[0])
            if st is None:
                st = settings_cache[key[0]] = self.share_settings(key[0])
            if sp.expire_locks(now_ms, st):
                touched.add(key)
        return touched
