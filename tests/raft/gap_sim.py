"""Scheduling gaps in the seeded Raft simulation (raft_sim.py): a node's process is not scheduled
for a while (CPU starvation, as measured at load 45-75: gaps of 0.8-2.6 s, i.e. 16-52 ticks of 50 ms,
next to a fetch timeout of 40). Meanwhile the messages sent to it wait unread (its socket buffers)
and its ticks do not run. When it runs again, the driver's order decides what its timers see:

- "timers-first": every missed tick, then the waiting messages (broker/raft_driver.py's _catch_up,
  Kafka's KafkaRaftClient.poll(): pollCurrentState(now) before each inbound message);
- "interleaved": a message, a missed tick, a message... (the driver before: one missed tick per
  turn of the event loop, the reads of waiting messages in between).

The network is calm (no drops, crashes or partitions): every election here comes from a gap. The
invariants of raft_sim.Sim are checked at every step and the quorum must commit after the gaps.
"""

from __future__ import annotations

import random

from raft_sim import Sim, SimNode

POLICIES = ("timers-first", "interleaved")


class GapSim(Sim):
    def __init__(self, seed: int, policy: str, *, p_gap: float = 0.03, **kw):
        if policy not in POLICIES:
            raise ValueError(policy)
        self.policy = policy
        self.paused_until: dict[int, int] = {}
        super().__init__(seed, **kw)
        self.p_crash = self.p_partition = self.p_drop = self.p_dup = self.p_resign = 0
        self.gap_rng = random.Random(seed * 7919 + 17)  # the same gaps for either policy
        self.p_gap = p_gap
        self.max_gap = 3 * self.config.fetch_timeout
        self.inbox: dict[int, list] = {i: [] for i in self.ids}
        self.missed: dict[int, int] = {i: 0 for i in self.ids}
        self.gaps: list[tuple[int, int, int]] = []  # (node, length in ticks, was leader)

    def step(self, faults: bool = True) -> None:
        if faults and self.gap_rng.random() < self.p_gap:
            free = [i for i in self.ids if i not in self.paused_until and self.nodes[i].raft is not None]
            if free:
                i = self.gap_rng.choice(free)
                length = self.gap_rng.randrange(1, self.max_gap)
                self.paused_until[i] = self.t + 1 + length
                self.gaps.append((i, length, int(self.nodes[i].raft.is_leader)))
                self.trace.append(f"t={self.t} {i} not scheduled for {length} ticks")
        super().step(faults)

    def _process(self, node: SimNode) -> None:
        if node.id not in self.paused_until:  # (a paused leader's proposal waits for it to run)
            super()._process(node)

    def _deliver(self, node: SimNode, env) -> None:
        if node.id in self.paused_until:
            self.inbox[node.id].append(env)
        else:
            super()._deliver(node, env)

    def _tick(self, node: SimNode) -> None:
        i = node.id
        until = self.paused_until.get(i)
        if until is not None and self.t < until:
            self.missed[i] += 1
            return
        if until is not None:
            del self.paused_until[i]
            inbox, self.inbox[i] = self.inbox[i], []
            missed, self.missed[i] = self.missed[i], 0
            self.trace.append(f"t={self.t} {i} runs again: {missed} ticks missed, {len(inbox)} messages waiting")
            super()._process(node)
            if self.policy == "timers-first":
                for _ in range(missed):
                    super()._tick(node)
                for env in inbox:
                    super()._deliver(node, env)
            else:
                for k in range(max(missed, len(inbox))):
                    if k < len(inbox):
                        super()._deliver(node, inbox[k])
                    if k < missed:
                        super()._tick(node)
        super()._tick(node)

    def elections(self) -> int:
        """Epochs that got a leader after the first."""
        return max(0, len(self.leaders) - 1)


def run_gap_seed(seed: int, policy: str, **kw) -> GapSim:
    sim = GapSim(seed, policy, **kw)
    sim.run()
    return sim
