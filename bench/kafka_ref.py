"""The reference broker for the benchmarks: Apache Kafka (KRaft, single node,
combined broker+controller) from Maven Central jars, plus a launcher for odradek
with the same interface.

The jars come from Maven Central through apache_kafka (apache_kafka/pom.xml, copied into
the per-user cache, ~/.cache/odradek); nothing is downloaded from anywhere else.

    python -m bench.kafka_ref jars                    # assemble the jars once (~55 MB)
    python -m bench.kafka_ref start PORT DIR [k=v..]  # format DIR and run Kafka on 127.0.0.1:PORT
    python -m bench.kafka_ref stop DIR
    python -m bench.kafka_ref tool CLASS [ARGS..]     # e.g. org.apache.kafka.tools.ProducerPerformance

Both launchers report the wall time from process start to the first Metadata
response that lists a broker (what a client needs before it can produce).
"""
from __future__ import annotations

import base64
import os
import shutil
import signal
import socket
import struct
import subprocess
import sys
import time
import uuid
from pathlib import Path

from apache_kafka import classpath, jars

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


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


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

    def __init__(self, directory: str, port: int | None = None, extra: dict[str, str] | None = None):
        self.dir = Path(directory)
        self.port = port or free_port()
        self.host = "127.0.0.1"
        self.extra = dict(extra or {})
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
            "listeners": f"PLAINTEXT://127.0.0.1:{self.port},CONTROLLER://127.0.0.1:{cport}",
            "advertised.listeners": f"PLAINTEXT://127.0.0.1:{self.port}",
            "controller.listener.names": "CONTROLLER",
            "inter.broker.listener.name": "PLAINTEXT",
            "listener.security.protocol.map": "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
            "log.dirs": str(data),
            "share.coordinator.state.topic.replication.factor": "1",
            "share.coordinator.state.topic.min.isr": "1",
            **COMMON,
            **self.extra,
        }
        return "".join(f"{k}={v}\n" for k, v in props.items())

    def _java(self) -> list[str]:
        return ["java", *KAFKA_JVM, f"-Dkafka.logs.dir={self.dir}",
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
        self.startup_s = wait_metadata(self.host, self.port, self.proc, t0)
        return self.startup_s


PYCACHE = HERE / ".cache" / "pycache"


def odradek_repo() -> Path:
    """The odradek tree to run: this checkout, or ODRADEK_BENCH_REPO (e.g. a git
    worktree of an older commit, for before/after comparisons)."""
    return Path(os.environ.get("ODRADEK_BENCH_REPO", REPO))


def odradek_env() -> dict[str, str]:
    """Environment for the odradek process: this checkout, with byte-code caching on
    (an installed package has its .pyc files; without them every start compiles
    ~150 modules, ~0.3 s). The cache goes to bench/.cache, not into the tree."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(odradek_repo()) + os.pathsep + env.get("PYTHONPATH", "")
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(PYCACHE)
    return env


def compile_odradek() -> None:
    """Write the .pyc files once, as `pip install` does."""
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(odradek_repo() / "odradek")], env=odradek_env(),
                   check=False, stdout=subprocess.DEVNULL)


class OdradekBroker(BrokerProc):
    """`python -m odradek serve` from this checkout."""

    name = "odradek"

    def start(self, fresh: bool = True) -> float:
        if fresh:
            shutil.rmtree(self.dir, ignore_errors=True)
        self.dir.mkdir(parents=True, exist_ok=True)
        compile_odradek()
        cmd = [sys.executable, "-m", "odradek", "serve", "--port", str(self.port),
               "--data-dir", str(self.dir / "data")]
        for k, v in {**COMMON, **self.extra}.items():
            cmd += ["--override", f"{k}={v}"]
        env = odradek_env()
        out = open(self.dir / "stdout.log", "ab")
        self._files = [out]
        t0 = time.monotonic()
        self.proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env, cwd=str(odradek_repo()),
                                     start_new_session=True)
        (self.dir / "pid").write_text(str(self.proc.pid))
        self.startup_s = wait_metadata(self.host, self.port, self.proc, t0)
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
    elif cmd == "tool":
        os.execvp("java", ["java", "-Xmx512M", "-Dlog4j2.rootLogger.level=WARN", "-cp", classpath(), *args])
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(_main(sys.argv[1:]))
