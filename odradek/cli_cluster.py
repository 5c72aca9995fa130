"""`odradek cluster`: a local KRaft cluster on one machine (N controllers + M brokers),
one `odradek serve` process per node, configured with Kafka's property names.

Node ids: controllers 1..N, brokers N+1..N+M. Ports: broker k listens on
base-port + k (k = 0..M-1), controller i on base-port + 100 + i. Data: DIR/node-<id>.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time


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


def cluster_layout(controllers: int, brokers: int, base_port: int, data_dir: str,
                   host: str = "127.0.0.1") -> list[dict[str, str]]:
    voters = ",".join(f"{i}@{host}:{base_port + 100 + i}" for i in range(1, controllers + 1))
    nodes = [node_properties(i, "controller", voters, data_dir, None, base_port + 100 + i, host)
             for i in range(1, controllers + 1)]
    nodes += [node_properties(controllers + 1 + k, "broker", voters, data_dir, base_port + k, None, host)
              for k in range(brokers)]
    return nodes


def serve_command(props: dict[str, str], extra: list[str] = ()) -> list[str]:
    cmd = [sys.executable, "-m", "odradek", "serve"]
    for k, v in props.items():
        cmd += ["--override", f"{k}={v}"]
    for item in extra:
        cmd += ["--override", item]
    return cmd


def _cluster(args) -> int:
    if args.controllers < 1 or args.brokers < 0:
        print("odradek cluster: need at least one controller (--controllers) and no negative --brokers",
              file=sys.stderr)
        return 2
    nodes = cluster_layout(args.controllers, args.brokers, args.base_port, args.data_dir)
    os.makedirs(args.data_dir, exist_ok=True)
    procs = []
    for props in nodes:
        logf = open(os.path.join(args.data_dir, f"node-{props['node.id']}.log"), "ab")
        procs.append((props, subprocess.Popen(serve_command(props, args.override), stdout=logf,
                                              stderr=subprocess.STDOUT)))
    print(f"{'NODE':<6}{'ROLE':<12}{'LISTENERS':<60}PID")
    for props, p in procs:
        print(f"{props['node.id']:<6}{props['process.roles']:<12}{props['listeners']:<60}{p.pid}")
    bootstrap = ",".join(f"127.0.0.1:{args.base_port + k}" for k in range(args.brokers))
    print(f"bootstrap servers: {bootstrap or '(no brokers)'}; logs in {args.data_dir}/node-<id>.log; "
          "Ctrl-C stops the cluster", flush=True)
    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
    try:
        while not stop:
            for props, p in procs:
                if p.poll() is not None:
                    print(f"node {props['node.id']} exited with {p.returncode}", flush=True)
                    stop.append(1)
            time.sleep(0.2)
    except KeyboardInterrupt:
        pass
    for _, p in procs:
        if p.poll() is None:
            p.terminate()
    for _, p in procs:
        try:
            p.wait(10)
        except subprocess.TimeoutExpired:
            p.kill()
    print("cluster stopped", flush=True)
    return 0


def add_subparsers(sub) -> None:
    p = sub.add_parser("cluster", help="run a local KRaft cluster (N controllers + M brokers)",
                       description=__doc__.split("\n\n")[0] + " Node ids: controllers 1..N, brokers N+1..N+M; "
                       "broker k on BASE_PORT+k, controller i on BASE_PORT+100+i.")
    p.add_argument("--controllers", type=int, default=3, help="number of controller nodes (ids 1..N)")
    p.add_argument("--brokers", type=int, default=1, help="number of broker nodes (ids N+1..N+M)")
    p.add_argument("--base-port", type=int, default=19092,
                   help="broker k listens on BASE_PORT+k, controller i on BASE_PORT+100+i")
    p.add_argument("--data-dir", default="./odradek-cluster",
                   help="one directory per node under it (node-<id>), and the nodes' logs (node-<id>.log)")
    p.add_argument("--override", action="append", default=[], metavar="KEY=VALUE",
                   help="a property for every node (repeatable)")
    p.set_defaults(func=_cluster)
