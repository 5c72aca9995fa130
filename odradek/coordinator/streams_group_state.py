"""The data of one KIP-1071 streams group, task reconciliation and the sticky task assignor.

Tasks are {subtopology id: set(partitions)}; Tasks holds a member's active, standby and warm-up
tasks. reconcile() is Kafka's streams CurrentAssignmentBuilder (4.3): a member first revokes the
tasks it must give up (UNREVOKED_TASKS, epoch unchanged), then takes the tasks nobody holds any more
(epoch = target epoch; UNRELEASED_TASKS while some are still held). An active task is unreleased
while another member owns it or while a standby/warm-up copy of it sits on the member's own
process; a standby or warm-up task while the member's process holds it in any role.
assign() is a sticky, balanced task assignor in the spirit of Kafka's StickyTaskAssignor.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import ClassVar

from odradek.wire.errors import ErrorCode

from . import streams_group_records as srec
from .group_model import (
    INITIAL_GROUP_EPOCH,
    STREAMS,
    IndexedMembers,
    MemberEpochGroup,
    MemberEpochMember,
    assignment_diff,
    member_tombstones,
)

E = ErrorCode

# Kafka's streams MemberState bytes
STABLE = 0
UNREVOKED_TASKS = 1
UNRELEASED_TASKS = 2
UNKNOWN = 127

LEAVE_GROUP_MEMBER_EPOCH = -1
LEAVE_GROUP_STATIC_MEMBER_EPOCH = -2


def _copy_tasks(d: dict) -> dict:
    return {s: set(ps) for s, ps in d.items() if ps}


@dataclass
class Tasks:
    """A streams member's tasks: subtopology id -> partitions, per kind."""
    active: dict = field(default_factory=dict)
    standby: dict = field(default_factory=dict)
    warmup: dict = field(default_factory=dict)

    def copy(self) -> "Tasks":
        return Tasks(_copy_tasks(self.active), _copy_tasks(self.standby), _copy_tasks(self.warmup))

    def is_empty(self) -> bool:
        return not any(ps for d in (self.active, self.standby, self.warmup) for ps in d.values())

    def __eq__(self, other) -> bool:
        if not isinstance(other, Tasks):
            return NotImplemented
        return (_copy_tasks(self.active), _copy_tasks(self.standby), _copy_tasks(self.warmup)) == (
            _copy_tasks(other.active), _copy_tasks(other.standby), _copy_tasks(other.warmup))

    def contains_any(self, other: "Tasks") -> bool:
        for mine, theirs in ((self.active, other.active), (self.standby, other.standby),
                             (self.warmup, other.warmup)):
            for s, ps in theirs.items():
                if mine.get(s, set()) & ps:
                    return True
        return False

    def is_subset_of(self, other: "Tasks") -> bool:
        for mine, theirs in ((self.active, other.active), (self.standby, other.standby),
                             (self.warmup, other.warmup)):
            for s, ps in mine.items():
                if ps - theirs.get(s, set()):
                    return False
        return True


@dataclass(slots=True)
class StreamsMember(MemberEpochMember):
    """A member of a streams group."""
    previous_member_epoch: int = -1
    topology_epoch: int = -1
    process_id: str = ""
    user_endpoint: tuple | None = None  # (host, port)
    client_tags: dict = field(default_factory=dict)
    assigned: Tasks = field(default_factory=Tasks)
    pending_revocation: Tasks = field(default_factory=Tasks)
    # (subtopology, partition) -> the epoch at which the member got that active task (assigned or
    # pending revocation); an older member epoch may still commit offsets of it (Kafka 4.3)
    active_epochs: dict = field(default_factory=dict)

    def metadata(self) -> tuple:
        return (self.instance_id, self.rack_id, self.client_id, self.client_host, self.rebalance_timeout_ms,
                self.topology_epoch, self.process_id, self.user_endpoint, tuple(sorted(self.client_tags.items())))


_KINDS = ("active", "standby", "warmup")


class StreamsMembers(IndexedMembers):
    """A streams group's members (member_id -> StreamsMember) with the processes holding each task
    kept as they change (Kafka 4.3's StreamsGroup currentActiveTaskToProcessId,
    currentStandbyTaskToProcessIds, currentWarmupTaskToProcessIds), so that a member's
    reconciliation looks up who still holds a task instead of walking the group. A task is held by
    the members that have it assigned or pending revocation; each kind maps (subtopology, partition)
    to {process id: how many of its members hold it}. Members are replaced, never changed in place
    (StreamsMember.copy), so storing one (``members[id] = m``) is where the index follows."""

    def __init__(self, *args, **kwargs):
        super().__init__()
        self.held: dict[str, dict[tuple, dict[str, int]]] = {kind: {} for kind in _KINDS}
        for mid, m in dict(*args, **kwargs).items():
            self[mid] = m

    def _reset(self) -> None:
        for table in self.held.values():
            table.clear()

    def _count(self, m: "StreamsMember", by: int) -> None:
        pid = m.process_id
        for kind in _KINDS:
            table = self.held[kind]
            for tasks in (m.assigned, m.pending_revocation):
                for s, ps in getattr(tasks, kind).items():
                    for p in ps:
                        procs = table.setdefault((s, p), {})
                        n = procs.get(pid, 0) + by
                        if n > 0:
                            procs[pid] = n
                        else:
                            procs.pop(pid, None)
                            if not procs:
                                del table[(s, p)]

    def active_held(self, s: str, p: int) -> bool:
        """Whether any member holds the task as active."""
        return (s, p) in self.held["active"]

    def on_process(self, kind: str, s: str, p: int, pid: str) -> bool:
        """Whether a member of process ``pid`` holds the task as ``kind``."""
        return pid in self.held[kind].get((s, p), ())


@dataclass
class StreamsGroup(MemberEpochGroup):
    """A KIP-1071 streams group (GroupModel)."""
    group_type: ClassVar[str] = STREAMS
    # members: member_id -> StreamsMember; target: member_id -> Tasks
    members: StreamsMembers = field(default_factory=StreamsMembers)
    group_epoch: int = INITIAL_GROUP_EPOCH
    assignment_epoch: int = INITIAL_GROUP_EPOCH
    # no member is past a deadline before this (the tick walks the members from then on; 0: walk)
    deadlines_checked_until: int = 0
    validated_topology_epoch: int = -1
    assignment_configs: dict = field(default_factory=dict)
    topology: object = None  # StreamsGroupTopologyValue
    configured: object = None  # streams_topology.ConfiguredTopology (not persisted)
    endpoint_information_epoch: int = 0  # not persisted
    shutdown_requested_by: str | None = None
    assignment_timestamp_ms: int | None = None  # when the last target assignment was computed
    initial_delay_deadline_ms: int | None = None  # the first assignment waits until then (not persisted)

    @property
    def state(self) -> str:
        """Kafka's StreamsGroupState: Empty, NotReady, Assigning, Reconciling, Stable."""
        if not self.members:
            return "Empty"
        if self.topology is None or self.topology.epoch != self.validated_topology_epoch:
            return "NotReady"
        if self.group_epoch > self.assignment_epoch:
            return "Assigning"
        for m in self.members.values():
            if m.state != STABLE or m.member_epoch != self.assignment_epoch:
                return "Reconciling"
        return "Stable"

    # ------------------------------------------------------------------ GroupModel

    def state_key(self) -> str:
        # Kafka's lower-case state names: NotReady is "not_ready"
        st = self.state
        return "not_ready" if st == "NotReady" else st.lower()

    def source_topics(self) -> dict:
        """{topic: [subtopology ids]} of the topology's source and repartition source topics."""
        by_topic: dict = {}
        for s in (self.topology.subtopologies if self.topology is not None else None) or []:
            for t in list(s.source_topics or []) + [x.name for x in s.repartition_source_topics or []]:
                by_topic.setdefault(t, []).append(s.subtopology_id)
        return by_topic

    def validate_commit(self, member_id, instance_id, epoch, partitions, transactional, api_version, now_ms,
                        topics) -> dict | ErrorCode:
        """Kafka 4.3's StreamsGroup.validateOffsetCommit -> an error for the whole request, or
        {(topic, partition): error} when an older member epoch commits (allowed for the partitions
        of active tasks the member got at or before that epoch)."""
        if epoch < 0 and not self.members:
            return E.NONE
        if transactional and epoch == -1 and not member_id:
            return E.NONE
        m = self.committing_member(member_id, transactional, api_version)
        if isinstance(m, ErrorCode):
            return m
        if epoch > m.member_epoch:
            return E.STALE_MEMBER_EPOCH
        if epoch == m.member_epoch:
            return E.NONE
        by_topic = self.source_topics()
        out = {}
        for topic, p in partitions:
            ok = False
            for sid in by_topic.get(topic, []):
                at = m.active_epochs.get((sid, p))
                if at is not None and epoch >= at:
                    ok = True
            out[(topic, p)] = E.NONE if ok else E.STALE_MEMBER_EPOCH
        return out

    def offsets_subscribed(self) -> set:
        if self.topology is None or not self.members:
            return set()
        return set(self.source_topics())

    def tombstones(self) -> list:
        gid = self.group_id
        out = member_tombstones(srec, gid, self.members, self.target)
        out.append(srec.group_metadata(gid, None))
        out.append(srec.topology(gid, None))
        return out


def reconcile(member: StreamsMember, target_epoch: int, target: Tasks, owners: StreamsMembers,
              owned: Tasks | None) -> StreamsMember:
    """Kafka's CurrentAssignmentBuilder.build(): the member's next state (a new object or the same).
    ``owners``: the group's members as they are before this heartbeat (the member itself included,
    as Kafka's task-to-process maps)."""
    st = member.state
    if st == STABLE:
        if member.member_epoch != target_epoch:
            return _compute_next(member, member.member_epoch, target_epoch, target, owners, owned)
        return member
    if st == UNREVOKED_TASKS:
        if owned is None or owned.contains_any(member.pending_revocation):
            return member
        return _compute_next(member, member.member_epoch, target_epoch, target, owners, owned)
    if st == UNRELEASED_TASKS:
        return _compute_next(member, member.member_epoch, target_epoch, target, owners, owned)
    return _compute_next(member, target_epoch, target_epoch, target, owners, owned)


def _compute_next(member, member_epoch, target_epoch, target: Tasks, owners: StreamsMembers, owned
                  ) -> StreamsMember:
    pid = member.process_id
    on = owners.on_process

    def active_unreleased(s, p):
        return owners.active_held(s, p) or on("standby", s, p, pid) or on("warmup", s, p, pid)

    def other_unreleased(s, p):
        return on("active", s, p, pid) or on("standby", s, p, pid) or on("warmup", s, p, pid)

    a_keep, a_rev, a_new, a_blk = assignment_diff(member.assigned.active, target.active, active_unreleased)
    s_keep, s_rev, s_new, s_blk = assignment_diff(member.assigned.standby, target.standby, other_unreleased)
    w_keep, w_rev, w_new, w_blk = assignment_diff(member.assigned.warmup, target.warmup, other_unreleased)
    m = member.copy()
    revoke = Tasks(a_rev, s_rev, w_rev)
    if not revoke.is_empty():
        # first give up what goes elsewhere; the epoch stays until the member confirms
        m.state = UNREVOKED_TASKS
        m.member_epoch = member_epoch
        m.assigned = Tasks(a_keep, s_keep, w_keep)
        m.pending_revocation = revoke
    else:
        def merged(keep, new):
            out = {s: set(ps) for s, ps in keep.items()}
            for s, ps in new.items():
                out.setdefault(s, set()).update(ps)
            return out

        m.state = UNRELEASED_TASKS if (a_blk or s_blk or w_blk) else STABLE
        m.member_epoch = target_epoch
        m.assigned = Tasks(merged(a_keep, a_new), merged(s_keep, s_new), merged(w_keep, w_new))
        m.pending_revocation = Tasks()
    if m.member_epoch != member.member_epoch:
        m.previous_member_epoch = member.member_epoch
    epochs = {}
    for d in (m.assigned.active, m.pending_revocation.active):
        for s, ps in d.items():
            for p in ps:
                epochs[(s, p)] = member.active_epochs.get((s, p), target_epoch)
    m.active_epochs = epochs
    return m


# ------------------------------------------------------------------ the task assignor


def assign(members: dict, tasks_per_subtopology: dict, previous: dict, num_standby: int = 0) -> dict:
    """members: {member_id: StreamsMember}; tasks_per_subtopology: {subtopology: number of tasks};
    previous: {member_id: Tasks} (each member's last target, what stickiness keeps). -> {member_id: Tasks}.

    As Kafka's StickyTaskAssignor: a member keeps the active tasks it had while it is under the
    quota (ceil(tasks / members)), going through the tasks by partition then subtopology; a task a
    member had as a standby goes back to it next; the rest go, by subtopology then partition, to
    the least loaded process (tasks per member of the process), there to its least loaded member.
    Standbys (num_standby copies) go to processes without a copy of the task, previous holders first."""
    out = {mid: Tasks() for mid in members}
    if not members:
        return out
    tasks = [(s, p) for s, n in tasks_per_subtopology.items() for p in range(n)]
    mids = sorted(members)
    quota = -(-len(tasks) // len(mids))
    procs: dict = {}
    for mid in mids:
        procs.setdefault(members[mid].process_id, []).append(mid)
    count = {mid: 0 for mid in mids}
    prev_active = {}
    prev_standby: dict = {}
    for mid in mids:
        prev = previous.get(mid)
        if prev is None:
            continue
        for s, ps in prev.active.items():
            for p in ps:
                prev_active[(s, p)] = mid
        for d in (prev.standby, prev.warmup):
            for s, ps in d.items():
                for p in ps:
                    prev_standby.setdefault((s, p), []).append(mid)

    def put(mid, task, role="active"):
        getattr(out[mid], role).setdefault(task[0], set()).add(task[1])
        count[mid] += 1

    left = []
    for task in sorted(tasks, key=lambda t: (t[1], t[0])):
        mid = prev_active.get(task)
        if mid is not None and count[mid] < quota:
            put(mid, task)
        else:
            left.append(task)
    rest = []
    for task in left:
        cands = [m for m in prev_standby.get(task, []) if count[m] < quota]
        if cands:
            put(min(cands, key=lambda m: (count[m], m)), task)
        else:
            rest.append(task)

    def proc_load(pid):
        return sum(count[m] for m in procs[pid]) / len(procs[pid])

    for task in sorted(rest):
        pid = min(procs, key=lambda q: (proc_load(q), q))
        put(min(procs[pid], key=lambda m: (count[m], m)), task)
    if num_standby > 0:
        active_pid = {(s, p): members[mid].process_id for mid in mids for s, ps in out[mid].active.items()
                      for p in ps}
        for task in sorted(tasks):
            used = {active_pid.get(task)}
            for _ in range(num_standby):
                cands = [m for m in mids if members[m].process_id not in used]
                if not cands:
                    break
                sticky = [m for m in prev_standby.get(task, []) if m in cands]
                pick = min(sticky or cands, key=lambda m: (count[m], m))
                put(pick, task, "standby")
                used.add(members[pick].process_id)
    return out
