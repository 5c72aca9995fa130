"""KIP-848's online upgrade and downgrade with Java kafka-clients: a group of three classic consumers
(group.protocol=classic) reads a topic while its members are rolled one at a time to
group.protocol=consumer, then back. The first consumer-protocol member turns the classic group into
a consumer group whose classic members go on with JoinGroup/SyncGroup/Heartbeat; when the last
consumer-protocol member leaves, the group is classic again (group.consumer.migration.policy
bidirectional, Kafka 4.3's default).

Each member is compat_tests/java GroupMember (kafka-clients 4.3.1) in its own JVM, stepped a poll at
a time; it stamps what it consumed, the commits acknowledged and its rebalance listener's calls with
the machine's monotonic clock. Checked at every step: the group's type as ListGroups shows it; every
record is consumed and its offset committed, commits never move back and nothing below an
acknowledged commit is consumed again (each record consumed once as far as the commits go), and no
partition is assigned to a member before the member that had it revoked or lost it. The mixed group
described: ConsumerGroupDescribe's member types (0 classic, 1 consumer), DescribeGroups' Dead.

Every test passes against Kafka 4.3.0 too: start it with BROKER_OVERRIDES and run
`pytest compat_tests/test_group_migration.py --bootstrap 127.0.0.1:PORT`.
"""

from __future__ import annotations

import os
import queue
import shutil
import subprocess
import threading
import time
import uuid

import pytest

from harness import RawClient, create_topic

BROKER_OVERRIDES = {"group.consumer.session.timeout.ms": "6000", "group.consumer.min.session.timeout.ms": "6000",
                    "group.consumer.heartbeat.interval.ms": "1000", "group.consumer.min.heartbeat.interval.ms": "1000",
                    "group.initial.rebalance.delay.ms": "0"}
JAVA_CLIENTS = "4.3.1"
PARTITIONS = 6
PER_STEP = 20  # records per partition produced before each step
COMMIT_EVERY = 5
# odradek.forget=revoked: GroupMember forgets only the revoked partitions' uncommitted reads (a partition
# kept through a cooperative rebalance is committed as read)
CLASSIC = {"group.protocol": "classic", "session.timeout.ms": "10000", "heartbeat.interval.ms": "1000",
           "max.poll.records": "5", "odradek.forget": "revoked"}
CONSUMER = {"group.protocol": "consumer", "max.poll.records": "5", "odradek.forget": "revoked"}

pytestmark = pytest.mark.skipif(shutil.which("java") is None or shutil.which("mvn") is None,
                                reason="needs java and mvn")


class Events:
    """Every member's stamped events: (ns, member, kind, partition or offset data)."""

    def __init__(self):
        self.rows: list[tuple[int, str, str, object]] = []
        self.lock = threading.Lock()

    def add(self, row) -> None:
        with self.lock:
            self.rows.append(row)

    def sorted(self) -> list:
        with self.lock:
            return sorted(self.rows, key=lambda r: r[0])


class JavaMember:
    def __init__(self, name: str, bootstrap: str, topic: str, group: str, settings: dict, events: Events):
        from builds import CHECK_JVM, java_clients_classpath

        self.name, self.events = name, events
        self.proc = subprocess.Popen(
            ["java", *CHECK_JVM, "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "-cp",
             java_clients_classpath(JAVA_CLIENTS), "odradek.compat.GroupMember", bootstrap, topic, group,
             str(COMMIT_EVERY), *(f"{k}={v}" for k, v in settings.items())],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1)
        self.stepping = threading.Event()
        self.stderr: list[str] = []
        self.owned: set[int] = set()
        self.slot = 0  # (the test's: which of the group's places it has)
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=lambda: [self.stderr.append(x) for x in self.proc.stderr], daemon=True).start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            kind, _, rest = line.rstrip("\n").partition(" ")
            if kind == "D":
                self.stepping.clear()
                continue
            ns, _, data = rest.partition(" ")
            if kind == "R":
                p, o = data.split()
                self.events.add((int(ns), self.name, "R", (int(p), int(o))))
            elif kind == "C":
                self.events.add((int(ns), self.name, "C", {int(p): int(o) for p, o in
                                                             (x.split(":") for x in data.split(","))}))
            elif kind in ("A", "V", "L"):
                parts = {int(p) for p in data.split(",") if p}
                if kind == "A":
                    self.owned |= parts
                else:
                    self.owned -= parts
                self.events.add((int(ns), self.name, kind, parts))

    def step(self) -> None:
        if self.proc.poll() is not None:
            raise AssertionError(f"{self.name} exited: {''.join(self.stderr[-30:])}")
        if not self.stepping.is_set():
            self.stepping.set()
            self.proc.stdin.write("step\n")
            self.proc.stdin.flush()

    def close(self) -> None:
        try:
            self.proc.stdin.write("close\n")
            self.proc.stdin.close()
            self.proc.wait(60)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait()
        self.events.add((time.monotonic_ns(), self.name, "X", set()))


def _group_type(raw: RawClient, group: str) -> str | None:
    from odradek.wire.messages.list_groups_request import ListGroupsRequest

    for g in raw.call(ListGroupsRequest(states_filter=[], types_filter=[]), 5).groups:
        if g.group_id == group:
            return g.group_type
    return None


def _produce(bootstrap: str, topic: str, n: int) -> None:
    from confluent_kafka import Producer

    p = Producer({"bootstrap.servers": bootstrap})
    for part in range(PARTITIONS):
        for i in range(n):
            p.produce(topic, f"{part}-{i}".encode(), partition=part)
    p.flush(30)


def _acked(events: Events) -> dict[int, int]:
    out: dict[int, int] = {}
    for _ns, _who, kind, data in events.sorted():
        if kind == "C":
            for p, o in data.items():
                out[p] = max(o, out.get(p, 0))
    return out


def _run_until(members: list[JavaMember], pred, timeout: float, what: str, events: Events) -> None:
    deadline = time.monotonic() + timeout
    while not pred():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {timeout} s; acked {_acked(events)}, owned "
                                 f"{[(m.name, sorted(m.owned)) for m in members]}")
        for m in members:
            m.step()
        time.sleep(0.01)


def _check(events: Events, end: int) -> None:
    """Commits never move back; nothing below an acknowledged commit is consumed again; every record
    is committed; a partition is assigned to a member only once no other member holds it."""
    acked: dict[int, int] = {}
    owner: dict[int, str] = {}
    consumed: set[tuple[int, int]] = set()
    problems = []
    for ns, who, kind, data in events.sorted():
        if kind == "C":
            for p, o in data.items():
                if o < acked.get(p, 0):
                    problems.append(f"{who} committed {p}@{o} below {acked[p]}")
                acked[p] = max(o, acked.get(p, 0))
        elif kind == "R":
            p, o = data
            if (p, o) in consumed and o < acked.get(p, 0):
                problems.append(f"{who} consumed {p}@{o} again below the commit {acked[p]}")
            if owner.get(p) != who:
                problems.append(f"{who} consumed {p}@{o} while {owner.get(p)} held it")
            consumed.add((p, o))
        elif kind == "A":
            for p in data:
                if owner.get(p) not in (None, who):
                    problems.append(f"{who} assigned {p} while {owner[p]} held it")
                owner[p] = who
        else:  # V, L, X (closed)
            for p in [p for p, w in owner.items() if w == who and (kind == "X" or p in data)]:
                del owner[p]
    assert not problems, problems[:10]
    assert acked == {p: end for p in range(PARTITIONS)}
    assert {(p, o) for p in range(PARTITIONS) for o in range(end)} <= consumed


def _describe(raw: RawClient, group: str):
    from odradek.wire.messages.consumer_group_describe_request import ConsumerGroupDescribeRequest
    from odradek.wire.messages.describe_groups_request import DescribeGroupsRequest

    cg = raw.call(ConsumerGroupDescribeRequest(group_ids=[group], include_authorized_operations=False), 1).groups[0]
    dg = raw.call(DescribeGroupsRequest(groups=[group]), 5).groups[0]
    return cg, dg


@pytest.mark.parametrize("membership", ["dynamic", "static", "cooperative"])
def test_roll_classic_members_to_the_consumer_protocol_and_back(bootstrap, topic_name, membership):
    """Static members (group.instance.id): a restarted instance takes its predecessor's place (a
    classic one leaves no LeaveGroup, a consumer-protocol one leaves with epoch -2), and the classic
    instance replacing the last consumer-protocol one downgrades the group. Cooperative: the classic
    members use the CooperativeStickyAssignor (they keep their partitions through a rebalance and
    name them in their JoinGroup: the coordinator has them revoke before another member gets them)."""
    pytest.importorskip("confluent_kafka")
    create_topic(bootstrap, topic_name, partitions=PARTITIONS)
    group = f"mig-{uuid.uuid4().hex[:8]}"
    raw = RawClient(bootstrap)
    raw.await_group_coordinator(group)
    events = Events()
    made = iter(range(100))

    def member(settings: dict, slot: int) -> JavaMember:
        kind = settings["group.protocol"]
        if membership == "static":
            settings = {**settings, "group.instance.id": f"instance-{slot}"}
        elif membership == "cooperative" and kind == "classic":
            settings = {**settings, "partition.assignment.strategy":
                        "org.apache.kafka.clients.consumer.CooperativeStickyAssignor"}
        m = JavaMember(f"{kind}-{next(made)}", bootstrap, topic_name, group, settings, events)
        m.slot = slot
        return m

    members = [member(CLASSIC, slot) for slot in range(3)]
    produced = 0
    types, mixed = [], None
    plan = [CONSUMER] * 3 + [CLASSIC] * 3
    try:
        for step in range(len(plan) + 1):
            _produce(bootstrap, topic_name, PER_STEP)
            produced += PER_STEP
            _run_until(members, lambda: _acked(events) == {p: produced for p in range(PARTITIONS)}
                       and all(m.owned for m in members)
                       and sorted(p for m in members for p in m.owned) == list(range(PARTITIONS)),
                       120, f"step {step}: everything committed, every member assigned", events)
            types.append(_group_type(raw, group))
            if step == 1:  # (the members' last heartbeats may still be on their way: Stable once they are in)
                _run_until(members, lambda: _describe(raw, group)[0].group_state == "Stable", 60,
                           "the mixed group stable", events)
                mixed = _describe(raw, group)
            if step == len(plan):
                break
            old = members.pop(0)
            old.close()
            members.append(member(plan[step], old.slot))
        _check(events, produced)
    finally:
        for m in members:
            m.close()
        raw.close()
    # the first consumer-protocol member upgrades the group; it stays a consumer group until the last
    # one leaves (the classic members left downgrade it)
    assert types == ["classic", "consumer", "consumer", "consumer", "consumer", "consumer", "classic"]
    cg, dg = mixed
    assert cg.error_code == 0 and cg.group_state == "Stable"
    assert sorted(m.member_type for m in cg.members) == [0, 0, 1]  # two classic members, one consumer
    assert all(m.subscribed_topic_names == [topic_name] for m in cg.members)
    assert sum(len(tp.partitions) for m in cg.members for tp in m.assignment.topic_partitions) == PARTITIONS
    assert (dg.error_code, dg.group_state, dg.protocol_type, list(dg.members)) == (0, "Dead", "", [])


# ---------------------------------------------------------------- raw requests (what the clients do not show)


def subscription(topic: str, version: int = 1) -> bytes:
    import struct

    from odradek.wire.messages.consumer_protocol_subscription import ConsumerProtocolSubscription

    sub = ConsumerProtocolSubscription(topics=[topic], user_data=None, owned_partitions=[])
    return struct.pack(">h", version) + bytes(sub.encode(version))


def raw_classic_member(raw: RawClient, group: str, protocol_type: str, metadata: bytes):
    """A classic member through JoinGroup v9 (MEMBER_ID_REQUIRED, then again) and its SyncGroup v5
    (as the leader, assigning itself nothing): (member id, generation, the JoinGroup answer)."""
    from odradek.wire.messages.join_group_request import JoinGroupRequest, JoinGroupRequestProtocol
    from odradek.wire.messages.sync_group_request import SyncGroupRequest

    def join(member_id: str):
        return raw.call(JoinGroupRequest(group_id=group, session_timeout_ms=30000, rebalance_timeout_ms=30000,
                                         member_id=member_id, protocol_type=protocol_type,
                                         protocols=[JoinGroupRequestProtocol(name="range", metadata=metadata)]), 9)

    deadline = time.monotonic() + 30
    first = join("")
    while first.error_code in (14, 15, 16) and time.monotonic() < deadline:  # the coordinator still loading
        time.sleep(0.1)
        first = join("")
    assert first.error_code == 79  # MEMBER_ID_REQUIRED
    j = join(first.member_id)
    assert j.error_code == 0, j
    s = raw.call(SyncGroupRequest(group_id=group, generation_id=j.generation_id, member_id=j.member_id,
                                  protocol_type=protocol_type, protocol_name="range", assignments=[]), 5)
    assert s.error_code == 0, s
    return j.member_id, j.generation_id, j


def raw_heartbeat(raw: RawClient, **kw):
    from odradek.wire.messages.consumer_group_heartbeat_request import ConsumerGroupHeartbeatRequest

    base = dict(member_id=str(uuid.uuid4()), member_epoch=0, rebalance_timeout_ms=30000, topic_partitions=[])
    base.update(kw)
    return raw.call(ConsumerGroupHeartbeatRequest(**base), 1)


def test_upgrade_refused_when_the_classic_group_is_not_the_consumer_protocols(bootstrap, topic_name):
    create_topic(bootstrap, topic_name, partitions=2)
    raw = RawClient(bootstrap)
    try:
        for protocol_type, metadata, why in (
                ("connect", subscription(topic_name), "the group does not use the consumer embedded protocol"),
                ("consumer", b"", "the embedded consumer protocol is malformed")):
            group = f"mig-{uuid.uuid4().hex[:8]}"
            raw.await_group_coordinator(group)
            raw_classic_member(raw, group, protocol_type, metadata)
            r = raw_heartbeat(raw, group_id=group, subscribed_topic_names=[topic_name])
            assert (r.error_code, r.error_message) == (
                69, f"Cannot upgrade classic group {group} to consumer group because {why}.")  # GROUP_ID_NOT_FOUND
            r = raw_heartbeat(raw, group_id=group, member_epoch=1, rebalance_timeout_ms=-1, topic_partitions=None)
            assert (r.error_code, r.error_message) == (69, f"Group {group} is not a consumer group.")
            assert _group_type(raw, group) == "classic"
    finally:
        raw.close()


def test_mixed_group_survives_a_coordinator_kill(controllable_broker, topic_name):
    """The upgraded group (two classic members, one consumer-protocol member) is read back from
    __consumer_offsets by the restarted broker (kill -9): the same members, classic or not, and the
    group goes on consuming and committing."""
    pytest.importorskip("confluent_kafka")
    bootstrap = controllable_broker.bootstrap
    create_topic(bootstrap, topic_name, partitions=PARTITIONS)
    group = f"mig-{uuid.uuid4().hex[:8]}"
    raw = RawClient(bootstrap)
    raw.await_group_coordinator(group)
    events = Events()
    members = [JavaMember(f"classic-{i}", bootstrap, topic_name, group, CLASSIC, events) for i in range(2)]
    produced = 0

    def settle(what: str) -> None:
        _run_until(members, lambda: _acked(events) == {p: produced for p in range(PARTITIONS)}
                   and all(m.owned for m in members)
                   and sorted(p for m in members for p in m.owned) == list(range(PARTITIONS)), 120, what, events)

    def described() -> set:
        cg, _ = _describe(raw, group)
        return {(m.member_id, m.member_type) for m in cg.members}

    try:
        _produce(bootstrap, topic_name, PER_STEP)
        produced += PER_STEP
        settle("the classic group")
        members.append(JavaMember("consumer-2", bootstrap, topic_name, group, CONSUMER, events))
        _produce(bootstrap, topic_name, PER_STEP)
        produced += PER_STEP
        settle("the upgraded group")
        before = described()
        assert sorted(t for _m, t in before) == [0, 0, 1]
        raw.close()
        controllable_broker.kill9()
        controllable_broker.start()
        raw = RawClient(bootstrap)
        raw.await_group_coordinator(group)
        assert described() == before and _group_type(raw, group) == "consumer"
        _produce(bootstrap, topic_name, PER_STEP)
        produced += PER_STEP
        settle("after the restart")
        _check(events, produced)
        assert _group_type(raw, group) == "consumer"
    finally:
        for m in members:
            m.close()
        raw.close()


def _raw_commit(raw: RawClient, group: str, topic: str, generation: int, member_id: str, offsets: dict) -> list:
    from odradek.wire.messages.offset_commit_request import (OffsetCommitRequest, OffsetCommitRequestPartition,
                                                             OffsetCommitRequestTopic)

    r = raw.call(OffsetCommitRequest(group_id=group, generation_id_or_member_epoch=generation, member_id=member_id,
                                     topics=[OffsetCommitRequestTopic(name=topic, partitions=[
                                         OffsetCommitRequestPartition(partition_index=p, committed_offset=o)
                                         for p, o in sorted(offsets.items())])]), 8)
    return [p.error_code for t in r.topics for p in t.partitions]


def _raw_committed(raw: RawClient, group: str, topic: str, partitions: int) -> dict:
    from odradek.wire.messages.offset_fetch_request import OffsetFetchRequest, OffsetFetchRequestTopic

    r = raw.call(OffsetFetchRequest(group_id=group, topics=[OffsetFetchRequestTopic(
        name=topic, partition_indexes=list(range(partitions)))]), 7)
    assert r.error_code == 0
    return {p.partition_index: p.committed_offset for t in r.topics for p in t.partitions}


class RawClassic:
    """A classic consumer member through raw JoinGroup v9 / SyncGroup v5 requests (subscription and
    assignment version 1) of one topic."""

    def __init__(self, raw: RawClient, group: str, topic: str):
        self.raw, self.group, self.topic = raw, group, topic

    def assignment(self, parts: list) -> bytes:
        import struct

        from odradek.wire.messages.consumer_protocol_assignment import ConsumerProtocolAssignment, TopicPartition

        a = ConsumerProtocolAssignment(assigned_partitions=[TopicPartition(topic=self.topic, partitions=parts)],
                                       user_data=None)
        return struct.pack(">h", 1) + bytes(a.encode(1))

    @staticmethod
    def assigned(data: bytes) -> list:
        import struct

        from odradek.wire.messages.consumer_protocol_assignment import ConsumerProtocolAssignment

        if not data:
            return []
        a = ConsumerProtocolAssignment.decode(data, struct.unpack_from(">h", data)[0], 2)
        return sorted(p for tp in a.assigned_partitions for p in tp.partitions)

    def join(self, member_id: str, owned: list):
        import struct

        from odradek.wire.messages.consumer_protocol_subscription import ConsumerProtocolSubscription
        from odradek.wire.messages.consumer_protocol_subscription import TopicPartition as STP
        from odradek.wire.messages.join_group_request import JoinGroupRequest, JoinGroupRequestProtocol

        sub = ConsumerProtocolSubscription(topics=[self.topic], user_data=None,
                                           owned_partitions=[STP(topic=self.topic, partitions=owned)] if owned else [])
        md = struct.pack(">h", 1) + bytes(sub.encode(1))
        return self.raw.call(JoinGroupRequest(group_id=self.group, session_timeout_ms=30000,
                                              rebalance_timeout_ms=30000, member_id=member_id, protocol_type="consumer",
                                              protocols=[JoinGroupRequestProtocol(name="range", metadata=md)]), 9)

    def sync(self, member_id: str, generation: int, assignments: dict):
        from odradek.wire.messages.sync_group_request import SyncGroupRequest, SyncGroupRequestAssignment

        return self.raw.call(SyncGroupRequest(group_id=self.group, generation_id=generation, member_id=member_id,
                                              protocol_type="consumer", protocol_name="range", assignments=[
                                                  SyncGroupRequestAssignment(member_id=m, assignment=a)
                                                  for m, a in assignments.items()]), 5)

    def heartbeat(self, member_id: str, generation: int) -> int:
        from odradek.wire.messages.heartbeat_request import HeartbeatRequest

        return self.raw.call(HeartbeatRequest(group_id=self.group, generation_id=generation, member_id=member_id),
                             4).error_code

    def first_member(self, partitions: int) -> tuple[str, int]:
        """The group's first member, its leader, assigned every partition: (member id, generation)."""
        first = self.join("", [])
        assert first.error_code == 79  # MEMBER_ID_REQUIRED
        j = self.join(first.member_id, [])
        assert j.error_code == 0 and j.leader == j.member_id
        s = self.sync(j.member_id, j.generation_id, {j.member_id: self.assignment(list(range(partitions)))})
        assert s.error_code == 0 and self.assigned(s.assignment) == list(range(partitions))
        return j.member_id, j.generation_id


def _upgraded_then_killed(broker, topic: str) -> tuple[str, str, str, int, int]:
    """A classic group of one member holding both partitions of ``topic``, its offsets committed (11
    and 22); a ConsumerGroupHeartbeat upgrades it, and the broker is killed (kill -9) as soon as it is
    answered, then started again: (group, classic member, consumer member, its epoch, generation)."""
    create_topic(broker.bootstrap, topic, partitions=2)
    group = f"mig-{uuid.uuid4().hex[:8]}"
    raw = RawClient(broker.bootstrap)
    try:
        raw.await_group_coordinator(group)
        m1, gen = RawClassic(raw, group, topic).first_member(2)
        assert _raw_commit(raw, group, topic, gen, m1, {0: 11, 1: 22}) == [0, 0]
        r = raw_heartbeat(raw, group_id=group, member_id="m3-" + uuid.uuid4().hex[:8], subscribed_topic_names=[topic])
        assert r.error_code == 0 and r.member_epoch == gen + 1
        broker.kill9()  # right after the answer: the upgrade's one batch is in the log or not
    finally:
        raw.close()
    broker.start()
    return group, m1, r.member_id, r.member_epoch, gen


def test_an_upgrade_survives_a_kill_right_after_its_heartbeat_is_answered(controllable_broker, topic_name):
    """The ConsumerGroupHeartbeat that upgrades a classic group (one classic member holding both
    partitions, its offsets committed) is answered, and the broker is killed (kill -9) at once. The
    restarted broker loads the consumer group with both members, the classic one holding what it
    held, the offsets kept; the members go on: the classic member rejoins, syncs and commits at
    its member epoch, the consumer member gets its partition once the classic member releases it."""
    group, m1, m3, epoch3, _gen = _upgraded_then_killed(controllable_broker, topic_name)
    raw = RawClient(controllable_broker.bootstrap)
    classic = RawClassic(raw, group, topic_name)
    try:
        raw.await_group_coordinator(group)
        assert _group_type(raw, group) == "consumer"
        cg, _ = _describe(raw, group)
        members = {m.member_id: m for m in cg.members}
        assert {(mid, m.member_type) for mid, m in members.items()} == {(m1, 0), (m3, 1)}
        assert sorted(p for t in members[m1].assignment.topic_partitions for p in t.partitions) == [0, 1]
        assert _raw_committed(raw, group, topic_name, 2) == {0: 11, 1: 22}
        # the members go on where they were: the classic member is told to rejoin, keeps one partition
        # and releases the other to the consumer member, then both commit at their epochs
        r = raw_heartbeat(raw, group_id=group, member_id=m3, member_epoch=epoch3, rebalance_timeout_ms=-1,
                          topic_partitions=None)
        assert r.error_code == 0
        mine: list = [0, 1]
        deadline = time.monotonic() + 60
        got3: list = []
        while not got3:
            assert time.monotonic() < deadline, (mine, r)
            j = classic.join(m1, mine)
            assert j.error_code == 0 and j.leader == "", j
            s = classic.sync(m1, j.generation_id, {})
            assert s.error_code in (0, 27), s
            if s.error_code == 0:
                mine = classic.assigned(s.assignment)
            r = raw_heartbeat(raw, group_id=group, member_id=m3, member_epoch=r.member_epoch, rebalance_timeout_ms=-1,
                              topic_partitions=None)
            assert r.error_code == 0, r
            got3 = sorted(p for t in (r.assignment.topic_partitions if r.assignment else []) for p in t.partitions)
        assert len(mine) == 1 and sorted(mine + got3) == [0, 1]
        assert _raw_commit(raw, group, topic_name, j.generation_id, m1, {mine[0]: 33}) == [0]
        assert _raw_committed(raw, group, topic_name, 2) == {mine[0]: 33, got3[0]: 11 if got3[0] == 0 else 22}
    finally:
        raw.close()


def test_a_downgrade_survives_a_kill_right_after_the_leave_is_answered(controllable_broker, topic_name):
    """The upgraded group's only consumer-protocol member leaves (epoch -1) before it got anything:
    the group is downgraded to a classic group, and the broker is killed (kill -9) as soon as the
    leave is answered. The restarted broker loads the classic group with its classic member holding
    its target assignment, the offsets kept; the member rejoins, gets both partitions and commits at
    the new generation."""
    group, m1, m3, epoch3, gen = _upgraded_then_killed(controllable_broker, topic_name)
    raw = RawClient(controllable_broker.bootstrap)
    classic = RawClassic(raw, group, topic_name)
    try:
        raw.await_group_coordinator(group)
        cg, _ = _describe(raw, group)
        target = next(sorted(p for t in m.target_assignment.topic_partitions for p in t.partitions)
                      for m in cg.members if m.member_id == m1)
        r = raw_heartbeat(raw, group_id=group, member_id=m3, member_epoch=-1, rebalance_timeout_ms=-1,
                          topic_partitions=None)
        assert r.error_code == 0 and r.member_epoch == -1
        controllable_broker.kill9()  # right after the answer: the downgrade's one batch is in the log or not
        raw.close()
        controllable_broker.start()
        raw = RawClient(controllable_broker.bootstrap)
        classic = RawClassic(raw, group, topic_name)
        raw.await_group_coordinator(group)
        assert _group_type(raw, group) == "classic"
        _, dg = _describe(raw, group)
        assert dg.error_code == 0 and [m.member_id for m in dg.members] == [m1]
        # its assignment: its target in the consumer group (Kafka's ClassicGroup.fromConsumerGroup)
        assert classic.assigned(dg.members[0].member_assignment) == target
        assert _raw_committed(raw, group, topic_name, 2) == {0: 11, 1: 22}
        epoch = gen + 1  # the classic group's generation is the consumer group's epoch
        assert classic.heartbeat(m1, epoch) in (0, 27)  # NONE, or REBALANCE_IN_PROGRESS: rejoin
        j = classic.join(m1, [0, 1])
        assert j.error_code == 0 and j.leader == m1 and j.generation_id > epoch, j
        s = classic.sync(m1, j.generation_id, {m1: classic.assignment([0, 1])})
        assert s.error_code == 0 and classic.assigned(s.assignment) == [0, 1]
        assert _raw_commit(raw, group, topic_name, j.generation_id, m1, {0: 44, 1: 55}) == [0, 0]
        assert _raw_committed(raw, group, topic_name, 2) == {0: 44, 1: 55}
    finally:
        raw.close()
