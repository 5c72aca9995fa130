"""Exactly once with the Java clients on a cluster through kill -9 (issue 21), on real processes:
3 controllers + 3 brokers, topics and internal topics with replication factor 3 and min ISR 2.

A confluent-kafka idempotent producer keeps writing the input topic while EosCopy (compat_tests/java,
kafka-clients 4.3: read_committed consumer, transactional producer, sendOffsetsToTransaction) copies
it to an output topic. Each cycle kills -9 a broker, alternately the transaction coordinator's (the
leader of the transactional id's __transaction_state partition) and the broker leading the most
input and output partitions among the others; waits for transactions to commit again; restarts it and
waits for the full ISR. Then the group's committed offsets reach the input's ends, and a
read_committed consumer finds in each output partition exactly the input partition's records, once
each, in order.

Then the Kafka Streams application (compat_tests/java-streams, StreamsCheck's cluster run) under
exactly_once_v2 with every topic at replication factor 3, internal ones too: the broker coordinating
its transactional id is killed -9 while it processes a batch and restarted later; its outputs, read
read_committed, hold exactly the expected counts after each batch, no count repeats, and the group's
offsets are the inputs' ends.

Cycles: --failover-cycles N (or ODRADEK_FAILOVER_CYCLES), DEFAULT_CYCLES in the suite. Against Apache
Kafka 4.3: --cluster-kafka.
"""
from __future__ import annotations

import shutil
import subprocess
import threading
import uuid
from collections import Counter

import pytest
from confluent_kafka import Consumer, TopicPartition

import builds
from cluster import failover_cycles, running_cluster, wait_for
from harness import CHECK_LINE, read_to_end
from replication_load import ConfluentLoad

from odradek.broker.wire_client import WireClient

PARTITIONS = 6
DEFAULT_CYCLES = 2
INTERNAL = ("__transaction_state", "__consumer_offsets")

pytestmark = [pytest.mark.timeout(1800),
              pytest.mark.skipif(shutil.which("mvn") is None or shutil.which("java") is None,
                                 reason="needs Java 17 and Maven")]


@pytest.fixture(scope="module")
def cluster(request, tmp_path_factory):
    props = {"min.insync.replicas": "2", "offsets.topic.replication.factor": "3",
             "transaction.state.log.replication.factor": "3", "transaction.state.log.min.isr": "2"}
    with running_cluster(tmp_path_factory.mktemp("eos-java"), request.config, props=props) as c:
        yield c


class JavaCopy:
    """EosCopy in its own JVM; `committed` the records copied in committed transactions so far."""

    def __init__(self, bootstrap: str, src: str, dst: str):
        self.group = f"eos-java-{uuid.uuid4().hex[:8]}"
        self.txn_id = f"eos-java-{uuid.uuid4().hex[:8]}"
        self.committed = 0
        self.lines: list[str] = []
        self.proc = subprocess.Popen(
            ["java", *builds.CHECK_JVM, "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "-cp",
             builds.java_clients_classpath("4.3.0"), "odradek.compat.EosCopy", bootstrap, src, dst, self.group,
             self.txn_id], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        for line in self.proc.stdout:
            self.lines.append(line.rstrip())
            if line.startswith("COMMITTED "):
                self.committed = int(line.split()[2])

    def errors(self) -> list[str]:
        return [line for line in self.lines if line.startswith(("ERROR", "REPLACED"))]

    def state(self) -> tuple[int, object, list[str]]:
        return self.committed, self.proc.poll(), self.lines[-5:]

    def wait_more(self, n: int, what: str, timeout: float = 180) -> None:
        before = self.committed
        wait_for(lambda: self.committed >= before + n or self.proc.poll() is not None, timeout, what,
                 last=self.state)
        assert self.proc.poll() is None, f"EosCopy exited: {self.lines[-30:]}"

    def stop(self) -> None:
        self.proc.kill()
        self.proc.wait(30)


def _coordinator(bootstrap: str, txn_id: str) -> int:
    with WireClient.from_bootstrap(bootstrap) as c:
        err, node, *_ = c.find_coordinator(txn_id, key_type=1, wait_s=60)
    assert err == 0, err
    return node


def _victim(cluster, cycle: int, txn_id: str, topics: tuple[str, ...]) -> int:
    """Even cycles the transaction coordinator's broker, odd ones the busiest other partition leader."""
    coordinator = _coordinator(cluster.bootstrap, txn_id)
    if cycle % 2 == 0:
        return coordinator
    leaders = Counter(s.leader for t in topics for s in cluster.partitions(t).values()
                      if s.leader not in (-1, coordinator))
    return leaders.most_common(1)[0][0]


def _group_offsets(bootstrap: str, group: str, topic: str) -> list[int]:
    c = Consumer({"bootstrap.servers": bootstrap, "group.id": group})
    try:
        committed = c.committed([TopicPartition(topic, p) for p in range(PARTITIONS)], 30)
    finally:
        c.close()
    return [tp.offset for tp in sorted(committed, key=lambda tp: tp.partition)]


def test_java_consume_transform_produce_through_kills(cluster, request):
    cycles = failover_cycles(request.config, DEFAULT_CYCLES)
    src, dst = "eos-java-in", "eos-java-out"
    for t in (src, dst):
        cluster.create_topic(t, PARTITIONS, 3, {"min.insync.replicas": "2"})
    load = ConfluentLoad(cluster.bootstrap, src, PARTITIONS).start()
    copy = JavaCopy(cluster.bootstrap, src, dst)
    try:
        try:
            copy.wait_more(200, "transactions before the first kill")
            for cycle in range(cycles):
                victim = _victim(cluster, cycle, copy.txn_id, (src, dst))
                cluster.kill9(victim)
                copy.wait_more(200, f"cycle {cycle}: transactions committed after broker {victim}'s kill -9")
                cluster.start(victim)
                for t in (src, dst, *INTERNAL):
                    cluster.wait_full_isr(t)
                print(f"cycle {cycle}: broker {victim} killed and back; copied {copy.committed} of "
                      f"{len(load.acked)} acknowledged", flush=True)
        finally:
            load.stop()
        assert load.errors == []
        inputs = read_to_end(cluster.bootstrap, src, PARTITIONS, "read_uncommitted", len(load.acked))
        ends = [len(inputs[p]) for p in range(PARTITIONS)]
        wait_for(lambda: _group_offsets(cluster.bootstrap, copy.group, src) == ends, 300,
                 "the group's committed offsets at the input's ends",
                 last=lambda: (copy.state(), _group_offsets(cluster.bootstrap, copy.group, src), ends))
    finally:
        copy.stop()
    assert sorted(v for vs in inputs.values() for v in vs) == sorted(v.decode() for _, _, v in load.acked)
    out = read_to_end(cluster.bootstrap, dst, PARTITIONS, "read_committed", sum(ends), timeout=120)
    for p in range(PARTITIONS):  # each input record once, in input order
        assert out[p] == [f"out-{v}" for v in inputs[p]], (p, len(out[p]), len(inputs[p]))
    errors = Counter(e.split(":")[0] for e in copy.errors())
    print(f"copied {sum(ends)} records exactly once through {cycles} kill -9 cycles (Java EOS); "
          f"client errors: {errors.most_common(6)}", flush=True)


STREAMS_CHECKS = ["streams.cluster.firstBatch", "streams.cluster.brokerKilled", "streams.cluster.brokerRestarted",
                  "streams.noDuplicateOutput", "streams.outputTransactions", "streams.committedOffsets"]


def test_kafka_streams_exactly_once_through_a_broker_kill(cluster):
    """StreamsCheck BOOTSTRAP cluster asks for the kill ("KILL <transactional id>") and the restart
    ("RESTART") on stdout and goes on when it reads a line."""
    proc = subprocess.Popen(["java", *builds.CHECK_JVM, "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "-cp",
                             builds.streams_classpath(), "odradek.compat.streams.StreamsCheck", cluster.bootstrap,
                             "cluster"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True)
    results: dict[str, str] = {}
    out: list[str] = []
    victim = None
    try:
        for line in proc.stdout:
            out.append(line)
            if line.startswith("KILL "):
                victim = _coordinator(cluster.bootstrap, line.split()[1])
                cluster.kill9(victim)
                print(f"killed broker {victim}, the coordinator of {line.split()[1]}", flush=True)
            elif line.startswith("RESTART"):
                cluster.start(victim)
                for t in INTERNAL:
                    cluster.wait_full_isr(t)
            elif m := CHECK_LINE.match(line):
                results[m.group(2)] = "PASS" if m.group(1) == "PASS" else line
                continue
            else:
                continue
            proc.stdin.write("done\n")
            proc.stdin.flush()
        proc.wait(60)
    finally:
        proc.kill()
        proc.wait(30)
    tail = "".join(out[-60:])
    assert victim is not None, tail
    for check in STREAMS_CHECKS:
        assert results.get(check) == "PASS", f"{check}: {results.get(check)}\n{tail}"
    assert proc.returncode == 0, tail
