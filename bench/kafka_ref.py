"""The reference broker for the benchmarks: Apache Kafka (KRaft, single node,
combined broker+controller, or a cluster of several nodes) from Maven Central jars,
plus a launcher for odradek with the same interface.

The jars come from Maven Central through apache_kafka (apache_kafka/pom.xml, copied into
the per-user cache, ~/.cache/odradek); nothing is downloaded from anywhere else.

    python -m bench.kafka_ref jars                    # assemble the jars once (~55 MB)
    python -m bench.kafka_ref start PORT DIR [k=v..]  # format DIR and run Kafka on 127.0.0.1:PORT
    python -m bench.kafka_ref stop DIR
    python -m bench.kafka_ref start-cluster DIR [--controllers C] [--brokers B] [k=v..]
                                                      # C controllers (ids 1..C) + B brokers (ids C+1..),
                                                      # or B combined nodes with --controllers 0
    python -m bench.kafka_ref kill DIR NODE_ID        # SIGKILL one node of that cluster
    python -m bench.kafka_ref restart DIR NODE_ID     # start it again (after kill or stop)
    python -m bench.kafka_ref stop-cluster DIR
    python -m bench.kafka_ref tool CLASS [ARGS..]     # e.g. org.apache.kafka.tools.ProducerPerformance

Both launchers report the wall time from process start to the first Metadata
response that lists a broker (what a client needs before it can produce).
"""
from __future__ import annotations

import base64
import contextlib
import os
import shutil
import signal
import socket
import struct
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

from apache_kafka import classpath, jars
from odradek.cli_cluster import layout_offsets
from odradek.testing.ports import free_port  # leased: no other test process hands it out meanwhile

HERE = Path(__file__).resolve().parent
REPO = HERE.parent

# Settings both brokers get. Matched by their defaults (left unset, so that topic
# configs report source DEFAULT_CONFIG as on a stock broker): 1 GiB segments, no
# fsync per message (log.flush.interval.messages = Long.MAX: the OS writes back).
COMMON = {
    "num.partitions": "1",
    "auto.create.topics.enable": "true",
    "offsets.topic.replication.factor": "1",
    "transaction.state.log.replication.factor": "1",
    "transaction.state.log.min.isr": "1",
    "group.initial.rebalance.delay.ms": "0",
    # a deleted topic's files go at once (default: 60 s later, on both brokers), so that
    # neither broker's next run finds the memory of the previous one still held (fresh
    # pages cost this VM several times recycled ones)
    "log.segment.delete.delay.ms": "0",
}

KAFKA_JVM = ["-Xmx1G", "-Xms1G", "-server", "-XX:+UseG1GC", "-XX:MaxGCPauseMillis=20",
             "-XX:InitiatingHeapOccupancyPercent=35", "-XX:+ExplicitGCInvokesConcurrent",
             "-Djava.awt.headless=true"]  # what kafka-server-start.sh uses


def _metadata_request(corr: int) -> bytes:
    # Metadata v1, request header v1: all topics (null array)
    client = b"bench"
    body = struct.pack(">hhih", 3, 1, corr, len(client)) + client + struct.pack(">i", -1)
    return struct.pack(">i", len(body)) + body


def metadata_brokers(host: str, port: int, timeout: float = 0.5) -> int | None:
    """Number of brokers in a Metadata v1 response, None if nothing answered."""
    try:
        with socket.create_connection((host, port), timeout) as s:
            s.settimeout(timeout)
            s.sendall(_metadata_request(7))
            buf = b""
            while len(buf) < 12:
                chunk = s.recv(65536)
                if not chunk:
                    return None
                buf += chunk
            size, corr, nbrokers = struct.unpack(">iii", buf[:12])
            return nbrokers if corr == 7 else None
    except OSError:
        return None


def wait_metadata(host: str, port: int, proc: subprocess.Popen, t0: float, timeout: float = 60) -> float:
    """Poll until Metadata lists a broker; returns seconds since t0."""
    deadline = t0 + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"broker exited with {proc.returncode} before answering Metadata")
        n = metadata_brokers(host, port)
        if n:
            return time.monotonic() - t0
        time.sleep(0.01)
    raise RuntimeError(f"no Metadata answer from {host}:{port} within {timeout} s")


class BrokerProc:
    """Common part: a subprocess we can measure (RSS, CPU seconds) and stop."""

    name = "?"
    startup_timeout_s = 60.0  # process start -> Metadata answer (a broker with many partitions takes longer)

    def __init__(self, directory: str, port: int | None = None, extra: dict[str, str] | None = None,
                 jvm: list[str] | None = None, more_listeners: dict[str, int] | None = None):
        """more_listeners: listeners besides PLAINTEXT on ``port``, security protocol -> port (the
        listener is named as its protocol; its settings go in ``extra``)."""
        self.dir = Path(directory)
        self.jvm = jvm or KAFKA_JVM  # KafkaBroker's JVM options
        self.port = port or free_port()
        self.host = "127.0.0.1"
        self.extra = dict(extra or {})
        self.more_listeners = dict(more_listeners or {})

    def listeners(self) -> list[str]:
        return [f"PLAINTEXT://{self.host}:{self.port}",
                *(f"{name}://{self.host}:{port}" for name, port in self.more_listeners.items())]
        self.proc: subprocess.Popen | None = None
        self.startup_s: float | None = None

    @property
    def bootstrap(self) -> str:
        return f"{self.host}:{self.port}"

    @property
    def pid(self) -> int:
        return self.proc.pid

    def rss_kb(self) -> int:
        with open(f"/proc/{self.pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        return 0

    def cpu_s(self) -> float:
        """user+system CPU seconds of the broker process (all threads) so far."""
        with open(f"/proc/{self.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        tick = os.sysconf("SC_CLK_TCK")
        return (int(fields[11]) + int(fields[12])) / tick

    def stop(self, timeout: float = 20) -> None:
        p = self.proc
        if p is None:
            return
        if p.poll() is None:
            p.send_signal(signal.SIGTERM)
            try:
                p.wait(timeout)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
        self.proc = None
        for f in getattr(self, "_files", ()):
            f.close()


class KafkaBroker(BrokerProc):
    """Apache Kafka in KRaft combined mode (broker + controller, node 1)."""

    name = "kafka"

    def properties(self, cport: int) -> str:
        data = self.dir / "data"
        props = {
            "process.roles": "broker,controller",
            "node.id": "1",
            "controller.quorum.voters": f"1@127.0.0.1:{cport}",
            "listeners": ",".join([*self.listeners(), f"CONTROLLER://127.0.0.1:{cport}"]),
            "advertised.listeners": ",".join(self.listeners()),
            "controller.listener.names": "CONTROLLER",
            "inter.broker.listener.name": "PLAINTEXT",
            "listener.security.protocol.map": ",".join(["PLAINTEXT:PLAINTEXT", "CONTROLLER:PLAINTEXT",
                                                        *(f"{n}:{n}" for n in self.more_listeners)]),
            "log.dirs": str(data),
            "share.coordinator.state.topic.replication.factor": "1",
            "share.coordinator.state.topic.min.isr": "1",
            **COMMON,
            **self.extra,
        }
        return "".join(f"{k}={v}\n" for k, v in props.items())

    def _java(self) -> list[str]:
        return ["java", *self.jvm, f"-Dkafka.logs.dir={self.dir}",
                f"-Dlog4j2.configurationFile={self.dir / 'log4j2.properties'}", "-cp", f"{jars()}/*"]

    def format(self) -> float:
        """Write server.properties and run the storage format step; returns seconds."""
        self.dir.mkdir(parents=True, exist_ok=True)
        cport = free_port()
        (self.dir / "server.properties").write_text(self.properties(cport))
        (self.dir / "log4j2.properties").write_text(
            "rootLogger.level=INFO\nrootLogger.appenderRef.f.ref=F\nappender.f.type=File\n"
            "appender.f.name=F\nappender.f.fileName=${sys:kafka.logs.dir}/server.log\n"
            "appender.f.layout.type=PatternLayout\nappender.f.layout.pattern=[%d] %p %m (%c)%n\n")
        cluster = base64.urlsafe_b64encode(uuid.uuid4().bytes).decode().rstrip("=")
        t0 = time.monotonic()
        r = subprocess.run([*self._java(), "kafka.tools.StorageTool", "format", f"--cluster-id={cluster}",
                            "-c", str(self.dir / "server.properties")], capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError(f"kafka storage format failed: {(r.stdout + r.stderr)[-800:]}")
        return time.monotonic() - t0

    def start(self, fresh: bool = True) -> float:
        if fresh:
            shutil.rmtree(self.dir, ignore_errors=True)
            self.format_s = self.format()
        out = open(self.dir / "stdout.log", "ab")
        self._files = [out]
        t0 = time.monotonic()
        self.proc = subprocess.Popen([*self._java(), "kafka.Kafka", str(self.dir / "server.properties")],
                                     stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        (self.dir / "pid").write_text(str(self.proc.pid))
        self.startup_s = wait_metadata(self.host, self.port, self.proc, t0, self.startup_timeout_s)
        return self.startup_s


# A cluster's nodes (several JVMs on one machine) get a smaller heap than the benchmark's single node.
KAFKA_CLUSTER_JVM = ["-Xmx512M", "-Xms512M", *KAFKA_JVM[2:]]
# The tests' Kafka nodes (compat_tests) compile with the client compiler only and collect with the serial
# collector: the same Kafka, a third less CPU to format, start and idle (3 nodes on a loaded 2-core
# machine: 33 -> 22 CPU seconds from format to ready); the benchmarks keep kafka-server-start.sh's options.
KAFKA_TEST_JVM = ["-Xmx512M", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Djava.awt.headless=true"]
# Settings every node of a cluster gets (internal topics keep Kafka's replication defaults: 3).
CLUSTER_COMMON = {"group.initial.rebalance.delay.ms": "0", "log.segment.delete.delay.ms": "0"}
# Kafka's log lines on stdout (a cluster's nodes are read line by line by their launcher)
CONSOLE_LOG4J = ("rootLogger.level=INFO\nrootLogger.appenderRef.c.ref=C\nappender.c.type=Console\n"
                 "appender.c.name=C\nappender.c.layout.type=PatternLayout\n"
                 "appender.c.layout.pattern=[%d] %p %m (%c)%n\n")
KAFKA_READY = "Kafka Server started"  # KafkaRaftServer's line once a node (any role) is up


def kafka_cluster_layout(controllers: int, brokers: int, base_port: int, root: str,
                         extra: dict[str, str] | None = None) -> list[dict[str, str]]:
    """server.properties of each node of a Kafka cluster in `odradek cluster`'s layout (same node ids,
    ports and node-<id> folders): controllers 1..C and brokers C+1.., or with controllers=0 `brokers`
    combined broker+controller nodes 1..B (controller i on base+100+i, broker k on base+k)."""
    from odradek.cli_cluster import cluster_layout

    if controllers:
        nodes = cluster_layout(controllers, brokers, base_port, root)
    else:
        voters = ",".join(f"{i}@127.0.0.1:{base_port + 100 + i}" for i in range(1, brokers + 1))
        nodes = [{"node.id": str(i), "process.roles": "broker,controller", "controller.quorum.voters": voters,
                  "controller.listener.names": "CONTROLLER",
                  "listeners": f"PLAINTEXT://127.0.0.1:{base_port + i - 1},"
                               f"CONTROLLER://127.0.0.1:{base_port + 100 + i}",
                  "log.dirs": os.path.join(root, f"node-{i}")} for i in range(1, brokers + 1)]
    out = []
    for props in nodes:
        kprops = {**props, "listener.security.protocol.map": "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT"}
        if "broker" in props["process.roles"]:
            plain = next(x for x in props["listeners"].split(",") if x.startswith("PLAINTEXT://"))
            kprops.update({"advertised.listeners": plain, "inter.broker.listener.name": "PLAINTEXT"})
        out.append({**kprops, **CLUSTER_COMMON, **(extra or {})})
    return out


class KafkaNode:
    """One node of a multi-node Kafka cluster: its folder (node-<id>: server.properties, log4j2.properties,
    data/) and its JVM, whose log lines go to stdout."""

    def __init__(self, directory: Path, props: dict[str, str], jvm: list[str] = KAFKA_CLUSTER_JVM):
        self.dir = Path(directory)
        self.jvm = jvm
        # data/ in the node's folder, unless the node was given a log dir of its own
        given = props.get("log.dirs")
        self.props = {**props, "log.dirs": given if given and Path(given) != self.dir else str(self.dir / "data")}
        self.id = int(props["node.id"])

    def format(self, cluster_id: str) -> None:
        self.dir.mkdir(parents=True, exist_ok=True)
        (self.dir / "server.properties").write_text("".join(f"{k}={v}\n" for k, v in self.props.items()))
        (self.dir / "log4j2.properties").write_text(CONSOLE_LOG4J)
        r = subprocess.run([*self._java(), "kafka.tools.StorageTool", "format", f"--cluster-id={cluster_id}",
                            "-c", str(self.dir / "server.properties")], capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError(f"kafka storage format of node {self.id} failed: {(r.stdout + r.stderr)[-800:]}")

    def _java(self) -> list[str]:
        return ["java", *self.jvm, f"-Dkafka.logs.dir={self.dir}",
                f"-Dlog4j2.configurationFile={self.dir / 'log4j2.properties'}", "-cp", f"{jars()}/*"]

    def command(self) -> list[str]:
        return [*self._java(), "kafka.Kafka", str(self.dir / "server.properties")]


def format_kafka_cluster(root: str, layout: list[dict[str, str]],
                         jvm: list[str] = KAFKA_CLUSTER_JVM) -> list[KafkaNode]:
    """The nodes of `layout` (kafka_cluster_layout) formatted under root/node-<id> with one cluster id,
    in parallel (a format is a JVM start, seconds each)."""
    from concurrent.futures import ThreadPoolExecutor

    cluster_id = base64.urlsafe_b64encode(uuid.uuid4().bytes).decode().rstrip("=")
    nodes = [KafkaNode(Path(root) / f"node-{p['node.id']}", p, jvm) for p in layout]
    with ThreadPoolExecutor(len(nodes)) as pool:
        list(pool.map(lambda n: n.format(cluster_id), nodes))
    return nodes


def kafka_broker_node(directory: str | Path, node_id: int, port: int, voters: str, cluster_id: str,
                      extra: dict[str, str] | None = None, jvm: list[str] = KAFKA_CLUSTER_JVM) -> KafkaNode:
    """One broker-only Kafka node (process.roles=broker) under a quorum that is not Kafka's own, e.g.
    odradek's controllers: `voters` is their controller.quorum.voters ("1@host:port,..."), `cluster_id`
    the cluster id they use (the log dir is formatted with it, as `kafka-storage format` requires).
    PLAINTEXT on 127.0.0.1:port for clients and replication, CONTROLLER named for the quorum; formatted
    under `directory`, not started (KafkaNode.command)."""
    props = {"node.id": str(node_id), "process.roles": "broker", "controller.quorum.voters": voters,
             "controller.listener.names": "CONTROLLER", "listeners": f"PLAINTEXT://127.0.0.1:{port}",
             "advertised.listeners": f"PLAINTEXT://127.0.0.1:{port}", "inter.broker.listener.name": "PLAINTEXT",
             "listener.security.protocol.map": "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
             **CLUSTER_COMMON, **(extra or {})}
    node = KafkaNode(Path(directory), props, jvm)
    node.format(cluster_id)
    return node


@dataclass
class KafkaQuorum:
    """A formatted Kafka controller quorum (process.roles=controller, ids 1..C) and, optionally, Kafka
    brokers on it (ids C+1..), for nodes of other kinds to join: its cluster id and voters string."""
    root: Path
    cluster_id: str
    voters: str  # controller.quorum.voters
    nodes: list[KafkaNode]
    procs: dict[int, subprocess.Popen]

    def broker_port(self, node_id: int) -> int:
        n = next(n for n in self.nodes if n.id == node_id)
        return int(n.props["listeners"].split(",")[0].rsplit(":", 1)[1])

    def stop(self, timeout: float = 30) -> None:
        """SIGTERM to the brokers, then the controllers; SIGKILL whatever outlives `timeout`."""
        for roles in ("broker", "controller"):
            procs = [p for n in self.nodes if n.props["process.roles"] == roles
                     if (p := self.procs.get(n.id)) is not None and p.poll() is None]
            for p in procs:
                p.send_signal(signal.SIGTERM)
            for p in procs:
                try:
                    p.wait(timeout)
                except subprocess.TimeoutExpired:
                    p.kill()
                    p.wait()


def format_kafka_quorum(root: str, controllers: int = 1, brokers: int = 0, base_port: int = 0,
                        extra: dict[str, str] | None = None, jvm: list[str] = KAFKA_CLUSTER_JVM) -> KafkaQuorum:
    """A controller-only Kafka quorum (process.roles=controller, ids 1..C) and `brokers` broker nodes
    (ids C+1..) in `odradek cluster`'s layout (controller i on base+100+i, broker k on base+k), each
    folder root/node-<id> formatted by Kafka's own `kafka-storage format` with one new cluster id;
    nothing started. A broker node's server.properties may be run by Kafka (KafkaNode.command) or by
    `odradek serve`, which takes the cluster and directory ids from the formatted log dir."""
    base = base_port or free_port(layout_offsets(controllers or brokers, brokers))
    layout = kafka_cluster_layout(controllers, brokers, base, root, extra)
    shutil.rmtree(root, ignore_errors=True)
    nodes = format_kafka_cluster(root, layout, jvm)
    cluster_id = (nodes[0].dir / "data" / "meta.properties").read_text().split("cluster.id=", 1)[1].split()[0]
    return KafkaQuorum(Path(root), cluster_id, layout[0]["controller.quorum.voters"], nodes, {})


def start_kafka_controllers(root: str, controllers: int = 1, brokers: int = 0, base_port: int = 0,
                            extra: dict[str, str] | None = None) -> KafkaQuorum:
    """format_kafka_quorum, then every node started as Kafka (detached, pid files as start-cluster).
    Returns once the processes are started: a caller waits on what it needs (a broker's Metadata)."""
    q = format_kafka_quorum(root, controllers, brokers, base_port, extra)
    q.procs.update({n.id: _start_detached(n) for n in q.nodes})
    return q


def _start_detached(node: KafkaNode) -> subprocess.Popen:
    out = open(node.dir / "stdout.log", "ab")
    proc = subprocess.Popen(node.command(), stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    out.close()
    (node.dir / "pid").write_text(str(proc.pid))
    return proc


def _cluster_nodes(root: str) -> dict[int, KafkaNode]:
    from odradek.config import read_properties_file

    nodes = {}
    for d in sorted(Path(root).glob("node-*")):
        props = read_properties_file(str(d / "server.properties"))
        nodes[int(props["node.id"])] = KafkaNode(d, props)
    return nodes


def _signal_pidfiles(pidfiles: list[Path], sig: int, wait_s: float) -> None:
    """Send sig to each pid file's process, wait until all are gone (SIGKILL after wait_s)."""
    pids = {}
    for f in pidfiles:
        if f.exists():
            pids[f] = int(f.read_text())
            with contextlib.suppress(ProcessLookupError):
                os.kill(pids[f], sig)
    deadline = time.monotonic() + wait_s
    for f, pid in pids.items():
        with contextlib.suppress(ProcessLookupError):
            while time.monotonic() < deadline:
                os.kill(pid, 0)
                time.sleep(0.1)
            os.kill(pid, signal.SIGKILL)
        f.unlink()


def _start_cluster(args: list[str]) -> None:
    import argparse

    ap = argparse.ArgumentParser(prog="python -m bench.kafka_ref start-cluster")
    ap.add_argument("dir")
    ap.add_argument("--controllers", type=int, default=3)
    ap.add_argument("--brokers", type=int, default=3)
    ap.add_argument("--base-port", type=int, default=0, help="default: a free port")
    ap.add_argument("props", nargs="*", metavar="k=v")
    a = ap.parse_intermixed_args(args)
    base = a.base_port or free_port(layout_offsets(a.controllers or a.brokers, a.brokers))
    layout = kafka_cluster_layout(a.controllers, a.brokers, base, a.dir, dict(kv.split("=", 1) for kv in a.props))
    shutil.rmtree(a.dir, ignore_errors=True)
    nodes = format_kafka_cluster(a.dir, layout)
    t0 = time.monotonic()
    procs = [(n, _start_detached(n)) for n in nodes]
    brokers = [(n, p) for n, p in procs if "broker" in n.props["process.roles"]]
    for n, p in brokers:
        port = int(next(x for x in n.props["listeners"].split(",") if x.startswith("PLAINTEXT")).rsplit(":", 1)[1])
        wait_metadata("127.0.0.1", port, p, t0, timeout=120)
    bootstrap = ",".join(next(x for x in n.props["listeners"].split(",") if x.startswith("PLAINTEXT"))[12:]
                         for n, _ in brokers)
    print(f"kafka cluster in {a.dir}: nodes {[n.id for n in nodes]}, bootstrap {bootstrap}, "
          f"Metadata after {time.monotonic() - t0:.1f} s")


PYCACHE = HERE / ".cache" / "pycache"


def odradek_repo(repo: Path | None = None) -> Path:
    """The odradek tree to run: ``repo``, else ODRADEK_BENCH_REPO (e.g. a git worktree of an
    older commit, for before/after comparisons), else this checkout."""
    return repo or Path(os.environ.get("ODRADEK_BENCH_REPO", REPO))


def odradek_env(repo: Path | None = None) -> dict[str, str]:
    """Environment for the odradek process: the tree (odradek_repo), with byte-code caching on
    (an installed package has its .pyc files; without them every start compiles
    ~150 modules, ~0.3 s). The cache goes to bench/.cache, not into the tree."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(odradek_repo(repo)) + os.pathsep + env.get("PYTHONPATH", "")
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(PYCACHE)
    return env


def compile_odradek(repo: Path | None = None) -> None:
    """Write the .pyc files once, as `pip install` does."""
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(odradek_repo(repo) / "odradek")],
                   env=odradek_env(repo), check=False, stdout=subprocess.DEVNULL)


class OdradekBroker(BrokerProc):
    """`python -m odradek serve` from this checkout (odradek_repo; ``repo``: another tree)."""

    name = "odradek"
    module = "odradek"  # what `python -m` runs (bench/loop_meter.py: the same serve on a metered loop)
    repo: Path | None = None

    def start(self, fresh: bool = True) -> float:
        if fresh:
            shutil.rmtree(self.dir, ignore_errors=True)
        self.dir.mkdir(parents=True, exist_ok=True)
        compile_odradek(self.repo)
        cmd = [sys.executable, "-m", self.module, "serve", "--data-dir", str(self.dir / "data")]
        for k, v in {**COMMON, "listeners": ",".join(self.listeners()), **self.extra}.items():
            cmd += ["--override", f"{k}={v}"]
        env = odradek_env(self.repo)
        out = open(self.dir / "stdout.log", "ab")
        self._files = [out]
        t0 = time.monotonic()
        self.proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env,
                                     cwd=str(odradek_repo(self.repo)), start_new_session=True)
        (self.dir / "pid").write_text(str(self.proc.pid))
        self.startup_s = wait_metadata(self.host, self.port, self.proc, t0, self.startup_timeout_s)
        return self.startup_s


BROKERS = {"kafka": KafkaBroker, "odradek": OdradekBroker}


def _main(argv: list[str]) -> int:
    if not argv:
        print(__doc__)
        return 2
    cmd, args = argv[0], argv[1:]
    if cmd == "jars":
        print(jars())
    elif cmd == "start":
        port, d = int(args[0]), args[1]
        extra = dict(kv.split("=", 1) for kv in args[2:])
        b = KafkaBroker(d, port, extra)
        s = b.start()
        b._files[0].close()
        print(f"kafka pid {b.pid} on {b.bootstrap}, Metadata after {s:.2f} s (format {b.format_s:.2f} s)")
    elif cmd == "stop":
        pidfile = Path(args[0]) / "pid"
        if pidfile.exists():
            pid = int(pidfile.read_text())
            try:
                os.kill(pid, signal.SIGTERM)
                for _ in range(200):
                    os.kill(pid, 0)
                    time.sleep(0.1)
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            pidfile.unlink()
    elif cmd == "start-cluster":
        _start_cluster(args)
    elif cmd == "kill":
        _signal_pidfiles([Path(args[0]) / f"node-{args[1]}" / "pid"], signal.SIGKILL, 10)
    elif cmd == "restart":
        _start_detached(_cluster_nodes(args[0])[int(args[1])])
    elif cmd == "stop-cluster":
        nodes = _cluster_nodes(args[0]).values()  # brokers first: their controlled shutdown needs the quorum
        _signal_pidfiles([n.dir / "pid" for n in nodes if n.props["process.roles"] == "broker"], signal.SIGTERM, 30)
        _signal_pidfiles([n.dir / "pid" for n in nodes], signal.SIGTERM, 30)
    elif cmd == "tool":
        os.execvp("java", ["java", "-Xmx512M", "-Dlog4j2.rootLogger.level=WARN", "-cp", classpath(), *args])
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(_main(sys.argv[1:]))
