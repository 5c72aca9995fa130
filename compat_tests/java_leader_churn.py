"""A diagnostic, not a test: kafka-clients' AsyncKafkaConsumer (group.protocol=consumer, 4.3.0;
4.3.1 keeps the code below) dies with IllegalStateException "Cannot set a new position without a
valid current position" (FetchCollector.fetchRecords) when a partition it holds fetched records of
changes leader while it is idle, and it then polls again. It does so against Apache Kafka 4.3 as
against odradek: this script shows it on a 3 controllers + 3 brokers cluster of either kind
(compat_tests/cluster.py).

Why (read from the client's source): the first poll after the metadata change submits an
AsyncPollEvent; the background thread, processing it, first records the new metadata version
(PositionsValidator.validatePositionsOnMetadataChange: metadataUpdateVersion.getAndSet) and only then
moves the partition to AWAIT_VALIDATION (its leader epoch moved). The application thread, in
AsyncKafkaConsumer.collectFetch, may read canSkipUpdateFetchPositions() in between (version equal, every
position still valid), go on into FetchCollector.fetchRecords and, after the partition left FETCHING,
set the next position: the exception. Nothing the broker answers differs: the leader change (a new
leader epoch in Metadata) is the whole trigger, and Kafka's own brokers give it.

What it does: one topic of one partition (replication factor 3) filled with small records; the Java
member (compat_tests/java GroupMember, metadata.max.age.ms short so it sees a leader change while
idle, as after a coordinator kill) steps: a poll of at most 10 records and a commit every 25, so
that it always holds fetched records. Each round the member is left idle, the partition's leader
moves (the replica order rotated by AlterPartitionReassignments, then a preferred ElectLeaders), the
member stays idle IDLE_S more, then steps again. It stops at the first death of the member or after
--changes leader changes, and prints how many changes it took.

    PYTHONPATH=. python compat_tests/java_leader_churn.py [--kafka] [--changes 80] [--idle 1.0]
"""
from __future__ import annotations

import argparse
import queue
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from confluent_kafka import Producer
from kafka.admin import KafkaAdminClient
from kafka.structs import TopicPartition

from builds import CHECK_JVM, java_clients_classpath
from cluster import FAST, start_cluster, wait_for

TOPIC, GROUP = "leader-churn", "leader-churn-group"
RECORDS = 60000
STEP_GAP_S = 0.2  # between steps: ~50 records/s, so that the member holds fetched records for minutes
SETTINGS = {"group.protocol": "consumer", "max.poll.records": "10", "metadata.max.age.ms": "300"}


class Member:
    """GroupMember driven a step at a time; `died` holds its last error lines once it exited."""

    def __init__(self, bootstrap: str, clients: str):
        self.proc = subprocess.Popen(
            ["java", *CHECK_JVM, "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "-cp",
             java_clients_classpath(clients), "odradek.compat.GroupMember", bootstrap, TOPIC, GROUP, "25",
             *(f"{k}={v}" for k, v in SETTINGS.items())],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1)
        self.done: queue.Queue[str] = queue.Queue()
        self.consumed = 0
        self.stderr: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=lambda: [self.stderr.append(x) for x in self.proc.stderr], daemon=True).start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            if line.startswith("R "):
                self.consumed += 1
            elif line.startswith("D "):
                self.done.put(line)

    def step(self) -> bool:
        """One step, waited for; False once the member exited."""
        if self.proc.poll() is not None:
            return False
        try:
            self.proc.stdin.write("step\n")
        except OSError:
            return False
        while True:
            try:
                self.done.get(timeout=1)
                return True
            except queue.Empty:
                if self.proc.poll() is not None:
                    return False

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()


def move_leader(cluster, admin: KafkaAdminClient) -> int:
    """The partition's replica order rotated, then a preferred election: its next replica leads."""
    state = cluster.partitions(TOPIC)[0]
    order = state.replicas[1:] + state.replicas[:1]
    admin.alter_partition_reassignments({TopicPartition(TOPIC, 0): order})
    wait_for(lambda: cluster.partitions(TOPIC)[0].replicas == order, 90, "the replica order rotated")
    admin.elect_leaders(0, {TOPIC: [0]})  # 0: PREFERRED
    wait_for(lambda: cluster.partitions(TOPIC)[0].leader == order[0], 90, "the preferred leader elected")
    return order[0]


def run(kind: str, changes: int, idle_s: float, clients: str, root: Path) -> int:
    """Leader changes the member survived (== changes: it never died)."""
    props = {**FAST, "offsets.topic.replication.factor": "3", "offsets.topic.num.partitions": "1",
             "min.insync.replicas": "2"}
    cluster = start_cluster(kind, root, props=props)
    member = admin = None
    try:
        cluster.create_topic(TOPIC, 1, 3, {"min.insync.replicas": "2"})
        producer = Producer({"bootstrap.servers": cluster.bootstrap, "acks": "all", "linger.ms": 20})
        for i in range(RECORDS):
            producer.produce(TOPIC, value=b"%d" % i, partition=0)
            if i % 1000 == 0:
                producer.poll(0)
        assert producer.flush(60) == 0
        admin = KafkaAdminClient(bootstrap_servers=cluster.bootstrap)
        member = Member(cluster.bootstrap, clients)
        while member.consumed < 50:  # joined, assigned, fetching
            if not member.step():
                raise RuntimeError("the member died before the first leader change:\n" + "".join(member.stderr[-20:]))
            time.sleep(STEP_GAP_S)
        for n in range(changes):
            leader = move_leader(cluster, admin)  # the member idle meanwhile
            time.sleep(idle_s)
            survived = all(member.step() and not time.sleep(STEP_GAP_S) for _ in range(5))
            print(f"change {n + 1}: leader {leader}, {member.consumed} records consumed", flush=True)
            if not survived:
                print("the member died:\n" + "".join(member.stderr[-12:]), flush=True)
                return n
        return changes
    finally:
        if member is not None:
            member.close()
        if admin is not None:
            admin.close()
        cluster.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--kafka", action="store_true", help="Apache Kafka 4.3 nodes instead of odradek's")
    ap.add_argument("--changes", type=int, default=80)
    ap.add_argument("--idle", type=float, default=1.0, help="seconds the member stays idle after a change")
    ap.add_argument("--clients", default="4.3.0", help="kafka-clients version of the member")
    args = ap.parse_args()
    kind = "kafka" if args.kafka else "odradek"
    with tempfile.TemporaryDirectory(prefix="leader-churn-") as root:
        survived = run(kind, args.changes, args.idle, args.clients, Path(root))
    print(f"{kind}, kafka-clients {args.clients}: the member "
          + (f"died at leader change {survived + 1}" if survived < args.changes
             else f"survived {args.changes} leader changes"), flush=True)
    sys.exit(1 if survived < args.changes else 0)


if __name__ == "__main__":
    main()
