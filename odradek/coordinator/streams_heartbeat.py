"""KIP-1071 streams groups' protocol: StreamsGroupHeartbeat and StreamsGroupDescribe, the
StreamsGroup* records' replay, the assignment delays and the session timers.

The first heartbeat brings the topology (persisted once, StreamsGroupTopology); the coordinator
configures it against the metadata image (streams_topology.configure: task counts, internal topics
to create, missing source topics), computes a target assignment of active/standby tasks whenever
the group epoch moves past the assignment epoch, and moves each member towards its target
(streams_group_state.reconcile). Pure like the rest of the coordinator: state in the coordinator's
one map of groups, time as now_ms, topics as a {name: (topic_id, partitions)} snapshot, every
change appended as StreamsGroup* records before it is applied.

Not done (Kafka 4.3 does them): static members (instance ids) in streams groups, rack-aware/client-tag
standby placement, warm-up tasks (the assignor gives none), task offsets/lag in describe.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from odradek.config import BrokerConfig
from odradek.wire.errors import ErrorCode

from . import group_records as rec
from . import member_protocol as mp
from . import streams_group_records as srec
from . import streams_topology as stopo
from .consumer_group_state import ConsumerGroup
from .consumer_heartbeat import _metadata_hash
from .errors import CoordinatorError
from .group_model import GroupModel
from .group_state import Group, GroupState
from .result import CoordinatorResult
from .settings import broker_default, int_settings, with_group_configs
from .streams_group_state import (
    LEAVE_GROUP_STATIC_MEMBER_EPOCH,
    UNREVOKED_TASKS,
    StreamsGroup,
    StreamsMember,
    Tasks,
    assign,
    reconcile,
)

if TYPE_CHECKING:
    from .group_coordinator import GroupCoordinator

E = ErrorCode


@dataclass
class StreamsConfig:
    """The broker's group.streams.* settings (defaults from odradek/config.py)."""
    heartbeat_interval_ms: int = broker_default("group_streams_heartbeat_interval_ms")
    session_timeout_ms: int = broker_default("group_streams_session_timeout_ms")
    max_size: int = broker_default("group_streams_max_size")
    num_standby_replicas: int = broker_default("group_streams_num_standby_replicas")
    initial_rebalance_delay_ms: int = broker_default("group_streams_initial_rebalance_delay_ms")
    assignment_interval_ms: int = broker_default("group_streams_assignment_interval_ms")

    @classmethod
    def from_any(cls, obj: "StreamsConfig | BrokerConfig | Mapping | None") -> "StreamsConfig":
        return int_settings(cls, obj, prefix="group_streams_")


# a streams group's own GROUP configs -> the StreamsConfig field each sets
_GROUP_CONFIGS = {"streams.session.timeout.ms": "session_timeout_ms",
                  "streams.heartbeat.interval.ms": "heartbeat_interval_ms",
                  "streams.num.standby.replicas": "num_standby_replicas",
                  "streams.initial.rebalance.delay.ms": "initial_rebalance_delay_ms",
                  "streams.assignment.interval.ms": "assignment_interval_ms"}


@dataclass
class StreamsHeartbeatRequest:
    """A StreamsGroupHeartbeat request, as the coordinator reads it."""
    group_id: str
    member_id: str
    member_epoch: int
    endpoint_information_epoch: int = 0
    instance_id: str | None = None
    rack_id: str | None = None
    rebalance_timeout_ms: int = -1
    topology: object = None  # the request's Topology, or None
    active: dict | None = None  # {subtopology: [partitions]} or None (not sent)
    standby: dict | None = None
    warmup: dict | None = None
    process_id: str | None = None
    user_endpoint: tuple | None = None
    client_tags: dict | None = None
    shutdown_application: bool = False
    client_id: str = ""
    client_host: str = ""


@dataclass
class StreamsHeartbeatResult:
    """The coordinator's answer to a StreamsGroupHeartbeat."""
    error: ErrorCode = E.NONE
    error_message: str | None = None
    member_id: str = ""
    member_epoch: int = 0
    heartbeat_interval_ms: int = 0
    status: list = field(default_factory=list)  # [(code, detail)]
    assignment: Tasks | None = None  # None: unchanged, not sent
    endpoint_information_epoch: int = 0
    partitions_by_endpoint: list | None = None  # [((host, port), [(topic, [p])] active, [...] standby)]
    topics_to_create: dict = field(default_factory=dict)  # name -> streams_topology.InternalTopic


def _tasks_of(d) -> dict:
    return {s: set(ps) for s, ps in (d or {}).items() if ps}


@dataclass
class _Heartbeat:
    """One heartbeat in the making: the records it writes and the group state they stand for."""
    group_id: str
    member: StreamsMember  # as it is (or new)
    new_member: bool
    owned: Tasks | None
    cfg: StreamsConfig
    updated: StreamsMember | None = None
    records: list = field(default_factory=list)
    status: list = field(default_factory=list)  # [(code, detail)]
    bump: bool = False
    topology: object = None
    configured: object = None
    mhash: int = 0
    validated: int = -1
    assignment_configs: dict = field(default_factory=dict)
    group_epoch: int = 0
    new_target: dict | None = None  # the group's new target assignment, when this heartbeat computed one
    assignment_epoch: int = 0
    assignment_ms: int | None = None
    initial_deadline: int | None = None
    member_target_epoch: int = 0
    member_target: Tasks | None = None
    delayed: str | None = None  # why the assignment waits


class StreamsProtocol:
    def __init__(self, coord: "GroupCoordinator", config: StreamsConfig):
        self.coord = coord
        self.config = config
        self.assignor_runs = 0  # target assignments computed (each a pass over a whole group)

    def _group(self, group_id: str) -> StreamsGroup | None:
        return mp.typed_group(self.coord.groups, group_id, StreamsGroup)

    # ------------------------------------------------------------------ persistence

    def load(self, records: list, now: int) -> None:
        """Streams groups, with their topology, from a partition's StreamsGroup* records."""
        mp.load_groups(self.coord.groups, records, srec, StreamsGroup, lambda gid, s: self._loaded(gid, s, now),
                       lambda g, mid, mv, cv: self._load_member(g, mid, mv, cv, now),
                       lambda tv: Tasks(srec.tasks_from(tv.active_tasks), srec.tasks_from(tv.standby_tasks),
                                        srec.tasks_from(tv.warmup_tasks)))

    def _loaded(self, gid: str, s, now: int) -> StreamsGroup:
        meta = s.metadata
        g = StreamsGroup(gid, group_epoch=meta.epoch, metadata_hash=meta.metadata_hash,
                         validated_topology_epoch=meta.validated_topology_epoch,
                         assignment_configs={c.key: c.value for c in meta.last_assignment_configs or []},
                         topology=s.other.get((srec.TOPOLOGY, "")), state_timestamp_ms=now)
        if s.target_metadata is not None:
            g.assignment_epoch = s.target_metadata.assignment_epoch
            g.assignment_timestamp_ms = s.target_metadata.assignment_timestamp
        return g

    def _load_member(self, g: StreamsGroup, mid: str, mv, cv, now: int) -> None:
        m = StreamsMember(
            member_id=mid, instance_id=mv.instance_id, rack_id=mv.rack_id, client_id=mv.client_id,
            client_host=mv.client_host, rebalance_timeout_ms=mv.rebalance_timeout_ms,
            topology_epoch=mv.topology_epoch, process_id=mv.process_id,
            user_endpoint=None if mv.user_endpoint is None else (mv.user_endpoint.host, mv.user_endpoint.port),
            client_tags={kv.key: kv.value for kv in mv.client_tags or []})
        if cv is not None:
            m.assigned = Tasks(srec.tasks_from(cv.active_tasks), srec.tasks_from(cv.standby_tasks),
                               srec.tasks_from(cv.warmup_tasks))
            m.pending_revocation = Tasks(srec.tasks_from(cv.active_tasks_pending_revocation),
                                         srec.tasks_from(cv.standby_tasks_pending_revocation),
                                         srec.tasks_from(cv.warmup_tasks_pending_revocation))
            m.active_epochs = {**srec.active_epochs_from(cv.active_tasks, cv.member_epoch),
                               **srec.active_epochs_from(cv.active_tasks_pending_revocation, cv.member_epoch)}
        mp.restore_member(m, cv, now, self._cfg(g.group_id).session_timeout_ms, UNREVOKED_TASKS)
        g.members[mid] = m

    # ------------------------------------------------------------------ helpers

    def _partitions_of(self, name: str):
        t = self.coord.topics.get(name)
        return None if t is None else t[1]

    def _cfg(self, group_id: str) -> StreamsConfig:
        """The broker's group.streams.* settings with the group's streams.* configs over them."""
        return with_group_configs(self.config, self.coord.group_overrides(group_id) or {}, _GROUP_CONFIGS)

    def _assignment_configs(self, cfg: StreamsConfig) -> dict:
        return {"num.standby.replicas": str(cfg.num_standby_replicas)}

    def _group_type_error(self, group_id: str, create: bool) -> None:
        """A streams heartbeat naming a group of another type (Kafka: GROUP_ID_NOT_FOUND); a joining one
        takes over an empty classic group (Kafka's maybeDeleteEmptyClassicGroup)."""
        other = self.coord.groups.get(group_id)
        if isinstance(other, ConsumerGroup):
            raise CoordinatorError(E.GROUP_ID_NOT_FOUND, f"Group {group_id} is not a streams group.")
        if isinstance(other, Group) and (other.state is not GroupState.EMPTY or not create):
            raise CoordinatorError(E.GROUP_ID_NOT_FOUND, f"Group {group_id} is not a streams group.")

    # ------------------------------------------------------------------ StreamsGroupHeartbeat

    def heartbeat(self, req: StreamsHeartbeatRequest, now_ms: int) -> StreamsHeartbeatResult:
        return mp.answer(req, now_ms, self._validate_streams_heartbeat, self._streams_leave, self._streams_heartbeat,
                      StreamsHeartbeatResult)

    def _validate_streams_heartbeat(self, req: StreamsHeartbeatRequest) -> None:
        """Kafka's throwIfStreamsGroupHeartbeatRequestIsInvalid (and the unsupported features)."""
        bad = lambda msg: CoordinatorError(E.INVALID_REQUEST, msg)  # noqa: E731
        if req.topology is not None:
            for s in req.topology.subtopologies or []:
                if s.source_topic_regex:
                    raise bad("Regular expressions for source topics are not supported yet.")
        if not req.member_id:
            raise bad("MemberId can't be empty.")
        mp.check_ids(req)
        if req.member_epoch == 0:
            if req.rebalance_timeout_ms == -1:
                raise bad("RebalanceTimeoutMs must be provided in first request.")
            if req.active:
                raise bad("ActiveTasks must be empty when (re-)joining.")
            if req.standby:
                raise bad("StandbyTasks must be empty when (re-)joining.")
            if req.warmup:
                raise bad("WarmupTasks must be empty when (re-)joining.")
            if req.topology is None:
                raise bad("Topology must be non-null when (re-)joining.")
            for s in req.topology.subtopologies or []:
                for ti in s.state_changelog_topics or []:
                    if ti.partitions != 0:
                        raise CoordinatorError(E.STREAMS_INVALID_TOPOLOGY,
                                               f"Changelog topic {ti.name} must have an undefined partition "
                                               f"count, but it is set to {ti.partitions}.")
        elif req.member_epoch == LEAVE_GROUP_STATIC_MEMBER_EPOCH:
            if req.instance_id is None:
                raise bad("InstanceId can't be null.")
        elif req.member_epoch < LEAVE_GROUP_STATIC_MEMBER_EPOCH:
            raise bad(f"MemberEpoch is {req.member_epoch}, but must be greater than or equal to -2.")
        if req.active is not None or req.standby is not None or req.warmup is not None:
            if req.active is None or req.standby is None or req.warmup is None:
                raise bad("If one task-type is non-null, all must be non-null.")
        if req.member_epoch != 0 and req.topology is not None:
            raise bad("Topology can only be provided when (re-)joining.")
        if req.instance_id is not None and req.member_epoch >= 0:
            # Kafka 4.3 throws UnsupportedOperationException("Static members are not supported yet."), which
            # reaches the client as UNKNOWN_SERVER_ERROR without a message
            raise CoordinatorError(E.UNKNOWN_SERVER_ERROR, None)

    def _streams_group(self, group_id: str, create: bool, now_ms: int) -> StreamsGroup:
        g = self._group(group_id)
        if g is not None:
            return g
        self._group_type_error(group_id, create)
        if not create:
            raise CoordinatorError(E.GROUP_ID_NOT_FOUND, f"Streams group {group_id} not found.")
        g = StreamsGroup(group_id, state_timestamp_ms=now_ms)
        classic = self.coord.groups.get(group_id)
        if isinstance(classic, Group):
            # an empty classic group: the streams group keeps its offsets (its tombstone is written with
            # the heartbeat's records, _streams_heartbeat)
            g.offsets = classic.offsets
        return g

    def _check_streams_epoch(self, m: StreamsMember, req: StreamsHeartbeatRequest) -> None:
        owned = self._owned(req)
        mp.check_member_epoch("streams", m, req.member_epoch,
                              lambda: owned is not None and owned.is_subset_of(m.assigned))

    @staticmethod
    def _owned(req: StreamsHeartbeatRequest) -> Tasks | None:
        if req.active is None:
            return None
        return Tasks(_tasks_of(req.active), _tasks_of(req.standby), _tasks_of(req.warmup))

    def _streams_heartbeat(self, req: StreamsHeartbeatRequest, now_ms: int) -> StreamsHeartbeatResult:
        """Kafka's streamsGroupHeartbeat, in its steps: the member, its metadata, the topology and its
        configuration against the metadata image (which may bump the group epoch), the target
        assignment (after the initial delay or the assignment interval), the member's reconciliation;
        the records are written, then the new state applied and the response built."""
        cfg = self._cfg(req.group_id)
        joining = req.member_epoch == 0
        g = self._streams_group(req.group_id, joining, now_ms)
        self._delayed_assignment(g, now_ms)  # a delay that ran out since the last tick
        member, new_member = self._member_for(g, req, cfg)
        hb = _Heartbeat(g.group_id, member, new_member, self._owned(req), cfg)
        classic = self.coord.groups.get(g.group_id)
        if isinstance(classic, Group):  # an empty classic group replaced (Kafka writes its tombstone, also for
            # one that only has offsets and so no GroupMetadata record)
            hb.records.append((rec.group_metadata_key(g.group_id), None))
        hb.updated = self._updated_member(member, req)
        if new_member or hb.updated.metadata() != member.metadata():
            hb.records.append(srec.member_metadata(hb.group_id, hb.updated))
            hb.bump = True
        self._topology_step(g, hb, req)
        self._group_epoch_step(g, hb)
        self._target_step(g, hb, now_ms)
        before = self._reconcile_step(g, hb)

        def apply() -> StreamsHeartbeatResult:
            self._apply(g, hb, before, req, now_ms)
            return self._response(g, hb, req, joining)

        return self.coord.write(hb.group_id, CoordinatorResult(hb.records, apply, mp.write_failed), now_ms)

    def _member_for(self, g: StreamsGroup, req: StreamsHeartbeatRequest, cfg: StreamsConfig):
        """(the member as it is, whether it is new)."""
        member = g.members.get(req.member_id)
        if req.member_epoch == 0:
            if member is not None:
                return member, False
            if len(g.members) >= cfg.max_size:
                raise CoordinatorError(E.GROUP_MAX_SIZE_REACHED,
                                       f"The streams group has reached its maximum capacity of {cfg.max_size} "
                                       f"members.")
            return StreamsMember(req.member_id), True
        if member is None:
            raise CoordinatorError(E.UNKNOWN_MEMBER_ID, f"Member {req.member_id} is not a member of group "
                                                        f"{g.group_id}.")
        self._check_streams_epoch(member, req)
        return member, False

    @staticmethod
    def _updated_member(member: StreamsMember, req: StreamsHeartbeatRequest) -> StreamsMember:
        """The member with what the request sets."""
        updated = member.copy()
        if req.rack_id is not None:
            updated.rack_id = req.rack_id
        if req.rebalance_timeout_ms != -1:
            updated.rebalance_timeout_ms = req.rebalance_timeout_ms
        if req.topology is not None:
            updated.topology_epoch = req.topology.epoch
        updated.client_id, updated.client_host = req.client_id, req.client_host
        if req.process_id is not None:
            updated.process_id = req.process_id
        if req.client_tags is not None:
            updated.client_tags = dict(req.client_tags)
        if req.user_endpoint is not None:
            updated.user_endpoint = req.user_endpoint
        return updated

    def _topology_step(self, g: StreamsGroup, hb: "_Heartbeat", req: StreamsHeartbeatRequest) -> None:
        """The first member's topology is the group's; it is configured against the metadata image
        (Kafka refreshes this when the image changes)."""
        topology = g.topology
        if req.topology is not None:
            from_req = stopo.from_request(req.topology)
            if topology is None:
                hb.records.append(srec.topology(hb.group_id, from_req))
                topology = from_req
            elif topology.epoch <= from_req.epoch and not stopo.same(topology, from_req):
                raise CoordinatorError(E.INVALID_REQUEST, "Topology updates are not supported yet.")
        if topology is None:
            raise CoordinatorError(E.GROUP_ID_NOT_FOUND, f"Streams group {hb.group_id} has no topology.")
        if hb.updated.topology_epoch < topology.epoch:
            hb.status.append((stopo.STALE_TOPOLOGY, f"The member's topology epoch {hb.updated.topology_epoch} is "
                                                    f"behind the group's topology epoch {topology.epoch}."))
        hb.topology = topology
        hb.mhash = _metadata_hash(self.coord.topics, stopo.required_topics(topology))
        configured = g.configured
        if configured is None or g.topology is None or hb.mhash != g.metadata_hash \
                or configured.topology_epoch != topology.epoch:
            configured = stopo.configure(topology, hb.mhash, self._partitions_of)
        hb.configured = configured
        hb.validated = topology.epoch if configured.ready else -1
        if configured.ready:
            self._check_tasks(configured, hb.owned)

    def _group_epoch_step(self, g: StreamsGroup, hb: "_Heartbeat") -> None:
        """A new member or new member metadata, another metadata hash, another validated topology or
        other assignment configs bump the group epoch."""
        hb.assignment_configs = self._assignment_configs(hb.cfg)
        if hb.mhash != g.metadata_hash or hb.validated != g.validated_topology_epoch \
                or hb.assignment_configs != g.assignment_configs:
            hb.bump = True
        hb.group_epoch = g.group_epoch + 1 if hb.bump else g.group_epoch
        if hb.bump:
            hb.records.append(srec.group_metadata(hb.group_id, hb.group_epoch, hb.mhash, hb.validated,
                                                  hb.assignment_configs))

    def _target_step(self, g: StreamsGroup, hb: "_Heartbeat", now_ms: int) -> None:
        """The target assignment: the first one waits for the initial rebalance delay (a member
        joining an empty group starts it), later ones for the assignment interval (Kafka 4.3's
        maybeUpdateStreamsTargetAssignment). Only a new target walks the group (the assignor's pass);
        otherwise the member keeps to its part of the last one."""
        cfg, updated = hb.cfg, hb.updated
        hb.assignment_epoch = g.assignment_epoch
        hb.assignment_ms = g.assignment_timestamp_ms
        hb.initial_deadline = g.initial_delay_deadline_ms
        if not g.members and cfg.initial_rebalance_delay_ms > 0 and hb.initial_deadline is None:
            hb.initial_deadline = now_ms + cfg.initial_rebalance_delay_ms
        hb.member_target_epoch = hb.assignment_epoch
        hb.member_target = g.target.get(updated.member_id, Tasks())
        if hb.initial_deadline is not None and now_ms < hb.initial_deadline:
            hb.delayed = "Assignment delayed due to the configured initial rebalance delay."
            hb.member_target = Tasks()
            return
        if hb.group_epoch <= hb.assignment_epoch:
            return
        if hb.assignment_ms is not None and now_ms < hb.assignment_ms + cfg.assignment_interval_ms:
            hb.delayed = "Assignment delayed due to the configured assignment interval."
            return
        members = dict(g.members)
        members[updated.member_id] = updated
        hb.new_target = self._new_target(g, members, hb.configured, g.target, hb.group_epoch, now_ms, hb.records)
        hb.assignment_epoch = hb.member_target_epoch = hb.group_epoch
        hb.assignment_ms = now_ms
        hb.initial_deadline = None
        hb.member_target = hb.new_target.get(updated.member_id, Tasks())

    def _reconcile_step(self, g: StreamsGroup, hb: "_Heartbeat") -> StreamsMember:
        """Move the member towards its target (who still holds a task is looked up in the group's
        index, not gathered from every member); returns the member before reconciliation."""
        before = hb.updated
        updated = reconcile(before, hb.member_target_epoch, hb.member_target, g.members, hb.owned)
        if hb.new_member or updated.member_epoch != before.member_epoch or updated.state != before.state \
                or updated.assigned != before.assigned or updated.pending_revocation != before.pending_revocation:
            hb.records.append(srec.current_member(hb.group_id, updated))
        hb.updated = updated
        return before

    def _apply(self, g: StreamsGroup, hb: "_Heartbeat", before: StreamsMember, req: StreamsHeartbeatRequest,
               now_ms: int) -> None:
        """The heartbeat's records are written: the group takes its new state."""
        gid, updated = hb.group_id, hb.updated
        if self.coord.groups.get(gid) is not g:
            self.coord.install(g)  # a new group, or an offsets-only classic one taken over
            # Kafka 4.3 configures the topology on the group object of the heartbeat, which for a new
            # group is not the one its records then create: a new group has no configured topology
            # until its next heartbeat, so an initial delay's timer finds none (below)
            configured = None
        else:
            configured = hb.configured
        g.members[updated.member_id] = updated
        g.topology = hb.topology
        g.configured = configured
        g.metadata_hash = hb.mhash
        g.validated_topology_epoch = hb.validated
        g.assignment_configs = hb.assignment_configs
        g.group_epoch = hb.group_epoch
        if hb.new_target is not None:
            g.target = hb.new_target
        g.assignment_epoch = hb.assignment_epoch
        g.assignment_timestamp_ms = hb.assignment_ms
        g.initial_delay_deadline_ms = hb.initial_deadline
        mp.heartbeat_timers(updated, before, now_ms, hb.cfg.session_timeout_ms, UNREVOKED_TASKS)
        g.deadlines_checked_until = min(g.deadlines_checked_until, mp.first_deadline(updated))
        if req.shutdown_application:
            g.shutdown_requested_by = updated.member_id

    def _response(self, g: StreamsGroup, hb: "_Heartbeat", req: StreamsHeartbeatRequest,
                  joining: bool) -> StreamsHeartbeatResult:
        updated = hb.updated
        result = StreamsHeartbeatResult(member_id=updated.member_id, member_epoch=updated.member_epoch,
                                        heartbeat_interval_ms=hb.cfg.heartbeat_interval_ms)
        if joining or updated.assigned != hb.member.assigned:
            result.assignment = updated.assigned
            if updated.user_endpoint is not None:
                g.endpoint_information_epoch += 1
        if g.endpoint_information_epoch != req.endpoint_information_epoch:
            result.partitions_by_endpoint = self._endpoints(g, updated.member_id)
        result.endpoint_information_epoch = g.endpoint_information_epoch
        status = hb.status
        if hb.delayed is not None:
            status.append((stopo.ASSIGNMENT_DELAYED, hb.delayed))
        if hb.configured.status is not None:
            status.append(hb.configured.status)
            result.topics_to_create = dict(hb.configured.to_create)
        if g.shutdown_requested_by is not None:
            status.append((stopo.SHUTDOWN_APPLICATION, f"Streams group member {g.shutdown_requested_by} encountered "
                                                       f"a fatal error and requested a shutdown for the entire "
                                                       f"application."))
        result.status = status
        return result

    def _new_target(self, g: StreamsGroup, members: dict, configured, target: dict, group_epoch: int, now_ms: int,
                    records: list) -> dict:
        """Run the assignor; append the changed members' targets and the target metadata."""
        gid = g.group_id
        tasks = configured.tasks if configured is not None and configured.ready else {}
        self.assignor_runs += 1
        previous = {mid: target.get(mid, Tasks()) for mid in members}  # stickiness: the last target
        new_target = assign(members, tasks, previous, self._cfg(gid).num_standby_replicas)
        out = dict(target)
        for mid in sorted(members):
            t = new_target.get(mid, Tasks())
            if mid not in out or t != out[mid]:
                records.append(srec.target_member(gid, mid, t))
            out[mid] = t
        records.append(srec.target_metadata(gid, group_epoch, now_ms))
        return out

    def _delayed_assignment(self, g: StreamsGroup, now_ms: int) -> None:
        """The timer of the initial rebalance delay: once it is over, a group with members gets its
        target assignment without waiting for a heartbeat, at the group's epoch (Kafka 4.3's
        computeDelayedTargetAssignment: the members, which got an empty target at the assignment
        epoch meanwhile, move on to it) -- if the group has a configured topology: like Kafka 4.3's
        timer, this one does nothing for a group that only its first heartbeat configured (see
        _apply) or that was loaded since (not persisted), and the next heartbeat assigns (checked
        side by side: a one-member group stays Assigning on both until it heartbeats). The
        assignment interval has no timer (as in Kafka 4.3): a target it held back is computed by
        the next heartbeat after it."""
        deadline = g.initial_delay_deadline_ms
        if deadline is None or now_ms < deadline:
            return
        g.initial_delay_deadline_ms = None
        if not g.members or g.group_epoch <= g.assignment_epoch or (
                g.assignment_timestamp_ms is not None
                and now_ms < g.assignment_timestamp_ms + self._cfg(g.group_id).assignment_interval_ms):
            return
        configured = g.configured
        if configured is None:
            return
        records: list = []
        group_epoch = g.group_epoch
        target = self._new_target(g, g.members, configured, g.target, group_epoch, now_ms, records)

        def apply() -> None:
            g.group_epoch = group_epoch
            g.target = target
            g.assignment_epoch = group_epoch
            g.assignment_timestamp_ms = now_ms

        self.coord.write(g.group_id, CoordinatorResult(records, apply, lambda e: None), now_ms)

    @staticmethod
    def _check_tasks(configured, owned: Tasks | None) -> None:
        """Kafka's throwIfRequestContainsInvalidTasks."""
        if owned is None:
            return
        for d in (owned.active, owned.standby, owned.warmup):
            for s, ps in d.items():
                n = configured.tasks.get(s)
                if n is None or any(p < 0 or p >= n for p in ps):
                    raise CoordinatorError(E.STREAMS_INVALID_TOPOLOGY_EPOCH,
                                           "Stale topology epoch: the member owns tasks "
                                           f"that are not part of the group's topology ({s}).")

    def _endpoints(self, g: StreamsGroup, member_id: str) -> list:
        """IQ: each member with a user endpoint -> the topic partitions of its active and standby tasks
        (the updated member last, as Kafka lists it)."""
        if g.topology is None:
            return []
        subs = {s.subtopology_id: s for s in g.topology.subtopologies or []}

        def partitions(tasks: dict) -> list:
            by_topic: dict = {}
            for sid, ps in tasks.items():
                s = subs.get(sid)
                if s is None:
                    continue
                for topic in list(s.source_topics or []) + [x.name for x in s.repartition_source_topics or []]:
                    n = self._partitions_of(topic) or 0
                    by_topic.setdefault(topic, set()).update(p for p in ps if p < n)
            return [(t, sorted(ps)) for t, ps in sorted(by_topic.items())]

        out = []
        order = [mid for mid in g.members if mid != member_id] + ([member_id] if member_id in g.members else [])
        for mid in order:
            m = g.members[mid]
            if m.user_endpoint is None:
                continue
            out.append((m.user_endpoint, partitions(m.assigned.active), partitions(m.assigned.standby)))
        return out

    def _streams_leave(self, req: StreamsHeartbeatRequest, now_ms: int) -> StreamsHeartbeatResult:
        g = self._group(req.group_id)
        if g is None:
            self._group_type_error(req.group_id, False)
            raise CoordinatorError(E.GROUP_ID_NOT_FOUND, f"Streams group {req.group_id} not found.")
        m = g.members.get(req.member_id)
        if m is None:
            raise CoordinatorError(E.UNKNOWN_MEMBER_ID,
                                   f"Member {req.member_id} is not a member of group {g.group_id}.")
        self._remove_streams_member(g, m.member_id, now_ms)
        return StreamsHeartbeatResult(member_id=m.member_id, member_epoch=req.member_epoch)

    def _remove_streams_member(self, g: StreamsGroup, member_id: str, now_ms: int) -> None:
        """Kafka's fence/remove: tombstones for the member, and a new group epoch."""
        meta = srec.group_metadata(g.group_id, g.group_epoch + 1, g.metadata_hash, g.validated_topology_epoch,
                                   g.assignment_configs)

        def remove() -> None:
            mp.drop_member(g, member_id, now_ms)
            if not g.members:
                g.shutdown_requested_by = None

        self.coord.write(g.group_id, CoordinatorResult(mp.removal_records(srec, g, member_id, meta), remove), now_ms)

    # ------------------------------------------------------------------ StreamsGroupDescribe

    def describe(self, group_id: str, g: GroupModel | None) -> dict:
        """StreamsGroupDescribe of ``g``, the group the id names (None: none)."""
        if not isinstance(g, StreamsGroup):
            e = mp.wrong_group({} if g is None else {group_id: g}, group_id, "streams")
            return {"error": e.code, "message": e.message}
        return {"error": E.NONE, "group": g}


    # ------------------------------------------------------------------ timers

    def tick(self, g: StreamsGroup, now_ms: int) -> None:
        """A delayed assignment that is due; fence members past their session, or past their
        rebalance timeout while revoking."""
        self._delayed_assignment(g, now_ms)
        mp.fence_expired(g, now_ms, UNREVOKED_TASKS, self._remove_streams_member)
