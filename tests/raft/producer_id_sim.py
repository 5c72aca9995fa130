"""Producer id blocks across controller failover, simulated (issue 21): raft_sim's quorum (message
loss, duplicates, partitions, crashes, snapshots, resignations) with odradek's metadata image as
every controller's state machine and the controller's AllocateProducerIds rules on whichever nodes
think they lead: ProducerIdControl decides on the node's applied image (a new node after a crash),
the block's ProducerIdsRecord is proposed, and the answer is given once it is applied and the record
at its offset is the one proposed (result.committed_as_proposed: its leader epoch), else NOT_CONTROLLER.
Snapshots are the real metadata snapshot encoding (controller/snapshot.py).

Three brokers run Kafka's RPCProducerIdManager (broker/producer_ids.py) against it, hand out ids at
random, restart at random (a new manager; what was in flight is lost) and sometimes ask with a
stale broker epoch. Invariants: no two blocks handed out overlap, no producer id is handed out
twice, and once a node applied a block's record its image's next producer id is past the block.
Replay: `python tests/raft/producer_id_sim.py N` or `pytest tests/raft --sim-seed=N -k producer`.
"""

from __future__ import annotations

import pickle
import sys

from raft_sim import Sim, SimNode

from odradek.broker.producer_ids import ProducerIdManager
from odradek.controller.image import BrokerImage, MetadataDelta, MetadataImage
from odradek.controller.producer_ids import Allocation, ProducerIdControl, answer_when_applied
from odradek.controller.records import decode_record, encode_record
from odradek.controller.result import Commit, committed_as_proposed
from odradek.controller.snapshot import decode_snapshot, encode_snapshot
from odradek.coordinator.errors import CoordinatorError
from odradek.raft.quorum_state import Leader
from odradek.wire.errors import ErrorCode
from odradek.wire.messages.allocate_producer_ids_response import AllocateProducerIdsResponse

BROKERS = (4, 5, 6)
REQUEST_TIMEOUT = 40  # steps: the controller's write timeout (then NOT_CONTROLLER)


def _epoch_of(broker: int) -> int:
    return 100 + broker


class ProducerIdSim(Sim):
    def __init__(self, seed: int, **kw):
        self._base = MetadataImage(cluster_id="sim", brokers={
            b: BrokerImage(b, "127.0.0.1", 9092, epoch=_epoch_of(b)) for b in BROKERS})
        super().__init__(seed, **kw)
        r = self.rng
        self.p_propose = 0  # the records are the controller's, nothing else
        self.p_alloc = r.choice((0.3, 0.7, 1.0))
        self.allocs_per_step = r.choice((1, 5, 40))
        self.p_broker_restart = r.choice((0, 0.005, 0.02))
        self.p_stale_epoch = r.choice((0, 0.05))
        self.max_rpc_delay = r.choice((1, 3))
        self.broker_incarnation = {b: 0 for b in BROKERS}
        self.managers: dict[int, ProducerIdManager] = {}
        for b in BROKERS:
            self._restart_broker(b)
        self.rpcs: list = []  # (due, kind, payload): requests to nodes and answers to brokers
        self.pending: list = []  # proposed blocks waiting to be applied (see _answer_pending)
        self.blocks: list = []  # (first, last, broker, offset) handed out
        self.handed: dict[int, int] = {}  # producer id -> broker
        self.answers = {"ok": 0, "not_controller": 0, "stale": 0}

    # ------------------------------------------------------------------ the controllers' state machine
    def _start(self, i: int) -> None:
        node = self.nodes[i]
        node.image = self._base
        node.control = ProducerIdControl()  # in memory: a restarted node has a new one
        super()._start(i)

    def _apply(self, node: SimNode, b) -> None:
        super()._apply(node, b)
        if b.control:
            return
        delta = MetadataDelta(node.image)
        for k, value in enumerate(b.records):
            try:
                record, _ = decode_record(value)
            except Exception:  # noqa: BLE001 - raft_sim's own settle marker
                continue
            delta.replay(record, b.base_offset + k)
        node.image = delta.apply()

    def _snapshot_data(self, node: SimNode) -> bytes:
        applied = node.raft.applied
        return pickle.dumps((applied, node.state, encode_snapshot(node.image, applied)))

    def _apply_snapshot(self, node: SimNode, snap) -> None:
        super()._apply_snapshot(node, snap)
        end, _, data = pickle.loads(snap.data)
        node.image = decode_snapshot(data, end, "sim", -1)

    # ------------------------------------------------------------------ the brokers
    def _restart_broker(self, b: int) -> None:
        self.broker_incarnation[b] += 1
        inc = self.broker_incarnation[b]

        def epoch() -> int:
            return _epoch_of(b) - 1 if self.p_stale_epoch and self.rng.random() < self.p_stale_epoch else _epoch_of(b)

        self.managers[b] = ProducerIdManager(b, epoch, lambda req: self._send_rpc("request", (req, b, inc)),
                                             lambda: self.t * 10)

    def _send_rpc(self, kind: str, payload) -> None:
        self.seq += 1
        self.rpcs.append((self.t + 1 + self.rng.randrange(self.max_rpc_delay), self.seq, kind, payload))

    def _answer_broker(self, b: int, inc: int, a: Allocation, offset: int) -> None:
        if a.error_code == 0:
            blk = a.block
            for first, last, other, off in self.blocks:
                if blk.first <= last and first <= blk.last:
                    self.fail(f"block {blk.first}..{blk.last} for broker {b} (offset {offset}) overlaps "
                              f"{first}..{last} of broker {other} (offset {off})")
            self.blocks.append((blk.first, blk.last, b, offset))
            resp = AllocateProducerIdsResponse(error_code=0, producer_id_start=blk.first, producer_id_len=blk.size)
            self.answers["ok"] += 1
        else:
            resp = AllocateProducerIdsResponse(error_code=a.error_code)
            self.answers["stale" if a.error_code == ErrorCode.STALE_BROKER_EPOCH else "not_controller"] += 1
        self._send_rpc("response", (resp, b, inc))

    def _serve(self, req, b: int, inc: int) -> None:
        """AllocateProducerIds reaching a node that thinks it leads (chosen at random among them: a
        deposed leader in a partition may still think so), as ControllerServer.allocate_producer_ids."""
        leaders = [n for n in self.nodes.values() if n.raft is not None and n.raft.is_leader]
        node = self.rng.choice(leaders) if leaders else None
        raft = node.raft if node is not None else None
        if raft is None or not (isinstance(raft.state, Leader) and raft.applied > raft.state.epoch_start_offset):
            self._answer_broker(b, inc, Allocation(int(ErrorCode.NOT_CONTROLLER)), -1)
            return
        result = node.control.allocate(node.image, req.broker_id, req.broker_epoch)
        if not result.records:
            self._answer_broker(b, inc, result.response, -1)
            return
        last = raft.propose([encode_record(r) for r in result.records])
        self.pending.append((node.id, node.incarnation, raft.epoch, last, self.t + REQUEST_TIMEOUT, result.response,
                             b, inc))
        self._process(node)

    def _answer_pending(self) -> None:
        still = []
        for nid, ninc, epoch, last, deadline, a, b, inc in self.pending:
            node = self.nodes[nid]
            if node.raft is None or node.incarnation != ninc:
                continue  # the controller died: no answer; the broker's request fails
            applied = node.next_apply > last
            if applied or self.t >= deadline:
                # as ControllerServer._applied: the record at that offset must be the one proposed
                ours = applied and committed_as_proposed(Commit(last, False, epoch), node.raft.log.epoch_at(last),
                                                         node.raft.epoch)
                self._answer_broker(b, inc, answer_when_applied(a, ours), last)
            else:
                still.append((nid, ninc, epoch, last, deadline, a, b, inc))
        self.pending = still

    def _deliver_rpcs(self) -> None:
        due = sorted(x for x in self.rpcs if x[0] <= self.t)
        self.rpcs = [x for x in self.rpcs if x[0] > self.t]
        for _, _, kind, (msg, b, inc) in due:
            if inc != self.broker_incarnation[b]:
                continue  # sent by or to an earlier incarnation of the broker
            if kind == "request":
                self._serve(msg, b, inc)
            else:
                self.managers[b].on_response(msg)

    def _brokers_allocate(self) -> None:
        r = self.rng
        for b in BROKERS:
            if self.p_broker_restart and r.random() < self.p_broker_restart:
                self._restart_broker(b)
                self.trace.append(f"t={self.t} broker {b} restarts")
            if r.random() >= self.p_alloc:
                continue
            for _ in range(r.randrange(1, self.allocs_per_step + 1)):
                try:
                    pid = self.managers[b].allocate()
                except CoordinatorError as e:
                    assert e.code == ErrorCode.COORDINATOR_LOAD_IN_PROGRESS
                    break
                if pid in self.handed:
                    self.fail(f"producer id {pid} handed out by broker {b} and before by broker {self.handed[pid]}")
                self.handed[pid] = b

    def step(self, faults: bool = True) -> None:
        self._brokers_allocate()
        self._deliver_rpcs()
        super().step(faults)
        self._answer_pending()

    def _settle(self) -> None:
        # no crash mid-write while healing (raft_sim's settle proposes one record; the brokers here
        # keep asking for blocks, and a node down at the end fails the settle's checks)
        self.p_crash = 0
        super()._settle()

    def run(self) -> None:
        super().run()
        for node in self.nodes.values():
            past = [last + 1 for first, last, b, off in self.blocks if off < node.next_apply]
            if past and node.image.next_producer_id < max(past):
                self.fail(f"node {node.id} applied every block up to {max(past)} but its next producer id is "
                          f"{node.image.next_producer_id}")


def run_seed(seed: int, **kw) -> ProducerIdSim:
    sim = ProducerIdSim(seed, **kw)
    sim.run()
    return sim


if __name__ == "__main__":
    for a in sys.argv[1:]:
        s = run_seed(int(a))
        print(f"seed {a}: ok, t={s.t}, {len(s.handed)} ids in {len(s.blocks)} blocks, answers {s.answers}, "
              f"epochs {sorted(s.leaders)}")
