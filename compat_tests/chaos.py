"""A seeded chaos loop for a replicated cluster (compat_tests/cluster.py: 3 controllers + 3 brokers of
odradek, or of Apache Kafka 4.3 with --cluster-kafka), as a Jepsen-style run against Kafka would be.

While idempotent acks=all producers of stock clients (replication_load.py) write numbered records to a
topic of replication.factor=3, min.insync.replicas=2 and a consumer group member reads it (committing
automatically), each cycle draws one fault from a random.Random(seed):

  kill_broker       kill -9 of a broker (half the time the leader of a partition), then its restart
  kill_controller   kill -9 of the active controller (DescribeQuorum's leader), then its restart
  pause_broker      SIGSTOP of a broker until the controller has fenced it (longer than its session),
                    then SIGCONT: a zombie that must learn the new leader epochs and truncate
  partition_leader  the leader of a partition cut from every other node (controllers too; the clients
                    cut as well half the time) until the others have fenced it and elected new
                    leaders, then healed (odradek's test network, odradek/testing/network.py; on
                    Kafka's nodes, which have none, a pause stands for it)
  restart_broker    SIGTERM (a controlled shutdown, which must exit cleanly), then a start
  kill_two_brokers  kill -9 of a partition's leader and one of its followers at once: the last replica
                    leads alone (under min.insync.replicas: no acks=all write succeeds) until they are
                    back, truncating what the dead leader had not committed
  kill_all          kill -9 of every node at once, then every node started again (log recovery)
  kill_leader_chain kill -9 of a partition's leader; once another leads, the dead one restarted and at
                    once the new leader killed too (faults overlapping: the first is not back in the
                    ISR yet), then it restarted
  partition_from_brokers  a leader cut from the other brokers only (it still reaches the controllers):
                    it shrinks its ISR to itself (no acks=all write succeeds there) and stays leader,
                    the others drop it from theirs; healed once every ISR has shrunk
  partition_controller    the active controller cut from every other node until another leads the
                    quorum (and a topic is created through it), then healed: the old one must follow
  kill_storm        3-6 kills -9 of random brokers in a row, each started again at once without waiting
                    for it, the next kill drawn 0-3 s later (so it may hit a broker still recovering its
                    logs, or one just back as a follower truncating); the seeded delays are the schedule
  kill_leader_and_controller  kill -9 of a partition's leader and of the active controller at once
  pause_controller  SIGSTOP of the active controller until another leads the quorum (and a topic is
                    created through it), then SIGCONT: a zombie controller whose session clocks say
                    every broker is late, which must follow the new leader and fence nobody
  partition_then_pause  a partition's leader cut off from every node and the clients until fenced, healed,
                    and at once (before the ISR is whole) SIGSTOP of the partition's new leader until it is
                    fenced too, then SIGCONT: the first one, just back and truncated, leads again

Each fault is waited out on conditions (the fenced node out of every ISR, new leaders, more
acknowledgements from every producer) and each cycle ends with the full ISR back. The group's
committed offsets are sampled all along. At the end (`verify`): no producer error, every acknowledged
record in its partition exactly once at its acknowledged offset in the order sent, every replica's
segment files holding the same batches byte for byte (the topic's and __consumer_offsets'), the
group member received every acknowledged record, no committed offset ever went backwards, and the
cluster still creates a topic and serves a write and a read.

The seed and the faults drawn are printed first, so that a failure replays with the same seed.
"""
from __future__ import annotations

import contextlib
import os
import random
import threading
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field

from confluent_kafka import Consumer, Producer, TopicPartition

from cluster import Cluster, PartitionState, wait_for
from harness import free_port
from odradek.broker.wire_client import WireClient, WireClientError
from odradek.log.dump_log import dump
from odradek.testing.control import Faults, http_transport
from odradek.wire.messages.metadata_request import MetadataRequest, MetadataRequestTopic
from replication_load import GroupReader, LoadProducer, acked_by_partition, acks_go_on, check_log

FAULTS = ("kill_broker", "kill_controller", "pause_broker", "partition_leader", "restart_broker", "kill_two_brokers",
          "kill_all", "kill_leader_chain", "partition_from_brokers", "partition_controller", "kill_storm",
          "kill_leader_and_controller", "pause_controller", "partition_then_pause")
CYCLES_ENV, SEED_ENV, FAULTS_ENV = "ODRADEK_CHAOS_CYCLES", "ODRADEK_CHAOS_SEED", "ODRADEK_CHAOS_FAULTS"
FAULT_WAIT_S = 120  # a fence, an election or a catch-up on a loaded 2-core machine
OFFSETS_TOPIC = "__consumer_offsets"


def control_props(kind: str, node_ids: list[int]) -> dict[int, dict[str, str]]:
    """Per node: the control API on a free port (odradek's nodes only; Kafka's have none)."""
    if kind != "odradek":
        return {}
    return {i: {"odradek.testing.control.enable": "true", "odradek.http.port": str(free_port())} for i in node_ids}


def node_faults(control: dict[int, dict[str, str]], node_id: int) -> Faults:
    """The control API of a node started with control_props."""
    return Faults(http_transport(f"http://127.0.0.1:{control[node_id]['odradek.http.port']}", timeout_s=10))


def partitions_via(cluster: Cluster, broker: int, topic: str) -> dict[int, PartitionState]:
    """Leader, replicas and ISR of `topic`'s partitions as broker `broker` answers a Metadata request
    (not another: a node cut off keeps its own stale view)."""
    with WireClient("127.0.0.1", cluster.node(broker).port, client_id="chaos", timeout=5) as c:
        md = c.send(MetadataRequest(topics=[MetadataRequestTopic(name=topic)]), max_version=12)
    for t in md.topics:
        if t.name == topic and t.error_code == 0:
            return {p.partition_index: PartitionState(p.leader_id, list(p.replica_nodes), list(p.isr_nodes))
                    for p in t.partitions}
    raise RuntimeError(f"no metadata of {topic} from broker {broker}")


class OffsetSampler:
    """The group's committed offsets read (OffsetFetch, no membership) every SAMPLE_S on a thread, by two
    clients: one with require_stable (librdkafka's default, isolation.level=read_committed) and one
    without (read_uncommitted, as the Java consumer's default); each time one is lower than the highest
    seen before on its partition, a regression is kept."""

    SAMPLE_S = 0.5

    def __init__(self, bootstrap: str, group: str, topic: str, partitions: int):
        self.clients = [Consumer({"bootstrap.servers": bootstrap, "group.id": group, "enable.auto.commit": False,
                                  "reconnect.backoff.max.ms": 1000, "isolation.level": isolation})
                        for isolation in ("read_committed", "read_uncommitted")]
        self.tps = [TopicPartition(topic, p) for p in range(partitions)]
        self.high: dict[int, int] = {}  # partition -> the highest offset read
        self._high_by: dict[tuple[str, int], int] = {}  # (kind of read, partition) -> the highest it read
        self.samples = 0
        self.regressions: list[str] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="offset-sampler", daemon=True)

    def start(self) -> OffsetSampler:
        self._thread.start()
        return self

    def sample(self) -> None:
        for client, how in zip(self.clients, ("stable", "plain")):
            for tp in client.committed(self.tps, timeout=5):
                if tp.error is not None or tp.offset < 0:
                    continue
                # each kind of read against itself: a plain read on a new coordinator may be a moment
                # behind a stable one answered by the old (its HW learnt from the old leader later)
                seen = self._high_by.get((how, tp.partition), -1)
                if tp.offset < seen:
                    self.regressions.append(f"partition {tp.partition}: committed {tp.offset} after {seen}"
                                            f" ({how} read, {time.strftime('%H:%M:%S')})")
                self._high_by[how, tp.partition] = max(seen, tp.offset)
                self.high[tp.partition] = max(self.high.get(tp.partition, -1), tp.offset)
        self.samples += 1

    def _run(self) -> None:
        while not self._stop.wait(self.SAMPLE_S):
            try:
                self.sample()
            except Exception:  # noqa: BLE001 - the coordinator moving or down: the next sample
                pass

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(30)
        for client in self.clients:
            client.close()


@dataclass
class ChaosRun:
    cluster: Cluster
    topic: str
    partitions: int
    producers: list[LoadProducer]
    seed: int
    control: dict[int, dict[str, str]]  # control_props the nodes were started with
    rng: random.Random = field(init=False)
    done: Counter = field(default_factory=Counter)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    # --- views of the cluster, from a broker that is up and not cut off

    def live_brokers(self, besides: int | None = None) -> list[int]:
        return [n.id for n in self.cluster.brokers if n.alive and not n.paused and n.id != besides]

    def state_via_others(self, victim: int) -> dict[int, PartitionState]:
        last: Exception | None = None
        for b in self.live_brokers(besides=victim):
            try:
                return partitions_via(self.cluster, b, self.topic)
            except (OSError, WireClientError, RuntimeError) as e:
                last = e
        raise RuntimeError(f"no broker but {victim} answers Metadata ({last})")

    def wait_fenced(self, victim: int, what: str) -> None:
        """Every partition led by a broker other than `victim`, and `victim` in no ISR (fenced)."""
        wait_for(lambda: all(p.leader not in (victim, -1) and victim not in p.isr
                             for p in self.state_via_others(victim).values()),
                 FAULT_WAIT_S, what, last=lambda: self.state_via_others(victim))

    def wait_whole(self, what: str) -> None:
        """Every broker back in the ISR of every partition (asked of every broker in turn), the topic's
        and __consumer_offsets'; every controller a voter of the quorum caught up to its high watermark."""
        def whole():
            q = self.cluster.quorum()
            if q is None or len(q.current_voters) != len(self.cluster.nodes) - len(self.cluster.brokers) or any(
                    v.log_end_offset < q.high_watermark for v in q.current_voters):
                return False
            for b in self.live_brokers():
                for topic in (self.topic, OFFSETS_TOPIC):
                    for p in partitions_via(self.cluster, b, topic).values():
                        if p.leader < 0 or sorted(p.isr) != sorted(p.replicas):
                            return False
            return True
        wait_for(whole, FAULT_WAIT_S, what, last=lambda: {b: partitions_via(self.cluster, b, self.topic)
                                                          for b in self.live_brokers()})

    def leader_of_some_partition(self) -> int:
        state = self.cluster.wait_partitions(self.topic, lambda s: all(p.leader >= 0 for p in s.values()), "leaders")
        return state[self.rng.randrange(self.partitions)].leader

    def some_broker(self) -> int:
        if self.rng.random() < 0.5:
            return self.leader_of_some_partition()
        return self.rng.choice([n.id for n in self.cluster.brokers])

    def quorum_leader(self) -> int:
        return self.cluster.quorum_leader()

    def every_partition_goes_on(self, what: str) -> None:
        """Every producer acknowledged again on every partition (a partition whose writes stay stuck
        shows here, not only when its records expire)."""
        before = [[p.acks_on(i) for i in range(self.partitions)] for p in self.producers]
        wait_for(lambda: all(p.acks_on(i) > b[i] for p, b in zip(self.producers, before)
                             for i in range(self.partitions)), FAULT_WAIT_S, what,
                 last=lambda: [(p.name, [p.acks_on(i) - b[i] for i in range(self.partitions)], p.errors[:2])
                               for p, b in zip(self.producers, before)])

    # --- the faults

    def kill_broker(self, cycle: int) -> str:
        victim = self.some_broker()
        self.cluster.kill9(victim)
        self.wait_fenced(victim, f"cycle {cycle}: broker {victim} fenced after its kill -9")
        acks_go_on(self.producers, f"cycle {cycle}: acknowledgements without broker {victim}")
        self.cluster.start(victim)
        return f"kill -9 broker {victim}"

    def kill_controller(self, cycle: int) -> str:
        active = wait_for(lambda: (lambda n: n if n > 0 else None)(self.quorum_leader()), FAULT_WAIT_S,
                          "an active controller")
        self.cluster.kill9(active)
        wait_for(lambda: self.quorum_leader() not in (active, -1), FAULT_WAIT_S,
                 f"cycle {cycle}: another active controller after controller {active}'s kill -9")
        acks_go_on(self.producers, f"cycle {cycle}: acknowledgements with the new active controller")
        self.cluster.start(active)
        return f"kill -9 active controller {active}"

    def pause_broker(self, cycle: int) -> str:
        victim = self.some_broker()
        with self.paused(victim):
            self.wait_fenced(victim, f"cycle {cycle}: broker {victim} fenced while stopped")
            acks_go_on(self.producers, f"cycle {cycle}: acknowledgements while broker {victim} is stopped")
        return f"SIGSTOP broker {victim} past its session, SIGCONT"

    def partition_leader(self, cycle: int) -> str:
        if not self.control:
            return "(kafka: no test network) " + self.pause_broker(cycle)
        victim = self.leader_of_some_partition()
        clients = self.rng.random() < 0.5
        with self.cut(victim, [i for i in self.cluster.nodes if i != victim], clients):
            self.wait_fenced(victim, f"cycle {cycle}: broker {victim} fenced while cut off")
            if clients:
                acks_go_on(self.producers, f"cycle {cycle}: acknowledgements while broker {victim} is cut off")
            # else the clients still reach the cut leader, which holds their acks=all writes (its followers
            # fetch nothing, its ISR shrink cannot reach the controller) until they time out, as Kafka's does:
            # a producer whose every partition it led sees no acknowledgement until the partition heals
        return f"network partition of leader {victim} from the other nodes{' and the clients' if clients else ''}"

    def kill_two_brokers(self, cycle: int) -> str:
        leader = self.leader_of_some_partition()
        other = self.rng.choice([n.id for n in self.cluster.brokers if n.id != leader])
        self.cluster.kill9(leader)
        self.cluster.kill9(other)
        survivor = self.live_brokers()[0]
        wait_for(lambda: all(p.leader == survivor for p in partitions_via(self.cluster, survivor, self.topic).values()),
                 FAULT_WAIT_S, f"cycle {cycle}: broker {survivor} leading every partition after {leader} and {other}",
                 last=lambda: partitions_via(self.cluster, survivor, self.topic))
        for victim in (leader, other):
            self.cluster.start(victim)
        return f"kill -9 leader {leader} and broker {other} at once"

    def kill_leader_chain(self, cycle: int) -> str:
        part = self.rng.randrange(self.partitions)
        first = self.cluster.wait_partitions(self.topic, lambda s: s[part].leader >= 0, "a leader")[part].leader
        led = []
        for victim in (first, None):
            if victim is None:
                victim = wait_for(lambda: (lambda p: p.leader if p.leader not in (-1, first) else None)(
                    self.state_via_others(first)[part]), FAULT_WAIT_S, f"cycle {cycle}: a leader after {first}")
            self.cluster.kill9(victim)
            wait_for(lambda: self.state_via_others(victim)[part].leader not in (-1, victim), FAULT_WAIT_S,
                     f"cycle {cycle}: another leader of partition {part} after broker {victim}'s kill -9",
                     last=lambda: self.state_via_others(victim))
            self.cluster.start(victim)
            led.append(victim)
        return f"kill -9 of partition {part}'s leaders {led} one after the other, each restarted at once"

    def kill_storm(self, cycle: int) -> str:
        victims = []
        for _ in range(self.rng.randint(3, 6)):
            node = self.cluster.node(self.rng.choice([n.id for n in self.cluster.brokers]))
            node.kill9()
            time.sleep(self.rng.uniform(0, 3))  # the fault schedule (seeded), not a wait for a condition
            node.start()
            victims.append(node.id)
            time.sleep(self.rng.uniform(0, 3))
        for n in self.cluster.brokers:
            n.wait_ready()
        return f"kill -9 storm of brokers {victims}, each started again at once"

    def kill_leader_and_controller(self, cycle: int) -> str:
        active = wait_for(lambda: (lambda n: n if n > 0 else None)(self.quorum_leader()), FAULT_WAIT_S,
                          "an active controller")
        victim = self.leader_of_some_partition()
        self.cluster.kill9(active)
        self.cluster.kill9(victim)
        self.wait_fenced(victim, f"cycle {cycle}: broker {victim} fenced by a new controller")
        acks_go_on(self.producers, f"cycle {cycle}: acknowledgements without broker {victim} and controller {active}")
        self.cluster.start(active)
        self.cluster.start(victim)
        return f"kill -9 of leader {victim} and active controller {active} at once"

    def kill_all(self, cycle: int) -> str:
        for n in self.cluster.nodes.values():
            n.kill9()
        for n in self.cluster.nodes.values():
            n.start()
        for n in self.cluster.nodes.values():
            n.wait_ready()
        return "kill -9 of every node, then every node started"

    def partition_from_brokers(self, cycle: int) -> str:
        if not self.control:
            return "(kafka: no test network) " + self.pause_broker(cycle)
        victim = self.leader_of_some_partition()
        others = [n.id for n in self.cluster.brokers if n.id != victim]
        with self.cut(victim, others):
            def shrunk():
                for b in self.live_brokers():
                    for p in partitions_via(self.cluster, b, self.topic).values():
                        if (p.isr != [victim]) if p.leader == victim else (victim in p.isr):
                            return False
                return True
            wait_for(shrunk, FAULT_WAIT_S, f"cycle {cycle}: every ISR shrunk around broker {victim}",
                     last=lambda: {b: partitions_via(self.cluster, b, self.topic) for b in self.live_brokers()})
        return f"network partition of leader {victim} from the other brokers"

    def partition_controller(self, cycle: int) -> str:
        if not self.control:
            return "(kafka: no test network) " + self.kill_controller(cycle)
        active = wait_for(lambda: (lambda n: n if n > 0 else None)(self.quorum_leader()), FAULT_WAIT_S,
                          "an active controller")
        with self.cut(active, [i for i in self.cluster.nodes if i != active]):
            wait_for(lambda: self.quorum_leader() not in (active, -1), FAULT_WAIT_S,
                     f"cycle {cycle}: another active controller while controller {active} is cut off")
            self.cluster.create_topic(f"{self.topic}-cut-{cycle}", 1, 3, {})
            acks_go_on(self.producers, f"cycle {cycle}: acknowledgements while controller {active} is cut off")
        return f"network partition of active controller {active}"

    def partition_then_pause(self, cycle: int) -> str:
        part = self.rng.randrange(self.partitions)
        first = self.cluster.wait_partitions(self.topic, lambda s: s[part].leader >= 0, "a leader")[part].leader
        cut_off = self.cut(first, [i for i in self.cluster.nodes if i != first], clients=True) if self.control \
            else self.paused(first)
        with cut_off:
            self.wait_fenced(first, f"cycle {cycle}: broker {first} fenced while cut off")
        second = wait_for(lambda: (lambda p: p.leader if p.leader not in (-1, first) else None)(
            self.state_via_others(first)[part]), FAULT_WAIT_S, f"cycle {cycle}: a leader after {first}")
        with self.paused(second):
            self.wait_fenced(second, f"cycle {cycle}: broker {second} fenced while stopped")
        return f"leader {first} of partition {part} cut off and healed, then its successor {second} stopped and resumed"

    def pause_controller(self, cycle: int) -> str:
        active = wait_for(lambda: (lambda n: n if n > 0 else None)(self.quorum_leader()), FAULT_WAIT_S,
                          "an active controller")
        with self.paused(active):
            wait_for(lambda: self.quorum_leader() not in (active, -1), FAULT_WAIT_S,
                     f"cycle {cycle}: another active controller while controller {active} is stopped")
            self.cluster.create_topic(f"{self.topic}-paused-{cycle}", 1, 3, {})
            acks_go_on(self.producers, f"cycle {cycle}: acknowledgements while controller {active} is stopped")
        return f"SIGSTOP active controller {active} until another leads, SIGCONT"

    @contextlib.contextmanager
    def paused(self, node_id: int) -> Iterator[None]:
        """Node `node_id` stopped (SIGSTOP) until the end of the block."""
        node = self.cluster.node(node_id)
        node.pause()
        try:
            yield
        finally:
            node.resume()

    @contextlib.contextmanager
    def cut(self, victim: int, others: list[int], clients: bool = False) -> Iterator[None]:
        """`victim` and `others` refuse each other's requests until the end of the block."""
        node_faults(self.control, victim).network(cut=others, clients=clients)
        try:
            for i in others:
                node_faults(self.control, i).network(cut=[victim])
            yield
        finally:
            for i in self.cluster.nodes:
                if self.cluster.node(i).alive:
                    node_faults(self.control, i).heal()

    def restart_broker(self, cycle: int) -> str:
        victim = self.some_broker()
        node = self.cluster.node(victim)
        code = node.stop()
        assert code == node.clean_exit_code, f"cycle {cycle}: broker {victim} exited {code} after SIGTERM"
        self.cluster.start(victim)
        return f"clean restart of broker {victim}"

    def run(self, cycles: int, kinds: tuple[str, ...] = FAULTS) -> list[str]:
        """`cycles` faults drawn from `kinds`, each waited out and the full ISR back after it."""
        plan = [self.rng.choice(kinds) for _ in range(cycles)]
        print(f"chaos seed={self.seed} cycles={cycles} faults={plan}", flush=True)
        acks_go_on(self.producers, "acknowledgements before the first fault")
        log = []
        for cycle, kind in enumerate(plan):
            t0 = time.monotonic()
            what = getattr(self, kind)(cycle)
            self.wait_whole(f"cycle {cycle} ({what}): the full ISR back")
            self.every_partition_goes_on(f"cycle {cycle} ({what}): acknowledgements on every partition after it")
            self.done[kind] += 1
            line = (f"{time.strftime('%H:%M:%S')} chaos seed={self.seed} cycle {cycle}: {what}; "
                    f"whole again after {time.monotonic() - t0:.1f} s;"
                    f" acknowledged {[len(p.acked) for p in self.producers]}")
            print(line, flush=True)
            log.append(line)
        return log


def verify(run: ChaosRun, readers: list, samplers: list[OffsetSampler]) -> int:
    """The end checks (see the module's docstring); the producers are stopped. `readers`: group members
    (replication_load's GroupReader, JavaGroupReader), each of its own group, `samplers` of those groups.
    The records checked."""
    cluster, topic = run.cluster, run.topic
    checked = check_log(cluster, topic, run.partitions, run.producers)
    run.wait_whole("the full ISR at the end")
    assert cluster.wait_identical_replicas(topic, run.partitions) > 0
    assert check_segments(cluster, topic, run.partitions) > 0
    offsets_partitions = len(cluster.partitions(OFFSETS_TOPIC))
    assert cluster.wait_identical_replicas(OFFSETS_TOPIC, offsets_partitions) > 0
    acked = acked_by_partition(run.producers)
    for reader in readers:
        wait_for(lambda: reader.has(acked), 90, f"{type(reader).__name__} to receive every acknowledged record",
                 last=reader.state)
        assert reader.errors == [], reader.errors[:5]
    ends = {p: max(acked.get(p, {0: b""})) + 1 for p in range(run.partitions)}
    for sampler in samplers:
        wait_for(lambda: sampler.sample() is None and sampler.samples > 0, 30, "a sample of the committed offsets")
        assert sampler.regressions == [], f"seed {run.seed}: committed offsets back: {sampler.regressions[:5]}"
        assert all(off <= ends[p] for p, off in sampler.high.items()), (sampler.high, ends)
    serves(cluster, f"{topic}-after")
    return checked


def check_segments(cluster: Cluster, topic: str, partitions: int) -> int:
    """Every replica's segment files as `odradek dump-log` reads them (odradek/log/dump_log.py): each batch
    valid (its CRC), none torn, the offsets contiguous from the first segment to the last (a topic of
    neither compaction nor transactions). The batches read."""
    seen = 0
    for p in range(partitions):
        for node in cluster.brokers:
            folder = node.log_dir / f"{topic}-{p}"
            expect = None
            for seg in sorted(folder.glob("*.log")):
                for line in dump(str(seg)):
                    assert "invalid bytes" not in line and "partial batch" not in line, f"{seg}: {line}"
                    if not line.startswith("baseOffset: "):
                        continue
                    fields = line.split()
                    base, last = int(fields[1]), int(fields[3])
                    assert "isvalid: true" in line, f"{seg}: {line}"
                    assert expect is None or base == expect, f"{seg}: batch at {base} after offset {expect - 1}"
                    expect = last + 1
                    seen += 1
    return seen


def serves(cluster: Cluster, topic: str) -> None:
    """A new topic of 3 replicas takes an acks=all write that reads back."""
    cluster.create_topic(topic, 1, 3, {"min.insync.replicas": "2"})
    p = Producer({"bootstrap.servers": cluster.bootstrap, "acks": "all", "enable.idempotence": True,
                  "message.timeout.ms": 60000})
    got = []
    p.produce(topic, b"after the chaos", on_delivery=lambda err, msg: got.append((err, msg.offset())))
    assert p.flush(70) == 0 and got == [(None, 0)], got
    c = Consumer({"bootstrap.servers": cluster.bootstrap, "group.id": f"{topic}-read", "auto.offset.reset": "earliest"})
    try:
        c.assign([TopicPartition(topic, 0, 0)])
        m = wait_for(lambda: (lambda m: m if m is not None and m.error() is None else None)(c.poll(0.5)), 60,
                     "the record written after the chaos")
        assert m.value() == b"after the chaos"
    finally:
        c.close()


def chaos_settings(default_cycles: int, default_seed: int) -> tuple[int, list[int], tuple[str, ...]]:
    """Cycles (ODRADEK_CHAOS_CYCLES), seeds (ODRADEK_CHAOS_SEED: one or a comma list) and fault kinds
    (ODRADEK_CHAOS_FAULTS: a comma list of FAULTS) of a run."""
    cycles = int(os.environ.get(CYCLES_ENV, default_cycles))
    seeds = [int(s) for s in os.environ.get(SEED_ENV, str(default_seed)).split(",") if s.strip()]
    kinds = tuple(k for k in os.environ.get(FAULTS_ENV, ",".join(FAULTS)).split(",") if k)
    unknown = set(kinds) - set(FAULTS)
    if unknown:
        raise ValueError(f"{FAULTS_ENV}: unknown fault kinds {sorted(unknown)}; the kinds are {FAULTS}")
    return cycles, seeds, kinds
