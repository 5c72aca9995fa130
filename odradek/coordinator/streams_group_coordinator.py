"""KIP-1071 streams groups next to classic and consumer groups: one coordinator, one __consumer_offsets.

GroupCoordinator (classic) <- UnifiedGroupCoordinator (consumer groups) <- this class (streams
groups). A group id names one group of one type. StreamsGroupHeartbeat: the first heartbeat brings
the topology (persisted once, StreamsGroupTopology); the coordinator configures it against the
metadata image (streams_topology.configure: task counts, internal topics to create, missing source
topics), computes a target assignment of active/standby tasks whenever the group epoch moves past
the assignment epoch, and moves each member towards its target (streams_group_state.reconcile).
Pure like the others: time as now_ms, topics as a {name: (topic_id, partitions)} snapshot, every
change appended as StreamsGroup* records before it is applied.

Not done (Kafka 4.3 does them): static members (instance ids) in streams groups, group-level
group.streams.* overrides (IncrementalAlterConfigs on a GROUP resource), rack-aware/client-tag
standby placement, warm-up tasks (the assignor gives none), task offsets/lag in describe.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from odradek.wire.errors import ErrorCode

from . import group_records as rec
from . import streams_group_records as srec
from . import streams_topology as stopo
from .consumer_group_coordinator import UnifiedGroupCoordinator, _Fail, _metadata_hash
from .group_records import OffsetAndMetadata
from .group_state import JoinResult, Slot
from .streams_group_state import (
    LEAVE_GROUP_MEMBER_EPOCH,
    LEAVE_GROUP_STATIC_MEMBER_EPOCH,
    UNREVOKED_TASKS,
    StreamsGroup,
    StreamsMember,
    Tasks,
    assign,
    reconcile,
)

E = ErrorCode


@dataclass
class StreamsConfig:
    """The broker's group.streams.* settings (Kafka 4.3 defaults)."""
    heartbeat_interval_ms: int = 5000
    session_timeout_ms: int = 45000
    max_size: int = 2**31 - 1
    num_standby_replicas: int = 0
    initial_rebalance_delay_ms: int = 3000
    assignment_interval_ms: int = 1000

    @classmethod
    def from_any(cls, obj) -> "StreamsConfig":
        c = cls()
        if obj is None:
            return c
        for attr, name in (("heartbeat_interval_ms", "group_streams_heartbeat_interval_ms"),
                           ("session_timeout_ms", "group_streams_session_timeout_ms"),
                           ("max_size", "group_streams_max_size"),
                           ("num_standby_replicas", "group_streams_num_standby_replicas"),
                           ("initial_rebalance_delay_ms", "group_streams_initial_rebalance_delay_ms"),
                           ("assignment_interval_ms", "group_streams_assignment_interval_ms")):
            val = obj.get(name, obj.get(name.replace("_", "."))) if isinstance(obj, dict) else getattr(obj, name, None)
            if val is not None:
                setattr(c, attr, int(val))
        return c


@dataclass
class StreamsHeartbeatRequest:
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


class StreamsGroupCoordinator(UnifiedGroupCoordinator):
    def __init__(self, *args, streams_config: StreamsConfig | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.streams_groups: dict[str, StreamsGroup] = {}
        self.sconfig = streams_config or StreamsConfig.from_any(kwargs.get("config"))
        # group id -> its GROUP config overrides ({"streams.session.timeout.ms": "50000", ...}); the broker sets it
        self.group_overrides = lambda group_id: {}

    # ------------------------------------------------------------------ persistence

    def load_partition(self, partition: int, now_ms: int | None = None) -> None:
        super().load_partition(partition, now_ms)
        if self.log is None:
            return
        now = self._now
        state: dict = {}
        for _offset, key, value in self.log.read(partition):
            if key is None or len(key) < 2 or srec.record_type(key) not in srec.TYPES:
                continue
            try:
                r = srec.decode(key, value)
            except Exception:
                continue
            s = state.setdefault(r.group_id, {"meta": None, "members": {}, "target": {}, "target_meta": None,
                                              "current": {}, "topology": None})
            if r.kind == srec.GROUP_METADATA:
                s["meta"] = r.value
            elif r.kind == srec.MEMBER_METADATA:
                s["members"][r.member_id] = r.value
            elif r.kind == srec.TARGET_METADATA:
                s["target_meta"] = r.value
            elif r.kind == srec.TARGET_MEMBER:
                s["target"][r.member_id] = r.value
            elif r.kind == srec.CURRENT_MEMBER:
                s["current"][r.member_id] = r.value
            elif r.kind == srec.TOPOLOGY:
                s["topology"] = r.value
        for gid, s in state.items():
            meta = s["meta"]
            if meta is None:
                self.streams_groups.pop(gid, None)
                continue
            g = StreamsGroup(gid, group_epoch=meta.epoch, metadata_hash=meta.metadata_hash,
                             validated_topology_epoch=meta.validated_topology_epoch,
                             assignment_configs={c.key: c.value for c in meta.last_assignment_configs or []},
                             topology=s["topology"], state_timestamp_ms=now)
            if s["target_meta"] is not None:
                g.assignment_epoch = s["target_meta"].assignment_epoch
                g.assignment_timestamp_ms = s["target_meta"].assignment_timestamp
            for mid, mv in s["members"].items():
                if mv is None:
                    continue
                m = StreamsMember(
                    member_id=mid, instance_id=mv.instance_id, rack_id=mv.rack_id, client_id=mv.client_id,
                    client_host=mv.client_host, rebalance_timeout_ms=mv.rebalance_timeout_ms,
                    topology_epoch=mv.topology_epoch, process_id=mv.process_id,
                    user_endpoint=None if mv.user_endpoint is None else (mv.user_endpoint.host, mv.user_endpoint.port),
                    client_tags={kv.key: kv.value for kv in mv.client_tags or []})
                cv = s["current"].get(mid)
                if cv is not None:
                    m.member_epoch = cv.member_epoch
                    m.previous_member_epoch = cv.previous_member_epoch
                    m.state = cv.state
                    m.assigned = Tasks(srec.tasks_from(cv.active_tasks), srec.tasks_from(cv.standby_tasks),
                                       srec.tasks_from(cv.warmup_tasks))
                    m.pending_revocation = Tasks(srec.tasks_from(cv.active_tasks_pending_revocation),
                                                 srec.tasks_from(cv.standby_tasks_pending_revocation),
                                                 srec.tasks_from(cv.warmup_tasks_pending_revocation))
                    m.active_epochs = {**srec.active_epochs_from(cv.active_tasks, cv.member_epoch),
                                       **srec.active_epochs_from(cv.active_tasks_pending_revocation,
                                                                 cv.member_epoch)}
                m.session_deadline_ms = now + self._cfg(gid).session_timeout_ms
                if m.state == UNREVOKED_TASKS:
                    m.rebalance_deadline_ms = now + max(m.rebalance_timeout_ms, 0)
                g.members[mid] = m
            for mid, tv in s["target"].items():
                if tv is not None and mid in g.members:
                    g.target[mid] = Tasks(srec.tasks_from(tv.active_tasks), srec.tasks_from(tv.standby_tasks),
                                          srec.tasks_from(tv.warmup_tasks))
            classic = self.groups.get(gid)
            if classic is not None and not classic.members and classic.protocol_type is None:
                g.offsets = classic.offsets
                del self.groups[gid]
            self.streams_groups[gid] = g

    # ------------------------------------------------------------------ helpers

    def _partitions_of(self, name: str):
        t = self.topics.get(name)
        return None if t is None else t[1]

    def _cfg(self, group_id: str) -> StreamsConfig:
        """The broker's group.streams.* settings with the group's streams.* configs over them."""
        overrides = self.group_overrides(group_id) or {}
        if not any(k.startswith("streams.") for k in overrides):
            return self.sconfig
        c = StreamsConfig(**vars(self.sconfig))
        for attr, name in (("session_timeout_ms", "streams.session.timeout.ms"),
                           ("heartbeat_interval_ms", "streams.heartbeat.interval.ms"),
                           ("num_standby_replicas", "streams.num.standby.replicas"),
                           ("initial_rebalance_delay_ms", "streams.initial.rebalance.delay.ms"),
                           ("assignment_interval_ms", "streams.assignment.interval.ms")):
            if name in overrides:
                setattr(c, attr, int(overrides[name]))
        return c

    def _assignment_configs(self, cfg: StreamsConfig) -> dict:
        return {"num.standby.replicas": str(cfg.num_standby_replicas)}

    def _group_type_error(self, group_id: str, create: bool) -> None:
        """A streams heartbeat naming a group of another type (Kafka: GROUP_ID_NOT_FOUND)."""
        if group_id in self.consumer_groups:
            raise _Fail(E.GROUP_ID_NOT_FOUND, f"Group {group_id} is not a streams group.")
        classic = self.groups.get(group_id)
        if classic is not None and (classic.members or classic.protocol_type is not None or not create):
            raise _Fail(E.GROUP_ID_NOT_FOUND, f"Group {group_id} is not a streams group.")

    # ------------------------------------------------------------------ StreamsGroupHeartbeat

    def streams_group_heartbeat(self, req: StreamsHeartbeatRequest, now_ms: int, topics: dict | None = None
                                ) -> StreamsHeartbeatResult:
        self._now = now_ms
        if topics is not None:
            self.update_topics(topics)
        try:
            self._validate_streams_heartbeat(req)
            if req.member_epoch in (LEAVE_GROUP_MEMBER_EPOCH, LEAVE_GROUP_STATIC_MEMBER_EPOCH):
                return self._streams_leave(req, now_ms)
            return self._streams_heartbeat(req, now_ms)
        except _Fail as f:
            return StreamsHeartbeatResult(error=f.code, error_message=f.message)

    def _validate_streams_heartbeat(self, req: StreamsHeartbeatRequest) -> None:
        """Kafka's throwIfStreamsGroupHeartbeatRequestIsInvalid (and the unsupported features)."""
        bad = lambda msg: _Fail(E.INVALID_REQUEST, msg)  # noqa: E731
        if req.topology is not None:
            for s in req.topology.subtopologies or []:
                if s.source_topic_regex:
                    raise bad("Regular expressions for source topics are not supported yet.")
        if not req.member_id:
            raise bad("MemberId can't be empty.")
        if not req.group_id:
            raise bad("GroupId can't be empty.")
        if req.instance_id is not None and not req.instance_id:
            raise bad("InstanceId can't be empty.")
        if req.rack_id is not None and not req.rack_id:
            raise bad("RackId can't be empty.")
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
                        raise _Fail(E.STREAMS_INVALID_TOPOLOGY,
                                    f"Changelog topic {ti.name} must have an undefined partition count, but it is "
                                    f"set to {ti.partitions}.")
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
            raise _Fail(E.UNKNOWN_SERVER_ERROR, None)

    def _streams_group(self, group_id: str, create: bool, now_ms: int) -> StreamsGroup:
        g = self.streams_groups.get(group_id)
        if g is not None:
            return g
        self._group_type_error(group_id, create)
        if not create:
            raise _Fail(E.GROUP_ID_NOT_FOUND, f"Streams group {group_id} not found.")
        g = StreamsGroup(group_id, state_timestamp_ms=now_ms)
        classic = self.groups.get(group_id)
        if classic is not None:
            # an empty classic group holding only offsets: the streams group keeps them
            g.offsets = classic.offsets
        return g

    def _check_streams_epoch(self, m: StreamsMember, req: StreamsHeartbeatRequest) -> None:
        got = req.member_epoch
        if got > m.member_epoch:
            raise _Fail(E.FENCED_MEMBER_EPOCH, f"The streams group member has a greater member epoch ({got}) than "
                        f"the one known by the group coordinator ({m.member_epoch}). The member must abandon all "
                        f"its partitions and rejoin.")
        if got < m.member_epoch:
            owned = self._owned(req)
            if got != m.previous_member_epoch or owned is None or not owned.is_subset_of(m.assigned):
                raise _Fail(E.FENCED_MEMBER_EPOCH, f"The streams group member has a smaller member epoch ({got}) "
                            f"than the one known by the group coordinator ({m.member_epoch}). The member must "
                            f"abandon all its partitions and rejoin.")

    @staticmethod
    def _owned(req: StreamsHeartbeatRequest) -> Tasks | None:
        if req.active is None:
            return None
        return Tasks(_tasks_of(req.active), _tasks_of(req.standby), _tasks_of(req.warmup))

    def _streams_heartbeat(self, req: StreamsHeartbeatRequest, now_ms: int) -> StreamsHeartbeatResult:
        cfg = self._cfg(req.group_id)
        joining = req.member_epoch == 0
        g = self._streams_group(req.group_id, joining, now_ms)
        self._delayed_assignment(g, now_ms)  # a delay that ran out since the last tick
        gid = g.group_id
        records: list = []
        member = g.members.get(req.member_id)
        if joining:
            if member is None:
                if len(g.members) >= cfg.max_size:
                    raise _Fail(E.GROUP_MAX_SIZE_REACHED,
                                f"The streams group has reached its maximum capacity of {cfg.max_size} members.")
                member = StreamsMember(req.member_id)
                new_member = True
            else:
                new_member = False
        else:
            if member is None:
                raise _Fail(E.UNKNOWN_MEMBER_ID, f"Member {req.member_id} is not a member of group {gid}.")
            self._check_streams_epoch(member, req)
            new_member = False
        owned = self._owned(req)

        # 1. the member's metadata
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
        bump = False
        if new_member or updated.metadata() != member.metadata():
            records.append(srec.member_metadata(gid, updated))
            bump = True

        # 2. the topology: the first member's is the group's
        topology = g.topology
        if req.topology is not None:
            from_req = stopo.from_request(req.topology)
            if topology is None:
                records.append(srec.topology(gid, from_req))
                topology = from_req
            elif topology.epoch <= from_req.epoch and not stopo.same(topology, from_req):
                raise _Fail(E.INVALID_REQUEST, "Topology updates are not supported yet.")
        if topology is None:
            raise _Fail(E.GROUP_ID_NOT_FOUND, f"Streams group {gid} has no topology.")
        status: list = []
        if updated.topology_epoch < topology.epoch:
            status.append((stopo.STALE_TOPOLOGY, f"The member's topology epoch {updated.topology_epoch} is behind "
                                                 f"the group's topology epoch {topology.epoch}."))

        # 3. configure the topology against the metadata image (Kafka refreshes this when the image changes)
        mhash = _metadata_hash(self.topics, stopo.required_topics(topology))
        configured = g.configured
        if configured is None or g.topology is None or mhash != g.metadata_hash \
                or configured.topology_epoch != topology.epoch:
            configured = stopo.configure(topology, mhash, self._partitions_of)
        if mhash != g.metadata_hash:
            bump = True
        validated = topology.epoch if configured.ready else -1
        if configured.ready:
            self._check_tasks(configured, owned)
        if validated != g.validated_topology_epoch:
            bump = True
        assignment_configs = self._assignment_configs(cfg)
        if not bump and assignment_configs != g.assignment_configs:
            bump = True
        group_epoch = g.group_epoch + 1 if bump else g.group_epoch
        if bump:
            records.append(srec.group_metadata(gid, group_epoch, mhash, validated, assignment_configs))

        # 4. the target assignment: the first one waits for the initial rebalance delay (a member
        # joining an empty group starts it), later ones for the assignment interval
        members = dict(g.members)
        members[updated.member_id] = updated
        target = dict(g.target)
        assignment_epoch = g.assignment_epoch
        assignment_ms = g.assignment_timestamp_ms
        initial_deadline = g.initial_delay_deadline_ms
        if not g.members and cfg.initial_rebalance_delay_ms > 0:
            initial_deadline = now_ms + cfg.initial_rebalance_delay_ms
        elif not g.members and group_epoch > assignment_epoch:
            # the initial rebalance with no delay happens at once, and like one that waited it takes
            # a new group epoch (Kafka 4.3: a first member joining with a 0 ms delay gets epoch 2)
            group_epoch += 1
            records.append(srec.group_metadata(gid, group_epoch, mhash, validated, assignment_configs))
        member_target_epoch = assignment_epoch
        member_target = target.get(updated.member_id, Tasks())
        delayed = None
        if group_epoch > assignment_epoch:
            if initial_deadline is not None and now_ms < initial_deadline:
                delayed = "Assignment delayed due to the configured initial rebalance delay."
                member_target_epoch, member_target = max(1, assignment_epoch), Tasks()
            elif assignment_ms is not None and now_ms < assignment_ms + cfg.assignment_interval_ms:
                delayed = "Assignment delayed due to the configured assignment interval."
            else:
                target = self._new_target(g, members, configured, target, group_epoch, now_ms, records)
                assignment_epoch = member_target_epoch = group_epoch
                assignment_ms = now_ms
                initial_deadline = None
                member_target = target.get(updated.member_id, Tasks())

        # 5. reconcile the member towards its target
        owners = _owners_without(members, updated.member_id)
        before = updated
        updated = reconcile(updated, member_target_epoch, member_target, owners, owned)
        if new_member or updated.member_epoch != before.member_epoch or updated.state != before.state \
                or updated.assigned != before.assigned or updated.pending_revocation != before.pending_revocation:
            records.append(srec.current_member(gid, updated))

        # ---- write, then apply
        try:
            self._append(gid, records, now_ms)
        except Exception:
            raise _Fail(E.UNKNOWN_SERVER_ERROR, "could not write the group's records") from None
        existed = gid in self.streams_groups
        if not existed:
            self.groups.pop(gid, None)
            self.streams_groups[gid] = g
        g.members[updated.member_id] = updated
        g.topology = topology
        g.configured = configured
        g.metadata_hash = mhash
        g.validated_topology_epoch = validated
        g.assignment_configs = assignment_configs
        g.group_epoch = group_epoch
        g.target = target
        g.assignment_epoch = assignment_epoch
        g.assignment_timestamp_ms = assignment_ms
        g.initial_delay_deadline_ms = initial_deadline
        updated.session_deadline_ms = now_ms + cfg.session_timeout_ms
        if updated.state == UNREVOKED_TASKS:
            if before.state != UNREVOKED_TASKS or updated.rebalance_deadline_ms is None:
                updated.rebalance_deadline_ms = now_ms + max(updated.rebalance_timeout_ms, 0)
        else:
            updated.rebalance_deadline_ms = None
        if req.shutdown_application:
            g.shutdown_requested_by = updated.member_id

        result = StreamsHeartbeatResult(member_id=updated.member_id, member_epoch=updated.member_epoch,
                                        heartbeat_interval_ms=cfg.heartbeat_interval_ms)
        if joining or updated.assigned != member.assigned:
            result.assignment = updated.assigned
            if updated.user_endpoint is not None:
                g.endpoint_information_epoch += 1
        if g.endpoint_information_epoch != req.endpoint_information_epoch:
            result.partitions_by_endpoint = self._endpoints(g, updated.member_id)
        result.endpoint_information_epoch = g.endpoint_information_epoch
        if delayed is not None:
            status.append((stopo.ASSIGNMENT_DELAYED, delayed))
        if configured.status is not None:
            status.append(configured.status)
            result.topics_to_create = dict(configured.to_create)
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
        """The timer side of the assignment delays: once the initial delay or the assignment interval
        is over, a group behind its epoch gets its target assignment without waiting for a heartbeat.
        The end of the initial delay also bumps the group epoch (as Kafka 4.3: the members, which got
        an empty target at epoch max(1, assignment epoch) meanwhile, move on to the new one)."""
        if not g.members:
            g.initial_delay_deadline_ms = None
            return
        initial = g.initial_delay_deadline_ms is not None
        if initial:
            if now_ms < g.initial_delay_deadline_ms:
                return
        elif g.group_epoch <= g.assignment_epoch or (
                g.assignment_timestamp_ms is not None
                and now_ms < g.assignment_timestamp_ms + self._cfg(g.group_id).assignment_interval_ms):
            return
        configured = g.configured
        if configured is None and g.topology is not None:
            mhash = _metadata_hash(self.topics, stopo.required_topics(g.topology))
            configured = stopo.configure(g.topology, mhash, self._partitions_of)
        records: list = []
        group_epoch = g.group_epoch
        if initial:
            group_epoch += 1
            records.append(srec.group_metadata(g.group_id, group_epoch, g.metadata_hash, g.validated_topology_epoch,
                                               g.assignment_configs))
        target = self._new_target(g, g.members, configured, g.target, group_epoch, now_ms, records)
        try:
            self._append(g.group_id, records, now_ms)
        except Exception:
            return
        g.configured = configured
        g.group_epoch = group_epoch
        g.target = target
        g.assignment_epoch = group_epoch
        g.assignment_timestamp_ms = now_ms
        g.initial_delay_deadline_ms = None

    @staticmethod
    def _check_tasks(configured, owned: Tasks | None) -> None:
        """Kafka's throwIfRequestContainsInvalidTasks."""
        if owned is None:
            return
        for d in (owned.active, owned.standby, owned.warmup):
            for s, ps in d.items():
                n = configured.tasks.get(s)
                if n is None or any(p < 0 or p >= n for p in ps):
                    raise _Fail(E.STREAMS_INVALID_TOPOLOGY_EPOCH, "Stale topology epoch: the member owns tasks "
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
        g = self.streams_groups.get(req.group_id)
        if g is None:
            self._group_type_error(req.group_id, False)
            raise _Fail(E.GROUP_ID_NOT_FOUND, f"Streams group {req.group_id} not found.")
        m = g.members.get(req.member_id)
        if m is None:
            raise _Fail(E.UNKNOWN_MEMBER_ID, f"Member {req.member_id} is not a member of group {g.group_id}.")
        self._remove_streams_member(g, m.member_id, now_ms)
        return StreamsHeartbeatResult(member_id=m.member_id, member_epoch=req.member_epoch)

    def _remove_streams_member(self, g: StreamsGroup, member_id: str, now_ms: int) -> None:
        """Kafka's fence/remove: tombstones for the member, and a new group epoch."""
        gid = g.group_id
        records = [srec.current_member(gid, member_id), srec.target_member(gid, member_id, None),
                   srec.member_metadata(gid, member_id),
                   srec.group_metadata(gid, g.group_epoch + 1, g.metadata_hash, g.validated_topology_epoch,
                                       g.assignment_configs)]
        self._append(gid, records, now_ms)
        g.members.pop(member_id)
        g.target.pop(member_id, None)
        g.group_epoch += 1
        if g.shutdown_requested_by == member_id and not g.members:
            g.shutdown_requested_by = None
        if not g.members:
            g.state_timestamp_ms = now_ms
            g.shutdown_requested_by = None

    # ------------------------------------------------------------------ StreamsGroupDescribe

    def streams_group_describe(self, group_id: str) -> dict:
        g = self.streams_groups.get(group_id)
        if g is None:
            if group_id in self.groups or group_id in self.consumer_groups:
                return {"error": E.GROUP_ID_NOT_FOUND, "message": f"Group {group_id} is not a streams group."}
            return {"error": E.GROUP_ID_NOT_FOUND, "message": f"Group {group_id} not found."}
        return {"error": E.NONE, "group": g}

    # ------------------------------------------------------------------ other group types on a streams id

    def consumer_group_heartbeat(self, req, now_ms, topics=None):
        if req.group_id in self.streams_groups:
            from .consumer_group_coordinator import HeartbeatResult
            return HeartbeatResult(error=E.GROUP_ID_NOT_FOUND,
                                   error_message=f"Group {req.group_id} is not a consumer group.")
        return super().consumer_group_heartbeat(req, now_ms, topics)

    def consumer_group_describe(self, group_id: str) -> dict:
        if group_id in self.streams_groups:
            return {"error": E.GROUP_ID_NOT_FOUND, "message": f"Group {group_id} is not a consumer group."}
        return super().consumer_group_describe(group_id)

    def join_group(self, group_id, member_id, group_instance_id, client_id, client_host, session_timeout_ms,
                   rebalance_timeout_ms, protocol_type, protocols, now_ms, api_version=9) -> Slot:
        if group_id in self.streams_groups:
            return Slot(JoinResult(error=E.INCONSISTENT_GROUP_PROTOCOL, member_id=member_id))
        return super().join_group(group_id, member_id, group_instance_id, client_id, client_host,
                                  session_timeout_ms, rebalance_timeout_ms, protocol_type, protocols, now_ms,
                                  api_version)

    # ------------------------------------------------------------------ offsets

    def _validate_streams_commit(self, g: StreamsGroup, member_id: str, epoch: int, transactional: bool,
                                 api_version: int, partitions=()) -> dict | ErrorCode:
        """Kafka 4.3's StreamsGroup.validateOffsetCommit -> an error for the whole request, or
        {(topic, partition): error} when an older member epoch commits (allowed for the partitions
        of active tasks the member got at or before that epoch)."""
        if epoch < 0 and not g.members:
            return E.NONE
        if transactional and epoch == -1 and not member_id:
            return E.NONE
        m = g.members.get(member_id)
        if m is None:
            return E.UNKNOWN_MEMBER_ID
        if not transactional and api_version < 9:
            return E.UNSUPPORTED_VERSION
        if epoch > m.member_epoch:
            return E.STALE_MEMBER_EPOCH
        if epoch == m.member_epoch:
            return E.NONE
        by_topic: dict = {}
        for s in (g.topology.subtopologies if g.topology is not None else None) or []:
            for t in list(s.source_topics or []) + [x.name for x in s.repartition_source_topics or []]:
                by_topic.setdefault(t, []).append(s.subtopology_id)
        out = {}
        for topic, p in partitions:
            ok = False
            for sid in by_topic.get(topic, []):
                at = m.active_epochs.get((sid, p))
                if at is not None and epoch >= at:
                    ok = True
            out[(topic, p)] = E.NONE if ok else E.STALE_MEMBER_EPOCH
        return out

    def commit_offsets(self, group_id, generation_id, member_id, group_instance_id, offsets, now_ms,
                       retention_time_ms=-1, api_version=8, topic_ids=None) -> dict:
        g = self.streams_groups.get(group_id)
        if g is None:
            return super().commit_offsets(group_id, generation_id, member_id, group_instance_id, offsets, now_ms,
                                          retention_time_ms, api_version, topic_ids)
        self._now = now_ms
        err = self._validate_streams_commit(g, member_id, generation_id, False, api_version, list(offsets))
        result, records, staged = {}, [], {}
        if isinstance(err, dict):
            result = {tp: e for tp, e in err.items() if e is not E.NONE}
            offsets = {tp: v for tp, v in offsets.items() if tp not in result}
        elif err is not E.NONE:
            return {tp: err for tp in offsets}
        expire = now_ms + retention_time_ms if retention_time_ms is not None and retention_time_ms >= 0 else -1
        for tp, (offset, leader_epoch, metadata) in offsets.items():
            if metadata is not None and len(metadata.encode()) > self.config.offset_metadata_max_bytes:
                result[tp] = E.OFFSET_METADATA_TOO_LARGE
                continue
            om = OffsetAndMetadata(offset, leader_epoch if leader_epoch is not None else -1, metadata or "",
                                   now_ms, expire, rec.topic_id_of(topic_ids, tp[0]))
            staged[tp] = om
            records.append((rec.offset_commit_key(group_id, tp[0], tp[1]), rec.offset_commit_value(om)))
        try:
            self._append(group_id, records, now_ms)
        except Exception:
            return {**result, **{tp: E.UNKNOWN_SERVER_ERROR for tp in staged}}
        g.offsets.update(staged)
        result.update({tp: E.NONE for tp in staged})
        return result

    def validate_txn_commit(self, group_id, generation_id, member_id, group_instance_id, now_ms,
                            partitions=()) -> ErrorCode:
        g = self.streams_groups.get(group_id)
        if g is None:
            return super().validate_txn_commit(group_id, generation_id, member_id, group_instance_id, now_ms,
                                               partitions)
        err = self._validate_streams_commit(g, member_id, generation_id, True, 9, list(partitions))
        if isinstance(err, dict):  # an older epoch: only for partitions named (none named: stale)
            return next((e for e in err.values() if e is not E.NONE), E.NONE) if err else E.STALE_MEMBER_EPOCH
        return err

    def apply_committed_offsets(self, group_id: str, offsets: dict, now_ms: int) -> None:
        g = self.streams_groups.get(group_id)
        if g is None:
            return super().apply_committed_offsets(group_id, offsets, now_ms)
        g.offsets.update(offsets)

    def validate_offset_fetch(self, group_id: str, member_id: str | None, member_epoch: int) -> ErrorCode:
        g = self.streams_groups.get(group_id)
        if g is None:
            return super().validate_offset_fetch(group_id, member_id, member_epoch)
        if (member_id is None and member_epoch < 0) or (not member_id and member_epoch < 0):
            return E.NONE
        m = g.members.get(member_id)
        if m is None:
            return E.UNKNOWN_MEMBER_ID
        if member_epoch != m.member_epoch:
            return E.STALE_MEMBER_EPOCH
        return E.NONE

    def fetch_offsets(self, group_id: str, partitions: list | None, topic_ids: dict | None = None):
        g = self.streams_groups.get(group_id)
        if g is None:
            return super().fetch_offsets(group_id, partitions, topic_ids)
        if partitions is None:
            return E.NONE, dict(sorted(g.offsets.items()))
        return E.NONE, rec.lookup_offsets(g.offsets, partitions, topic_ids)

    def _streams_subscribed(self, g: StreamsGroup) -> set:
        if g.topology is None or not g.members:
            return set()
        return {t for s in g.topology.subtopologies or [] for t in list(s.source_topics or [])
                + [x.name for x in s.repartition_source_topics or []]}

    def delete_offsets(self, group_id: str, partitions: list, now_ms: int):
        g = self.streams_groups.get(group_id)
        if g is None:
            return super().delete_offsets(group_id, partitions, now_ms)
        return self._delete_unsubscribed_offsets(group_id, g.offsets, self._streams_subscribed(g), partitions,
                                                 now_ms)

    def committed(self, group_id: str) -> dict:
        g = self.streams_groups.get(group_id)
        return dict(g.offsets) if g is not None else super().committed(group_id)

    # ------------------------------------------------------------------ admin

    def describe_group(self, group_id: str) -> dict:
        if group_id not in self.streams_groups:
            return super().describe_group(group_id)
        return {"error": E.NONE, "group_id": group_id, "state": "Dead", "protocol_type": "", "protocol": "",
                "members": [], "message": f"Group {group_id} is not a classic group."}

    def list_groups(self, states=None, types=None) -> list:
        out = super().list_groups(states, types)
        want_types = {t.lower() for t in types} if types else None
        want_states = {s.lower() for s in states} if states else None
        for g in self.streams_groups.values():
            if want_types is not None and "streams" not in want_types:
                continue
            st = g.state
            # Kafka's lower-case state names: NotReady is "not_ready"
            if want_states is not None and ("not_ready" if st == "NotReady" else st.lower()) not in want_states:
                continue
            out.append((g.group_id, "streams", st, "streams"))
        return out

    def _streams_tombstones(self, g: StreamsGroup, with_offsets: bool = False) -> list:
        gid = g.group_id
        out = []
        if with_offsets:
            out += [(rec.offset_commit_key(gid, t, p), None) for (t, p) in g.offsets]
        out += [srec.current_member(gid, mid) for mid in g.members]
        out += [srec.target_member(gid, mid, None) for mid in g.target]
        out.append(srec.target_metadata(gid, None))
        out += [srec.member_metadata(gid, mid) for mid in g.members]
        out.append(srec.group_metadata(gid, None))
        out.append(srec.topology(gid, None))
        return out

    def delete_groups(self, group_ids: list, now_ms: int) -> dict:
        others = [gid for gid in group_ids if gid not in self.streams_groups]
        result = super().delete_groups(others, now_ms) if others else {}
        for gid in group_ids:
            g = self.streams_groups.get(gid)
            if g is None:
                continue
            if g.members:
                result[gid] = E.NON_EMPTY_GROUP
                continue
            try:
                self._append(gid, self._streams_tombstones(g, with_offsets=True), now_ms)
                del self.streams_groups[gid]
                result[gid] = E.NONE
            except Exception:
                result[gid] = E.UNKNOWN_SERVER_ERROR
        return {gid: result[gid] for gid in group_ids if gid in result}

    # ------------------------------------------------------------------ time

    def tick(self, now_ms: int) -> None:
        super().tick(now_ms)
        for g in list(self.streams_groups.values()):
            self._delayed_assignment(g, now_ms)
            for m in list(g.members.values()):
                if now_ms >= m.session_deadline_ms or (
                        m.rebalance_deadline_ms is not None and now_ms >= m.rebalance_deadline_ms
                        and m.state == UNREVOKED_TASKS):
                    try:
                        self._remove_streams_member(g, m.member_id, now_ms)
                    except Exception:
                        pass

    def expire_offsets(self, now_ms: int) -> None:
        """Kafka: offsets of topics the group does not read (all of them once it is empty) expire by
        their commit timestamp; an empty group whose offsets are all gone is deleted."""
        super().expire_offsets(now_ms)
        retention = self.config.offsets_retention_minutes * 60_000
        for g in list(self.streams_groups.values()):
            subscribed = self._streams_subscribed(g)
            gone = [tp for tp, om in g.offsets.items() if tp[0] not in subscribed and (
                now_ms >= om.expire_timestamp_ms if om.expire_timestamp_ms >= 0
                else now_ms - om.commit_timestamp_ms >= retention)]
            records = [(rec.offset_commit_key(g.group_id, t, p), None) for (t, p) in gone]
            delete_group = not g.members and len(gone) == len(g.offsets)
            if delete_group:
                records += self._streams_tombstones(g)
            if not records:
                continue
            try:
                self._append(g.group_id, records, now_ms)
            except Exception:
                continue
            for tp in gone:
                g.offsets.pop(tp, None)
            if delete_group:
                del self.streams_groups[g.group_id]


def _owners_without(members: dict, member_id: str):
    g = StreamsGroup("", members=members)
    return g.owners(exclude=member_id)

