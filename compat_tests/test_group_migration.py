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
CLASSIC = {"group.protocol": "classic", "session.timeout.ms": "10000", "heartbeat.interval.ms": "1000",
           "max.poll.records": "5"}
CONSUMER = {"group.protocol": "consumer", "max.poll.records": "5"}

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


def test_roll_classic_members_to_the_consumer_protocol_and_back(bootstrap, topic_name):
    pytest.importorskip("confluent_kafka")
    create_topic(bootstrap, topic_name, partitions=PARTITIONS)
    group = f"mig-{uuid.uuid4().hex[:8]}"
    raw = RawClient(bootstrap)
    raw.await_group_coordinator(group)
    events = Events()
    made = iter(range(100))

    def member(settings: dict) -> JavaMember:
        kind = settings["group.protocol"]
        return JavaMember(f"{kind}-{next(made)}", bootstrap, topic_name, group, settings, events)

    members = [member(CLASSIC) for _ in range(3)]
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
            if step == 1:
                mixed = _describe(raw, group)
            if step == len(plan):
                break
            old = members.pop(0)
            old.close()
            members.append(member(plan[step]))
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
