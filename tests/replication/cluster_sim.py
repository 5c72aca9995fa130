"""Deterministic simulation of a replicated cluster in one process (issue 20's "How it is checked").

A controller and N brokers, each part the real code where it exists:
- the controller is odradek.controller's pure Decisions over a MetadataImage that the metadata
  log's records are replayed into (MetadataDelta), each batch committed at once or some steps
  later; brokers apply whole committed batches only. Registration (DUPLICATE_BROKER_REGISTRATION
  while the old incarnation's session lives, unclean-shutdown handling), heartbeats (unfencing,
  controlled shutdown), session expiry (fencing, elections), AlterPartition and preferred
  elections are its decisions; ELR (KIP-966) is on in half the seeds;
- every broker keeps its partitions in real odradek.log PartitionLogs on its own
  FaultyFileSystem, and runs the pure replication cores: PartitionLeader for the partitions it
  leads, PartitionFollower for the others, fetching real record batches from the leader's log and
  appending them with append_as_follower;
- a seeded network between brokers and with the controller: delay (so reordering), loss, links
  cut for a while (a broker isolated from everyone, from the controller only, or from one
  other broker); broker crashes that keep the fsynced bytes and a random part of the rest (the
  log is reopened from the torn files), restarts with a new incarnation that register again
  (Kafka's DUPLICATE_BROKER_REGISTRATION while the old session lives), session expiry that fences
  the broker and moves its leaderships, controlled shutdowns (want_shut_down heartbeats until the
controller says should_shut_down, then a clean stop), slow followers, preferred elections.
Producers send acks=all (and some acks=1) with min.insync.replicas >= 2; in half the seeds the
partitions' producer is Kafka's idempotent one instead: its requests travel the network (in order
on a connection, cut with an isolated broker), up to 5 batches of a partition in flight, each with
its sequence; a request timeout or a dead broker closes the connection and fails what is in flight
on it; failed batches go back in sequence order and are retried one at a time to whoever its
(maybe stale) metadata says leads, OUT_OF_ORDER_SEQUENCE_NUMBER retried too, a duplicate answered
as a success, a batch unresolved past delivery.timeout.ms failed (the epoch bump Kafka's producer
then makes is not modelled). An OUT_OF_ORDER_SEQUENCE_NUMBER answer is checked against the log it
comes from (a remembered batch is a duplicate, the next one is in sequence); at the end every
batch the producer had acknowledged is in the log once, in sequence order, and nothing it never
sent. Faults stay within what
acks=all promises: at most min(RF - min.insync.replicas, min.insync.replicas - 1) brokers failed
(down, cut off, shutting down, or restarted and not yet back in every ISR) at once; without ELR, never the last live ISR member
of a partition either.

After every step: every record a leader's HW has passed (so a consumer may have read it, and
every acks=all acknowledgement) is still on the current leader at the same offset; below a
follower's HW (KIP-392 reads) are the same records; a leader's HW never goes back within its
epoch; one broker (incarnation) at most appends at a leader epoch. At the end the
network heals and every replica must end byte-identical, with every acknowledged record.
Replay: `pytest tests/replication/test_cluster_sim.py --sim-seed=N` or
`python tests/replication/cluster_sim.py N`.
"""

from __future__ import annotations

import heapq
from bisect import bisect_right
import random
import sys
from collections import deque
from dataclasses import dataclass, field

from odradek.controller.decisions import BrokerRegistration, CreateTopicSpec, Decisions, Env
from odradek.controller.features import SUPPORTED  # what a broker registers with
from odradek.controller.image import NO_LEADER, NO_LEADER_CHANGE, MetadataDelta, MetadataImage, PartitionImage
from odradek.controller.elr_configs import ELR_FEATURE
from odradek.controller.replication_control import PREFERRED, IsrUpdate
from odradek.controller.result import ControllerResult
from odradek.log import FaultyFileSystem, LogConfig, PartitionLog
from odradek.log.errors import OutOfOrderSequenceError
from odradek.log.leader_epoch_cache import UNDEFINED
from odradek.replication.follower import PartitionFollower
from odradek.replication.leader import LeaderConfig, PartitionLeader
from odradek.replication.messages import (
    AlterPartitionProposal, EpochAnswer, EpochQuery, FetchDecision, FollowerReady, LeaderAndIsr, ReplicaFetch,
)
from odradek.wire.errors import ErrorCode
from odradek.wire.messages.feature_level_record import FeatureLevelRecord
from odradek.wire.messages.partition_change_record import PartitionChangeRecord
from odradek.wire.records import build_batch, iter_batch_headers, iter_batches


CONTROLLER = "controller"
CLIENT = "client"  # the idempotent producer's end of the network
MAX_IN_FLIGHT = 5  # max.in.flight.requests.per.connection (at most 5 with enable.idempotence)
RETRY_BACKOFF = 3  # steps: retry.backoff.ms
CONTROLLER_ID = 3000
TOPIC = "sim"
T0 = 1_700_000_000_000  # the simulated clock (ms) starts where a real one would
STEP_MS = 5  # one step of simulated time


class SimFailure(AssertionError):
    pass


@dataclass(frozen=True)
class Fetched:
    """A fetched batch as PartitionFollower sees it."""
    base_offset: int
    last_offset: int
    leader_epoch: int


@dataclass
class Batch:
    """A batch of the idempotent producer, unresolved until acknowledged."""
    seq: int  # its base sequence (the records before it in the partition)
    values: list[bytes]
    attempt: tuple[int, int] | None = None  # (connection, request id) of the try in flight
    sent: bool = False  # sent once: from then on a retry, which keeps its sequence
    created: int = 0  # the step it was made (delivery.timeout.ms counts from then)
    not_before: int = 0  # the step a retry may go (retry.backoff.ms)

    @property
    def last_seq(self) -> int:
        return self.seq + len(self.values) - 1


@dataclass
class IdempotentProducer:
    """Kafka's idempotent producer (enable.idempotence, acks=all) for one partition: up to
    MAX_IN_FLIGHT batches unresolved, each with its sequence; a failed batch goes back to the
    queue in sequence order and is sent again with the same sequence, to whoever leads then, but
    only when it is the first unresolved batch (RecordAccumulator.shouldStopDrainBatchesForPartition:
    "this effectively reduces our in flight request count to 1"); OUT_OF_ORDER_SEQUENCE_NUMBER
    is retried (TransactionManager.canRetry), DUPLICATE_SEQUENCE_NUMBER is a success."""
    producer_id: int
    next_seq: int = 0
    batches: deque = field(default_factory=deque)  # the unresolved Batches, in sequence order
    last_acked: int = -1  # lastAckedSequence
    leader: int | None = None  # where its metadata says the partition's leader is
    acked: list = field(default_factory=list)  # the acknowledged Batches, in the order acknowledged
    expired: list = field(default_factory=list)  # the Batches failed at delivery.timeout.ms


@dataclass
class Connection:
    """The producer's connection to a broker; closed at a request timeout or the broker's death."""
    id: int
    incarnation: bytes
    in_flight: dict = field(default_factory=dict)  # request id -> (partition, Batch, step sent)


class Broker:
    def __init__(self, sim: ClusterSim, node_id: int):
        self.sim = sim
        self.id = node_id
        self.fs = FaultyFileSystem(seed=sim.rng.randrange(1 << 30))
        self.alive = True
        self.incarnation = b""
        self.broker_epoch = -1  # known once registered
        self.register_sent = -1_000
        self.image = MetadataImage()
        self.meta_offset = 0  # metadata records applied
        self.logs: dict[int, PartitionLog] = {}
        self.roles: dict[int, PartitionLeader | PartitionFollower | None] = {}
        self.tokens: dict[int, int] = {}
        self.max_hw: dict[int, int] = {}  # per partition, the leader role's highest HW
        self.verified: dict[int, int] = {}  # per partition, the prefix checked against what was read
        self.follower_verified: dict[int, int] = {}  # the same for what a consumer may read here as a follower
        self.rebuilt: dict[int, int] = {}  # per partition, the log end when its producer state was last rebuilt
        self.proposal_sent: dict[int, int] = {}
        self.slow = False
        self.shutting_down = False  # sending want_shut_down heartbeats
        self.clean_epoch = -1  # the broker epoch it last shut down cleanly in (-1: it crashed)
        self.new_incarnation()

    def new_incarnation(self) -> None:
        self.incarnation = self.sim.rng.randbytes(16)
        self.broker_epoch = -1
        self.register_sent = -1_000
        self.image = MetadataImage()
        self.meta_offset = 0
        self.caught_up = False
        for p in list(self.roles):
            self.roles[p] = None
            self.tokens[p] = self.sim.next_token()

    def open_logs(self, partitions) -> None:
        for p in partitions:
            self.logs[p] = PartitionLog(self.fs, f"/data/{TOPIC}-{p}", self.sim.log_config, now_ms=self.sim.now,
                                        rng=random.Random(self.sim.rng.randrange(1 << 30)))
            self.verified[p] = self.follower_verified[p] = 0
            self.rebuilt[p] = self.logs[p].log_end_offset
            self.roles.setdefault(p, None)
            self.tokens.setdefault(p, self.sim.next_token())

    def leader(self, p: int) -> PartitionLeader | None:
        role = self.roles.get(p)
        return role if isinstance(role, PartitionLeader) else None

    def follower(self, p: int) -> PartitionFollower | None:
        role = self.roles.get(p)
        return role if isinstance(role, PartitionFollower) else None


class ClusterSim:
    def __init__(self, seed: int, *, steps: int = 250, rf: int | None = None):
        self.seed = seed
        self.rng = r = random.Random(seed)
        self.rf = rf or r.choice((3, 3, 3, 5))
        n_brokers = self.rf + r.choice((0, 0, 1))
        self.ids = tuple(range(1, n_brokers + 1))
        self.partitions = tuple(range(r.choice((1, 2, 2))))
        self.min_isr = r.choice((2, 3)) if self.rf == 5 else 2
        # Brokers that may be failed at once: RF - min.insync.replicas keeps the ISR big enough to
        # take acks=all writes, and fewer than min.insync.replicas keeps one of the replicas that
        # acknowledged a record (a torn crash loses what was not flushed; RF 5 with min.isr 2:
        # two crashes can take both holders of a record, seed 2026 with a budget of 3).
        self.budget = min(self.rf - self.min_isr, self.min_isr - 1)
        self.leader_config = LeaderConfig(min_insync_replicas=self.min_isr,
                                          replica_lag_time_max_ms=STEP_MS * r.choice((8, 15, 30)))
        self.log_config = LogConfig(segment_bytes=r.choice((600, 2000, 1 << 20)))
        self.truncate_on_fetch = r.choice((True, True, False))
        self.p_drop = r.choice((0, 0.02, 0.1))
        self.max_delay = r.choice((1, 2, 4))
        self.commit_delay = r.choice((0, 0, 2))
        self.p_crash = r.choice((0, 0.01, 0.03))
        self.p_cut = r.choice((0, 0.01, 0.02))
        self.p_move = r.choice((0, 0.02, 0.05))
        self.p_shutdown = r.choice((0, 0.01, 0.02))
        # Idempotent producers in half the seeds (DeleteRecords would make the leader forget them:
        # UNKNOWN_PRODUCER_ID / OUT_OF_ORDER_SEQUENCE, which the Java producer recovers from by
        # bumping its epoch, a client's business not modelled here).
        self.idempotent = r.random() < 0.5
        self.p_delete = 0 if self.idempotent else r.choice((0, 0.01, 0.03))
        self.p_slow = r.choice((0, 0.02))
        self.p_reassign = r.choice((0, 0.01, 0.02)) if n_brokers > self.rf else 0
        self.p_flush = r.choice((0.05, 0.3, 1.0))
        self.p_produce = r.choice((0.5, 1.0))
        self.session_steps = r.choice((10, 20))
        self.heartbeat_steps = 2
        self.request_timeout_ms = STEP_MS * (3 * self.max_delay + 4)
        self.steps = steps
        self.t = 0
        self.token = 0
        self.seq = 0
        self.net: list = []
        self.cut: dict[frozenset, int] = {}  # a cut link (pair of endpoints) -> the step it heals
        self.down_until: dict[int, int] = {}
        self.recovering: set[int] = set()  # restarted after a crash, not yet back in every ISR
        self.trace: deque = deque(maxlen=120)
        # the controller
        self.env = Env(node_id=CONTROLLER_ID, defaults={"min.insync.replicas": str(self.min_isr)},
                       new_uuid=lambda: self.rng.randbytes(16), rng=random.Random(r.randrange(1 << 30)))
        self.image = MetadataImage(cluster_id="sim", controller_id=CONTROLLER_ID)
        self.records: list = []  # the metadata log; the controller's image has replayed all of it
        self.committed = 0  # brokers see records below this
        self.batch_ends: list[int] = []  # a broker applies whole batches (atomic, as Kafka's)
        self.pending: deque = deque()  # (commit step, end offset, callback or None)
        self.last_heartbeat: dict[int, int] = {}
        self.reported: dict[int, int] = {}  # metadata offset each broker's last heartbeat reported
        self.shutdown_offsets: dict[int, int] = {}  # broker in controlled shutdown -> its record's offset
        self.elr = r.random() < 0.5  # eligible.leader.replicas.version 1 (KIP-966), as Kafka 4.3 bootstraps
        self.topic_id = b""
        # what the invariants remember
        self.writers: dict[tuple[int, int], tuple[int, str]] = {}  # (partition, leader epoch) -> who appended
        self.read: dict[int, list[bytes]] = {p: [] for p in self.partitions}  # value by offset, below a HW
        self.acked: dict[int, dict[int, bytes]] = {p: {} for p in self.partitions}
        # (broker, request id) -> (partition, base offset, last offset, values, the producer's (connection, request) or None)
        self.waiting: dict[tuple[int, int], tuple[int, int, int, list[bytes], tuple[int, int] | None]] = {}
        self.producers = {p: IdempotentProducer(7000 + p) for p in self.partitions} if self.idempotent else {}
        self.connections: dict[int, Connection] = {}  # the producer's, by broker
        self.link_due: dict[tuple, int] = {}  # the client's links are TCP: in order
        self.requests = 0
        # the producer's request.timeout.ms: past the leader's produce purgatory (answered
        # REQUEST_TIMED_OUT) or well before it (the client gives up, the broker may append still)
        purgatory = 20 * self.leader_config.replica_lag_time_max_ms // STEP_MS
        self.client_timeout = r.choice((purgatory + 2 * self.max_delay + 2, 3 * self.max_delay + 4, 10 * self.max_delay))
        self.max_in_flight = 0  # the most batches of a partition in flight at once
        self.delivery_timeout = 4 * self.client_timeout + 40  # delivery.timeout.ms
        self.acked_requests: set[tuple[int, int]] = set()
        self.produced = 0
        self.errors: dict[str, int] = {}
        self.counts = {"crash": 0, "cut": 0, "fenced": 0, "election": 0, "move": 0, "isr_change": 0,
                       "truncate": 0, "diverging": 0, "epoch_query": 0, "shutdown": 0,
                       "crash_last_isr": 0, "delete_records": 0,
                       "start_over": 0, "start_over_in_batch": 0, "retry": 0, "duplicate": 0,
                       "reassign": 0, "cancel_reassignment": 0, "out_of_order_retry": 0,
                       "would_bump_epoch": 0, "expired": 0, "client_timeout": 0, "disconnect": 0}
        self.brokers = {i: Broker(self, i) for i in self.ids}
        self._bootstrap()

    # ------------------------------------------------------------------ basics
    @property
    def now(self) -> int:
        return T0 + self.t * STEP_MS

    def next_token(self) -> int:
        self.token += 1
        return self.token

    def fail(self, why: str):
        raise SimFailure(f"seed={self.seed} t={self.t}: {why}\n{self.describe()}\nlast events:\n"
                         + "\n".join(self.trace))

    def describe(self) -> str:
        parts = []
        for p in self.partitions:
            pi = self._partition(self.image, p)
            parts.append(f"p{p}: leader {pi.leader} epoch {pi.leader_epoch}/{pi.partition_epoch} isr {pi.isr} "
                         f"replicas {pi.replicas}")
        for b in self.brokers.values():
            logs = " ".join(f"p{p}:leo={log.log_end_offset},hw={log.high_watermark}" for p, log in b.logs.items())
            parts.append(f"broker {b.id} alive={b.alive} epoch={b.broker_epoch} {logs}")
        return "\n".join(parts)

    @staticmethod
    def _partition(image: MetadataImage, p: int) -> PartitionImage:
        return image.topics[TOPIC].partitions[p]

    def count_error(self, name: str) -> None:
        self.errors[name] = self.errors.get(name, 0) + 1

    # ------------------------------------------------------------------ network
    def link_up(self, a, b) -> bool:
        return frozenset((a, b)) not in self.cut

    def send(self, src, dst, msg: tuple, *, lossy: bool = True) -> None:
        if lossy and self.rng.random() < self.p_drop:
            return
        self.seq += 1
        inc = self.brokers[dst].incarnation if dst not in (CONTROLLER, CLIENT) else b""
        due = self.t + 1 + self.rng.randrange(self.max_delay)
        if CLIENT in (src, dst):  # (one TCP connection: what is sent first arrives first)
            due = self.link_due[(src, dst)] = max(due, self.link_due.get((src, dst), 0))
        heapq.heappush(self.net, (due, self.seq, src, dst, inc, msg))

    def _deliver_due(self) -> None:
        while self.net and self.net[0][0] <= self.t:
            _, _, src, dst, inc, msg = heapq.heappop(self.net)
            if not self.link_up(src, dst):
                continue
            if dst == CONTROLLER:
                if self.brokers[src].alive:  # (a dead broker's requests die with its connections)
                    self._controller_receive(src, msg)
                continue
            if dst == CLIENT:
                self._client_receive(src, msg)
                continue
            b = self.brokers[dst]
            if b.alive and b.incarnation == inc:
                self._broker_receive(b, src, msg)

    # ------------------------------------------------------------------ controller
    def _decisions(self) -> Decisions:
        return Decisions(self.env, self.image)

    def _write(self, result: ControllerResult, then=None) -> None:
        """Append the decision's records to the metadata log (the controller's image replays them
        at once) and commit them now or a few steps later; `then` runs at the commit."""
        if not result.records and then is None:
            return
        if result.records:
            delta = MetadataDelta(self.image)
            for rec in result.records:
                if isinstance(rec, PartitionChangeRecord) and rec.leader != NO_LEADER_CHANGE:
                    self.counts["election"] += 1
                delta.replay(rec, len(self.records))
                self.records.append(rec)
            self.image = delta.apply()
            self.batch_ends.append(len(self.records))
        at = self.t + self.rng.randrange(self.commit_delay + 1)
        if self.pending:
            at = max(at, self.pending[-1][0])
        self.pending.append((at, len(self.records), then))
        self._commit_due()

    def _commit_then(self, then) -> None:
        """Run `then` once everything written so far is committed (a response is sent then)."""
        self._write(ControllerResult([], None), then)

    def _commit_due(self) -> None:
        while self.pending and self.pending[0][0] <= self.t:
            _, end, then = self.pending.popleft()
            self.committed = max(self.committed, end)
            if then is not None:
                then()

    def _bootstrap(self) -> None:
        boot = self._decisions().bootstrap()  # finalizes ELR, as Kafka 4.3's format does
        if not self.elr:  # a cluster formatted with eligible.leader.replicas.version=0
            boot = ControllerResult([r for r in boot.records
                                     if not (isinstance(r, FeatureLevelRecord) and r.name == ELR_FEATURE)], None)
        self._write(boot)
        for b in self.brokers.values():
            reg = BrokerRegistration(b.id, b.incarnation, [("PLAINTEXT", f"b{b.id}", 9092, 0)], dict(SUPPORTED), None)
            self._write(self._decisions().register_broker(reg, len(self.records), unfence=True))
            b.broker_epoch = self.image.brokers[b.id].epoch
            self.last_heartbeat[b.id] = 0
        configs = {"min.insync.replicas": str(self.min_isr)}
        res = self._decisions().create_topics([CreateTopicSpec(TOPIC, len(self.partitions), self.rf, configs=configs)])
        assert res.response[0].error_code == 0, res.response
        self._write(res)
        self.topic_id = self.image.topics[TOPIC].topic_id
        self.commit_all()
        for b in self.brokers.values():
            b.open_logs(p for p in self.partitions if b.id in self._partition(self.image, p).replicas)
        self.trace.append("created: " + "; ".join(f"p{p} replicas {self._partition(self.image, p).replicas}"
                                                  for p in self.partitions))

    def commit_all(self) -> None:
        while self.pending:
            _, end, then = self.pending.popleft()
            self.committed = max(self.committed, end)
            if then is not None:
                then()

    def _controller_receive(self, src: int, msg: tuple) -> None:
        kind = msg[0]
        if kind == "register":
            _, incarnation, previous_epoch = msg
            reg = BrokerRegistration(src, incarnation, [("PLAINTEXT", f"b{src}", 9092, 0)], dict(SUPPORTED), None,
                                     previous_broker_epoch=previous_epoch)
            session = self.t - self.last_heartbeat.get(src, -10**9) <= self.session_steps
            res = self._decisions().register_broker(reg, len(self.records), has_valid_session=session)
            if res.response:
                self.count_error(ErrorCode(res.response).name)  # the old incarnation's session lives
                return
            self.last_heartbeat[src] = self.t
            self._write(res)
            epoch = self.image.brokers[src].epoch
            self.trace.append(f"t={self.t} controller registers broker {src} at epoch {epoch}"
                              f"{' (unclean shutdown)' if len(res.records) > 1 else ''}")
            self._commit_then(lambda: self.send(CONTROLLER, src, ("registered", incarnation, epoch), lossy=False))
        elif kind == "heartbeat":
            _, epoch, meta_offset, want_shut_down = msg
            self.reported[src] = meta_offset
            target = self.shutdown_offsets.get(src)
            reached = target is None or all(self.reported.get(x.node_id, -1) >= target for x in self.image.brokers.values()
                                            if x.active and x.node_id != src)
            res = self._decisions().broker_heartbeat(src, epoch, meta_offset, False, want_shut_down, reached)
            reply = res.response
            if reply.error_code:
                return
            self.last_heartbeat[src] = self.t
            if res.records:
                b = self.image.brokers[src]
                self._write(res)
                what = ("unfences" if b.fenced and not self.image.brokers[src].fenced
                        else "fences (shutting down)" if self.image.brokers[src].fenced
                        else "starts the controlled shutdown of")
                self.trace.append(f"t={self.t} controller {what} broker {src}: {len(res.records)} records")
                if reply.in_controlled_shutdown and src not in self.shutdown_offsets:
                    self.shutdown_offsets[src] = len(self.records) - 1
            if reply.should_shut_down:
                self._commit_then(lambda: self.send(CONTROLLER, src, ("shut_down", epoch), lossy=False))
        elif kind == "alter":
            _, broker_epoch, token, p, proposal = msg
            update = IsrUpdate(p, proposal.leader_epoch, proposal.partition_epoch,
                               [(m.broker_id, m.broker_epoch) for m in proposal.new_isr])
            res = self._decisions().alter_partition(src, broker_epoch, [(self.topic_id, [update])])
            error, topics = res.response
            result = topics[0][1][0] if not error else None
            if res.records:
                self.counts["isr_change"] += 1
                self.trace.append(f"t={self.t} controller: p{p} ISR -> {sorted(proposal.isr_ids)} (from {src})")
            if error:
                answer = ErrorCode(error)
            elif result.error_code:
                answer = ErrorCode(result.error_code)
            else:
                pi = result.partition_image
                answer = LeaderAndIsr(pi.leader, pi.leader_epoch, pi.partition_epoch, frozenset(pi.isr))
            self._write(res)
            self._commit_then(lambda: self.send(CONTROLLER, src, ("alter_answer", token, p, proposal.proposal_id,
                                                                  answer)))

    def _expire_sessions(self) -> None:
        stale = [b.node_id for b in self.image.brokers.values()
                 if not b.fenced and self.t - self.last_heartbeat.get(b.node_id, 0) > self.session_steps]
        if stale:
            res = self._decisions().fence(stale)
            self.counts["fenced"] += len(res.response)
            self.trace.append(f"t={self.t} controller fences {res.response}")
            self._write(res)

    def _preferred_election(self) -> None:
        p = self.rng.choice(self.partitions)
        res = self._decisions().elect_leaders(PREFERRED, [(TOPIC, [p])])
        if res.records:
            self.counts["move"] += 1
            self.trace.append(f"t={self.t} controller: preferred leader election of p{p}")
            self._write(res)

    # ------------------------------------------------------------------ brokers: metadata
    def _broker_tick(self, b: Broker) -> None:
        if b.broker_epoch < 0:
            if self.t - b.register_sent > 3 * self.max_delay + 4:
                b.register_sent = self.t
                self.send(b.id, CONTROLLER, ("register", b.incarnation, b.clean_epoch))
            return
        if self.t % self.heartbeat_steps == 0:
            self.send(b.id, CONTROLLER, ("heartbeat", b.broker_epoch, b.meta_offset - 1, b.shutting_down))
        if b.meta_offset < self.committed and self.link_up(b.id, CONTROLLER) and self.rng.random() < 0.7:
            ends = [e for e in self.batch_ends[bisect_right(self.batch_ends, b.meta_offset):] if e <= self.committed]
            end = ends[min(len(ends) - 1, self.rng.choice((0, 2, 100)))]
            delta = MetadataDelta(b.image)
            for off in range(b.meta_offset, end):
                delta.replay(self.records[off], off)
            b.image = delta.apply()
            b.meta_offset = end
            # A (re)started broker acts on its metadata once its own registration record is
            # applied (as broker_lifecycle.join: everything committed before it is then in the
            # image), never on the middle of a replay: it would lead again at an old epoch.
            b.caught_up = b.meta_offset > b.broker_epoch
            if b.caught_up and TOPIC in b.image.topics:
                for p in self.partitions:
                    self._reconcile(b, p)

    def _reconcile(self, b: Broker, p: int) -> None:
        """Kafka's makeLeader / makeFollower from the broker's metadata image; a broker that
        stopped being a replica (a reassignment) deletes its log, one that became one creates it."""
        part = self._partition(b.image, p)
        if b.id not in part.replicas:
            if p in b.logs:
                self._drop_role(b, p)
                b.logs.pop(p).close()
                b.fs.rmtree(f"/data/{TOPIC}-{p}")
                self.trace.append(f"t={self.t} broker {b.id} deletes its replica of p{p}")
            return
        if p not in b.logs:
            b.open_logs([p])
            self.trace.append(f"t={self.t} broker {b.id} creates a replica of p{p}")
        alive = {x.node_id: x.epoch for x in b.image.brokers.values() if x.active}
        state = LeaderAndIsr(part.leader, part.leader_epoch, part.partition_epoch, frozenset(part.isr))
        role, log = b.roles[p], b.logs[p]
        if part.leader == b.id:
            if isinstance(role, PartitionLeader) and role.leader_epoch == part.leader_epoch:
                role.apply_metadata(state, part.replicas, self.now, alive)
            else:
                self._drop_role(b, p)
                b.roles[p] = PartitionLeader(b.id, log, self.leader_config, state, part.replicas,
                                             log.high_watermark, self.now, alive)
                b.max_hw[p] = -1
                self.trace.append(f"t={self.t} broker {b.id} leads p{p} epoch {part.leader_epoch} "
                                  f"(leo {log.log_end_offset}, hw {b.roles[p].high_watermark}, isr {part.isr})")
            self._leader_ready(b, p)
            return
        if isinstance(role, PartitionFollower) and (role.leader_id, role.leader_epoch) == (part.leader, part.leader_epoch):
            return
        if isinstance(role, PartitionLeader) and role.leader_epoch == part.leader_epoch:
            return  # (the same epoch cannot move leader: only a new epoch takes leadership away)
        self._drop_role(b, p)
        if part.leader != NO_LEADER:
            b.roles[p] = PartitionFollower(b.id, b.broker_epoch, part.leader, part.leader_epoch, log,
                                           log.high_watermark, truncate_on_fetch=self.truncate_on_fetch,
                                           request_timeout_ms=self.request_timeout_ms)

    def _drop_role(self, b: Broker, p: int) -> None:
        role = b.roles.get(p)
        if isinstance(role, PartitionLeader):
            for c in role.resign():
                self._completed(b, p, c.request_id, c.error)
        b.roles[p] = None
        b.tokens[p] = self.next_token()

    # ------------------------------------------------------------------ brokers: the leader side
    def _leader_ready(self, b: Broker, p: int) -> None:
        leader, log = b.leader(p), b.logs[p]
        rd = leader.ready()
        if rd.epoch_start is not None:
            log.assign_epoch(*rd.epoch_start)
        for prop in rd.proposals:
            b.proposal_sent[p] = self.t
            self.send(b.id, CONTROLLER, ("alter", b.broker_epoch, b.tokens[p], p, prop))
        hw = rd.high_watermark
        if hw > log.log_end_offset:
            self.fail(f"leader {b.id} of p{p}: HW {hw} beyond its log end {log.log_end_offset}")
        if hw < b.max_hw[p]:
            self.fail(f"leader {b.id} of p{p}: HW went back {b.max_hw[p]} -> {hw} in epoch {leader.leader_epoch}")
        b.max_hw[p] = hw
        log.high_watermark = hw
        self._observe(b, p)
        for c in rd.completions:
            self._completed(b, p, c.request_id, c.error)

    def _completed(self, b: Broker, p: int, request_id: int, error: ErrorCode) -> None:
        _, base, last, values, reply = self.waiting.pop((b.id, request_id))
        self.count_error(error.name)
        if reply is not None:  # the idempotent producer's request
            self.send(b.id, CLIENT, ("produce_answer", *reply, p, error), lossy=False)
        if error != ErrorCode.NONE:
            return
        read = self.read[p]
        if last >= len(read) or read[base:last + 1] != values:
            self.fail(f"acknowledged p{p} {values}@{base} but it is not below the leader's HW")
        for i, v in enumerate(values):
            self.acked[p][base + i] = v
        self.acked_requests.add((b.id, request_id))
        self.trace.append(f"t={self.t} acked p{p} {base}..{last} on {b.id}")

    def _produce(self, p: int, acks: int | None = None) -> tuple[int, int] | None:
        """A client's produce to a broker that believes it leads p (a deposed leader too)."""
        leaders = [b for b in self.brokers.values() if b.alive and b.leader(p) is not None]
        if not leaders:
            return None
        b = self.rng.choice(leaders)
        leader, log = b.leader(p), b.logs[p]
        acks = acks if acks is not None else self.rng.choice((-1, -1, -1, 1))
        error = leader.check_append(acks)
        if error != ErrorCode.NONE:
            self.count_error(error.name)
            return None
        self._note_writer(b, p)
        self.produced += 1
        values = [f"{p}:{self.produced}:{k}".encode() for k in range(self.rng.choice((1, 2, 3)))]
        info = log.append(build_batch([(None, v, (), self.now) for v in values]), self.now,
                          leader_epoch=leader.leader_epoch)
        request_id = None
        if acks == -1:
            request_id = self.next_token()
            self.waiting[(b.id, request_id)] = (p, info.base_offset, info.last_offset, values, None)
        leader.on_append(self.now, request_id, info.last_offset, timeout_ms=20 * self.leader_config.replica_lag_time_max_ms)
        self._leader_ready(b, p)
        return None if request_id is None else (b.id, request_id)

    def _note_writer(self, b: Broker, p: int) -> None:
        """One broker (incarnation) at most appends at a leader epoch."""
        epoch = b.leader(p).leader_epoch
        me = (b.id, b.incarnation.hex()[:8])
        prev = self.writers.setdefault((p, epoch), me)
        if prev != me:
            self.fail(f"brokers {prev} and {me} (id, incarnation) both accepted writes to p{p} in leader epoch {epoch}")

    # ------------------------------------------------------------------ the idempotent producer
    def _new_batch(self, p: int) -> None:
        prod = self.producers[p]
        if len(prod.batches) >= MAX_IN_FLIGHT:
            return  # (it waits in the accumulator: not modelled)
        self.produced += 1
        values = [f"{p}:{self.produced}:{k}".encode() for k in range(self.rng.choice((1, 2, 3)))]
        prod.batches.append(Batch(prod.next_seq, values, created=self.t))
        prod.next_seq += len(values)

    def _client_tick(self) -> None:
        """The producer's Sender: close a connection whose broker died or whose oldest request
        timed out (NetworkClient fails every request in flight on it), then drain the queues."""
        for i, conn in list(self.connections.items()):
            b = self.brokers[i]
            if any(self.t - sent > self.client_timeout for _, _, sent in conn.in_flight.values()):
                self.counts["client_timeout"] += 1
                self._disconnect(i, "REQUEST_TIMED_OUT")
            elif not b.alive or b.incarnation != conn.incarnation:
                self.counts["disconnect"] += 1
                self._disconnect(i, "NETWORK_EXCEPTION")
        for p, prod in self.producers.items():
            for _ in range(self.rng.choice((1, 1, 2))):
                if not self._drain(p, prod):
                    break
            self.max_in_flight = max(self.max_in_flight, sum(x.attempt is not None for x in prod.batches))

    def _disconnect(self, i: int, why: str) -> None:
        conn = self.connections.pop(i)
        self.trace.append(f"t={self.t} producer disconnects from {i} ({why}), requests {sorted(conn.in_flight)}")
        for p, batch, _ in conn.in_flight.values():
            self._retry(self.producers[p], batch, why)

    def _retry(self, prod: IdempotentProducer, batch: Batch, why: str) -> None:
        """Back to the queue, in sequence order (RecordAccumulator.reenqueue), same sequence."""
        batch.attempt = None
        batch.not_before = self.t + RETRY_BACKOFF
        self.counts["retry"] += 1
        if why != "OUT_OF_ORDER_SEQUENCE_NUMBER":
            prod.leader = None  # (a metadata refresh)

    def _refresh_metadata(self, p: int) -> int | None:
        """The partition's leader as a random live broker's metadata has it (maybe stale)."""
        known = [b for b in self.brokers.values() if b.alive and b.caught_up and TOPIC in b.image.topics]
        if not known:
            return None
        leader = self._partition(self.rng.choice(known).image, p).leader
        return None if leader == NO_LEADER else leader

    def _drain(self, p: int, prod: IdempotentProducer) -> bool:
        """Send the partition's first queued batch, if it may go (one batch a request)."""
        for x in [x for x in prod.batches if x.attempt is None and self.t - x.created > self.delivery_timeout]:
            prod.batches.remove(x)  # (failed to the application: it may be in the log or not)
            prod.expired.append(x)
            self.counts["expired"] += 1
            self.trace.append(f"t={self.t} producer: p{p} sequence {x.seq} expires")
        queued = next((x for x in prod.batches if x.attempt is None), None)
        if queued is None:
            return False
        if queued.sent and (queued is not prod.batches[0] or self.t < queued.not_before):
            return False  # a retry waits until every batch before it is resolved, and its backoff
        if prod.leader is None:
            prod.leader = self._refresh_metadata(p)
            if prod.leader is None:
                return False
        i = prod.leader
        conn = self.connections.get(i)
        if conn is None:
            if not self.brokers[i].alive:
                prod.leader = None  # (connection refused)
                return False
            conn = self.connections[i] = Connection(self.next_token(), self.brokers[i].incarnation)
        if len(conn.in_flight) >= MAX_IN_FLIGHT:
            return False
        self.requests += 1
        conn.in_flight[self.requests] = (p, queued, self.t)
        queued.attempt, queued.sent = (conn.id, self.requests), True
        self.send(CLIENT, i, ("produce", conn.id, self.requests, p, prod.producer_id, queued.seq, queued.values),
                  lossy=False)
        return True

    def _serve_produce(self, b: Broker, p: int, reply: tuple[int, int], producer_id: int, seq: int,
                       values: list[bytes]) -> None:
        """The broker's side of the idempotent producer's request (acks=all)."""
        leader = b.leader(p)
        error = ErrorCode.NOT_LEADER_OR_FOLLOWER if leader is None else leader.check_append(-1)
        if error == ErrorCode.NONE:
            self._note_writer(b, p)
            batch = build_batch([(None, v, (), self.now) for v in values], producer_id=producer_id,
                                producer_epoch=0, base_sequence=seq)
            try:
                info = b.logs[p].append(batch, self.now, leader_epoch=leader.leader_epoch)
            except OutOfOrderSequenceError:
                # Right when a batch before it is unresolved (not yet appended here), or on a
                # deposed leader that missed batches acknowledged since (seed 181: cut off from the
                # controller, fenced, still leading in its own eyes), or when the batch failed
                # while later ones were appended as the first of an unknown producer (Kafka accepts
                # any sequence then). The current leader holds every acknowledged batch.
                self._check_out_of_order(b, p, producer_id, seq, values)
                error = ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER
        if error != ErrorCode.NONE:
            self.count_error(error.name)
            self.send(b.id, CLIENT, ("produce_answer", *reply, p, error), lossy=False)
            return
        self.counts["duplicate"] += info.duplicate
        request_id = self.next_token()
        self.waiting[(b.id, request_id)] = (p, info.base_offset, info.last_offset, values, reply)
        leader.on_append(self.now, request_id, info.last_offset, timeout_ms=20 * self.leader_config.replica_lag_time_max_ms)
        self._leader_ready(b, p)

    def _check_out_of_order(self, b: Broker, p: int, producer_id: int, seq: int, values: list[bytes]) -> None:
        """An OUT_OF_ORDER_SEQUENCE_NUMBER answer against the log it comes from: Kafka's broker
        remembers a producer's last 5 batches (its snapshot only the last one, the log after the
        snapshot is replayed), so a batch among them, appended since the producer state was last
        rebuilt or the very last, is a DUPLICATE_SEQUENCE_NUMBER; a batch right after the last is
        in sequence; and the current leader holds every acknowledged batch."""
        log = b.logs[p]
        mine = [h for _, h in iter_batch_headers(self._bytes(log)) if h.producer_id == producer_id][-5:]
        remembered = [h for h in mine if h.base_offset >= b.rebuilt[p]] + mine[-1:]
        if any(h.base_sequence == seq and h.records_count == len(values) for h in remembered):
            self.fail(f"broker {b.id} answers OUT_OF_ORDER_SEQUENCE_NUMBER to p{p} sequence {seq}, "
                      f"one of the batches it remembers ({[h.base_sequence for h in remembered]})")
        if mine and mine[-1].base_sequence + mine[-1].records_count == seq:
            self.fail(f"broker {b.id} answers OUT_OF_ORDER_SEQUENCE_NUMBER to p{p} sequence {seq}, "
                      f"next after its last")
        last = mine[-1].base_sequence + mine[-1].records_count - 1 if mine else -1
        if self._current(b, p) and last < self.producers[p].last_acked:
            self.fail(f"the current leader {b.id} of p{p} has sequences up to {last}, but "
                      f"{self.producers[p].last_acked} is acknowledged")

    def _client_receive(self, src: int, msg: tuple) -> None:
        _, conn_id, rid, p, error = msg
        conn = self.connections.get(src)
        if conn is None or conn.id != conn_id or rid not in conn.in_flight:
            return  # (an answer on a connection closed since)
        _, batch, _ = conn.in_flight.pop(rid)
        prod = self.producers[p]
        batch.attempt = None
        if error == ErrorCode.NONE:  # (a DUPLICATE_SEQUENCE_NUMBER too: the broker answers it as NONE)
            prod.batches.remove(batch)
            prod.last_acked = max(prod.last_acked, batch.last_seq)
            prod.acked.append(batch)
            self.trace.append(f"t={self.t} producer: p{p} sequence {batch.seq} acknowledged by {src}")
            return
        if error == ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER:
            self.counts["out_of_order_retry"] += 1
            if batch.seq == prod.last_acked + 1:
                # Kafka's producer would bump its epoch here (KIP-360; not modelled): a deposed
                # leader lacks batches acknowledged since (the current leader may not: checked above)
                self.counts["would_bump_epoch"] += 1
                prod.leader = None
        self._retry(prod, batch, error.name)

    def _serve_fetch(self, b: Broker, src: int, token: int, p: int, req: ReplicaFetch | EpochQuery) -> None:
        leader = b.leader(p)
        data = b""
        if isinstance(req, EpochQuery):
            self.counts["epoch_query"] += 1
            if leader is None:
                answer = EpochAnswer(req.request_id, req.current_leader_epoch, ErrorCode.NOT_LEADER_OR_FOLLOWER,
                                     UNDEFINED)
            else:
                answer = leader.answer_epoch_query(req)
        elif leader is None:
            answer = FetchDecision(req.request_id, req.current_leader_epoch, ErrorCode.NOT_LEADER_OR_FOLLOWER,
                                   req.fetch_offset)
        else:
            answer = leader.on_fetch(req, self.now)
            self.counts["diverging"] += answer.diverging_epoch is not None
            if answer.read_from is not None:
                # (replica.fetch.max.bytes: within a segment, as Kafka's minimum segment.bytes is its default fetch size)
                max_bytes = min(self.rng.choice((100, 1000, 1 << 20)), self.log_config.segment_bytes)
                data = b.logs[p].read(answer.read_from, max_bytes).read_bytes()
            self._leader_ready(b, p)
        self.send(b.id, src, ("fetch_answer", token, p, answer, data))

    # ------------------------------------------------------------------ brokers: the follower side
    def _follower_answer(self, b: Broker, p: int, answer, data: bytes) -> None:
        f = b.follower(p)
        if isinstance(answer, EpochAnswer):
            rd = f.on_epoch_answer(answer)
        else:
            fetched = tuple(Fetched(h.base_offset, h.last_offset, h.partition_leader_epoch)
                            for _, h in iter_batch_headers(data))
            rd = f.on_fetch_answer(answer, fetched)
        self._follower_ready(b, p, rd, data)

    def _follower_ready(self, b: Broker, p: int, rd: FollowerReady, data: bytes) -> None:
        log = b.logs[p]
        if rd.truncate_to is not None:
            if rd.truncate_to < log.log_end_offset:
                self.counts["truncate"] += 1
                self.trace.append(f"t={self.t} broker {b.id} truncates p{p} {log.log_end_offset} -> {rd.truncate_to}")
            log.truncate_to(rd.truncate_to, self.now)
            b.rebuilt[p] = min(b.rebuilt[p], rd.truncate_to)
            b.verified[p] = min(b.verified[p], rd.truncate_to)
            b.follower_verified[p] = min(b.follower_verified[p], rd.truncate_to)
        if rd.truncate_fully_to is not None:
            self.counts["start_over"] += 1
            self.counts["start_over_in_batch"] += bool(rd.append)  # (DeleteRecords moved the start inside it)
            self.trace.append(f"t={self.t} broker {b.id} starts p{p} over at {rd.truncate_fully_to}")
            log.truncate_fully_and_start_at(rd.truncate_fully_to, self.now)
            b.rebuilt[p] = rd.truncate_fully_to
            b.verified[p] = b.follower_verified[p] = 0
        if rd.append:
            log.append_as_follower(data, self.now)
        if rd.high_watermark is not None:
            log.high_watermark = rd.high_watermark
        if rd.log_start_offset is not None:
            log.maybe_increment_log_start_offset(rd.log_start_offset)
        self._observe_follower(b, p)

    def _observe_follower(self, b: Broker, p: int) -> None:
        """A consumer may read from a follower up to its HW (KIP-392): what it finds there must be
        what was read below a leader's HW (so it cannot disappear later either)."""
        log, read = b.logs[p], self.read[p]
        hw = log.high_watermark
        start = max(b.follower_verified[p], log.log_start_offset)
        if hw <= start:
            return
        if hw > len(read):
            self.fail(f"follower {b.id} of p{p}: HW {hw} beyond every leader's ({len(read)})")
        have = self._records(log, start, hw)
        if have != read[start:hw]:
            off = start + next((i for i, (x, y) in enumerate(zip(have, read[start:hw])) if x != y), len(have))
            self.fail(f"follower {b.id} of p{p}: below its HW {hw}, offset {off} holds "
                      f"{have[off - start] if off - start < len(have) else 'nothing'}, not {read[off]!r}")
        b.follower_verified[p] = hw

    def _broker_receive(self, b: Broker, src, msg: tuple) -> None:
        kind = msg[0]
        if kind == "registered":
            _, incarnation, epoch = msg
            if incarnation == b.incarnation and epoch > b.broker_epoch:
                # (a resent registration amends the first: the last epoch counts, as Kafka's)
                again = b.broker_epoch >= 0
                b.broker_epoch = epoch
                self.trace.append(f"t={self.t} broker {b.id} registered, epoch {epoch}")
                if again:  # its roles come back once the new registration record is applied
                    b.caught_up = False
                    for p in b.logs:
                        self._drop_role(b, p)
        elif kind == "shut_down":
            if msg[1] == b.broker_epoch and b.shutting_down:
                self._stop(b, clean=True)
        elif kind == "alter_answer":
            _, token, p, pid, answer = msg
            leader = b.leader(p)
            if leader is not None and token == b.tokens[p]:
                leader.on_alter_partition_answer(pid, answer, self.now)
                self._leader_ready(b, p)
        elif kind == "produce":
            _, conn_id, rid, p, producer_id, seq, values = msg
            self._serve_produce(b, p, (conn_id, rid), producer_id, seq, values)
        elif kind == "fetch":
            _, token, p, req = msg
            self._serve_fetch(b, src, token, p, req)
        elif kind == "fetch_answer":
            _, token, p, answer, data = msg
            if token == b.tokens[p] and b.follower(p) is not None:
                self._follower_answer(b, p, answer, data)

    # ------------------------------------------------------------------ invariants
    def _records(self, log: PartitionLog, start: int, end: int) -> list[bytes]:
        """The values of offsets [start, end) in the log."""
        out: list[bytes] = []
        off = start
        while off < end:
            data = log.read(off, 1 << 20, upper_bound_offset=end).read_bytes()
            if not data:
                break
            for h, recs in iter_batches(data):
                for rec in recs:
                    o = rec.offset(h)
                    if off <= o < end:
                        out.append(rec.value)
                off = h.last_offset + 1
        return out

    def _current(self, b: Broker, p: int) -> bool:
        """b leads p at the epoch the committed metadata names."""
        leader = b.leader(p)
        if leader is None or TOPIC not in b.image.topics:
            return False
        part = self._partition(self.image, p)
        return part.leader == b.id and part.leader_epoch == leader.leader_epoch

    def _observe(self, b: Broker, p: int) -> None:
        """Below a leader's HW a consumer may read: those records count as read. The current
        leader must hold every record ever read (every acknowledged one too), unchanged."""
        log, read = b.logs[p], self.read[p]
        hw = b.leader(p).high_watermark
        if hw > len(read):
            if log.log_start_offset > len(read):
                self.fail(f"leader {b.id} of p{p}: log start {log.log_start_offset} beyond what was read ({len(read)})")
            read.extend(self._records(log, len(read), hw))
            if len(read) != hw:
                self.fail(f"leader {b.id} of p{p}: its log has {len(read)} records below its HW {hw}")
        start = max(b.verified[p], log.log_start_offset)  # (DeleteRecords removed what is below its log start)
        if not self._current(b, p) or start >= len(read):
            return
        have = self._records(log, start, len(read))
        if have != read[start:]:
            off = start + next((i for i, (x, y) in enumerate(zip(have, read[start:])) if x != y), len(have))
            what = "acknowledged" if off in self.acked[p] else "read"
            self.fail(f"{what} p{p} {read[off]!r}@{off} is gone from the current leader {b.id} "
                      f"(epoch {b.leader(p).leader_epoch}), which has "
                      f"{have[off - start] if off - start < len(have) else 'nothing'}")
        b.verified[p] = len(read)

    # ------------------------------------------------------------------ faults
    def _failed(self) -> set[int]:
        cut = {i for link in self.cut for i in link if i not in (CONTROLLER, CLIENT)}
        shutting = {b.id for b in self.brokers.values() if b.shutting_down}
        return set(self.down_until) | self.recovering | cut | shutting

    def _may_fail(self, i: int) -> bool:
        """Within acks=all's promise: at most RF - min.insync.replicas brokers failed; without
        ELR also every partition keeps a live, sound ISR member besides i (else its last ISR
        member may come back from a torn crash as the only one who may lead: with ELR, the
        replicas that left an ISR under min.insync.replicas may lead instead, KIP-966)."""
        failed = self._failed() | {i}
        if len(failed) > self.budget:
            return False
        if self.elr:
            return True
        for p in self.partitions:
            isr = set(self._partition(self.image, p).isr)
            if i in isr and not isr - failed:
                return False
        return True

    def _stop(self, b: Broker, clean: bool) -> None:
        """A crash (the files keep what was fsynced and a random part of the rest) or, after a
        controlled shutdown, a clean stop (every log flushed and closed)."""
        for p in b.logs:
            self._drop_role(b, p)
        if clean:
            for log in b.logs.values():
                log.close()
            self.shutdown_offsets.pop(b.id, None)
        else:
            b.fs.crash()
        b.clean_epoch = b.broker_epoch if clean else -1
        b.alive = b.shutting_down = False
        self.down_until[b.id] = self.t + self.rng.randrange(5, 60)
        self.counts["shutdown" if clean else "crash"] += 1
        self.trace.append(f"t={self.t} {'clean stop' if clean else 'crash'} of broker {b.id}")

    def _delete_records(self, p: int) -> None:
        """DeleteRecords on the current leader: its log start moves up to an offset at most its
        HW (often inside a batch); followers follow it, or start over there when behind it."""
        b = self.brokers.get(self._partition(self.image, p).leader)
        if b is None or not b.alive or not self._current(b, p):
            return
        log = b.logs[p]
        offset = self.rng.choice((self.rng.randint(log.log_start_offset, log.high_watermark), log.high_watermark))
        log.delete_records(offset)
        self.counts["delete_records"] += 1
        self.trace.append(f"t={self.t} DeleteRecords p{p} on {b.id}: log start {log.log_start_offset}")

    def _reassign(self, p: int) -> None:
        """AlterPartitionReassignments: the partition to another set of brokers (the new replicas
        join, catch up from nothing, enter the ISR, then the old ones leave), or, now and then,
        the reassignment in progress cancelled."""
        part = self._partition(self.image, p)
        moving = bool(part.adding_replicas or part.removing_replicas)
        target = None if moving else self.rng.sample(self.ids, self.rf)
        if moving and self.rng.random() < 0.7:
            return
        res = self._decisions().alter_partition_reassignments([(TOPIC, [(p, target)])])
        (_, [(_, error, message)]), = res.response
        self.count_error(ErrorCode(error).name if error else "reassignment")
        if not error:
            self.counts["reassign" if target else "cancel_reassignment"] += 1
            self.trace.append(f"t={self.t} controller reassigns p{p} {part.replicas} -> {target or 'back'}")
            self._write(res)

    def _begin_shutdown(self, i: int) -> None:
        self.brokers[i].shutting_down = True
        self.trace.append(f"t={self.t} broker {i} asks to shut down")

    def _restart(self, i: int) -> None:
        b = self.brokers[i]
        b.fs = b.fs.restart("torn", seed=self.rng.randrange(1 << 30))  # (all of it after a clean stop)
        b.alive = True
        b.new_incarnation()
        b.open_logs(list(b.logs))
        self.recovering.add(i)
        self.trace.append(f"t={self.t} restart broker {i}: "
                          + ", ".join(f"p{p} leo {log.log_end_offset} hw {log.high_watermark}"
                                      for p, log in b.logs.items()))

    def _cut_link(self) -> None:
        r = self.rng
        i = r.choice(self.ids)
        if not self.brokers[i].alive or not self._may_fail(i):
            return
        kind = r.choice(("isolated", "from the controller", "from one broker"))
        others = [CONTROLLER, *(j for j in self.ids if j != i)]
        ends = others if kind == "isolated" else [CONTROLLER] if kind == "from the controller" else [r.choice(others[1:])]
        if kind == "isolated" and self.idempotent and r.random() < 0.5:
            ends.append(CLIENT)  # (from the producer too: its requests in flight there time out)
        heal = self.t + r.randrange(5, 50)
        for e in ends:
            self.cut[frozenset((i, e))] = heal
        self.counts["cut"] += 1
        self.trace.append(f"t={self.t} broker {i} cut {kind} {ends} until {heal}")

    def _random_faults(self) -> None:
        r = self.rng
        if r.random() < self.p_crash:
            leaders = [self._partition(self.image, p).leader for p in self.partitions]
            i = r.choice(self.ids if r.random() < 0.5 else [x for x in leaders if x in self.ids] or self.ids)
            if self.brokers[i].alive and self._may_fail(i):
                failed = self._failed()
                if any(set(self._partition(self.image, p).isr) - failed == {i} for p in self.partitions):
                    self.counts["crash_last_isr"] += 1  # (with ELR only)
                self._stop(self.brokers[i], clean=False)
        if r.random() < self.p_shutdown:
            i = r.choice(self.ids)
            if self.brokers[i].alive and not self.brokers[i].shutting_down and self._may_fail(i):
                self._begin_shutdown(i)
        if r.random() < self.p_cut:
            self._cut_link()
        if r.random() < self.p_delete:
            self._delete_records(r.choice(self.partitions))
        if r.random() < self.p_reassign:
            self._reassign(r.choice(self.partitions))
        if r.random() < self.p_move:
            self._preferred_election()
        if r.random() < self.p_slow:
            b = self.brokers[r.choice(self.ids)]
            b.slow = not b.slow

    def _heal_due(self, everything: bool = False) -> None:
        for link, until in list(self.cut.items()):
            if everything or self.t >= until:
                del self.cut[link]
        for i, until in sorted(self.down_until.items()):
            if everything or self.t >= until:
                del self.down_until[i]
                self._restart(i)
        for i in sorted(self.recovering):
            # back in every ISR as the incarnation that restarted (before its old session expires,
            # the image still shows the crashed one in the ISRs: seed 690 at 1fba69b crashed a
            # second ISR member then and lost what both held unflushed)
            reg = self.image.brokers.get(i)
            if (reg is not None and reg.incarnation_id == self.brokers[i].incarnation and not reg.fenced
                    and all(i in pi.isr for pi in (self._partition(self.image, p) for p in self.partitions)
                            if i in pi.replicas)):
                self.recovering.discard(i)

    # ------------------------------------------------------------------ steps
    def step(self, faults: bool = True) -> None:
        self.t += 1
        r = self.rng
        if faults:
            self._random_faults()
        self._heal_due()
        self._commit_due()
        self._expire_sessions()
        for b in self.brokers.values():
            if b.alive and r.random() < self.p_flush:
                for log in b.logs.values():
                    log.flush()
        if r.random() < self.p_produce:
            p = r.choice(self.partitions)
            self._new_batch(p) if self.idempotent else self._produce(p)
        if self.idempotent:
            self._client_tick()
        self._deliver_due()
        for b in self.brokers.values():
            if not b.alive:
                continue
            self._broker_tick(b)
            for p in b.logs:
                leader, follower = b.leader(p), b.follower(p)
                if leader is not None:
                    leader.tick(self.now)
                    if leader.isr_state.inflight and self.t - b.proposal_sent.get(p, 0) > 3 * self.max_delay + 4:
                        b.proposal_sent[p] = self.t  # the AlterPartition manager resends
                        self.send(b.id, CONTROLLER, ("alter", b.broker_epoch, b.tokens[p], p, leader.isr_state.proposal))
                    self._leader_ready(b, p)
                elif follower is not None and (not b.slow or r.random() < 0.1):
                    req = follower.poll(self.now)
                    if req is not None:
                        self.send(b.id, follower.leader_id, ("fetch", b.tokens[p], p, req))

    def run(self) -> ClusterSim:
        try:
            for _ in range(self.steps):
                self.step()
            self._settle()
        except SimFailure:
            raise
        except Exception as e:
            raise SimFailure(f"seed={self.seed} t={self.t}: {type(e).__name__}: {e}\n{self.describe()}\n"
                             "last events:\n" + "\n".join(self.trace)) from e
        return self

    def _settle(self) -> None:
        """Heal everything; every replica must rejoin the ISR, a new acks=all produce to each
        partition must succeed, and the replicas end byte-identical with every acked record."""
        self.p_drop, self.p_produce = 0, 0
        for b in self.brokers.values():
            b.slow = False
        self._heal_due(everything=True)
        markers: dict[int, tuple[int, int] | None] = {p: None for p in self.partitions}
        for _ in range(3000):
            self.step(faults=False)
            done = True
            for p in self.partitions:
                part = self._partition(self.image, p)
                lb = self.brokers.get(part.leader)
                m = markers[p]
                if lb is not None and self._current(lb, p) and (m is None or (m not in self.waiting and m not in self.acked_requests)):
                    markers[p] = m = self._produce_on(lb, p)
                if any(p not in self.brokers[i].logs for i in part.replicas):
                    done = False  # (a new replica that has not seen the reassignment yet)
                    continue
                logs = [self.brokers[i].logs[p] for i in part.replicas]
                done = done and (lb is not None and m in self.acked_requests
                                 and not (p in self.producers and self.producers[p].batches)
                                 and not part.adding_replicas and not part.removing_replicas
                                 and set(part.isr) == set(part.replicas)
                                 and len({log.log_end_offset for log in logs}) == 1
                                 and lb.logs[p].high_watermark == lb.logs[p].log_end_offset)
            if done:
                break
        else:
            self.fail("no convergence after healing")
        for p in self.partitions:
            part = self._partition(self.image, p)
            # (a replica's log start may trail the leader's, as Kafka's: DeleteRecords is complete
            # only once every replica's log start has passed it, and a follower may lead before)
            start = max(self.brokers[i].logs[p].log_start_offset for i in part.replicas)
            images = {i: self._bytes(self.brokers[i].logs[p], start) for i in part.replicas}
            first = images[part.replicas[0]]
            for i, data in images.items():
                if data != first:
                    self.fail(f"p{p}: replica {i}'s log differs from replica {part.replicas[0]}'s")
            log = self.brokers[part.leader].logs[p]
            start = log.log_start_offset  # (DeleteRecords removed what is below it)
            values = self._records(log, start, log.log_end_offset)
            if self.idempotent:
                self._check_producer(p, log)
            for off, v in self.acked[p].items():
                if off >= start and (off - start >= len(values) or values[off - start] != v):
                    self.fail(f"p{p}: acknowledged {v!r}@{off} is not in the healed log")

    def _check_producer(self, p: int, log: PartitionLog) -> None:
        """Every batch the producer had acknowledged is in the log (every replica's is the same)
        once, in sequence order, and nothing else of it: a retry is never written again."""
        prod = self.producers[p]
        if len(set(self._records(log, log.log_start_offset, log.log_end_offset))) != log.log_end_offset - log.log_start_offset:
            self.fail(f"p{p}: a value twice in the log")
        mine = [(h.base_sequence, [r.value for r in recs]) for h, recs in iter_batches(self._bytes(log))
                if h.producer_id == prod.producer_id]
        seqs = [s for s, _ in mine]
        if seqs != sorted(set(seqs)):
            self.fail(f"p{p}: the producer's sequences in the log are not in order, each once: {seqs}")
        acked = sorted((b.seq, b.values) for b in prod.acked)
        resolved = sorted(acked + [(b.seq, b.values) for b in prod.expired])
        if [s for s, _ in resolved] != sorted({s for s, _ in resolved}) or (resolved and sum(len(v) for _, v in resolved) != prod.next_seq):
            self.fail(f"p{p}: the producer's resolved sequences are not every one once: {[s for s, _ in resolved]}")
        kept = dict(mine)
        for s, values in acked:
            if kept.get(s) != values:
                self.fail(f"p{p}: acknowledged sequence {s} {values} is not in the log ({seqs})")
        for s, values in mine:
            if (s, values) not in resolved:
                self.fail(f"p{p}: sequence {s} {values} in the log was never sent")

    def _produce_on(self, b: Broker, p: int) -> tuple[int, int] | None:
        """An acks=all produce to the current leader b (the settle marker)."""
        leaders = [x for x in self.brokers.values() if x.alive and x.leader(p) is not None]
        for x in leaders:
            if x is not b:
                return None  # a deposed leader still believes: wait for its metadata
        return self._produce(p, acks=-1)

    @staticmethod
    def _bytes(log: PartitionLog, start: int | None = None) -> bytes:
        """The log's bytes from the batch holding `start` (default its log start) to its end."""
        out = b""
        off = log.log_start_offset if start is None else start
        while off < log.log_end_offset:
            data = log.read(off, 1 << 20).read_bytes()
            out += data
            off = [h for _, h in iter_batch_headers(data)][-1].last_offset + 1
        return out


def run_seed(seed: int, **kw) -> ClusterSim:
    return ClusterSim(seed, **kw).run()


if __name__ == "__main__":
    for a in sys.argv[1:]:
        s = run_seed(int(a))
        print(f"seed {a}: ok, t={s.t}, {s.produced} produced, "
              f"{sum(len(v) for v in s.acked.values())} acked, counts {s.counts}, errors {s.errors}")
