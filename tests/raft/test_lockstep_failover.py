"""Two followers that lose the leader at the same tick still elect a new one.

Found with real processes: both followers' fetch timers fire together; each one's
pre-vote reached the other while it still followed the dead leader, the rejection
named that leader, and the prospective went back to following it (restarting its
timer) - forever. A prospective now ignores rejections naming the leader it lost,
unless they come from that leader itself.
"""

from odradek.raft import MemoryStorage, RaftNode


def _deliver(nodes, dead, rounds=50):
    for _ in range(rounds):
        moved = False
        for n in list(nodes.values()):
            if n.id in dead or not n.has_ready():
                continue
            rd = n.ready()
            storage[n.id].apply(rd)
            for env in rd.messages:
                if env.dst not in dead and env.dst in nodes:
                    inbox.append(env)
            n.advance(rd)
            moved = True
        while inbox:
            env = inbox.pop(0)
            nodes[env.dst].step(env)
            moved = True
        if not moved:
            return


storage = {}
inbox = []


def test_followers_timing_out_together_elect_a_leader():
    storage.clear()
    inbox.clear()
    nodes = {i: RaftNode(i, [1, 2, 3], None, rng_seed=i) for i in (1, 2, 3)}
    for i in nodes:
        storage[i] = MemoryStorage()
    for _ in range(200):  # elect someone
        for n in nodes.values():
            n.tick()
        _deliver(nodes, set())
        if any(n.is_leader for n in nodes.values()):
            break
    leader = next(n for n in nodes.values() if n.is_leader)
    for _ in range(5):
        for n in nodes.values():
            n.tick()
        _deliver(nodes, set())
    dead = {leader.id}
    alive = [n for n in nodes.values() if n.id not in dead]
    for _ in range(400):  # lockstep ticks with one node a tick ahead, instant delivery
        for n in alive:
            n.tick()
            _deliver(nodes, dead)
        if any(n.is_leader for n in alive):
            break
    assert any(n.is_leader for n in alive), [n.status() for n in alive]
    assert max(n.epoch for n in alive) > leader.epoch
