"""`odradek cluster`: a local KRaft cluster on one machine (N controllers + M brokers),
one `odradek serve` process per node, configured with Kafka's property names.

Node ids: controllers 1..N, brokers N+1..N+M. Ports: broker k listens on
base-port + k (k = 0..M-1), controller i on base-port + 100 + i. Data: DIR/node-<id>.

A node that exits (a crash, a kill -9) is reported with the command that starts it again; the other
nodes keep running. Lines on stdin restart, start, stop or kill a node by id (`restart 4`), or list
them (`status`); Ctrl-C or SIGTERM stops the cluster.

The internal topics get Kafka's replication defaults (offsets.topic.replication.factor,
transaction.state.log.replication.factor, share.coordinator.state.topic.replication.factor 3;
transaction.state.log.min.isr, share.coordinator.state.topic.min.isr 2) from 3 brokers on, a
replication factor of min(3, brokers) with fewer; --override sets any of them.
"""

from __future__ import annotations

import os
import queue
import shlex
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable


def node_properties(node_id: int, roles: str, voters: str, data_dir: str, broker_port: int | None,
                    controller_port: int | None, host: str = "127.0.0.1") -> dict[str, str]:
    listeners = []
    if broker_port is not None:
        listeners.append(f"PLAINTEXT://{host}:{broker_port}")
    if controller_port is not None:
        listeners.append(f"CONTROLLER://{host}:{controller_port}")
    return {
        "node.id": str(node_id), "process.roles": roles, "controller.quorum.voters": voters,
        "controller.listener.names": "CONTROLLER", "listeners": ",".join(listeners),
        "log.dirs": os.path.join(data_dir, f"node-{node_id}"),
    }


def layout_offsets(controllers: int, brokers: int) -> tuple[int, ...]:
    """The ports of cluster_layout as offsets from its base port: broker k on base+k, controller i on
    base+100+i."""
    return tuple(range(brokers)) + tuple(100 + i for i in range(1, controllers + 1))


def cluster_layout(controllers: int, brokers: int, base_port: int, data_dir: str,
                   host: str = "127.0.0.1") -> list[dict[str, str]]:
    voters = ",".join(f"{i}@{host}:{base_port + 100 + i}" for i in range(1, controllers + 1))
    nodes = [node_properties(i, "controller", voters, data_dir, None, base_port + 100 + i, host)
             for i in range(1, controllers + 1)]
    nodes += [node_properties(controllers + 1 + k, "broker", voters, data_dir, base_port + k, None, host)
              for k in range(brokers)]
    return nodes


# Kafka's defaults for the internal topics (replication factor 3, min ISR 2), which `odradek serve`
# alone lowers to 1 so that a single node works out of the box
INTERNAL_TOPIC_REPLICATION = ("offsets.topic.replication.factor", "transaction.state.log.replication.factor",
                              "share.coordinator.state.topic.replication.factor")
INTERNAL_TOPIC_MIN_ISR = ("transaction.state.log.min.isr", "share.coordinator.state.topic.min.isr")


def internal_topic_settings(brokers: int, overrides: list[str] = ()) -> dict[str, str]:
    """The internal topics' replication settings for a cluster of ``brokers`` brokers: Kafka's
    defaults (replication factor 3, min ISR 2) from 3 brokers on; with fewer, a replication factor
    of every broker (min(3, brokers)) and a min ISR of at most that; none of those the user sets
    with ``--override KEY=VALUE``."""
    if brokers < 1:
        return {}
    rf = min(3, brokers)
    wanted = {k: str(rf) for k in INTERNAL_TOPIC_REPLICATION} | {k: str(min(2, rf)) for k in INTERNAL_TOPIC_MIN_ISR}
    given = {item.split("=", 1)[0].strip() for item in overrides}
    return {k: v for k, v in wanted.items() if k not in given}


def serve_command(props: dict[str, str], extra: list[str] = ()) -> list[str]:
    cmd = [sys.executable, "-m", "odradek", "serve"]
    for k, v in props.items():
        cmd += ["--override", f"{k}={v}"]
    for item in extra:
        cmd += ["--override", item]
    return cmd


class Supervisor:
    """The nodes' processes: started, watched and restarted by id. A node that exits is reported with
    the command that starts it again; the other nodes keep running."""

    def __init__(self, nodes: list[dict[str, str]], extra: list[str], data_dir: str):
        self.props = {int(p["node.id"]): p for p in nodes}
        self.extra = list(extra)
        self.data_dir = data_dir
        self.procs: dict[int, subprocess.Popen] = {}
        self.reported: set[int] = set()

    def log_path(self, node_id: int) -> str:
        return os.path.join(self.data_dir, f"node-{node_id}.log")

    def command(self, node_id: int) -> list[str]:
        return serve_command(self.props[node_id], self.extra)

    def start(self, node_id: int) -> subprocess.Popen:
        with open(self.log_path(node_id), "ab") as logf:
            p = subprocess.Popen(self.command(node_id), stdout=logf, stderr=subprocess.STDOUT)
        self.procs[node_id] = p
        self.reported.discard(node_id)
        return p

    def running(self, node_id: int) -> bool:
        p = self.procs.get(node_id)
        return p is not None and p.poll() is None

    def exited(self) -> list[tuple[int, int]]:
        """(node id, exit code) of each node that exited since the last call."""
        out = []
        for node_id, p in self.procs.items():
            if node_id not in self.reported and p.poll() is not None:
                self.reported.add(node_id)
                out.append((node_id, p.returncode))
        return out

    def by_hand(self, node_id: int) -> str:
        """The shell command that starts the node again outside the cluster command."""
        return f"{shlex.join(self.command(node_id))} >> {shlex.quote(self.log_path(node_id))} 2>&1"

    def signal(self, node_id: int, sig: int) -> None:
        if self.running(node_id):
            self.procs[node_id].send_signal(sig)

    def stop_all(self, timeout: float = 10) -> None:
        for p in self.procs.values():
            if p.poll() is None:
                p.terminate()
        deadline = time.monotonic() + timeout
        for p in self.procs.values():
            try:
                p.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()


COMMANDS = {"restart": None, "start": None, "stop": signal.SIGTERM, "kill": signal.SIGKILL}
HELP = ("commands (one a line on stdin): restart ID | start ID (a node that is down) | stop ID (SIGTERM) | "
        "kill ID (SIGKILL) | status")


def _command(sup: Supervisor, line: str) -> None:
    words = line.split()
    if not words:
        return
    if words[0] == "status" and len(words) == 1:
        for node_id in sorted(sup.props):
            p = sup.procs.get(node_id)
            state = f"running, pid {p.pid}" if sup.running(node_id) else f"down (exit {p and p.returncode})"
            print(f"node {node_id}: {state}", flush=True)
        return
    if len(words) != 2 or words[0] not in COMMANDS or not words[1].isdigit() or int(words[1]) not in sup.props:
        print(f"unknown command {line.strip()!r}; {HELP}; node ids: "
              f"{', '.join(map(str, sorted(sup.props)))}", flush=True)
        return
    node_id, sig = int(words[1]), COMMANDS[words[0]]
    if sig is not None:
        sup.signal(node_id, sig)
        return
    if sup.running(node_id):
        if words[0] == "start":
            print(f"node {node_id} is running (pid {sup.procs[node_id].pid})", flush=True)
            return
        sup.signal(node_id, signal.SIGTERM)
        try:
            sup.procs[node_id].wait(30)
        except subprocess.TimeoutExpired:
            sup.signal(node_id, signal.SIGKILL)
            sup.procs[node_id].wait()
        sup.reported.add(node_id)
        print(f"node {node_id} stopped with {sup.procs[node_id].returncode}", flush=True)
    p = sup.start(node_id)
    print(f"node {node_id} started, pid {p.pid}", flush=True)


MAX_COMMAND_LINE = 256  # bytes; a longer line is no command


def read_commands(read: Callable[[int], bytes], lines: queue.Queue) -> None:
    """Put each line that ``read`` (os.read of stdin: no Python-level lock is held while it waits,
    so the interpreter can exit under it) gives on ``lines``, until it ends. A line longer than
    MAX_COMMAND_LINE bytes means stdin carries no commands (a binary file, /dev/zero): reading
    stops there with a message, so neither memory nor CPU goes to it."""
    pending = b""
    while chunk := read(4096):
        pending += chunk
        *complete, pending = pending.split(b"\n")
        for line in complete:
            if len(line) >= MAX_COMMAND_LINE:
                break
            lines.put(line.decode("utf-8", "replace") + "\n")
        else:
            if len(pending) < MAX_COMMAND_LINE:
                continue
        print(f"stdin: a line of over {MAX_COMMAND_LINE} bytes is no command; no more commands "
              "are read from stdin", flush=True)
        return
    if pending:
        lines.put(pending.decode("utf-8", "replace"))


def _cluster(args) -> int:
    if args.controllers < 1 or args.brokers < 0:
        print("odradek cluster: need at least one controller (--controllers) and no negative --brokers",
              file=sys.stderr)
        return 2
    data_dir = os.path.abspath(args.data_dir)
    nodes = cluster_layout(args.controllers, args.brokers, args.base_port, data_dir)
    os.makedirs(data_dir, exist_ok=True)
    internal = internal_topic_settings(args.brokers, args.override)
    sup = Supervisor(nodes, [f"{k}={v}" for k, v in internal.items()] + args.override, data_dir)
    for props in nodes:
        sup.start(int(props["node.id"]))
    print(f"{'NODE':<6}{'ROLE':<12}{'LISTENERS':<60}PID")
    for props in nodes:
        print(f"{props['node.id']:<6}{props['process.roles']:<12}{props['listeners']:<60}"
              f"{sup.procs[int(props['node.id'])].pid}")
    bootstrap = ",".join(f"127.0.0.1:{args.base_port + k}" for k in range(args.brokers))
    if internal:
        print("internal topics: " + ", ".join(f"{k}={v}" for k, v in internal.items()))
    print(f"bootstrap servers: {bootstrap or '(no brokers)'}; logs in {data_dir}/node-<id>.log; "
          f"Ctrl-C stops the cluster; {HELP}", flush=True)
    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
    lines: queue.Queue = queue.Queue()
    threading.Thread(target=read_commands, args=(lambda n: os.read(0, n), lines), daemon=True).start()
    try:
        while not stop:
            for node_id, code in sup.exited():
                up = [str(n) for n in sorted(sup.props) if sup.running(n)]
                print(f"node {node_id} exited with {code}; the other nodes keep running "
                      f"(up: {', '.join(up) or 'none'}). Restart it with `restart {node_id}` here, "
                      f"or by hand: {sup.by_hand(node_id)}", flush=True)
            try:
                _command(sup, lines.get(timeout=0.2))
            except queue.Empty:
                pass
    except KeyboardInterrupt:
        pass
    sup.stop_all()
    print("cluster stopped", flush=True)
    return 0


def add_subparsers(sub) -> None:
    p = sub.add_parser("cluster", help="run a local KRaft cluster (N controllers + M brokers)",
                       description=__doc__.split("\n\n")[0] + " Node ids: controllers 1..N, brokers N+1..N+M; "
                       "broker k on BASE_PORT+k, controller i on BASE_PORT+100+i. "
                       + " ".join(__doc__.split("\n\n")[i].replace("\n", " ") for i in (2, 3)))
    p.add_argument("--controllers", type=int, default=3, help="number of controller nodes (ids 1..N)")
    p.add_argument("--brokers", type=int, default=1, help="number of broker nodes (ids N+1..N+M)")
    p.add_argument("--base-port", type=int, default=19092,
                   help="broker k listens on BASE_PORT+k, controller i on BASE_PORT+100+i")
    p.add_argument("--data-dir", default="./odradek-cluster",
                   help="one directory per node under it (node-<id>), and the nodes' logs (node-<id>.log)")
    p.add_argument("--override", action="append", default=[], metavar="KEY=VALUE",
                   help="a property for every node (repeatable)")
    p.set_defaults(func=_cluster)
