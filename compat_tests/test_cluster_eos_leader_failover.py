"""Exactly once through kill -9 of partition leaders (issue 21 item 3), on real processes: 3 controllers +
3 brokers, topics and internal topics with replication factor 3 and min ISR 2.

An idempotent producer keeps writing the input topic, and a confluent-kafka consume-transform-produce
loop (read_committed consumer, transactional producer, sendOffsetsToTransaction) copies it to an
output topic, while each cycle kills the
broker leading the most input and output partitions with SIGKILL, waits for transactions to commit
again through the new leaders (the transaction coordinator's markers follow the leadership: a marker
lost with a dead leader is written again to its successor before the transaction completes),
restarts the killed broker and waits for the full ISR. A transaction the producer cannot finish is
aborted and its input read again from the group's committed offsets; a fenced or fatal producer is
replaced (InitProducerId fences the old one). Then a read_committed consumer checks: the output
holds every acknowledged input record exactly once, in each partition in input order, and the
group's committed offsets are the input's ends.

Cycles: --failover-cycles N (or ODRADEK_FAILOVER_CYCLES), 3 by default. Against Apache Kafka 4.3:
--cluster-kafka.
"""
from __future__ import annotations

import threading
import time
import uuid
from collections import Counter

import pytest
from confluent_kafka import Consumer, KafkaException, Producer, TopicPartition

from cluster import failover_cycles, running_cluster, wait_for
from harness import read_to_end

SRC, DST, PARTITIONS = "eos-in", "eos-out", 6
DEFAULT_CYCLES = 3

pytestmark = pytest.mark.timeout(3600)


@pytest.fixture(scope="module")
def cluster(request, tmp_path_factory):
    props = {"min.insync.replicas": "2", "offsets.topic.replication.factor": "3",
             "transaction.state.log.replication.factor": "3", "transaction.state.log.min.isr": "2"}
    with running_cluster(tmp_path_factory.mktemp("eos-failover"), request.config, props=props) as c:
        yield c


class CopyLoop:
    """Consume-transform-produce in transactions of up to 200 records, in a thread, until stopped."""

    def __init__(self, bootstrap: str):
        self.bootstrap = bootstrap
        self.group = f"eos-{uuid.uuid4().hex[:8]}"
        self.txn_id = f"eos-{uuid.uuid4().hex[:8]}"
        self.committed = 0  # records copied in committed transactions
        self.aborted = 0
        self.replaced = 0
        self.errors: list[str] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def start(self) -> CopyLoop:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        # one turn of the loop may take its commit's 120 s, then an abort's 120 s and a rewind's 60 s
        self._thread.join(330)
        assert not self._thread.is_alive(), "the copy loop did not stop"

    def _producer(self) -> Producer:
        # connections.max.idle.ms works around a librdkafka bug, open in 2.16 (the broker's part is
        # Kafka's: a fenced broker leaves the Metadata):
        # https://github.com/confluentinc/librdkafka/issues/5511 and
        # https://github.com/confluentinc/librdkafka/issues/5456. When the group coordinator the
        # producer has cached left the Metadata (killed or fenced), the TxnOffsetCommit of
        # send_offsets_to_transaction waits for that gone broker to come up and is looked at again
        # only when another broker's connection goes up or down; its timeout is never checked, so
        # the call blocks for good on an otherwise healthy cluster. An idle connection closed is
        # such a change: the request then asks FindCoordinator for the new coordinator and goes on.
        p = Producer({"bootstrap.servers": self.bootstrap, "transactional.id": self.txn_id, "linger.ms": 5,
                      "transaction.timeout.ms": 60000, "connections.max.idle.ms": 10000})
        p.init_transactions(120)
        return p

    def _rewind(self, consumer: Consumer) -> None:
        """Back to the group's committed offsets: an aborted transaction's input is read again."""
        assigned = list(consumer.assignment())
        for tp in consumer.committed(assigned, 60):
            consumer.seek(TopicPartition(SRC, tp.partition, max(tp.offset, 0)))

    def _run(self) -> None:
        consumer = Consumer({"bootstrap.servers": self.bootstrap, "group.id": self.group,
                             "enable.auto.commit": False, "isolation.level": "read_committed",
                             "auto.offset.reset": "earliest"})
        consumer.subscribe([SRC])
        producer = self._producer()
        try:
            while not self._stop.is_set():
                msgs = [m for m in consumer.consume(200, 0.5) if not m.error()]
                if not msgs:
                    continue
                try:
                    producer.begin_transaction()
                    for m in msgs:
                        producer.produce(DST, m.value().replace(b"in-", b"out-"), partition=m.partition())
                    producer.send_offsets_to_transaction(consumer.position(consumer.assignment()),
                                                         consumer.consumer_group_metadata(), 60)
                    self._commit(producer)
                    self.committed += len(msgs)
                except KafkaException as e:
                    err = e.args[0]
                    self.errors.append(str(err))
                    if err.txn_requires_abort():
                        producer.abort_transaction(120)
                        self.aborted += 1
                    else:  # fenced or fatal: a new producer fences the old and aborts what it left open
                        producer = self._producer()
                        self.replaced += 1
                    self._rewind(consumer)
        finally:
            consumer.close()

    def _commit(self, producer: Producer) -> None:
        deadline = time.monotonic() + 120
        while True:
            try:
                producer.commit_transaction(60)
                return
            except KafkaException as e:
                if not e.args[0].retriable() or time.monotonic() > deadline:
                    raise


class InputLoad:
    """Writes the input in a thread (idempotent, acks=all): in-0, in-1, ... round robin over the
    partitions, 6 records every 0.1 s; ``acked`` the values delivered."""

    def __init__(self, bootstrap: str):
        self.producer = Producer({"bootstrap.servers": bootstrap, "enable.idempotence": True, "linger.ms": 5})
        self.acked: list[str] = []
        self.errors: list[str] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def start(self) -> InputLoad:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(120)
        assert not self._thread.is_alive(), "the input load did not stop"

    def _delivered(self, err, msg) -> None:
        if err is not None:
            self.errors.append(str(err))
        else:
            self.acked.append(msg.value().decode())

    def _run(self) -> None:
        i = 0
        while not self._stop.is_set():
            for _ in range(6):
                self.producer.produce(SRC, f"in-{i}".encode(), partition=i % PARTITIONS, on_delivery=self._delivered)
                i += 1
            self.producer.poll(0)
            self._stop.wait(0.1)
        assert self.producer.flush(120) == 0


def _busiest_leader(cluster) -> int:
    leaders = Counter(s.leader for topic in (SRC, DST) for s in cluster.partitions(topic).values() if s.leader >= 0)
    return leaders.most_common(1)[0][0]


def _input_ends(acked: list[str]) -> list[int]:
    ends = [0] * PARTITIONS
    for v in acked:
        ends[int(v[3:]) % PARTITIONS] += 1
    return ends


def test_exactly_once_through_partition_leader_kills(cluster, request):
    cycles = failover_cycles(request.config, DEFAULT_CYCLES)
    cluster.create_topic(SRC, PARTITIONS, 3, {"min.insync.replicas": "2"})
    cluster.create_topic(DST, PARTITIONS, 3, {"min.insync.replicas": "2"})
    load = InputLoad(cluster.bootstrap).start()
    loop = CopyLoop(cluster.bootstrap).start()
    try:
        try:
            wait_for(lambda: loop.committed >= 200, 120, "transactions before the first kill",
                     last=lambda: (loop.committed, loop.errors[-3:]))
            for cycle in range(cycles):
                victim = _busiest_leader(cluster)
                before = loop.committed
                cluster.kill9(victim)
                wait_for(lambda: loop.committed >= before + 200, 120,
                         f"cycle {cycle}: transactions committed after broker {victim}'s kill -9",
                         last=lambda: (loop.committed, loop.errors[-3:]))
                cluster.start(victim)
                for topic in (SRC, DST):
                    cluster.wait_full_isr(topic)
                print(f"cycle {cycle}: broker {victim} killed and back; copied {loop.committed} of "
                      f"{len(load.acked)} acknowledged, {loop.aborted} transactions aborted, "
                      f"{loop.replaced} producers replaced", flush=True)
        finally:
            load.stop()
        assert load.errors == []
        ends = _input_ends(load.acked)
        wait_for(lambda: _group_offsets(cluster, loop.group) == ends, 300,
                 "the group's committed offsets at the input's ends",
                 last=lambda: (loop.committed, loop.errors[-3:], _group_offsets(cluster, loop.group), ends))
    finally:
        loop.stop()
    total = len(load.acked)
    out = read_to_end(cluster.bootstrap, DST, PARTITIONS, "read_committed", total, timeout=120)
    values = [v for vs in out.values() for v in vs]
    duplicated = [v for v, n in Counter(values).items() if n > 1]
    assert not duplicated, f"{len(duplicated)} records copied twice, e.g. {duplicated[:5]}"
    assert sorted(values) == sorted(v.replace("in-", "out-") for v in load.acked)
    for part, vs in out.items():  # each partition's copy in input order
        assert vs == [f"out-{i}" for i in range(part, total, PARTITIONS)], part
    print(f"copied {total} records exactly once through {cycles} leader kills: {loop.aborted} transactions "
          f"aborted, {loop.replaced} producers replaced, errors seen: {Counter(loop.errors).most_common(5)}")


def _group_offsets(cluster, group: str) -> list[int]:
    c = Consumer({"bootstrap.servers": cluster.live_bootstrap(), "group.id": group})
    try:
        committed = c.committed([TopicPartition(SRC, p) for p in range(PARTITIONS)], 30)
    finally:
        c.close()
    return [tp.offset for tp in sorted(committed, key=lambda tp: tp.partition)]
