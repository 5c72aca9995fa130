"""Deterministic simulation of a Raft quorum: N RaftNodes in one process.

Everything random comes from one seed: message delay (so reordering), drops,
duplicates, partitions, crashes and restarts (disk kept, or the write in progress
only partly done), snapshots, resignations and proposals. After every step the
invariants are checked; a violation raises SimFailure naming the seed.
Replay a seed with `pytest tests/raft -k 'seed=N'` or `python tests/raft/raft_sim.py N`.

``async_disk``: each node drives its core as broker/raft_driver.py does with its raft IO thread: a
Ready with something to persist is written some steps later (the write's delay), and meanwhile the
node carries out nothing of it and steps no input into its core but proposals: messages wait, ticks
are counted, and once the write is done the missed ticks run, then the waiting messages in order. A
crash while a write is under way leaves none, a prefix or all of it on the disk.
"""

from __future__ import annotations

import errno
import heapq
import pickle
import random
import sys
from collections import deque

from odradek.log.fs import FaultyFileSystem, SimulatedCrash
from odradek.raft import MemoryStorage, RaftConfig, RaftNode
from odradek.raft.file_storage import FileStorage
from odradek.raft.quorum_state import Leader


class SimFailure(AssertionError):
    pass


# Round-trip every RPC through its Kafka wire encoding at this version.
WIRE_VERSIONS = {
    "VoteRequest": 2, "VoteResponse": 2, "BeginQuorumEpochRequest": 1, "BeginQuorumEpochResponse": 1,
    "EndQuorumEpochRequest": 1, "EndQuorumEpochResponse": 1, "FetchRequest": 17, "FetchResponse": 17,
    "FetchSnapshotRequest": 1, "FetchSnapshotResponse": 1,
}


def wire_roundtrip(env):
    msg = env.msg
    v = WIRE_VERSIONS[type(msg).__name__]
    return type(env)(env.src, env.dst, env.correlation_id, type(msg).decode(msg.encode(v), v))


class FileDisk:
    """The real FileStorage on the faulty filesystem, in MemoryStorage's shape. A crash
    mid-write stops the Ready's writes at a random byte (inside an entry, or in the
    quorum-state written after them) and reboots into what a power loss leaves ("torn")."""

    DIR = "/meta/__cluster_metadata-0"

    # which files a disk fault hits: any, the log, quorum-state, a snapshot
    FAULT_FILES = (None, lambda p: p.endswith(".log") or p.endswith(".log.tmp"),
                   lambda p: "quorum-state" in p, lambda p: ".checkpoint" in p)

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.fs = FaultyFileSystem(seed=rng.randrange(1 << 30))
        self.storage = FileStorage(self.DIR, self.fs)

    def fail_writes(self) -> str:
        """From now on writes (of one kind of file, or all) fail as a full disk (every one
        until clear_faults) or a failing one (once) does; or the next fsync fails (EIO)."""
        r = self.rng
        if r.random() < 0.2:
            self.fs.fail_fsync(errno.EIO, after=r.randrange(3))
            return "EIO at an fsync"
        err = r.choice((errno.ENOSPC, errno.EIO))
        self.fs.fail_writes(err, after=r.randrange(4), match=r.choice(self.FAULT_FILES),
                            sticky=err == errno.ENOSPC or r.random() < 0.5)
        return errno.errorcode[err]

    def clear_faults(self) -> None:
        self.fs.clear_write_faults()

    def load(self):
        return self.storage.load()

    def apply(self, ready, entries_limit: int | None = None) -> None:
        if entries_limit is None:
            self.storage.apply(ready)
            return
        done = sum(len(b.raw) for b in ready.entries[:entries_limit])
        self.fs.crash_after_bytes = self.fs.bytes_written + done + self.rng.randrange(256)
        try:
            self.storage.apply(ready)
        except (SimulatedCrash, OSError):  # (a disk fault before the crash point: down all the same)
            pass
        self.fs = self.fs.restart("torn", seed=self.rng.randrange(1 << 30))
        self.storage = FileStorage(self.DIR, self.fs)


class SimNode:
    def __init__(self, node_id, disk=None):
        self.id = node_id
        self.disk = disk if disk is not None else MemoryStorage()
        self.raft: RaftNode | None = None
        self.incarnation = 0
        self.state: list = []  # applied (offset, records) of data batches: the state machine
        self.next_apply = 0
        self.last_hw = 0
        # async_disk: the Ready being written and the step its write ends at, the messages that came
        # meanwhile, the ticks missed meanwhile, the tick of the last failed write (retried at a later one)
        self.writing: tuple | None = None
        self.held: deque = deque()
        self.missed = 0
        self.failed_tick = -1


class Sim:
    def __init__(self, seed: int, *, voters: int | None = None, observers: int | None = None,
                 steps: int = 400, wire: bool = True, files: bool = False, disk_faults: bool = False,
                 async_disk: bool = False):
        self.seed = seed
        self.rng = random.Random(seed)
        r = self.rng
        n = voters or r.choice((1, 3, 3, 3, 5))
        n_obs = observers if observers is not None else r.choice((0, 0, 1))
        self.voter_ids = list(range(1, n + 1))
        self.ids = self.voter_ids + list(range(101, 101 + n_obs))
        # Fault rates, drawn per seed so some runs are calm and some are stormy.
        self.p_drop = r.choice((0, 0.02, 0.1, 0.3))
        self.p_dup = r.choice((0, 0.02, 0.1))
        self.max_delay = r.choice((1, 2, 5))
        # Timeouts longer than a round trip, as real ones are (2 s vs milliseconds).
        rtt = 2 * self.max_delay
        self.config = RaftConfig(election_timeout=r.choice((5, 10)) + rtt, fetch_timeout=r.choice((10, 20)) + 2 * rtt,
                                 request_timeout=rtt + r.choice((1, 4)), fetch_max_wait=r.choice((0, 2, 4)),
                                 max_batches_per_fetch=r.choice((2, 8, 32)),
                                 snapshot_chunk_bytes=r.choice((64, 1024, 1 << 20)))
        self.steps = steps
        self.wire = wire
        self.p_crash = r.choice((0, 0.005, 0.02))
        self.p_torn = r.choice((0, 0.5))
        self.p_partition = r.choice((0, 0.01, 0.03))
        self.p_propose = r.choice((0.2, 0.5, 0.9))
        self.p_snapshot = r.choice((0, 0.01, 0.05))
        self.p_resign = r.choice((0, 0.005))
        if files:  # crash-heavy, on the real file layout
            self.p_crash, self.p_torn = 0.02, 0.5
        # disk_faults (files only): writes fail (ENOSPC, EIO) on a node for a while; its driver
        # does not act on a Ready it could not persist (sends nothing, does not advance), as
        # broker/raft_driver.py, and the core offers it again
        self.p_disk_fault = 0.03 if disk_faults and files else 0
        self.async_disk = async_disk
        self.crashes_while_writing = 0
        if async_disk:  # (its own random stream: the other seeds' runs stay as they were)
            self.io_rng = random.Random(seed * 104729 + 3)
            self.max_write_delay = self.io_rng.choice((1, 2, 4, 8))
            # a crash that finds a write under way (what a message sent before its write would break)
            self.p_crash_writing = self.io_rng.choice((0.02, 0.05, 0.1)) if self.p_crash else 0
        self.disk_fault_until: dict[int, int] = {}
        self.nodes = {i: SimNode(i, FileDisk(random.Random(seed * 7919 + i)) if files else None) for i in self.ids}
        self.net: list = []
        self.seq = 0
        self.t = 0
        self.group = {i: 0 for i in self.ids}  # partition: only same-group messages arrive
        self.heal_at = -1
        self.down_until: dict[int, int] = {}
        self.leaders: dict[int, int] = {}  # epoch -> leader id
        self.committed: dict[int, tuple] = {}  # offset -> (epoch, records), first applier wins
        self.commit_epoch: dict[int, int] = {}  # offset -> the first applier's epoch when it applied it
        self.proposals = 0
        self.trace: deque = deque(maxlen=60)
        for i in self.ids:
            self._start(i)

    # ------------------------------------------------------------------ faults
    def fail(self, why: str):
        tail = "\n".join(self.trace)
        raise SimFailure(f"seed={self.seed} t={self.t}: {why}\nlast events:\n{tail}")

    def _start(self, i: int) -> None:
        node = self.nodes[i]
        node.incarnation += 1
        node.state, node.next_apply, node.last_hw = [], 0, 0
        node.writing, node.missed, node.failed_tick = None, 0, -1
        node.held.clear()
        try:
            state = node.disk.load()
        except OSError as e:  # the load's repair could not write: tried again later
            self.trace.append(f"t={self.t} start {i} failed: {e}")
            self.down_until[i] = self.t + 5
            return
        node.raft = RaftNode(i, self.voter_ids, state, self.config,
                             rng_seed=self.seed * 1000 + i * 10 + node.incarnation)
        self.trace.append(f"t={self.t} start {i} -> {node.raft.status()}")
        self._process(node)

    def _crash(self, i: int, torn_ready=None) -> None:
        node = self.nodes[i]
        if node.writing is not None:  # the write under way: none, a prefix or all of it reached the disk
            rd = node.writing[0]
            fate = self.io_rng.randrange(3)
            try:
                if fate == 1 and rd.entries:
                    node.disk.apply(rd, entries_limit=self.io_rng.randrange(len(rd.entries) + 1))
                elif fate == 2:
                    node.disk.apply(rd)
            except OSError:
                pass
            self.trace.append(f"t={self.t} crash {i} while writing ({('nothing', 'a prefix', 'all')[fate]} written)")
            self.crashes_while_writing += 1
            node.writing = None
        node.raft = None
        self.down_until[i] = self.t + self.rng.randrange(5, 60)
        self.trace.append(f"t={self.t} crash {i}" + (" (mid-write)" if torn_ready else ""))

    # ------------------------------------------------------------------ driving
    def _process(self, node: SimNode) -> None:
        raft = node.raft
        if self.async_disk:
            self._process_async(node)
            return
        while raft is not None and raft.has_ready():
            rd = raft.ready()
            if self.p_crash and self.rng.random() < self.p_crash * self.p_torn and rd.entries:
                # Crash in the middle of writing: only a prefix of the new batches is on disk.
                node.disk.apply(rd, entries_limit=self.rng.randrange(len(rd.entries) + 1))
                self._crash(node.id, torn_ready=rd)
                return
            try:
                node.disk.apply(rd)
            except OSError as e:  # not advanced: the next Ready offers it again (its messages too)
                raft.not_persisted(rd)
                self.trace.append(f"t={self.t} {node.id} write failed: {e}")
                return
            self._carry_out(node, rd)

    def _carry_out(self, node: SimNode, rd) -> None:
        """A persisted Ready: its messages sent, what it commits applied, advanced."""
        for env in rd.messages:
            self._send(env)
        if rd.snapshot_to_apply is not None:
            self._apply_snapshot(node, rd.snapshot_to_apply)
        for b in rd.committed_entries:
            self._apply(node, b)
            b.forget_records()  # as the drivers do: later readers decode its raw bytes
        node.raft.advance(rd)
        self._check_node(node)

    # ------------------------------------------------------------------ async_disk (the raft IO thread)
    def _process_async(self, node: SimNode) -> None:
        raft = node.raft
        if raft is None or node.writing is not None:
            return
        while raft.has_ready():
            if raft.now == node.failed_tick:
                return  # (a failed write is tried again at the next tick)
            rd = raft.ready()
            if rd.writes:
                node.writing = (rd, self.t + self.io_rng.randrange(self.max_write_delay + 1))
                return
            self._carry_out(node, rd)

    def _end_writes(self) -> None:
        """The writes due by now: each written (or failed), carried out, then the node's missed ticks
        and waiting messages, as the driver's _write_done."""
        for node in self.nodes.values():
            if node.raft is None or node.writing is None or node.writing[1] > self.t:
                continue
            rd, node.writing = node.writing[0], None
            try:
                node.disk.apply(rd)
            except OSError as e:
                node.failed_tick = node.raft.now
                node.raft.not_persisted(rd)  # (its messages leave with the Ready that is written, as the driver's)
                self.trace.append(f"t={self.t} {node.id} write failed: {e}")
            else:
                self._carry_out(node, rd)
            self._resume(node)

    def _resume(self, node: SimNode) -> None:
        # as the driver (_catch_up_and_step_held): every missed tick, then every held input, then one Ready
        if node.writing is None:
            while node.missed:
                node.missed -= 1
                node.raft.tick()
            while node.held:
                node.raft.step(node.held.popleft())
        self._process(node)

    def _send(self, env) -> None:
        if self.rng.random() < self.p_drop:
            return
        copies = 2 if self.rng.random() < self.p_dup else 1
        for _ in range(copies):
            self.seq += 1
            at = self.t + 1 + self.rng.randrange(self.max_delay)
            heapq.heappush(self.net, (at, self.seq, env))

    def _apply(self, node: SimNode, b) -> None:
        if b.base_offset != node.next_apply:
            self.fail(f"node {node.id} applied offset {b.base_offset}, expected {node.next_apply}")
        node.next_apply = b.next_offset
        entry = (b.epoch, b.records, b.control)
        known = self.committed.setdefault(b.base_offset, entry)
        self.commit_epoch.setdefault(b.base_offset, node.raft.epoch)
        if known != entry:
            self.fail(f"node {node.id} applied {entry} at {b.base_offset}, committed was {known}")
        if not b.control:
            node.state.append((b.base_offset, b.records))

    def _snapshot_data(self, node: SimNode) -> bytes:
        """A snapshot of the node's state machine at raft.applied (a subclass adds its own state)."""
        return pickle.dumps((node.raft.applied, node.state))

    def _apply_snapshot(self, node: SimNode, snap) -> None:
        end, state = pickle.loads(snap.data)[:2]
        if end != snap.id.end_offset:
            self.fail(f"node {node.id} snapshot {snap.id} holds state up to {end}")
        for off, records in state:
            known = self.committed.get(off)
            if known is not None and known[1] != records:
                self.fail(f"node {node.id} snapshot has {records} at {off}, committed was {known}")
        node.state = list(state)
        node.next_apply = end

    def _check_node(self, node: SimNode) -> None:
        raft = node.raft
        if raft.hw < node.last_hw:
            self.fail(f"node {node.id} high watermark went back {node.last_hw} -> {raft.hw}")
        node.last_hw = raft.hw
        if isinstance(raft.state, Leader):
            prev = self.leaders.setdefault(raft.epoch, node.id)
            if prev != node.id:
                self.fail(f"two leaders in epoch {raft.epoch}: {prev} and {node.id}")
            if getattr(node, "checked_epoch", None) != raft.epoch:
                node.checked_epoch = raft.epoch
                self._check_leader_complete(node)

    def _check_leader_complete(self, node: SimNode) -> None:
        """A new leader's log holds every record committed in an earlier epoch (Leader Completeness;
        a leader of an old epoch that won its votes before a later epoch committed more, as one whose
        process was not scheduled in between can, need not hold those)."""
        log = node.raft.log
        for off, (epoch, records, control) in self.committed.items():
            if off < log.start_offset or self.commit_epoch[off] >= node.raft.epoch:
                continue
            if off >= log.end_offset:
                self.fail(f"leader {node.id} (epoch {node.raft.epoch}) lacks committed offset {off}")
            b = log.batches[log.index_of(off)]
            if (b.base_offset, b.epoch, b.records) != (off, epoch, records):
                self.fail(f"leader {node.id} has {b} where {off} was committed as {(epoch, records)}")

    def _leader(self):
        for node in self.nodes.values():
            if node.raft is not None and node.raft.is_leader:
                return node
        return None

    def step(self, faults: bool = True) -> None:
        self.t += 1
        r = self.rng
        if faults:
            self._random_faults()
        for i, until in list(self.disk_fault_until.items()):
            if self.t >= until:
                del self.disk_fault_until[i]
                self.nodes[i].disk.clear_faults()
                self.trace.append(f"t={self.t} disk of {i} back")
        for i, until in list(self.down_until.items()):
            if self.t >= until:
                del self.down_until[i]
                self._start(i)
        if self.async_disk:
            self._end_writes()
        # Proposals (and other inputs) go to the current leader(s).
        if r.random() < self.p_propose:
            for node in self.nodes.values():
                if node.raft is not None and node.raft.is_leader:
                    self.proposals += 1
                    data = [f"{self.seed}:{self.proposals}:{k}".encode() for k in range(r.randrange(1, 4))]
                    node.raft.propose(data)
                    self._process(node)
        # Deliver what is due.
        while self.net and self.net[0][0] <= self.t:
            _, _, env = heapq.heappop(self.net)
            node = self.nodes[env.dst]
            if node.raft is None or self.group[env.src] != self.group[env.dst]:
                continue
            if self.wire:
                env = wire_roundtrip(env)
            self._deliver(node, env)
        for node in self.nodes.values():
            if node.raft is not None:
                self._tick(node)

    def _deliver(self, node: SimNode, env) -> None:
        if node.writing is not None or node.held:
            node.held.append(env)  # (async_disk: stepped once the Ready being written is carried out)
            return
        node.raft.step(env)
        self._process(node)

    def _tick(self, node: SimNode) -> None:
        if node.writing is not None:
            node.missed += 1  # (async_disk: run once the Ready being written is carried out)
            return
        self._tick_now(node)

    def _tick_now(self, node: SimNode) -> None:
        raft = node.raft
        due, state, idle = raft.next_tick_due(), raft.state, not raft.has_ready()
        raft.tick()
        if raft.now < due and idle and (raft.has_ready() or raft.state is not state):
            # broker/raft_driver.py sleeps until the tick the core names: one before it must only count time
            self.fail(f"node {node.id} acted at tick {raft.now}, before the tick it said was next ({due})")
        self._process(node)

    def _random_faults(self) -> None:
        r = self.rng
        if self.async_disk and self.p_crash_writing:
            for i in self.ids:
                if self.nodes[i].writing is not None and self.io_rng.random() < self.p_crash_writing:
                    self._crash(i)
        if self.p_disk_fault and r.random() < self.p_disk_fault:
            i = r.choice(self.ids)
            what = self.nodes[i].disk.fail_writes()
            self.disk_fault_until[i] = self.t + r.randrange(5, 60)
            self.trace.append(f"t={self.t} disk of {i} fails: {what}")
        if self.p_crash and r.random() < self.p_crash:
            alive = [i for i in self.ids if self.nodes[i].raft is not None]
            if alive:
                self._crash(r.choice(alive))
        if self.heal_at == self.t:
            self.group = {i: 0 for i in self.ids}
            self.trace.append(f"t={self.t} heal")
        if self.p_partition and r.random() < self.p_partition:
            self.group = {i: r.randrange(2) for i in self.ids}
            self.heal_at = self.t + r.randrange(10, 80)
            self.trace.append(f"t={self.t} partition {self.group}")
        if self.p_snapshot and r.random() < self.p_snapshot:
            node = self.nodes[r.choice(self.ids)]
            raft = node.raft
            if raft is not None and raft.applied > raft.log.start_offset and node.writing is None:
                raft.snapshot(raft.applied, self._snapshot_data(node))
                self.trace.append(f"t={self.t} snapshot {node.id} at {raft.applied}")
                self._process(node)
        if self.p_resign and r.random() < self.p_resign:
            node = self._leader()
            if node is not None and node.writing is None:  # (the driver resigns at close, after the write)
                node.raft.resign()
                self.trace.append(f"t={self.t} resign {node.id}")
                self._process(node)

    # ------------------------------------------------------------------ runs
    def run(self) -> None:
        try:
            for _ in range(self.steps):
                self.step()
            self._settle()
        except SimFailure:
            raise
        except Exception as e:  # an assertion inside the core, or a crash of the core
            raise SimFailure(f"seed={self.seed} t={self.t}: {type(e).__name__}: {e}\nlast events:\n"
                             + "\n".join(self.trace)) from e

    def _settle(self) -> None:
        """Heal everything; the cluster must elect a leader and commit a new record everywhere."""
        self.group = {i: 0 for i in self.ids}
        self.p_drop = self.p_dup = 0
        self.p_propose = 0
        for i in list(self.disk_fault_until):
            del self.disk_fault_until[i]
            self.nodes[i].disk.clear_faults()
        for i in list(self.down_until):
            del self.down_until[i]
            self._start(i)
        marker, marker_epoch = None, None
        for _ in range(3000):
            self.step(faults=False)
            leader = self._leader()
            # (a leader restarted in the epoch it had when it crashed - its leadership was never
            # persisted - lost the marker with its unpersisted log: propose again)
            if leader is not None and (leader.id, leader.incarnation, leader.raft.epoch) != marker_epoch and \
                    (marker is None or self.committed.get(marker, (0, ()))[1] != (b"settle",)):
                # (Re)propose: an uncommitted marker may be truncated by a new leader.
                marker = leader.raft.propose([b"settle"])
                marker_epoch = (leader.id, leader.incarnation, leader.raft.epoch)
                self._process(leader)
            if marker is not None and all(n.next_apply > marker for n in self.nodes.values()) \
                    and self.committed[marker][1] == (b"settle",):
                break
        else:
            self.fail("no progress after healing: "
                      + "; ".join(n.raft.status() for n in self.nodes.values()))
        upto = min(n.next_apply for n in self.nodes.values())
        states = {i: [e for e in n.state if e[0] < upto] for i, n in self.nodes.items()}
        first = states[self.ids[0]]
        for i, st in states.items():
            if st != first:
                a, b = dict(first), dict(st)
                diff = sorted(k for k in a.keys() | b.keys() if a.get(k) != b.get(k))[:5]
                self.fail(f"node {i} state machine differs from node {self.ids[0]} at offsets {diff}: "
                          + "; ".join(f"{k}: {a.get(k)} vs {b.get(k)}" for k in diff))
        for node in self.nodes.values():
            self._check_leader_complete(node) if node.raft.is_leader else None


def run_seed(seed: int, **kw) -> Sim:
    sim = Sim(seed, **kw)
    sim.run()
    return sim


if __name__ == "__main__":
    for a in sys.argv[1:]:
        s = run_seed(int(a))
        print(f"seed {a}: ok, t={s.t}, {len(s.committed)} committed, epochs {sorted(s.leaders)}")
