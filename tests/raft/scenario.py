"""A small interpreter for Raft scenario files (tests/raft/testdata/*.txt), in the
manner of etcd raft's datadriven tests: each block is a command, a `----` line, and
the output it must produce. Lines starting with # are the story.

Commands:
  voters 1 2 3 [observers 101]   start nodes (empty disks)
  campaign N                     N's election timer fires now
  tick N [count]                 tick node N (count times)
  tick-all [count]               tick every live node
  deliver [N ...]                deliver queued messages (to N ... only), printing them
  stabilize                      deliver until no message is left, printing them
  drop [N ...]                   discard queued messages (to N ... only)
  propose N rec [rec ...]        one batch at node N
  resign N                       graceful resignation (EndQuorumEpoch)
  snapshot N                     N snapshots its applied state, dropping the log before it
  partition 1 2 / 3              only nodes on the same side hear each other
  heal                           no partition
  crash N [keep=K]               N stops; its disk keeps all (or only K of the last write's batches)
  restart N                      N starts from its disk
  status [N ...]                 one line per node
  log N                          N's batches
Set ODRADEK_REWRITE=1 to rewrite the expected outputs.
"""

from __future__ import annotations

import os
import pickle

from odradek.raft import MemoryStorage, RaftConfig, RaftNode, rpc

CONFIG = RaftConfig(election_timeout=10, fetch_timeout=20, request_timeout=5, fetch_max_wait=4)


def describe(env) -> str:
    m = env.msg
    name = type(m).__name__
    head = f"{env.src}->{env.dst} "
    try:
        p = rpc.part(m)
    except (IndexError, AttributeError):
        return head + f"{name}(error={m.error_code})"
    if name == "VoteRequest":
        kind = "PreVote" if p.pre_vote else "Vote"
        return head + f"{kind} epoch={p.replica_epoch} last={p.last_offset_epoch}@{p.last_offset}"
    if name == "VoteResponse":
        return head + f"VoteResponse {'granted' if p.vote_granted else 'rejected'} epoch={p.leader_epoch} leader={p.leader_id}" + _err(p)
    if name in ("BeginQuorumEpochRequest", "EndQuorumEpochRequest"):
        extra = f" preferred={rpc.preferred_successors(m)}" if name.startswith("End") else ""
        return head + f"{name[:-7]} epoch={p.leader_epoch} leader={p.leader_id}{extra}"
    if name in ("BeginQuorumEpochResponse", "EndQuorumEpochResponse"):
        return head + f"{name} epoch={p.leader_epoch} leader={p.leader_id}" + _err(p)
    if name == "FetchRequest":
        return head + f"Fetch epoch={p.current_leader_epoch} offset={p.fetch_offset} last_epoch={p.last_fetched_epoch} hw={p.high_watermark}"
    if name == "FetchResponse":
        s = head + f"FetchResponse epoch={p.current_leader.leader_epoch} leader={p.current_leader.leader_id}"
        if p.error_code:
            return s + _err(p)
        if p.diverging_epoch.end_offset >= 0:
            return s + f" diverging={p.diverging_epoch.epoch}@{p.diverging_epoch.end_offset}"
        if p.snapshot_id.end_offset >= 0:
            return s + f" snapshot={p.snapshot_id.end_offset}@{p.snapshot_id.epoch}"
        from odradek.raft.codec import decode_batches
        bs = decode_batches(p.records)
        rng = f" records={bs[0].base_offset}..{bs[-1].last_offset}" if bs else " records=none"
        return s + rng + f" hw={p.high_watermark}"
    if name == "FetchSnapshotRequest":
        return head + f"FetchSnapshot id={p.snapshot_id.end_offset}@{p.snapshot_id.epoch} position={p.position}"
    if name == "FetchSnapshotResponse":
        return head + f"FetchSnapshotResponse position={p.position} size={p.size}" + _err(p)
    return head + name


def _err(p) -> str:
    from odradek.wire.errors import ErrorCode
    return f" error={ErrorCode(p.error_code).name}" if p.error_code else ""


class Scenario:
    def __init__(self):
        self.nodes: dict[int, RaftNode | None] = {}
        self.disks: dict[int, MemoryStorage] = {}
        self.state: dict[int, list] = {}
        self.voters: list[int] = []
        self.queue: list = []
        self.side: dict[int, int] = {}
        self.last_ready: dict[int, object] = {}
        self.out: list[str] = []

    def _start(self, i):
        self.nodes[i] = RaftNode(i, self.voters, self.disks[i].load(), CONFIG, rng_seed=i)
        self.state[i] = []
        self._process(i)

    def _process(self, i):
        node = self.nodes[i]
        while node is not None and node.has_ready():
            rd = node.ready()
            self.disks[i].apply(rd)
            self.last_ready[i] = rd
            self.queue.extend(rd.messages)
            if rd.snapshot_to_apply is not None:
                self.state[i] = list(pickle.loads(rd.snapshot_to_apply.data))
            for b in rd.committed_entries:
                if not b.control:
                    self.state[i].append((b.base_offset, [r.decode() for r in b.records]))
            node.advance(rd)

    def _deliver(self, targets, once=True):
        batch, self.queue = self.queue, []
        for env in batch:
            if targets and env.dst not in targets:
                self.queue.append(env)
                continue
            node = self.nodes.get(env.dst)
            if node is None or self.side.get(env.src, 0) != self.side.get(env.dst, 0):
                self.out.append(describe(env) + "  (lost)")
                continue
            self.out.append(describe(env))
            node.step(env)
            self._process(env.dst)

    def run(self, cmd: str) -> str:
        self.out = []
        words = cmd.split()
        op, args = words[0], words[1:]
        ints = [int(a) for a in args if a.isdigit()]
        if op == "voters":
            obs = []
            if "observers" in args:
                k = args.index("observers")
                obs = [int(a) for a in args[k + 1:]]
                args = args[:k]
            self.voters = [int(a) for a in args]
            for i in self.voters + obs:
                self.disks[i] = MemoryStorage()
                self._start(i)
            return self._status(self.voters + obs)
        if op == "campaign":
            n = self.nodes[ints[0]]
            n.state.deadline = n.now
            if hasattr(n.state, "fetch_corr"):
                n.state.deadline = n.now + 1  # a follower's fetch timeout fires
            n.tick()
            self._process(ints[0])
            return self._status([ints[0]])
        if op == "tick":
            for _ in range(ints[1] if len(ints) > 1 else 1):
                self.nodes[ints[0]].tick()
                self._process(ints[0])
            return self._status([ints[0]])
        if op == "tick-all":
            for _ in range(ints[0] if ints else 1):
                for i, n in self.nodes.items():
                    if n is not None:
                        n.tick()
                        self._process(i)
            return self._status(sorted(self.nodes))
        if op == "deliver":
            self._deliver(set(ints))
            return "\n".join(self.out) or "(nothing)"
        if op == "stabilize":
            rounds = 0
            while self.queue and rounds < 100:
                self._deliver(set())
                rounds += 1
            return "\n".join(self.out) or "(nothing)"
        if op == "drop":
            keep = [e for e in self.queue if ints and e.dst not in ints]
            dropped = [e for e in self.queue if e not in keep]
            self.queue = keep
            return "\n".join(describe(e) + "  (dropped)" for e in dropped) or "(nothing)"
        if op == "propose":
            n = self.nodes[ints[0]]
            try:
                off = n.propose([a.encode() for a in args[1:]])
            except Exception as e:
                return f"error: {e}"
            self._process(ints[0])
            return f"last offset {off}"
        if op == "resign":
            self.nodes[ints[0]].resign()
            self._process(ints[0])
            return self._status([ints[0]])
        if op == "snapshot":
            i = ints[0]
            n = self.nodes[i]
            sid = n.snapshot(n.applied, pickle.dumps(self.state[i]))
            self._process(i)
            return f"snapshot {sid.end_offset}@{sid.epoch}\n" + self._status([i])
        if op == "partition":
            self.side = {}
            side = 0
            for a in args:
                if a == "/":
                    side += 1
                else:
                    self.side[int(a)] = side
            return "ok"
        if op == "heal":
            self.side = {}
            return "ok"
        if op == "crash":
            i = ints[0]
            self.nodes[i] = None
            keep = [a for a in args if a.startswith("keep=")]
            if keep:  # undo the tail of the last write: only K of its batches reached the disk
                rd = self.last_ready.get(i)
                k = int(keep[0][5:])
                lost = {b.base_offset for b in rd.entries[k:]}
                self.disks[i].batches = [b for b in self.disks[i].batches if b.base_offset not in lost]
            self.queue = [e for e in self.queue if e.dst != i]
            return "ok"
        if op == "restart":
            self._start(ints[0])
            return self._status([ints[0]])
        if op == "status":
            return self._status(ints or sorted(self.nodes))
        if op == "log":
            n = self.nodes[ints[0]]
            lines = [f"start={n.log.start_offset} (snapshot epoch {n.log.start_epoch})"]
            for b in n.log.batches:
                what = "LeaderChange" if b.control else " ".join(r.decode() for r in b.records)
                lines.append(f"{b.base_offset}..{b.last_offset} epoch={b.epoch} {what}")
            return "\n".join(lines)
        if op == "state":
            return "\n".join(f"{i}: {self.state[i]}" for i in (ints or sorted(self.nodes)))
        raise ValueError(f"unknown command {op!r}")

    def _status(self, ids) -> str:
        return "\n".join(self.nodes[i].status() if self.nodes[i] else f"{i}: down" for i in ids)


def parse(text: str):
    """[(command, expected, line)] from a scenario file."""
    blocks = []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.strip() or line.startswith("#"):
            i += 1
            continue
        cmd, start = line, i
        i += 1
        if i >= len(lines) or lines[i] != "----":
            raise ValueError(f"line {i + 1}: expected ---- after {cmd!r}")
        i += 1
        out = []
        while i < len(lines) and lines[i] != "":
            out.append(lines[i])
            i += 1
        blocks.append((cmd, "\n".join(out), start + 1))
    return blocks


def run_file(path: str) -> None:
    text = open(path).read()
    sc = Scenario()
    rewrite = os.environ.get("ODRADEK_REWRITE") == "1"
    out_lines = []
    pos = 0
    lines = text.split("\n")
    for cmd, expected, lineno in parse(text):
        got = sc.run(cmd)
        if rewrite:
            # keep the comments/blank lines before this command
            while pos < lineno - 1:
                out_lines.append(lines[pos])
                pos += 1
            out_lines += [cmd, "----", got]
            pos = lineno + 1  # skip command and ----
            while pos < len(lines) and lines[pos] != "":
                pos += 1
        elif got != expected:
            raise AssertionError(f"{os.path.basename(path)}:{lineno}: {cmd}\n--- expected\n{expected}\n--- got\n{got}")
    if rewrite:
        out_lines += lines[pos:]
        with open(path, "w") as f:
            f.write("\n".join(out_lines))
