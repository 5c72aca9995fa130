"""A consumer group keeps its committed offsets while its coordinator's broker is killed -9 (issue 21,
coordinators follow partition leadership), on real processes: 3 controllers + 3 brokers,
__consumer_offsets with replication factor 3 and min.insync.replicas 2.

The group's coordinator is the leader of its __consumer_offsets partition (one partition here, so
the group's). A group of one confluent-kafka member, of a confluent-kafka and a kafka-python member
(mixed), or of one KIP-848 member (group.protocol=consumer) consumes a topic written beforehand and
commits as it goes;
each cycle kills that leader with SIGKILL, goes on consuming and committing until a commit is
acknowledged by the new coordinator (elected among the survivors, which loads the partition from its
replica), then restarts the killed broker and waits for the full ISR. Checked: no acknowledged
commit is lost or moved back (the coordinator's answer never goes below it), no record is skipped,
and a record is consumed twice only at or after the last acknowledged commit of its partition.

Cycles: --failover-cycles N (or ODRADEK_FAILOVER_CYCLES), 3 by default. Against Apache Kafka 4.3:
--cluster-kafka.
"""
from __future__ import annotations

import time

import pytest
from confluent_kafka import Consumer, KafkaException, Producer, TopicPartition

from cluster import failover_cycles, running_cluster, wait_for

TOPIC, PARTITIONS, GROUP, OFFSETS = "coord-failover", 3, "coord-failover-group", "__consumer_offsets"
RECORDS_PER_PARTITION = 1500
COMMIT_EVERY = 25
DEFAULT_CYCLES = 3

pytestmark = pytest.mark.timeout(3600)


@pytest.fixture(scope="module")
def cluster(request, tmp_path_factory):
    props = {"offsets.topic.replication.factor": "3", "offsets.topic.num.partitions": "1",
             "min.insync.replicas": "2"}
    with running_cluster(tmp_path_factory.mktemp("coord-failover"), request.config, props=props) as c:
        yield c


class Ledger:
    """What the group consumed (every member), and the commits acknowledged to it, per partition."""

    def __init__(self):
        self.consumed: list[tuple[int, int]] = []  # (partition, offset) in consumption order
        self.seen: set[tuple[int, int]] = set()
        self.acked: dict[int, int] = {}  # partition -> last acknowledged commit
        self.early_duplicates: list[tuple[int, int, int]] = []  # (partition, offset, acked commit then)
        self.commit_errors: list[str] = []
        self.acked_commits = 0

    def record(self, p: int, o: int) -> None:
        if (p, o) in self.seen and o < self.acked.get(p, 0):
            self.early_duplicates.append((p, o, self.acked[p]))
        self.seen.add((p, o))
        self.consumed.append((p, o))

    def acknowledged(self, offsets: dict[int, int]) -> None:
        for p, o in offsets.items():
            # below an acknowledged commit: a member was sent back (the coordinator lost the commit)
            assert o >= self.acked.get(p, 0), f"partition {p} committed {o} after {self.acked[p]} was acknowledged"
            self.acked[p] = o
        self.acked_commits += 1


class Member:
    """One consumer of the group: polls, and commits what it consumed every COMMIT_EVERY records."""

    def __init__(self, ledger: Ledger):
        self.ledger = ledger
        self.position: dict[int, int] = {}  # partition -> next offset to commit
        self._since_commit = 0

    def reassigned(self) -> None:
        """A rebalance took or gave partitions: commit only what is consumed from here on (a partition
        given back starts again at the group's committed offset)."""
        self.position.clear()
        self._since_commit = 0

    def step(self) -> None:
        got = self.poll()
        for p, o in got:
            self.ledger.record(p, o)
            self.position[p] = o + 1
            self._since_commit += 1
        if self._since_commit >= COMMIT_EVERY or (not got and self._since_commit):
            self.commit()

    def commit(self) -> None:
        if not self.position:
            return
        try:
            done = self.commit_offsets(dict(self.position))
        except Exception as e:  # the client's error for a failed commit (retried with the next one)
            self.ledger.commit_errors.append(f"{type(e).__name__}: {e}")
            return
        if done is not None:
            self.ledger.acknowledged(done)
            self._since_commit = 0

    def poll(self) -> list[tuple[int, int]]: ...

    def commit_offsets(self, offsets: dict[int, int]) -> dict[int, int] | None:
        """Commit synchronously; the offsets the coordinator acknowledged (None: not all were)."""

    def committed(self) -> dict[int, int]:
        """The coordinator's answer (OffsetFetch) for every partition."""

    def close(self) -> None: ...


class ConfluentMember(Member):
    PROTOCOL = {"session.timeout.ms": 10000, "heartbeat.interval.ms": 1000}  # the classic protocol

    def __init__(self, bootstrap: str, topic: str, group: str, ledger: Ledger):
        super().__init__(ledger)
        self.topic = topic
        self.consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": group, "enable.auto.commit": False,
                                  "auto.offset.reset": "earliest", **self.PROTOCOL})
        self.consumer.subscribe([topic], on_assign=lambda c, parts: self.reassigned(),
                                on_revoke=lambda c, parts: self.reassigned())

    def poll(self):
        msg = self.consumer.poll(0.1)
        return [(msg.partition(), msg.offset())] if msg is not None and msg.error() is None else []

    def commit_offsets(self, offsets):
        out = self.consumer.commit(offsets=[TopicPartition(self.topic, p, o) for p, o in sorted(offsets.items())],
                                   asynchronous=False)
        if any(tp.error is not None for tp in out):
            self.ledger.commit_errors.extend(str(tp.error) for tp in out if tp.error is not None)
            return None
        return {tp.partition: tp.offset for tp in out}

    def committed(self):
        out = self.consumer.committed([TopicPartition(self.topic, p) for p in range(PARTITIONS)], timeout=20)
        return {tp.partition: tp.offset for tp in out}

    def close(self):
        self.consumer.close()


class ConsumerProtocolMember(ConfluentMember):
    """A KIP-848 member (group.protocol=consumer): its group is a consumer group, its heartbeats
    ConsumerGroupHeartbeat."""
    PROTOCOL = {"group.protocol": "consumer"}


class KafkaPythonMember(Member):
    def __init__(self, bootstrap: str, topic: str, group: str, ledger: Ledger):
        from kafka import ConsumerRebalanceListener, KafkaConsumer

        super().__init__(ledger)
        self.topic = topic
        self.consumer = KafkaConsumer(bootstrap_servers=bootstrap, group_id=group, enable_auto_commit=False,
                                      auto_offset_reset="earliest", session_timeout_ms=10000,
                                      heartbeat_interval_ms=1000, max_poll_records=50)
        member = self

        class Reassigned(ConsumerRebalanceListener):
            def on_partitions_revoked(self, revoked):
                member.reassigned()

            def on_partitions_assigned(self, assigned):
                member.reassigned()

        self.consumer.subscribe([topic], listener=Reassigned())

    def poll(self):
        batches = self.consumer.poll(timeout_ms=100)
        return [(r.partition, r.offset) for recs in batches.values() for r in recs]

    def commit_offsets(self, offsets):
        from kafka import TopicPartition as KTP
        from kafka.structs import OffsetAndMetadata

        self.consumer.commit({KTP(self.topic, p): OffsetAndMetadata(o, None, -1) for p, o in offsets.items()})
        return offsets  # commit() raises unless every partition was acknowledged

    def committed(self):
        from kafka import TopicPartition as KTP

        return {p: self.consumer.committed(KTP(self.topic, p)) for p in range(PARTITIONS)}

    def close(self):
        self.consumer.close()


class Group:
    """The members, polled in turn from one thread."""

    def __init__(self, members: list[Member], ledger: Ledger):
        self.members, self.ledger = members, ledger

    def run_until(self, pred, timeout: float, what: str) -> None:
        deadline = time.monotonic() + timeout
        while not pred():
            if time.monotonic() > deadline:
                raise AssertionError(f"{what}: not within {timeout} s; consumed {len(self.ledger.consumed)}, "
                                     f"acked {self.ledger.acked}, last commit errors {self.ledger.commit_errors[-3:]}")
            for m in self.members:
                m.step()


CLIENTS = {"confluent-kafka": ConfluentMember, "kafka-python": KafkaPythonMember,
           "confluent-kafka-kip848": ConsumerProtocolMember}


def _produce_all(bootstrap: str, topic: str) -> None:
    p = Producer({"bootstrap.servers": bootstrap, "enable.idempotence": True, "acks": "all", "linger.ms": 5})
    errors = []
    for part in range(PARTITIONS):
        for i in range(RECORDS_PER_PARTITION):
            p.produce(topic, value=b"%d-%d" % (part, i), partition=part,
                      on_delivery=lambda err, msg: err is not None and errors.append(err))
            p.poll(0)
    assert p.flush(60) == 0 and errors == []


def _coordinator(cluster) -> int:
    return cluster.wait_partitions(OFFSETS, lambda s: s[0].leader >= 0, "a coordinator")[0].leader


@pytest.mark.parametrize("clients", [("confluent-kafka",), ("confluent-kafka", "kafka-python"),
                                     ("confluent-kafka-kip848",)],
                         ids=["confluent-kafka", "mixed", "consumer-protocol"])
def test_commits_survive_kill9_of_the_group_coordinator(cluster, request, clients):
    cycles = failover_cycles(request.config, DEFAULT_CYCLES)
    name = "-".join(clients)
    topic, group = f"{TOPIC}-{name}", f"{GROUP}-{name}"
    cluster.create_topic(topic, PARTITIONS, 3, {"min.insync.replicas": "2"})
    _produce_all(cluster.bootstrap, topic)
    total = PARTITIONS * RECORDS_PER_PARTITION
    ledger = Ledger()
    g = Group([CLIENTS[c](cluster.bootstrap, topic, group, ledger) for c in clients], ledger)
    try:
        g.run_until(lambda: ledger.acked_commits >= 2, 120, "a first acknowledged commit")
        cluster.wait_full_isr(OFFSETS)
        for cycle in range(cycles):
            share = total * (cycle + 1) // (cycles + 2)
            g.run_until(lambda: len(ledger.consumed) >= share, 300, f"cycle {cycle}: consumed {share}")
            victim = _coordinator(cluster)
            acked_before = dict(ledger.acked)
            commits_before = ledger.acked_commits
            cluster.kill9(victim)
            cluster.wait_partitions(OFFSETS, lambda s: s[0].leader not in (victim, -1),
                                    f"cycle {cycle}: a new coordinator after broker {victim}'s kill -9")
            # the new coordinator answers: commits acknowledged again, none of the old ones lost
            g.run_until(lambda: ledger.acked_commits > commits_before + 1, 180,
                        f"cycle {cycle}: commits acknowledged by the new coordinator")
            committed = g.members[0].committed()
            for p, o in acked_before.items():
                assert committed[p] >= o, f"cycle {cycle}: partition {p}: committed {committed[p]} < acked {o}"
            cluster.start(victim)
            cluster.wait_full_isr(OFFSETS)
            cluster.wait_full_isr(topic)
        g.run_until(lambda: all(ledger.acked.get(p) == RECORDS_PER_PARTITION for p in range(PARTITIONS)), 300,
                    "everything consumed and committed")
        assert g.members[0].committed() == {p: RECORDS_PER_PARTITION for p in range(PARTITIONS)}
        for p in range(PARTITIONS):
            got = {o for q, o in ledger.consumed if q == p}
            missing = sorted(set(range(RECORDS_PER_PARTITION)) - got)
            assert not missing, f"partition {p}: skipped {missing[:10]}"
        assert ledger.early_duplicates == [], "records consumed again below the acknowledged commit"
        print(f"\n{'+'.join(clients)}: {cycles} coordinator kill -9 cycles: {len(ledger.consumed)} records consumed "
              f"for {total} ({len(ledger.consumed) - total} again), {ledger.acked_commits} commits acknowledged, "
              f"{len(ledger.commit_errors)} failed ({sorted(set(ledger.commit_errors))[:5]})", flush=True)
    finally:
        for m in g.members:
            m.close()
