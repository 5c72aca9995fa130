"""Deterministic simulation of one replicated partition: a leader and N followers built from
odradek.replication's pure state machines, and the test acting as the controller (ISR
updates through AlterPartition, fencing of crashed brokers, elections from the ISR).

One seed decides everything: message delay (so reordering) and loss, slow followers,
crashes that lose a random part of the unflushed tail, restarts with a new broker epoch,
leader moves at new epochs, fetch truncation through Fetch (DivergingEpoch) or through
OffsetForLeaderEpoch. After every step the invariants are checked; then the network heals
and every replica must end with the same log. Replay: `pytest tests/replication --sim-seed=N`
or `python tests/replication/repl_sim.py N`."""

from __future__ import annotations

import heapq
import random
import sys
from collections import deque
from dataclasses import dataclass, field
from typing import Callable

from odradek.log.leader_epoch_cache import LeaderEpochCache
from odradek.replication.follower import PartitionFollower
from odradek.replication.leader import LeaderConfig, PartitionLeader
from odradek.replication.messages import (
    AlterPartitionProposal, EpochAnswer, EpochQuery, FetchDecision, FollowerReady, LeaderAndIsr, ReplicaFetch,
)
from odradek.wire.errors import ErrorCode

NO_LEADER = -1
T0 = 1_000_000  # the simulated clock starts far from 0, as a real one does


class SimFailure(AssertionError):
    pass


@dataclass(frozen=True)
class Batch:
    base_offset: int
    leader_epoch: int
    payload: str

    @property
    def last_offset(self) -> int:
        return self.base_offset


@dataclass
class SimLog:
    """A partition log in memory with a flushed prefix: a crash keeps the flushed records and
    a random part of the rest (a torn, unflushed tail)."""
    batches: list[Batch] = field(default_factory=list)
    epochs: LeaderEpochCache = field(default_factory=LeaderEpochCache)
    flushed: int = 0
    log_start_offset: int = 0
    verified: int = 0  # the prefix already checked against what was read (kept until a truncation)

    @property
    def log_end_offset(self) -> int:
        return len(self.batches)

    def append(self, batch: Batch) -> None:
        assert batch.base_offset == len(self.batches), (batch, len(self.batches))
        self.epochs = self.epochs.assign(batch.leader_epoch, batch.base_offset)
        self.batches.append(batch)

    def leader_append(self, batch: Batch) -> None:
        self.append(batch)

    def assign_epoch(self, epoch: int, start_offset: int) -> None:
        self.epochs = self.epochs.assign(epoch, start_offset)

    def truncate_fully_and_start_at(self, offset: int) -> None:
        self.truncate_to(0)
        self.log_start_offset = offset

    def flush(self) -> None:
        self.flushed = self.log_end_offset

    def truncate_to(self, offset: int) -> None:
        del self.batches[offset:]
        self.epochs = self.epochs.truncate_from_end(offset)
        self.flushed = min(self.flushed, offset)
        self.verified = min(self.verified, offset)

    def crash(self, rng: random.Random) -> None:
        self.truncate_to(rng.randint(self.flushed, self.log_end_offset))


class Node:
    def __init__(self, node_id: int, log: SimLog):
        self.id = node_id
        self.log = log
        self.broker_epoch = 1
        self.alive = True
        self.role: PartitionLeader | PartitionFollower | None = None
        self.token = 0  # bumps with each role: answers to an older role's requests are dropped
        self.hw = 0
        self.meta_version = 0
        self.slow = False
        self.proposal_sent_at = 0
        self.max_hw = -1  # the leader role's highest HW, per role

    @property
    def leader(self) -> PartitionLeader | None:
        return self.role if isinstance(self.role, PartitionLeader) else None

    @property
    def follower(self) -> PartitionFollower | None:
        return self.role if isinstance(self.role, PartitionFollower) else None


class Sim:
    def __init__(self, seed: int, *, steps: int = 300, replicas: int | None = None,
                 log_factory: Callable[[int], SimLog] = lambda node_id: SimLog()):
        """log_factory(node id): each node's log (the in-memory model, or real_sim_log's
        PartitionLog on a crashing file system)."""
        self.seed = seed
        self.rng = r = random.Random(seed)
        n = replicas or r.choice((2, 3, 3, 3, 4))
        self.ids = tuple(range(1, n + 1))
        self.config = LeaderConfig(min_insync_replicas=r.choice((1, 2, 2, 3)),
                                   replica_lag_time_max_ms=r.choice((10, 20, 40)))
        self.truncate_on_fetch = r.choice((True, True, False))
        self.p_drop = r.choice((0, 0.02, 0.1, 0.25))
        self.max_delay = r.choice((1, 2, 4))
        self.p_crash = r.choice((0, 0.01, 0.03))
        self.p_move = r.choice((0, 0.01, 0.03))
        self.p_slow = r.choice((0, 0.02, 0.05))
        self.p_flush = r.choice((0.05, 0.3, 1.0))
        self.p_produce = r.choice((0.3, 0.7, 1.0))
        self.steps = steps
        self.request_timeout = 3 * self.max_delay + 4
        self.t = 0
        self.nodes = {i: Node(i, log_factory(i)) for i in self.ids}
        self.net: list = []
        self.seq = 0
        self.down_until: dict[int, int] = {}
        # The controller's view of the partition.
        first = r.choice(self.ids)
        self.state = LeaderAndIsr(first, 0, 0, frozenset(self.ids))
        self.alive_epochs = {i: 1 for i in self.ids}
        self.version = 0
        # What the invariants remember.
        self.writers: dict[int, int] = {}  # leader epoch -> the one node that appended in it
        self.acked: dict[int, str] = {}  # offset -> payload of acks=all produces answered NONE
        self.read: list[str] = []  # payload by offset of every record seen below a leader's HW
        self.waiting: dict[int, tuple[int, str]] = {}  # request id -> (offset, payload)
        self.acked_requests: set[int] = set()
        self.produced = 0
        self.acks_errors: dict[str, int] = {}
        self.counts = {"crash": 0, "truncate": 0, "move": 0, "isr_change": 0, "diverging": 0}
        self.trace: deque = deque(maxlen=80)
        self._publish()

    @property
    def now(self) -> int:
        return T0 + self.t

    def fail(self, why: str):
        raise SimFailure(f"seed={self.seed} t={self.t}: {why}\nlast events:\n" + "\n".join(self.trace))

    # ------------------------------------------------------------------ network
    def send(self, dst: int | str, msg: tuple, *, lossy: bool = True) -> None:
        if lossy and self.rng.random() < self.p_drop:
            return
        self.seq += 1
        heapq.heappush(self.net, (self.t + 1 + self.rng.randrange(self.max_delay), self.seq, dst, msg))

    # ------------------------------------------------------------------ controller
    def _publish(self) -> None:
        """A metadata change: every live broker gets it (in order: versions only go up)."""
        self.version += 1
        self.trace.append(f"t={self.t} metadata v{self.version}: {self.state}")
        for i in self.ids:
            self.send(i, ("meta", self.version, self.state, dict(self.alive_epochs)), lossy=False)

    def _elect(self, exclude: set[int]) -> None:
        candidates = [i for i in self.ids if i in self.state.isr and i in self.alive_epochs and i not in exclude]
        leader = self.rng.choice(candidates) if candidates else NO_LEADER
        s = self.state
        self.state = LeaderAndIsr(leader, s.leader_epoch + 1, s.partition_epoch + 1, s.isr)

    def _fence(self, i: int) -> None:
        """Broker i stopped (its session is gone): out of the ISR (unless it is the last), and a
        new leader if it led."""
        self.alive_epochs.pop(i, None)
        s = self.state
        isr = s.isr - {i} if len(s.isr) > 1 else s.isr
        self.state = LeaderAndIsr(s.leader_id, s.leader_epoch, s.partition_epoch + 1, isr)
        if s.leader_id == i:
            self._elect(exclude={i})
        self._publish()

    def _alter_partition(self, p: AlterPartitionProposal) -> LeaderAndIsr | ErrorCode:
        s = self.state
        if p.leader_id != s.leader_id or p.leader_epoch != s.leader_epoch:
            return ErrorCode.FENCED_LEADER_EPOCH
        if p.partition_epoch != s.partition_epoch:
            return ErrorCode.INVALID_UPDATE_VERSION
        for m in p.new_isr:
            known = self.alive_epochs.get(m.broker_id)
            if known is None or (m.broker_epoch != -1 and m.broker_epoch != known):
                return ErrorCode.INELIGIBLE_REPLICA
        if p.isr_ids != s.isr:
            self.counts["isr_change"] += 1
            self.state = LeaderAndIsr(s.leader_id, s.leader_epoch, s.partition_epoch + 1, p.isr_ids)
            self._publish()
        return self.state

    # ------------------------------------------------------------------ brokers
    def _apply_meta(self, node: Node, version: int, s: LeaderAndIsr, alive: dict[int, int]) -> None:
        if version <= node.meta_version:
            return
        node.meta_version = version
        role = node.role
        if s.leader_id == node.id:
            if isinstance(role, PartitionLeader) and role.leader_epoch == s.leader_epoch:
                role.apply_metadata(s, self.ids, self.now, alive)  # (an unchanged partition epoch: only the brokers)
            else:
                self._drop_role(node)
                node.role = PartitionLeader(node.id, node.log, self.config, s, self.ids, node.hw, self.now, alive)
                node.max_hw = -1
                self.trace.append(f"t={self.t} node {node.id} leads epoch {s.leader_epoch} "
                                  f"(leo {node.log.log_end_offset}, hw {node.role.high_watermark})")
            self._leader_ready(node)
            return
        if isinstance(role, PartitionFollower) and (role.leader_id, role.leader_epoch) == (s.leader_id, s.leader_epoch):
            return
        self._drop_role(node)
        if s.leader_id != NO_LEADER:
            node.role = PartitionFollower(node.id, node.broker_epoch, s.leader_id, s.leader_epoch, node.log, node.hw,
                                          truncate_on_fetch=self.truncate_on_fetch,
                                          request_timeout_ms=self.request_timeout)

    def _drop_role(self, node: Node) -> None:
        role = node.role
        if isinstance(role, PartitionLeader):
            for c in role.resign():
                self._completed(c.request_id, c.error)
        if role is not None:
            node.hw = role.high_watermark
        node.role = None
        node.token += 1

    def _leader_ready(self, node: Node) -> None:
        leader = node.leader
        rd = leader.ready()
        if rd.epoch_start is not None:
            node.log.assign_epoch(*rd.epoch_start)
        for p in rd.proposals:
            node.proposal_sent_at = self.t
            self.send("controller", ("alter", node.id, node.token, p))
        if rd.high_watermark > node.log.log_end_offset:
            self.fail(f"leader {node.id} HW {rd.high_watermark} beyond its log end {node.log.log_end_offset}")
        if rd.high_watermark < node.max_hw:
            self.fail(f"leader {node.id} HW went back {node.max_hw} -> {rd.high_watermark} in epoch {leader.leader_epoch}")
        node.max_hw = rd.high_watermark
        self._observe(node)
        for c in rd.completions:
            self._completed(c.request_id, c.error)

    def _completed(self, request_id: int, error: ErrorCode) -> None:
        offset, payload = self.waiting.pop(request_id)
        self.acks_errors[error.name] = self.acks_errors.get(error.name, 0) + 1
        if error == ErrorCode.NONE:
            if offset >= len(self.read) or self.read[offset] != payload:
                self.fail(f"acknowledged {payload}@{offset} but it is not below the leader's HW")
            self.acked[offset] = payload
            self.acked_requests.add(request_id)
            self.trace.append(f"t={self.t} acked {payload}@{offset}")

    def _follower_ready(self, node: Node, rd: FollowerReady) -> None:
        log = node.log
        if rd.truncate_to is not None and rd.truncate_to < log.log_end_offset:
            self.trace.append(f"t={self.t} node {node.id} truncates {log.log_end_offset} -> {rd.truncate_to}")
            self.counts["truncate"] += 1
        if rd.truncate_to is not None:
            log.truncate_to(rd.truncate_to)
        if rd.truncate_fully_to is not None:
            log.truncate_fully_and_start_at(rd.truncate_fully_to)
        for b in rd.append:
            log.append(b)
        if rd.high_watermark is not None:
            node.hw = rd.high_watermark

    def _deliver(self, dst, msg: tuple) -> None:
        kind = msg[0]
        if dst == "controller":
            _, src, token, proposal = msg
            answer = self._alter_partition(proposal)
            self.send(src, ("alter_answer", token, proposal.proposal_id, answer))
            return
        node = self.nodes[dst]
        if not node.alive:
            return
        if kind == "meta":
            self._apply_meta(node, *msg[1:])
        elif kind == "alter_answer":
            _, token, pid, answer = msg
            if token == node.token and node.leader is not None:
                node.leader.on_alter_partition_answer(pid, answer, self.now)
                self._leader_ready(node)
        elif kind == "request":
            _, src, token, req = msg
            self.send(src, ("answer", token, self._serve(node, req)))
        elif kind == "answer":
            _, token, (answer, batches) = msg
            f = node.follower
            if token != node.token or f is None:
                return
            if isinstance(answer, EpochAnswer):
                self._follower_ready(node, f.on_epoch_answer(answer))
            else:
                self._follower_ready(node, f.on_fetch_answer(answer, batches))

    def _serve(self, node: Node, req: ReplicaFetch | EpochQuery):
        leader = node.leader
        if isinstance(req, EpochQuery):
            if leader is None:
                return EpochAnswer(req.request_id, req.current_leader_epoch, ErrorCode.NOT_LEADER_OR_FOLLOWER,
                                   LeaderEpochCache().end_offset_for(-1, 0)), ()
            return leader.answer_epoch_query(req), ()
        if leader is None:
            return FetchDecision(req.request_id, req.current_leader_epoch, ErrorCode.NOT_LEADER_OR_FOLLOWER,
                                 req.fetch_offset), ()
        d = leader.on_fetch(req, self.now)
        self.counts["diverging"] += d.diverging_epoch is not None
        self._leader_ready(node)
        batches = ()
        if d.read_from is not None:
            batches = tuple(node.log.batches[d.read_from:d.read_from + self.rng.choice((1, 3, 10))])
        return d, batches

    # ------------------------------------------------------------------ faults
    def _crash(self, i: int) -> None:
        node = self.nodes[i]
        before = node.log.log_end_offset
        node.log.crash(self.rng)
        self._drop_role(node)
        node.alive = False
        node.hw = self.rng.randint(0, min(node.hw, node.log.log_end_offset))  # a stale HW checkpoint
        self.down_until[i] = self.t + self.rng.randrange(5, 40)
        self.counts["crash"] += 1
        self.trace.append(f"t={self.t} crash {i}: log {before} -> {node.log.log_end_offset}")
        self._fence(i)

    def _restart(self, i: int) -> None:
        node = self.nodes[i]
        node.alive = True
        node.broker_epoch += 1
        node.meta_version = 0
        self.alive_epochs[i] = node.broker_epoch
        self.trace.append(f"t={self.t} restart {i} (broker epoch {node.broker_epoch})")
        if self.state.leader_id == NO_LEADER:
            self._elect(exclude=set())
        self._publish()

    def _may_crash(self, i: int) -> bool:
        """At most one broker down, and an ISR member that is alive must remain: a crash
        beyond RF - min.insync.replicas failures is outside what acks=all promises."""
        return not self.down_until and bool(self.state.isr - {i})

    def _random_faults(self) -> None:
        r = self.rng
        if self.p_crash and r.random() < self.p_crash:
            i = r.choice(self.ids)
            if self.nodes[i].alive and self._may_crash(i):
                self._crash(i)
        if self.p_move and r.random() < self.p_move and self.state.leader_id != NO_LEADER:
            others = [i for i in self.state.isr if i != self.state.leader_id and i in self.alive_epochs]
            if others:  # as a preferred-leader election would: another ISR member, a new epoch
                self._elect(exclude={self.state.leader_id})
                self.counts["move"] += 1
                self.trace.append(f"t={self.t} move leadership to {self.state.leader_id}")
                self._publish()
        if self.p_slow and r.random() < self.p_slow:
            node = self.nodes[r.choice(self.ids)]
            node.slow = not node.slow

    # ------------------------------------------------------------------ steps
    def step(self, faults: bool = True) -> None:
        self.t += 1
        r = self.rng
        if faults:
            self._random_faults()
        for i, until in sorted(self.down_until.items()):
            if self.t >= until:
                del self.down_until[i]
                self._restart(i)
        for node in self.nodes.values():
            if node.alive and r.random() < self.p_flush:
                node.log.flush()
        if r.random() < self.p_produce:
            self._produce()
        while self.net and self.net[0][0] <= self.t:
            _, _, dst, msg = heapq.heappop(self.net)
            self._deliver(dst, msg)
        for node in self.nodes.values():
            if not node.alive:
                continue
            if node.leader is not None:
                leader = node.leader
                leader.tick(self.now)
                if leader.isr_state.inflight and self.t - node.proposal_sent_at > self.request_timeout:
                    node.proposal_sent_at = self.t  # the AlterPartition manager resends
                    self.send("controller", ("alter", node.id, node.token, leader.isr_state.proposal))
                self._leader_ready(node)
            elif node.follower is not None and (not node.slow or r.random() < 0.1):
                req = node.follower.poll(self.now)
                if req is not None:
                    self.send(node.follower.leader_id, ("request", node.id, node.token, req))
        self._check()

    def _produce(self, acks: int | None = None) -> int | None:
        node = next((n for n in self.nodes.values() if n.alive and n.leader is not None), None)
        if node is None:
            return None
        leader = node.leader
        acks = acks if acks is not None else self.rng.choice((-1, -1, 1))
        error = leader.check_append(acks)
        if error != ErrorCode.NONE:
            self.acks_errors[error.name] = self.acks_errors.get(error.name, 0) + 1
            return None
        prev = self.writers.setdefault(leader.leader_epoch, node.id)
        if prev != node.id:
            self.fail(f"nodes {prev} and {node.id} both accepted writes in leader epoch {leader.leader_epoch}")
        self.produced += 1
        offset = node.log.log_end_offset
        payload = f"{self.seed}:{self.produced}"
        node.log.leader_append(Batch(offset, leader.leader_epoch, payload))
        request_id = None
        if acks == -1:
            request_id = self.produced
            self.waiting[request_id] = (offset, payload)
        leader.on_append(self.now, request_id, offset, timeout_ms=10 * self.config.replica_lag_time_max_ms)
        self._leader_ready(node)
        return request_id

    def _observe(self, node: Node) -> None:
        """Everything below a leader's HW is readable by consumers, so counts as read; and a
        leader must hold everything ever read (acknowledged records included), unchanged."""
        batches, read = node.log.batches, self.read
        for off in range(len(read), node.leader.high_watermark):
            read.append(batches[off].payload)
        for off in range(node.log.verified, len(read)):
            if off >= len(batches) or batches[off].payload != read[off]:
                have = batches[off].payload if off < len(batches) else "nothing"
                what = "acknowledged" if self.acked.get(off) == read[off] else "read"
                self.fail(f"{what} {read[off]}@{off} is gone from leader {node.id} "
                          f"(epoch {node.leader.leader_epoch}), which has {have}")
        node.log.verified = len(read)

    def _check(self) -> None:
        for node in self.nodes.values():
            if node.alive and node.leader is not None:
                self._observe(node)

    # ------------------------------------------------------------------ runs
    def run(self) -> None:
        try:
            for _ in range(self.steps):
                self.step()
            self._settle()
        except SimFailure:
            raise
        except Exception as e:
            raise SimFailure(f"seed={self.seed} t={self.t}: {type(e).__name__}: {e}\nlast events:\n"
                             + "\n".join(self.trace)) from e

    def _settle(self) -> None:
        """Heal: no loss, no slow or down brokers. Every replica must rejoin the ISR, an
        acks=all produce must succeed, and all logs must end identical."""
        self.p_drop, self.p_produce = 0, 0
        for node in self.nodes.values():
            node.slow = False
        for i in sorted(self.down_until):
            del self.down_until[i]
            self._restart(i)
        marker = None
        for _ in range(2000):
            self.step(faults=False)
            leader_node = next((n for n in self.nodes.values() if n.leader is not None
                                and n.leader.leader_epoch == self.state.leader_epoch), None)
            if leader_node is None:
                continue
            if marker is None or (marker not in self.waiting and marker not in self.acked_requests):
                marker = self._produce(acks=-1)  # (again, if it failed)
            ends = {n.log.log_end_offset for n in self.nodes.values()}
            if (marker in self.acked_requests
                    and len(ends) == 1 and self.state.isr == frozenset(self.ids)
                    and leader_node.leader.high_watermark == leader_node.log.log_end_offset):
                break
        else:
            self.fail(f"no convergence after healing: state {self.state}, ends "
                      + ", ".join(f"{n.id}:{n.log.log_end_offset}" for n in self.nodes.values()))
        logs = {n.id: [(b.base_offset, b.leader_epoch, b.payload) for b in n.log.batches] for n in self.nodes.values()}
        first = logs[self.ids[0]]
        for i, log in logs.items():
            if log != first:
                diff = next(k for k in range(max(len(log), len(first))) if k >= len(log) or k >= len(first) or log[k] != first[k])
                self.fail(f"replica {i} differs from replica {self.ids[0]} at offset {diff}")


def run_seed(seed: int, **kw) -> Sim:
    sim = Sim(seed, **kw)
    sim.run()
    return sim


if __name__ == "__main__":
    for a in sys.argv[1:]:
        s = run_seed(int(a))
        print(f"seed {a}: ok, t={s.t}, {s.produced} produced, {len(s.acked)} acked, "
              f"epochs {sorted(s.writers)}, errors {s.acks_errors}")
