"""A consumer group keeps its committed offsets while its coordinator's broker is killed -9 (issue 21,
coordinators follow partition leadership), on real processes: 3 controllers + 3 brokers,
__consumer_offsets with replication factor 3 and min.insync.replicas 2.

The group's coordinator is the leader of its __consumer_offsets partition (one partition here, so
the group's). A confluent-kafka member consumes a topic written beforehand and commits as it goes;
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


class Member:
    """One consumer of the group: what it consumed, in order, and the commits acknowledged to it."""

    def __init__(self, bootstrap: str):
        self.consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": GROUP, "enable.auto.commit": False,
                                  "auto.offset.reset": "earliest", "session.timeout.ms": 10000,
                                  "heartbeat.interval.ms": 1000})
        self.consumer.subscribe([TOPIC])
        self.consumed: list[tuple[int, int]] = []  # (partition, offset) in consumption order
        self.position: dict[int, int] = {}  # partition -> next offset to commit
        self.acked: dict[int, int] = {}  # partition -> last acknowledged commit
        self.early_duplicates: list[tuple[int, int, int]] = []  # (partition, offset, acked commit then)
        self.seen: set[tuple[int, int]] = set()
        self.commit_errors: list[str] = []
        self.acked_commits = 0
        self._since_commit = 0

    def step(self) -> None:
        msg = self.consumer.poll(0.2)
        if msg is not None and msg.error() is None:
            p, o = msg.partition(), msg.offset()
            if (p, o) in self.seen and o < self.acked.get(p, 0):
                self.early_duplicates.append((p, o, self.acked[p]))
            self.seen.add((p, o))
            self.consumed.append((p, o))
            self.position[p] = o + 1
            self._since_commit += 1
        if self._since_commit >= COMMIT_EVERY or (msg is None and self._since_commit):
            self.commit()

    def commit(self) -> bool:
        offsets = [TopicPartition(TOPIC, p, o) for p, o in sorted(self.position.items())]
        if not offsets:
            return False
        try:
            out = self.consumer.commit(offsets=offsets, asynchronous=False)
        except KafkaException as e:
            self.commit_errors.append(str(e.args[0]))
            return False
        if any(tp.error is not None for tp in out):
            self.commit_errors.extend(str(tp.error) for tp in out if tp.error is not None)
            return False
        for tp in out:
            # below an acknowledged commit: the member was sent back (the coordinator lost the commit)
            assert tp.offset >= self.acked.get(tp.partition, 0), f"partition {tp.partition} committed backwards"
            self.acked[tp.partition] = tp.offset
        self.acked_commits += 1
        self._since_commit = 0
        return True

    def committed(self) -> dict[int, int]:
        """The coordinator's answer (OffsetFetch) for every partition."""
        out = self.consumer.committed([TopicPartition(TOPIC, p) for p in range(PARTITIONS)], timeout=20)
        return {tp.partition: tp.offset for tp in out}

    def run_until(self, pred, timeout: float, what: str) -> None:
        deadline = time.monotonic() + timeout
        while not pred():
            if time.monotonic() > deadline:
                raise AssertionError(f"{what}: not within {timeout} s; consumed {len(self.consumed)}, "
                                     f"acked {self.acked}, last commit errors {self.commit_errors[-3:]}")
            self.step()


def _produce_all(bootstrap: str) -> None:
    p = Producer({"bootstrap.servers": bootstrap, "enable.idempotence": True, "acks": "all", "linger.ms": 5})
    errors = []
    for part in range(PARTITIONS):
        for i in range(RECORDS_PER_PARTITION):
            p.produce(TOPIC, value=b"%d-%d" % (part, i), partition=part,
                      on_delivery=lambda err, msg: err is not None and errors.append(err))
            p.poll(0)
    assert p.flush(60) == 0 and errors == []


def _coordinator(cluster) -> int:
    return cluster.wait_partitions(OFFSETS, lambda s: s[0].leader >= 0, "a coordinator")[0].leader


def test_commits_survive_kill9_of_the_group_coordinator(cluster, request):
    cycles = failover_cycles(request.config, DEFAULT_CYCLES)
    cluster.create_topic(TOPIC, PARTITIONS, 3, {"min.insync.replicas": "2"})
    _produce_all(cluster.bootstrap)
    total = PARTITIONS * RECORDS_PER_PARTITION
    m = Member(cluster.bootstrap)
    try:
        m.run_until(lambda: m.acked_commits >= 2, 120, "a first acknowledged commit")  # creates __consumer_offsets
        cluster.wait_full_isr(OFFSETS)
        for cycle in range(cycles):
            share = total * (cycle + 1) // (cycles + 2)
            m.run_until(lambda: len(m.consumed) >= share, 300, f"cycle {cycle}: consumed {share}")
            victim = _coordinator(cluster)
            acked_before = dict(m.acked)
            commits_before = m.acked_commits
            cluster.kill9(victim)
            cluster.wait_partitions(OFFSETS, lambda s: s[0].leader not in (victim, -1),
                                    f"cycle {cycle}: a new coordinator after broker {victim}'s kill -9")
            # the new coordinator answers: commits acknowledged again, none of the old ones lost
            m.run_until(lambda: m.acked_commits > commits_before + 1, 180,
                        f"cycle {cycle}: commits acknowledged by the new coordinator")
            committed = m.committed()
            for p, o in acked_before.items():
                assert committed[p] >= o, f"cycle {cycle}: partition {p}: committed {committed[p]} < acked {o}"
            cluster.start(victim)
            cluster.wait_full_isr(OFFSETS)
            cluster.wait_full_isr(TOPIC)
        m.run_until(lambda: all(m.acked.get(p) == RECORDS_PER_PARTITION for p in range(PARTITIONS)), 300,
                    "everything consumed and committed")
        assert m.committed() == {p: RECORDS_PER_PARTITION for p in range(PARTITIONS)}
        for p in range(PARTITIONS):
            got = {o for q, o in m.consumed if q == p}
            assert got == set(range(RECORDS_PER_PARTITION)), f"partition {p}: skipped {sorted(set(range(RECORDS_PER_PARTITION)) - got)[:10]}"
        assert m.early_duplicates == [], "records consumed again below the acknowledged commit"
        print(f"\n{cycles} coordinator kill -9 cycles: {len(m.consumed)} records consumed for {total} "
              f"({len(m.consumed) - total} again), {m.acked_commits} commits acknowledged, "
              f"{len(m.commit_errors)} failed ({sorted(set(m.commit_errors))[:5]})", flush=True)
    finally:
        m.consumer.close()
