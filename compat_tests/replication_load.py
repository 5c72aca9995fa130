"""Continuous load for the replication tests: idempotent acks=all producers of stock clients
(confluent-kafka, kafka-python: numbered records round-robin over a topic's partitions from a thread;
Java kafka-clients 4.3: Kafka's own kafka-verifiable-producer, numbered records by its default
partitioner), a consumer group member reading along, and the read-back checks of what they were told.

Every producer remembers what each acknowledgement said (partition, offset, value) and every error
its client finally reported; `check_log` proves each acknowledged record is in the partition exactly
once, at its acknowledged offset, in the order it was sent.
"""
from __future__ import annotations

import json
import os
import subprocess
import tempfile
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Iterator

from confluent_kafka import OFFSET_BEGINNING, Consumer, KafkaException, Producer, TopicPartition

from cluster import LOGS_ENV, Cluster, run_log, wait_for

RATE_PAUSE_S = 0.01  # between bursts of BURST records: ~200 records/s per producer, a 2-core machine's share
BURST = 2


class LoadProducer:
    """One client's producer on a thread: records f"{name}-{n}" to partition n % partitions."""

    def __init__(self, name: str, topic: str, partitions: int):
        self.name, self.topic, self.partitions = name, topic, partitions
        self.acked: list[tuple[int, int, bytes]] = []  # (partition, offset, value), in ack order
        self.errors: list[str] = []
        self.sent = 0
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._run, name=f"load-{name}", daemon=True)

    def start(self) -> LoadProducer:
        self._thread.start()
        return self

    def acks_on(self, partition: int) -> int:
        with self._lock:
            return sum(1 for p, _, _ in self.acked if p == partition)

    def _ack(self, partition: int, offset: int, value: bytes) -> None:
        with self._lock:
            self.acked.append((partition, offset, value))

    def _error(self, what: str) -> None:
        with self._lock:
            self.errors.append(what)

    def stop(self, timeout: float = 90) -> None:
        """Stop sending, wait for every outstanding acknowledgement (or its final error)."""
        self._stop.set()
        self._thread.join(timeout)
        assert not self._thread.is_alive(), f"{self.name}: producer did not finish in {timeout} s"

    def number(self, value: bytes) -> int | None:
        """The sequence number of one of this producer's values, None for another producer's."""
        prefix = self.name.encode() + b"-"
        return int(value[len(prefix):]) if value.startswith(prefix) else None

    def _value(self) -> tuple[int, bytes]:
        n = self.sent
        self.sent += 1
        return n % self.partitions, f"{self.name}-{n}".encode()

    def _run(self) -> None:
        raise NotImplementedError


class ConfluentLoad(LoadProducer):
    def __init__(self, bootstrap: str, topic: str, partitions: int, **conf):
        super().__init__("confluent", topic, partitions)
        # One request in flight per broker: with more, librdkafka 2.x bumps the producer epoch when a request
        # after a failed one gets OUT_OF_ORDER_SEQUENCE_NUMBER during a leader change, and resends records that
        # were written under the old epoch: duplicates, seen against Apache Kafka 4.3's cluster as well
        # (confluentinc/librdkafka#4953). The brokers' deduplication is what is tested, not that client bug.
        self.client = Producer({"bootstrap.servers": bootstrap, "acks": "all", "enable.idempotence": True,
                                "max.in.flight.requests.per.connection": 1, "linger.ms": 5,
                                "message.timeout.ms": 120000, **conf})

    def _report(self, err, msg) -> None:
        if err is not None:
            self._error(f"{msg.value()!r}: {err.name()} {err.str()}")
        else:
            self._ack(msg.partition(), msg.offset(), msg.value())

    def _run(self) -> None:
        while not self._stop.is_set():
            for _ in range(BURST):
                part, value = self._value()
                self.client.produce(self.topic, value, partition=part, on_delivery=self._report)
            self.client.poll(RATE_PAUSE_S)
        left = self.client.flush(80)
        if left:
            self._error(f"{left} records neither acknowledged nor failed at the end")


class KafkaPythonLoad(LoadProducer):
    def __init__(self, bootstrap: str, topic: str, partitions: int):
        from kafka import KafkaProducer

        super().__init__("kafkapython", topic, partitions)
        self.client = KafkaProducer(bootstrap_servers=bootstrap.split(","), acks="all", enable_idempotence=True,
                                    linger_ms=5, delivery_timeout_ms=120000, request_timeout_ms=10000)

    def _run(self) -> None:
        while not self._stop.is_set():
            for _ in range(BURST):
                part, value = self._value()
                fut = self.client.send(self.topic, value, partition=part)
                fut.add_callback(lambda md, v=value: self._ack(md.partition, md.offset, v))
                fut.add_errback(lambda e, v=value: self._error(f"{v!r}: {type(e).__name__} {e}"))
            time.sleep(RATE_PAUSE_S)
        self.client.flush(80)
        self.client.close(10)


def with_client_warnings(cmd: list[str]) -> list[str]:
    """A Kafka tool's java command that logs kafka-clients' warnings (the produce and fetch errors it
    retries) on stdout, when ODRADEK_CLUSTER_LOGS keeps them (log4j's default configuration, which
    the tools run with, logs errors only)."""
    return [cmd[0], "-Dlog4j2.level=WARN", *cmd[1:]] if os.environ.get(LOGS_ENV) else cmd


def tool_events(proc: subprocess.Popen, log_name: str) -> Iterator[dict]:
    """The JSON events a verifiable tool prints, one a line; its other lines (the client's warnings,
    with_client_warnings) go to the run log `log_name` when ODRADEK_CLUSTER_LOGS is set."""
    kept = run_log(log_name)
    for line in proc.stdout:
        if line.startswith("{"):
            yield json.loads(line)
        elif kept is not None:
            kept.write(line)


class JavaLoad(LoadProducer):
    """Kafka 4.3's kafka-verifiable-producer (Java kafka-clients 4.3, acks=all, idempotent): values "7.N" at
    ~200 records/s, batches of at most 2 KB; it reports each acknowledgement and error as a JSON line. The
    tool sets retries=0 (every failure visible); its --command-config gives the producer the client's default
    retries back."""

    PREFIX = 7

    def __init__(self, bootstrap: str, topic: str, partitions: int):
        import apache_kafka

        super().__init__("java", topic, partitions)
        fd, self.config = tempfile.mkstemp(prefix="verifiable-producer-", suffix=".properties")
        with os.fdopen(fd, "w") as f:
            # batch.size: the default (sticky) partitioner moves to another partition every ~100 records,
            # not every ~800, so that every partition sees records within a second
            f.write("retries=2147483647\nenable.idempotence=true\ndelivery.timeout.ms=120000\nbatch.size=2048\n")
        self.cmd = with_client_warnings(apache_kafka.tool_command(
            "verifiable-producer", "--bootstrap-server", bootstrap, "--topic", topic, "--acks", "-1", "--throughput",
            "200", "--value-prefix", str(self.PREFIX), "--command-config", self.config))
        self.proc: subprocess.Popen | None = None

    def number(self, value: bytes) -> int | None:
        head, _, n = value.partition(b".")
        return int(n) if head == str(self.PREFIX).encode() and n.isdigit() else None

    def start(self) -> JavaLoad:
        self.proc = subprocess.Popen(self.cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        return super().start()

    def _run(self) -> None:
        for event in tool_events(self.proc, "java-producer"):
            if event.get("name") == "producer_send_success":
                self._ack(event["partition"], event["offset"], event["value"].encode())
            elif event.get("name") == "producer_send_error":
                self._error(f"{event.get('value')}: {event.get('exception')} {event.get('message')}")

    def stop(self, timeout: float = 90) -> None:
        """SIGTERM: the tool closes its producer (every outstanding send answered) and exits."""
        self.proc.terminate()
        try:
            self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            self._error(f"kafka-verifiable-producer did not exit {timeout} s after SIGTERM")
        os.unlink(self.config)
        super().stop(30)


def _client_debug(name: str) -> dict:
    """A librdkafka client's debug log of its group, fetches and metadata (which coordinator and leaders
    it talks to, and why it stops), when ODRADEK_CLUSTER_LOGS is set: keyword arguments for
    Consumer/Producer (client.id `name`), empty otherwise.

    Printed by librdkafka's own threads on the test's stderr (the run's output: -s, or pytest's report
    of a failure), lines "%7|<time>|<facility>|<name>#consumer-N| ...". Not through a Python logger:
    confluent-kafka serves such a log from the client's queue, in its consume() calls only, so a member
    whose thread blocks (seed 419 of session 18: in commit(), from its coordinator's kill -9 to the end
    of the test, 3 minutes) writes nothing from then on, just when its log is wanted."""
    if os.environ.get(LOGS_ENV) is None:
        return {}
    return {"debug": "cgrp,fetch,topic,metadata,protocol", "client.id": name}


class GroupReader:
    """A consumer group member reading the topic from the start on a thread, committing what it received
    after each poll (synchronously, one commit at a time): what it received, by partition (offset,
    value), duplicates after a rebalance kept.

    Not librdkafka's auto-commit: its commits are asynchronous, and one that fails in flight with its
    coordinator (a broker killed) is retried after a newer one went through, so the group's committed
    offset goes back by the client's own doing - on Apache Kafka as on odradek (seen in the chaos loop:
    two commits of one member 95 ms apart, the newer first, when the coordinator came back). The chaos
    loop checks that the committed offsets never go back.

    librdkafka (2.15/2.16, confluent-kafka 2.16) can deadlock under the kill loop, on Apache Kafka as on
    odradek: a broker leaves the Metadata (fenced, as Kafka's getAliveBrokerNodes leaves it out) while an
    OffsetForLeaderEpoch to it is in flight; its thread, decommissioned, holds the handle's read lock and
    waits for the partition's lock, which rdk:main holds while it answers that request's failure by a
    leader query that waits for the handle's write lock (librdkafka issue #5476, open). From then on the
    member sends nothing - no heartbeat, no fetch - and commit()/close() never return; its coordinator
    expires it a session later. Seen with gdb in session 18 (kill_storm seed 518; seed 419 and session
    17's seed 219 stopped the same way, by their logs): a reader stuck so is the client's, not the broker's."""

    def __init__(self, bootstrap: str, topic: str, group: str):
        self.got: dict[int, list[tuple[int, bytes]]] = defaultdict(list)
        self.errors: list[str] = []
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._received_at: str | None = None  # when it last received a record (wall clock)
        self._committing_since: tuple[float, str] | None = None  # (monotonic, wall clock) of a commit() not returned
        self.commits = 0  # commit() calls that returned (success or error)
        config = {"bootstrap.servers": bootstrap, "group.id": group, "auto.offset.reset": "earliest",
                  "enable.partition.eof": False, "enable.auto.commit": False}
        self.client = Consumer(config, **_client_debug(f"member-{group}"))
        self.client.subscribe([topic])
        self._thread = threading.Thread(target=self._run, name=f"group-{group}", daemon=True)

    def start(self) -> GroupReader:
        self._thread.start()
        return self

    def _run(self) -> None:
        while not self._stop.is_set():
            received = False
            for m in self.client.consume(200, 0.2):
                with self._lock:
                    if m.error() is None:
                        self.got[m.partition()].append((m.offset(), m.value()))
                        received = True
                    elif not m.error().retriable():
                        self.errors.append(str(m.error()))
            if received:
                self._received_at = time.strftime("%H:%M:%S")
                self._committing_since = (time.monotonic(), self._received_at)
                try:
                    self.client.commit(asynchronous=False)  # (librdkafka's synchronous commit has no timeout)
                except KafkaException:
                    pass  # (its coordinator moving, a rebalance: the next poll's commit covers it)
                self._committing_since = None
                self.commits += 1
        self.client.close()

    def state(self) -> str:
        """Where its thread is, for a failure's message: a commit() not returned (since when), the last
        record received, the records and commits so far."""
        with self._lock:
            got = {p: len(v) for p, v in sorted(self.got.items())}
        since = self._committing_since
        blocked = f"in commit() for {time.monotonic() - since[0]:.0f} s (since {since[1]}); " if since else ""
        return f"{blocked}last record received at {self._received_at}; records by partition {got}; {self.commits} commits"

    def has(self, acked: dict[int, dict[int, bytes]]) -> bool:
        with self._lock:
            return all(set(offs.items()) <= set(self.got[p]) for p, offs in acked.items())

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(30)


class JavaGroupReader:
    """Kafka 4.3's kafka-verifiable-consumer (Java kafka-clients 4.3) in a group of the given protocol
    (classic or consumer, KIP-848), reading the topic from the start and committing after each poll:
    the offsets it consumed, by partition (its records_consumed ranges); a successful commit below an
    earlier one is an error."""

    def __init__(self, bootstrap: str, topic: str, group: str, protocol: str = "consumer"):
        import apache_kafka

        self.got: dict[int, list[tuple[int, int]]] = defaultdict(list)  # partition -> [(min, max offset)]
        self.committed: dict[int, int] = {}  # partition -> the highest offset a successful commit reported
        self.errors: list[str] = []
        self._lock = threading.Lock()
        self.proc = subprocess.Popen(
            with_client_warnings(apache_kafka.tool_command(
                "verifiable-consumer", "--bootstrap-server", bootstrap, "--topic", topic, "--group-id", group,
                "--group-protocol", protocol, "--reset-policy", "earliest")),
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self._thread = threading.Thread(target=self._run, name=f"java-group-{group}", daemon=True)

    def start(self) -> JavaGroupReader:
        self._thread.start()
        return self

    def _run(self) -> None:
        for event in tool_events(self.proc, "java-consumer"):
            with self._lock:
                if event.get("name") == "records_consumed":
                    for p in event.get("partitions", []):
                        self.got[p["partition"]].append((p["minOffset"], p["maxOffset"]))
                elif event.get("name") == "offsets_committed" and event.get("success"):
                    for o in event.get("offsets") or []:  # a successful commit never below an earlier one
                        p, off = o["partition"], o["offset"]
                        if off < self.committed.get(p, -1):
                            self.errors.append(f"partition {p}: committed {off} after {self.committed[p]}")
                        self.committed[p] = max(off, self.committed.get(p, -1))

    def state(self) -> str:
        """For a failure's message: the highest offset it consumed and committed, by partition."""
        with self._lock:
            high = {p: max(hi for _, hi in r) for p, r in sorted(self.got.items()) if r}
            return f"consumed up to {high}; committed {dict(sorted(self.committed.items()))}"

    def has(self, acked: dict[int, dict[int, bytes]]) -> bool:
        """Every acknowledged offset inside a range it consumed."""
        with self._lock:
            ranges = {p: sorted(r) for p, r in self.got.items()}
        for p, offs in acked.items():
            covered, rs = 0, ranges.get(p, [])
            for lo, hi in rs:  # the offsets 0..covered-1 consumed so far (ranges in offset order)
                if lo <= covered:
                    covered = max(covered, hi + 1)
            if offs and max(offs) >= covered:
                return False
        return True

    def stop(self) -> None:
        if self.proc.poll() is not None:
            self.errors.append(f"kafka-verifiable-consumer exited by itself ({self.proc.returncode})")
        self.proc.terminate()
        try:
            self.proc.wait(60)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self._thread.join(30)


def acks_go_on(producers: list[LoadProducer], what: str, more: int = 20, timeout: float = 120) -> None:
    """Wait until every producer has `more` acknowledgements beyond what it has now."""
    before = [len(p.acked) for p in producers]
    wait_for(lambda: all(len(p.acked) >= b + more for p, b in zip(producers, before)), timeout, what,
             last=lambda: [(p.name, len(p.acked), p.errors[:3]) for p in producers])


def acked_by_partition(producers: list[LoadProducer]) -> dict[int, dict[int, bytes]]:
    """{partition: {offset: value}} of every acknowledgement, with no offset acknowledged twice."""
    out: dict[int, dict[int, bytes]] = defaultdict(dict)
    for prod in producers:
        for p, off, value in prod.acked:
            assert off not in out[p], f"offset {off} of partition {p} acknowledged twice: {out[p][off]!r}, {value!r}"
            out[p][off] = value
    return out


def read_partitions(bootstrap: str, topic: str, partitions: int,
                    timeout: float = 60) -> dict[int, list[tuple[int, bytes]]]:
    """(offset, value) of every record of each partition from its start to its current end."""
    c = Consumer({"bootstrap.servers": bootstrap, "group.id": f"{topic}-verify", "enable.auto.commit": False,
                  "enable.partition.eof": False})
    try:
        ends = wait_for(lambda: {p: c.get_watermark_offsets(TopicPartition(topic, p), timeout=5)[1]
                                 for p in range(partitions)}, 30, "end offsets")
        c.assign([TopicPartition(topic, p, OFFSET_BEGINNING) for p in range(partitions)])
        got: dict[int, list[tuple[int, bytes]]] = {p: [] for p in range(partitions)}

        def done():
            for m in c.consume(500, 0.1):  # (a call waits its whole timeout for the last records)
                if m.error() is None:
                    got[m.partition()].append((m.offset(), m.value()))
            return all((got[p][-1][0] + 1 if got[p] else 0) >= ends[p] for p in got)
        wait_for(done, timeout, f"every record of {topic} up to {ends}")
        return got
    finally:
        c.close()


def check_log(cluster: Cluster, topic: str, partitions: int, producers: list[LoadProducer]) -> int:
    """Every acknowledged record exactly once in its partition, at its acknowledged offset, each
    producer's records in the order it sent them; no producer got an error. The records checked."""
    for prod in producers:
        assert prod.errors == [], f"{prod.name}: {prod.errors[:5]}"
    acked = acked_by_partition(producers)
    log = read_partitions(cluster.bootstrap, topic, partitions)
    for p, records in log.items():
        offsets = [o for o, _ in records]
        assert offsets == sorted(set(offsets)), f"partition {p}: offsets out of order or repeated"
        values = [v for _, v in records]
        dupes = {v for v, n in Counter(values).items() if n > 1}
        assert not dupes, f"partition {p}: written more than once: {sorted(dupes)[:5]}"
        at = dict(records)
        wrong = {o: (v, at.get(o)) for o, v in acked.get(p, {}).items() if at.get(o) != v}
        assert not wrong, f"partition {p}: acknowledged records not at their offsets: {dict(list(wrong.items())[:5])}"
        for prod in producers:  # a producer's records of one partition: in the order of their numbers
            mine = [n for n in map(prod.number, values) if n is not None]
            assert mine == sorted(mine), f"partition {p}: {prod.name}'s records reordered"
    return sum(len(v) for v in acked.values())
