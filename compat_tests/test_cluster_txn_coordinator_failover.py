"""Transactions go on while the transaction coordinator's broker is killed -9 (issue 21, coordinators
follow partition leadership), on real processes: 3 controllers + 3 brokers, __transaction_state with
replication factor 3 and min ISR 2 (one partition, so its leader is every transactional id's
coordinator).

A confluent-kafka transactional producer commits transactions of 3 records (one per partition of a
topic with RF 3) in a loop; each cycle kills the __transaction_state leader with SIGKILL, goes on
until transactions commit again through the new coordinator (which loaded the partition from its
replica and finished what the old one left prepared), then restarts the killed broker and waits for
the full ISR. No transaction is aborted or left in doubt by the move (the new coordinator has the
transactional id's state). A read_committed consumer then checks: every transaction whose commit was
acknowledged is there exactly once, none that was aborted is, and one whose outcome the producer
could not learn is there entirely or not at all.

Cycles: --failover-cycles N (or ODRADEK_FAILOVER_CYCLES), 3 by default. Against Apache Kafka 4.3:
--cluster-kafka.
"""
from __future__ import annotations

import time
import uuid

import pytest
from confluent_kafka import Consumer, KafkaException, Producer, TopicPartition

from cluster import CLIENT_BACKOFF, failover_cycles, running_cluster

TOPIC, PARTITIONS, TXN_STATE = "txn-failover", 3, "__transaction_state"
DEFAULT_CYCLES = 3

pytestmark = pytest.mark.timeout(3600)


@pytest.fixture(scope="module")
def cluster(request, tmp_path_factory):
    props = {"transaction.state.log.replication.factor": "3", "transaction.state.log.num.partitions": "1",
             "transaction.state.log.min.isr": "2", "offsets.topic.replication.factor": "3",
             "min.insync.replicas": "2"}
    with running_cluster(tmp_path_factory.mktemp("txn-failover"), request.config, props=props) as c:
        yield c


class TxnLoop:
    """Transactions of one record per partition, numbered; what became of each."""

    def __init__(self, bootstrap: str):
        self.bootstrap = bootstrap
        self.txn_id = f"txn-failover-{uuid.uuid4().hex[:8]}"
        self.committed: list[int] = []
        self.aborted: list[int] = []
        self.unknown: list[int] = []  # the commit failed without saying whether it happened
        self.errors: list[str] = []
        self.next = 0
        self.producer = self._new_producer()

    def _new_producer(self) -> Producer:
        p = Producer({"bootstrap.servers": self.bootstrap, "transactional.id": self.txn_id,
                      "transaction.timeout.ms": 60000, "acks": "all", "linger.ms": 0, **CLIENT_BACKOFF})
        p.init_transactions(60)
        return p

    def step(self) -> None:
        n = self.next
        self.next += 1
        p = self.producer
        try:
            p.begin_transaction()
            for part in range(PARTITIONS):
                p.produce(TOPIC, value=b"%d" % n, partition=part)
            p.commit_transaction(60)
            self.committed.append(n)
        except KafkaException as e:
            err = e.args[0]
            self.errors.append(err.name())
            if err.txn_requires_abort():
                try:
                    p.abort_transaction(60)
                    self.aborted.append(n)
                    return
                except KafkaException as e2:
                    self.errors.append(e2.args[0].name())
            self.unknown.append(n)
            if err.fatal() or not err.retriable():
                self.producer = self._new_producer()  # fences the old one, aborts what it left open

    def run_until(self, pred, timeout: float, what: str) -> None:
        deadline = time.monotonic() + timeout
        while not pred():
            if time.monotonic() > deadline:
                raise AssertionError(f"{what}: not within {timeout} s; committed {len(self.committed)}, "
                                     f"errors {self.errors[-5:]}")
            self.step()


def _read_committed(bootstrap: str) -> dict[int, list[int]]:
    """partition -> the transaction numbers in it, read_committed, to the end."""
    c = Consumer({"bootstrap.servers": bootstrap, "group.id": f"check-{uuid.uuid4().hex[:8]}",
                  "isolation.level": "read_committed", "enable.auto.commit": False,
                  "auto.offset.reset": "earliest"})
    try:
        ends = {p: c.get_watermark_offsets(TopicPartition(TOPIC, p), timeout=20)[1] for p in range(PARTITIONS)}
        c.assign([TopicPartition(TOPIC, p, 0) for p in range(PARTITIONS)])
        out: dict[int, list[int]] = {p: [] for p in range(PARTITIONS)}
        deadline = time.monotonic() + 120
        while any(c.position([TopicPartition(TOPIC, p)])[0].offset < ends[p] for p in range(PARTITIONS)):
            assert time.monotonic() < deadline, "read_committed did not reach the end"
            msg = c.poll(0.5)
            if msg is not None and msg.error() is None:
                out[msg.partition()].append(int(msg.value()))
        return out
    finally:
        c.close()


def test_transactions_survive_kill9_of_the_transaction_coordinator(cluster, request):
    cycles = failover_cycles(request.config, DEFAULT_CYCLES)
    cluster.create_topic(TOPIC, PARTITIONS, 3, {"min.insync.replicas": "2"})
    loop = TxnLoop(cluster.bootstrap)
    try:
        loop.run_until(lambda: len(loop.committed) >= 5, 120, "first commits")
        cluster.wait_full_isr(TXN_STATE)
        for cycle in range(cycles):
            victim = cluster.wait_partitions(TXN_STATE, lambda s: s[0].leader >= 0, "a coordinator")[0].leader
            before = len(loop.committed)
            cluster.kill9(victim)
            cluster.wait_partitions(TXN_STATE, lambda s: s[0].leader not in (victim, -1),
                                    f"cycle {cycle}: a new coordinator after broker {victim}'s kill -9")
            loop.run_until(lambda: len(loop.committed) >= before + 5, 240,
                           f"cycle {cycle}: commits through the new coordinator")
            cluster.start(victim)
            cluster.wait_full_isr(TXN_STATE)
            cluster.wait_full_isr(TOPIC)
    finally:
        loop.producer.flush(30)
    # the new coordinator had the transactional id's state: no transaction was lost to the move (before
    # coordinators followed leadership, each move aborted one with INVALID_PRODUCER_ID_MAPPING)
    assert (loop.aborted, loop.unknown) == ([], []), f"errors {loop.errors}"
    seen = _read_committed(cluster.bootstrap)
    for p in range(PARTITIONS):
        got = seen[p]
        assert len(got) == len(set(got)), f"partition {p}: a transaction's record twice"
        assert set(loop.committed) <= set(got), f"partition {p}: committed {sorted(set(loop.committed) - set(got))[:10]} missing"
        assert not set(loop.aborted) & set(got), f"partition {p}: aborted {sorted(set(loop.aborted) & set(got))[:10]} visible"
    for n in loop.unknown:  # all or nothing
        assert len({p for p in range(PARTITIONS) if n in seen[p]}) in (0, PARTITIONS), f"transaction {n} in part"
    print(f"\n{cycles} transaction coordinator kill -9 cycles: {len(loop.committed)} committed, "
          f"{len(loop.aborted)} aborted, {len(loop.unknown)} unknown; errors {sorted(set(loop.errors))}", flush=True)
