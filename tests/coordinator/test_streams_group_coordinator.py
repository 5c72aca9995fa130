"""KIP-1071 streams groups as a state machine: fake clock, in-memory log, topics as plain dicts."""

from __future__ import annotations

from odradek.coordinator import streams_group_records as srec
from odradek.coordinator import streams_topology as stopo
from odradek.coordinator.group_coordinator import GroupConfig, GroupCoordinator
from odradek.coordinator.streams_heartbeat import StreamsConfig, StreamsHeartbeatRequest
from odradek.coordinator.streams_group_state import STABLE, UNRELEASED_TASKS, UNREVOKED_TASKS, Tasks, assign
from odradek.wire.errors import ErrorCode as E
from odradek.wire.messages import streams_group_heartbeat_request as hbreq
from tests.coordinator.committed_log import CommittedAtOnce


class MemoryLog(CommittedAtOnce):
    def __init__(self):
        self.parts: dict[int, list] = {}

    def append(self, partition, records, now_ms):
        log = self.parts.setdefault(partition, [])
        for k, v in records:
            log.append((len(log), k, v))
        return len(log) - 1

    def read(self, partition):
        return list(self.parts.get(partition, []))

    def has_partition(self, partition):
        return True

    def streams_records(self):
        out = []
        for part in self.parts.values():
            for _o, k, v in part:
                if srec.record_type(k) in srec.TYPES:
                    out.append(srec.decode(k, v))
        return out


LINES = b"L" * 16
REP = "app-words-repartition"
CHANGELOG = "app-counts-changelog"
SESSION = 45_000


def topology(epoch=1):
    """Word count: subtopology 0 reads `lines` and writes the repartition topic, 1 reads it and
    keeps counts in a changelog."""
    KV = hbreq.KeyValue
    return hbreq.Topology(epoch=epoch, subtopologies=[
        hbreq.Subtopology(subtopology_id="0", source_topics=["lines"], repartition_sink_topics=[REP]),
        hbreq.Subtopology(subtopology_id="1", repartition_source_topics=[
            hbreq.TopicInfo(name=REP, partitions=0, replication_factor=0,
                            topic_configs=[KV(key="cleanup.policy", value="delete")])],
            state_changelog_topics=[hbreq.TopicInfo(name=CHANGELOG, partitions=0, replication_factor=0,
                                                    topic_configs=[KV(key="cleanup.policy", value="compact")])]),
    ])


class H:
    def __init__(self, log=None, topics=None, **scfg):
        # no assignment delays unless a test asks for them (Kafka 4.3: 3000 ms initial, 1000 ms interval)
        scfg.setdefault("initial_rebalance_delay_ms", 0)
        scfg.setdefault("assignment_interval_ms", 0)
        self.now = 1_000_000
        self.log = log or MemoryLog()
        self.topics = topics if topics is not None else {"lines": (LINES, 2)}
        self.c = GroupCoordinator(log=self.log, config=GroupConfig(), now_ms=self.now,
                                         streams_config=StreamsConfig(**scfg))

    def hb(self, member, epoch, gid="app", owned=None, topo=None, process=None, endpoint_epoch=0, **kw):
        join = epoch == 0
        if owned is not None:
            active, standby, warmup = owned, {}, {}
        elif join:
            active = standby = warmup = {}
        else:
            active = standby = warmup = None
        req = StreamsHeartbeatRequest(
            group_id=gid, member_id=member, member_epoch=epoch, endpoint_information_epoch=endpoint_epoch,
            rebalance_timeout_ms=30_000 if join else -1,
            topology=(topo or topology()) if join else None, active=active, standby=standby, warmup=warmup,
            process_id=process or f"process-{member}" if join else None, **kw)
        return self.c.streams_group_heartbeat(req, self.now, dict(self.topics))

    def create_internal(self, result):
        for name, t in result.topics_to_create.items():
            self.topics[name] = (name.encode().ljust(16, b"_")[:16], t.partitions)

    def advance(self, ms):
        self.now += ms
        self.c.tick(self.now)


def active(r) -> dict:
    return {s: sorted(ps) for s, ps in r.assignment.active.items()}


def test_first_member_gets_missing_internal_topics_then_all_tasks():
    h = H()
    r = h.hb("m1", 0)
    assert r.error == E.NONE and r.member_id == "m1"
    # the topology is not ready until the broker created the repartition and changelog topics
    assert r.status == [(stopo.MISSING_INTERNAL_TOPICS,
                         f"Internal topics are missing: {CHANGELOG}, {REP}")]
    assert {n: (t.partitions, t.replication_factor, t.configs) for n, t in r.topics_to_create.items()} == {
        REP: (2, -1, {"cleanup.policy": "delete"}), CHANGELOG: (2, -1, {"cleanup.policy": "compact"})}
    assert r.member_epoch == 2 and r.assignment == Tasks()
    g = h.c.streams_groups["app"]
    assert g.state == "NotReady" and g.validated_topology_epoch == -1
    kinds = [x.kind for x in h.log.streams_records()]
    # a new group is at epoch 1 (Kafka 4.3): the first member's join makes it 2, and with no initial
    # delay the target is computed at once at that epoch
    assert kinds == [srec.MEMBER_METADATA, srec.TOPOLOGY, srec.GROUP_METADATA,
                     srec.TARGET_MEMBER, srec.TARGET_METADATA, srec.CURRENT_MEMBER]

    h.create_internal(r)
    r = h.hb("m1", 2, owned={})
    assert r.status == [] and r.topics_to_create == {}
    assert r.member_epoch == 3 and active(r) == {"0": [0, 1], "1": [0, 1]}
    assert g.state == "Stable" and g.group_epoch == 3 and g.assignment_epoch == 3
    assert g.validated_topology_epoch == 1
    meta = [x.value for x in h.log.streams_records() if x.kind == srec.GROUP_METADATA][-1]
    assert (meta.epoch, meta.validated_topology_epoch) == (3, 1)
    assert [(c.key, c.value) for c in meta.last_assignment_configs] == [("num.standby.replicas", "0")]
    # nothing changed: no assignment in the response, no records
    n = len(h.log.streams_records())
    r = h.hb("m1", 3, owned={"0": [0, 1], "1": [0, 1]})
    assert r.member_epoch == 3 and r.assignment is None and len(h.log.streams_records()) == n


def ready_group(h):
    r = h.hb("m1", 0)
    h.create_internal(r)
    r = h.hb("m1", 2, owned={})
    assert r.member_epoch == 3
    return r


def test_second_member_waits_for_revocation():
    h = H()
    ready_group(h)
    r2 = h.hb("m2", 0)
    g = h.c.streams_groups["app"]
    assert g.group_epoch == 4 and g.assignment_epoch == 4
    # m2's tasks are still owned by m1: it gets none yet, at the new epoch
    assert r2.member_epoch == 4 and r2.assignment == Tasks()
    assert g.members["m2"].state == UNRELEASED_TASKS
    target = {mid: {s: sorted(ps) for s, ps in t.active.items()} for mid, t in g.target.items()}
    assert sorted(p for t in target.values() for ps in t.values() for p in ps) == [0, 0, 1, 1]
    assert all(sum(len(ps) for ps in t.values()) == 2 for t in target.values())
    # m1 must revoke m2's tasks first; its epoch stays
    r1 = h.hb("m1", 3, owned={"0": [0, 1], "1": [0, 1]})
    assert r1.member_epoch == 3 and active(r1) == target["m1"]
    assert g.members["m1"].state == UNREVOKED_TASKS
    assert g.state == "Reconciling"
    # still owning them: no progress
    r1 = h.hb("m1", 3, owned={"0": [0, 1], "1": [0, 1]})
    assert r1.member_epoch == 3 and g.members["m1"].state == UNREVOKED_TASKS
    r1 = h.hb("m1", 3, owned=target["m1"])
    assert r1.member_epoch == 4 and g.members["m1"].state == STABLE
    r2 = h.hb("m2", 4, owned={})
    assert r2.member_epoch == 4 and active(r2) == target["m2"]
    assert g.state == "Stable"


def test_leave_and_session_timeout_move_tasks():
    h = H()
    ready_group(h)
    h.hb("m2", 0)
    g = h.c.streams_groups["app"]
    t1 = {s: sorted(ps) for s, ps in g.target["m1"].active.items()}
    h.hb("m1", 3, owned={"0": [0, 1], "1": [0, 1]})
    h.hb("m1", 3, owned=t1)
    r = h.hb("m1", -1)
    assert r.error == E.NONE and r.member_epoch == -1 and r.member_id == "m1"
    assert "m1" not in g.members and g.group_epoch == 5
    tomb = [(x.kind, x.member_id) for x in h.log.streams_records()[-4:]]
    assert tomb == [(srec.CURRENT_MEMBER, "m1"), (srec.TARGET_MEMBER, "m1"), (srec.MEMBER_METADATA, "m1"),
                    (srec.GROUP_METADATA, "")]
    r2 = h.hb("m2", 4, owned={})
    assert r2.member_epoch == 5 and active(r2) == {"0": [0, 1], "1": [0, 1]}
    # m2 stops heartbeating: removed after the session timeout, the group is empty
    h.advance(SESSION - 1)
    assert "m2" in g.members
    h.advance(1)
    assert g.members == {} and g.state == "Empty" and g.group_epoch == 6


def test_request_validation_and_fencing():
    h = H()
    req = StreamsHeartbeatRequest(group_id="app", member_id="m1", member_epoch=0, rebalance_timeout_ms=1000,
                                  active={}, standby={}, warmup={})
    r = h.c.streams_group_heartbeat(req, h.now, h.topics)
    assert (r.error, r.error_message) == (E.INVALID_REQUEST, "Topology must be non-null when (re-)joining.")
    req.member_id = ""
    r = h.c.streams_group_heartbeat(req, h.now, h.topics)
    assert (r.error, r.error_message) == (E.INVALID_REQUEST, "MemberId can't be empty.")
    r = h.hb("m1", 1, topo=None)
    assert (r.error, r.error_message) == (E.GROUP_ID_NOT_FOUND, "Streams group app not found.")
    ready_group(h)
    r = h.hb("x", 2)
    assert (r.error, r.error_message) == (E.UNKNOWN_MEMBER_ID, "Member x is not a member of group app.")
    r = h.hb("m1", 7)
    assert r.error == E.FENCED_MEMBER_EPOCH
    r = h.hb("m1", 2, owned={"2": [0]})  # the previous epoch while owning what it was not given: fenced
    assert r.error == E.FENCED_MEMBER_EPOCH
    r = h.hb("m1", 2, owned={"0": [0, 1], "1": [0, 1]})  # the previous epoch, same tasks: accepted
    assert r.error == E.NONE and r.member_epoch == 3
    bad = topology()
    bad.subtopologies[1].state_changelog_topics[0].partitions = 3
    r = h.hb("m9", 0, topo=bad)
    assert (r.error, r.error_message) == (E.STREAMS_INVALID_TOPOLOGY, f"Changelog topic {CHANGELOG} must have an "
                                          "undefined partition count, but it is set to 3.")
    other = topology()
    other.subtopologies[0].source_topics = ["other"]
    r = h.hb("m9", 0, topo=other)
    assert (r.error, r.error_message) == (E.INVALID_REQUEST, "Topology updates are not supported yet.")


def test_missing_source_topics_and_stale_topology():
    h = H(topics={})
    r = h.hb("m1", 0)
    assert r.status == [(stopo.MISSING_SOURCE_TOPICS, "Source topics lines are missing.")]
    assert r.topics_to_create == {} and r.assignment == Tasks()
    h.topics["lines"] = (LINES, 2)
    r = h.hb("m1", r.member_epoch, owned={})
    assert r.status[0][0] == stopo.MISSING_INTERNAL_TOPICS
    r2 = h.hb("m2", 0, topo=topology(epoch=0))
    assert (stopo.STALE_TOPOLOGY, "The member's topology epoch 0 is behind the group's topology epoch 1.") \
        in r2.status


def test_other_group_types_and_offsets():
    h = H()
    ready_group(h)
    from odradek.coordinator.consumer_heartbeat import HeartbeatRequest
    r = h.c.consumer_group_heartbeat(HeartbeatRequest(group_id="app", member_id="c", member_epoch=0,
                                                      rebalance_timeout_ms=1, subscribed_topic_names=["lines"],
                                                      owned=[]), h.now, h.topics)
    assert (r.error, r.error_message) == (E.GROUP_ID_NOT_FOUND, "Group app is not a consumer group.")
    assert ("app", "streams", "Stable", "streams") in h.c.list_groups()
    assert h.c.list_groups(types=["consumer"]) == []
    assert h.c.list_groups(states=["stable"], types=["streams"]) == [("app", "streams", "Stable", "streams")]
    offs = {("lines", 0): (5, -1, "")}
    assert h.c.commit_offsets("app", 3, "m1", None, offs, h.now, api_version=9) == {("lines", 0): E.NONE}
    assert h.c.commit_offsets("app", 2, "m1", None, offs, h.now, api_version=9) == {
        ("lines", 0): E.STALE_MEMBER_EPOCH}
    assert h.c.commit_offsets("app", -1, "", None, offs, h.now, api_version=9) == {
        ("lines", 0): E.UNKNOWN_MEMBER_ID}
    assert h.c.validate_offset_fetch("app", "m1", 2) == E.STALE_MEMBER_EPOCH
    assert h.c.validate_offset_fetch("app", None, -1) == E.NONE
    assert h.c.fetch_offsets("app", None)[1][("lines", 0)].offset == 5
    assert h.c.delete_groups(["app"], h.now) == {"app": E.NON_EMPTY_GROUP}
    h.hb("m1", -1)
    # empty: an admin commit (epoch -1) is accepted, and the group can be deleted with its offsets
    assert h.c.commit_offsets("app", -1, "", None, {("lines", 1): (7, -1, "")}, h.now, api_version=9) == {
        ("lines", 1): E.NONE}
    assert h.c.delete_groups(["app"], h.now) == {"app": E.NONE}
    assert "app" not in h.c.streams_groups
    tail = [x.kind for x in h.log.streams_records()[-3:]]
    assert tail == [srec.TARGET_METADATA, srec.GROUP_METADATA, srec.TOPOLOGY]


def test_reload_from_log():
    h = H()
    ready_group(h)
    h.hb("m2", 0)
    g = h.c.streams_groups["app"]
    c2 = GroupCoordinator(log=h.log, config=GroupConfig(), now_ms=h.now)
    c2.load_partition(h.c.partition_for("app"), h.now)
    g2 = c2.streams_groups["app"]
    assert (g2.group_epoch, g2.assignment_epoch, g2.validated_topology_epoch) == (4, 4, 1)
    assert set(g2.members) == {"m1", "m2"} and g2.target == g.target
    assert g2.members["m2"].state == UNRELEASED_TASKS and g2.members["m2"].process_id == "process-m2"
    assert stopo.same(g2.topology, g.topology) and g2.state == "Reconciling"


def test_assignor_is_balanced_and_sticky():
    class M:
        def __init__(self, pid):
            self.process_id = pid

    members = {"a": M("pa"), "b": M("pb"), "c": M("pc")}
    tasks = {"0": 4, "1": 2}
    prev = {"a": Tasks(active={"0": {0, 1, 2, 3}, "1": {0, 1}})}
    out = assign(members, tasks, prev)
    counts = {m: sum(len(ps) for ps in t.active.values()) for m, t in out.items()}
    assert counts == {"a": 2, "b": 2, "c": 2}
    # a keeps two of its own tasks
    assert {(s, p) for s, ps in out["a"].active.items() for p in ps} <= {
        ("0", 0), ("0", 1), ("0", 2), ("0", 3), ("1", 0), ("1", 1)}
    every = sorted((s, p) for t in out.values() for s, ps in t.active.items() for p in ps)
    assert every == [("0", 0), ("0", 1), ("0", 2), ("0", 3), ("1", 0), ("1", 1)]
    out2 = assign(members, tasks, out)
    assert out2 == out
    # one standby per task, never on the active task's process
    out3 = assign(members, tasks, out, num_standby=1)
    for m, t in out3.items():
        for s, ps in t.standby.items():
            assert not ps & t.active.get(s, set())
    assert sum(len(ps) for t in out3.values() for ps in t.standby.values()) == 6


def test_configure_partition_counts():
    v = stopo.from_request(topology())
    c = stopo.configure(v, 0, {"lines": 3}.get)
    assert c.tasks == {"0": 3, "1": 3}
    assert {n: t.partitions for n, t in c.to_create.items()} == {REP: 3, CHANGELOG: 3}
    c = stopo.configure(v, 0, {"lines": 3, REP: 3, CHANGELOG: 2}.get)
    assert c.status == (stopo.INCORRECTLY_PARTITIONED_TOPICS,
                        f"Existing topic {CHANGELOG} has different number of partitions: expected 3, found 2")
    assert not c.ready
    c = stopo.configure(v, 0, {"lines": 3, REP: 3, CHANGELOG: 3}.get)
    assert c.ready and c.status is None and c.to_create == {}


def test_older_epoch_commits_only_tasks_it_held_then():
    h = H()
    ready_group(h)  # m1 has every task since epoch 3
    h.hb("m2", 0)  # epoch 4
    g = h.c.streams_groups["app"]
    mine = {s: sorted(ps) for s, ps in g.target["m1"].active.items()}
    h.hb("m1", 3, owned={"0": [0, 1], "1": [0, 1]})
    h.hb("m1", 3, owned=mine)
    assert g.members["m1"].member_epoch == 4
    assert g.members["m1"].active_epochs == {("0", p): 3 for p in mine.get("0", [])} | {
        ("1", p): 3 for p in mine.get("1", [])}
    offs = {("lines", p): (1, -1, "") for p in (0, 1)}
    res = h.c.commit_offsets("app", 3, "m1", None, offs, h.now, api_version=9)
    # epoch 3 still commits the lines partitions of the subtopology 0 tasks m1 kept, not the others
    assert res == {("lines", p): E.NONE if p in mine.get("0", []) else E.STALE_MEMBER_EPOCH for p in (0, 1)}
    # a task it never had: stale
    g.members["m1"].active_epochs = {("0", 0): 4}
    assert h.c.commit_offsets("app", 3, "m1", None, {("lines", 0): (1, -1, "")}, h.now, api_version=9) == {
        ("lines", 0): E.STALE_MEMBER_EPOCH}
    g.members["m1"].active_epochs = {("0", p): 3 for p in mine.get("0", [])} | {("1", p): 3 for p in mine.get("1", [])}
    assert h.c.commit_offsets("app", 5, "m1", None, offs, h.now, api_version=9) == {
        tp: E.STALE_MEMBER_EPOCH for tp in offs}
    assert h.c.commit_offsets("app", 4, "m1", None, offs, h.now, api_version=8) == {
        tp: E.UNSUPPORTED_VERSION for tp in offs}
    # the epochs survive a reload
    c2 = GroupCoordinator(log=h.log, config=GroupConfig(), now_ms=h.now)
    c2.load_partition(h.c.partition_for("app"), h.now)
    assert c2.streams_groups["app"].members["m1"].active_epochs == g.members["m1"].active_epochs


def test_initial_rebalance_delay_and_assignment_interval():
    h = H(initial_rebalance_delay_ms=3000, assignment_interval_ms=1000,
          topics={"lines": (LINES, 2), REP: (b"R" * 16, 2), CHANGELOG: (b"C" * 16, 2)})
    initial = (stopo.ASSIGNMENT_DELAYED, "Assignment delayed due to the configured initial rebalance delay.")
    interval = (stopo.ASSIGNMENT_DELAYED, "Assignment delayed due to the configured assignment interval.")
    r1 = h.hb("m1", 0)
    assert (r1.member_epoch, r1.status, r1.assignment) == (1, [initial], Tasks())
    g = h.c.streams_groups["app"]
    # Kafka 4.3 (raw heartbeats, side by side): a new group is at epoch 1, the join makes it 2; the
    # member waits at the assignment epoch, 1
    assert (g.group_epoch, g.assignment_epoch, g.state) == (2, 1, "Assigning")
    h.advance(500)
    r2 = h.hb("m2", 0)
    assert (r2.member_epoch, r2.status) == (1, [initial])
    assert (g.group_epoch, g.assignment_epoch) == (3, 1)
    h.advance(2499)
    assert g.assignment_epoch == 1
    h.advance(1)  # the delay is over: the target, at the group's epoch, covers both members
    assert (g.group_epoch, g.assignment_epoch) == (3, 3)
    assert [x.kind for x in h.log.streams_records()[-3:]] == [srec.TARGET_MEMBER, srec.TARGET_MEMBER,
                                                              srec.TARGET_METADATA]
    assert sorted(p for t in g.target.values() for ps in t.active.values() for p in ps) == [0, 0, 1, 1]
    r1 = h.hb("m1", 1, owned={})
    assert r1.member_epoch == 3 and r1.status == [] and active(r1) == {
        s: sorted(ps) for s, ps in g.target["m1"].active.items()}
    # a third member within the interval waits for it, at the current target epoch
    h.advance(100)
    r3 = h.hb("m3", 0)
    assert (r3.member_epoch, r3.status, r3.assignment) == (3, [interval], Tasks())
    assert (g.group_epoch, g.assignment_epoch) == (4, 3)
    h.advance(1000)
    # the interval has no timer (Kafka 4.3: the group stays Assigning): the next heartbeat assigns
    assert (g.group_epoch, g.assignment_epoch, g.state) == (4, 3, "Assigning")
    r3 = h.hb("m3", 3, owned={})
    assert g.assignment_epoch == 4 and "m3" in g.target and r3.status == []


def test_streams_group_configs_override_the_broker():
    from odradek.controller import group_configs as GC

    h = H()
    overrides = {}
    h.c.group_overrides = lambda gid: overrides if gid == "app" else {}
    r = ready_group(h)
    assert r.heartbeat_interval_ms == 5000
    g = h.c.streams_groups["app"]
    overrides.update({"streams.heartbeat.interval.ms": "7000", "streams.session.timeout.ms": "50000",
                      "streams.num.standby.replicas": "1"})
    r = h.hb("m1", 3, owned={"0": [0, 1], "1": [0, 1]})
    # a changed assignment config is a new group epoch (Kafka: "Assignment configurations changed")
    assert r.heartbeat_interval_ms == 7000 and g.group_epoch == 4
    assert g.assignment_configs == {"num.standby.replicas": "1"}
    h.hb("m2", 0)
    assert sum(len(ps) for t in g.target.values() for ps in t.standby.values()) == 4  # one copy of each task
    h.advance(45_000)
    assert set(g.members) == {"m1", "m2"}  # 50 s for this group
    h.advance(5_000)
    assert g.members == {}
    # what IncrementalAlterConfigs accepts, with Kafka 4.3's messages
    props = {}
    assert GC.validate("streams.num.standby.replicas", "2", props) == "2"
    for name, value, msg in [
        ("streams.num.standby.replicas", "3",
         "streams.num.standby.replicas must be less than or equal to group.streams.max.standby.replicas"),
        ("streams.num.standby.replicas", "-1",
         "Invalid value -1 for configuration streams.num.standby.replicas: Value must be at least 0"),
        ("streams.session.timeout.ms", "1000",
         "streams.session.timeout.ms must be greater than or equal to group.streams.min.session.timeout.ms"),
        ("streams.heartbeat.interval.ms", "20000",
         "streams.heartbeat.interval.ms must be less than or equal to group.streams.max.heartbeat.interval.ms"),
        ("streams.assignment.interval.ms", "16000",
         "streams.assignment.interval.ms must be less than or equal to group.streams.max.assignment.interval.ms"),
    ]:
        try:
            GC.validate(name, value, props)
        except GC.InvalidGroupConfig as e:
            assert str(e) == msg
        else:
            raise AssertionError(name)


def test_the_initial_delay_timer_assigns_only_a_group_configured_since_its_creation():
    """Kafka 4.3 (side by side, raw heartbeats): the heartbeat that creates a group configures the
    topology on an object the group's records then replace, so when a one-member group's initial
    delay runs out its timer finds no configured topology and assigns nothing; the member's next
    heartbeat does. A heartbeat within the delay configures the group, and the timer assigns."""
    h = H(initial_rebalance_delay_ms=1000, topics={"lines": (LINES, 2), REP: (b"R" * 16, 2),
                                                   CHANGELOG: (b"C" * 16, 2)})
    assert h.hb("m1", 0).member_epoch == 1
    g = h.c.streams_groups["app"]
    h.advance(1000)
    assert (g.group_epoch, g.assignment_epoch, g.state) == (2, 1, "Assigning")
    r = h.hb("m1", 1, owned={})
    assert (r.member_epoch, r.status) == (2, []) and g.assignment_epoch == 2
    h2 = H(initial_rebalance_delay_ms=1000, topics=h.topics)
    h2.hb("m1", 0)
    h2.advance(500)
    assert h2.hb("m1", 1, owned={}).member_epoch == 1
    g2 = h2.c.streams_groups["app"]
    h2.advance(500)
    assert (g2.group_epoch, g2.assignment_epoch) == (2, 2)


def test_a_joining_member_takes_over_an_empty_classic_group():
    """Kafka's getOrCreateStreamsGroup (maybeDeleteEmptyClassicGroup): an empty classic group, with a
    protocol or only offsets, becomes a streams group, its GroupMetadata tombstone written first with the
    heartbeat's records and its offsets kept; one with members is not a streams group."""
    from odradek.coordinator import group_records as rec
    from odradek.coordinator.group_state import GroupState

    h = H()
    p = h.c.partition_for("app")
    h.log.append(p, [(rec.group_metadata_key("app"), rec.group_metadata_value("consumer", 3, None, None, 0, []))], h.now)
    h.c.load_partition(p, h.now)
    assert h.c.commit_offsets("app", -1, "", None, {("lines", 0): (5, -1, "")}, h.now) == {("lines", 0): E.NONE}
    assert h.c.groups["app"].state is GroupState.EMPTY and h.c.groups["app"].protocol_type == "consumer"
    end = len(h.log.parts[p])
    r = h.hb("m1", 0)
    assert r.error in (None, E.NONE) and "app" in h.c.streams_groups
    assert h.log.parts[p][end][1:] == (rec.group_metadata_key("app"), None)
    assert h.c.fetch_offsets("app", None)[1][("lines", 0)].offset == 5
    first = h.c.join_group("busy", "", None, "c", "/h", 10_000, 30_000, "consumer", [("range", b"")], h.now)
    h.c.join_group("busy", first.result.member_id, None, "c", "/h", 10_000, 30_000, "consumer", [("range", b"")],
                   h.now)
    r = h.hb("m1", 0, gid="busy")
    assert (r.error, r.error_message) == (E.GROUP_ID_NOT_FOUND, "Group busy is not a streams group.")


def test_a_group_of_offsets_only_is_taken_over_with_its_tombstone_and_reloads_with_its_offsets():
    from odradek.coordinator import group_records as rec

    h = H()
    p = h.c.partition_for("simple")
    assert h.c.commit_offsets("simple", -1, "", None, {("lines", 1): (9, -1, "")}, h.now) == {("lines", 1): E.NONE}
    end = len(h.log.parts[p])
    assert h.hb("m1", 0, gid="simple").error in (None, E.NONE)
    assert h.log.parts[p][end][1:] == (rec.group_metadata_key("simple"), None)  # as Kafka, with no record to delete
    c2 = GroupCoordinator(log=h.log, config=GroupConfig(), now_ms=h.now)
    c2.load_partition(p, h.now)
    assert "simple" in c2.streams_groups and c2.fetch_offsets("simple", None)[1][("lines", 1)].offset == 9
