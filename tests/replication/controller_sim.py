"""The replication simulation (repl_sim.py) with odradek's own controller in the
controller's place: the partition's leader, ISR and epochs are a MetadataImage built by
replaying the records of controller.decisions.Decisions, exactly as a cluster's active
controller writes them. Crashed brokers are fenced through the session-expiry decision
(leaders elected from the ISR, the ISR shrunk, leaderless when nobody in sync is left);
restarts register a new incarnation and are unfenced by a heartbeat (a leaderless
partition elects them); the leaders' AlterPartition proposals go through the controller's
AlterPartition decision (broker epochs, partition epochs, ineligible replicas); leadership
moves are controlled shutdowns (the leader asks to shut down, the controller moves the
leadership and lets it go, it restarts later) or preferred elections (ElectLeaders).

The invariants are repl_sim's: no acknowledged acks=all record lost or reordered, the HW
never goes back on a leader, nothing read below a HW disappears, one writer per leader
epoch, identical logs after healing. Replay: `python tests/replication/controller_sim.py N`.
"""

from __future__ import annotations

import random
import sys

from repl_sim import NO_LEADER, Sim, SimFailure

from odradek.controller.decisions import BrokerRegistration, CreateTopicSpec, Decisions, Env
from odradek.controller.features import SUPPORTED  # what a broker registers with
from odradek.controller.image import MetadataDelta, MetadataImage
from odradek.controller.replication_control import PREFERRED, IsrUpdate
from odradek.replication.messages import AlterPartitionProposal, LeaderAndIsr
from odradek.wire.errors import ErrorCode

TOPIC = "t"


class ControllerSim(Sim):
    """repl_sim.Sim whose controller is odradek.controller's decisions over a metadata image."""

    def __init__(self, seed: int, **kw):
        self._image: MetadataImage | None = None
        self._offset = 0
        self._shutting: dict[int, int] = {}  # node -> when it restarts after a controlled shutdown
        super().__init__(seed, **kw)
        self.counts.update(preferred=0, controlled_shutdown=0)

    # ------------------------------------------------------------------ the metadata log
    def _decisions(self) -> Decisions:
        return Decisions(self._env, self._image)

    def _write(self, records: list) -> None:
        delta = MetadataDelta(self._image)
        for r in records:
            self._offset += 1
            delta.replay(r, self._offset)
        self._image = delta.apply()

    def _partition(self):
        return self._image.topics[TOPIC].partitions[0]

    def _sync_state(self) -> bool:
        """The partition as the image has it -> self.state; True if it changed."""
        p = self._partition()
        new = LeaderAndIsr(p.leader, p.leader_epoch, p.partition_epoch, frozenset(p.isr))
        changed = new != self.state
        self.state = new
        self.alive_epochs = {b.node_id: b.epoch for b in self._image.brokers.values() if not b.fenced}
        return changed

    def _bootstrap(self) -> None:
        r = self.rng
        rng = random.Random(self.seed)
        self._env = Env(0, {"min.insync.replicas": str(self.config.min_insync_replicas)},
                        lambda: rng.randbytes(16), rng)
        self._image = MetadataImage(cluster_id="sim")
        self._write(self._decisions().bootstrap().records)
        for i in self.ids:
            self._register(i)
            self._heartbeat(i)
        # the replicas in a random order: the first one leads (its preferred leader)
        replicas = list(self.ids)
        r.shuffle(replicas)
        res = self._decisions().create_topics([CreateTopicSpec(TOPIC, assignments={0: replicas})])
        assert res.response[0].error_code == 0, res.response[0]
        self._write(res.records)

    def _register(self, i: int) -> None:
        node = self.nodes[i]
        epoch = self._offset + 1  # the offset of its RegisterBrokerRecord, as Kafka's broker epoch
        reg = BrokerRegistration(i, i.to_bytes(8, "big") + epoch.to_bytes(8, "big"), [("PLAINTEXT", "sim", 9000 + i, 0)],
                                 dict(SUPPORTED), cluster_id="sim")
        res = self._decisions().register_broker(reg, epoch)
        assert res.response == 0, res.response
        self._write(res.records)
        node.broker_epoch = self._image.brokers[i].epoch

    def _heartbeat(self, i: int, want_shut_down: bool = False):
        node = self.nodes[i]
        res = self._decisions().broker_heartbeat(i, node.broker_epoch, self._offset, False, want_shut_down)
        assert res.response.error_code == 0, res.response
        self._write(res.records)
        return res.response

    # ------------------------------------------------------------------ repl_sim's controller, replaced
    def _publish(self) -> None:
        if self._image is None:
            self._bootstrap()
        self._sync_state()
        super()._publish()

    def _fence(self, i: int) -> None:
        """Broker i's session expired: the controller's fence decision."""
        self._write(self._decisions().fence([i]).records)
        self._publish()

    def _alter_partition(self, p: AlterPartitionProposal) -> LeaderAndIsr | ErrorCode:
        t = self._image.topics[TOPIC]
        leader = self.nodes[p.leader_id]
        update = IsrUpdate(0, p.leader_epoch, p.partition_epoch, [(m.broker_id, m.broker_epoch) for m in p.new_isr])
        res = self._decisions().alter_partition(p.leader_id, leader.broker_epoch, [(t.topic_id, [update])])
        code, topics = res.response
        if code:
            return ErrorCode(code)
        result = topics[0][1][0]
        if result.error_code:
            return ErrorCode(result.error_code)
        if res.records:
            self.counts["isr_change"] += 1
            self._write(res.records)
            self._publish()
        q = result.partition_image
        return LeaderAndIsr(q.leader, q.leader_epoch, q.partition_epoch, frozenset(q.isr))

    def _restart(self, i: int) -> None:
        node = self.nodes[i]
        node.alive = True
        node.meta_version = 0
        self._register(i)
        self.trace.append(f"t={self.t} restart {i} (broker epoch {node.broker_epoch})")
        self._heartbeat(i)  # caught up at once here: unfenced, leaderless partitions elect it
        self._publish()

    def _random_faults(self) -> None:
        r = self.rng
        saved, self.p_move = self.p_move, 0  # repl_sim's own moves are replaced below
        try:
            super()._random_faults()
        finally:
            self.p_move = saved
        if self.p_move and r.random() < self.p_move and self.state.leader_id != NO_LEADER:
            p = self._partition()
            if p.leader != p.preferred_leader and r.random() < 0.7:  # back to the preferred leader
                self._preferred_election()
            else:
                self._controlled_shutdown(self.state.leader_id)

    def _preferred_election(self) -> None:
        res = self._decisions().elect_leaders(PREFERRED, [(TOPIC, [0])])
        if res.records:
            self._write(res.records)
            self.counts["move"] += 1
            self.counts["preferred"] += 1
            self.trace.append(f"t={self.t} preferred election: leader {self._partition().leader}")
            self._publish()

    def _controlled_shutdown(self, i: int) -> None:
        """SIGTERM on the leader: it heartbeats with want_shut_down; the controller moves the
        leadership and takes it out of the ISR, then lets it go; it restarts later (its log
        flushed, as a clean shutdown leaves it)."""
        if not self._may_crash(i) or self.down_until:
            return
        first = self._heartbeat(i, want_shut_down=True)
        self._publish()
        self.counts["move"] += 1
        self.counts["controlled_shutdown"] += 1
        self.trace.append(f"t={self.t} controlled shutdown of {i}: leader {self.state.leader_id}")
        if not first.should_shut_down:
            if self._partition().leader == i:
                self.fail(f"broker {i} still leads after entering controlled shutdown")
            reply = self._heartbeat(i, want_shut_down=True)
            if not reply.should_shut_down:
                self.fail(f"broker {i} leads nothing but is not let go: {reply}")
        node = self.nodes[i]
        node.log.flushed = node.log.log_end_offset
        self._drop_role(node)
        node.alive = False
        self.down_until[i] = self.t + self.rng.randrange(5, 40)
        self._publish()


def run_seed(seed: int, **kw) -> ControllerSim:
    sim = ControllerSim(seed, **kw)
    sim.run()
    return sim


if __name__ == "__main__":
    for a in sys.argv[1:]:
        try:
            s = run_seed(int(a))
        except SimFailure as e:
            print(e)
            continue
        print(f"seed {a}: ok, t={s.t}, {s.produced} produced, {len(s.acked)} acked, "
              f"epochs {sorted(s.writers)}, moves {s.counts['move']}, errors {s.acks_errors}")
